# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_8', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_wq', 'q_8', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_8, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_m, n_wq, q_8, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, v, w_8, z_1, z_2, z_3):
    _x0 = t**(-1.0)
    _x1 = h*n_m
    _x2 = n_m - 1
    _x3 = F*_x2
    _x4 = _x0*(F*_x1 + lin_bias*(_x3 + h))
    _x5 = -_x4
    _x6 = is_mla - 1
    _x7 = _x6*d_h
    _x8 = a*h
    _x9 = _x7*_x8
    _x10 = d_v*is_mla
    _x11 = -_x10 + _x7
    _x12 = d_n + d_r
    _x13 = _x12*a
    _x14 = has_qlora - 1
    _x15 = _x14*h
    _x16 = has_qlora*r_q
    _x17 = _x13*_x15 - _x16*(_x13 + h + 1)
    _x18 = _x0*(_x11*_x8 + _x17*is_mla + _x9)
    _x19 = _x0*is_mla
    _x20 = t_g**(-1.0)
    _x21 = _x19 - _x20*_x6
    _x22 = 2*h
    _x23 = d_r + r_kv
    _x24 = r_kv*(d_n + d_v)
    _x25 = _x22*_x7*g - is_mla*(_x23*h + _x24*a + r_kv)
    _x26 = _x21*_x25
    _x27 = _x18 + _x26
    _x28 = z_3 - 1
    _x29 = c_8 + g_8*(_x28*mu + 2*mu - 2)
    _x30 = ln_bias + 1
    _x31 = _x30*h
    _x32 = 2*_x31
    _x33 = -_x18 - _x26
    _x34 = _x32 + _x33
    _x35 = _x34 + _x4
    _x36 = Z_d**(-1.0)
    _x37 = 2*z_1
    _x38 = _x37 + z_3 - 3
    _x39 = mu - 1
    _x40 = _x36*z_3
    _x41 = 1 - z_3
    _x42 = _x39*(_x40 + _x41) + mu*(-_x36*_x37 + _x38)
    _x43 = 2*_x42
    _x44 = Z_e**(-1.0)
    _x45 = _x44*z_3
    _x46 = _x39*(_x41 + _x45) + mu*(-_x37*_x44 + _x38)
    _x47 = M_e**(-1.0)
    _x48 = E*h
    _x49 = t_e**(-1.0)
    _x50 = F_e*_x49
    _x51 = _x47*_x48*_x50
    _x52 = _x51*n_m
    _x53 = E_s*F_s
    _x54 = _x0*_x53
    _x55 = _x1*_x54
    _x56 = E*router_bias + _x48 + _x55
    _x57 = _x34 + _x56
    _x58 = V*_x0
    _x59 = _x22*_x58
    _x60 = is_moe_model*n_m
    _x61 = _x51*_x60*k_mtp
    _x62 = u_1 - 1
    _x63 = _x62*tied
    _x64 = _x63 + tied - 1
    _x65 = _x58*h
    _x66 = -_x64*_x65
    _x67 = is_moe_model - 1
    _x68 = 5*_x31 - _x4*_x67 + _x56*is_moe_model + 2*h**2
    _x69 = _x31 + _x66 + k_mtp*(_x33 + _x68)
    _x70 = 1 - z_2
    _x71 = -_x36*z_2 - _x70
    _x72 = _x71*b_g
    _x73 = -_x44*z_2 - _x70
    _x74 = 4*mu - 12
    _x75 = 1 - z_1
    _x76 = _x36*z_1 + _x75
    _x77 = _x35*_x76
    _x78 = _x44*z_1 + _x75
    _x79 = _x52*_x78
    _x80 = -_x11
    _x81 = -_x17*is_mla
    _x82 = _x0*(_x8*_x80 + _x81 - _x9) - _x21*_x25
    _x83 = _x32 + _x56 + _x82
    _x84 = _x65*_x76
    _x85 = _x61*_x78
    _x86 = _x31 - _x64*_x65 + k_mtp*(_x68 + _x82)
    _x87 = _x0*a
    _x88 = 4*_x87*flash
    _x89 = _x23 + _x87*d_v
    _x90 = 2*is_mla*(_x0*_x13 + _x16 + _x89)
    _x91 = t_s**(-1.0)
    _x92 = _x91*h
    _x93 = _x92*(s_8 - 2)
    _x94 = _x22*_x91
    _x95 = _x94*drop
    _x96 = _x20*g
    _x97 = _x7*_x96
    _x98 = -4*_x97
    _x99 = c**(-1.0)
    _x100 = S*_x99
    _x101 = _x100*_x87
    _x102 = flash - 1
    _x103 = _x102*(3*drop + 2)
    _x104 = -_x101*_x103
    _x105 = _x104 + _x90 + 6*_x92 + _x93 + _x95 + _x98
    _x106 = _x105 + _x88
    _x107 = _x12*is_mla
    _x108 = -_x107 + _x7
    _x109 = _x108*_x87
    _x110 = _x11*_x87
    _x111 = -2*_x109 - _x110*s_8
    _x112 = F*_x0
    _x113 = h*s_8
    _x114 = _x0*_x3
    _x115 = 2*_x114
    _x116 = _x112*s_8 + _x113*_x91 + _x115
    _x117 = _x106 + _x111 + _x116
    _x118 = _x100*b
    _x119 = 8*_x92
    _x120 = E*_x91
    _x121 = _x54*n_m
    _x122 = 2*_x121
    _x123 = _x2*_x50
    _x124 = K*imb_mem
    _x125 = _x124*_x91
    _x126 = 4*_x120 + _x122 + _x125*t_e*(_x113 + 2*_x123 + _x22 + _x50*s_8)
    _x127 = _x104 + _x90 + _x93 + _x95 + _x98
    _x128 = _x127 + _x88
    _x129 = _x111 + _x119 + _x126 + _x128
    _x130 = 4*_x92
    _x131 = -2*_x108*_x87 + _x80*_x87*s_8
    _x132 = _x116 + _x130 + _x131
    _x133 = _x126 + _x131
    _x134 = S**2*_x87*b
    _x135 = _x103*_x134/c**2
    _x136 = _x118*_x130
    _x137 = -_x136
    _x138 = _x92*drop
    _x139 = _x112*n_m
    _x140 = _x19*a
    _x141 = _x140*(_x12 + d_v)
    _x142 = 2*_x118
    _x143 = -_x141*_x142
    _x144 = n_m - 2
    _x145 = _x19*has_qlora
    _x146 = has_qlora*is_mla
    _x147 = _x146 - 1
    _x148 = n_m - 3
    _x149 = 2*_x148
    _x150 = _x87 + _x96
    _x151 = 2*_x7
    _x152 = -2*_x0*_x80*a + 2*_x14*_x140*(2*d_n + d_r + d_v) + _x150*_x151 - 2*has_qlora*is_mla*(_x23 + _x92 + r_q)
    _x153 = F_e*_x125
    _x154 = _x120 + _x54
    _x155 = _x58*b_l
    _x156 = 4*z_3
    _x157 = z_2*(_x156 + b_g)
    _x158 = -_x35*_x67
    _x159 = _x65*u_1 + _x66
    _x160 = _x52 + _x56
    _x161 = _x158 + is_moe_model*(_x160 + _x34)
    _x162 = 2*z_3
    _x163 = t - 1
    _x164 = c_r - 1
    _x165 = 2*_x96
    _x166 = 2*_x141 - 2*_x165*_x7
    _x167 = _x166*reduce(minimum, [1, _x164]) + h*reduce(minimum, [1, _x163])
    _x168 = _x124*t_e
    _x169 = _x168*_x94
    _x170 = Pk**(-1.0)
    _x171 = c_r**(-1.0)
    _x172 = S*_x171
    _x173 = _x170*(flash - 2)*(_x10 + _x107 - _x151)/(-_x102*eta + _x172*eta_a*flash/(L_a0 + _x172))
    _x174 = _x134*_x99
    _x175 = _x173*_x174
    _x176 = -3*_x175
    _x177 = W_hbm**(-1.0)
    _x178 = 2*_x144*eager + n_m
    _x179 = 2*_x178
    _x180 = drop + 32*eager + 10
    _x181 = _x102*(5*drop + 4)
    _x182 = -_x101*_x181 + 4*eager*(-_x0*_x7*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x110 + 5*d_r*is_mla*(_x87 + 1))
    _x183 = _x180*_x94 + _x182
    _x184 = _x177*(_x112*_x179 + _x183)
    _x185 = 3*_x118
    _x186 = f_8 - 1
    _x187 = _x118*h
    _x188 = _x112*h
    _x189 = _x112*_x118
    _x190 = _x188 + _x189
    _x191 = 2*_x177
    _x192 = _x118*_x22
    _x193 = _x112*_x192
    _x194 = T_m**(-1.0)
    _x195 = reduce(maximum, [1, h])
    _x196 = ceil(_x194*_x195)
    _x197 = N_sm**(-1.0)
    _x198 = T_n**(-1.0)
    _x199 = reduce(maximum, [1, _x118])
    _x200 = _x197*ceil(_x198*_x199)
    _x201 = _x196*_x200
    _x202 = _x195*_x198
    _x203 = ceil(_x202)
    _x204 = _x197*ceil(_x194*_x199)
    _x205 = _x203*_x204
    _x206 = ceil(2*_x202)
    _x207 = _x204*_x206
    _x208 = reduce(maximum, [_x201/ceil(_x201), _x205/ceil(_x205), _x207/ceil(_x207)])**(-1.0)
    _x209 = _x170/eta
    _x210 = _x208*_x209
    _x211 = _x114*_x118
    _x212 = _x114*h + _x187
    _x213 = reduce(maximum, [1, _x114])
    _x214 = _x200*ceil(_x194*_x213)
    _x215 = _x198*_x213
    _x216 = _x204*ceil(_x215)
    _x217 = _x204*ceil(2*_x215)
    _x218 = _x114/reduce(maximum, [_x214/ceil(_x214), _x216/ceil(_x216), _x217/ceil(_x217)])
    _x219 = reduce(maximum, [_x193*_x210, _x191*(_x187 + _x190)]) + reduce(maximum, [_x192*_x209*_x218, _x191*(_x211 + _x212)])
    _x220 = _x0*(_x25 - _x81 + _x9)
    _x221 = _x220/h
    _x222 = _x118*_x221
    _x223 = -S*_x99*b*h
    _x224 = _x220 + _x223
    _x225 = reduce(maximum, [1, -_x221])
    _x226 = _x198*_x225
    _x227 = _x204*ceil(_x226)
    _x228 = _x200*ceil(_x194*_x225)
    _x229 = _x204*ceil(2*_x226)
    _x230 = _x142*_x220/reduce(maximum, [_x227/ceil(_x227), _x228/ceil(_x228), _x229/ceil(_x229)])
    _x231 = _x110*_x118
    _x232 = _x110*h + _x231
    _x233 = _x110*_x192
    _x234 = reduce(maximum, [-_x209*_x230, _x191*(-_x222 - _x224)]) + reduce(maximum, [-_x210*_x233, _x191*(-_x223 - _x232)])
    _x235 = _x186*(_x219 + _x234)
    _x236 = _x177*(_x190 + _x192)
    _x237 = 1/(Pk_8*eta_8)
    _x238 = _x208*_x237
    _x239 = _x193*_x238
    _x240 = reduce(maximum, [_x236, _x239])
    _x241 = _x177*(_x115*_x118 + _x212)
    _x242 = _x192*_x237
    _x243 = _x218*_x242
    _x244 = reduce(maximum, [_x241, _x243])
    _x245 = h*n_wq
    _x246 = _x144*h
    _x247 = _x118*s_x
    _x248 = _x114*_x245 + _x188*n_wq + _x189 + _x246*_x247
    _x249 = _x6*s_x
    _x250 = _x249 + 1
    _x251 = _x87*d_h
    _x252 = _x165*d_h
    _x253 = -_x110*_x245 - _x231 - _x249*h*(_x185 + _x251*n_wq + _x252*n_wq) + _x250*(_x187 - _x220*n_wq)
    _x254 = -_x222*_x250 - _x247*_x7*(_x165 + _x87)
    _x255 = _x177*q_8
    _x256 = w_8**(-1.0)
    _x257 = _x177*(2*S*_x99*b*h - _x232)
    _x258 = _x233*_x238
    _x259 = reduce(maximum, [_x257, -_x258])
    _x260 = _x177*(-_x142*_x221 - _x224)
    _x261 = _x230*_x237
    _x262 = reduce(maximum, [_x260, -_x261])
    _x263 = _x96*d_h
    _x264 = _x177*(_x118*_x252 + _x187 + _x263*h)
    _x265 = reduce(maximum, [1, _x263])
    _x266 = _x198*_x265
    _x267 = _x204*ceil(_x266)
    _x268 = _x200*ceil(_x194*_x265)
    _x269 = _x204*ceil(2*_x266)
    _x270 = _x242*_x263/reduce(maximum, [_x267/ceil(_x267), _x268/ceil(_x268), _x269/ceil(_x269)])
    _x271 = _x177*(_x142*_x251 + _x187 + _x251*h)
    _x272 = reduce(maximum, [1, _x251])
    _x273 = _x198*_x272
    _x274 = _x204*ceil(_x273)
    _x275 = _x200*ceil(_x194*_x272)
    _x276 = _x204*ceil(2*_x273)
    _x277 = _x242*_x251/reduce(maximum, [_x274/ceil(_x274), _x275/ceil(_x275), _x276/ceil(_x276)])
    _x278 = 2*reduce(maximum, [_x264, _x270]) + reduce(maximum, [_x271, _x277])
    _x279 = -_x249*_x278 + _x250*_x262
    _x280 = -_x249*(_x278 + 2*reduce(maximum, [_x264, _x256*_x270]) + reduce(maximum, [_x271, _x256*_x277])) + _x250*(_x262 + reduce(maximum, [_x260, -_x256*_x261])) + 2*_x259 + _x279 + reduce(maximum, [_x257, -_x256*_x258])
    _x281 = _x176 + _x184*_x185 - 3*_x235 + f_8*(2*_x240 + 2*_x244 + _x255*(3*_x187 + _x211 + _x248 + _x253 + _x254) + _x280 + reduce(maximum, [_x236, _x239*_x256]) + reduce(maximum, [_x241, _x243*_x256]))
    _x282 = _x118*_x177
    _x283 = E*_x47
    _x284 = _x168*(reduce(maximum, [0, reduce(minimum, [1, _x283 - 1])]) + 1)
    _x285 = _x119*_x284
    _x286 = _x180*_x92
    _x287 = 20*_x120 + _x153*_x179 + _x179*_x54 + _x285
    _x288 = _x177*_x185
    _x289 = _x118*_x120
    _x290 = _x118*_x92
    _x291 = reduce(maximum, [1, E])
    _x292 = _x118*_x91
    _x293 = reduce(maximum, [1, _x292])
    _x294 = _x197*ceil(_x194*_x291)*ceil(_x198*_x293)
    _x295 = _x198*_x291
    _x296 = _x197*ceil(_x194*_x293)
    _x297 = _x296*ceil(_x295)
    _x298 = _x296*ceil(2*_x295)
    _x299 = _x292*_x48
    _x300 = reduce(maximum, [_x191*(_x289 + _x290 + _x48), 2*_x209*_x299/reduce(maximum, [_x294/ceil(_x294), _x297/ceil(_x297), _x298/ceil(_x298)])])
    _x301 = _x300*f_8
    _x302 = _x54*h
    _x303 = _x118*_x54
    _x304 = _x302 + _x303
    _x305 = _x0*_x192
    _x306 = F_s*_x305
    _x307 = _x2*_x54
    _x308 = _x187 + _x2*_x302
    _x309 = reduce(maximum, [1, _x307])
    _x310 = _x198*_x309
    _x311 = _x204*ceil(_x310)
    _x312 = _x200*ceil(_x194*_x309)
    _x313 = _x204*ceil(2*_x310)
    _x314 = _x2*_x306/reduce(maximum, [_x311/ceil(_x311), _x312/ceil(_x312), _x313/ceil(_x313)])
    _x315 = reduce(maximum, [_x209*_x314, _x191*(_x118*_x307 + _x308)]) + reduce(maximum, [_x210*_x306, _x191*(_x187 + _x304)])
    _x316 = K*imb
    _x317 = _x316/_x291
    _x318 = M_e*_x317
    _x319 = _x318*t_e
    _x320 = _x290*_x319
    _x321 = _x50*h
    _x322 = _x292*_x318
    _x323 = F_e*_x322
    _x324 = _x321 + _x323
    _x325 = _x191*_x283
    _x326 = _x322*t_e
    _x327 = reduce(maximum, [1, _x326])
    _x328 = _x197*reduce(maximum, [1, _x283])
    _x329 = _x328*ceil(_x198*_x327)
    _x330 = _x196*_x329
    _x331 = _x328*ceil(_x194*_x327)
    _x332 = _x203*_x331
    _x333 = _x206*_x331
    _x334 = F_e/reduce(maximum, [_x330/ceil(_x330), _x332/ceil(_x332), _x333/ceil(_x333)])
    _x335 = _x118*_x94
    _x336 = _x316*_x335
    _x337 = _x209*_x336
    _x338 = _x2*_x323
    _x339 = _x2*_x321 + _x320
    _x340 = reduce(maximum, [1, _x123])
    _x341 = _x329*ceil(_x194*_x340)
    _x342 = _x198*_x340
    _x343 = _x331*ceil(_x342)
    _x344 = _x331*ceil(2*_x342)
    _x345 = F_e*_x2
    _x346 = _x345/reduce(maximum, [_x341/ceil(_x341), _x343/ceil(_x343), _x344/ceil(_x344)])
    _x347 = reduce(maximum, [_x334*_x337, _x325*(_x320 + _x324)]) + reduce(maximum, [_x337*_x346, _x325*(_x338 + _x339)])
    _x348 = E_s*_x315 + _x300 + _x347
    _x349 = _x186*(_x234 + _x348)
    _x350 = _x177*(_x192 + _x304)
    _x351 = _x238*_x306
    _x352 = _x177*(_x142*_x307 + _x308)
    _x353 = _x237*_x314
    _x354 = reduce(maximum, [_x350, _x351]) + reduce(maximum, [_x352, _x353])
    _x355 = E_s*_x354
    _x356 = _x177*_x283
    _x357 = _x356*(_x319*_x335 + _x324)
    _x358 = _x237*_x336
    _x359 = _x334*_x358
    _x360 = reduce(maximum, [_x357, _x359])
    _x361 = _x356*(2*_x338 + _x339)
    _x362 = _x346*_x358
    _x363 = reduce(maximum, [_x361, _x362])
    _x364 = _x317*t_e
    _x365 = _x299*_x364
    _x366 = _x144*s_x
    _x367 = F_e*(_x245*_x49 + _x322)
    _x368 = _x47*(_x123*n_wq + _x326)
    _x369 = _x187 + _x245*_x307 + _x245*_x54 + _x303
    _x370 = E_s*_x369 + _x283*_x367 + _x365*_x366 + _x368*_x48
    _x371 = _x253 + _x370
    _x372 = _x176 - _x282*_x285 + _x288*(_x182 + _x286) + _x288*(_x286 + _x287) + 3*_x301 - 3*_x349 + f_8*(E_s*(_x354 + reduce(maximum, [_x350, _x256*_x351]) + reduce(maximum, [_x352, _x256*_x353])) + _x255*(E_s*_x118*(_x307 + h) + _x187 + _x254 + _x289*_x317*_x345 + _x365 + _x371) + _x280 + _x355 + 2*_x360 + 2*_x363 + reduce(maximum, [_x357, _x256*_x359]) + reduce(maximum, [_x361, _x256*_x362]))
    _x373 = -_x175
    _x374 = _x187 + _x248
    _x375 = _x240 + _x244
    _x376 = _x259 + _x279
    _x377 = _x282*(_x183 + _x287)
    _x378 = _x360 + _x363
    _x379 = _x355 + _x378
    _x380 = -_x174*(_x173 + _x177*_x181*_x99)
    _x381 = _x119*_x282*(8*eager + 1)
    _x382 = _x237*f_8
    _x383 = _x186*_x209
    _x384 = _x140*_x142*(_x382 - _x383)*(_x12*_x16 + _x24)
    _x385 = -_x145*a*(_x12*r_q + _x24) + _x15*_x89*is_mla + _x150*_x7*h
    _x386 = -2*_x144*_x188*(_x146 + 1) + 2*_x148*_x188 + 2*_x385
    _x387 = _x153*_x178
    _x388 = _x118*_x191
    _x389 = _x147*_x54
    _x390 = -_x154*has_qlora*is_mla
    _x391 = _x142*(_x148*h*(-_x389 - _x390) - _x246*(-2*_x389 - _x390) + _x385)
    _x392 = reduce(maximum, [1, _x58])
    _x393 = _x200*ceil(_x194*_x392)
    _x394 = _x198*_x392
    _x395 = _x204*ceil(_x394)
    _x396 = _x204*ceil(2*_x394)
    _x397 = 30*_x282*_x58 + 3*reduce(maximum, [_x191*(_x118*_x58 + _x187 + _x65), _x118*_x209*_x59/reduce(maximum, [_x393/ceil(_x393), _x395/ceil(_x395), _x396/ceil(_x396)])])
    _x398 = 2*alpha
    _x399 = _x0/W_tp
    _x400 = _x187*_x399
    _x401 = 4*_x400
    _x402 = _x400*a_8
    _x403 = _x398 + _x401 - _x402
    _x404 = _x163*_x403
    _x405 = t_e - 1
    _x406 = _x124/W_etp
    _x407 = _x163*_x402
    _x408 = _x163*_x398 + _x163*_x401 - _x407
    _x409 = _x136*_x405*_x406 + _x398*_x405 + _x408
    _x410 = _x335*_x406
    _x411 = c_u - 1
    _x412 = _x118*(_x0*a*d_v*is_mla - _x109 - _x97)/(W_cu*c_u)
    _x413 = 3*_x164*reduce(maximum, [0, _x171*_x175 + alpha + _x118*_x166/W_cr]) + _x398*_x411 + 8*_x411*_x412
    _x414 = _x411*(4*_x412 + alpha)
    _x415 = M_e - 1
    _x416 = _x336*_x415*_x47
    _x417 = reduce(maximum, [_x416*f_off/W_eout, -_x416*(f_off - 1)/W_ein])
    _x418 = _x415*alpha + _x417
    _x419 = _x405*_x410 + _x405*alpha
    _x420 = W_pp**(-1.0)
    _x421 = _x4 + _x82
    _x422 = _x156 + b_r*z_2
    _x423 = _x32 + _x421
    _x424 = W_dpcp**(-1.0)
    _x425 = Z_d - 1
    _x426 = _x424*_x425
    _x427 = _x36*_x426
    _x428 = W_edp**(-1.0)
    _x429 = Z_e - 1
    _x430 = 2*g_8
    _x431 = _x55 + _x82
    _x432 = _x428*_x429*_x44
    _x433 = _x432*_x61
    _x434 = z_1*(z_2 - 1)
    _x435 = _x28*z_2
    _x436 = _x434 + _x435
    _x437 = _x436*g_8
    _x438 = _x434*(b_r + 2) + 2*_x435 + 2*b_r*(z_1 - 1)
    _x439 = _x63*(_x420*_x59*b_r + alpha)
    _x440 = _x427*_x438
    _x441 = _x177*(b_g + 26)
    return [
        0,
        _x29*f_8*(-_x27 - _x5) - _x35*_x43,
        _x29*f_8*(_x33 + _x52 + _x55) - _x43*_x57 - 2*_x46*_x52,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x42*_x59,
        -2*_x42*_x69 - 2*_x46*_x61,
        0,
        0,
        -_x35*_x72,
        -b_g*(_x52*_x73 + _x57*_x71),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x65*_x72,
        -b_g*(_x61*_x73 + _x69*_x71),
        0,
        0,
        -_x74*_x77,
        -_x74*(_x76*_x83 + _x79),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x74*_x84,
        -_x74*(_x76*_x86 + _x85),
        0,
        0,
        _x117*_x118,
        _x118*_x129,
        _x118*(-_x128 - _x132),
        _x118*(-_x106 - _x133),
        _x135,
        _x137,
        -_x118*(_x138 + 2*_x139),
        _x143,
        _x118*(-_x127 - _x132 + 2*_x144*(F*_x145 - _x147*(_x112 + _x92)) - _x149*(-_x112*_x147 + _x91*h*has_qlora*is_mla) - _x152),
        _x135,
        _x137,
        _x118*(-_x126 - _x130 - _x138 + _x91*h*(drop + 4)),
        -_x142*_x153,
        -_x118*_x122,
        _x143,
        _x118*(-_x105 - _x133 + 2*_x144*(_x146*(_x54 + _x92) - _x147*_x154) - _x149*(_x145*_x53 - _x147*_x91*(E + h)) - _x152),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x118*(_x155 + k_mtp*(-_x117*_x67 + _x129*is_moe_model + _x155)),
        0,
        _x157*_x35,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x157*_x161 + _x162*(_x159 + _x161) + b_g*z_2*(_x159 + (_x158 + is_moe_model*(-_x27 + 2*_x30*h))*(v - 1)),
        _x157*(_x160 + _x5),
        _x142*(_x139 + _x167),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x142*(F*_x0*_x67*n_m - _x167 - _x169*is_moe_model - _x60*(_x153 + _x54)),
        _x142*(_x121 - _x139 + _x153*n_m + _x169),
        0,
        _x281,
        _x372,
        _x118*_x184 - _x235 + _x373 + f_8*(_x255*(_x253 + _x374) + _x375 + _x376),
        _x301 - _x349 + _x373 + _x377 + f_8*(_x255*_x371 + _x376 + _x379),
        _x380,
        _x381,
        _x178*_x189*_x191 - _x186*_x219 + f_8*(_x255*_x374 + _x375),
        _x384,
        _x118*(_x184 - _x382*_x386 + _x383*_x386),
        _x380,
        _x381,
        -_x186*_x348 + _x301 + _x388*(10*_x120 + _x130*_x284 + _x178*_x54 + _x387) + f_8*(_x255*_x370 + _x379),
        _x387*_x388,
        E_s*(F_s*_x0*_x178*_x388 - _x186*_x315 + f_8*(_x255*_x369 + _x354)),
        _x384,
        -_x186*_x347 + _x377 - _x382*_x391 + _x383*_x391 + f_8*(E*_x255*(_x290*_x364*_x366 + _x367*_x47 + _x368*h) + _x378),
        0,
        _x397 + k_mtp*(-_x281*_x67 + _x372*is_moe_model + _x397),
        0,
        0,
        4*_x404,
        2*_x409,
        2*_x404,
        _x409,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2*k_mtp*(-_x404*_x67 + 2*_x405*is_moe_model*(_x410 + alpha) + _x408),
        0,
        0,
        _x413,
        _x413,
        _x414,
        _x414,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x413*k_mtp,
        0,
        0,
        0,
        4*_x418,
        0,
        2*_x418,
        0,
        0,
        _x403*((1/2)*t - 1/2),
        0,
        _x404,
        0,
        0,
        2*_x418 + 2*_x419,
        0,
        0,
        0,
        _x163*_x192*_x399 + _x163*alpha + _x398*_x415 - 1/2*_x407 + 2*_x417 + _x419,
        0,
        4*_x418*is_moe_model*k_mtp,
        0,
        -2*_x62*v*(_x305*_x420 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x427*(-_x162*_x421*g_8 + _x422*_x423),
        E*F_e*_x422*_x428*_x429*_x44*_x47*_x49*h*n_m + _x36*_x422*_x424*_x425*_x83 - _x40*_x426*_x430*_x431 - _x428*_x429*_x430*_x45*_x52,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x422*_x427*_x65,
        _x422*(_x427*_x69 + _x433),
        0,
        0,
        _x427*(_x421*_x437 - _x423*_x438),
        _x427*(_x431*_x437 - _x438*_x83),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x439 - _x440*_x65,
        -_x439 - _x440*_x86,
        0,
        0,
        0,
        _x432*_x52*(_x436*g_8 - _x438),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x433*_x438,
        0,
        0,
        _x441*_x77,
        _x441*(_x57*_x76 + _x79),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x441*_x84,
        _x441*(_x69*_x76 + _x85),
        0]

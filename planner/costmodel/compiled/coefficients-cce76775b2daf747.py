# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_8', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_wq', 'q_8', 'r_kv', 'r_q', 'router_bias', 's_8', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_8, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_m, n_wq, q_8, r_kv, r_q, router_bias, s_8, t, t_e, t_g, t_s, tied, u_1, v, w_8, z_1, z_2, z_3):
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
    _x47 = t_e**(-1.0)
    _x48 = F_e*_x47
    _x49 = M_e**(-1.0)
    _x50 = E*h
    _x51 = _x49*_x50
    _x52 = _x48*_x51
    _x53 = _x52*n_m
    _x54 = E_s*F_s
    _x55 = _x0*_x54
    _x56 = _x1*_x55
    _x57 = E*router_bias + _x50 + _x56
    _x58 = _x34 + _x57
    _x59 = V*_x0
    _x60 = _x22*_x59
    _x61 = is_moe_model*n_m
    _x62 = _x52*_x61*k_mtp
    _x63 = u_1 - 1
    _x64 = _x63*tied
    _x65 = _x64 + tied - 1
    _x66 = _x59*h
    _x67 = -_x65*_x66
    _x68 = is_moe_model - 1
    _x69 = 5*_x31 - _x4*_x68 + _x57*is_moe_model + 2*h**2
    _x70 = _x31 + _x67 + k_mtp*(_x33 + _x69)
    _x71 = 1 - z_2
    _x72 = -_x36*z_2 - _x71
    _x73 = _x72*b_g
    _x74 = -_x44*z_2 - _x71
    _x75 = 4*mu - 12
    _x76 = 1 - z_1
    _x77 = _x36*z_1 + _x76
    _x78 = _x35*_x77
    _x79 = _x44*z_1 + _x76
    _x80 = _x53*_x79
    _x81 = -_x11
    _x82 = -_x17*is_mla
    _x83 = _x0*(_x8*_x81 + _x82 - _x9) - _x21*_x25
    _x84 = _x32 + _x57 + _x83
    _x85 = _x66*_x77
    _x86 = _x62*_x79
    _x87 = _x31 - _x65*_x66 + k_mtp*(_x69 + _x83)
    _x88 = _x0*a
    _x89 = 4*_x88*flash
    _x90 = _x23 + _x88*d_v
    _x91 = 2*is_mla*(_x0*_x13 + _x16 + _x90)
    _x92 = t_s**(-1.0)
    _x93 = _x92*h
    _x94 = _x93*(s_8 - 2)
    _x95 = _x22*_x92
    _x96 = _x95*drop
    _x97 = _x20*g
    _x98 = _x7*_x97
    _x99 = -4*_x98
    _x100 = c**(-1.0)
    _x101 = S*_x100
    _x102 = _x101*_x88
    _x103 = flash - 1
    _x104 = _x103*(3*drop + 2)
    _x105 = -_x102*_x104
    _x106 = _x105 + _x91 + 6*_x93 + _x94 + _x96 + _x99
    _x107 = _x106 + _x89
    _x108 = _x12*is_mla
    _x109 = -_x108 + _x7
    _x110 = _x109*_x88
    _x111 = _x11*_x88
    _x112 = -2*_x110 - _x111*s_8
    _x113 = F*_x0
    _x114 = h*s_8
    _x115 = _x0*_x3
    _x116 = 2*_x115
    _x117 = _x113*s_8 + _x114*_x92 + _x116
    _x118 = _x107 + _x112 + _x117
    _x119 = _x101*b
    _x120 = 8*_x93
    _x121 = E*_x92
    _x122 = _x55*n_m
    _x123 = 2*_x122
    _x124 = _x2*_x48
    _x125 = K*imb_mem
    _x126 = _x125*_x92
    _x127 = 4*_x121 + _x123 + _x126*t_e*(_x114 + 2*_x124 + _x22 + _x48*s_8)
    _x128 = _x105 + _x91 + _x94 + _x96 + _x99
    _x129 = _x128 + _x89
    _x130 = _x112 + _x120 + _x127 + _x129
    _x131 = 4*_x93
    _x132 = -2*_x109*_x88 + _x81*_x88*s_8
    _x133 = _x117 + _x131 + _x132
    _x134 = _x127 + _x132
    _x135 = S**2*_x88*b
    _x136 = _x104*_x135/c**2
    _x137 = -_x119*_x131
    _x138 = _x93*drop
    _x139 = _x113*n_m
    _x140 = _x19*a
    _x141 = _x140*(_x12 + d_v)
    _x142 = 2*_x119
    _x143 = -_x141*_x142
    _x144 = n_m - 2
    _x145 = _x19*has_qlora
    _x146 = has_qlora*is_mla
    _x147 = _x146 - 1
    _x148 = n_m - 3
    _x149 = 2*_x148
    _x150 = _x88 + _x97
    _x151 = 2*_x7
    _x152 = -2*_x0*_x81*a + 2*_x14*_x140*(2*d_n + d_r + d_v) + _x150*_x151 - 2*has_qlora*is_mla*(_x23 + _x93 + r_q)
    _x153 = F_e*_x126
    _x154 = _x121 + _x55
    _x155 = _x59*b_l
    _x156 = 4*z_3
    _x157 = z_2*(_x156 + b_g)
    _x158 = -_x35*_x68
    _x159 = _x66*u_1 + _x67
    _x160 = _x53 + _x57
    _x161 = _x158 + is_moe_model*(_x160 + _x34)
    _x162 = 2*z_3
    _x163 = t - 1
    _x164 = c_r - 1
    _x165 = 2*_x141 - 2*_x151*_x97
    _x166 = _x165*reduce(minimum, [1, _x164]) + h*reduce(minimum, [1, _x163])
    _x167 = _x125*t_e
    _x168 = _x167*_x95
    _x169 = Pk**(-1.0)
    _x170 = c_r**(-1.0)
    _x171 = S*_x170
    _x172 = _x169*(flash - 2)*(_x10 + _x108 - _x151)/(-_x103*eta + _x171*eta_a*flash/(L_a0 + _x171))
    _x173 = _x100*_x135
    _x174 = _x172*_x173
    _x175 = -3*_x174
    _x176 = W_hbm**(-1.0)
    _x177 = 2*_x144*eager + n_m
    _x178 = 2*_x177
    _x179 = drop + 32*eager + 10
    _x180 = _x103*(5*drop + 4)
    _x181 = -_x102*_x180 + 4*eager*(-_x0*_x7*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x111 + 5*d_r*is_mla*(_x88 + 1))
    _x182 = _x179*_x95 + _x181
    _x183 = _x176*(_x113*_x178 + _x182)
    _x184 = _x119*_x183
    _x185 = f_8 - 1
    _x186 = _x119*h
    _x187 = _x113*h
    _x188 = _x113*_x119
    _x189 = _x187 + _x188
    _x190 = 2*_x176
    _x191 = _x119*_x22
    _x192 = _x113*_x191
    _x193 = T_m**(-1.0)
    _x194 = reduce(maximum, [1, h])
    _x195 = ceil(_x193*_x194)
    _x196 = N_sm**(-1.0)
    _x197 = T_n**(-1.0)
    _x198 = reduce(maximum, [1, _x119])
    _x199 = _x196*ceil(_x197*_x198)
    _x200 = _x195*_x199
    _x201 = _x194*_x197
    _x202 = ceil(_x201)
    _x203 = _x196*ceil(_x193*_x198)
    _x204 = _x202*_x203
    _x205 = ceil(2*_x201)
    _x206 = _x203*_x205
    _x207 = reduce(maximum, [_x200/ceil(_x200), _x204/ceil(_x204), _x206/ceil(_x206)])**(-1.0)
    _x208 = _x169/eta
    _x209 = _x207*_x208
    _x210 = _x115*_x119
    _x211 = _x115*h + _x186
    _x212 = reduce(maximum, [1, _x115])
    _x213 = _x199*ceil(_x193*_x212)
    _x214 = _x197*_x212
    _x215 = _x203*ceil(_x214)
    _x216 = _x203*ceil(2*_x214)
    _x217 = _x115*_x191/reduce(maximum, [_x213/ceil(_x213), _x215/ceil(_x215), _x216/ceil(_x216)])
    _x218 = reduce(maximum, [_x192*_x209, _x190*(_x186 + _x189)]) + reduce(maximum, [_x208*_x217, _x190*(_x210 + _x211)])
    _x219 = _x0*(_x25 - _x82 + _x9)
    _x220 = _x219/h
    _x221 = _x119*_x220
    _x222 = -S*_x100*b*h
    _x223 = _x219 + _x222
    _x224 = reduce(maximum, [1, -_x220])
    _x225 = _x197*_x224
    _x226 = _x203*ceil(_x225)
    _x227 = _x199*ceil(_x193*_x224)
    _x228 = _x203*ceil(2*_x225)
    _x229 = _x142*_x219/reduce(maximum, [_x226/ceil(_x226), _x227/ceil(_x227), _x228/ceil(_x228)])
    _x230 = _x111*_x119
    _x231 = _x111*h + _x230
    _x232 = _x111*_x191
    _x233 = reduce(maximum, [-_x208*_x229, _x190*(-_x221 - _x223)]) + reduce(maximum, [-_x209*_x232, _x190*(-_x222 - _x231)])
    _x234 = _x185*(_x218 + _x233)
    _x235 = _x176*(_x189 + _x191)
    _x236 = 1/(Pk_8*eta_8)
    _x237 = _x207*_x236
    _x238 = _x192*_x237
    _x239 = reduce(maximum, [_x235, _x238])
    _x240 = _x176*(_x116*_x119 + _x211)
    _x241 = _x217*_x236
    _x242 = reduce(maximum, [_x240, _x241])
    _x243 = -_x221
    _x244 = h*n_wq
    _x245 = _x115*_x244 + _x187*n_wq + _x188
    _x246 = -_x111*_x244 - _x219*n_wq - _x230
    _x247 = _x245 + _x246
    _x248 = _x176*q_8
    _x249 = w_8**(-1.0)
    _x250 = _x176*(-_x142*_x220 - _x223)
    _x251 = _x229*_x236
    _x252 = reduce(maximum, [_x250, -_x251])
    _x253 = _x176*(2*S*_x100*b*h - _x231)
    _x254 = _x232*_x237
    _x255 = reduce(maximum, [_x253, -_x254])
    _x256 = 2*_x252 + 2*_x255 + reduce(maximum, [_x250, -_x249*_x251]) + reduce(maximum, [_x253, -_x249*_x254])
    _x257 = _x175 + 3*_x184 - 3*_x234 + f_8*(2*_x239 + 2*_x242 + _x248*(4*_x186 + _x210 + _x243 + _x247) + _x256 + reduce(maximum, [_x235, _x238*_x249]) + reduce(maximum, [_x240, _x241*_x249]))
    _x258 = _x119*_x176
    _x259 = E*_x49
    _x260 = _x167*(reduce(maximum, [0, reduce(minimum, [1, _x259 - 1])]) + 1)
    _x261 = _x120*_x260
    _x262 = _x179*_x93
    _x263 = 20*_x121 + _x153*_x178 + _x178*_x55 + _x261
    _x264 = 3*_x258
    _x265 = _x119*_x121
    _x266 = _x119*_x93
    _x267 = reduce(maximum, [1, E])
    _x268 = _x119*_x92
    _x269 = reduce(maximum, [1, _x268])
    _x270 = _x196*ceil(_x193*_x267)*ceil(_x197*_x269)
    _x271 = _x197*_x267
    _x272 = _x196*ceil(_x193*_x269)
    _x273 = _x272*ceil(_x271)
    _x274 = _x272*ceil(2*_x271)
    _x275 = _x268*_x50
    _x276 = reduce(maximum, [_x190*(_x265 + _x266 + _x50), 2*_x208*_x275/reduce(maximum, [_x270/ceil(_x270), _x273/ceil(_x273), _x274/ceil(_x274)])])
    _x277 = _x276*f_8
    _x278 = _x55*h
    _x279 = _x119*_x55
    _x280 = _x278 + _x279
    _x281 = _x0*_x191
    _x282 = F_s*_x281
    _x283 = _x2*_x55
    _x284 = _x186 + _x2*_x278
    _x285 = reduce(maximum, [1, _x283])
    _x286 = _x197*_x285
    _x287 = _x203*ceil(_x286)
    _x288 = _x199*ceil(_x193*_x285)
    _x289 = _x203*ceil(2*_x286)
    _x290 = _x2*_x282/reduce(maximum, [_x287/ceil(_x287), _x288/ceil(_x288), _x289/ceil(_x289)])
    _x291 = reduce(maximum, [_x208*_x290, _x190*(_x119*_x283 + _x284)]) + reduce(maximum, [_x209*_x282, _x190*(_x186 + _x280)])
    _x292 = K*imb
    _x293 = _x292/_x267
    _x294 = M_e*_x293
    _x295 = _x294*t_e
    _x296 = _x266*_x295
    _x297 = _x48*h
    _x298 = _x268*_x294
    _x299 = F_e*_x298
    _x300 = _x297 + _x299
    _x301 = _x190*_x259
    _x302 = _x298*t_e
    _x303 = reduce(maximum, [1, _x302])
    _x304 = _x196*reduce(maximum, [1, _x259])
    _x305 = _x304*ceil(_x197*_x303)
    _x306 = _x195*_x305
    _x307 = _x304*ceil(_x193*_x303)
    _x308 = _x202*_x307
    _x309 = _x205*_x307
    _x310 = F_e/reduce(maximum, [_x306/ceil(_x306), _x308/ceil(_x308), _x309/ceil(_x309)])
    _x311 = _x119*_x95
    _x312 = _x292*_x311
    _x313 = _x208*_x312
    _x314 = _x2*_x299
    _x315 = _x2*_x297 + _x296
    _x316 = reduce(maximum, [1, _x124])
    _x317 = _x305*ceil(_x193*_x316)
    _x318 = _x197*_x316
    _x319 = _x307*ceil(_x318)
    _x320 = _x307*ceil(2*_x318)
    _x321 = F_e*_x2
    _x322 = _x321/reduce(maximum, [_x317/ceil(_x317), _x319/ceil(_x319), _x320/ceil(_x320)])
    _x323 = reduce(maximum, [_x310*_x313, _x301*(_x296 + _x300)]) + reduce(maximum, [_x313*_x322, _x301*(_x314 + _x315)])
    _x324 = E_s*_x291 + _x276 + _x323
    _x325 = _x185*(_x233 + _x324)
    _x326 = _x176*(_x191 + _x280)
    _x327 = _x237*_x282
    _x328 = _x176*(_x142*_x283 + _x284)
    _x329 = _x236*_x290
    _x330 = reduce(maximum, [_x326, _x327]) + reduce(maximum, [_x328, _x329])
    _x331 = E_s*_x330
    _x332 = _x176*_x259
    _x333 = _x332*(_x295*_x311 + _x300)
    _x334 = _x236*_x312
    _x335 = _x310*_x334
    _x336 = reduce(maximum, [_x333, _x335])
    _x337 = _x332*(2*_x314 + _x315)
    _x338 = _x322*_x334
    _x339 = reduce(maximum, [_x337, _x338])
    _x340 = F_e*(_x244*_x47 + _x298)
    _x341 = _x124*n_wq + _x302
    _x342 = _x186 + _x244*_x283 + _x244*_x55 + _x279
    _x343 = E_s*_x342 + _x259*_x340 + _x341*_x51
    _x344 = _x246 + _x343
    _x345 = _x175 - _x258*_x261 + _x264*(_x181 + _x262) + _x264*(_x262 + _x263) + 3*_x277 - 3*_x325 + f_8*(E_s*(_x330 + reduce(maximum, [_x326, _x249*_x327]) + reduce(maximum, [_x328, _x249*_x329])) + _x248*(E_s*_x119*(_x283 + h) + _x191 + _x243 + _x265*_x293*_x321 + _x275*_x293*t_e + _x344) + _x256 + _x331 + 2*_x336 + 2*_x339 + reduce(maximum, [_x333, _x249*_x335]) + reduce(maximum, [_x337, _x249*_x338]))
    _x346 = -_x174
    _x347 = _x239 + _x242
    _x348 = _x252 + _x255
    _x349 = _x258*(_x182 + _x263)
    _x350 = _x336 + _x339
    _x351 = _x331 + _x350
    _x352 = -_x173*(_x100*_x176*_x180 + _x172)
    _x353 = _x120*_x258*(8*eager + 1)
    _x354 = _x236*f_8
    _x355 = _x185*_x208
    _x356 = _x140*_x142*(_x354 - _x355)*(_x12*_x16 + _x24)
    _x357 = -_x145*a*(_x12*r_q + _x24) + _x15*_x90*is_mla + _x150*_x7*h
    _x358 = -2*_x144*_x187*(_x146 + 1) + 2*_x148*_x187 + 2*_x357
    _x359 = _x153*_x177
    _x360 = _x119*_x190
    _x361 = _x147*_x55
    _x362 = -_x154*has_qlora*is_mla
    _x363 = _x142*(-_x144*h*(-2*_x361 - _x362) + _x148*h*(-_x361 - _x362) + _x357)
    _x364 = reduce(maximum, [1, _x59])
    _x365 = _x199*ceil(_x193*_x364)
    _x366 = _x197*_x364
    _x367 = _x203*ceil(_x366)
    _x368 = _x203*ceil(2*_x366)
    _x369 = 30*_x258*_x59 + 3*reduce(maximum, [_x190*(_x119*_x59 + _x186 + _x66), _x119*_x208*_x60/reduce(maximum, [_x365/ceil(_x365), _x367/ceil(_x367), _x368/ceil(_x368)])])
    _x370 = _x281/W_tp
    _x371 = _x163*(_x370 + alpha)
    _x372 = _x163*_x370 + _x163*alpha
    _x373 = t_e - 1
    _x374 = _x125*_x311/W_etp
    _x375 = _x373*_x374 + _x373*alpha
    _x376 = _x372 + _x375
    _x377 = 4*k_mtp
    _x378 = c_u - 1
    _x379 = _x119*(_x0*a*d_v*is_mla - _x110 - _x98)/(W_cu*c_u)
    _x380 = 3*_x164*reduce(maximum, [0, _x170*_x174 + alpha + _x119*_x165/W_cr]) + 8*_x378*_x379 + 2*_x378*alpha
    _x381 = _x378*(4*_x379 + alpha)
    _x382 = M_e - 1
    _x383 = _x382*alpha
    _x384 = _x312*_x382*_x49
    _x385 = reduce(maximum, [_x384*f_off/W_eout, -_x384*(f_off - 1)/W_ein])
    _x386 = _x383 + _x385
    _x387 = W_pp**(-1.0)
    _x388 = _x4 + _x83
    _x389 = _x156 + b_r*z_2
    _x390 = _x32 + _x388
    _x391 = W_dpcp**(-1.0)
    _x392 = Z_d - 1
    _x393 = _x391*_x392
    _x394 = _x36*_x393
    _x395 = W_edp**(-1.0)
    _x396 = Z_e - 1
    _x397 = 2*g_8
    _x398 = _x56 + _x83
    _x399 = _x395*_x396*_x44
    _x400 = _x399*_x62
    _x401 = z_1*(z_2 - 1)
    _x402 = _x28*z_2
    _x403 = _x401 + _x402
    _x404 = _x403*g_8
    _x405 = _x401*(b_r + 2) + 2*_x402 + 2*b_r*(z_1 - 1)
    _x406 = _x64*(_x387*_x60*b_r + alpha)
    _x407 = _x394*_x405
    _x408 = _x176*(b_g + 26)
    return [
        0,
        _x29*f_8*(-_x27 - _x5) - _x35*_x43,
        _x29*f_8*(_x33 + _x53 + _x56) - _x43*_x58 - 2*_x46*_x53,
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
        -_x42*_x60,
        -2*_x42*_x70 - 2*_x46*_x62,
        0,
        0,
        -_x35*_x73,
        -b_g*(_x53*_x74 + _x58*_x72),
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
        -_x66*_x73,
        -b_g*(_x62*_x74 + _x70*_x72),
        0,
        0,
        -_x75*_x78,
        -_x75*(_x77*_x84 + _x80),
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
        -_x75*_x85,
        -_x75*(_x77*_x87 + _x86),
        0,
        0,
        _x118*_x119,
        _x119*_x130,
        _x119*(-_x129 - _x133),
        _x119*(-_x107 - _x134),
        _x136,
        _x137,
        -_x119*(_x138 + 2*_x139),
        _x143,
        _x119*(-_x128 - _x133 + 2*_x144*(F*_x145 - _x147*(_x113 + _x93)) - _x149*(-_x113*_x147 + _x92*h*has_qlora*is_mla) - _x152),
        _x136,
        _x137,
        _x119*(-_x127 - _x131 - _x138 + _x92*h*(drop + 4)),
        -_x142*_x153,
        -_x119*_x123,
        _x143,
        _x119*(-_x106 - _x134 + 2*_x144*(_x146*(_x55 + _x93) - _x147*_x154) - _x149*(_x145*_x54 - _x147*_x92*(E + h)) - _x152),
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
        _x119*(_x155 + k_mtp*(-_x118*_x68 + _x130*is_moe_model + _x155)),
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
        _x142*(_x139 + _x166),
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
        _x142*(F*_x0*_x68*n_m - _x166 - _x168*is_moe_model - _x61*(_x153 + _x55)),
        _x142*(_x122 - _x139 + _x153*n_m + _x168),
        0,
        _x257,
        _x345,
        _x184 - _x234 + _x346 + f_8*(_x248*(_x191 + _x247) + _x347 + _x348),
        _x277 - _x325 + _x346 + _x349 + f_8*(_x248*(_x186 + _x344) + _x348 + _x351),
        _x352,
        _x353,
        _x177*_x188*_x190 - _x185*_x218 + f_8*(_x248*(_x186 + _x245) + _x347),
        _x356,
        _x119*(_x183 - _x354*_x358 + _x355*_x358),
        _x352,
        _x353,
        -_x185*_x324 + _x277 + _x360*(10*_x121 + _x131*_x260 + _x177*_x55 + _x359) + f_8*(_x248*_x343 + _x351),
        _x359*_x360,
        E_s*(F_s*_x0*_x177*_x360 - _x185*_x291 + f_8*(_x248*_x342 + _x330)),
        _x356,
        -_x185*_x323 + _x349 - _x354*_x363 + _x355*_x363 + f_8*(_x248*_x259*(_x340 + _x341*h) + _x350),
        0,
        _x369 + k_mtp*(-_x257*_x68 + _x345*is_moe_model + _x369),
        0,
        0,
        8*_x371,
        4*_x376,
        4*_x371,
        2*_x376,
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
        _x377*(-_x371*_x68 + _x372 + _x373*is_moe_model*(_x374 + alpha)),
        0,
        0,
        _x380,
        _x380,
        _x381,
        _x381,
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
        _x380*k_mtp,
        0,
        0,
        0,
        4*_x386,
        0,
        2*_x386,
        0,
        0,
        _x371,
        0,
        2*_x371,
        0,
        0,
        2*_x375 + 2*_x386,
        0,
        0,
        0,
        _x376 + 2*_x383 + 2*_x385,
        0,
        _x377*_x386*is_moe_model,
        0,
        -2*_x63*v*(_x281*_x387 + alpha),
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
        _x394*(-_x162*_x388*g_8 + _x389*_x390),
        E*F_e*_x389*_x395*_x396*_x44*_x47*_x49*h*n_m + _x36*_x389*_x391*_x392*_x84 - _x393*_x397*_x398*_x40 - _x395*_x396*_x397*_x45*_x53,
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
        _x389*_x394*_x66,
        _x389*(_x394*_x70 + _x400),
        0,
        0,
        _x394*(_x388*_x404 - _x390*_x405),
        _x394*(_x398*_x404 - _x405*_x84),
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
        -_x406 - _x407*_x66,
        -_x406 - _x407*_x87,
        0,
        0,
        0,
        _x399*_x53*(_x403*g_8 - _x405),
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
        -_x400*_x405,
        0,
        0,
        _x408*_x78,
        _x408*(_x58*_x77 + _x80),
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
        _x408*_x85,
        _x408*(_x70*_x77 + _x86),
        0]

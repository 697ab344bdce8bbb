# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_wq', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_8, c_b, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_ag, n_m, n_wq, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, v, w_8, z_1, z_2, z_3):
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
    _x96 = c_r - 1
    _x97 = _x19*a
    _x98 = _x97*(_x12 + d_v)
    _x99 = _x20*g
    _x100 = 2*_x99
    _x101 = -_x100*_x7 + _x98
    _x102 = 2*_x101
    _x103 = _x102*_x96
    _x104 = _x103*q_sv
    _x105 = _x7*_x99
    _x106 = -4*_x105
    _x107 = c**(-1.0)
    _x108 = S*_x107
    _x109 = _x108*_x87
    _x110 = flash - 1
    _x111 = _x110*(3*drop + 2)
    _x112 = -_x109*_x111
    _x113 = _x104 + _x106 + _x112 + _x90 + 6*_x92 + _x93 + _x95
    _x114 = _x113 + _x88
    _x115 = _x12*is_mla
    _x116 = -_x115 + _x7
    _x117 = _x116*_x87
    _x118 = _x11*_x87
    _x119 = -2*_x117 - _x118*s_8
    _x120 = F*_x0
    _x121 = h*s_8
    _x122 = _x0*_x3
    _x123 = 2*_x122
    _x124 = _x120*s_8 + _x121*_x91 + _x123
    _x125 = _x114 + _x119 + _x124
    _x126 = _x108*b
    _x127 = 8*_x92
    _x128 = E*_x91
    _x129 = _x54*n_m
    _x130 = 2*_x129
    _x131 = _x2*_x50
    _x132 = K*imb_mem
    _x133 = _x132*_x91
    _x134 = 4*_x128 + _x130 + _x133*t_e*(_x121 + 2*_x131 + _x22 + _x50*s_8)
    _x135 = _x104 + _x106 + _x112 + _x90 + _x93 + _x95
    _x136 = _x135 + _x88
    _x137 = _x119 + _x127 + _x134 + _x136
    _x138 = 4*_x92
    _x139 = 2*_x87
    _x140 = -_x116*_x139 + _x80*_x87*s_8
    _x141 = _x124 + _x138 + _x140
    _x142 = _x134 + _x140
    _x143 = S**2
    _x144 = _x143*_x87*b
    _x145 = _x111*_x144/c**2
    _x146 = _x126*_x138
    _x147 = -_x146
    _x148 = _x92*drop
    _x149 = _x120*n_m
    _x150 = 2*_x126
    _x151 = -_x150*_x98
    _x152 = n_m - 2
    _x153 = _x19*has_qlora
    _x154 = has_qlora*is_mla
    _x155 = _x154 - 1
    _x156 = n_m - 3
    _x157 = 2*_x156
    _x158 = _x87 + _x99
    _x159 = 2*_x7
    _x160 = -2*_x0*_x80*a + 2*_x14*_x97*(2*d_n + d_r + d_v) + _x158*_x159 - 2*has_qlora*is_mla*(_x23 + _x92 + r_q)
    _x161 = F_e*_x133
    _x162 = _x128 + _x54
    _x163 = _x58*b_l
    _x164 = 4*z_3
    _x165 = z_2*(_x164 + b_g)
    _x166 = -_x35*_x67
    _x167 = _x65*u_1 + _x66
    _x168 = _x52 + _x56
    _x169 = _x166 + is_moe_model*(_x168 + _x34)
    _x170 = 2*z_3
    _x171 = t - 1
    _x172 = h*reduce(minimum, [1, _x171])
    _x173 = c_r*(q_p2p - 1) - q_p2p
    _x174 = _x102*reduce(minimum, [1, _x96])
    _x175 = _x132*t_e
    _x176 = _x175*_x94
    _x177 = Pk**(-1.0)
    _x178 = c_r**(-1.0)
    _x179 = S*_x178
    _x180 = _x177*(flash - 2)*(_x178*_x96*c_b + 1)*(_x10 + _x115 - _x159)/(-_x110*eta + _x179*eta_a*flash/(L_a0 + _x179))
    _x181 = _x107*_x144
    _x182 = _x180*_x181
    _x183 = -3*_x182
    _x184 = W_hbm**(-1.0)
    _x185 = 2*_x152*eager + n_m
    _x186 = 2*_x185
    _x187 = drop + 32*eager + 10
    _x188 = _x110*(5*drop + 4)
    _x189 = -_x109*_x188 + 4*eager*(-_x0*_x7*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x118 + 5*d_r*is_mla*(_x87 + 1))
    _x190 = _x187*_x94 + _x189
    _x191 = _x184*(_x120*_x186 + _x190)
    _x192 = 3*_x126
    _x193 = f_8 - 1
    _x194 = _x126*h
    _x195 = _x120*h
    _x196 = _x120*_x126
    _x197 = _x195 + _x196
    _x198 = 2*_x184
    _x199 = _x126*_x22
    _x200 = _x120*_x199
    _x201 = T_m**(-1.0)
    _x202 = reduce(maximum, [1, h])
    _x203 = ceil(_x201*_x202)
    _x204 = N_sm**(-1.0)
    _x205 = T_n**(-1.0)
    _x206 = reduce(maximum, [1, _x126])
    _x207 = _x204*ceil(_x205*_x206)
    _x208 = _x203*_x207
    _x209 = _x202*_x205
    _x210 = ceil(_x209)
    _x211 = _x204*ceil(_x201*_x206)
    _x212 = _x210*_x211
    _x213 = ceil(2*_x209)
    _x214 = _x211*_x213
    _x215 = reduce(maximum, [_x208/ceil(_x208), _x212/ceil(_x212), _x214/ceil(_x214)])**(-1.0)
    _x216 = _x177/eta
    _x217 = _x215*_x216
    _x218 = _x122*_x126
    _x219 = _x122*h + _x194
    _x220 = reduce(maximum, [1, _x122])
    _x221 = _x207*ceil(_x201*_x220)
    _x222 = _x205*_x220
    _x223 = _x211*ceil(_x222)
    _x224 = _x211*ceil(2*_x222)
    _x225 = _x122/reduce(maximum, [_x221/ceil(_x221), _x223/ceil(_x223), _x224/ceil(_x224)])
    _x226 = reduce(maximum, [_x200*_x217, _x198*(_x194 + _x197)]) + reduce(maximum, [_x199*_x216*_x225, _x198*(_x218 + _x219)])
    _x227 = _x0*(_x25 - _x81 + _x9)
    _x228 = _x227/h
    _x229 = _x126*_x228
    _x230 = -S*_x107*b*h
    _x231 = _x227 + _x230
    _x232 = reduce(maximum, [1, -_x228])
    _x233 = _x205*_x232
    _x234 = _x211*ceil(_x233)
    _x235 = _x207*ceil(_x201*_x232)
    _x236 = _x211*ceil(2*_x233)
    _x237 = _x150*_x227/reduce(maximum, [_x234/ceil(_x234), _x235/ceil(_x235), _x236/ceil(_x236)])
    _x238 = _x118*_x126
    _x239 = _x118*h + _x238
    _x240 = _x118*_x199
    _x241 = reduce(maximum, [-_x216*_x237, _x198*(-_x229 - _x231)]) + reduce(maximum, [-_x217*_x240, _x198*(-_x230 - _x239)])
    _x242 = _x193*(_x226 + _x241)
    _x243 = _x184*(_x197 + _x199)
    _x244 = 1/(Pk_8*eta_8)
    _x245 = _x215*_x244
    _x246 = _x200*_x245
    _x247 = reduce(maximum, [_x243, _x246])
    _x248 = _x184*(_x123*_x126 + _x219)
    _x249 = _x199*_x244
    _x250 = _x225*_x249
    _x251 = reduce(maximum, [_x248, _x250])
    _x252 = h*n_wq
    _x253 = _x152*h
    _x254 = _x126*s_x
    _x255 = _x122*_x252 + _x195*n_wq + _x196 + _x253*_x254
    _x256 = _x6*s_x
    _x257 = _x256 + 1
    _x258 = _x87*d_h
    _x259 = _x100*d_h
    _x260 = -_x118*_x252 - _x238 - _x256*h*(_x192 + _x258*n_wq + _x259*n_wq) + _x257*(_x194 - _x227*n_wq)
    _x261 = -_x229*_x257 - _x254*_x7*(_x100 + _x87)
    _x262 = _x184*q_8
    _x263 = w_8**(-1.0)
    _x264 = _x184*(2*S*_x107*b*h - _x239)
    _x265 = _x240*_x245
    _x266 = reduce(maximum, [_x264, -_x265])
    _x267 = _x184*(-_x150*_x228 - _x231)
    _x268 = _x237*_x244
    _x269 = reduce(maximum, [_x267, -_x268])
    _x270 = _x99*d_h
    _x271 = _x184*(_x126*_x259 + _x194 + _x270*h)
    _x272 = reduce(maximum, [1, _x270])
    _x273 = _x205*_x272
    _x274 = _x211*ceil(_x273)
    _x275 = _x207*ceil(_x201*_x272)
    _x276 = _x211*ceil(2*_x273)
    _x277 = _x249*_x270/reduce(maximum, [_x274/ceil(_x274), _x275/ceil(_x275), _x276/ceil(_x276)])
    _x278 = _x184*(_x150*_x258 + _x194 + _x258*h)
    _x279 = reduce(maximum, [1, _x258])
    _x280 = _x205*_x279
    _x281 = _x211*ceil(_x280)
    _x282 = _x207*ceil(_x201*_x279)
    _x283 = _x211*ceil(2*_x280)
    _x284 = _x249*_x258/reduce(maximum, [_x281/ceil(_x281), _x282/ceil(_x282), _x283/ceil(_x283)])
    _x285 = 2*reduce(maximum, [_x271, _x277]) + reduce(maximum, [_x278, _x284])
    _x286 = -_x256*_x285 + _x257*_x269
    _x287 = -_x256*(_x285 + 2*reduce(maximum, [_x271, _x263*_x277]) + reduce(maximum, [_x278, _x263*_x284])) + _x257*(_x269 + reduce(maximum, [_x267, -_x263*_x268])) + 2*_x266 + _x286 + reduce(maximum, [_x264, -_x263*_x265])
    _x288 = _x183 + _x191*_x192 - 3*_x242 + f_8*(2*_x247 + 2*_x251 + _x262*(3*_x194 + _x218 + _x255 + _x260 + _x261) + _x287 + reduce(maximum, [_x243, _x246*_x263]) + reduce(maximum, [_x248, _x250*_x263]))
    _x289 = _x126*_x184
    _x290 = E*_x47
    _x291 = _x175*(reduce(maximum, [0, reduce(minimum, [1, _x290 - 1])]) + 1)
    _x292 = _x127*_x291
    _x293 = _x187*_x92
    _x294 = 20*_x128 + _x161*_x186 + _x186*_x54 + _x292
    _x295 = _x184*_x192
    _x296 = _x126*_x128
    _x297 = _x126*_x92
    _x298 = reduce(maximum, [1, E])
    _x299 = _x126*_x91
    _x300 = reduce(maximum, [1, _x299])
    _x301 = _x204*ceil(_x201*_x298)*ceil(_x205*_x300)
    _x302 = _x205*_x298
    _x303 = _x204*ceil(_x201*_x300)
    _x304 = _x303*ceil(_x302)
    _x305 = _x303*ceil(2*_x302)
    _x306 = _x299*_x48
    _x307 = reduce(maximum, [_x198*(_x296 + _x297 + _x48), 2*_x216*_x306/reduce(maximum, [_x301/ceil(_x301), _x304/ceil(_x304), _x305/ceil(_x305)])])
    _x308 = _x307*f_8
    _x309 = _x54*h
    _x310 = _x126*_x54
    _x311 = _x309 + _x310
    _x312 = _x0*_x199
    _x313 = F_s*_x312
    _x314 = _x2*_x54
    _x315 = _x194 + _x2*_x309
    _x316 = reduce(maximum, [1, _x314])
    _x317 = _x205*_x316
    _x318 = _x211*ceil(_x317)
    _x319 = _x207*ceil(_x201*_x316)
    _x320 = _x211*ceil(2*_x317)
    _x321 = _x2*_x313/reduce(maximum, [_x318/ceil(_x318), _x319/ceil(_x319), _x320/ceil(_x320)])
    _x322 = reduce(maximum, [_x216*_x321, _x198*(_x126*_x314 + _x315)]) + reduce(maximum, [_x217*_x313, _x198*(_x194 + _x311)])
    _x323 = K*imb
    _x324 = _x323/_x298
    _x325 = M_e*_x324
    _x326 = _x325*t_e
    _x327 = _x297*_x326
    _x328 = _x50*h
    _x329 = _x299*_x325
    _x330 = F_e*_x329
    _x331 = _x328 + _x330
    _x332 = _x198*_x290
    _x333 = _x329*t_e
    _x334 = reduce(maximum, [1, _x333])
    _x335 = _x204*reduce(maximum, [1, _x290])
    _x336 = _x335*ceil(_x205*_x334)
    _x337 = _x203*_x336
    _x338 = _x335*ceil(_x201*_x334)
    _x339 = _x210*_x338
    _x340 = _x213*_x338
    _x341 = F_e/reduce(maximum, [_x337/ceil(_x337), _x339/ceil(_x339), _x340/ceil(_x340)])
    _x342 = _x126*_x94
    _x343 = _x323*_x342
    _x344 = _x216*_x343
    _x345 = _x2*_x330
    _x346 = _x2*_x328 + _x327
    _x347 = reduce(maximum, [1, _x131])
    _x348 = _x336*ceil(_x201*_x347)
    _x349 = _x205*_x347
    _x350 = _x338*ceil(_x349)
    _x351 = _x338*ceil(2*_x349)
    _x352 = F_e*_x2
    _x353 = _x352/reduce(maximum, [_x348/ceil(_x348), _x350/ceil(_x350), _x351/ceil(_x351)])
    _x354 = reduce(maximum, [_x341*_x344, _x332*(_x327 + _x331)]) + reduce(maximum, [_x344*_x353, _x332*(_x345 + _x346)])
    _x355 = E_s*_x322 + _x307 + _x354
    _x356 = _x193*(_x241 + _x355)
    _x357 = _x184*(_x199 + _x311)
    _x358 = _x245*_x313
    _x359 = _x184*(_x150*_x314 + _x315)
    _x360 = _x244*_x321
    _x361 = reduce(maximum, [_x357, _x358]) + reduce(maximum, [_x359, _x360])
    _x362 = E_s*_x361
    _x363 = _x184*_x290
    _x364 = _x363*(_x326*_x342 + _x331)
    _x365 = _x244*_x343
    _x366 = _x341*_x365
    _x367 = reduce(maximum, [_x364, _x366])
    _x368 = _x363*(2*_x345 + _x346)
    _x369 = _x353*_x365
    _x370 = reduce(maximum, [_x368, _x369])
    _x371 = _x324*t_e
    _x372 = _x306*_x371
    _x373 = _x152*s_x
    _x374 = F_e*(_x252*_x49 + _x329)
    _x375 = _x47*(_x131*n_wq + _x333)
    _x376 = _x194 + _x252*_x314 + _x252*_x54 + _x310
    _x377 = E_s*_x376 + _x290*_x374 + _x372*_x373 + _x375*_x48
    _x378 = _x260 + _x377
    _x379 = _x183 - _x289*_x292 + _x295*(_x189 + _x293) + _x295*(_x293 + _x294) + 3*_x308 - 3*_x356 + f_8*(E_s*(_x361 + reduce(maximum, [_x357, _x263*_x358]) + reduce(maximum, [_x359, _x263*_x360])) + _x262*(E_s*_x126*(_x314 + h) + _x194 + _x261 + _x296*_x324*_x352 + _x372 + _x378) + _x287 + _x362 + 2*_x367 + 2*_x370 + reduce(maximum, [_x364, _x263*_x366]) + reduce(maximum, [_x368, _x263*_x369]))
    _x380 = -_x182
    _x381 = _x194 + _x255
    _x382 = _x247 + _x251
    _x383 = _x266 + _x286
    _x384 = _x289*(_x190 + _x294)
    _x385 = _x367 + _x370
    _x386 = _x362 + _x385
    _x387 = -_x181*(_x107*_x184*_x188 + _x180)
    _x388 = _x127*_x289*(8*eager + 1)
    _x389 = _x244*f_8
    _x390 = _x193*_x216
    _x391 = _x150*_x97*(_x389 - _x390)*(_x12*_x16 + _x24)
    _x392 = _x15*_x89*is_mla + _x158*_x7*h - _x97*has_qlora*(_x12*r_q + _x24)
    _x393 = -2*_x152*_x195*(_x154 + 1) + 2*_x156*_x195 + 2*_x392
    _x394 = _x161*_x185
    _x395 = _x126*_x198
    _x396 = _x155*_x54
    _x397 = -_x162*has_qlora*is_mla
    _x398 = _x150*(_x156*h*(-_x396 - _x397) - _x253*(-2*_x396 - _x397) + _x392)
    _x399 = reduce(maximum, [1, _x58])
    _x400 = _x207*ceil(_x201*_x399)
    _x401 = _x205*_x399
    _x402 = _x211*ceil(_x401)
    _x403 = _x211*ceil(2*_x401)
    _x404 = 30*_x289*_x58 + 3*reduce(maximum, [_x198*(_x126*_x58 + _x194 + _x65), _x126*_x216*_x59/reduce(maximum, [_x400/ceil(_x400), _x402/ceil(_x402), _x403/ceil(_x403)])])
    _x405 = 2*alpha
    _x406 = _x0/W_tp
    _x407 = _x194*_x406
    _x408 = 4*_x407
    _x409 = _x407*a_8
    _x410 = _x405 + _x408 - _x409
    _x411 = _x171*_x410
    _x412 = t_e - 1
    _x413 = _x132/W_etp
    _x414 = _x171*_x409
    _x415 = _x171*_x405 + _x171*_x408 - _x414
    _x416 = _x146*_x412*_x413 + _x405*_x412 + _x415
    _x417 = _x342*_x413
    _x418 = c_u - 1
    _x419 = _x126/W_cr
    _x420 = _x102*_x419 + alpha
    _x421 = _x420*_x96
    _x422 = _x126*_x418*(_x0*a*d_v*is_mla - _x105 - _x117)/(W_cu*c_u)
    _x423 = _x178*_x182
    _x424 = _x107*_x139*_x143*_x178*_x180*b
    _x425 = _x103*_x419 + _x96*alpha
    _x426 = _x405*_x418 + _x421*n_ag + 8*_x422 + 3*_x96*q_p2p*reduce(maximum, [0, _x420 + _x423]) + q_agr*(_x96*reduce(maximum, [0, 4*_x101*_x419 + _x424 + alpha]) + reduce(maximum, [0, _x423 + _x425]) + reduce(maximum, [0, _x424 + _x425]))
    _x427 = _x418*alpha + _x421*reduce(minimum, [1, n_ag]) + 4*_x422
    _x428 = M_e - 1
    _x429 = _x343*_x428*_x47
    _x430 = reduce(maximum, [_x429*f_off/W_eout, -_x429*(f_off - 1)/W_ein])
    _x431 = _x428*alpha + _x430
    _x432 = _x412*_x417 + _x412*alpha
    _x433 = W_pp**(-1.0)
    _x434 = _x4 + _x82
    _x435 = _x164 + b_r*z_2
    _x436 = _x32 + _x434
    _x437 = W_dpcp**(-1.0)
    _x438 = Z_d - 1
    _x439 = _x437*_x438
    _x440 = _x36*_x439
    _x441 = W_edp**(-1.0)
    _x442 = Z_e - 1
    _x443 = 2*g_8
    _x444 = _x55 + _x82
    _x445 = _x44*_x441*_x442
    _x446 = _x445*_x61
    _x447 = z_1*(z_2 - 1)
    _x448 = _x28*z_2
    _x449 = _x447 + _x448
    _x450 = _x449*g_8
    _x451 = _x447*(b_r + 2) + 2*_x448 + 2*b_r*(z_1 - 1)
    _x452 = _x63*(_x433*_x59*b_r + alpha)
    _x453 = _x440*_x451
    _x454 = _x184*(b_g + 26)
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
        _x125*_x126,
        _x126*_x137,
        _x126*(-_x136 - _x141),
        _x126*(-_x114 - _x142),
        _x145,
        _x147,
        -_x126*(_x148 + 2*_x149),
        _x151,
        _x126*(-_x135 - _x141 + 2*_x152*(F*_x153 - _x155*(_x120 + _x92)) - _x157*(-_x120*_x155 + _x91*h*has_qlora*is_mla) - _x160),
        _x145,
        _x147,
        _x126*(-_x134 - _x138 - _x148 + _x91*h*(drop + 4)),
        -_x150*_x161,
        -_x126*_x130,
        _x151,
        _x126*(-_x113 - _x142 + 2*_x152*(_x154*(_x54 + _x92) - _x155*_x162) - _x157*(_x153*_x53 - _x155*_x91*(E + h)) - _x160),
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
        _x126*(_x163 + k_mtp*(-_x125*_x67 + _x137*is_moe_model + _x163)),
        0,
        _x165*_x35,
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
        -_x165*_x169 + _x170*(_x167 + _x169) + b_g*z_2*(_x167 + (_x166 + is_moe_model*(-_x27 + 2*_x30*h))*(v - 1)),
        _x165*(_x168 + _x5),
        _x150*(_x149 + _x172 - _x173*_x174),
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
        _x150*(F*_x0*_x67*n_m - _x172 + _x173*_x174 - _x176*is_moe_model - _x60*(_x161 + _x54)),
        _x150*(_x129 - _x149 + _x161*n_m + _x176),
        0,
        _x288,
        _x379,
        _x126*_x191 - _x242 + _x380 + f_8*(_x262*(_x260 + _x381) + _x382 + _x383),
        _x308 - _x356 + _x380 + _x384 + f_8*(_x262*_x378 + _x383 + _x386),
        _x387,
        _x388,
        _x185*_x196*_x198 - _x193*_x226 + f_8*(_x262*_x381 + _x382),
        _x391,
        _x126*(_x191 - _x389*_x393 + _x390*_x393),
        _x387,
        _x388,
        -_x193*_x355 + _x308 + _x395*(10*_x128 + _x138*_x291 + _x185*_x54 + _x394) + f_8*(_x262*_x377 + _x386),
        _x394*_x395,
        E_s*(F_s*_x0*_x185*_x395 - _x193*_x322 + f_8*(_x262*_x376 + _x361)),
        _x391,
        -_x193*_x354 + _x384 - _x389*_x398 + _x390*_x398 + f_8*(E*_x262*(_x297*_x371*_x373 + _x374*_x47 + _x375*h) + _x385),
        0,
        _x404 + k_mtp*(-_x288*_x67 + _x379*is_moe_model + _x404),
        0,
        0,
        4*_x411,
        2*_x416,
        2*_x411,
        _x416,
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
        2*k_mtp*(-_x411*_x67 + 2*_x412*is_moe_model*(_x417 + alpha) + _x415),
        0,
        0,
        _x426,
        _x426,
        _x427,
        _x427,
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
        _x426*k_mtp,
        0,
        0,
        0,
        4*_x431,
        0,
        2*_x431,
        0,
        0,
        _x410*((1/2)*t - 1/2),
        0,
        _x411,
        0,
        0,
        2*_x431 + 2*_x432,
        0,
        0,
        0,
        _x171*_x199*_x406 + _x171*alpha + _x405*_x428 - 1/2*_x414 + 2*_x430 + _x432,
        0,
        4*_x431*is_moe_model*k_mtp,
        0,
        -2*_x62*v*(_x312*_x433 + alpha),
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
        _x440*(-_x170*_x434*g_8 + _x435*_x436),
        E*F_e*_x435*_x44*_x441*_x442*_x47*_x49*h*n_m + _x36*_x435*_x437*_x438*_x83 - _x40*_x439*_x443*_x444 - _x441*_x442*_x443*_x45*_x52,
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
        _x435*_x440*_x65,
        _x435*(_x440*_x69 + _x446),
        0,
        0,
        _x440*(_x434*_x450 - _x436*_x451),
        _x440*(_x444*_x450 - _x451*_x83),
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
        -_x452 - _x453*_x65,
        -_x452 - _x453*_x86,
        0,
        0,
        0,
        _x445*_x52*(_x449*g_8 - _x451),
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
        -_x446*_x451,
        0,
        0,
        _x454*_x77,
        _x454*(_x57*_x76 + _x79),
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
        _x454*_x84,
        _x454*(_x69*_x76 + _x85),
        0]

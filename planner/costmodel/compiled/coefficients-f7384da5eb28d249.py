# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'u_ep', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_8, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_ag, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, u_ep, v, w_8, z_1, z_2, z_3):
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
    _x17 = _x16*(_x13 + h + 1)
    _x18 = _x13*_x15 - _x17
    _x19 = _x0*(_x11*_x8 + _x18*is_mla + _x9)
    _x20 = _x0*is_mla
    _x21 = t_g**(-1.0)
    _x22 = _x20 - _x21*_x6
    _x23 = 2*h
    _x24 = _x23*g
    _x25 = d_r + r_kv
    _x26 = r_kv*(d_n + d_v)
    _x27 = is_mla*(_x25*h + _x26*a + r_kv)
    _x28 = _x24*_x7 - _x27
    _x29 = _x22*_x28
    _x30 = _x19 + _x29
    _x31 = z_3 - 1
    _x32 = c_8 + g_8*(_x31*mu + 2*mu - 2)
    _x33 = ln_bias + 1
    _x34 = _x33*h
    _x35 = 2*_x34
    _x36 = -_x19 - _x29
    _x37 = _x35 + _x36
    _x38 = _x37 + _x4
    _x39 = Z_d**(-1.0)
    _x40 = 2*z_1
    _x41 = _x40 + z_3 - 3
    _x42 = mu - 1
    _x43 = _x39*z_3
    _x44 = 1 - z_3
    _x45 = _x42*(_x43 + _x44) + mu*(-_x39*_x40 + _x41)
    _x46 = 2*_x45
    _x47 = Z_e**(-1.0)
    _x48 = _x47*z_3
    _x49 = _x42*(_x44 + _x48) + mu*(-_x40*_x47 + _x41)
    _x50 = M_e**(-1.0)
    _x51 = E*h
    _x52 = t_e**(-1.0)
    _x53 = F_e*_x52
    _x54 = _x50*_x51*_x53
    _x55 = _x54*n_m
    _x56 = E_s*F_s
    _x57 = _x0*_x56
    _x58 = _x1*_x57
    _x59 = E*router_bias + _x51 + _x58
    _x60 = _x37 + _x59
    _x61 = V*_x0
    _x62 = _x23*_x61
    _x63 = is_moe_model*n_m
    _x64 = _x54*_x63*k_mtp
    _x65 = u_1 - 1
    _x66 = _x65*tied
    _x67 = _x66 + tied - 1
    _x68 = _x61*h
    _x69 = -_x67*_x68
    _x70 = is_moe_model - 1
    _x71 = 5*_x34 - _x4*_x70 + _x59*is_moe_model + 2*h**2
    _x72 = _x34 + _x69 + k_mtp*(_x36 + _x71)
    _x73 = 1 - z_2
    _x74 = -_x39*z_2 - _x73
    _x75 = _x74*b_g
    _x76 = -_x47*z_2 - _x73
    _x77 = 4*mu - 12
    _x78 = 1 - z_1
    _x79 = _x39*z_1 + _x78
    _x80 = _x38*_x79
    _x81 = _x47*z_1 + _x78
    _x82 = _x55*_x81
    _x83 = -_x11
    _x84 = -_x18*is_mla
    _x85 = _x0*(_x8*_x83 + _x84 - _x9) - _x22*_x28
    _x86 = _x35 + _x59 + _x85
    _x87 = _x68*_x79
    _x88 = _x64*_x81
    _x89 = _x34 - _x67*_x68 + k_mtp*(_x71 + _x85)
    _x90 = _x0*a
    _x91 = 4*_x90*flash
    _x92 = _x25 + _x90*d_v
    _x93 = 2*is_mla*(_x0*_x13 + _x16 + _x92)
    _x94 = t_s**(-1.0)
    _x95 = _x94*h
    _x96 = _x95*(s_8 - 2)
    _x97 = _x23*_x94
    _x98 = _x97*drop
    _x99 = c_r - 1
    _x100 = _x20*a
    _x101 = _x100*(_x12 + d_v)
    _x102 = _x21*g
    _x103 = 2*_x102
    _x104 = _x101 - _x103*_x7
    _x105 = 2*_x104
    _x106 = _x105*_x99
    _x107 = _x106*q_sv
    _x108 = _x102*_x7
    _x109 = -4*_x108
    _x110 = c**(-1.0)
    _x111 = S*_x110
    _x112 = _x111*_x90
    _x113 = flash - 1
    _x114 = _x113*(3*drop + 2)
    _x115 = -_x112*_x114
    _x116 = _x107 + _x109 + _x115 + _x93 + 6*_x95 + _x96 + _x98
    _x117 = _x116 + _x91
    _x118 = _x12*is_mla
    _x119 = -_x118 + _x7
    _x120 = _x119*_x90
    _x121 = _x11*_x90
    _x122 = -2*_x120 - _x121*s_8
    _x123 = F*_x0
    _x124 = h*s_8
    _x125 = _x0*_x3
    _x126 = 2*_x125
    _x127 = _x123*s_8 + _x124*_x94 + _x126
    _x128 = _x117 + _x122 + _x127
    _x129 = _x111*b
    _x130 = 8*_x95
    _x131 = E*_x94
    _x132 = _x57*n_m
    _x133 = 2*_x132
    _x134 = _x2*_x53
    _x135 = _x94*imb_mem
    _x136 = K*t_e
    _x137 = 4*_x131 + _x133 + _x135*_x136*(_x124 + 2*_x134 + _x23 + _x53*s_8)
    _x138 = _x107 + _x109 + _x115 + _x93 + _x96 + _x98
    _x139 = _x138 + _x91
    _x140 = _x122 + _x130 + _x137 + _x139
    _x141 = 4*_x95
    _x142 = 2*_x90
    _x143 = -_x119*_x142 + _x83*_x90*s_8
    _x144 = _x127 + _x141 + _x143
    _x145 = _x137 + _x143
    _x146 = S**2
    _x147 = _x146*_x90*b
    _x148 = _x114*_x147/c**2
    _x149 = _x129*_x141
    _x150 = -_x149
    _x151 = _x95*drop
    _x152 = _x123*n_m
    _x153 = 2*_x129
    _x154 = -_x101*_x153
    _x155 = n_m - 2
    _x156 = _x20*has_qlora
    _x157 = has_qlora*is_mla
    _x158 = _x157 - 1
    _x159 = n_m - 3
    _x160 = 2*_x159
    _x161 = _x102 + _x90
    _x162 = 2*_x7
    _x163 = -2*_x0*_x83*a + 2*_x100*_x14*(2*d_n + d_r + d_v) + _x161*_x162 - 2*has_qlora*is_mla*(_x25 + _x95 + r_q)
    _x164 = F_e*K
    _x165 = _x135*_x164
    _x166 = _x131 + _x57
    _x167 = _x61*b_l
    _x168 = 4*z_3
    _x169 = z_2*(_x168 + b_g)
    _x170 = -_x38*_x70
    _x171 = _x68*u_1 + _x69
    _x172 = _x55 + _x59
    _x173 = _x170 + is_moe_model*(_x172 + _x37)
    _x174 = 2*z_3
    _x175 = t - 1
    _x176 = h*reduce(minimum, [1, _x175])
    _x177 = c_r*(q_p2p - 1) - q_p2p
    _x178 = _x105*reduce(minimum, [1, _x99])
    _x179 = _x136*imb_mem
    _x180 = _x179*_x97
    _x181 = c_r**(-1.0)
    _x182 = S*_x181
    _x183 = _x182*eta_a*flash/(L_a0 + _x182)
    _x184 = flash - 2
    _x185 = _x10 + _x118
    _x186 = Pk**(-1.0)
    _x187 = _x186*(_x181*_x99*c_b + 1)
    _x188 = _x184*_x187*(-_x162 + _x185)/(-_x113*eta + _x183)
    _x189 = _x110*_x147
    _x190 = _x188*_x189
    _x191 = -3*_x190
    _x192 = W_hbm**(-1.0)
    _x193 = 2*_x155*eager + n_m
    _x194 = 2*_x193
    _x195 = drop + 32*eager + 10
    _x196 = _x90 + 1
    _x197 = _x0*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x198 = 4*eager
    _x199 = 5*drop + 4
    _x200 = _x113*_x199
    _x201 = -_x112*_x200 + _x198*(-_x121 + 5*_x196*d_r*is_mla - _x197*_x7)
    _x202 = _x195*_x97 + _x201
    _x203 = _x192*(_x123*_x194 + _x202)
    _x204 = 3*_x129
    _x205 = f_8 - 1
    _x206 = _x129*h
    _x207 = _x123*h
    _x208 = _x123*_x129
    _x209 = _x207 + _x208
    _x210 = 2*_x192
    _x211 = reduce(maximum, [1, _x129])
    _x212 = _x211*u_ep
    _x213 = _x186/eta
    _x214 = T_m**(-1.0)
    _x215 = reduce(maximum, [1, h])
    _x216 = ceil(_x214*_x215)
    _x217 = N_sm**(-1.0)
    _x218 = T_n**(-1.0)
    _x219 = _x217*ceil(_x211*_x218)
    _x220 = _x216*_x219
    _x221 = _x215*_x218
    _x222 = ceil(_x221)
    _x223 = _x217*ceil(_x211*_x214)
    _x224 = _x222*_x223
    _x225 = ceil(2*_x221)
    _x226 = _x223*_x225
    _x227 = reduce(maximum, [_x220/ceil(_x220), _x224/ceil(_x224), _x226/ceil(_x226)])**(-1.0)
    _x228 = _x208*_x227
    _x229 = _x125*_x129
    _x230 = _x125*h + _x206
    _x231 = reduce(maximum, [1, _x125])
    _x232 = _x219*ceil(_x214*_x231)
    _x233 = _x218*_x231
    _x234 = _x223*ceil(_x233)
    _x235 = _x223*ceil(2*_x233)
    _x236 = reduce(maximum, [_x232/ceil(_x232), _x234/ceil(_x234), _x235/ceil(_x235)])**(-1.0)
    _x237 = _x206*_x213
    _x238 = reduce(maximum, [_x210*(_x206 + _x209), _x23*(_x212 + _x213*_x228)]) + reduce(maximum, [_x210*(_x229 + _x230), _x126*(_x212 + _x236*_x237)])
    _x239 = h**(-1.0)
    _x240 = _x0*(_x28 - _x84 + _x9)
    _x241 = _x239*_x240
    _x242 = _x129*_x241
    _x243 = -S*_x110*b*h
    _x244 = _x240 + _x243
    _x245 = _x212*_x239
    _x246 = reduce(maximum, [1, -_x241])
    _x247 = _x218*_x246
    _x248 = _x223*ceil(_x247)
    _x249 = _x219*ceil(_x214*_x246)
    _x250 = _x223*ceil(2*_x247)
    _x251 = _x129/reduce(maximum, [_x248/ceil(_x248), _x249/ceil(_x249), _x250/ceil(_x250)])
    _x252 = 2*_x240
    _x253 = _x121*_x129
    _x254 = _x121*h + _x253
    _x255 = _x213*_x227
    _x256 = reduce(maximum, [_x23*(_x212 - _x253*_x255), _x210*(-_x243 - _x254)]) + reduce(maximum, [-_x252*(_x213*_x251 + _x245), _x210*(-_x242 - _x244)])
    _x257 = _x205*(_x238 + _x256)
    _x258 = _x129*_x23
    _x259 = _x192*(_x209 + _x258)
    _x260 = 1/(Pk_8*eta_8)
    _x261 = _x228*_x260
    _x262 = reduce(maximum, [_x259, _x23*(_x212 + _x261)])
    _x263 = _x192*(_x126*_x129 + _x230)
    _x264 = _x206*_x260
    _x265 = _x236*_x264
    _x266 = reduce(maximum, [_x263, _x126*(_x212 + _x265)])
    _x267 = h*n_wq
    _x268 = _x155*h
    _x269 = _x129*s_x
    _x270 = _x125*_x267 + _x207*n_wq + _x208 + _x268*_x269
    _x271 = _x6*s_x
    _x272 = _x271 + 1
    _x273 = _x90*d_h
    _x274 = _x103*d_h
    _x275 = -_x121*_x267 - _x253 - _x271*h*(_x204 + _x273*n_wq + _x274*n_wq) + _x272*(_x206 - _x240*n_wq)
    _x276 = -_x242*_x272 - _x269*_x7*(_x103 + _x90)
    _x277 = _x192*q_8
    _x278 = w_8**(-1.0)
    _x279 = _x192*(2*S*_x110*b*h - _x254)
    _x280 = _x227*_x260
    _x281 = _x253*_x280
    _x282 = reduce(maximum, [_x279, _x23*(_x212 - _x281)])
    _x283 = _x192*(-_x153*_x241 - _x244)
    _x284 = _x251*_x260
    _x285 = reduce(maximum, [_x283, -_x252*(_x245 + _x284)])
    _x286 = _x102*d_h
    _x287 = _x192*(_x129*_x274 + _x206 + _x286*h)
    _x288 = reduce(maximum, [1, _x286])
    _x289 = _x218*_x288
    _x290 = _x223*ceil(_x289)
    _x291 = _x219*ceil(_x214*_x288)
    _x292 = _x223*ceil(2*_x289)
    _x293 = _x264/reduce(maximum, [_x290/ceil(_x290), _x291/ceil(_x291), _x292/ceil(_x292)])
    _x294 = _x192*(_x153*_x273 + _x206 + _x273*h)
    _x295 = reduce(maximum, [1, _x273])
    _x296 = _x218*_x295
    _x297 = _x223*ceil(_x296)
    _x298 = _x219*ceil(_x214*_x295)
    _x299 = _x223*ceil(2*_x296)
    _x300 = _x264/reduce(maximum, [_x297/ceil(_x297), _x298/ceil(_x298), _x299/ceil(_x299)])
    _x301 = 2*_x273
    _x302 = 2*reduce(maximum, [_x287, _x274*(_x212 + _x293)]) + reduce(maximum, [_x294, _x301*(_x212 + _x300)])
    _x303 = -_x271*_x302 + _x272*_x285
    _x304 = -_x271*(_x302 + 2*reduce(maximum, [_x287, _x274*(_x212 + _x278*_x293)]) + reduce(maximum, [_x294, _x301*(_x212 + _x278*_x300)])) + _x272*(_x285 + reduce(maximum, [_x283, -_x252*(_x245 + _x278*_x284)])) + 2*_x282 + _x303 + reduce(maximum, [_x279, _x23*(_x212 - _x278*_x281)])
    _x305 = _x191 + _x203*_x204 - 3*_x257 + f_8*(2*_x262 + 2*_x266 + _x277*(3*_x206 + _x229 + _x270 + _x275 + _x276) + _x304 + reduce(maximum, [_x259, _x23*(_x212 + _x261*_x278)]) + reduce(maximum, [_x263, _x126*(_x212 + _x265*_x278)]))
    _x306 = _x129*_x192
    _x307 = _x130*_x179
    _x308 = _x306*_x307
    _x309 = _x195*_x95
    _x310 = 20*_x131 + _x165*_x194 + _x194*_x57 + _x307
    _x311 = _x192*(_x309 + _x310)
    _x312 = _x129*_x131
    _x313 = _x129*_x95
    _x314 = _x129*_x94
    _x315 = reduce(maximum, [1, _x314])
    _x316 = reduce(maximum, [1, E])
    _x317 = _x217*ceil(_x214*_x316)*ceil(_x218*_x315)
    _x318 = _x218*_x316
    _x319 = _x217*ceil(_x214*_x315)
    _x320 = _x319*ceil(_x318)
    _x321 = _x319*ceil(2*_x318)
    _x322 = _x213*_x313
    _x323 = reduce(maximum, [_x210*(_x312 + _x313 + _x51), 2*E*(_x315*u_ep + _x322/reduce(maximum, [_x317/ceil(_x317), _x320/ceil(_x320), _x321/ceil(_x321)]))])
    _x324 = _x323*f_8
    _x325 = _x57*h
    _x326 = _x129*_x57
    _x327 = _x325 + _x326
    _x328 = F_s*_x0
    _x329 = _x129*_x328
    _x330 = _x2*_x57
    _x331 = _x2*_x325 + _x206
    _x332 = E_s*_x212
    _x333 = reduce(maximum, [1, _x330])
    _x334 = _x218*_x333
    _x335 = _x223*ceil(_x334)
    _x336 = _x219*ceil(_x214*_x333)
    _x337 = _x223*ceil(2*_x334)
    _x338 = reduce(maximum, [_x335/ceil(_x335), _x336/ceil(_x336), _x337/ceil(_x337)])**(-1.0)
    _x339 = 2*_x2
    _x340 = _x328*_x339
    _x341 = reduce(maximum, [_x210*(_x206 + _x327), _x23*(_x212 + _x255*_x329)]) + reduce(maximum, [_x210*(_x129*_x330 + _x331), _x340*(_x237*_x338 + _x332)])
    _x342 = _x316**(-1.0)
    _x343 = _x136*imb
    _x344 = _x342*_x343
    _x345 = M_e*_x344
    _x346 = _x313*_x345
    _x347 = _x53*h
    _x348 = _x164*imb
    _x349 = M_e*_x314*_x342
    _x350 = _x348*_x349
    _x351 = _x347 + _x350
    _x352 = E*_x50
    _x353 = _x210*_x352
    _x354 = _x343*_x349
    _x355 = reduce(maximum, [1, _x354])
    _x356 = _x352*_x355*u_ep
    _x357 = _x217*reduce(maximum, [1, _x352])
    _x358 = _x357*ceil(_x218*_x355)
    _x359 = _x216*_x358
    _x360 = _x357*ceil(_x214*_x355)
    _x361 = _x222*_x360
    _x362 = _x225*_x360
    _x363 = _x314*_x348/reduce(maximum, [_x359/ceil(_x359), _x361/ceil(_x361), _x362/ceil(_x362)])
    _x364 = _x2*_x347 + _x346
    _x365 = _x356*_x52
    _x366 = reduce(maximum, [1, _x134])
    _x367 = _x358*ceil(_x214*_x366)
    _x368 = _x218*_x366
    _x369 = _x360*ceil(_x368)
    _x370 = _x360*ceil(2*_x368)
    _x371 = K*imb
    _x372 = _x371/reduce(maximum, [_x367/ceil(_x367), _x369/ceil(_x369), _x370/ceil(_x370)])
    _x373 = F_e*_x339
    _x374 = reduce(maximum, [_x353*(_x346 + _x351), _x23*(_x213*_x363 + _x356)]) + reduce(maximum, [_x353*(_x2*_x350 + _x364), _x373*(_x322*_x372 + _x365)])
    _x375 = E_s*_x341 + _x323 + _x374
    _x376 = _x205*(_x256 + _x375)
    _x377 = _x192*(_x258 + _x327)
    _x378 = _x280*_x329
    _x379 = _x192*(_x326*_x339 + _x331)
    _x380 = _x264*_x338
    _x381 = reduce(maximum, [_x377, _x23*(_x212 + _x378)]) + reduce(maximum, [_x379, _x340*(_x332 + _x380)])
    _x382 = E_s*_x381
    _x383 = _x129*_x97
    _x384 = _x192*_x352
    _x385 = _x384*(_x345*_x383 + _x351)
    _x386 = _x260*_x363
    _x387 = reduce(maximum, [_x385, _x23*(_x356 + _x386)])
    _x388 = _x384*(_x339*_x350 + _x364)
    _x389 = _x260*_x313*_x372
    _x390 = reduce(maximum, [_x388, _x373*(_x365 + _x389)])
    _x391 = _x314*_x344*_x51
    _x392 = _x155*s_x
    _x393 = F_e*(_x267*_x52 + _x349*_x371)
    _x394 = _x50*(_x134*n_wq + _x354)
    _x395 = _x206 + _x267*_x330 + _x267*_x57 + _x326
    _x396 = E_s*_x395 + _x352*_x393 + _x391*_x392 + _x394*_x51
    _x397 = _x275 + _x396
    _x398 = _x191 + _x192*_x204*(_x201 + _x309) + _x204*_x311 - _x308 + 3*_x324 - 3*_x376 + f_8*(E_s*(_x381 + reduce(maximum, [_x377, _x23*(_x212 + _x278*_x378)]) + reduce(maximum, [_x379, _x340*(_x278*_x380 + _x332)])) + _x277*(E_s*_x129*(_x330 + h) + _x2*_x312*_x342*_x348 + _x206 + _x276 + _x391 + _x397) + _x304 + _x382 + 2*_x387 + 2*_x390 + reduce(maximum, [_x385, _x23*(_x278*_x386 + _x356)]) + reduce(maximum, [_x388, _x373*(_x278*_x389 + _x365)]))
    _x399 = -_x190
    _x400 = _x206 + _x270
    _x401 = _x262 + _x266
    _x402 = _x282 + _x303
    _x403 = _x306*(_x202 + _x310)
    _x404 = _x387 + _x390
    _x405 = _x382 + _x404
    _x406 = -_x189*(_x110*_x192*_x200 + _x188)
    _x407 = _x130*_x306*(8*eager + 1)
    _x408 = _x260*f_8
    _x409 = _x205*_x213
    _x410 = _x100*_x153*(_x408 - _x409)*(_x12*_x16 + _x26)
    _x411 = -_x100*has_qlora*(_x12*r_q + _x26) + _x15*_x92*is_mla + _x161*_x7*h
    _x412 = -2*_x155*_x207*(_x157 + 1) + 2*_x159*_x207 + 2*_x411
    _x413 = _x165*_x193
    _x414 = _x129*_x210
    _x415 = _x158*_x57
    _x416 = -_x166*has_qlora*is_mla
    _x417 = _x153*(_x159*h*(-_x415 - _x416) - _x268*(-2*_x415 - _x416) + _x411)
    _x418 = reduce(maximum, [1, _x61])
    _x419 = _x219*ceil(_x214*_x418)
    _x420 = _x218*_x418
    _x421 = _x223*ceil(_x420)
    _x422 = _x223*ceil(2*_x420)
    _x423 = 30*_x306*_x61 + 3*reduce(maximum, [_x210*(_x129*_x61 + _x206 + _x68), 2*_x61*(_x212 + _x237/reduce(maximum, [_x419/ceil(_x419), _x421/ceil(_x421), _x422/ceil(_x422)]))])
    _x424 = 2*alpha
    _x425 = _x0/W_tp
    _x426 = _x206*_x425
    _x427 = 4*_x426
    _x428 = _x426*a_8
    _x429 = _x424 + _x427 - _x428
    _x430 = _x175*_x429
    _x431 = t_e - 1
    _x432 = K*imb_mem/W_etp
    _x433 = _x175*_x428
    _x434 = _x175*_x424 + _x175*_x427 - _x433
    _x435 = _x149*_x431*_x432 + _x424*_x431 + _x434
    _x436 = _x383*_x432
    _x437 = c_u - 1
    _x438 = _x129/W_cr
    _x439 = _x105*_x438 + alpha
    _x440 = _x439*_x99
    _x441 = _x129*_x437*(_x0*a*d_v*is_mla - _x108 - _x120)/(W_cu*c_u)
    _x442 = _x181*_x190
    _x443 = _x110*_x142*_x146*_x181*_x188*b
    _x444 = _x106*_x438 + _x99*alpha
    _x445 = _x424*_x437 + _x440*n_ag + 8*_x441 + 3*_x99*q_p2p*reduce(maximum, [0, _x439 + _x442]) + q_agr*(_x99*reduce(maximum, [0, 4*_x104*_x438 + _x443 + alpha]) + reduce(maximum, [0, _x442 + _x444]) + reduce(maximum, [0, _x443 + _x444]))
    _x446 = _x437*alpha + _x440*reduce(minimum, [1, n_ag]) + 4*_x441
    _x447 = M_e - 1
    _x448 = _x447*alpha
    _x449 = 4*_x448
    _x450 = ceil(f_off)
    _x451 = W_eout**(-1.0)
    _x452 = W_ein**(-1.0)
    _x453 = _x447*(_x450*_x451 - _x452*(_x450 - 1))
    _x454 = 1000000.0 - 1000000.0*d_ag
    _x455 = _x129*_x130*_x453 + _x449 + _x454
    _x456 = 1000000.0*d_a2a
    _x457 = reduce(maximum, [0, reduce(minimum, [1, _x352 - 1])])
    _x458 = _x371*_x383*_x50
    _x459 = _x447*_x451*_x458*f_off
    _x460 = f_off - 1
    _x461 = _x447*_x460
    _x462 = _x452*_x458
    _x463 = reduce(maximum, [_x459, -_x461*_x462])
    _x464 = _x448 + _x463
    _x465 = 4*o_ep - 4
    _x466 = -_x447*_x460
    _x467 = reduce(maximum, [_x459, _x462*_x466])
    _x468 = _x448 + _x467
    _x469 = _x129*(_x213*_x23*(_x132 + _x94*(E + _x348*n_m)) + _x311)
    _x470 = 2*_x469
    _x471 = -_x113
    _x472 = -_x6*d_h
    _x473 = _x10 + _x472
    _x474 = _x129*(-S*_x184*_x187*_x90*(_x185 + 2*_x472)/(_x183 + _x471*eta) + 2*_x0*_x213*(_x24*_x472 + _x27 + _x472*_x8 + _x473*_x8 + is_mla*(-_x13*_x14*h + _x17)) + _x192*(_x112*_x199*_x471 + _x198*(5*_x196*d_r*is_mla + _x197*_x472 + _x473*_x90) + _x309))
    _x475 = 2*_x474
    _x476 = reduce(minimum, [_x468, _x469]) + reduce(minimum, [_x468, _x470]) + reduce(minimum, [_x468, _x474]) + reduce(minimum, [_x468, _x475])
    _x477 = 1000000.0*d_dep
    _x478 = _x466 + 1
    _x479 = M_e/_x478 - 1
    _x480 = alpha*(_x466 + _x479)
    _x481 = (1 - _x50)**K - 1
    _x482 = _x383*imb
    _x483 = _x447*_x482/W_nvl_x
    _x484 = (-_x478*_x50 + 1)**K - 1
    _x485 = _x482/W_rdma_x
    _x486 = reduce(maximum, [-_x481*_x483, -_x479*_x484*_x485])
    _x487 = _x480 + _x486
    _x488 = reduce(minimum, [_x469, _x487]) + reduce(minimum, [_x470, _x487]) + reduce(minimum, [_x474, _x487]) + reduce(minimum, [_x475, _x487])
    _x489 = -4*_x480 - 4*_x486 + _x488
    _x490 = _x461 - 1
    _x491 = -_x490
    _x492 = _x491**(-1.0)
    _x493 = -M_e*_x492 + _x461 + 1
    _x494 = -_x481*_x483
    _x495 = _x465*(-_x493*alpha + reduce(maximum, [_x494, -_x484*_x485*(M_e*_x492 - 1)])) - 1000000.0
    _x496 = 1000000.0*d_hep
    _x497 = reduce(minimum, [_x455, -_x477 - _x495 - o_ep*(-_x488*n_sm_dep/(N_sm - n_sm_dep) + _x489), -_x495 - _x496 - o_ep*(-_x488*n_sm_hep/(N_sm - n_sm_hep) + _x489), 16*K*S*_x110*_x192*_x457*_x94*b*h*imb_mem*t_e - _x456 - _x464*_x465 - o_ep*(-_x449 - 4*_x467 - _x476*n_sm_a2a/(N_sm - n_sm_a2a) + _x476) + 1000000.0])
    _x498 = _x424*_x447
    _x499 = 1000000.0 - _x456
    _x500 = 2*_x463 + _x498
    _x501 = _x477 - 1000000.0
    _x502 = reduce(maximum, [_x494, _x485*(M_e/_x490 + 1)*((-_x491*_x50 + 1)**K - 1)])
    _x503 = _x424*_x493 - 2*_x502
    _x504 = _x496 - 1000000.0
    _x505 = 4*_x493*alpha - 4*_x502
    _x506 = _x431*_x436 + _x431*alpha
    _x507 = W_pp**(-1.0)
    _x508 = _x4 + _x85
    _x509 = _x168 + b_r*z_2
    _x510 = _x35 + _x508
    _x511 = W_dpcp**(-1.0)
    _x512 = Z_d - 1
    _x513 = _x511*_x512
    _x514 = _x39*_x513
    _x515 = W_edp**(-1.0)
    _x516 = Z_e - 1
    _x517 = 2*g_8
    _x518 = _x58 + _x85
    _x519 = _x47*_x515*_x516
    _x520 = _x519*_x64
    _x521 = z_1*(z_2 - 1)
    _x522 = _x31*z_2
    _x523 = _x521 + _x522
    _x524 = _x523*g_8
    _x525 = _x521*(b_r + 2) + 2*_x522 + 2*b_r*(z_1 - 1)
    _x526 = _x66*(_x507*_x62*b_r + alpha)
    _x527 = _x514*_x525
    _x528 = _x192*(b_g + 26)
    return [
        0,
        _x32*f_8*(-_x30 - _x5) - _x38*_x46,
        _x32*f_8*(_x36 + _x55 + _x58) - _x46*_x60 - 2*_x49*_x55,
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
        -_x45*_x62,
        -2*_x45*_x72 - 2*_x49*_x64,
        0,
        0,
        -_x38*_x75,
        -b_g*(_x55*_x76 + _x60*_x74),
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
        -_x68*_x75,
        -b_g*(_x64*_x76 + _x72*_x74),
        0,
        0,
        -_x77*_x80,
        -_x77*(_x79*_x86 + _x82),
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
        -_x77*_x87,
        -_x77*(_x79*_x89 + _x88),
        0,
        0,
        _x128*_x129,
        _x129*_x140,
        _x129*(-_x139 - _x144),
        _x129*(-_x117 - _x145),
        _x148,
        _x150,
        -_x129*(_x151 + 2*_x152),
        _x154,
        _x129*(-_x138 - _x144 + 2*_x155*(F*_x156 - _x158*(_x123 + _x95)) - _x160*(-_x123*_x158 + _x94*h*has_qlora*is_mla) - _x163),
        _x148,
        _x150,
        _x129*(-_x137 - _x141 - _x151 + _x94*h*(drop + 4)),
        -_x153*_x165,
        -_x129*_x133,
        _x154,
        _x129*(-_x116 - _x145 + 2*_x155*(_x157*(_x57 + _x95) - _x158*_x166) - _x160*(_x156*_x56 - _x158*_x94*(E + h)) - _x163),
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
        _x129*(_x167 + k_mtp*(-_x128*_x70 + _x140*is_moe_model + _x167)),
        0,
        _x169*_x38,
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
        -_x169*_x173 + _x174*(_x171 + _x173) + b_g*z_2*(_x171 + (_x170 + is_moe_model*(-_x30 + 2*_x33*h))*(v - 1)),
        _x169*(_x172 + _x5),
        _x153*(_x152 + _x176 - _x177*_x178),
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
        _x153*(F*_x0*_x70*n_m - _x176 + _x177*_x178 - _x180*is_moe_model - _x63*(_x165 + _x57)),
        _x153*(_x132 - _x152 + _x165*n_m + _x180),
        0,
        _x305,
        _x398,
        _x129*_x203 - _x257 + _x399 + f_8*(_x277*(_x275 + _x400) + _x401 + _x402),
        _x324 - _x376 + _x399 + _x403 + f_8*(_x277*_x397 + _x402 + _x405),
        _x406,
        _x407,
        _x193*_x208*_x210 - _x205*_x238 + f_8*(_x277*_x400 + _x401),
        _x410,
        _x129*(_x203 - _x408*_x412 + _x409*_x412),
        _x406,
        _x407,
        -_x205*_x375 + _x324 + _x414*(10*_x131 + _x141*_x179 + _x193*_x57 + _x413) + f_8*(_x277*_x396 + _x405),
        _x413*_x414,
        E_s*(_x193*_x328*_x414 - _x205*_x341 + f_8*(_x277*_x395 + _x381)),
        _x410,
        -_x205*_x374 + _x403 - _x408*_x417 + _x409*_x417 + f_8*(E*_x277*(_x313*_x344*_x392 + _x393*_x50 + _x394*h) + _x404),
        0,
        _x423 + k_mtp*(-_x305*_x70 + _x398*is_moe_model + _x423),
        0,
        0,
        4*_x430,
        2*_x435,
        2*_x430,
        _x435,
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
        2*k_mtp*(-_x430*_x70 + 2*_x431*is_moe_model*(_x436 + alpha) + _x434),
        0,
        0,
        _x445,
        _x445,
        _x446,
        _x446,
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
        _x445*k_mtp,
        0,
        0,
        0,
        _x497,
        0,
        -_x497 + reduce(minimum, [_x455, -_x501 - _x505, -_x504 - _x505, 16*_x179*_x192*_x313*_x457 + _x449 + 4*_x463 + _x499]) + reduce(minimum, [_x149*_x453 + _x454 + _x498, _x308*_x457 + _x499 + _x500, -_x501 - _x503, -_x503 - _x504]),
        0,
        0,
        _x429*((1/2)*t - 1/2),
        0,
        _x430,
        0,
        0,
        2*_x464 + 2*_x506,
        0,
        0,
        0,
        _x175*_x258*_x425 + _x175*alpha - 1/2*_x433 + _x500 + _x506,
        0,
        _x497*is_moe_model*k_mtp,
        0,
        -2*_x65*v*(_x0*_x258*_x507 + alpha),
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
        _x514*(-_x174*_x508*g_8 + _x509*_x510),
        E*F_e*_x47*_x50*_x509*_x515*_x516*_x52*h*n_m + _x39*_x509*_x511*_x512*_x86 - _x43*_x513*_x517*_x518 - _x48*_x515*_x516*_x517*_x55,
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
        _x509*_x514*_x68,
        _x509*(_x514*_x72 + _x520),
        0,
        0,
        _x514*(_x508*_x524 - _x510*_x525),
        _x514*(_x518*_x524 - _x525*_x86),
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
        -_x526 - _x527*_x68,
        -_x526 - _x527*_x89,
        0,
        0,
        0,
        _x519*_x55*(_x523*g_8 - _x525),
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
        -_x520*_x525,
        0,
        0,
        _x528*_x80,
        _x528*(_x60*_x79 + _x82),
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
        _x528*_x87,
        _x528*(_x72*_x79 + _x88),
        0]

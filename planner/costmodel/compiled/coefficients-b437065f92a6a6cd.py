# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_ix', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_f', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_ix', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_8, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_ix, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_f, k_mtp, lin_bias, ln_bias, mu, n_ag, n_ix, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, v, w_8, z_1, z_2, z_3):
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
    _x36 = _x15 - _x16
    _x37 = d_ix*n_ix
    _x38 = _x36*_x37
    _x39 = d_ix + n_ix
    _x40 = _x39*h + 2*d_ix
    _x41 = -_x38 + _x40
    _x42 = -_x19 - _x29
    _x43 = _x41 + _x42
    _x44 = _x35 + _x43
    _x45 = _x4 + _x44
    _x46 = Z_d**(-1.0)
    _x47 = 2*z_1
    _x48 = _x47 + z_3 - 3
    _x49 = mu - 1
    _x50 = _x46*z_3
    _x51 = 1 - z_3
    _x52 = _x49*(_x50 + _x51) + mu*(-_x46*_x47 + _x48)
    _x53 = 2*_x52
    _x54 = Z_e**(-1.0)
    _x55 = _x54*z_3
    _x56 = _x49*(_x51 + _x55) + mu*(-_x47*_x54 + _x48)
    _x57 = M_e**(-1.0)
    _x58 = E*h
    _x59 = t_e**(-1.0)
    _x60 = F_e*_x59
    _x61 = _x57*_x58*_x60
    _x62 = _x61*n_m
    _x63 = E_s*F_s
    _x64 = _x0*_x63
    _x65 = _x1*_x64
    _x66 = _x42 + _x62
    _x67 = E*router_bias + _x58 + _x65
    _x68 = _x44 + _x67
    _x69 = V*_x0
    _x70 = _x23*_x69
    _x71 = is_moe_model*n_m
    _x72 = _x61*_x71*k_mtp
    _x73 = u_1 - 1
    _x74 = _x73*tied
    _x75 = _x74 + tied - 1
    _x76 = _x69*h
    _x77 = -_x75*_x76
    _x78 = is_moe_model - 1
    _x79 = 5*_x34 - _x4*_x78 + _x67*is_moe_model + 2*h**2
    _x80 = _x34 + _x77 + k_mtp*(_x43 + _x79)
    _x81 = 1 - z_2
    _x82 = -_x46*z_2 - _x81
    _x83 = _x82*b_g
    _x84 = -_x54*z_2 - _x81
    _x85 = 4*mu - 12
    _x86 = 1 - z_1
    _x87 = _x46*z_1 + _x86
    _x88 = _x45*_x87
    _x89 = _x54*z_1 + _x86
    _x90 = _x62*_x89
    _x91 = -_x11
    _x92 = -_x18*is_mla
    _x93 = _x0*(_x8*_x91 - _x9 + _x92) - _x22*_x28
    _x94 = -_x36*_x37 + _x40
    _x95 = _x35 + _x94
    _x96 = _x67 + _x93 + _x95
    _x97 = _x76*_x87
    _x98 = _x72*_x89
    _x99 = _x34 - _x75*_x76 + k_mtp*(_x79 + _x93 + _x94)
    _x100 = _x0*a
    _x101 = 4*_x100*flash
    _x102 = _x100*d_v + _x25
    _x103 = 2*is_mla*(_x0*_x13 + _x102 + _x16)
    _x104 = t_s**(-1.0)
    _x105 = _x104*h
    _x106 = _x105*(s_8 - 2)
    _x107 = _x104*_x23
    _x108 = _x107*drop
    _x109 = c_r - 1
    _x110 = _x20*a
    _x111 = _x110*(_x12 + d_v)
    _x112 = _x21*g
    _x113 = 2*_x112
    _x114 = _x111 - _x113*_x7
    _x115 = 2*_x114
    _x116 = _x109*_x115
    _x117 = _x116*q_sv
    _x118 = _x112*_x7
    _x119 = -4*_x118
    _x120 = 3*drop + 2
    _x121 = flash - 1
    _x122 = c**(-1.0)
    _x123 = S*_x122
    _x124 = _x100*_x123
    _x125 = _x121*_x124
    _x126 = -_x120*_x125
    _x127 = _x103 + 6*_x105 + _x106 + _x108 + _x117 + _x119 + _x126
    _x128 = _x101 + _x127
    _x129 = _x12*is_mla
    _x130 = -_x129 + _x7
    _x131 = _x100*_x130
    _x132 = _x100*_x11
    _x133 = -2*_x131 - _x132*s_8
    _x134 = F*_x0
    _x135 = h*s_8
    _x136 = _x0*_x3
    _x137 = 2*_x136
    _x138 = _x104*_x135 + _x134*s_8 + _x137
    _x139 = _x128 + _x133 + _x138
    _x140 = _x123*b
    _x141 = 8*_x105
    _x142 = E*_x104
    _x143 = _x64*n_m
    _x144 = 2*_x143
    _x145 = _x2*_x60
    _x146 = _x104*imb_mem
    _x147 = K*t_e
    _x148 = 4*_x142 + _x144 + _x146*_x147*(_x135 + 2*_x145 + _x23 + _x60*s_8)
    _x149 = _x103 + _x106 + _x108 + _x117 + _x119 + _x126
    _x150 = _x101 + _x149
    _x151 = _x133 + _x141 + _x148 + _x150
    _x152 = 4*_x105
    _x153 = -2*_x100*_x130 + _x100*_x91*s_8
    _x154 = _x138 + _x152 + _x153
    _x155 = _x148 + _x153
    _x156 = S**2
    _x157 = _x100*_x120*_x121*_x156*b/c**2
    _x158 = _x140*_x152
    _x159 = -_x158
    _x160 = _x105*drop
    _x161 = _x134*n_m
    _x162 = 2*_x140
    _x163 = -_x111*_x162
    _x164 = n_m - 2
    _x165 = _x20*has_qlora
    _x166 = has_qlora*is_mla
    _x167 = _x166 - 1
    _x168 = n_m - 3
    _x169 = 2*_x168
    _x170 = _x100 + _x112
    _x171 = 2*_x7
    _x172 = -2*_x0*_x91*a + 2*_x110*_x14*(2*d_n + d_r + d_v) + _x170*_x171 - 2*has_qlora*is_mla*(_x105 + _x25 + r_q)
    _x173 = F_e*K
    _x174 = _x146*_x173
    _x175 = _x142 + _x64
    _x176 = _x69*b_l
    _x177 = 4*z_3
    _x178 = z_2*(_x177 + b_g)
    _x179 = -_x45*_x78
    _x180 = _x76*u_1 + _x77
    _x181 = _x179 + is_moe_model*(_x35 + _x41 + _x66 + _x67)
    _x182 = 2*z_3
    _x183 = t - 1
    _x184 = h*reduce(minimum, [1, _x183])
    _x185 = c_r*(q_p2p - 1) - q_p2p
    _x186 = _x115*reduce(minimum, [1, _x109])
    _x187 = _x147*imb_mem
    _x188 = _x107*_x187
    _x189 = W_hbm**(-1.0)
    _x190 = _x140*_x23
    _x191 = _x134*h
    _x192 = _x134*_x140
    _x193 = _x191 + _x192
    _x194 = _x189*(_x190 + _x193)
    _x195 = T_m**(-1.0)
    _x196 = reduce(maximum, [1, h])
    _x197 = ceil(_x195*_x196)
    _x198 = N_sm**(-1.0)
    _x199 = T_n**(-1.0)
    _x200 = reduce(maximum, [1, _x140])
    _x201 = _x198*ceil(_x199*_x200)
    _x202 = _x197*_x201
    _x203 = _x196*_x199
    _x204 = ceil(_x203)
    _x205 = _x198*ceil(_x195*_x200)
    _x206 = _x204*_x205
    _x207 = ceil(2*_x203)
    _x208 = _x205*_x207
    _x209 = reduce(maximum, [_x202/ceil(_x202), _x206/ceil(_x206), _x208/ceil(_x208)])**(-1.0)
    _x210 = 1/(Pk_8*eta_8)
    _x211 = _x209*_x210
    _x212 = _x134*_x190
    _x213 = _x211*_x212
    _x214 = reduce(maximum, [_x194, _x213])
    _x215 = _x140*h
    _x216 = _x136*h + _x215
    _x217 = _x189*(_x137*_x140 + _x216)
    _x218 = _x190*_x210
    _x219 = reduce(maximum, [1, _x136])
    _x220 = _x201*ceil(_x195*_x219)
    _x221 = _x199*_x219
    _x222 = _x205*ceil(_x221)
    _x223 = _x205*ceil(2*_x221)
    _x224 = _x136/reduce(maximum, [_x220/ceil(_x220), _x222/ceil(_x222), _x223/ceil(_x223)])
    _x225 = _x218*_x224
    _x226 = reduce(maximum, [_x217, _x225])
    _x227 = _x136*_x140
    _x228 = h*n_wq
    _x229 = _x164*h
    _x230 = _x140*s_x
    _x231 = _x136*_x228 + _x191*n_wq + _x192 + _x229*_x230
    _x232 = _x6*s_x
    _x233 = _x232 + 1
    _x234 = _x0*(_x28 + _x9 - _x92)
    _x235 = 3*_x140
    _x236 = _x100*d_h
    _x237 = _x113*d_h
    _x238 = _x132*_x140
    _x239 = -_x132*_x228 - _x232*h*(_x235 + _x236*n_wq + _x237*n_wq) + _x233*(_x215 - _x234*n_wq) - _x238
    _x240 = _x234/h
    _x241 = _x140*_x240
    _x242 = -_x230*_x7*(_x100 + _x113) - _x233*_x241
    _x243 = _x189*q_8
    _x244 = w_8**(-1.0)
    _x245 = _x132*h + _x238
    _x246 = _x189*(2*S*_x122*b*h - _x245)
    _x247 = _x132*_x190
    _x248 = _x211*_x247
    _x249 = reduce(maximum, [_x246, -_x248])
    _x250 = -S*_x122*b*h
    _x251 = _x234 + _x250
    _x252 = _x189*(-_x162*_x240 - _x251)
    _x253 = reduce(maximum, [1, -_x240])
    _x254 = _x199*_x253
    _x255 = _x205*ceil(_x254)
    _x256 = _x201*ceil(_x195*_x253)
    _x257 = _x205*ceil(2*_x254)
    _x258 = _x234/reduce(maximum, [_x255/ceil(_x255), _x256/ceil(_x256), _x257/ceil(_x257)])
    _x259 = _x162*_x210*_x258
    _x260 = reduce(maximum, [_x252, -_x259])
    _x261 = _x112*d_h
    _x262 = _x189*(_x140*_x237 + _x215 + _x261*h)
    _x263 = reduce(maximum, [1, _x261])
    _x264 = _x199*_x263
    _x265 = _x205*ceil(_x264)
    _x266 = _x201*ceil(_x195*_x263)
    _x267 = _x205*ceil(2*_x264)
    _x268 = _x218*_x261/reduce(maximum, [_x265/ceil(_x265), _x266/ceil(_x266), _x267/ceil(_x267)])
    _x269 = _x189*(_x162*_x236 + _x215 + _x236*h)
    _x270 = reduce(maximum, [1, _x236])
    _x271 = _x199*_x270
    _x272 = _x205*ceil(_x271)
    _x273 = _x201*ceil(_x195*_x270)
    _x274 = _x205*ceil(2*_x271)
    _x275 = _x218*_x236/reduce(maximum, [_x272/ceil(_x272), _x273/ceil(_x273), _x274/ceil(_x274)])
    _x276 = 2*reduce(maximum, [_x262, _x268]) + reduce(maximum, [_x269, _x275])
    _x277 = -_x232*_x276 + _x233*_x260
    _x278 = -_x232*(_x276 + 2*reduce(maximum, [_x262, _x244*_x268]) + reduce(maximum, [_x269, _x244*_x275])) + _x233*(_x260 + reduce(maximum, [_x252, -_x244*_x259])) + 2*_x249 + _x277 + reduce(maximum, [_x246, -_x244*_x248])
    _x279 = f_8 - 1
    _x280 = 2*_x189
    _x281 = Pk**(-1.0)
    _x282 = eta**(-1.0)
    _x283 = _x281*_x282
    _x284 = _x209*_x283
    _x285 = reduce(maximum, [_x212*_x284, _x280*(_x193 + _x215)]) + reduce(maximum, [_x190*_x224*_x283, _x280*(_x216 + _x227)])
    _x286 = 2*_x283
    _x287 = reduce(maximum, [-_x247*_x284, _x280*(-_x245 - _x250)]) + reduce(maximum, [-_x140*_x258*_x286, _x280*(-_x241 - _x251)])
    _x288 = _x279*(_x285 + _x287)
    _x289 = 2*_x164*eager + n_m
    _x290 = 2*_x289
    _x291 = drop + 32*eager + 10
    _x292 = _x100 + 1
    _x293 = _x0*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x294 = 4*eager
    _x295 = 5*drop + 4
    _x296 = _x125*_x295
    _x297 = _x294*(-_x132 + 5*_x292*d_r*is_mla - _x293*_x7) - _x296
    _x298 = _x107*_x291 + _x297
    _x299 = _x189*(_x134*_x290 + _x298)
    _x300 = _x140*_x283
    _x301 = c_r**(-1.0)
    _x302 = _x109*_x301*c_b + 1
    _x303 = S*_x301
    _x304 = _x303*eta_a*flash/(L_a0 + _x303)
    _x305 = _x10 + _x129
    _x306 = _x100*(flash*k_f - 2*flash + 2)
    _x307 = (_x306*(-_x171 + _x305) + _x37)/(-_x121*eta + _x304)
    _x308 = _x122*_x281*b
    _x309 = _x156*_x302*_x307*_x308
    _x310 = 6*_x300*_x41 + 3*_x309
    _x311 = _x235*_x299 - 3*_x288 + _x310 + f_8*(2*_x214 + 2*_x226 + _x243*(3*_x215 + _x227 + _x231 + _x239 + _x242) + _x278 + reduce(maximum, [_x194, _x213*_x244]) + reduce(maximum, [_x217, _x225*_x244]))
    _x312 = _x64*h
    _x313 = _x140*_x64
    _x314 = _x312 + _x313
    _x315 = _x189*(_x190 + _x314)
    _x316 = _x0*_x190
    _x317 = F_s*_x316
    _x318 = _x211*_x317
    _x319 = _x2*_x64
    _x320 = _x2*_x312 + _x215
    _x321 = _x189*(_x162*_x319 + _x320)
    _x322 = _x2*_x210
    _x323 = reduce(maximum, [1, _x319])
    _x324 = _x199*_x323
    _x325 = _x205*ceil(_x324)
    _x326 = _x201*ceil(_x195*_x323)
    _x327 = _x205*ceil(2*_x324)
    _x328 = _x317/reduce(maximum, [_x325/ceil(_x325), _x326/ceil(_x326), _x327/ceil(_x327)])
    _x329 = _x322*_x328
    _x330 = reduce(maximum, [_x315, _x318]) + reduce(maximum, [_x321, _x329])
    _x331 = E_s*_x330
    _x332 = _x107*_x140
    _x333 = reduce(maximum, [1, E])
    _x334 = _x333**(-1.0)
    _x335 = _x334*imb
    _x336 = _x147*_x335
    _x337 = M_e*_x336
    _x338 = _x60*h
    _x339 = _x104*_x140
    _x340 = M_e*_x339
    _x341 = _x173*imb
    _x342 = _x334*_x341
    _x343 = _x340*_x342
    _x344 = _x338 + _x343
    _x345 = E*_x57
    _x346 = _x189*_x345
    _x347 = _x346*(_x332*_x337 + _x344)
    _x348 = _x335*_x340
    _x349 = _x147*_x348
    _x350 = reduce(maximum, [1, _x349])
    _x351 = _x198*reduce(maximum, [1, _x345])
    _x352 = _x351*ceil(_x199*_x350)
    _x353 = _x197*_x352
    _x354 = _x351*ceil(_x195*_x350)
    _x355 = _x204*_x354
    _x356 = _x207*_x354
    _x357 = _x341/reduce(maximum, [_x353/ceil(_x353), _x355/ceil(_x355), _x356/ceil(_x356)])
    _x358 = _x210*_x332*_x357
    _x359 = reduce(maximum, [_x347, _x358])
    _x360 = _x2*_x343
    _x361 = _x105*_x140
    _x362 = _x337*_x361
    _x363 = _x2*_x338 + _x362
    _x364 = _x346*(2*_x360 + _x363)
    _x365 = reduce(maximum, [1, _x145])
    _x366 = _x352*ceil(_x195*_x365)
    _x367 = _x199*_x365
    _x368 = _x354*ceil(_x367)
    _x369 = _x354*ceil(2*_x367)
    _x370 = _x341/reduce(maximum, [_x366/ceil(_x366), _x368/ceil(_x368), _x369/ceil(_x369)])
    _x371 = _x322*_x332*_x370
    _x372 = reduce(maximum, [_x364, _x371])
    _x373 = _x140*_x142
    _x374 = _x339*_x58
    _x375 = _x336*_x374
    _x376 = _x164*s_x
    _x377 = F_e*(K*_x348 + _x228*_x59)
    _x378 = _x57*(_x145*n_wq + _x349)
    _x379 = _x215 + _x228*_x319 + _x228*_x64 + _x313
    _x380 = E_s*_x379 + _x345*_x377 + _x375*_x376 + _x378*_x58
    _x381 = _x239 + _x380
    _x382 = reduce(maximum, [_x284*_x317, _x280*(_x215 + _x314)]) + reduce(maximum, [_x2*_x283*_x328, _x280*(_x140*_x319 + _x320)])
    _x383 = reduce(maximum, [1, _x339])
    _x384 = _x198*ceil(_x195*_x333)*ceil(_x199*_x383)
    _x385 = _x199*_x333
    _x386 = _x198*ceil(_x195*_x383)
    _x387 = _x386*ceil(_x385)
    _x388 = _x386*ceil(2*_x385)
    _x389 = reduce(maximum, [_x280*(_x361 + _x373 + _x58), _x286*_x374/reduce(maximum, [_x384/ceil(_x384), _x387/ceil(_x387), _x388/ceil(_x388)])])
    _x390 = _x280*_x345
    _x391 = _x107*_x300
    _x392 = reduce(maximum, [_x357*_x391, _x390*(_x344 + _x362)]) + reduce(maximum, [_x2*_x370*_x391, _x390*(_x360 + _x363)])
    _x393 = E_s*_x382 + _x389 + _x392
    _x394 = _x279*(_x287 + _x393)
    _x395 = _x389*f_8
    _x396 = _x105*_x291
    _x397 = _x187*(reduce(maximum, [0, reduce(minimum, [1, _x345 - 1])]) + 1)
    _x398 = _x141*_x397
    _x399 = 20*_x142 + _x174*_x290 + _x290*_x64 + _x398
    _x400 = _x189*(_x396 + _x399)
    _x401 = _x140*_x189
    _x402 = _x189*_x235*(_x297 + _x396) + _x235*_x400 + _x310 - 3*_x394 + 3*_x395 - _x398*_x401 + f_8*(E_s*(_x330 + reduce(maximum, [_x315, _x244*_x318]) + reduce(maximum, [_x321, _x244*_x329])) + _x243*(E_s*_x140*(_x319 + h) + _x2*_x342*_x373 + _x215 + _x242 + _x375 + _x381) + _x278 + _x331 + 2*_x359 + 2*_x372 + reduce(maximum, [_x347, _x244*_x358]) + reduce(maximum, [_x364, _x244*_x371]))
    _x403 = _x215 + _x231
    _x404 = _x214 + _x226
    _x405 = _x249 + _x277
    _x406 = 2*_x41
    _x407 = _x283*_x406
    _x408 = _x140*_x407 + _x309
    _x409 = _x401*(_x298 + _x399)
    _x410 = _x359 + _x372
    _x411 = _x331 + _x410
    _x412 = S*_x302
    _x413 = _x307*_x412
    _x414 = _x140*(-_x189*_x296 + _x281*_x413 + _x407)
    _x415 = _x141*_x401*(8*eager + 1)
    _x416 = _x210*f_8
    _x417 = _x279*_x283
    _x418 = _x110*_x162*(_x416 - _x417)*(_x12*_x16 + _x26)
    _x419 = _x102*_x15*is_mla - _x110*has_qlora*(_x12*r_q + _x26) + _x170*_x7*h
    _x420 = -2*_x164*_x191*(_x166 + 1) + 2*_x168*_x191 + 2*_x419
    _x421 = _x174*_x289
    _x422 = _x140*_x280
    _x423 = _x167*_x64
    _x424 = -_x175*has_qlora*is_mla
    _x425 = _x162*(_x168*h*(-_x423 - _x424) - _x229*(-2*_x423 - _x424) + _x419)
    _x426 = reduce(maximum, [1, _x69])
    _x427 = _x201*ceil(_x195*_x426)
    _x428 = _x199*_x426
    _x429 = _x205*ceil(_x428)
    _x430 = _x205*ceil(2*_x428)
    _x431 = 30*_x401*_x69 + 3*reduce(maximum, [_x280*(_x140*_x69 + _x215 + _x76), _x300*_x70/reduce(maximum, [_x427/ceil(_x427), _x429/ceil(_x429), _x430/ceil(_x430)])])
    _x432 = 2*alpha
    _x433 = _x0/W_tp
    _x434 = _x215*_x433
    _x435 = 4*_x434
    _x436 = _x434*a_8
    _x437 = _x432 + _x435 - _x436
    _x438 = _x183*_x437
    _x439 = t_e - 1
    _x440 = K*imb_mem/W_etp
    _x441 = _x183*_x436
    _x442 = _x183*_x432 + _x183*_x435 - _x441
    _x443 = _x158*_x439*_x440 + _x432*_x439 + _x442
    _x444 = _x332*_x440
    _x445 = c_u - 1
    _x446 = _x140/W_cr
    _x447 = _x115*_x446 + alpha
    _x448 = _x109*_x447
    _x449 = _x140*_x445*(_x0*a*d_v*is_mla - _x118 - _x131)/(W_cu*c_u)
    _x450 = _x303*_x308*(_x282*_x406 + _x413)
    _x451 = -_x450
    _x452 = -2*_x450
    _x453 = _x109*alpha + _x116*_x446
    _x454 = 3*_x109*q_p2p*reduce(maximum, [0, _x447 + _x451]) + _x432*_x445 + _x448*n_ag + 8*_x449 + q_agr*(_x109*reduce(maximum, [0, 4*_x114*_x446 + _x452 + alpha]) + reduce(maximum, [0, _x451 + _x453]) + reduce(maximum, [0, _x452 + _x453]))
    _x455 = _x445*alpha + _x448*reduce(minimum, [1, n_ag]) + 4*_x449
    _x456 = M_e - 1
    _x457 = _x456*alpha
    _x458 = 4*_x457
    _x459 = ceil(f_off)
    _x460 = W_eout**(-1.0)
    _x461 = W_ein**(-1.0)
    _x462 = _x456*(_x459*_x460 - _x461*(_x459 - 1))
    _x463 = 1000000.0 - 1000000.0*d_ag
    _x464 = _x140*_x141*_x462 + _x458 + _x463
    _x465 = 1000000.0*d_a2a
    _x466 = _x332*imb
    _x467 = _x456*_x466
    _x468 = K*_x57
    _x469 = _x460*_x467*_x468*f_off
    _x470 = f_off - 1
    _x471 = _x456*_x470
    _x472 = _x461*_x466*_x468
    _x473 = reduce(maximum, [_x469, -_x471*_x472])
    _x474 = _x457 + _x473
    _x475 = 4*o_ep - 4
    _x476 = -_x456*_x470
    _x477 = reduce(maximum, [_x469, _x472*_x476])
    _x478 = _x457 + _x477
    _x479 = _x140*(_x23*_x283*(_x104*(E + _x341*n_m) + _x143) + _x400)
    _x480 = 2*_x479
    _x481 = -_x14*h
    _x482 = -_x121
    _x483 = -_x6*d_h
    _x484 = _x10 + _x483
    _x485 = _x140*(_x0*_x286*(_x24*_x483 + _x27 + _x483*_x8 + _x484*_x8 + is_mla*(_x13*_x481 + _x17)) + _x189*(_x124*_x295*_x482 + _x294*(_x100*_x484 + 5*_x292*d_r*is_mla + _x293*_x483) + _x396) + _x281*_x412*(_x306*(_x305 + 2*_x483) + _x37)/(_x304 + _x482*eta) + _x286*(_x37*(_x16 + _x481) + _x40))
    _x486 = 2*_x485
    _x487 = reduce(minimum, [_x478, _x479]) + reduce(minimum, [_x478, _x480]) + reduce(minimum, [_x478, _x485]) + reduce(minimum, [_x478, _x486])
    _x488 = 1000000.0*d_dep
    _x489 = _x476 + 1
    _x490 = M_e/_x489 - 1
    _x491 = alpha*(_x476 + _x490)
    _x492 = (1 - _x57)**K - 1
    _x493 = _x467/W_nvl_x
    _x494 = (-_x489*_x57 + 1)**K - 1
    _x495 = _x466/W_rdma_x
    _x496 = reduce(maximum, [-_x492*_x493, -_x490*_x494*_x495])
    _x497 = _x491 + _x496
    _x498 = reduce(minimum, [_x479, _x497]) + reduce(minimum, [_x480, _x497]) + reduce(minimum, [_x485, _x497]) + reduce(minimum, [_x486, _x497])
    _x499 = -4*_x491 - 4*_x496 + _x498
    _x500 = _x471 - 1
    _x501 = -_x500
    _x502 = _x501**(-1.0)
    _x503 = -M_e*_x502 + _x471 + 1
    _x504 = -_x492*_x493
    _x505 = _x475*(-_x503*alpha + reduce(maximum, [_x504, -_x494*_x495*(M_e*_x502 - 1)])) - 1000000.0
    _x506 = 1000000.0*d_hep
    _x507 = reduce(minimum, [_x464, -_x488 - _x505 - o_ep*(-_x498*n_sm_dep/(N_sm - n_sm_dep) + _x499), -_x505 - _x506 - o_ep*(-_x498*n_sm_hep/(N_sm - n_sm_hep) + _x499), -_x465 - _x474*_x475 - o_ep*(-_x458 - 4*_x477 - _x487*n_sm_a2a/(N_sm - n_sm_a2a) + _x487) + 1000000.0])
    _x508 = _x432*_x456
    _x509 = 1000000.0 - _x465
    _x510 = 2*_x473 + _x508
    _x511 = _x488 - 1000000.0
    _x512 = reduce(maximum, [_x504, _x495*(M_e/_x500 + 1)*((-_x501*_x57 + 1)**K - 1)])
    _x513 = _x432*_x503 - 2*_x512
    _x514 = _x506 - 1000000.0
    _x515 = 4*_x503*alpha - 4*_x512
    _x516 = _x439*_x444 + _x439*alpha
    _x517 = W_pp**(-1.0)
    _x518 = _x4 + _x93
    _x519 = _x177 + b_r*z_2
    _x520 = _x518 + _x95
    _x521 = W_dpcp**(-1.0)
    _x522 = Z_d - 1
    _x523 = _x521*_x522
    _x524 = _x46*_x523
    _x525 = W_edp**(-1.0)
    _x526 = Z_e - 1
    _x527 = 2*g_8
    _x528 = _x65 + _x93
    _x529 = _x525*_x526*_x54
    _x530 = _x529*_x72
    _x531 = z_1*(z_2 - 1)
    _x532 = _x31*z_2
    _x533 = _x531 + _x532
    _x534 = _x533*g_8
    _x535 = _x531*(b_r + 2) + 2*_x532 + 2*b_r*(z_1 - 1)
    _x536 = _x74*(_x517*_x70*b_r + alpha)
    _x537 = _x524*_x535
    _x538 = _x189*(b_g + 26)
    return [
        0,
        _x32*f_8*(-_x30 - _x5) - _x45*_x53,
        _x32*f_8*(_x65 + _x66) - _x53*_x68 - 2*_x56*_x62,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x52*_x70,
        -2*_x52*_x80 - 2*_x56*_x72,
        0,
        0,
        -_x45*_x83,
        -b_g*(_x62*_x84 + _x68*_x82),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x76*_x83,
        -b_g*(_x72*_x84 + _x80*_x82),
        0,
        0,
        -_x85*_x88,
        -_x85*(_x87*_x96 + _x90),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x85*_x97,
        -_x85*(_x87*_x99 + _x98),
        0,
        0,
        _x139*_x140,
        _x140*_x151,
        _x140*(-_x150 - _x154),
        _x140*(-_x128 - _x155),
        _x157,
        _x159,
        -_x140*(_x160 + 2*_x161),
        _x163,
        _x140*(-_x149 - _x154 + 2*_x164*(F*_x165 - _x167*(_x105 + _x134)) - _x169*(_x104*h*has_qlora*is_mla - _x134*_x167) - _x172),
        _x157,
        _x159,
        _x140*(_x104*h*(drop + 4) - _x148 - _x152 - _x160),
        -_x162*_x174,
        -_x140*_x144,
        _x163,
        _x140*(-_x127 - _x155 + 2*_x164*(_x166*(_x105 + _x64) - _x167*_x175) - _x169*(-_x104*_x167*(E + h) + _x165*_x63) - _x172),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x140*(_x176 + k_mtp*(-_x139*_x78 + _x151*is_moe_model + _x176)),
        0,
        _x178*_x45,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x178*_x181 + _x182*(_x180 + _x181) + b_g*z_2*(_x180 + (_x179 + is_moe_model*(-_x30 + 2*_x33*h - _x38 + _x39*h + 2*d_ix))*(v - 1)),
        _x178*(_x5 + _x62 + _x67),
        _x162*(_x161 + _x184 - _x185*_x186),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x162*(F*_x0*_x78*n_m - _x184 + _x185*_x186 - _x188*is_moe_model - _x71*(_x174 + _x64)),
        _x162*(_x143 - _x161 + _x174*n_m + _x188),
        0,
        _x311,
        _x402,
        _x140*_x299 - _x288 + _x408 + f_8*(_x243*(_x239 + _x403) + _x404 + _x405),
        -_x394 + _x395 + _x408 + _x409 + f_8*(_x243*_x381 + _x405 + _x411),
        _x414,
        _x415,
        _x192*_x280*_x289 - _x279*_x285 + f_8*(_x243*_x403 + _x404),
        _x418,
        _x140*(_x299 - _x416*_x420 + _x417*_x420),
        _x414,
        _x415,
        -_x279*_x393 + _x395 + _x422*(10*_x142 + _x152*_x397 + _x289*_x64 + _x421) + f_8*(_x243*_x380 + _x411),
        _x421*_x422,
        E_s*(F_s*_x0*_x289*_x422 - _x279*_x382 + f_8*(_x243*_x379 + _x330)),
        _x418,
        -_x279*_x392 + _x409 - _x416*_x425 + _x417*_x425 + f_8*(E*_x243*(_x336*_x361*_x376 + _x377*_x57 + _x378*h) + _x410),
        0,
        _x431 + k_mtp*(-_x311*_x78 + _x402*is_moe_model + _x431),
        0,
        0,
        4*_x438,
        2*_x443,
        2*_x438,
        _x443,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2*k_mtp*(-_x438*_x78 + 2*_x439*is_moe_model*(_x444 + alpha) + _x442),
        0,
        0,
        _x454,
        _x454,
        _x455,
        _x455,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x454*k_mtp,
        0,
        0,
        0,
        _x507,
        0,
        -_x507 + reduce(minimum, [_x464, _x458 + 4*_x473 + _x509, -_x511 - _x515, -_x514 - _x515]) + reduce(minimum, [_x509 + _x510, _x158*_x462 + _x463 + _x508, -_x511 - _x513, -_x513 - _x514]),
        0,
        0,
        _x437*((1/2)*t - 1/2),
        0,
        _x438,
        0,
        0,
        2*_x474 + 2*_x516,
        0,
        0,
        0,
        _x183*_x190*_x433 + _x183*alpha - 1/2*_x441 + _x510 + _x516,
        0,
        _x507*is_moe_model*k_mtp,
        0,
        -2*_x73*v*(_x316*_x517 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x524*(-_x182*_x518*g_8 + _x519*_x520),
        E*F_e*_x519*_x525*_x526*_x54*_x57*_x59*h*n_m + _x46*_x519*_x521*_x522*_x96 - _x50*_x523*_x527*_x528 - _x525*_x526*_x527*_x55*_x62,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x519*_x524*_x76,
        _x519*(_x524*_x80 + _x530),
        0,
        0,
        _x524*(_x518*_x534 - _x520*_x535),
        _x524*(_x528*_x534 - _x535*_x96),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x536 - _x537*_x76,
        -_x536 - _x537*_x99,
        0,
        0,
        0,
        _x529*_x62*(_x533*g_8 - _x535),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x530*_x535,
        0,
        0,
        _x538*_x88,
        _x538*(_x68*_x87 + _x90),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x538*_x97,
        _x538*(_x80*_x87 + _x98),
        0]

# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_o', 'b_r', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_ix', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_f', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_ix', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'rho_ov', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'u_ep', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_o, b_r, c, c_8, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_ix, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_f, k_mtp, lin_bias, ln_bias, mu, n_ag, n_ix, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, rho_ov, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, u_ep, v, w_8, z_1, z_2, z_3):
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
    _x85 = 1 - z_1
    _x86 = _x46*z_1 + _x85
    _x87 = _x45*_x86
    _x88 = _x54*z_1 + _x85
    _x89 = _x62*_x88 + _x68*_x86
    _x90 = _x76*_x86
    _x91 = _x72*_x88 + _x80*_x86
    _x92 = _x0*a
    _x93 = 4*_x92*flash
    _x94 = _x25 + _x92*d_v
    _x95 = 2*is_mla*(_x0*_x13 + _x16 + _x94)
    _x96 = t_s**(-1.0)
    _x97 = _x96*h
    _x98 = _x97*(s_8 - 2)
    _x99 = _x23*_x96
    _x100 = _x99*drop
    _x101 = c_r - 1
    _x102 = _x20*a
    _x103 = _x102*(_x12 + d_v)
    _x104 = _x21*g
    _x105 = 2*_x104
    _x106 = _x103 - _x105*_x7
    _x107 = 2*_x106
    _x108 = _x101*_x107
    _x109 = _x108*q_sv
    _x110 = _x104*_x7
    _x111 = -4*_x110
    _x112 = 3*drop + 2
    _x113 = flash - 1
    _x114 = c**(-1.0)
    _x115 = S*_x114
    _x116 = _x115*_x92
    _x117 = _x113*_x116
    _x118 = -_x112*_x117
    _x119 = _x100 + _x109 + _x111 + _x118 + _x95 + 6*_x97 + _x98
    _x120 = _x119 + _x93
    _x121 = _x12*is_mla
    _x122 = -_x121 + _x7
    _x123 = _x122*_x92
    _x124 = _x11*_x92
    _x125 = -2*_x123 - _x124*s_8
    _x126 = F*_x0
    _x127 = h*s_8
    _x128 = _x0*_x3
    _x129 = 2*_x128
    _x130 = _x126*s_8 + _x127*_x96 + _x129
    _x131 = _x120 + _x125 + _x130
    _x132 = _x115*b
    _x133 = 8*_x97
    _x134 = E*_x96
    _x135 = _x64*n_m
    _x136 = 2*_x135
    _x137 = _x2*_x60
    _x138 = _x96*imb_mem
    _x139 = K*t_e
    _x140 = 4*_x134 + _x136 + _x138*_x139*(_x127 + 2*_x137 + _x23 + _x60*s_8)
    _x141 = _x100 + _x109 + _x111 + _x118 + _x95 + _x98
    _x142 = _x141 + _x93
    _x143 = _x125 + _x133 + _x140 + _x142
    _x144 = 4*_x97
    _x145 = -_x11
    _x146 = -2*_x122*_x92 + _x145*_x92*s_8
    _x147 = _x130 + _x144 + _x146
    _x148 = _x140 + _x146
    _x149 = S**2
    _x150 = _x112*_x113*_x149*_x92*b/c**2
    _x151 = _x132*_x144
    _x152 = -_x151
    _x153 = _x97*drop
    _x154 = _x126*n_m
    _x155 = 2*_x132
    _x156 = -_x103*_x155
    _x157 = n_m - 2
    _x158 = _x20*has_qlora
    _x159 = has_qlora*is_mla
    _x160 = _x159 - 1
    _x161 = n_m - 3
    _x162 = 2*_x161
    _x163 = _x104 + _x92
    _x164 = 2*_x7
    _x165 = -2*_x0*_x145*a + 2*_x102*_x14*(2*d_n + d_r + d_v) + _x163*_x164 - 2*has_qlora*is_mla*(_x25 + _x97 + r_q)
    _x166 = F_e*K
    _x167 = _x138*_x166
    _x168 = _x134 + _x64
    _x169 = _x69*b_l
    _x170 = 4*z_3
    _x171 = z_2*(_x170 + b_g)
    _x172 = -_x45*_x78
    _x173 = _x76*u_1 + _x77
    _x174 = _x172 + is_moe_model*(_x35 + _x41 + _x66 + _x67)
    _x175 = 2*z_3
    _x176 = t - 1
    _x177 = h*reduce(minimum, [1, _x176])
    _x178 = c_r*(q_p2p - 1) - q_p2p
    _x179 = _x107*reduce(minimum, [1, _x101])
    _x180 = _x139*imb_mem
    _x181 = _x180*_x99
    _x182 = W_hbm**(-1.0)
    _x183 = _x132*_x23
    _x184 = _x126*h
    _x185 = _x126*_x132
    _x186 = _x184 + _x185
    _x187 = _x182*(_x183 + _x186)
    _x188 = reduce(maximum, [1, _x132])
    _x189 = _x188*u_ep
    _x190 = 1/(Pk_8*eta_8)
    _x191 = T_m**(-1.0)
    _x192 = reduce(maximum, [1, h])
    _x193 = ceil(_x191*_x192)
    _x194 = N_sm**(-1.0)
    _x195 = T_n**(-1.0)
    _x196 = _x194*ceil(_x188*_x195)
    _x197 = _x193*_x196
    _x198 = _x192*_x195
    _x199 = ceil(_x198)
    _x200 = _x194*ceil(_x188*_x191)
    _x201 = _x199*_x200
    _x202 = ceil(2*_x198)
    _x203 = _x200*_x202
    _x204 = reduce(maximum, [_x197/ceil(_x197), _x201/ceil(_x201), _x203/ceil(_x203)])**(-1.0)
    _x205 = _x185*_x204
    _x206 = _x190*_x205
    _x207 = reduce(maximum, [_x187, _x23*(_x189 + _x206)])
    _x208 = _x132*h
    _x209 = _x128*h + _x208
    _x210 = _x182*(_x129*_x132 + _x209)
    _x211 = reduce(maximum, [1, _x128])
    _x212 = _x196*ceil(_x191*_x211)
    _x213 = _x195*_x211
    _x214 = _x200*ceil(_x213)
    _x215 = _x200*ceil(2*_x213)
    _x216 = reduce(maximum, [_x212/ceil(_x212), _x214/ceil(_x214), _x215/ceil(_x215)])**(-1.0)
    _x217 = _x190*_x208
    _x218 = _x216*_x217
    _x219 = reduce(maximum, [_x210, _x129*(_x189 + _x218)])
    _x220 = _x128*_x132
    _x221 = h*n_wq
    _x222 = _x157*h
    _x223 = _x132*s_x
    _x224 = _x128*_x221 + _x184*n_wq + _x185 + _x222*_x223
    _x225 = _x6*s_x
    _x226 = _x225 + 1
    _x227 = -_x18*is_mla
    _x228 = _x0*(-_x227 + _x28 + _x9)
    _x229 = 3*_x132
    _x230 = _x92*d_h
    _x231 = _x105*d_h
    _x232 = _x124*_x132
    _x233 = -_x124*_x221 - _x225*h*(_x229 + _x230*n_wq + _x231*n_wq) + _x226*(_x208 - _x228*n_wq) - _x232
    _x234 = h**(-1.0)
    _x235 = _x228*_x234
    _x236 = _x132*_x235
    _x237 = -_x223*_x7*(_x105 + _x92) - _x226*_x236
    _x238 = _x182*q_8
    _x239 = w_8**(-1.0)
    _x240 = _x124*h + _x232
    _x241 = _x182*(2*S*_x114*b*h - _x240)
    _x242 = _x204*_x232
    _x243 = _x190*_x242
    _x244 = reduce(maximum, [_x241, _x23*(_x189 - _x243)])
    _x245 = -S*_x114*b*h
    _x246 = _x228 + _x245
    _x247 = _x182*(-_x155*_x235 - _x246)
    _x248 = _x189*_x234
    _x249 = reduce(maximum, [1, -_x235])
    _x250 = _x195*_x249
    _x251 = _x200*ceil(_x250)
    _x252 = _x196*ceil(_x191*_x249)
    _x253 = _x200*ceil(2*_x250)
    _x254 = _x132/reduce(maximum, [_x251/ceil(_x251), _x252/ceil(_x252), _x253/ceil(_x253)])
    _x255 = _x190*_x254
    _x256 = 2*_x228
    _x257 = reduce(maximum, [_x247, -_x256*(_x248 + _x255)])
    _x258 = _x104*d_h
    _x259 = _x182*(_x132*_x231 + _x208 + _x258*h)
    _x260 = reduce(maximum, [1, _x258])
    _x261 = _x195*_x260
    _x262 = _x200*ceil(_x261)
    _x263 = _x196*ceil(_x191*_x260)
    _x264 = _x200*ceil(2*_x261)
    _x265 = _x217/reduce(maximum, [_x262/ceil(_x262), _x263/ceil(_x263), _x264/ceil(_x264)])
    _x266 = _x182*(_x155*_x230 + _x208 + _x230*h)
    _x267 = reduce(maximum, [1, _x230])
    _x268 = _x195*_x267
    _x269 = _x200*ceil(_x268)
    _x270 = _x196*ceil(_x191*_x267)
    _x271 = _x200*ceil(2*_x268)
    _x272 = _x217/reduce(maximum, [_x269/ceil(_x269), _x270/ceil(_x270), _x271/ceil(_x271)])
    _x273 = 2*_x230
    _x274 = 2*reduce(maximum, [_x259, _x231*(_x189 + _x265)]) + reduce(maximum, [_x266, _x273*(_x189 + _x272)])
    _x275 = -_x225*_x274 + _x226*_x257
    _x276 = -_x225*(_x274 + 2*reduce(maximum, [_x259, _x231*(_x189 + _x239*_x265)]) + reduce(maximum, [_x266, _x273*(_x189 + _x239*_x272)])) + _x226*(_x257 + reduce(maximum, [_x247, -_x256*(_x239*_x255 + _x248)])) + 2*_x244 + _x275 + reduce(maximum, [_x241, _x23*(_x189 - _x239*_x243)])
    _x277 = f_8 - 1
    _x278 = 2*_x182
    _x279 = Pk**(-1.0)
    _x280 = eta**(-1.0)
    _x281 = _x279*_x280
    _x282 = _x208*_x281
    _x283 = reduce(maximum, [_x278*(_x186 + _x208), _x23*(_x189 + _x205*_x281)]) + reduce(maximum, [_x278*(_x209 + _x220), _x129*(_x189 + _x216*_x282)])
    _x284 = reduce(maximum, [_x23*(_x189 - _x242*_x281), _x278*(-_x240 - _x245)]) + reduce(maximum, [-_x256*(_x248 + _x254*_x281), _x278*(-_x236 - _x246)])
    _x285 = _x277*(_x283 + _x284)
    _x286 = 2*_x157*eager + n_m
    _x287 = 2*_x286
    _x288 = drop + 32*eager + 10
    _x289 = _x92 + 1
    _x290 = _x0*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x291 = 4*eager
    _x292 = 5*drop + 4
    _x293 = _x117*_x292
    _x294 = _x291*(-_x124 + 5*_x289*d_r*is_mla - _x290*_x7) - _x293
    _x295 = _x288*_x99 + _x294
    _x296 = _x182*(_x126*_x287 + _x295)
    _x297 = _x132*_x281
    _x298 = c_r**(-1.0)
    _x299 = _x101*_x298*c_b + 1
    _x300 = S*_x298
    _x301 = _x300*eta_a*flash/(L_a0 + _x300)
    _x302 = _x10 + _x121
    _x303 = _x92*(flash*k_f - 2*flash + 2)
    _x304 = (_x303*(-_x164 + _x302) + _x37)/(-_x113*eta + _x301)
    _x305 = _x114*_x279*b
    _x306 = _x149*_x299*_x304*_x305
    _x307 = 6*_x297*_x41 + 3*_x306
    _x308 = _x229*_x296 - 3*_x285 + _x307 + f_8*(2*_x207 + 2*_x219 + _x238*(3*_x208 + _x220 + _x224 + _x233 + _x237) + _x276 + reduce(maximum, [_x187, _x23*(_x189 + _x206*_x239)]) + reduce(maximum, [_x210, _x129*(_x189 + _x218*_x239)]))
    _x309 = _x64*h
    _x310 = _x132*_x64
    _x311 = _x309 + _x310
    _x312 = _x182*(_x183 + _x311)
    _x313 = F_s*_x0
    _x314 = _x204*_x313
    _x315 = _x132*_x190*_x314
    _x316 = 2*_x2
    _x317 = _x2*_x309 + _x208
    _x318 = _x182*(_x310*_x316 + _x317)
    _x319 = E_s*_x189
    _x320 = _x2*_x64
    _x321 = reduce(maximum, [1, _x320])
    _x322 = _x195*_x321
    _x323 = _x200*ceil(_x322)
    _x324 = _x196*ceil(_x191*_x321)
    _x325 = _x200*ceil(2*_x322)
    _x326 = reduce(maximum, [_x323/ceil(_x323), _x324/ceil(_x324), _x325/ceil(_x325)])**(-1.0)
    _x327 = _x217*_x326
    _x328 = _x313*_x316
    _x329 = reduce(maximum, [_x312, _x23*(_x189 + _x315)]) + reduce(maximum, [_x318, _x328*(_x319 + _x327)])
    _x330 = E_s*_x329
    _x331 = _x132*_x99
    _x332 = reduce(maximum, [1, E])
    _x333 = _x332**(-1.0)
    _x334 = _x139*imb
    _x335 = _x333*_x334
    _x336 = M_e*_x335
    _x337 = _x60*h
    _x338 = _x166*imb
    _x339 = _x132*_x96
    _x340 = M_e*_x333*_x339
    _x341 = _x338*_x340
    _x342 = _x337 + _x341
    _x343 = E*_x57
    _x344 = _x182*_x343
    _x345 = _x344*(_x331*_x336 + _x342)
    _x346 = _x334*_x340
    _x347 = reduce(maximum, [1, _x346])
    _x348 = _x343*_x347*u_ep
    _x349 = _x194*reduce(maximum, [1, _x343])
    _x350 = _x349*ceil(_x195*_x347)
    _x351 = _x193*_x350
    _x352 = _x349*ceil(_x191*_x347)
    _x353 = _x199*_x352
    _x354 = _x202*_x352
    _x355 = _x338*_x339/reduce(maximum, [_x351/ceil(_x351), _x353/ceil(_x353), _x354/ceil(_x354)])
    _x356 = _x190*_x355
    _x357 = reduce(maximum, [_x345, _x23*(_x348 + _x356)])
    _x358 = _x132*_x97
    _x359 = _x336*_x358
    _x360 = _x2*_x337 + _x359
    _x361 = _x344*(_x316*_x341 + _x360)
    _x362 = _x348*_x59
    _x363 = reduce(maximum, [1, _x137])
    _x364 = _x350*ceil(_x191*_x363)
    _x365 = _x195*_x363
    _x366 = _x352*ceil(_x365)
    _x367 = _x352*ceil(2*_x365)
    _x368 = K*imb
    _x369 = _x368/reduce(maximum, [_x364/ceil(_x364), _x366/ceil(_x366), _x367/ceil(_x367)])
    _x370 = _x190*_x358*_x369
    _x371 = F_e*_x316
    _x372 = reduce(maximum, [_x361, _x371*(_x362 + _x370)])
    _x373 = _x132*_x134
    _x374 = _x335*_x339*_x58
    _x375 = _x157*s_x
    _x376 = F_e*(_x221*_x59 + _x340*_x368)
    _x377 = _x57*(_x137*n_wq + _x346)
    _x378 = _x208 + _x221*_x320 + _x221*_x64 + _x310
    _x379 = E_s*_x378 + _x343*_x376 + _x374*_x375 + _x377*_x58
    _x380 = _x233 + _x379
    _x381 = reduce(maximum, [_x278*(_x208 + _x311), _x23*(_x189 + _x297*_x314)]) + reduce(maximum, [_x278*(_x132*_x320 + _x317), _x328*(_x282*_x326 + _x319)])
    _x382 = reduce(maximum, [1, _x339])
    _x383 = _x194*ceil(_x191*_x332)*ceil(_x195*_x382)
    _x384 = _x195*_x332
    _x385 = _x194*ceil(_x191*_x382)
    _x386 = _x385*ceil(_x384)
    _x387 = _x385*ceil(2*_x384)
    _x388 = _x281*_x358
    _x389 = reduce(maximum, [_x278*(_x358 + _x373 + _x58), 2*E*(_x382*u_ep + _x388/reduce(maximum, [_x383/ceil(_x383), _x386/ceil(_x386), _x387/ceil(_x387)]))])
    _x390 = _x278*_x343
    _x391 = reduce(maximum, [_x371*(_x362 + _x369*_x388), _x390*(_x2*_x341 + _x360)]) + reduce(maximum, [_x390*(_x342 + _x359), _x23*(_x281*_x355 + _x348)])
    _x392 = E_s*_x381 + _x389 + _x391
    _x393 = _x277*(_x284 + _x392)
    _x394 = _x389*f_8
    _x395 = _x288*_x97
    _x396 = _x133*_x180
    _x397 = 20*_x134 + _x167*_x287 + _x287*_x64 + _x396
    _x398 = _x182*(_x395 + _x397)
    _x399 = _x132*_x182
    _x400 = _x396*_x399
    _x401 = _x182*_x229*(_x294 + _x395) + _x229*_x398 + _x307 - 3*_x393 + 3*_x394 - _x400 + f_8*(E_s*(_x329 + reduce(maximum, [_x312, _x23*(_x189 + _x239*_x315)]) + reduce(maximum, [_x318, _x328*(_x239*_x327 + _x319)])) + _x238*(E_s*_x132*(_x320 + h) + _x2*_x333*_x338*_x373 + _x208 + _x237 + _x374 + _x380) + _x276 + _x330 + 2*_x357 + 2*_x372 + reduce(maximum, [_x345, _x23*(_x239*_x356 + _x348)]) + reduce(maximum, [_x361, _x371*(_x239*_x370 + _x362)]))
    _x402 = _x208 + _x224
    _x403 = _x207 + _x219
    _x404 = _x244 + _x275
    _x405 = 2*_x41
    _x406 = _x281*_x405
    _x407 = _x132*_x406 + _x306
    _x408 = _x399*(_x295 + _x397)
    _x409 = _x357 + _x372
    _x410 = _x330 + _x409
    _x411 = S*_x299
    _x412 = _x304*_x411
    _x413 = _x132*(-_x182*_x293 + _x279*_x412 + _x406)
    _x414 = _x133*_x399*(8*eager + 1)
    _x415 = _x190*f_8
    _x416 = _x277*_x281
    _x417 = _x102*_x155*(_x415 - _x416)*(_x12*_x16 + _x26)
    _x418 = -_x102*has_qlora*(_x12*r_q + _x26) + _x15*_x94*is_mla + _x163*_x7*h
    _x419 = -2*_x157*_x184*(_x159 + 1) + 2*_x161*_x184 + 2*_x418
    _x420 = _x167*_x286
    _x421 = _x132*_x278
    _x422 = _x160*_x64
    _x423 = -_x168*has_qlora*is_mla
    _x424 = _x155*(_x161*h*(-_x422 - _x423) - _x222*(-2*_x422 - _x423) + _x418)
    _x425 = reduce(maximum, [1, _x69])
    _x426 = _x196*ceil(_x191*_x425)
    _x427 = _x195*_x425
    _x428 = _x200*ceil(_x427)
    _x429 = _x200*ceil(2*_x427)
    _x430 = 30*_x399*_x69 + 3*reduce(maximum, [_x278*(_x132*_x69 + _x208 + _x76), 2*_x69*(_x189 + _x282/reduce(maximum, [_x426/ceil(_x426), _x428/ceil(_x428), _x429/ceil(_x429)]))])
    _x431 = 2*alpha
    _x432 = _x0/W_tp
    _x433 = _x208*_x432
    _x434 = 4*_x433
    _x435 = _x433*a_8
    _x436 = _x431 + _x434 - _x435
    _x437 = _x176*_x436
    _x438 = t_e - 1
    _x439 = K*imb_mem/W_etp
    _x440 = _x176*_x435
    _x441 = _x176*_x431 + _x176*_x434 - _x440
    _x442 = _x151*_x438*_x439 + _x431*_x438 + _x441
    _x443 = _x331*_x439
    _x444 = c_u - 1
    _x445 = _x132/W_cr
    _x446 = _x107*_x445 + alpha
    _x447 = _x101*_x446
    _x448 = _x132*_x444*(_x0*a*d_v*is_mla - _x110 - _x123)/(W_cu*c_u)
    _x449 = _x300*_x305*(_x280*_x405 + _x412)
    _x450 = -_x449
    _x451 = -2*_x449
    _x452 = _x101*alpha + _x108*_x445
    _x453 = 3*_x101*q_p2p*reduce(maximum, [0, _x446 + _x450]) + _x431*_x444 + _x447*n_ag + 8*_x448 + q_agr*(_x101*reduce(maximum, [0, 4*_x106*_x445 + _x451 + alpha]) + reduce(maximum, [0, _x450 + _x452]) + reduce(maximum, [0, _x451 + _x452]))
    _x454 = _x444*alpha + _x447*reduce(minimum, [1, n_ag]) + 4*_x448
    _x455 = M_e - 1
    _x456 = _x455*alpha
    _x457 = 4*_x456
    _x458 = ceil(f_off)
    _x459 = W_eout**(-1.0)
    _x460 = W_ein**(-1.0)
    _x461 = _x455*(_x458*_x459 - _x460*(_x458 - 1))
    _x462 = 1000000.0 - 1000000.0*d_ag
    _x463 = _x132*_x133*_x461 + _x457 + _x462
    _x464 = 1000000.0*d_a2a
    _x465 = reduce(maximum, [0, reduce(minimum, [1, _x343 - 1])])
    _x466 = _x331*_x368*_x57
    _x467 = _x455*_x459*_x466*f_off
    _x468 = f_off - 1
    _x469 = _x455*_x468
    _x470 = _x460*_x466
    _x471 = reduce(maximum, [_x467, -_x469*_x470])
    _x472 = _x456 + _x471
    _x473 = 4*o_ep - 4
    _x474 = -_x455*_x468
    _x475 = reduce(maximum, [_x467, _x470*_x474])
    _x476 = _x456 + _x475
    _x477 = _x132*(_x23*_x281*(_x135 + _x96*(E + _x338*n_m)) + _x398)
    _x478 = 2*_x477
    _x479 = -_x14*h
    _x480 = 2*_x281
    _x481 = -_x113
    _x482 = -_x6*d_h
    _x483 = _x10 + _x482
    _x484 = _x132*(_x0*_x480*(_x24*_x482 + _x27 + _x482*_x8 + _x483*_x8 + is_mla*(_x13*_x479 + _x17)) + _x182*(_x116*_x292*_x481 + _x291*(5*_x289*d_r*is_mla + _x290*_x482 + _x483*_x92) + _x395) + _x279*_x411*(_x303*(_x302 + 2*_x482) + _x37)/(_x301 + _x481*eta) + _x480*(_x37*(_x16 + _x479) + _x40))
    _x485 = 2*_x484
    _x486 = reduce(minimum, [_x476, _x477]) + reduce(minimum, [_x476, _x478]) + reduce(minimum, [_x476, _x484]) + reduce(minimum, [_x476, _x485])
    _x487 = 1000000.0*d_dep
    _x488 = _x474 + 1
    _x489 = M_e/_x488 - 1
    _x490 = alpha*(_x474 + _x489)
    _x491 = (1 - _x57)**K - 1
    _x492 = _x331*imb
    _x493 = _x455*_x492/W_nvl_x
    _x494 = (-_x488*_x57 + 1)**K - 1
    _x495 = _x492/W_rdma_x
    _x496 = reduce(maximum, [-_x491*_x493, -_x489*_x494*_x495])
    _x497 = _x490 + _x496
    _x498 = reduce(minimum, [_x477, _x497]) + reduce(minimum, [_x478, _x497]) + reduce(minimum, [_x484, _x497]) + reduce(minimum, [_x485, _x497])
    _x499 = -4*_x490 - 4*_x496 + _x498
    _x500 = _x469 - 1
    _x501 = -_x500
    _x502 = _x501**(-1.0)
    _x503 = -M_e*_x502 + _x469 + 1
    _x504 = -_x491*_x493
    _x505 = _x473*(-_x503*alpha + reduce(maximum, [_x504, -_x494*_x495*(M_e*_x502 - 1)])) - 1000000.0
    _x506 = 1000000.0*d_hep
    _x507 = reduce(minimum, [_x463, -_x487 - _x505 - o_ep*(-_x498*reduce(maximum, [rho_ov, n_sm_dep/(N_sm - n_sm_dep)]) + _x499), -_x505 - _x506 - o_ep*(-_x498*reduce(maximum, [rho_ov, n_sm_hep/(N_sm - n_sm_hep)]) + _x499), 16*K*S*_x114*_x182*_x465*_x96*b*h*imb_mem*t_e - _x464 - _x472*_x473 - o_ep*(-_x457 - 4*_x475 - _x486*reduce(maximum, [rho_ov, n_sm_a2a/(N_sm - n_sm_a2a)]) + _x486) + 1000000.0])
    _x508 = _x431*_x455
    _x509 = 1000000.0 - _x464
    _x510 = 2*_x471 + _x508
    _x511 = _x487 - 1000000.0
    _x512 = reduce(maximum, [_x504, _x495*(M_e/_x500 + 1)*((-_x501*_x57 + 1)**K - 1)])
    _x513 = _x431*_x503 - 2*_x512
    _x514 = _x506 - 1000000.0
    _x515 = 4*_x503*alpha - 4*_x512
    _x516 = _x438*_x443 + _x438*alpha
    _x517 = W_pp**(-1.0)
    _x518 = _x0*(_x145*_x8 + _x227 - _x9) - _x22*_x28
    _x519 = _x4 + _x518
    _x520 = _x170 + b_r*z_2
    _x521 = -_x36*_x37 + _x40
    _x522 = _x35 + _x521
    _x523 = _x519 + _x522
    _x524 = W_dpcp**(-1.0)
    _x525 = Z_d - 1
    _x526 = _x524*_x525
    _x527 = _x46*_x526
    _x528 = W_edp**(-1.0)
    _x529 = Z_e - 1
    _x530 = 2*g_8
    _x531 = _x518 + _x65
    _x532 = _x518 + _x522 + _x67
    _x533 = _x528*_x529*_x54
    _x534 = _x533*_x72
    _x535 = z_1*(z_2 - 1)
    _x536 = _x31*z_2
    _x537 = _x535 + _x536
    _x538 = _x537*g_8
    _x539 = _x535*(b_r + 2) + 2*_x536 + 2*b_r*(z_1 - 1)
    _x540 = _x74*(_x517*_x70*b_r + alpha)
    _x541 = _x527*_x539
    _x542 = _x182*(b_g + 2*b_o + 8*mu + 2)
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
        _x87*b_o,
        _x89*b_o,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x90*b_o,
        _x91*b_o,
        0,
        0,
        _x131*_x132,
        _x132*_x143,
        _x132*(-_x142 - _x147),
        _x132*(-_x120 - _x148),
        _x150,
        _x152,
        -_x132*(_x153 + 2*_x154),
        _x156,
        _x132*(-_x141 - _x147 + 2*_x157*(F*_x158 - _x160*(_x126 + _x97)) - _x162*(-_x126*_x160 + _x96*h*has_qlora*is_mla) - _x165),
        _x150,
        _x152,
        _x132*(-_x140 - _x144 - _x153 + _x96*h*(drop + 4)),
        -_x155*_x167,
        -_x132*_x136,
        _x156,
        _x132*(-_x119 - _x148 + 2*_x157*(_x159*(_x64 + _x97) - _x160*_x168) - _x162*(_x158*_x63 - _x160*_x96*(E + h)) - _x165),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x132*(_x169 + k_mtp*(-_x131*_x78 + _x143*is_moe_model + _x169)),
        0,
        _x171*_x45,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x171*_x174 + _x175*(_x173 + _x174) + b_g*z_2*(_x173 + (_x172 + is_moe_model*(-_x30 + 2*_x33*h - _x38 + _x39*h + 2*d_ix))*(v - 1)),
        _x171*(_x5 + _x62 + _x67),
        _x155*(_x154 + _x177 - _x178*_x179),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x155*(F*_x0*_x78*n_m - _x177 + _x178*_x179 - _x181*is_moe_model - _x71*(_x167 + _x64)),
        _x155*(_x135 - _x154 + _x167*n_m + _x181),
        0,
        _x308,
        _x401,
        _x132*_x296 - _x285 + _x407 + f_8*(_x238*(_x233 + _x402) + _x403 + _x404),
        -_x393 + _x394 + _x407 + _x408 + f_8*(_x238*_x380 + _x404 + _x410),
        _x413,
        _x414,
        _x185*_x278*_x286 - _x277*_x283 + f_8*(_x238*_x402 + _x403),
        _x417,
        _x132*(_x296 - _x415*_x419 + _x416*_x419),
        _x413,
        _x414,
        -_x277*_x392 + _x394 + _x421*(10*_x134 + _x144*_x180 + _x286*_x64 + _x420) + f_8*(_x238*_x379 + _x410),
        _x420*_x421,
        E_s*(-_x277*_x381 + _x286*_x313*_x421 + f_8*(_x238*_x378 + _x329)),
        _x417,
        -_x277*_x391 + _x408 - _x415*_x424 + _x416*_x424 + f_8*(E*_x238*(_x335*_x358*_x375 + _x376*_x57 + _x377*h) + _x409),
        0,
        _x430 + k_mtp*(-_x308*_x78 + _x401*is_moe_model + _x430),
        0,
        0,
        4*_x437,
        2*_x442,
        2*_x437,
        _x442,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2*k_mtp*(-_x437*_x78 + 2*_x438*is_moe_model*(_x443 + alpha) + _x441),
        0,
        0,
        _x453,
        _x453,
        _x454,
        _x454,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x453*k_mtp,
        0,
        0,
        0,
        _x507,
        0,
        -_x507 + reduce(minimum, [_x463, -_x511 - _x515, -_x514 - _x515, 16*_x180*_x182*_x358*_x465 + _x457 + 4*_x471 + _x509]) + reduce(minimum, [_x151*_x461 + _x462 + _x508, _x400*_x465 + _x509 + _x510, -_x511 - _x513, -_x513 - _x514]),
        0,
        0,
        _x436*((1/2)*t - 1/2),
        0,
        _x437,
        0,
        0,
        2*_x472 + 2*_x516,
        0,
        0,
        0,
        _x176*_x183*_x432 + _x176*alpha - 1/2*_x440 + _x510 + _x516,
        0,
        _x507*is_moe_model*k_mtp,
        0,
        -2*_x73*v*(_x0*_x183*_x517 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x527*(-_x175*_x519*g_8 + _x520*_x523),
        E*F_e*_x520*_x528*_x529*_x54*_x57*_x59*h*n_m + _x46*_x520*_x524*_x525*_x532 - _x50*_x526*_x530*_x531 - _x528*_x529*_x530*_x55*_x62,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x520*_x527*_x76,
        _x520*(_x527*_x80 + _x534),
        0,
        0,
        _x527*(_x519*_x538 - _x523*_x539),
        _x527*(_x531*_x538 - _x532*_x539),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x540 - _x541*_x76,
        -_x540 - _x541*(_x34 - _x75*_x76 + k_mtp*(_x518 + _x521 + _x79)),
        0,
        0,
        0,
        _x533*_x62*(_x537*g_8 - _x539),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x534*_x539,
        0,
        0,
        _x542*_x87,
        _x542*_x89,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x542*_x90,
        _x542*_x91,
        0]

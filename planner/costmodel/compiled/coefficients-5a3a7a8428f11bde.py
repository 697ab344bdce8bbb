# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_o', 'b_r', 'b_y', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_ix', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'eta_g', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_f', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_ix', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'rho_ov', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'u_ep', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_o, b_r, b_y, c, c_8, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_ix, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, eta_g, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_f, k_mtp, lin_bias, ln_bias, mu, n_ag, n_ix, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, rho_ov, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, u_ep, v, w_8, z_1, z_2, z_3):
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
    _x70 = _x69*h
    _x71 = is_moe_model*n_m
    _x72 = _x61*_x71*k_mtp
    _x73 = u_1 - 1
    _x74 = _x73*tied
    _x75 = _x74 + tied - 1
    _x76 = -_x70*_x75
    _x77 = is_moe_model - 1
    _x78 = 5*_x34 - _x4*_x77 + _x67*is_moe_model + 2*h**2
    _x79 = _x34 + _x76 + k_mtp*(_x43 + _x78)
    _x80 = 1 - z_2
    _x81 = -_x46*z_2 - _x80
    _x82 = _x81*b_g
    _x83 = -_x54*z_2 - _x80
    _x84 = 1 - z_1
    _x85 = _x46*z_1 + _x84
    _x86 = _x45*_x85
    _x87 = _x54*z_1 + _x84
    _x88 = _x62*_x87 + _x68*_x85
    _x89 = _x70*_x85
    _x90 = _x72*_x87 + _x79*_x85
    _x91 = _x0*a
    _x92 = 4*_x91*flash
    _x93 = _x25 + _x91*d_v
    _x94 = 2*is_mla*(_x0*_x13 + _x16 + _x93)
    _x95 = t_s**(-1.0)
    _x96 = _x95*h
    _x97 = _x96*(s_8 - 2)
    _x98 = _x96*drop
    _x99 = 2*_x98
    _x100 = c_r - 1
    _x101 = _x20*a
    _x102 = _x101*(_x12 + d_v)
    _x103 = _x21*g
    _x104 = 2*_x103
    _x105 = _x102 - _x104*_x7
    _x106 = 2*_x105
    _x107 = _x100*_x106
    _x108 = _x107*q_sv
    _x109 = _x103*_x7
    _x110 = -4*_x109
    _x111 = 3*drop + 2
    _x112 = flash - 1
    _x113 = c**(-1.0)
    _x114 = S*_x113
    _x115 = _x114*_x91
    _x116 = _x112*_x115
    _x117 = -_x111*_x116
    _x118 = _x108 + _x110 + _x117 + _x94 + 6*_x96 + _x97 + _x99
    _x119 = _x118 + _x92
    _x120 = _x12*is_mla
    _x121 = -_x120 + _x7
    _x122 = _x121*_x91
    _x123 = _x11*_x91
    _x124 = -2*_x122 - _x123*s_8
    _x125 = F*_x0
    _x126 = h*s_8
    _x127 = _x0*_x3
    _x128 = 2*_x127
    _x129 = _x125*s_8 + _x126*_x95 + _x128
    _x130 = _x119 + _x124 + _x129
    _x131 = _x114*b
    _x132 = 8*_x96
    _x133 = E*_x95
    _x134 = _x64*n_m
    _x135 = 2*_x134
    _x136 = _x2*_x60
    _x137 = _x95*imb_mem
    _x138 = K*t_e
    _x139 = 4*_x133 + _x135 + _x137*_x138*(_x126 + 2*_x136 + _x60*s_8 + b_y*h)
    _x140 = _x108 + _x110 + _x117 + _x94 + _x97 + _x99
    _x141 = _x140 + _x92
    _x142 = _x124 + _x132 + _x139 + _x141
    _x143 = 4*_x96
    _x144 = -_x11
    _x145 = -2*_x121*_x91 + _x144*_x91*s_8
    _x146 = _x129 + _x143 + _x145
    _x147 = _x139 + _x145
    _x148 = S**2
    _x149 = _x111*_x112*_x148*_x91*b/c**2
    _x150 = _x131*_x143
    _x151 = -_x150
    _x152 = _x125*n_m
    _x153 = 2*_x131
    _x154 = -_x102*_x153
    _x155 = n_m - 2
    _x156 = _x20*has_qlora
    _x157 = has_qlora*is_mla
    _x158 = _x157 - 1
    _x159 = n_m - 3
    _x160 = 2*_x159
    _x161 = _x103 + _x91
    _x162 = 2*_x7
    _x163 = -2*_x0*_x144*a + 2*_x101*_x14*(2*d_n + d_r + d_v) + _x161*_x162 - 2*has_qlora*is_mla*(_x25 + _x96 + r_q)
    _x164 = F_e*K
    _x165 = _x137*_x164
    _x166 = _x133 + _x64
    _x167 = _x69*b_l
    _x168 = 4*z_3
    _x169 = z_2*(_x168 + b_g)
    _x170 = -_x45*_x77
    _x171 = _x70*u_1 + _x76
    _x172 = _x170 + is_moe_model*(_x35 + _x41 + _x66 + _x67)
    _x173 = 2*z_3
    _x174 = t - 1
    _x175 = h*reduce(minimum, [1, _x174])
    _x176 = c_r*(q_p2p - 1) - q_p2p
    _x177 = _x106*reduce(minimum, [1, _x100])
    _x178 = 2*is_moe_model
    _x179 = _x138*imb_mem
    _x180 = _x179*_x96
    _x181 = W_hbm**(-1.0)
    _x182 = _x131*_x23
    _x183 = _x125*h
    _x184 = _x125*_x131
    _x185 = _x183 + _x184
    _x186 = _x181*(_x182 + _x185)
    _x187 = reduce(maximum, [1, _x131])
    _x188 = _x187*u_ep
    _x189 = 1/(Pk_8*eta_8)
    _x190 = T_m**(-1.0)
    _x191 = reduce(maximum, [1, h])
    _x192 = ceil(_x190*_x191)
    _x193 = N_sm**(-1.0)
    _x194 = T_n**(-1.0)
    _x195 = _x193*ceil(_x187*_x194)
    _x196 = _x192*_x195
    _x197 = _x191*_x194
    _x198 = ceil(_x197)
    _x199 = _x193*ceil(_x187*_x190)
    _x200 = _x198*_x199
    _x201 = ceil(2*_x197)
    _x202 = _x199*_x201
    _x203 = reduce(maximum, [_x196/ceil(_x196), _x200/ceil(_x200), _x202/ceil(_x202)])**(-1.0)
    _x204 = _x184*_x203
    _x205 = _x189*_x204
    _x206 = reduce(maximum, [_x186, _x23*(_x188 + _x205)])
    _x207 = _x131*h
    _x208 = _x127*h + _x207
    _x209 = _x181*(_x128*_x131 + _x208)
    _x210 = reduce(maximum, [1, _x127])
    _x211 = _x195*ceil(_x190*_x210)
    _x212 = _x194*_x210
    _x213 = _x199*ceil(_x212)
    _x214 = _x199*ceil(2*_x212)
    _x215 = reduce(maximum, [_x211/ceil(_x211), _x213/ceil(_x213), _x214/ceil(_x214)])**(-1.0)
    _x216 = _x189*_x207
    _x217 = _x215*_x216
    _x218 = reduce(maximum, [_x209, _x128*(_x188 + _x217)])
    _x219 = _x127*_x131
    _x220 = h*n_wq
    _x221 = _x155*h
    _x222 = _x131*s_x
    _x223 = _x127*_x220 + _x183*n_wq + _x184 + _x221*_x222
    _x224 = _x6*s_x
    _x225 = _x224 + 1
    _x226 = -_x18*is_mla
    _x227 = _x0*(-_x226 + _x28 + _x9)
    _x228 = 3*_x131
    _x229 = _x91*d_h
    _x230 = _x104*d_h
    _x231 = _x123*_x131
    _x232 = -_x123*_x220 - _x224*h*(_x228 + _x229*n_wq + _x230*n_wq) + _x225*(_x207 - _x227*n_wq) - _x231
    _x233 = h**(-1.0)
    _x234 = _x227*_x233
    _x235 = _x131*_x234
    _x236 = -_x222*_x7*(_x104 + _x91) - _x225*_x235
    _x237 = _x181*q_8
    _x238 = w_8**(-1.0)
    _x239 = _x123*h + _x231
    _x240 = _x181*(2*S*_x113*b*h - _x239)
    _x241 = _x203*_x231
    _x242 = _x189*_x241
    _x243 = reduce(maximum, [_x240, _x23*(_x188 - _x242)])
    _x244 = -S*_x113*b*h
    _x245 = _x227 + _x244
    _x246 = _x181*(-_x153*_x234 - _x245)
    _x247 = _x188*_x233
    _x248 = reduce(maximum, [1, -_x234])
    _x249 = _x194*_x248
    _x250 = _x199*ceil(_x249)
    _x251 = _x195*ceil(_x190*_x248)
    _x252 = _x199*ceil(2*_x249)
    _x253 = _x131/reduce(maximum, [_x250/ceil(_x250), _x251/ceil(_x251), _x252/ceil(_x252)])
    _x254 = _x189*_x253
    _x255 = 2*_x227
    _x256 = reduce(maximum, [_x246, -_x255*(_x247 + _x254)])
    _x257 = _x103*d_h
    _x258 = _x181*(_x131*_x230 + _x207 + _x257*h)
    _x259 = reduce(maximum, [1, _x257])
    _x260 = _x194*_x259
    _x261 = _x199*ceil(_x260)
    _x262 = _x195*ceil(_x190*_x259)
    _x263 = _x199*ceil(2*_x260)
    _x264 = _x216/reduce(maximum, [_x261/ceil(_x261), _x262/ceil(_x262), _x263/ceil(_x263)])
    _x265 = _x181*(_x153*_x229 + _x207 + _x229*h)
    _x266 = reduce(maximum, [1, _x229])
    _x267 = _x194*_x266
    _x268 = _x199*ceil(_x267)
    _x269 = _x195*ceil(_x190*_x266)
    _x270 = _x199*ceil(2*_x267)
    _x271 = _x216/reduce(maximum, [_x268/ceil(_x268), _x269/ceil(_x269), _x270/ceil(_x270)])
    _x272 = 2*_x229
    _x273 = 2*reduce(maximum, [_x258, _x230*(_x188 + _x264)]) + reduce(maximum, [_x265, _x272*(_x188 + _x271)])
    _x274 = -_x224*_x273 + _x225*_x256
    _x275 = -_x224*(_x273 + 2*reduce(maximum, [_x258, _x230*(_x188 + _x238*_x264)]) + reduce(maximum, [_x265, _x272*(_x188 + _x238*_x271)])) + _x225*(_x256 + reduce(maximum, [_x246, -_x255*(_x238*_x254 + _x247)])) + 2*_x243 + _x274 + reduce(maximum, [_x240, _x23*(_x188 - _x238*_x242)])
    _x276 = f_8 - 1
    _x277 = 2*_x181
    _x278 = Pk**(-1.0)
    _x279 = eta**(-1.0)
    _x280 = _x278*_x279
    _x281 = _x207*_x280
    _x282 = reduce(maximum, [_x277*(_x185 + _x207), _x23*(_x188 + _x204*_x280)]) + reduce(maximum, [_x277*(_x208 + _x219), _x128*(_x188 + _x215*_x281)])
    _x283 = reduce(maximum, [_x23*(_x188 - _x241*_x280), _x277*(-_x239 - _x244)]) + reduce(maximum, [-_x255*(_x247 + _x253*_x280), _x277*(-_x235 - _x245)])
    _x284 = _x276*(_x282 + _x283)
    _x285 = 2*_x155*eager + n_m
    _x286 = 2*_x285
    _x287 = _x96*(drop + 32*eager + 10)
    _x288 = _x91 + 1
    _x289 = _x0*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x290 = 4*eager
    _x291 = 5*drop + 4
    _x292 = _x116*_x291
    _x293 = _x290*(-_x123 + 5*_x288*d_r*is_mla - _x289*_x7) - _x292
    _x294 = 2*_x287 + _x293
    _x295 = _x181*(_x125*_x286 + _x294)
    _x296 = _x131*_x280
    _x297 = c_r**(-1.0)
    _x298 = _x100*_x297*c_b + 1
    _x299 = S*_x297
    _x300 = _x299*eta_a*flash/(L_a0 + _x299)
    _x301 = _x10 + _x120
    _x302 = _x91*(flash*k_f - 2*flash + 2)
    _x303 = (_x302*(-_x162 + _x301) + _x37)/(-_x112*eta + _x300)
    _x304 = _x113*_x278*b
    _x305 = _x148*_x298*_x303*_x304
    _x306 = 6*_x296*_x41 + 3*_x305
    _x307 = _x228*_x295 - 3*_x284 + _x306 + f_8*(2*_x206 + 2*_x218 + _x237*(3*_x207 + _x219 + _x223 + _x232 + _x236) + _x275 + reduce(maximum, [_x186, _x23*(_x188 + _x205*_x238)]) + reduce(maximum, [_x209, _x128*(_x188 + _x217*_x238)]))
    _x308 = _x64*h
    _x309 = _x131*_x64
    _x310 = _x308 + _x309
    _x311 = _x181*(_x182 + _x310)
    _x312 = F_s*_x0
    _x313 = _x203*_x312
    _x314 = _x131*_x189*_x313
    _x315 = 2*_x2
    _x316 = _x2*_x308 + _x207
    _x317 = _x181*(_x309*_x315 + _x316)
    _x318 = E_s*_x188
    _x319 = _x2*_x64
    _x320 = reduce(maximum, [1, _x319])
    _x321 = _x194*_x320
    _x322 = _x199*ceil(_x321)
    _x323 = _x195*ceil(_x190*_x320)
    _x324 = _x199*ceil(2*_x321)
    _x325 = reduce(maximum, [_x322/ceil(_x322), _x323/ceil(_x323), _x324/ceil(_x324)])**(-1.0)
    _x326 = _x216*_x325
    _x327 = _x312*_x315
    _x328 = reduce(maximum, [_x311, _x23*(_x188 + _x314)]) + reduce(maximum, [_x317, _x327*(_x318 + _x326)])
    _x329 = E_s*_x328
    _x330 = _x153*_x96
    _x331 = reduce(maximum, [1, E])
    _x332 = _x331**(-1.0)
    _x333 = _x138*imb
    _x334 = _x332*_x333
    _x335 = M_e*_x334
    _x336 = _x60*h
    _x337 = _x164*imb
    _x338 = _x131*_x95
    _x339 = M_e*_x332*_x338
    _x340 = _x337*_x339
    _x341 = _x336 + _x340
    _x342 = E*_x57
    _x343 = _x181*_x342
    _x344 = _x343*(_x330*_x335 + _x341)
    _x345 = _x333*_x339
    _x346 = reduce(maximum, [1, _x345])
    _x347 = _x342*_x346*u_ep
    _x348 = _x193*reduce(maximum, [1, _x342])
    _x349 = _x348*ceil(_x194*_x346)
    _x350 = _x192*_x349
    _x351 = _x348*ceil(_x190*_x346)
    _x352 = _x198*_x351
    _x353 = _x201*_x351
    _x354 = _x337*_x338/reduce(maximum, [_x350/ceil(_x350), _x352/ceil(_x352), _x353/ceil(_x353)])
    _x355 = _x189*_x354
    _x356 = reduce(maximum, [_x344, _x23*(_x347 + _x355)])
    _x357 = _x131*_x96
    _x358 = _x335*_x357
    _x359 = _x2*_x336 + _x358
    _x360 = _x343*(_x315*_x340 + _x359)
    _x361 = _x347*_x59
    _x362 = reduce(maximum, [1, _x136])
    _x363 = _x349*ceil(_x190*_x362)
    _x364 = _x194*_x362
    _x365 = _x351*ceil(_x364)
    _x366 = _x351*ceil(2*_x364)
    _x367 = K*imb
    _x368 = _x357*_x367/reduce(maximum, [_x363/ceil(_x363), _x365/ceil(_x365), _x366/ceil(_x366)])
    _x369 = _x189*_x368
    _x370 = F_e*_x315
    _x371 = reduce(maximum, [_x360, _x370*(_x361 + _x369)])
    _x372 = _x131*_x133
    _x373 = _x334*_x338*_x58
    _x374 = _x155*s_x
    _x375 = F_e*(_x220*_x59 + _x339*_x367)
    _x376 = _x57*(_x136*n_wq + _x345)
    _x377 = _x207 + _x220*_x319 + _x220*_x64 + _x309
    _x378 = E_s*_x377 + _x342*_x375 + _x373*_x374 + _x376*_x58
    _x379 = _x232 + _x378
    _x380 = reduce(maximum, [_x277*(_x207 + _x310), _x23*(_x188 + _x296*_x313)]) + reduce(maximum, [_x277*(_x131*_x319 + _x316), _x327*(_x281*_x325 + _x318)])
    _x381 = reduce(maximum, [1, _x338])
    _x382 = _x193*ceil(_x190*_x331)*ceil(_x194*_x381)
    _x383 = _x194*_x331
    _x384 = _x193*ceil(_x190*_x381)
    _x385 = _x384*ceil(_x383)
    _x386 = _x384*ceil(2*_x383)
    _x387 = reduce(maximum, [_x277*(_x357 + _x372 + _x58), 2*E*(_x280*_x357/reduce(maximum, [_x382/ceil(_x382), _x385/ceil(_x385), _x386/ceil(_x386)]) + _x381*u_ep)])
    _x388 = _x277*_x342
    _x389 = _x278/eta_g
    _x390 = reduce(maximum, [_x370*(_x361 + _x368*_x389), _x388*(_x2*_x340 + _x359)]) + reduce(maximum, [_x388*(_x341 + _x358), _x23*(_x347 + _x354*_x389)])
    _x391 = E_s*_x380 + _x387 + _x390
    _x392 = _x276*(_x283 + _x391)
    _x393 = _x387*f_8
    _x394 = _x132*_x179
    _x395 = 20*_x133 + _x165*_x286 + _x286*_x64 + _x394
    _x396 = _x181*(_x287 + _x395)
    _x397 = _x131*_x181
    _x398 = _x394*_x397
    _x399 = _x181*_x228*(_x287 + _x293) + _x228*_x396 + _x306 - 3*_x392 + 3*_x393 - _x398 + f_8*(E_s*(_x328 + reduce(maximum, [_x311, _x23*(_x188 + _x238*_x314)]) + reduce(maximum, [_x317, _x327*(_x238*_x326 + _x318)])) + _x237*(E_s*_x131*(_x319 + h) + _x2*_x332*_x337*_x372 + _x207 + _x236 + _x373 + _x379) + _x275 + _x329 + 2*_x356 + 2*_x371 + reduce(maximum, [_x344, _x23*(_x238*_x355 + _x347)]) + reduce(maximum, [_x360, _x370*(_x238*_x369 + _x361)]))
    _x400 = _x207 + _x223
    _x401 = _x206 + _x218
    _x402 = _x243 + _x274
    _x403 = 2*_x41
    _x404 = _x280*_x403
    _x405 = _x131*_x404 + _x305
    _x406 = _x397*(_x294 + _x395)
    _x407 = _x356 + _x371
    _x408 = _x329 + _x407
    _x409 = S*_x298
    _x410 = _x303*_x409
    _x411 = _x131*(-_x181*_x292 + _x278*_x410 + _x404)
    _x412 = _x132*_x397*(8*eager + 1)
    _x413 = _x189*f_8
    _x414 = _x276*_x280
    _x415 = _x101*_x153*(_x413 - _x414)*(_x12*_x16 + _x26)
    _x416 = -_x101*has_qlora*(_x12*r_q + _x26) + _x15*_x93*is_mla + _x161*_x7*h
    _x417 = -2*_x155*_x183*(_x157 + 1) + 2*_x159*_x183 + 2*_x416
    _x418 = _x165*_x285
    _x419 = _x131*_x277
    _x420 = _x158*_x64
    _x421 = -_x166*has_qlora*is_mla
    _x422 = _x153*(_x159*h*(-_x420 - _x421) - _x221*(-2*_x420 - _x421) + _x416)
    _x423 = reduce(maximum, [1, _x69])
    _x424 = _x195*ceil(_x190*_x423)
    _x425 = _x194*_x423
    _x426 = _x199*ceil(_x425)
    _x427 = _x199*ceil(2*_x425)
    _x428 = 30*_x397*_x69 + 3*reduce(maximum, [_x277*(_x131*_x69 + _x207 + _x70), 2*_x69*(_x188 + _x281/reduce(maximum, [_x424/ceil(_x424), _x426/ceil(_x426), _x427/ceil(_x427)]))])
    _x429 = 2*alpha
    _x430 = _x0/W_tp
    _x431 = _x207*_x430
    _x432 = 4*_x431
    _x433 = _x431*a_8
    _x434 = _x429 + _x432 - _x433
    _x435 = _x174*_x434
    _x436 = t_e - 1
    _x437 = K*imb_mem/W_etp
    _x438 = _x174*_x433
    _x439 = _x174*_x429 + _x174*_x432 - _x438
    _x440 = _x150*_x436*_x437 + _x429*_x436 + _x439
    _x441 = _x330*_x437
    _x442 = c_u - 1
    _x443 = _x131/W_cr
    _x444 = _x106*_x443 + alpha
    _x445 = _x100*_x444
    _x446 = _x131*_x442*(_x0*a*d_v*is_mla - _x109 - _x122)/(W_cu*c_u)
    _x447 = _x299*_x304*(_x279*_x403 + _x410)
    _x448 = -_x447
    _x449 = -2*_x447
    _x450 = _x100*alpha + _x107*_x443
    _x451 = 3*_x100*q_p2p*reduce(maximum, [0, _x444 + _x448]) + _x429*_x442 + _x445*n_ag + 8*_x446 + q_agr*(_x100*reduce(maximum, [0, 4*_x105*_x443 + _x449 + alpha]) + reduce(maximum, [0, _x448 + _x450]) + reduce(maximum, [0, _x449 + _x450]))
    _x452 = _x442*alpha + _x445*reduce(minimum, [1, n_ag]) + 4*_x446
    _x453 = M_e - 1
    _x454 = _x453*alpha
    _x455 = 4*_x454
    _x456 = ceil(f_off)
    _x457 = W_eout**(-1.0)
    _x458 = W_ein**(-1.0)
    _x459 = _x453*(_x456*_x457 - _x458*(_x456 - 1))
    _x460 = 1000000.0 - 1000000.0*d_ag
    _x461 = _x131*_x132*_x459 + _x455 + _x460
    _x462 = 1000000.0*d_a2a
    _x463 = reduce(maximum, [0, reduce(minimum, [1, _x342 - 1])])
    _x464 = _x330*_x367*_x57
    _x465 = _x453*_x457*_x464*f_off
    _x466 = f_off - 1
    _x467 = _x453*_x466
    _x468 = _x458*_x464
    _x469 = reduce(maximum, [_x465, -_x467*_x468])
    _x470 = _x454 + _x469
    _x471 = 4*o_ep - 4
    _x472 = -_x453*_x466
    _x473 = reduce(maximum, [_x465, _x468*_x472])
    _x474 = _x454 + _x473
    _x475 = _x131*(_x23*_x280*(_x134 + _x95*(E + _x337*n_m)) + _x396)
    _x476 = 2*_x475
    _x477 = -_x14*h
    _x478 = 2*_x280
    _x479 = -_x112
    _x480 = -_x6*d_h
    _x481 = _x10 + _x480
    _x482 = _x131*(_x0*_x478*(_x24*_x480 + _x27 + _x480*_x8 + _x481*_x8 + is_mla*(_x13*_x477 + _x17)) + _x181*(_x115*_x291*_x479 + _x287 + _x290*(5*_x288*d_r*is_mla + _x289*_x480 + _x481*_x91)) + _x278*_x409*(_x302*(_x301 + 2*_x480) + _x37)/(_x300 + _x479*eta) + _x478*(_x37*(_x16 + _x477) + _x40))
    _x483 = 2*_x482
    _x484 = reduce(minimum, [_x474, _x475]) + reduce(minimum, [_x474, _x476]) + reduce(minimum, [_x474, _x482]) + reduce(minimum, [_x474, _x483])
    _x485 = 1000000.0*d_dep
    _x486 = _x472 + 1
    _x487 = M_e/_x486 - 1
    _x488 = alpha*(_x472 + _x487)
    _x489 = (1 - _x57)**K - 1
    _x490 = _x330*imb
    _x491 = _x453*_x490/W_nvl_x
    _x492 = (-_x486*_x57 + 1)**K - 1
    _x493 = _x490/W_rdma_x
    _x494 = reduce(maximum, [-_x489*_x491, -_x487*_x492*_x493])
    _x495 = _x488 + _x494
    _x496 = reduce(minimum, [_x475, _x495]) + reduce(minimum, [_x476, _x495]) + reduce(minimum, [_x482, _x495]) + reduce(minimum, [_x483, _x495])
    _x497 = -4*_x488 - 4*_x494 + _x496
    _x498 = _x467 - 1
    _x499 = -_x498
    _x500 = _x499**(-1.0)
    _x501 = -M_e*_x500 + _x467 + 1
    _x502 = -_x489*_x491
    _x503 = _x471*(-_x501*alpha + reduce(maximum, [_x502, -_x492*_x493*(M_e*_x500 - 1)])) - 1000000.0
    _x504 = 1000000.0*d_hep
    _x505 = reduce(minimum, [_x461, -_x485 - _x503 - o_ep*(-_x496*reduce(maximum, [rho_ov, n_sm_dep/(N_sm - n_sm_dep)]) + _x497), -_x503 - _x504 - o_ep*(-_x496*reduce(maximum, [rho_ov, n_sm_hep/(N_sm - n_sm_hep)]) + _x497), 16*K*S*_x113*_x181*_x463*_x95*b*h*imb_mem*t_e - _x462 - _x470*_x471 - o_ep*(-_x455 - 4*_x473 - _x484*reduce(maximum, [rho_ov, n_sm_a2a/(N_sm - n_sm_a2a)]) + _x484) + 1000000.0])
    _x506 = _x429*_x453
    _x507 = 1000000.0 - _x462
    _x508 = 2*_x469 + _x506
    _x509 = _x485 - 1000000.0
    _x510 = reduce(maximum, [_x502, _x493*(M_e/_x498 + 1)*((-_x499*_x57 + 1)**K - 1)])
    _x511 = _x429*_x501 - 2*_x510
    _x512 = _x504 - 1000000.0
    _x513 = 4*_x501*alpha - 4*_x510
    _x514 = _x436*_x441 + _x436*alpha
    _x515 = W_pp**(-1.0)
    _x516 = _x0*(_x144*_x8 + _x226 - _x9) - _x22*_x28
    _x517 = _x4 + _x516
    _x518 = _x168 + b_r*z_2
    _x519 = -_x36*_x37 + _x40
    _x520 = _x35 + _x519
    _x521 = _x517 + _x520
    _x522 = W_dpcp**(-1.0)
    _x523 = Z_d - 1
    _x524 = _x522*_x523
    _x525 = _x46*_x524
    _x526 = W_edp**(-1.0)
    _x527 = Z_e - 1
    _x528 = 2*g_8
    _x529 = _x516 + _x65
    _x530 = _x516 + _x520 + _x67
    _x531 = _x526*_x527*_x54
    _x532 = _x531*_x72
    _x533 = z_1*(z_2 - 1)
    _x534 = _x31*z_2
    _x535 = _x533 + _x534
    _x536 = _x535*g_8
    _x537 = _x533*(b_r + 2) + 2*_x534 + 2*b_r*(z_1 - 1)
    _x538 = _x74*(_x23*_x515*_x69*b_r + alpha)
    _x539 = _x525*_x537
    _x540 = _x181*(b_g + 2*b_o + 8*mu + 2)
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
        -_x53*_x70,
        -2*_x52*_x79 - 2*_x56*_x72,
        0,
        0,
        -_x45*_x82,
        -b_g*(_x62*_x83 + _x68*_x81),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x70*_x82,
        -b_g*(_x72*_x83 + _x79*_x81),
        0,
        0,
        _x86*b_o,
        _x88*b_o,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x89*b_o,
        _x90*b_o,
        0,
        0,
        _x130*_x131,
        _x131*_x142,
        _x131*(-_x141 - _x146),
        _x131*(-_x119 - _x147),
        _x149,
        _x151,
        -_x131*(2*_x152 + _x98),
        _x154,
        _x131*(-_x140 - _x146 + 2*_x155*(F*_x156 - _x158*(_x125 + _x96)) - _x160*(-_x125*_x158 + _x95*h*has_qlora*is_mla) - _x163),
        _x149,
        _x151,
        _x131*(-_x139 - _x143 + _x95*h*(drop + 4) - _x98),
        -_x153*_x165,
        -_x131*_x135,
        _x154,
        _x131*(-_x118 - _x147 + 2*_x155*(_x157*(_x64 + _x96) - _x158*_x166) - _x160*(_x156*_x63 - _x158*_x95*(E + h)) - _x163),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x131*(_x167 + k_mtp*(-_x130*_x77 + _x142*is_moe_model + _x167)),
        0,
        _x169*_x45,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x169*_x172 + _x173*(_x171 + _x172) + b_g*z_2*(_x171 + (_x170 + is_moe_model*(-_x30 + 2*_x33*h - _x38 + _x39*h + 2*d_ix))*(v - 1)),
        _x169*(_x5 + _x62 + _x67),
        _x153*(_x152 + _x175 - _x176*_x177),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x153*(F*_x0*_x77*n_m - _x175 + _x176*_x177 - _x178*_x180 - _x71*(_x165 + _x64)),
        _x153*(_x134 - _x152 + _x165*n_m + 2*_x180),
        0,
        _x307,
        _x399,
        _x131*_x295 - _x284 + _x405 + f_8*(_x237*(_x232 + _x400) + _x401 + _x402),
        -_x392 + _x393 + _x405 + _x406 + f_8*(_x237*_x379 + _x402 + _x408),
        _x411,
        _x412,
        _x184*_x277*_x285 - _x276*_x282 + f_8*(_x237*_x400 + _x401),
        _x415,
        _x131*(_x295 - _x413*_x417 + _x414*_x417),
        _x411,
        _x412,
        -_x276*_x391 + _x393 + _x419*(10*_x133 + _x143*_x179 + _x285*_x64 + _x418) + f_8*(_x237*_x378 + _x408),
        _x418*_x419,
        E_s*(-_x276*_x380 + _x285*_x312*_x419 + f_8*(_x237*_x377 + _x328)),
        _x415,
        -_x276*_x390 + _x406 - _x413*_x422 + _x414*_x422 + f_8*(E*_x237*(_x334*_x357*_x374 + _x375*_x57 + _x376*h) + _x407),
        0,
        _x428 + k_mtp*(-_x307*_x77 + _x399*is_moe_model + _x428),
        0,
        0,
        4*_x435,
        2*_x440,
        2*_x435,
        _x440,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2*k_mtp*(_x178*_x436*(_x441 + alpha) - _x435*_x77 + _x439),
        0,
        0,
        _x451,
        _x451,
        _x452,
        _x452,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x451*k_mtp,
        0,
        0,
        0,
        _x505,
        0,
        -_x505 + reduce(minimum, [_x461, -_x509 - _x513, -_x512 - _x513, 16*_x179*_x181*_x357*_x463 + _x455 + 4*_x469 + _x507]) + reduce(minimum, [_x150*_x459 + _x460 + _x506, _x398*_x463 + _x507 + _x508, -_x509 - _x511, -_x511 - _x512]),
        0,
        0,
        _x434*((1/2)*t - 1/2),
        0,
        _x435,
        0,
        0,
        2*_x470 + 2*_x514,
        0,
        0,
        0,
        _x174*_x182*_x430 + _x174*alpha - 1/2*_x438 + _x508 + _x514,
        0,
        _x505*is_moe_model*k_mtp,
        0,
        -2*_x73*v*(_x0*_x182*_x515 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x525*(-_x173*_x517*g_8 + _x518*_x521),
        E*F_e*_x518*_x526*_x527*_x54*_x57*_x59*h*n_m + _x46*_x518*_x522*_x523*_x530 - _x50*_x524*_x528*_x529 - _x526*_x527*_x528*_x55*_x62,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x518*_x525*_x70,
        _x518*(_x525*_x79 + _x532),
        0,
        0,
        _x525*(_x517*_x536 - _x521*_x537),
        _x525*(_x529*_x536 - _x530*_x537),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x538 - _x539*_x70,
        -_x538 - _x539*(_x34 - _x70*_x75 + k_mtp*(_x516 + _x519 + _x78)),
        0,
        0,
        0,
        _x531*_x62*(_x535*g_8 - _x537),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x532*_x537,
        0,
        0,
        _x540*_x86,
        _x540*_x88,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x540*_x89,
        _x540*_x90,
        0]

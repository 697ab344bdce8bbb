# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_o', 'b_r', 'c', 'c_8', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'g_8', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_o, b_r, c, c_8, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, g_8, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_ag, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_1, v, w_8, z_1, z_2, z_3):
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
    _x77 = 1 - z_1
    _x78 = _x39*z_1 + _x77
    _x79 = _x38*_x78
    _x80 = _x47*z_1 + _x77
    _x81 = _x55*_x80 + _x60*_x78
    _x82 = _x68*_x78
    _x83 = _x64*_x80 + _x72*_x78
    _x84 = _x0*a
    _x85 = 4*_x84*flash
    _x86 = _x25 + _x84*d_v
    _x87 = 2*is_mla*(_x0*_x13 + _x16 + _x86)
    _x88 = t_s**(-1.0)
    _x89 = _x88*h
    _x90 = _x89*(s_8 - 2)
    _x91 = _x23*_x88
    _x92 = _x91*drop
    _x93 = c_r - 1
    _x94 = _x20*a
    _x95 = _x94*(_x12 + d_v)
    _x96 = _x21*g
    _x97 = 2*_x96
    _x98 = -_x7*_x97 + _x95
    _x99 = 2*_x98
    _x100 = _x93*_x99
    _x101 = _x100*q_sv
    _x102 = _x7*_x96
    _x103 = -4*_x102
    _x104 = c**(-1.0)
    _x105 = S*_x104
    _x106 = _x105*_x84
    _x107 = flash - 1
    _x108 = _x107*(3*drop + 2)
    _x109 = -_x106*_x108
    _x110 = _x101 + _x103 + _x109 + _x87 + 6*_x89 + _x90 + _x92
    _x111 = _x110 + _x85
    _x112 = _x12*is_mla
    _x113 = -_x112 + _x7
    _x114 = _x113*_x84
    _x115 = _x11*_x84
    _x116 = -2*_x114 - _x115*s_8
    _x117 = F*_x0
    _x118 = h*s_8
    _x119 = _x0*_x3
    _x120 = 2*_x119
    _x121 = _x117*s_8 + _x118*_x88 + _x120
    _x122 = _x111 + _x116 + _x121
    _x123 = _x105*b
    _x124 = 8*_x89
    _x125 = E*_x88
    _x126 = _x57*n_m
    _x127 = 2*_x126
    _x128 = _x2*_x53
    _x129 = _x88*imb_mem
    _x130 = K*t_e
    _x131 = 4*_x125 + _x127 + _x129*_x130*(_x118 + 2*_x128 + _x23 + _x53*s_8)
    _x132 = _x101 + _x103 + _x109 + _x87 + _x90 + _x92
    _x133 = _x132 + _x85
    _x134 = _x116 + _x124 + _x131 + _x133
    _x135 = 4*_x89
    _x136 = 2*_x84
    _x137 = -_x11
    _x138 = -_x113*_x136 + _x137*_x84*s_8
    _x139 = _x121 + _x135 + _x138
    _x140 = _x131 + _x138
    _x141 = S**2
    _x142 = _x141*_x84*b
    _x143 = _x108*_x142/c**2
    _x144 = _x123*_x135
    _x145 = -_x144
    _x146 = _x89*drop
    _x147 = _x117*n_m
    _x148 = 2*_x123
    _x149 = -_x148*_x95
    _x150 = n_m - 2
    _x151 = _x20*has_qlora
    _x152 = has_qlora*is_mla
    _x153 = _x152 - 1
    _x154 = n_m - 3
    _x155 = 2*_x154
    _x156 = _x84 + _x96
    _x157 = 2*_x7
    _x158 = -2*_x0*_x137*a + 2*_x14*_x94*(2*d_n + d_r + d_v) + _x156*_x157 - 2*has_qlora*is_mla*(_x25 + _x89 + r_q)
    _x159 = F_e*K
    _x160 = _x129*_x159
    _x161 = _x125 + _x57
    _x162 = _x61*b_l
    _x163 = 4*z_3
    _x164 = z_2*(_x163 + b_g)
    _x165 = -_x38*_x70
    _x166 = _x68*u_1 + _x69
    _x167 = _x55 + _x59
    _x168 = _x165 + is_moe_model*(_x167 + _x37)
    _x169 = 2*z_3
    _x170 = t - 1
    _x171 = h*reduce(minimum, [1, _x170])
    _x172 = c_r*(q_p2p - 1) - q_p2p
    _x173 = _x99*reduce(minimum, [1, _x93])
    _x174 = _x130*imb_mem
    _x175 = _x174*_x91
    _x176 = c_r**(-1.0)
    _x177 = S*_x176
    _x178 = _x177*eta_a*flash/(L_a0 + _x177)
    _x179 = flash - 2
    _x180 = _x10 + _x112
    _x181 = Pk**(-1.0)
    _x182 = _x181*(_x176*_x93*c_b + 1)
    _x183 = _x179*_x182*(-_x157 + _x180)/(-_x107*eta + _x178)
    _x184 = _x104*_x142
    _x185 = _x183*_x184
    _x186 = -3*_x185
    _x187 = W_hbm**(-1.0)
    _x188 = 2*_x150*eager + n_m
    _x189 = 2*_x188
    _x190 = drop + 32*eager + 10
    _x191 = _x84 + 1
    _x192 = _x0*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x193 = 4*eager
    _x194 = 5*drop + 4
    _x195 = _x107*_x194
    _x196 = -_x106*_x195 + _x193*(-_x115 + 5*_x191*d_r*is_mla - _x192*_x7)
    _x197 = _x190*_x91 + _x196
    _x198 = _x187*(_x117*_x189 + _x197)
    _x199 = 3*_x123
    _x200 = f_8 - 1
    _x201 = _x123*h
    _x202 = _x117*h
    _x203 = _x117*_x123
    _x204 = _x202 + _x203
    _x205 = 2*_x187
    _x206 = _x123*_x23
    _x207 = _x117*_x206
    _x208 = T_m**(-1.0)
    _x209 = reduce(maximum, [1, h])
    _x210 = ceil(_x208*_x209)
    _x211 = N_sm**(-1.0)
    _x212 = T_n**(-1.0)
    _x213 = reduce(maximum, [1, _x123])
    _x214 = _x211*ceil(_x212*_x213)
    _x215 = _x210*_x214
    _x216 = _x209*_x212
    _x217 = ceil(_x216)
    _x218 = _x211*ceil(_x208*_x213)
    _x219 = _x217*_x218
    _x220 = ceil(2*_x216)
    _x221 = _x218*_x220
    _x222 = reduce(maximum, [_x215/ceil(_x215), _x219/ceil(_x219), _x221/ceil(_x221)])**(-1.0)
    _x223 = _x181/eta
    _x224 = _x222*_x223
    _x225 = _x119*_x123
    _x226 = _x119*h + _x201
    _x227 = reduce(maximum, [1, _x119])
    _x228 = _x214*ceil(_x208*_x227)
    _x229 = _x212*_x227
    _x230 = _x218*ceil(_x229)
    _x231 = _x218*ceil(2*_x229)
    _x232 = _x119/reduce(maximum, [_x228/ceil(_x228), _x230/ceil(_x230), _x231/ceil(_x231)])
    _x233 = reduce(maximum, [_x207*_x224, _x205*(_x201 + _x204)]) + reduce(maximum, [_x206*_x223*_x232, _x205*(_x225 + _x226)])
    _x234 = -_x18*is_mla
    _x235 = _x0*(-_x234 + _x28 + _x9)
    _x236 = _x235/h
    _x237 = _x123*_x236
    _x238 = -S*_x104*b*h
    _x239 = _x235 + _x238
    _x240 = reduce(maximum, [1, -_x236])
    _x241 = _x212*_x240
    _x242 = _x218*ceil(_x241)
    _x243 = _x214*ceil(_x208*_x240)
    _x244 = _x218*ceil(2*_x241)
    _x245 = _x148*_x235/reduce(maximum, [_x242/ceil(_x242), _x243/ceil(_x243), _x244/ceil(_x244)])
    _x246 = _x115*_x123
    _x247 = _x115*h + _x246
    _x248 = _x115*_x206
    _x249 = reduce(maximum, [-_x223*_x245, _x205*(-_x237 - _x239)]) + reduce(maximum, [-_x224*_x248, _x205*(-_x238 - _x247)])
    _x250 = _x200*(_x233 + _x249)
    _x251 = _x187*(_x204 + _x206)
    _x252 = 1/(Pk_8*eta_8)
    _x253 = _x222*_x252
    _x254 = _x207*_x253
    _x255 = reduce(maximum, [_x251, _x254])
    _x256 = _x187*(_x120*_x123 + _x226)
    _x257 = _x206*_x252
    _x258 = _x232*_x257
    _x259 = reduce(maximum, [_x256, _x258])
    _x260 = h*n_wq
    _x261 = _x150*h
    _x262 = _x123*s_x
    _x263 = _x119*_x260 + _x202*n_wq + _x203 + _x261*_x262
    _x264 = _x6*s_x
    _x265 = _x264 + 1
    _x266 = _x84*d_h
    _x267 = _x97*d_h
    _x268 = -_x115*_x260 - _x246 - _x264*h*(_x199 + _x266*n_wq + _x267*n_wq) + _x265*(_x201 - _x235*n_wq)
    _x269 = -_x237*_x265 - _x262*_x7*(_x84 + _x97)
    _x270 = _x187*q_8
    _x271 = w_8**(-1.0)
    _x272 = _x187*(2*S*_x104*b*h - _x247)
    _x273 = _x248*_x253
    _x274 = reduce(maximum, [_x272, -_x273])
    _x275 = _x187*(-_x148*_x236 - _x239)
    _x276 = _x245*_x252
    _x277 = reduce(maximum, [_x275, -_x276])
    _x278 = _x96*d_h
    _x279 = _x187*(_x123*_x267 + _x201 + _x278*h)
    _x280 = reduce(maximum, [1, _x278])
    _x281 = _x212*_x280
    _x282 = _x218*ceil(_x281)
    _x283 = _x214*ceil(_x208*_x280)
    _x284 = _x218*ceil(2*_x281)
    _x285 = _x257*_x278/reduce(maximum, [_x282/ceil(_x282), _x283/ceil(_x283), _x284/ceil(_x284)])
    _x286 = _x187*(_x148*_x266 + _x201 + _x266*h)
    _x287 = reduce(maximum, [1, _x266])
    _x288 = _x212*_x287
    _x289 = _x218*ceil(_x288)
    _x290 = _x214*ceil(_x208*_x287)
    _x291 = _x218*ceil(2*_x288)
    _x292 = _x257*_x266/reduce(maximum, [_x289/ceil(_x289), _x290/ceil(_x290), _x291/ceil(_x291)])
    _x293 = 2*reduce(maximum, [_x279, _x285]) + reduce(maximum, [_x286, _x292])
    _x294 = -_x264*_x293 + _x265*_x277
    _x295 = -_x264*(_x293 + 2*reduce(maximum, [_x279, _x271*_x285]) + reduce(maximum, [_x286, _x271*_x292])) + _x265*(_x277 + reduce(maximum, [_x275, -_x271*_x276])) + 2*_x274 + _x294 + reduce(maximum, [_x272, -_x271*_x273])
    _x296 = _x186 + _x198*_x199 - 3*_x250 + f_8*(2*_x255 + 2*_x259 + _x270*(3*_x201 + _x225 + _x263 + _x268 + _x269) + _x295 + reduce(maximum, [_x251, _x254*_x271]) + reduce(maximum, [_x256, _x258*_x271]))
    _x297 = _x123*_x187
    _x298 = E*_x50
    _x299 = _x174*(reduce(maximum, [0, reduce(minimum, [1, _x298 - 1])]) + 1)
    _x300 = _x124*_x299
    _x301 = _x190*_x89
    _x302 = 20*_x125 + _x160*_x189 + _x189*_x57 + _x300
    _x303 = _x187*(_x301 + _x302)
    _x304 = _x123*_x125
    _x305 = _x123*_x89
    _x306 = reduce(maximum, [1, E])
    _x307 = _x123*_x88
    _x308 = reduce(maximum, [1, _x307])
    _x309 = _x211*ceil(_x208*_x306)*ceil(_x212*_x308)
    _x310 = _x212*_x306
    _x311 = _x211*ceil(_x208*_x308)
    _x312 = _x311*ceil(_x310)
    _x313 = _x311*ceil(2*_x310)
    _x314 = _x307*_x51
    _x315 = reduce(maximum, [_x205*(_x304 + _x305 + _x51), 2*_x223*_x314/reduce(maximum, [_x309/ceil(_x309), _x312/ceil(_x312), _x313/ceil(_x313)])])
    _x316 = _x315*f_8
    _x317 = _x57*h
    _x318 = _x123*_x57
    _x319 = _x317 + _x318
    _x320 = _x0*_x223
    _x321 = F_s*_x206*_x320
    _x322 = _x2*_x57
    _x323 = _x2*_x317 + _x201
    _x324 = reduce(maximum, [1, _x322])
    _x325 = _x212*_x324
    _x326 = _x218*ceil(_x325)
    _x327 = _x214*ceil(_x208*_x324)
    _x328 = _x218*ceil(2*_x325)
    _x329 = _x2/reduce(maximum, [_x326/ceil(_x326), _x327/ceil(_x327), _x328/ceil(_x328)])
    _x330 = reduce(maximum, [_x222*_x321, _x205*(_x201 + _x319)]) + reduce(maximum, [_x321*_x329, _x205*(_x123*_x322 + _x323)])
    _x331 = _x306**(-1.0)
    _x332 = _x331*imb
    _x333 = _x130*_x332
    _x334 = M_e*_x333
    _x335 = _x305*_x334
    _x336 = _x53*h
    _x337 = M_e*_x307
    _x338 = _x159*imb
    _x339 = _x331*_x338
    _x340 = _x337*_x339
    _x341 = _x336 + _x340
    _x342 = _x205*_x298
    _x343 = _x332*_x337
    _x344 = _x130*_x343
    _x345 = reduce(maximum, [1, _x344])
    _x346 = _x211*reduce(maximum, [1, _x298])
    _x347 = _x346*ceil(_x212*_x345)
    _x348 = _x210*_x347
    _x349 = _x346*ceil(_x208*_x345)
    _x350 = _x217*_x349
    _x351 = _x220*_x349
    _x352 = _x123*_x91
    _x353 = _x338*_x352
    _x354 = _x353/reduce(maximum, [_x348/ceil(_x348), _x350/ceil(_x350), _x351/ceil(_x351)])
    _x355 = _x2*_x340
    _x356 = _x2*_x336 + _x335
    _x357 = reduce(maximum, [1, _x128])
    _x358 = _x347*ceil(_x208*_x357)
    _x359 = _x212*_x357
    _x360 = _x349*ceil(_x359)
    _x361 = _x349*ceil(2*_x359)
    _x362 = _x2*_x353/reduce(maximum, [_x358/ceil(_x358), _x360/ceil(_x360), _x361/ceil(_x361)])
    _x363 = reduce(maximum, [_x223*_x354, _x342*(_x335 + _x341)]) + reduce(maximum, [_x223*_x362, _x342*(_x355 + _x356)])
    _x364 = E_s*_x330 + _x315 + _x363
    _x365 = _x200*(_x249 + _x364)
    _x366 = _x187*(_x206 + _x319)
    _x367 = _x0*_x206
    _x368 = F_s*_x367
    _x369 = _x253*_x368
    _x370 = _x187*(_x148*_x322 + _x323)
    _x371 = _x252*_x329*_x368
    _x372 = reduce(maximum, [_x366, _x369]) + reduce(maximum, [_x370, _x371])
    _x373 = E_s*_x372
    _x374 = _x187*_x298
    _x375 = _x374*(_x334*_x352 + _x341)
    _x376 = _x252*_x354
    _x377 = reduce(maximum, [_x375, _x376])
    _x378 = _x374*(2*_x355 + _x356)
    _x379 = _x252*_x362
    _x380 = reduce(maximum, [_x378, _x379])
    _x381 = _x314*_x333
    _x382 = _x150*s_x
    _x383 = F_e*(K*_x343 + _x260*_x52)
    _x384 = _x50*(_x128*n_wq + _x344)
    _x385 = _x201 + _x260*_x322 + _x260*_x57 + _x318
    _x386 = E_s*_x385 + _x298*_x383 + _x381*_x382 + _x384*_x51
    _x387 = _x268 + _x386
    _x388 = _x186 + _x187*_x199*(_x196 + _x301) + _x199*_x303 - _x297*_x300 + 3*_x316 - 3*_x365 + f_8*(E_s*(_x372 + reduce(maximum, [_x366, _x271*_x369]) + reduce(maximum, [_x370, _x271*_x371])) + _x270*(E_s*_x123*(_x322 + h) + _x2*_x304*_x339 + _x201 + _x269 + _x381 + _x387) + _x295 + _x373 + 2*_x377 + 2*_x380 + reduce(maximum, [_x375, _x271*_x376]) + reduce(maximum, [_x378, _x271*_x379]))
    _x389 = -_x185
    _x390 = _x201 + _x263
    _x391 = _x255 + _x259
    _x392 = _x274 + _x294
    _x393 = _x297*(_x197 + _x302)
    _x394 = _x377 + _x380
    _x395 = _x373 + _x394
    _x396 = -_x184*(_x104*_x187*_x195 + _x183)
    _x397 = _x124*_x297*(8*eager + 1)
    _x398 = _x252*f_8
    _x399 = _x200*_x223
    _x400 = _x148*_x94*(_x398 - _x399)*(_x12*_x16 + _x26)
    _x401 = _x15*_x86*is_mla + _x156*_x7*h - _x94*has_qlora*(_x12*r_q + _x26)
    _x402 = -2*_x150*_x202*(_x152 + 1) + 2*_x154*_x202 + 2*_x401
    _x403 = _x160*_x188
    _x404 = _x123*_x205
    _x405 = _x153*_x57
    _x406 = -_x161*has_qlora*is_mla
    _x407 = _x148*(_x154*h*(-_x405 - _x406) - _x261*(-2*_x405 - _x406) + _x401)
    _x408 = reduce(maximum, [1, _x61])
    _x409 = _x214*ceil(_x208*_x408)
    _x410 = _x212*_x408
    _x411 = _x218*ceil(_x410)
    _x412 = _x218*ceil(2*_x410)
    _x413 = 30*_x297*_x61 + 3*reduce(maximum, [_x205*(_x123*_x61 + _x201 + _x68), _x123*_x223*_x62/reduce(maximum, [_x409/ceil(_x409), _x411/ceil(_x411), _x412/ceil(_x412)])])
    _x414 = 2*alpha
    _x415 = _x0/W_tp
    _x416 = _x201*_x415
    _x417 = 4*_x416
    _x418 = _x416*a_8
    _x419 = _x414 + _x417 - _x418
    _x420 = _x170*_x419
    _x421 = t_e - 1
    _x422 = K*imb_mem/W_etp
    _x423 = _x170*_x418
    _x424 = _x170*_x414 + _x170*_x417 - _x423
    _x425 = _x144*_x421*_x422 + _x414*_x421 + _x424
    _x426 = _x352*_x422
    _x427 = c_u - 1
    _x428 = _x123/W_cr
    _x429 = _x428*_x99 + alpha
    _x430 = _x429*_x93
    _x431 = _x123*_x427*(_x0*a*d_v*is_mla - _x102 - _x114)/(W_cu*c_u)
    _x432 = _x176*_x185
    _x433 = _x104*_x136*_x141*_x176*_x183*b
    _x434 = _x100*_x428 + _x93*alpha
    _x435 = _x414*_x427 + _x430*n_ag + 8*_x431 + 3*_x93*q_p2p*reduce(maximum, [0, _x429 + _x432]) + q_agr*(_x93*reduce(maximum, [0, 4*_x428*_x98 + _x433 + alpha]) + reduce(maximum, [0, _x432 + _x434]) + reduce(maximum, [0, _x433 + _x434]))
    _x436 = _x427*alpha + _x430*reduce(minimum, [1, n_ag]) + 4*_x431
    _x437 = M_e - 1
    _x438 = _x437*alpha
    _x439 = 4*_x438
    _x440 = ceil(f_off)
    _x441 = W_eout**(-1.0)
    _x442 = W_ein**(-1.0)
    _x443 = _x437*(_x440*_x441 - _x442*(_x440 - 1))
    _x444 = 1000000.0 - 1000000.0*d_ag
    _x445 = _x123*_x124*_x443 + _x439 + _x444
    _x446 = 1000000.0*d_a2a
    _x447 = _x352*imb
    _x448 = _x437*_x447
    _x449 = K*_x50
    _x450 = _x441*_x448*_x449*f_off
    _x451 = f_off - 1
    _x452 = _x437*_x451
    _x453 = _x442*_x447*_x449
    _x454 = reduce(maximum, [_x450, -_x452*_x453])
    _x455 = _x438 + _x454
    _x456 = 4*o_ep - 4
    _x457 = -_x437*_x451
    _x458 = reduce(maximum, [_x450, _x453*_x457])
    _x459 = _x438 + _x458
    _x460 = _x123*(_x223*_x23*(_x126 + _x88*(E + _x338*n_m)) + _x303)
    _x461 = 2*_x460
    _x462 = -_x107
    _x463 = -_x6*d_h
    _x464 = _x10 + _x463
    _x465 = _x123*(-S*_x179*_x182*_x84*(_x180 + 2*_x463)/(_x178 + _x462*eta) + _x187*(_x106*_x194*_x462 + _x193*(5*_x191*d_r*is_mla + _x192*_x463 + _x464*_x84) + _x301) + 2*_x320*(_x24*_x463 + _x27 + _x463*_x8 + _x464*_x8 + is_mla*(-_x13*_x14*h + _x17)))
    _x466 = 2*_x465
    _x467 = reduce(minimum, [_x459, _x460]) + reduce(minimum, [_x459, _x461]) + reduce(minimum, [_x459, _x465]) + reduce(minimum, [_x459, _x466])
    _x468 = 1000000.0*d_dep
    _x469 = _x457 + 1
    _x470 = M_e/_x469 - 1
    _x471 = alpha*(_x457 + _x470)
    _x472 = (1 - _x50)**K - 1
    _x473 = _x448/W_nvl_x
    _x474 = (-_x469*_x50 + 1)**K - 1
    _x475 = _x447/W_rdma_x
    _x476 = reduce(maximum, [-_x472*_x473, -_x470*_x474*_x475])
    _x477 = _x471 + _x476
    _x478 = reduce(minimum, [_x460, _x477]) + reduce(minimum, [_x461, _x477]) + reduce(minimum, [_x465, _x477]) + reduce(minimum, [_x466, _x477])
    _x479 = -4*_x471 - 4*_x476 + _x478
    _x480 = _x452 - 1
    _x481 = -_x480
    _x482 = _x481**(-1.0)
    _x483 = -M_e*_x482 + _x452 + 1
    _x484 = -_x472*_x473
    _x485 = _x456*(-_x483*alpha + reduce(maximum, [_x484, -_x474*_x475*(M_e*_x482 - 1)])) - 1000000.0
    _x486 = 1000000.0*d_hep
    _x487 = reduce(minimum, [_x445, -_x468 - _x485 - o_ep*(-_x478*n_sm_dep/(N_sm - n_sm_dep) + _x479), -_x485 - _x486 - o_ep*(-_x478*n_sm_hep/(N_sm - n_sm_hep) + _x479), -_x446 - _x455*_x456 - o_ep*(-_x439 - 4*_x458 - _x467*n_sm_a2a/(N_sm - n_sm_a2a) + _x467) + 1000000.0])
    _x488 = _x414*_x437
    _x489 = 1000000.0 - _x446
    _x490 = 2*_x454 + _x488
    _x491 = _x468 - 1000000.0
    _x492 = reduce(maximum, [_x484, _x475*(M_e/_x480 + 1)*((-_x481*_x50 + 1)**K - 1)])
    _x493 = _x414*_x483 - 2*_x492
    _x494 = _x486 - 1000000.0
    _x495 = 4*_x483*alpha - 4*_x492
    _x496 = _x421*_x426 + _x421*alpha
    _x497 = W_pp**(-1.0)
    _x498 = _x0*(_x137*_x8 + _x234 - _x9) - _x22*_x28
    _x499 = _x4 + _x498
    _x500 = _x163 + b_r*z_2
    _x501 = _x35 + _x499
    _x502 = W_dpcp**(-1.0)
    _x503 = Z_d - 1
    _x504 = _x502*_x503
    _x505 = _x39*_x504
    _x506 = W_edp**(-1.0)
    _x507 = Z_e - 1
    _x508 = 2*g_8
    _x509 = _x498 + _x58
    _x510 = _x35 + _x498 + _x59
    _x511 = _x47*_x506*_x507
    _x512 = _x511*_x64
    _x513 = z_1*(z_2 - 1)
    _x514 = _x31*z_2
    _x515 = _x513 + _x514
    _x516 = _x515*g_8
    _x517 = _x513*(b_r + 2) + 2*_x514 + 2*b_r*(z_1 - 1)
    _x518 = _x66*(_x497*_x62*b_r + alpha)
    _x519 = _x505*_x517
    _x520 = _x187*(b_g + 2*b_o + 8*mu + 2)
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
        _x79*b_o,
        _x81*b_o,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x82*b_o,
        _x83*b_o,
        0,
        0,
        _x122*_x123,
        _x123*_x134,
        _x123*(-_x133 - _x139),
        _x123*(-_x111 - _x140),
        _x143,
        _x145,
        -_x123*(_x146 + 2*_x147),
        _x149,
        _x123*(-_x132 - _x139 + 2*_x150*(F*_x151 - _x153*(_x117 + _x89)) - _x155*(-_x117*_x153 + _x88*h*has_qlora*is_mla) - _x158),
        _x143,
        _x145,
        _x123*(-_x131 - _x135 - _x146 + _x88*h*(drop + 4)),
        -_x148*_x160,
        -_x123*_x127,
        _x149,
        _x123*(-_x110 - _x140 + 2*_x150*(_x152*(_x57 + _x89) - _x153*_x161) - _x155*(_x151*_x56 - _x153*_x88*(E + h)) - _x158),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x123*(_x162 + k_mtp*(-_x122*_x70 + _x134*is_moe_model + _x162)),
        0,
        _x164*_x38,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x164*_x168 + _x169*(_x166 + _x168) + b_g*z_2*(_x166 + (_x165 + is_moe_model*(-_x30 + 2*_x33*h))*(v - 1)),
        _x164*(_x167 + _x5),
        _x148*(_x147 + _x171 - _x172*_x173),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x148*(F*_x0*_x70*n_m - _x171 + _x172*_x173 - _x175*is_moe_model - _x63*(_x160 + _x57)),
        _x148*(_x126 - _x147 + _x160*n_m + _x175),
        0,
        _x296,
        _x388,
        _x123*_x198 - _x250 + _x389 + f_8*(_x270*(_x268 + _x390) + _x391 + _x392),
        _x316 - _x365 + _x389 + _x393 + f_8*(_x270*_x387 + _x392 + _x395),
        _x396,
        _x397,
        _x188*_x203*_x205 - _x200*_x233 + f_8*(_x270*_x390 + _x391),
        _x400,
        _x123*(_x198 - _x398*_x402 + _x399*_x402),
        _x396,
        _x397,
        -_x200*_x364 + _x316 + _x404*(10*_x125 + _x135*_x299 + _x188*_x57 + _x403) + f_8*(_x270*_x386 + _x395),
        _x403*_x404,
        E_s*(F_s*_x0*_x188*_x404 - _x200*_x330 + f_8*(_x270*_x385 + _x372)),
        _x400,
        -_x200*_x363 + _x393 - _x398*_x407 + _x399*_x407 + f_8*(E*_x270*(_x305*_x333*_x382 + _x383*_x50 + _x384*h) + _x394),
        0,
        _x413 + k_mtp*(-_x296*_x70 + _x388*is_moe_model + _x413),
        0,
        0,
        4*_x420,
        2*_x425,
        2*_x420,
        _x425,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2*k_mtp*(-_x420*_x70 + 2*_x421*is_moe_model*(_x426 + alpha) + _x424),
        0,
        0,
        _x435,
        _x435,
        _x436,
        _x436,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x435*k_mtp,
        0,
        0,
        0,
        _x487,
        0,
        -_x487 + reduce(minimum, [_x445, _x439 + 4*_x454 + _x489, -_x491 - _x495, -_x494 - _x495]) + reduce(minimum, [_x489 + _x490, _x144*_x443 + _x444 + _x488, -_x491 - _x493, -_x493 - _x494]),
        0,
        0,
        _x419*((1/2)*t - 1/2),
        0,
        _x420,
        0,
        0,
        2*_x455 + 2*_x496,
        0,
        0,
        0,
        _x170*_x206*_x415 + _x170*alpha - 1/2*_x423 + _x490 + _x496,
        0,
        _x487*is_moe_model*k_mtp,
        0,
        -2*_x65*v*(_x367*_x497 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x505*(-_x169*_x499*g_8 + _x500*_x501),
        E*F_e*_x47*_x50*_x500*_x506*_x507*_x52*h*n_m + _x39*_x500*_x502*_x503*_x510 - _x43*_x504*_x508*_x509 - _x48*_x506*_x507*_x508*_x55,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x500*_x505*_x68,
        _x500*(_x505*_x72 + _x512),
        0,
        0,
        _x505*(_x499*_x516 - _x501*_x517),
        _x505*(_x509*_x516 - _x510*_x517),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x518 - _x519*_x68,
        -_x518 - _x519*(_x34 - _x67*_x68 + k_mtp*(_x498 + _x71)),
        0,
        0,
        0,
        _x511*_x55*(_x515*g_8 - _x517),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x512*_x517,
        0,
        0,
        _x520*_x79,
        _x520*_x81,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x520*_x82,
        _x520*_x83,
        0]

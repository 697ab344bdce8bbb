# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'o_ep', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, o_ep, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, u_1, v, z_1, z_2, z_3):
    _x0 = Z_d**(-1.0)
    _x1 = 2*z_1
    _x2 = _x1 + z_3 - 3
    _x3 = mu - 1
    _x4 = 1 - z_3
    _x5 = _x3*(_x0*z_3 + _x4) + mu*(-_x0*_x1 + _x2)
    _x6 = t**(-1.0)
    _x7 = h*n_m
    _x8 = n_m - 1
    _x9 = F*_x8
    _x10 = _x6*(F*_x7 + lin_bias*(_x9 + h))
    _x11 = ln_bias + 1
    _x12 = _x11*h
    _x13 = 2*_x12
    _x14 = is_mla - 1
    _x15 = _x14*d_h
    _x16 = a*h
    _x17 = _x15*_x16
    _x18 = d_v*is_mla
    _x19 = _x15 - _x18
    _x20 = d_n + d_r
    _x21 = _x20*a
    _x22 = has_qlora - 1
    _x23 = _x22*h
    _x24 = has_qlora*r_q
    _x25 = _x24*(_x21 + h + 1)
    _x26 = _x21*_x23 - _x25
    _x27 = _x6*(_x16*_x19 + _x17 + _x26*is_mla)
    _x28 = _x6*is_mla
    _x29 = t_g**(-1.0)
    _x30 = -_x14*_x29 + _x28
    _x31 = 2*h
    _x32 = _x31*g
    _x33 = d_r + r_kv
    _x34 = r_kv*(d_n + d_v)
    _x35 = is_mla*(_x33*h + _x34*a + r_kv)
    _x36 = _x15*_x32 - _x35
    _x37 = _x30*_x36
    _x38 = -_x27 - _x37
    _x39 = _x13 + _x38
    _x40 = _x10 + _x39
    _x41 = Z_e**(-1.0)
    _x42 = M_e**(-1.0)
    _x43 = E*h
    _x44 = F_e/t_e
    _x45 = _x44*n_m
    _x46 = _x42*_x43*_x45
    _x47 = _x46*(_x3*(_x4 + _x41*z_3) + mu*(-_x1*_x41 + _x2))
    _x48 = E_s*F_s
    _x49 = _x48*_x6
    _x50 = E*router_bias + _x43 + _x49*_x7
    _x51 = _x39 + _x50
    _x52 = V*_x6
    _x53 = _x31*_x52
    _x54 = is_moe_model*k_mtp
    _x55 = u_1 - 1
    _x56 = _x55*tied
    _x57 = _x56 + tied - 1
    _x58 = _x52*h
    _x59 = -_x57*_x58
    _x60 = is_moe_model - 1
    _x61 = -_x10*_x60 + 5*_x12 + _x50*is_moe_model + 2*h**2
    _x62 = _x12 + _x59 + k_mtp*(_x38 + _x61)
    _x63 = 1 - z_2
    _x64 = -_x0*z_2 - _x63
    _x65 = _x64*b_g
    _x66 = _x46*(-_x41*z_2 - _x63)
    _x67 = 4*mu - 12
    _x68 = 1 - z_1
    _x69 = _x0*z_1 + _x68
    _x70 = _x40*_x69
    _x71 = _x46*(_x41*z_1 + _x68)
    _x72 = -_x19
    _x73 = -_x26*is_mla
    _x74 = -_x30*_x36 + _x6*(_x16*_x72 - _x17 + _x73)
    _x75 = _x58*_x69
    _x76 = _x54*_x71
    _x77 = _x12 - _x57*_x58 + k_mtp*(_x61 + _x74)
    _x78 = F*_x6
    _x79 = _x78*n_m
    _x80 = 2*_x79
    _x81 = _x6*a
    _x82 = _x33 + _x81*d_v
    _x83 = t_s**(-1.0)
    _x84 = _x31*_x83
    _x85 = _x29*g
    _x86 = _x15*_x85
    _x87 = c**(-1.0)
    _x88 = S*_x87
    _x89 = _x81*_x88
    _x90 = flash - 1
    _x91 = _x90*(3*drop + 2)
    _x92 = _x84*drop - 4*_x86 - _x89*_x91 + 2*is_mla*(_x21*_x6 + _x24 + _x82)
    _x93 = 4*_x81*flash + _x92
    _x94 = _x80 + _x93
    _x95 = _x83*h
    _x96 = 8*_x95
    _x97 = _x19*_x81
    _x98 = _x20*is_mla
    _x99 = _x15 - _x98
    _x100 = _x81*_x99
    _x101 = -2*_x100 + _x96 - 2*_x97
    _x102 = _x101 + _x94
    _x103 = _x88*b
    _x104 = E*_x83
    _x105 = _x49*n_m
    _x106 = 2*_x105
    _x107 = _x83*imb_mem
    _x108 = K*t_e
    _x109 = 4*_x104 + _x106 + 2*_x107*_x108*(_x31 + _x45)
    _x110 = _x109 + _x93
    _x111 = _x101 + _x110
    _x112 = 2*_x81
    _x113 = -_x112*_x99 + 6*_x95
    _x114 = _x112*_x72 + _x113
    _x115 = S**2*_x81*b
    _x116 = _x115*_x91/c**2
    _x117 = 4*_x95
    _x118 = _x103*_x117
    _x119 = -_x118
    _x120 = _x95*drop
    _x121 = _x28*a
    _x122 = _x121*(_x20 + d_v)
    _x123 = 2*_x103
    _x124 = -_x122*_x123
    _x125 = n_m - 2
    _x126 = _x28*has_qlora
    _x127 = has_qlora*is_mla
    _x128 = _x127 - 1
    _x129 = n_m - 3
    _x130 = 2*_x129
    _x131 = _x81 + _x85
    _x132 = 2*_x15
    _x133 = _x113 + 2*_x121*_x22*(2*d_n + d_r + d_v) + _x131*_x132 + _x92 - 2*has_qlora*is_mla*(_x33 + _x95 + r_q)
    _x134 = F_e*K
    _x135 = _x107*_x134
    _x136 = _x104 + _x49
    _x137 = _x52*b_l
    _x138 = 4*z_3
    _x139 = z_2*(_x138 + b_g)
    _x140 = -_x40*_x60
    _x141 = _x58*u_1 + _x59
    _x142 = _x46 + _x50
    _x143 = _x140 + is_moe_model*(_x142 + _x39)
    _x144 = t - 1
    _x145 = c_r - 1
    _x146 = 2*_x122 - 2*_x132*_x85
    _x147 = _x146*reduce(minimum, [1, _x145]) + h*reduce(minimum, [1, _x144])
    _x148 = _x108*imb_mem
    _x149 = _x148*_x84
    _x150 = W_hbm**(-1.0)
    _x151 = 2*_x125*eager + n_m
    _x152 = 2*_x151
    _x153 = drop + 32*eager + 10
    _x154 = _x81 + 1
    _x155 = _x6*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x156 = 4*eager
    _x157 = 5*drop + 4
    _x158 = _x157*_x90
    _x159 = _x156*(-_x15*_x155 + 5*_x154*d_r*is_mla - _x97) - _x158*_x89
    _x160 = _x153*_x84 + _x159
    _x161 = _x150*(_x152*_x78 + _x160)
    _x162 = _x78*h
    _x163 = _x103*h
    _x164 = _x103*_x78
    _x165 = 2*_x150
    _x166 = T_m**(-1.0)
    _x167 = reduce(maximum, [1, h])
    _x168 = ceil(_x166*_x167)
    _x169 = N_sm**(-1.0)
    _x170 = T_n**(-1.0)
    _x171 = reduce(maximum, [1, _x103])
    _x172 = _x169*ceil(_x170*_x171)
    _x173 = _x168*_x172
    _x174 = _x167*_x170
    _x175 = ceil(_x174)
    _x176 = _x169*ceil(_x166*_x171)
    _x177 = _x175*_x176
    _x178 = ceil(2*_x174)
    _x179 = _x176*_x178
    _x180 = Pk**(-1.0)
    _x181 = _x180/eta
    _x182 = _x181*_x31
    _x183 = _x182/reduce(maximum, [_x173/ceil(_x173), _x177/ceil(_x177), _x179/ceil(_x179)])
    _x184 = _x6*_x9
    _x185 = _x103*_x184
    _x186 = reduce(maximum, [1, _x184])
    _x187 = _x172*ceil(_x166*_x186)
    _x188 = _x170*_x186
    _x189 = _x176*ceil(_x188)
    _x190 = _x176*ceil(2*_x188)
    _x191 = reduce(maximum, [_x164*_x183, _x165*(_x162 + _x163 + _x164)]) + reduce(maximum, [_x165*(_x163 + _x184*h + _x185), _x182*_x185/reduce(maximum, [_x187/ceil(_x187), _x189/ceil(_x189), _x190/ceil(_x190)])])
    _x192 = flash - 2
    _x193 = _x18 + _x98
    _x194 = c_r**(-1.0)
    _x195 = S*_x194
    _x196 = _x195*eta_a*flash/(L_a0 + _x195)
    _x197 = _x180*_x192*(-_x132 + _x193)/(_x196 - _x90*eta)
    _x198 = _x115*_x87
    _x199 = _x197*_x198
    _x200 = -S*_x87*b*h
    _x201 = _x6*(_x17 + _x36 - _x73)
    _x202 = _x201/h
    _x203 = reduce(maximum, [1, -_x202])
    _x204 = _x170*_x203
    _x205 = _x176*ceil(_x204)
    _x206 = _x172*ceil(_x166*_x203)
    _x207 = _x176*ceil(2*_x204)
    _x208 = 2*_x181
    _x209 = _x103*_x208
    _x210 = reduce(maximum, [_x165*(-_x103*_x202 - _x200 - _x201), -_x201*_x209/reduce(maximum, [_x205/ceil(_x205), _x206/ceil(_x206), _x207/ceil(_x207)])])
    _x211 = _x103*_x97
    _x212 = reduce(maximum, [-_x183*_x211, _x165*(-_x200 - _x211 - _x97*h)])
    _x213 = -_x199 + _x210 + _x212
    _x214 = _x103*_x161 + _x191 + _x213
    _x215 = _x103*_x150
    _x216 = E*_x42
    _x217 = _x148*(reduce(maximum, [0, reduce(minimum, [1, _x216 - 1])]) + 1)
    _x218 = _x217*_x96
    _x219 = _x153*_x95
    _x220 = 20*_x104 + _x135*_x152 + _x152*_x49 + _x218
    _x221 = _x150*(_x219 + _x220)
    _x222 = _x103*_x95
    _x223 = reduce(maximum, [1, E])
    _x224 = _x103*_x83
    _x225 = reduce(maximum, [1, _x224])
    _x226 = _x169*ceil(_x166*_x223)*ceil(_x170*_x225)
    _x227 = _x170*_x223
    _x228 = _x169*ceil(_x166*_x225)
    _x229 = _x228*ceil(_x227)
    _x230 = _x228*ceil(2*_x227)
    _x231 = reduce(maximum, [_x165*(_x103*_x104 + _x222 + _x43), _x208*_x224*_x43/reduce(maximum, [_x226/ceil(_x226), _x229/ceil(_x229), _x230/ceil(_x230)])])
    _x232 = _x44*h
    _x233 = _x134*imb
    _x234 = M_e/_x223
    _x235 = _x224*_x234
    _x236 = _x233*_x235
    _x237 = _x108*imb
    _x238 = _x222*_x234*_x237
    _x239 = _x165*_x216
    _x240 = reduce(maximum, [1, _x235*_x237])
    _x241 = _x169*reduce(maximum, [1, _x216])
    _x242 = _x241*ceil(_x170*_x240)
    _x243 = _x168*_x242
    _x244 = _x241*ceil(_x166*_x240)
    _x245 = _x175*_x244
    _x246 = _x178*_x244
    _x247 = _x103*_x84
    _x248 = _x181*_x233*_x247
    _x249 = reduce(maximum, [_x239*(_x232 + _x236 + _x238), _x248/reduce(maximum, [_x243/ceil(_x243), _x245/ceil(_x245), _x246/ceil(_x246)])])
    _x250 = reduce(maximum, [1, _x44*_x8])
    _x251 = _x242*ceil(_x166*_x250)
    _x252 = _x170*_x250
    _x253 = _x244*ceil(_x252)
    _x254 = _x244*ceil(2*_x252)
    _x255 = reduce(maximum, [_x239*(_x232*_x8 + _x236*_x8 + _x238), _x248*_x8/reduce(maximum, [_x251/ceil(_x251), _x253/ceil(_x253), _x254/ceil(_x254)])])
    _x256 = _x49*h
    _x257 = _x103*_x6
    _x258 = F_s*_x257
    _x259 = _x49*_x8
    _x260 = reduce(maximum, [1, _x259])
    _x261 = _x170*_x260
    _x262 = _x176*ceil(_x261)
    _x263 = _x172*ceil(_x166*_x260)
    _x264 = _x176*ceil(2*_x261)
    _x265 = reduce(maximum, [_x165*(_x103*_x259 + _x163 + _x256*_x8), _x182*_x258*_x8/reduce(maximum, [_x262/ceil(_x262), _x263/ceil(_x263), _x264/ceil(_x264)])]) + reduce(maximum, [_x183*_x258, _x165*(_x103*_x49 + _x163 + _x256)])
    _x266 = E_s*_x265
    _x267 = 3*_x103*_x221 - 3*_x199 + 3*_x210 + 3*_x212 - _x215*_x218 + 3*_x215*(_x159 + _x219) + 3*_x231 + 3*_x249 + 3*_x255 + 3*_x266
    _x268 = _x249 + _x255
    _x269 = _x215*(_x160 + _x220) + _x268
    _x270 = _x231 + _x266
    _x271 = -_x198*(_x150*_x158*_x87 + _x197)
    _x272 = _x215*_x96*(8*eager + 1)
    _x273 = _x121*_x209*(_x20*_x24 + _x34)
    _x274 = -_x126*a*(_x20*r_q + _x34) + _x131*_x15*h + _x23*_x82*is_mla
    _x275 = _x135*_x151
    _x276 = _x103*_x165
    _x277 = _x128*_x49
    _x278 = -_x136*has_qlora*is_mla
    _x279 = reduce(maximum, [1, _x52])
    _x280 = _x172*ceil(_x166*_x279)
    _x281 = _x170*_x279
    _x282 = _x176*ceil(_x281)
    _x283 = _x176*ceil(2*_x281)
    _x284 = 30*_x215*_x52 + 3*reduce(maximum, [_x165*(_x103*_x52 + _x163 + _x58), _x103*_x181*_x53/reduce(maximum, [_x280/ceil(_x280), _x282/ceil(_x282), _x283/ceil(_x283)])])
    _x285 = _x257*_x31
    _x286 = _x285/W_tp
    _x287 = _x144*(_x286 + alpha)
    _x288 = _x144*_x286 + _x144*alpha
    _x289 = t_e - 1
    _x290 = K*_x247
    _x291 = _x290*imb_mem/W_etp
    _x292 = _x289*_x291 + _x289*alpha
    _x293 = _x288 + _x292
    _x294 = c_u - 1
    _x295 = 2*alpha
    _x296 = _x103*(-_x100 + _x6*a*d_v*is_mla - _x86)/(W_cu*c_u)
    _x297 = 3*_x145*reduce(maximum, [0, _x194*_x199 + alpha + _x103*_x146/W_cr]) + _x294*_x295 + 8*_x294*_x296
    _x298 = _x294*(4*_x296 + alpha)
    _x299 = M_e - 1
    _x300 = _x299*alpha
    _x301 = 4*_x300
    _x302 = ceil(f_off)
    _x303 = W_eout**(-1.0)
    _x304 = W_ein**(-1.0)
    _x305 = _x299*(_x302*_x303 - _x304*(_x302 - 1))
    _x306 = 1000000.0 - 1000000.0*d_ag
    _x307 = _x103*_x305*_x96 + _x301 + _x306
    _x308 = 1000000.0*d_a2a
    _x309 = _x290*_x42*imb
    _x310 = _x299*_x303*_x309*f_off
    _x311 = f_off - 1
    _x312 = _x299*_x311
    _x313 = _x304*_x309
    _x314 = reduce(maximum, [_x310, -_x312*_x313])
    _x315 = _x300 + _x314
    _x316 = 4*o_ep - 4
    _x317 = -_x299*_x311
    _x318 = reduce(maximum, [_x310, _x313*_x317])
    _x319 = _x300 + _x318
    _x320 = _x103*(_x182*(_x105 + _x83*(E + _x233*n_m)) + _x221)
    _x321 = 2*_x320
    _x322 = -_x90
    _x323 = -_x14*d_h
    _x324 = _x18 + _x323
    _x325 = _x103*(-S*_x180*_x192*_x81*(_x193 + 2*_x323)/(_x196 + _x322*eta) + _x150*(_x156*(5*_x154*d_r*is_mla + _x155*_x323 + _x324*_x81) + _x157*_x322*_x89 + _x219) + _x208*_x6*(_x16*_x323 + _x16*_x324 + _x32*_x323 + _x35 + is_mla*(-_x21*_x22*h + _x25)))
    _x326 = 2*_x325
    _x327 = reduce(minimum, [_x319, _x320]) + reduce(minimum, [_x319, _x321]) + reduce(minimum, [_x319, _x325]) + reduce(minimum, [_x319, _x326])
    _x328 = 1000000.0*d_dep
    _x329 = _x317 + 1
    _x330 = M_e/_x329 - 1
    _x331 = alpha*(_x317 + _x330)
    _x332 = (1 - _x42)**K - 1
    _x333 = _x247*imb
    _x334 = _x299*_x333/W_nvl_x
    _x335 = (-_x329*_x42 + 1)**K - 1
    _x336 = _x333/W_rdma_x
    _x337 = reduce(maximum, [-_x332*_x334, -_x330*_x335*_x336])
    _x338 = _x331 + _x337
    _x339 = reduce(minimum, [_x320, _x338]) + reduce(minimum, [_x321, _x338]) + reduce(minimum, [_x325, _x338]) + reduce(minimum, [_x326, _x338])
    _x340 = -4*_x331 - 4*_x337 + _x339
    _x341 = _x312 - 1
    _x342 = -_x341
    _x343 = _x342**(-1.0)
    _x344 = -M_e*_x343 + _x312 + 1
    _x345 = -_x332*_x334
    _x346 = _x316*(-_x344*alpha + reduce(maximum, [_x345, -_x335*_x336*(M_e*_x343 - 1)])) - 1000000.0
    _x347 = 1000000.0*d_hep
    _x348 = reduce(minimum, [_x307, -_x328 - _x346 - o_ep*(-_x339*n_sm_dep/(N_sm - n_sm_dep) + _x340), -_x346 - _x347 - o_ep*(-_x339*n_sm_hep/(N_sm - n_sm_hep) + _x340), -_x308 - _x315*_x316 - o_ep*(-_x301 - 4*_x318 - _x327*n_sm_a2a/(N_sm - n_sm_a2a) + _x327) + 1000000.0])
    _x349 = 2*_x300
    _x350 = 1000000.0 - _x308
    _x351 = 2*_x314 + _x349
    _x352 = _x328 - 1000000.0
    _x353 = reduce(maximum, [_x345, _x336*(M_e/_x341 + 1)*((-_x342*_x42 + 1)**K - 1)])
    _x354 = _x295*_x344 - 2*_x353
    _x355 = _x347 - 1000000.0
    _x356 = 4*_x344*alpha - 4*_x353
    _x357 = W_pp**(-1.0)
    _x358 = _x138 + b_r*z_2
    _x359 = _x0*(Z_d - 1)/W_dpcp
    _x360 = _x359*_x40
    _x361 = _x41*_x46*(Z_e - 1)/W_edp
    _x362 = _x359*_x51
    _x363 = 2*b_r*(z_1 - 1) + z_1*(b_r + 2)*(z_2 - 1) + 2*z_2*(z_3 - 1)
    _x364 = _x56*(_x357*_x53*b_r + alpha)
    _x365 = _x359*_x363
    _x366 = _x361*_x363
    _x367 = _x150*(b_g + 26)
    return [
        0,
        -2*_x40*_x5,
        -2*_x47 - 2*_x5*_x51,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x5*_x53,
        -2*_x47*_x54 - 2*_x5*_x62,
        0,
        0,
        -_x40*_x65,
        -b_g*(_x51*_x64 + _x66),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x58*_x65,
        -b_g*(_x54*_x66 + _x62*_x64),
        0,
        0,
        -_x67*_x70,
        -_x67*(_x69*(_x13 + _x50 + _x74) + _x71),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x67*_x75,
        -_x67*(_x69*_x77 + _x76),
        0,
        0,
        _x102*_x103,
        _x103*_x111,
        _x103*(-_x114 - _x94),
        _x103*(-_x110 - _x114),
        _x116,
        _x119,
        -_x103*(_x120 + _x80),
        _x124,
        _x103*(2*_x125*(F*_x126 - _x128*(_x78 + _x95)) - _x130*(-_x128*_x78 + _x83*h*has_qlora*is_mla) - _x133 - _x80),
        _x116,
        _x119,
        _x103*(-_x109 - _x117 - _x120 + _x83*h*(drop + 4)),
        -_x123*_x135,
        -_x103*_x106,
        _x124,
        _x103*(-_x109 + 2*_x125*(_x127*(_x49 + _x95) - _x128*_x136) - _x130*(_x126*_x48 - _x128*_x83*(E + h)) - _x133),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x103*(_x137 + k_mtp*(-_x102*_x60 + _x111*is_moe_model + _x137)),
        0,
        _x139*_x40,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x139*_x143 + b_g*z_2*(_x141 + (_x140 + is_moe_model*(2*_x11*h - _x27 - _x37))*(v - 1)) + 2*z_3*(_x141 + _x143),
        _x139*(-_x10 + _x142),
        _x123*(_x147 + _x79),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x123*(F*_x6*_x60*n_m - _x147 - _x149*is_moe_model - is_moe_model*n_m*(_x135 + _x49)),
        _x123*(_x105 + _x135*n_m + _x149 - _x79),
        0,
        3*_x214,
        _x267,
        _x214,
        _x213 + _x269 + _x270,
        _x271,
        _x272,
        _x151*_x164*_x165 + _x191,
        _x273,
        _x103*(_x161 - _x208*(-_x125*_x162*(_x127 + 1) + _x129*_x162 + _x274)),
        _x271,
        _x272,
        _x268 + _x270 + _x276*(10*_x104 + _x117*_x217 + _x151*_x49 + _x275),
        _x275*_x276,
        E_s*(F_s*_x151*_x276*_x6 + _x265),
        _x273,
        -_x209*(-_x125*h*(-2*_x277 - _x278) + _x129*h*(-_x277 - _x278) + _x274) + _x269,
        0,
        _x284 + k_mtp*(-3*_x214*_x60 + _x267*is_moe_model + _x284),
        0,
        0,
        8*_x287,
        4*_x293,
        4*_x287,
        2*_x293,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        4*k_mtp*(-_x287*_x60 + _x288 + _x289*is_moe_model*(_x291 + alpha)),
        0,
        0,
        _x297,
        _x297,
        _x298,
        _x298,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x297*k_mtp,
        0,
        0,
        0,
        _x348,
        0,
        -_x348 + reduce(minimum, [_x307, _x301 + 4*_x314 + _x350, -_x352 - _x356, -_x355 - _x356]) + reduce(minimum, [_x350 + _x351, _x118*_x305 + _x306 + _x349, -_x352 - _x354, -_x354 - _x355]),
        0,
        0,
        _x287,
        0,
        2*_x287,
        0,
        0,
        2*_x292 + 2*_x315,
        0,
        0,
        0,
        _x293 + _x351,
        0,
        _x348*_x54,
        0,
        -2*_x55*v*(_x285*_x357 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x358*_x360,
        _x358*(_x361 + _x362),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x358*_x359*_x58,
        _x358*(_x359*_x62 + _x361*_x54),
        0,
        0,
        -_x360*_x363,
        -_x362*_x363,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x364 - _x365*_x58,
        -_x364 - _x365*_x77,
        0,
        0,
        0,
        -_x366,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x366*_x54,
        0,
        0,
        _x367*_x70,
        _x367*(_x51*_x69 + _x71),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x367*_x75,
        _x367*(_x62*_x69 + _x76),
        0]

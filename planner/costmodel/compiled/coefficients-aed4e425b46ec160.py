# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'q_agr', 'q_p2p', 'q_sv', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_ag, n_m, q_agr, q_p2p, q_sv, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, u_1, v, z_1, z_2, z_3):
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
    _x25 = _x21*_x23 - _x24*(_x21 + h + 1)
    _x26 = _x6*(_x16*_x19 + _x17 + _x25*is_mla)
    _x27 = _x6*is_mla
    _x28 = t_g**(-1.0)
    _x29 = -_x14*_x28 + _x27
    _x30 = 2*h
    _x31 = d_r + r_kv
    _x32 = r_kv*(d_n + d_v)
    _x33 = _x15*_x30*g - is_mla*(_x31*h + _x32*a + r_kv)
    _x34 = _x29*_x33
    _x35 = -_x26 - _x34
    _x36 = _x13 + _x35
    _x37 = _x10 + _x36
    _x38 = Z_e**(-1.0)
    _x39 = M_e**(-1.0)
    _x40 = E*h
    _x41 = F_e/t_e
    _x42 = _x41*n_m
    _x43 = _x39*_x40*_x42
    _x44 = _x43*(_x3*(_x38*z_3 + _x4) + mu*(-_x1*_x38 + _x2))
    _x45 = E_s*F_s
    _x46 = _x45*_x6
    _x47 = E*router_bias + _x40 + _x46*_x7
    _x48 = _x36 + _x47
    _x49 = V*_x6
    _x50 = _x30*_x49
    _x51 = is_moe_model*k_mtp
    _x52 = u_1 - 1
    _x53 = _x52*tied
    _x54 = _x53 + tied - 1
    _x55 = _x49*h
    _x56 = -_x54*_x55
    _x57 = is_moe_model - 1
    _x58 = -_x10*_x57 + 5*_x12 + _x47*is_moe_model + 2*h**2
    _x59 = _x12 + _x56 + k_mtp*(_x35 + _x58)
    _x60 = 1 - z_2
    _x61 = -_x0*z_2 - _x60
    _x62 = _x61*b_g
    _x63 = _x43*(-_x38*z_2 - _x60)
    _x64 = 4*mu - 12
    _x65 = 1 - z_1
    _x66 = _x0*z_1 + _x65
    _x67 = _x37*_x66
    _x68 = _x43*(_x38*z_1 + _x65)
    _x69 = -_x19
    _x70 = -_x25*is_mla
    _x71 = -_x29*_x33 + _x6*(_x16*_x69 - _x17 + _x70)
    _x72 = _x55*_x66
    _x73 = _x51*_x68
    _x74 = _x12 - _x54*_x55 + k_mtp*(_x58 + _x71)
    _x75 = F*_x6
    _x76 = _x75*n_m
    _x77 = 2*_x76
    _x78 = _x6*a
    _x79 = _x31 + _x78*d_v
    _x80 = t_s**(-1.0)
    _x81 = _x30*_x80
    _x82 = c_r - 1
    _x83 = _x27*a
    _x84 = _x83*(_x20 + d_v)
    _x85 = _x28*g
    _x86 = 2*_x15
    _x87 = _x84 - _x85*_x86
    _x88 = 2*_x87
    _x89 = _x82*_x88
    _x90 = _x15*_x85
    _x91 = c**(-1.0)
    _x92 = S*_x91
    _x93 = _x78*_x92
    _x94 = flash - 1
    _x95 = _x94*(3*drop + 2)
    _x96 = _x81*drop + _x89*q_sv - 4*_x90 - _x93*_x95 + 2*is_mla*(_x21*_x6 + _x24 + _x79)
    _x97 = 4*_x78*flash + _x96
    _x98 = _x77 + _x97
    _x99 = _x80*h
    _x100 = 8*_x99
    _x101 = _x19*_x78
    _x102 = _x20*is_mla
    _x103 = -_x102 + _x15
    _x104 = _x103*_x78
    _x105 = _x100 - 2*_x101 - 2*_x104
    _x106 = _x105 + _x98
    _x107 = _x92*b
    _x108 = E*_x80
    _x109 = _x46*n_m
    _x110 = 2*_x109
    _x111 = K*imb_mem
    _x112 = _x111*_x80
    _x113 = 4*_x108 + _x110 + 2*_x112*t_e*(_x30 + _x42)
    _x114 = _x113 + _x97
    _x115 = _x105 + _x114
    _x116 = 2*_x78
    _x117 = -_x103*_x116 + 6*_x99
    _x118 = _x116*_x69 + _x117
    _x119 = S**2
    _x120 = _x119*_x78*b
    _x121 = _x120*_x95/c**2
    _x122 = 4*_x99
    _x123 = -_x107*_x122
    _x124 = _x99*drop
    _x125 = 2*_x107
    _x126 = -_x125*_x84
    _x127 = n_m - 2
    _x128 = _x27*has_qlora
    _x129 = has_qlora*is_mla
    _x130 = _x129 - 1
    _x131 = n_m - 3
    _x132 = 2*_x131
    _x133 = _x78 + _x85
    _x134 = _x117 + _x133*_x86 + 2*_x22*_x83*(2*d_n + d_r + d_v) + _x96 - 2*has_qlora*is_mla*(_x31 + _x99 + r_q)
    _x135 = F_e*_x112
    _x136 = _x108 + _x46
    _x137 = _x49*b_l
    _x138 = 4*z_3
    _x139 = z_2*(_x138 + b_g)
    _x140 = -_x37*_x57
    _x141 = _x55*u_1 + _x56
    _x142 = _x43 + _x47
    _x143 = _x140 + is_moe_model*(_x142 + _x36)
    _x144 = t - 1
    _x145 = h*reduce(minimum, [1, _x144])
    _x146 = c_r*(q_p2p - 1) - q_p2p
    _x147 = _x88*reduce(minimum, [1, _x82])
    _x148 = _x111*t_e
    _x149 = _x148*_x81
    _x150 = W_hbm**(-1.0)
    _x151 = 2*_x127*eager + n_m
    _x152 = 2*_x151
    _x153 = drop + 32*eager + 10
    _x154 = _x94*(5*drop + 4)
    _x155 = -_x154*_x93 + 4*eager*(-_x101 - _x15*_x6*(a + g)*(reduce(minimum, [1, a - g]) + 5) + 5*d_r*is_mla*(_x78 + 1))
    _x156 = _x153*_x81 + _x155
    _x157 = _x150*(_x152*_x75 + _x156)
    _x158 = _x75*h
    _x159 = _x107*h
    _x160 = _x107*_x75
    _x161 = 2*_x150
    _x162 = T_m**(-1.0)
    _x163 = reduce(maximum, [1, h])
    _x164 = ceil(_x162*_x163)
    _x165 = N_sm**(-1.0)
    _x166 = T_n**(-1.0)
    _x167 = reduce(maximum, [1, _x107])
    _x168 = _x165*ceil(_x166*_x167)
    _x169 = _x164*_x168
    _x170 = _x163*_x166
    _x171 = ceil(_x170)
    _x172 = _x165*ceil(_x162*_x167)
    _x173 = _x171*_x172
    _x174 = ceil(2*_x170)
    _x175 = _x172*_x174
    _x176 = Pk**(-1.0)
    _x177 = _x176/eta
    _x178 = _x177/reduce(maximum, [_x169/ceil(_x169), _x173/ceil(_x173), _x175/ceil(_x175)])
    _x179 = _x178*_x30
    _x180 = _x6*_x9
    _x181 = _x107*_x180
    _x182 = reduce(maximum, [1, _x180])
    _x183 = _x168*ceil(_x162*_x182)
    _x184 = _x166*_x182
    _x185 = _x172*ceil(_x184)
    _x186 = _x172*ceil(2*_x184)
    _x187 = reduce(maximum, [_x160*_x179, _x161*(_x158 + _x159 + _x160)]) + reduce(maximum, [_x161*(_x159 + _x180*h + _x181), _x177*_x181*_x30/reduce(maximum, [_x183/ceil(_x183), _x185/ceil(_x185), _x186/ceil(_x186)])])
    _x188 = c_r**(-1.0)
    _x189 = S*_x188
    _x190 = _x176*(flash - 2)*(_x188*_x82*c_b + 1)*(_x102 + _x18 - _x86)/(_x189*eta_a*flash/(L_a0 + _x189) - _x94*eta)
    _x191 = _x120*_x91
    _x192 = _x190*_x191
    _x193 = -S*_x91*b*h
    _x194 = _x6*(_x17 + _x33 - _x70)
    _x195 = _x194/h
    _x196 = reduce(maximum, [1, -_x195])
    _x197 = _x166*_x196
    _x198 = _x172*ceil(_x197)
    _x199 = _x168*ceil(_x162*_x196)
    _x200 = _x172*ceil(2*_x197)
    _x201 = 2*_x177
    _x202 = _x107*_x201
    _x203 = reduce(maximum, [_x161*(-_x107*_x195 - _x193 - _x194), -_x194*_x202/reduce(maximum, [_x198/ceil(_x198), _x199/ceil(_x199), _x200/ceil(_x200)])])
    _x204 = _x101*_x107
    _x205 = reduce(maximum, [-_x179*_x204, _x161*(-_x101*h - _x193 - _x204)])
    _x206 = -_x192 + _x203 + _x205
    _x207 = _x107*_x157 + _x187 + _x206
    _x208 = _x107*_x150
    _x209 = E*_x39
    _x210 = _x148*(reduce(maximum, [0, reduce(minimum, [1, _x209 - 1])]) + 1)
    _x211 = _x100*_x210
    _x212 = _x153*_x99
    _x213 = 20*_x108 + _x135*_x152 + _x152*_x46 + _x211
    _x214 = 3*_x208
    _x215 = _x107*_x99
    _x216 = reduce(maximum, [1, E])
    _x217 = _x107*_x80
    _x218 = reduce(maximum, [1, _x217])
    _x219 = _x165*ceil(_x162*_x216)*ceil(_x166*_x218)
    _x220 = _x166*_x216
    _x221 = _x165*ceil(_x162*_x218)
    _x222 = _x221*ceil(_x220)
    _x223 = _x221*ceil(2*_x220)
    _x224 = reduce(maximum, [_x161*(_x107*_x108 + _x215 + _x40), _x201*_x217*_x40/reduce(maximum, [_x219/ceil(_x219), _x222/ceil(_x222), _x223/ceil(_x223)])])
    _x225 = _x41*h
    _x226 = K*imb
    _x227 = F_e*_x226
    _x228 = M_e/_x216
    _x229 = _x217*_x228
    _x230 = _x227*_x229
    _x231 = _x226*t_e
    _x232 = _x215*_x228*_x231
    _x233 = _x161*_x209
    _x234 = reduce(maximum, [1, _x229*_x231])
    _x235 = _x165*reduce(maximum, [1, _x209])
    _x236 = _x235*ceil(_x166*_x234)
    _x237 = _x164*_x236
    _x238 = _x235*ceil(_x162*_x234)
    _x239 = _x171*_x238
    _x240 = _x174*_x238
    _x241 = _x107*_x81
    _x242 = _x227*_x241
    _x243 = reduce(maximum, [_x233*(_x225 + _x230 + _x232), _x177*_x242/reduce(maximum, [_x237/ceil(_x237), _x239/ceil(_x239), _x240/ceil(_x240)])])
    _x244 = reduce(maximum, [1, _x41*_x8])
    _x245 = _x236*ceil(_x162*_x244)
    _x246 = _x166*_x244
    _x247 = _x238*ceil(_x246)
    _x248 = _x238*ceil(2*_x246)
    _x249 = _x177*_x8
    _x250 = reduce(maximum, [_x233*(_x225*_x8 + _x230*_x8 + _x232), _x242*_x249/reduce(maximum, [_x245/ceil(_x245), _x247/ceil(_x247), _x248/ceil(_x248)])])
    _x251 = _x46*h
    _x252 = _x107*_x30*_x6
    _x253 = F_s*_x252
    _x254 = _x46*_x8
    _x255 = reduce(maximum, [1, _x254])
    _x256 = _x166*_x255
    _x257 = _x172*ceil(_x256)
    _x258 = _x168*ceil(_x162*_x255)
    _x259 = _x172*ceil(2*_x256)
    _x260 = reduce(maximum, [_x161*(_x107*_x254 + _x159 + _x251*_x8), _x249*_x253/reduce(maximum, [_x257/ceil(_x257), _x258/ceil(_x258), _x259/ceil(_x259)])]) + reduce(maximum, [_x178*_x253, _x161*(_x107*_x46 + _x159 + _x251)])
    _x261 = E_s*_x260
    _x262 = -3*_x192 + 3*_x203 + 3*_x205 - _x208*_x211 + _x214*(_x155 + _x212) + _x214*(_x212 + _x213) + 3*_x224 + 3*_x243 + 3*_x250 + 3*_x261
    _x263 = _x243 + _x250
    _x264 = _x208*(_x156 + _x213) + _x263
    _x265 = _x224 + _x261
    _x266 = -_x191*(_x150*_x154*_x91 + _x190)
    _x267 = _x100*_x208*(8*eager + 1)
    _x268 = _x202*_x83*(_x20*_x24 + _x32)
    _x269 = _x133*_x15*h + _x23*_x79*is_mla - _x83*has_qlora*(_x20*r_q + _x32)
    _x270 = _x135*_x151
    _x271 = _x107*_x161
    _x272 = _x130*_x46
    _x273 = -_x136*has_qlora*is_mla
    _x274 = reduce(maximum, [1, _x49])
    _x275 = _x168*ceil(_x162*_x274)
    _x276 = _x166*_x274
    _x277 = _x172*ceil(_x276)
    _x278 = _x172*ceil(2*_x276)
    _x279 = 30*_x208*_x49 + 3*reduce(maximum, [_x161*(_x107*_x49 + _x159 + _x55), _x107*_x177*_x50/reduce(maximum, [_x275/ceil(_x275), _x277/ceil(_x277), _x278/ceil(_x278)])])
    _x280 = _x252/W_tp
    _x281 = _x144*(_x280 + alpha)
    _x282 = _x144*_x280 + _x144*alpha
    _x283 = t_e - 1
    _x284 = _x111*_x241/W_etp
    _x285 = _x283*_x284 + _x283*alpha
    _x286 = _x282 + _x285
    _x287 = 4*k_mtp
    _x288 = c_u - 1
    _x289 = _x288*alpha
    _x290 = _x107/W_cr
    _x291 = _x290*_x88 + alpha
    _x292 = _x291*_x82
    _x293 = _x107*_x288*(-_x104 + _x6*a*d_v*is_mla - _x90)/(W_cu*c_u)
    _x294 = _x188*_x192
    _x295 = _x116*_x119*_x188*_x190*_x91*b
    _x296 = _x290*_x89 + _x82*alpha
    _x297 = 2*_x289 + _x292*n_ag + 8*_x293 + 3*_x82*q_p2p*reduce(maximum, [0, _x291 + _x294]) + q_agr*(_x82*reduce(maximum, [0, 4*_x290*_x87 + _x295 + alpha]) + reduce(maximum, [0, _x294 + _x296]) + reduce(maximum, [0, _x295 + _x296]))
    _x298 = _x289 + _x292*reduce(minimum, [1, n_ag]) + 4*_x293
    _x299 = M_e - 1
    _x300 = _x299*alpha
    _x301 = _x226*_x241*_x299*_x39
    _x302 = reduce(maximum, [_x301*f_off/W_eout, -_x301*(f_off - 1)/W_ein])
    _x303 = _x300 + _x302
    _x304 = W_pp**(-1.0)
    _x305 = _x138 + b_r*z_2
    _x306 = _x0*(Z_d - 1)/W_dpcp
    _x307 = _x306*_x37
    _x308 = _x38*_x43*(Z_e - 1)/W_edp
    _x309 = _x306*_x48
    _x310 = 2*b_r*(z_1 - 1) + z_1*(b_r + 2)*(z_2 - 1) + 2*z_2*(z_3 - 1)
    _x311 = _x53*(_x304*_x50*b_r + alpha)
    _x312 = _x306*_x310
    _x313 = _x308*_x310
    _x314 = _x150*(b_g + 26)
    return [
        0,
        -2*_x37*_x5,
        -2*_x44 - 2*_x48*_x5,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x5*_x50,
        -2*_x44*_x51 - 2*_x5*_x59,
        0,
        0,
        -_x37*_x62,
        -b_g*(_x48*_x61 + _x63),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x55*_x62,
        -b_g*(_x51*_x63 + _x59*_x61),
        0,
        0,
        -_x64*_x67,
        -_x64*(_x66*(_x13 + _x47 + _x71) + _x68),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x64*_x72,
        -_x64*(_x66*_x74 + _x73),
        0,
        0,
        _x106*_x107,
        _x107*_x115,
        _x107*(-_x118 - _x98),
        _x107*(-_x114 - _x118),
        _x121,
        _x123,
        -_x107*(_x124 + _x77),
        _x126,
        _x107*(2*_x127*(F*_x128 - _x130*(_x75 + _x99)) - _x132*(-_x130*_x75 + _x80*h*has_qlora*is_mla) - _x134 - _x77),
        _x121,
        _x123,
        _x107*(-_x113 - _x122 - _x124 + _x80*h*(drop + 4)),
        -_x125*_x135,
        -_x107*_x110,
        _x126,
        _x107*(-_x113 + 2*_x127*(_x129*(_x46 + _x99) - _x130*_x136) - _x132*(_x128*_x45 - _x130*_x80*(E + h)) - _x134),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x107*(_x137 + k_mtp*(-_x106*_x57 + _x115*is_moe_model + _x137)),
        0,
        _x139*_x37,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x139*_x143 + b_g*z_2*(_x141 + (_x140 + is_moe_model*(2*_x11*h - _x26 - _x34))*(v - 1)) + 2*z_3*(_x141 + _x143),
        _x139*(-_x10 + _x142),
        _x125*(_x145 - _x146*_x147 + _x76),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x125*(F*_x57*_x6*n_m - _x145 + _x146*_x147 - _x149*is_moe_model - is_moe_model*n_m*(_x135 + _x46)),
        _x125*(_x109 + _x135*n_m + _x149 - _x76),
        0,
        3*_x207,
        _x262,
        _x207,
        _x206 + _x264 + _x265,
        _x266,
        _x267,
        _x151*_x160*_x161 + _x187,
        _x268,
        _x107*(_x157 - _x201*(-_x127*_x158*(_x129 + 1) + _x131*_x158 + _x269)),
        _x266,
        _x267,
        _x263 + _x265 + _x271*(10*_x108 + _x122*_x210 + _x151*_x46 + _x270),
        _x270*_x271,
        E_s*(F_s*_x151*_x271*_x6 + _x260),
        _x268,
        -_x202*(-_x127*h*(-2*_x272 - _x273) + _x131*h*(-_x272 - _x273) + _x269) + _x264,
        0,
        _x279 + k_mtp*(-3*_x207*_x57 + _x262*is_moe_model + _x279),
        0,
        0,
        8*_x281,
        4*_x286,
        4*_x281,
        2*_x286,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x287*(-_x281*_x57 + _x282 + _x283*is_moe_model*(_x284 + alpha)),
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
        4*_x303,
        0,
        2*_x303,
        0,
        0,
        _x281,
        0,
        2*_x281,
        0,
        0,
        2*_x285 + 2*_x303,
        0,
        0,
        0,
        _x286 + 2*_x300 + 2*_x302,
        0,
        _x287*_x303*is_moe_model,
        0,
        -2*_x52*v*(_x252*_x304 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x305*_x307,
        _x305*(_x308 + _x309),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x305*_x306*_x55,
        _x305*(_x306*_x59 + _x308*_x51),
        0,
        0,
        -_x307*_x310,
        -_x309*_x310,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x311 - _x312*_x55,
        -_x311 - _x312*_x74,
        0,
        0,
        0,
        -_x313,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x313*_x51,
        0,
        0,
        _x314*_x67,
        _x314*(_x48*_x66 + _x68),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x314*_x72,
        _x314*(_x59*_x66 + _x73),
        0]

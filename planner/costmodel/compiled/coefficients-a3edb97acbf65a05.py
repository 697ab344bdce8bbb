# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['weights:const', 'weights:L_d', 'weights:L_m', 'weights:Lf_d', 'weights:Lf_m', 'weights:r_d_core_attn', 'weights:r_d_layernorm', 'weights:r_d_mlp', 'weights:r_d_mla_up_proj', 'weights:r_d_op', 'weights:r_m_core_attn', 'weights:r_m_layernorm', 'weights:r_m_moe', 'weights:r_m_moe_act', 'weights:r_m_shared_experts', 'weights:r_m_mla_up_proj', 'weights:r_m_op', 'weights:e_f', 'weights:e_l', 'weights:h_m', 'grads:const', 'grads:L_d', 'grads:L_m', 'grads:Lf_d', 'grads:Lf_m', 'grads:r_d_core_attn', 'grads:r_d_layernorm', 'grads:r_d_mlp', 'grads:r_d_mla_up_proj', 'grads:r_d_op', 'grads:r_m_core_attn', 'grads:r_m_layernorm', 'grads:r_m_moe', 'grads:r_m_moe_act', 'grads:r_m_shared_experts', 'grads:r_m_mla_up_proj', 'grads:r_m_op', 'grads:e_f', 'grads:e_l', 'grads:h_m', 'optimizer:const', 'optimizer:L_d', 'optimizer:L_m', 'optimizer:Lf_d', 'optimizer:Lf_m', 'optimizer:r_d_core_attn', 'optimizer:r_d_layernorm', 'optimizer:r_d_mlp', 'optimizer:r_d_mla_up_proj', 'optimizer:r_d_op', 'optimizer:r_m_core_attn', 'optimizer:r_m_layernorm', 'optimizer:r_m_moe', 'optimizer:r_m_moe_act', 'optimizer:r_m_shared_experts', 'optimizer:r_m_mla_up_proj', 'optimizer:r_m_op', 'optimizer:e_f', 'optimizer:e_l', 'optimizer:h_m', 'act_mb:const', 'act_mb:L_d', 'act_mb:L_m', 'act_mb:Lf_d', 'act_mb:Lf_m', 'act_mb:r_d_core_attn', 'act_mb:r_d_layernorm', 'act_mb:r_d_mlp', 'act_mb:r_d_mla_up_proj', 'act_mb:r_d_op', 'act_mb:r_m_core_attn', 'act_mb:r_m_layernorm', 'act_mb:r_m_moe', 'act_mb:r_m_moe_act', 'act_mb:r_m_shared_experts', 'act_mb:r_m_mla_up_proj', 'act_mb:r_m_op', 'act_mb:e_f', 'act_mb:e_l', 'act_mb:h_m', 'logits:const', 'logits:L_d', 'logits:L_m', 'logits:Lf_d', 'logits:Lf_m', 'logits:r_d_core_attn', 'logits:r_d_layernorm', 'logits:r_d_mlp', 'logits:r_d_mla_up_proj', 'logits:r_d_op', 'logits:r_m_core_attn', 'logits:r_m_layernorm', 'logits:r_m_moe', 'logits:r_m_moe_act', 'logits:r_m_shared_experts', 'logits:r_m_mla_up_proj', 'logits:r_m_op', 'logits:e_f', 'logits:e_l', 'logits:h_m', 'buffers:const', 'buffers:L_d', 'buffers:L_m', 'buffers:Lf_d', 'buffers:Lf_m', 'buffers:r_d_core_attn', 'buffers:r_d_layernorm', 'buffers:r_d_mlp', 'buffers:r_d_mla_up_proj', 'buffers:r_d_op', 'buffers:r_m_core_attn', 'buffers:r_m_layernorm', 'buffers:r_m_moe', 'buffers:r_m_moe_act', 'buffers:r_m_shared_experts', 'buffers:r_m_mla_up_proj', 'buffers:r_m_op', 'buffers:e_f', 'buffers:e_l', 'buffers:h_m', 'transient:const', 'transient:L_d', 'transient:L_m', 'transient:Lf_d', 'transient:Lf_m', 'transient:r_d_core_attn', 'transient:r_d_layernorm', 'transient:r_d_mlp', 'transient:r_d_mla_up_proj', 'transient:r_d_op', 'transient:r_m_core_attn', 'transient:r_m_layernorm', 'transient:r_m_moe', 'transient:r_m_moe_act', 'transient:r_m_shared_experts', 'transient:r_m_mla_up_proj', 'transient:r_m_op', 'transient:e_f', 'transient:e_l', 'transient:h_m', 'work:const', 'work:L_d', 'work:L_m', 'work:Lf_d', 'work:Lf_m', 'work:r_d_core_attn', 'work:r_d_layernorm', 'work:r_d_mlp', 'work:r_d_mla_up_proj', 'work:r_d_op', 'work:r_m_core_attn', 'work:r_m_layernorm', 'work:r_m_moe', 'work:r_m_moe_act', 'work:r_m_shared_experts', 'work:r_m_mla_up_proj', 'work:r_m_op', 'work:e_f', 'work:e_l', 'work:h_m', 'comm_tp:const', 'comm_tp:L_d', 'comm_tp:L_m', 'comm_tp:Lf_d', 'comm_tp:Lf_m', 'comm_tp:r_d_core_attn', 'comm_tp:r_d_layernorm', 'comm_tp:r_d_mlp', 'comm_tp:r_d_mla_up_proj', 'comm_tp:r_d_op', 'comm_tp:r_m_core_attn', 'comm_tp:r_m_layernorm', 'comm_tp:r_m_moe', 'comm_tp:r_m_moe_act', 'comm_tp:r_m_shared_experts', 'comm_tp:r_m_mla_up_proj', 'comm_tp:r_m_op', 'comm_tp:e_f', 'comm_tp:e_l', 'comm_tp:h_m', 'comm_cp:const', 'comm_cp:L_d', 'comm_cp:L_m', 'comm_cp:Lf_d', 'comm_cp:Lf_m', 'comm_cp:r_d_core_attn', 'comm_cp:r_d_layernorm', 'comm_cp:r_d_mlp', 'comm_cp:r_d_mla_up_proj', 'comm_cp:r_d_op', 'comm_cp:r_m_core_attn', 'comm_cp:r_m_layernorm', 'comm_cp:r_m_moe', 'comm_cp:r_m_moe_act', 'comm_cp:r_m_shared_experts', 'comm_cp:r_m_mla_up_proj', 'comm_cp:r_m_op', 'comm_cp:e_f', 'comm_cp:e_l', 'comm_cp:h_m', 'comm_ep:const', 'comm_ep:L_d', 'comm_ep:L_m', 'comm_ep:Lf_d', 'comm_ep:Lf_m', 'comm_ep:r_d_core_attn', 'comm_ep:r_d_layernorm', 'comm_ep:r_d_mlp', 'comm_ep:r_d_mla_up_proj', 'comm_ep:r_d_op', 'comm_ep:r_m_core_attn', 'comm_ep:r_m_layernorm', 'comm_ep:r_m_moe', 'comm_ep:r_m_moe_act', 'comm_ep:r_m_shared_experts', 'comm_ep:r_m_mla_up_proj', 'comm_ep:r_m_op', 'comm_ep:e_f', 'comm_ep:e_l', 'comm_ep:h_m', 'comm_pp:const', 'comm_pp:L_d', 'comm_pp:L_m', 'comm_pp:Lf_d', 'comm_pp:Lf_m', 'comm_pp:r_d_core_attn', 'comm_pp:r_d_layernorm', 'comm_pp:r_d_mlp', 'comm_pp:r_d_mla_up_proj', 'comm_pp:r_d_op', 'comm_pp:r_m_core_attn', 'comm_pp:r_m_layernorm', 'comm_pp:r_m_moe', 'comm_pp:r_m_moe_act', 'comm_pp:r_m_shared_experts', 'comm_pp:r_m_mla_up_proj', 'comm_pp:r_m_op', 'comm_pp:e_f', 'comm_pp:e_l', 'comm_pp:h_m', 'shard_mb:const', 'shard_mb:L_d', 'shard_mb:L_m', 'shard_mb:Lf_d', 'shard_mb:Lf_m', 'shard_mb:r_d_core_attn', 'shard_mb:r_d_layernorm', 'shard_mb:r_d_mlp', 'shard_mb:r_d_mla_up_proj', 'shard_mb:r_d_op', 'shard_mb:r_m_core_attn', 'shard_mb:r_m_layernorm', 'shard_mb:r_m_moe', 'shard_mb:r_m_moe_act', 'shard_mb:r_m_shared_experts', 'shard_mb:r_m_mla_up_proj', 'shard_mb:r_m_op', 'shard_mb:e_f', 'shard_mb:e_l', 'shard_mb:h_m', 'dp_step:const', 'dp_step:L_d', 'dp_step:L_m', 'dp_step:Lf_d', 'dp_step:Lf_m', 'dp_step:r_d_core_attn', 'dp_step:r_d_layernorm', 'dp_step:r_d_mlp', 'dp_step:r_d_mla_up_proj', 'dp_step:r_d_op', 'dp_step:r_m_core_attn', 'dp_step:r_m_layernorm', 'dp_step:r_m_moe', 'dp_step:r_m_moe_act', 'dp_step:r_m_shared_experts', 'dp_step:r_m_mla_up_proj', 'dp_step:r_m_op', 'dp_step:e_f', 'dp_step:e_l', 'dp_step:h_m', 'edp_step:const', 'edp_step:L_d', 'edp_step:L_m', 'edp_step:Lf_d', 'edp_step:Lf_m', 'edp_step:r_d_core_attn', 'edp_step:r_d_layernorm', 'edp_step:r_d_mlp', 'edp_step:r_d_mla_up_proj', 'edp_step:r_d_op', 'edp_step:r_m_core_attn', 'edp_step:r_m_layernorm', 'edp_step:r_m_moe', 'edp_step:r_m_moe_act', 'edp_step:r_m_shared_experts', 'edp_step:r_m_mla_up_proj', 'edp_step:r_m_op', 'edp_step:e_f', 'edp_step:e_l', 'edp_step:h_m', 'opt_step:const', 'opt_step:L_d', 'opt_step:L_m', 'opt_step:Lf_d', 'opt_step:Lf_m', 'opt_step:r_d_core_attn', 'opt_step:r_d_layernorm', 'opt_step:r_d_mlp', 'opt_step:r_d_mla_up_proj', 'opt_step:r_d_op', 'opt_step:r_m_core_attn', 'opt_step:r_m_layernorm', 'opt_step:r_m_moe', 'opt_step:r_m_moe_act', 'opt_step:r_m_shared_experts', 'opt_step:r_m_mla_up_proj', 'opt_step:r_m_op', 'opt_step:e_f', 'opt_step:e_l', 'opt_step:h_m']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'is_moe_model', 'k_mtp', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'u_1', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, is_moe_model, k_mtp, lin_bias, ln_bias, mu, n_m, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, u_1, v, z_1, z_2, z_3):
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
    _x82 = _x28*g
    _x83 = _x15*_x82
    _x84 = c**(-1.0)
    _x85 = S*_x84
    _x86 = _x78*_x85
    _x87 = flash - 1
    _x88 = _x87*(3*drop + 2)
    _x89 = _x81*drop - 4*_x83 - _x86*_x88 + 2*is_mla*(_x21*_x6 + _x24 + _x79)
    _x90 = 4*_x78*flash + _x89
    _x91 = _x77 + _x90
    _x92 = _x80*h
    _x93 = 8*_x92
    _x94 = _x19*_x78
    _x95 = _x20*is_mla
    _x96 = _x15 - _x95
    _x97 = _x78*_x96
    _x98 = _x93 - 2*_x94 - 2*_x97
    _x99 = _x91 + _x98
    _x100 = _x85*b
    _x101 = E*_x80
    _x102 = _x46*n_m
    _x103 = 2*_x102
    _x104 = K*imb_mem
    _x105 = _x104*_x80
    _x106 = 4*_x101 + _x103 + 2*_x105*t_e*(_x30 + _x42)
    _x107 = _x106 + _x90
    _x108 = _x107 + _x98
    _x109 = 2*_x78
    _x110 = -_x109*_x96 + 6*_x92
    _x111 = _x109*_x69 + _x110
    _x112 = S**2*_x78*b
    _x113 = _x112*_x88/c**2
    _x114 = 4*_x92
    _x115 = -_x100*_x114
    _x116 = _x92*drop
    _x117 = _x27*a
    _x118 = _x117*(_x20 + d_v)
    _x119 = 2*_x100
    _x120 = -_x118*_x119
    _x121 = n_m - 2
    _x122 = _x27*has_qlora
    _x123 = has_qlora*is_mla
    _x124 = _x123 - 1
    _x125 = n_m - 3
    _x126 = 2*_x125
    _x127 = _x78 + _x82
    _x128 = 2*_x15
    _x129 = _x110 + 2*_x117*_x22*(2*d_n + d_r + d_v) + _x127*_x128 + _x89 - 2*has_qlora*is_mla*(_x31 + _x92 + r_q)
    _x130 = F_e*_x105
    _x131 = _x101 + _x46
    _x132 = _x49*b_l
    _x133 = 4*z_3
    _x134 = z_2*(_x133 + b_g)
    _x135 = -_x37*_x57
    _x136 = _x55*u_1 + _x56
    _x137 = _x43 + _x47
    _x138 = _x135 + is_moe_model*(_x137 + _x36)
    _x139 = t - 1
    _x140 = c_r - 1
    _x141 = 2*_x118 - 2*_x128*_x82
    _x142 = _x141*reduce(minimum, [1, _x140]) + h*reduce(minimum, [1, _x139])
    _x143 = _x104*t_e
    _x144 = _x143*_x81
    _x145 = W_hbm**(-1.0)
    _x146 = 2*_x121*eager + n_m
    _x147 = 2*_x146
    _x148 = drop + 32*eager + 10
    _x149 = _x87*(5*drop + 4)
    _x150 = -_x149*_x86 + 4*eager*(-_x15*_x6*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x94 + 5*d_r*is_mla*(_x78 + 1))
    _x151 = _x148*_x81 + _x150
    _x152 = _x145*(_x147*_x75 + _x151)
    _x153 = _x75*h
    _x154 = _x100*h
    _x155 = _x100*_x75
    _x156 = 2*_x145
    _x157 = T_m**(-1.0)
    _x158 = reduce(maximum, [1, h])
    _x159 = ceil(_x157*_x158)
    _x160 = N_sm**(-1.0)
    _x161 = T_n**(-1.0)
    _x162 = reduce(maximum, [1, _x100])
    _x163 = _x160*ceil(_x161*_x162)
    _x164 = _x159*_x163
    _x165 = _x158*_x161
    _x166 = ceil(_x165)
    _x167 = _x160*ceil(_x157*_x162)
    _x168 = _x166*_x167
    _x169 = ceil(2*_x165)
    _x170 = _x167*_x169
    _x171 = Pk**(-1.0)
    _x172 = _x171/eta
    _x173 = _x172/reduce(maximum, [_x164/ceil(_x164), _x168/ceil(_x168), _x170/ceil(_x170)])
    _x174 = _x173*_x30
    _x175 = _x6*_x9
    _x176 = _x100*_x175
    _x177 = reduce(maximum, [1, _x175])
    _x178 = _x163*ceil(_x157*_x177)
    _x179 = _x161*_x177
    _x180 = _x167*ceil(_x179)
    _x181 = _x167*ceil(2*_x179)
    _x182 = reduce(maximum, [_x155*_x174, _x156*(_x153 + _x154 + _x155)]) + reduce(maximum, [_x156*(_x154 + _x175*h + _x176), _x172*_x176*_x30/reduce(maximum, [_x178/ceil(_x178), _x180/ceil(_x180), _x181/ceil(_x181)])])
    _x183 = c_r**(-1.0)
    _x184 = S*_x183
    _x185 = _x171*(flash - 2)*(-_x128 + _x18 + _x95)/(_x184*eta_a*flash/(L_a0 + _x184) - _x87*eta)
    _x186 = _x112*_x84
    _x187 = _x185*_x186
    _x188 = -S*_x84*b*h
    _x189 = _x6*(_x17 + _x33 - _x70)
    _x190 = _x189/h
    _x191 = reduce(maximum, [1, -_x190])
    _x192 = _x161*_x191
    _x193 = _x167*ceil(_x192)
    _x194 = _x163*ceil(_x157*_x191)
    _x195 = _x167*ceil(2*_x192)
    _x196 = 2*_x172
    _x197 = _x100*_x196
    _x198 = reduce(maximum, [_x156*(-_x100*_x190 - _x188 - _x189), -_x189*_x197/reduce(maximum, [_x193/ceil(_x193), _x194/ceil(_x194), _x195/ceil(_x195)])])
    _x199 = _x100*_x94
    _x200 = reduce(maximum, [-_x174*_x199, _x156*(-_x188 - _x199 - _x94*h)])
    _x201 = -_x187 + _x198 + _x200
    _x202 = _x100*_x152 + _x182 + _x201
    _x203 = _x100*_x145
    _x204 = E*_x39
    _x205 = _x143*(reduce(maximum, [0, reduce(minimum, [1, _x204 - 1])]) + 1)
    _x206 = _x205*_x93
    _x207 = _x148*_x92
    _x208 = 20*_x101 + _x130*_x147 + _x147*_x46 + _x206
    _x209 = 3*_x203
    _x210 = _x100*_x92
    _x211 = reduce(maximum, [1, E])
    _x212 = _x100*_x80
    _x213 = reduce(maximum, [1, _x212])
    _x214 = _x160*ceil(_x157*_x211)*ceil(_x161*_x213)
    _x215 = _x161*_x211
    _x216 = _x160*ceil(_x157*_x213)
    _x217 = _x216*ceil(_x215)
    _x218 = _x216*ceil(2*_x215)
    _x219 = reduce(maximum, [_x156*(_x100*_x101 + _x210 + _x40), _x196*_x212*_x40/reduce(maximum, [_x214/ceil(_x214), _x217/ceil(_x217), _x218/ceil(_x218)])])
    _x220 = _x41*h
    _x221 = K*imb
    _x222 = F_e*_x221
    _x223 = M_e/_x211
    _x224 = _x212*_x223
    _x225 = _x222*_x224
    _x226 = _x221*t_e
    _x227 = _x210*_x223*_x226
    _x228 = _x156*_x204
    _x229 = reduce(maximum, [1, _x224*_x226])
    _x230 = _x160*reduce(maximum, [1, _x204])
    _x231 = _x230*ceil(_x161*_x229)
    _x232 = _x159*_x231
    _x233 = _x230*ceil(_x157*_x229)
    _x234 = _x166*_x233
    _x235 = _x169*_x233
    _x236 = _x100*_x81
    _x237 = _x222*_x236
    _x238 = reduce(maximum, [_x228*(_x220 + _x225 + _x227), _x172*_x237/reduce(maximum, [_x232/ceil(_x232), _x234/ceil(_x234), _x235/ceil(_x235)])])
    _x239 = reduce(maximum, [1, _x41*_x8])
    _x240 = _x231*ceil(_x157*_x239)
    _x241 = _x161*_x239
    _x242 = _x233*ceil(_x241)
    _x243 = _x233*ceil(2*_x241)
    _x244 = _x172*_x8
    _x245 = reduce(maximum, [_x228*(_x220*_x8 + _x225*_x8 + _x227), _x237*_x244/reduce(maximum, [_x240/ceil(_x240), _x242/ceil(_x242), _x243/ceil(_x243)])])
    _x246 = _x46*h
    _x247 = _x100*_x30*_x6
    _x248 = F_s*_x247
    _x249 = _x46*_x8
    _x250 = reduce(maximum, [1, _x249])
    _x251 = _x161*_x250
    _x252 = _x167*ceil(_x251)
    _x253 = _x163*ceil(_x157*_x250)
    _x254 = _x167*ceil(2*_x251)
    _x255 = reduce(maximum, [_x156*(_x100*_x249 + _x154 + _x246*_x8), _x244*_x248/reduce(maximum, [_x252/ceil(_x252), _x253/ceil(_x253), _x254/ceil(_x254)])]) + reduce(maximum, [_x173*_x248, _x156*(_x100*_x46 + _x154 + _x246)])
    _x256 = E_s*_x255
    _x257 = -3*_x187 + 3*_x198 + 3*_x200 - _x203*_x206 + _x209*(_x150 + _x207) + _x209*(_x207 + _x208) + 3*_x219 + 3*_x238 + 3*_x245 + 3*_x256
    _x258 = _x238 + _x245
    _x259 = _x203*(_x151 + _x208) + _x258
    _x260 = _x219 + _x256
    _x261 = -_x186*(_x145*_x149*_x84 + _x185)
    _x262 = _x203*_x93*(8*eager + 1)
    _x263 = _x117*_x197*(_x20*_x24 + _x32)
    _x264 = -_x122*a*(_x20*r_q + _x32) + _x127*_x15*h + _x23*_x79*is_mla
    _x265 = _x130*_x146
    _x266 = _x100*_x156
    _x267 = _x124*_x46
    _x268 = -_x131*has_qlora*is_mla
    _x269 = reduce(maximum, [1, _x49])
    _x270 = _x163*ceil(_x157*_x269)
    _x271 = _x161*_x269
    _x272 = _x167*ceil(_x271)
    _x273 = _x167*ceil(2*_x271)
    _x274 = 30*_x203*_x49 + 3*reduce(maximum, [_x156*(_x100*_x49 + _x154 + _x55), _x100*_x172*_x50/reduce(maximum, [_x270/ceil(_x270), _x272/ceil(_x272), _x273/ceil(_x273)])])
    _x275 = _x247/W_tp
    _x276 = _x139*(_x275 + alpha)
    _x277 = _x139*_x275 + _x139*alpha
    _x278 = t_e - 1
    _x279 = _x104*_x236/W_etp
    _x280 = _x278*_x279 + _x278*alpha
    _x281 = _x277 + _x280
    _x282 = 4*k_mtp
    _x283 = c_u - 1
    _x284 = _x100*(_x6*a*d_v*is_mla - _x83 - _x97)/(W_cu*c_u)
    _x285 = 3*_x140*reduce(maximum, [0, _x183*_x187 + alpha + _x100*_x141/W_cr]) + 8*_x283*_x284 + 2*_x283*alpha
    _x286 = _x283*(4*_x284 + alpha)
    _x287 = M_e - 1
    _x288 = _x287*alpha
    _x289 = _x221*_x236*_x287*_x39
    _x290 = reduce(maximum, [_x289*f_off/W_eout, -_x289*(f_off - 1)/W_ein])
    _x291 = _x288 + _x290
    _x292 = W_pp**(-1.0)
    _x293 = _x133 + b_r*z_2
    _x294 = _x0*(Z_d - 1)/W_dpcp
    _x295 = _x294*_x37
    _x296 = _x38*_x43*(Z_e - 1)/W_edp
    _x297 = _x294*_x48
    _x298 = 2*b_r*(z_1 - 1) + z_1*(b_r + 2)*(z_2 - 1) + 2*z_2*(z_3 - 1)
    _x299 = _x53*(_x292*_x50*b_r + alpha)
    _x300 = _x294*_x298
    _x301 = _x296*_x298
    _x302 = _x145*(b_g + 26)
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
        _x100*_x99,
        _x100*_x108,
        _x100*(-_x111 - _x91),
        _x100*(-_x107 - _x111),
        _x113,
        _x115,
        -_x100*(_x116 + _x77),
        _x120,
        _x100*(2*_x121*(F*_x122 - _x124*(_x75 + _x92)) - _x126*(-_x124*_x75 + _x80*h*has_qlora*is_mla) - _x129 - _x77),
        _x113,
        _x115,
        _x100*(-_x106 - _x114 - _x116 + _x80*h*(drop + 4)),
        -_x119*_x130,
        -_x100*_x103,
        _x120,
        _x100*(-_x106 + 2*_x121*(_x123*(_x46 + _x92) - _x124*_x131) - _x126*(_x122*_x45 - _x124*_x80*(E + h)) - _x129),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x100*(_x132 + k_mtp*(_x108*is_moe_model + _x132 - _x57*_x99)),
        0,
        _x134*_x37,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x134*_x138 + b_g*z_2*(_x136 + (_x135 + is_moe_model*(2*_x11*h - _x26 - _x34))*(v - 1)) + 2*z_3*(_x136 + _x138),
        _x134*(-_x10 + _x137),
        _x119*(_x142 + _x76),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x119*(F*_x57*_x6*n_m - _x142 - _x144*is_moe_model - is_moe_model*n_m*(_x130 + _x46)),
        _x119*(_x102 + _x130*n_m + _x144 - _x76),
        0,
        3*_x202,
        _x257,
        _x202,
        _x201 + _x259 + _x260,
        _x261,
        _x262,
        _x146*_x155*_x156 + _x182,
        _x263,
        _x100*(_x152 - _x196*(-_x121*_x153*(_x123 + 1) + _x125*_x153 + _x264)),
        _x261,
        _x262,
        _x258 + _x260 + _x266*(10*_x101 + _x114*_x205 + _x146*_x46 + _x265),
        _x265*_x266,
        E_s*(F_s*_x146*_x266*_x6 + _x255),
        _x263,
        -_x197*(-_x121*h*(-2*_x267 - _x268) + _x125*h*(-_x267 - _x268) + _x264) + _x259,
        0,
        _x274 + k_mtp*(-3*_x202*_x57 + _x257*is_moe_model + _x274),
        0,
        0,
        8*_x276,
        4*_x281,
        4*_x276,
        2*_x281,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x282*(-_x276*_x57 + _x277 + _x278*is_moe_model*(_x279 + alpha)),
        0,
        0,
        _x285,
        _x285,
        _x286,
        _x286,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x285*k_mtp,
        0,
        0,
        0,
        4*_x291,
        0,
        2*_x291,
        0,
        0,
        _x276,
        0,
        2*_x276,
        0,
        0,
        2*_x280 + 2*_x291,
        0,
        0,
        0,
        _x281 + 2*_x288 + 2*_x290,
        0,
        _x282*_x291*is_moe_model,
        0,
        -2*_x52*v*(_x247*_x292 + alpha),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x293*_x295,
        _x293*(_x296 + _x297),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x293*_x294*_x55,
        _x293*(_x294*_x59 + _x296*_x51),
        0,
        0,
        -_x295*_x298,
        -_x297*_x298,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x299 - _x300*_x55,
        -_x299 - _x300*_x74,
        0,
        0,
        0,
        -_x301,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        -_x301*_x51,
        0,
        0,
        _x302*_x67,
        _x302*(_x48*_x66 + _x68),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        _x302*_x72,
        _x302*(_x59*_x66 + _x73),
        0]

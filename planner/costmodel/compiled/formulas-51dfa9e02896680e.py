# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ulysses', 'X_ep', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_m, qk_norm, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, v, z_1, z_2, z_3):
    _x0 = is_mla - 1
    _x1 = _x0*d_h
    _x2 = d_n + d_r
    _x3 = _x2*is_mla
    _x4 = _x1 - _x3
    _x5 = _x4*a
    _x6 = 2*h
    _x7 = d_r + r_kv
    _x8 = d_n + d_v
    _x9 = _x8*r_kv
    _x10 = _x1*_x6*g - is_mla*(_x7*h + _x9*a + r_kv)
    _x11 = a*h
    _x12 = _x1*_x11
    _x13 = d_v*is_mla
    _x14 = _x1 - _x13
    _x15 = _x2*a
    _x16 = has_qlora - 1
    _x17 = _x16*h
    _x18 = has_qlora*r_q
    _x19 = _x15*_x17 - _x18*(_x15 + h + 1)
    _x20 = _x11*_x14 + _x12 + _x19*is_mla
    _x21 = _x10 + _x20
    _x22 = h*n_m
    _x23 = n_m - 1
    _x24 = F*_x23
    _x25 = F*_x22 + lin_bias*(_x24 + h)
    _x26 = E*h
    _x27 = F_e*n_m
    _x28 = E_s*F_s
    _x29 = V*h
    _x30 = ln_bias + 1
    _x31 = t**(-1.0)
    _x32 = _x31*is_mla
    _x33 = t_g**(-1.0)
    _x34 = _x28*_x31
    _x35 = M_e**(-1.0)
    _x36 = F_e/t_e
    _x37 = _x36*n_m
    _x38 = z_2 - 1
    _x39 = _x38*b_g
    _x40 = Z_d**(-1.0)
    _x41 = _x40*z_1
    _x42 = 2*z_1
    _x43 = _x42 + z_3 - 3
    _x44 = 2*mu
    _x45 = 1 - z_1
    _x46 = _x41 + _x45
    _x47 = 4*mu - 12
    _x48 = 1 - z_3
    _x49 = 2*mu - 2
    _x50 = Z_e**(-1.0)
    _x51 = _x45 + _x50*z_1
    _x52 = _x31*a
    _x53 = 2*_x52
    _x54 = t_s**(-1.0)
    _x55 = _x54*h
    _x56 = _x55*drop
    _x57 = 4*_x55
    _x58 = _x56 + _x57
    _x59 = _x52*d_v + _x7
    _x60 = _x33*g
    _x61 = _x1*_x60
    _x62 = c**(-1.0)
    _x63 = S*_x62
    _x64 = _x52*_x63
    _x65 = flash - 1
    _x66 = _x65*(3*drop + 2)
    _x67 = -4*_x61 - _x64*_x66 + 2*is_mla*(_x15*_x31 + _x18 + _x59)
    _x68 = -_x4*_x53 + _x67
    _x69 = _x63*b
    _x70 = S**2*_x52*b
    _x71 = _x70/c**2
    _x72 = -_x66*_x71
    _x73 = F*_x31
    _x74 = 2*_x73
    _x75 = _x74*n_m
    _x76 = _x56 + _x75
    _x77 = E*_x54
    _x78 = _x34*n_m
    _x79 = 2*_x78
    _x80 = K*imb_mem
    _x81 = _x54*_x80
    _x82 = 4*_x77 + _x79 + 2*_x81*t_e*(_x37 + _x6)
    _x83 = _x58 + _x82
    _x84 = _x54*_x6
    _x85 = _x69*_x84
    _x86 = V*_x31
    _x87 = _x69*_x86
    _x88 = _x57*_x69
    _x89 = _x80*t_e
    _x90 = _x32*a
    _x91 = _x90*(_x8 + d_r)
    _x92 = 2*_x1
    _x93 = _x69*(-_x60*_x92 + _x91)
    _x94 = _x6*_x69
    _x95 = F_e*_x81
    _x96 = 2*_x69
    _x97 = (flash - 2)*(_x13 + _x3 - _x92)
    _x98 = _x62*_x70
    _x99 = _x73*_x94
    _x100 = K*imb
    _x101 = _x29*_x31
    _x102 = _x101*_x96
    _x103 = drop + 32*eager + 10
    _x104 = _x103*_x55
    _x105 = _x14*_x52
    _x106 = _x65*(5*drop + 4)
    _x107 = -_x106*_x64 + 4*eager*(-_x1*_x31*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x105 + 5*d_r*is_mla*(_x52 + 1))
    _x108 = _x69*(_x104 + _x107)
    _x109 = n_m - 2
    _x110 = 2*_x109
    _x111 = _x110*eager + n_m
    _x112 = _x111*_x74
    _x113 = _x111*_x34
    _x114 = _x111*_x95
    _x115 = 8*_x55
    _x116 = E*_x35
    _x117 = _x89*(reduce(maximum, [0, reduce(minimum, [1, _x116 - 1])]) + 1)
    _x118 = _x115*_x117
    _x119 = 2*_x113 + 2*_x114 + _x118 + 20*_x77
    _x120 = _x69*(_x104 + _x119)
    _x121 = _x55*_x69
    _x122 = _x103*_x84 + _x107
    _x123 = W_hbm**(-1.0)
    _x124 = _x123*_x69
    _x125 = _x124*(_x112 + _x122)
    _x126 = _x73*h
    _x127 = _x69*h
    _x128 = _x69*_x73
    _x129 = 2*_x123
    _x130 = T_m**(-1.0)
    _x131 = reduce(maximum, [1, h])
    _x132 = ceil(_x130*_x131)
    _x133 = N_sm**(-1.0)
    _x134 = T_n**(-1.0)
    _x135 = reduce(maximum, [1, _x69])
    _x136 = _x133*ceil(_x134*_x135)
    _x137 = _x132*_x136
    _x138 = _x131*_x134
    _x139 = ceil(_x138)
    _x140 = _x133*ceil(_x130*_x135)
    _x141 = _x139*_x140
    _x142 = ceil(2*_x138)
    _x143 = _x140*_x142
    _x144 = Pk**(-1.0)
    _x145 = _x144/eta
    _x146 = _x145/reduce(maximum, [_x137/ceil(_x137), _x141/ceil(_x141), _x143/ceil(_x143)])
    _x147 = _x24*_x31
    _x148 = reduce(maximum, [1, _x147])
    _x149 = _x136*ceil(_x130*_x148)
    _x150 = _x134*_x148
    _x151 = _x140*ceil(_x150)
    _x152 = _x140*ceil(2*_x150)
    _x153 = _x145*_x94
    _x154 = reduce(maximum, [_x129*(_x127 + _x147*_x69 + _x147*h), _x147*_x153/reduce(maximum, [_x149/ceil(_x149), _x151/ceil(_x151), _x152/ceil(_x152)])]) + reduce(maximum, [_x146*_x99, _x129*(_x126 + _x127 + _x128)])
    _x155 = c_r**(-1.0)
    _x156 = S*_x155
    _x157 = _x144*_x97/(_x156*eta_a*flash/(L_a0 + _x156) - _x65*eta)
    _x158 = _x157*_x98
    _x159 = -S*_x62*b*h
    _x160 = _x31*(_x10 + _x12 + _x19*is_mla)
    _x161 = _x160/h
    _x162 = reduce(maximum, [1, -_x161])
    _x163 = _x134*_x162
    _x164 = _x140*ceil(_x163)
    _x165 = _x136*ceil(_x130*_x162)
    _x166 = _x140*ceil(2*_x163)
    _x167 = _x145*_x96
    _x168 = reduce(maximum, [_x129*(-_x159 - _x160 - _x161*_x69), -_x160*_x167/reduce(maximum, [_x164/ceil(_x164), _x165/ceil(_x165), _x166/ceil(_x166)])])
    _x169 = reduce(maximum, [-_x105*_x146*_x94, _x129*(-_x105*_x69 - _x105*h - _x159)])
    _x170 = -_x158 + _x168 + _x169
    _x171 = _x125 + _x154 + _x170
    _x172 = 3*_x123
    _x173 = reduce(maximum, [1, E])
    _x174 = _x54*_x69
    _x175 = reduce(maximum, [1, _x174])
    _x176 = _x133*ceil(_x130*_x173)*ceil(_x134*_x175)
    _x177 = _x134*_x173
    _x178 = _x133*ceil(_x130*_x175)
    _x179 = _x178*ceil(_x177)
    _x180 = _x178*ceil(2*_x177)
    _x181 = reduce(maximum, [_x129*(_x121 + _x26 + _x69*_x77), _x153*_x77/reduce(maximum, [_x176/ceil(_x176), _x179/ceil(_x179), _x180/ceil(_x180)])])
    _x182 = _x36*h
    _x183 = F_e*_x100
    _x184 = M_e/_x173
    _x185 = _x174*_x184
    _x186 = _x183*_x185
    _x187 = _x100*t_e
    _x188 = _x121*_x184*_x187
    _x189 = _x116*_x129
    _x190 = reduce(maximum, [1, _x185*_x187])
    _x191 = _x133*reduce(maximum, [1, _x116])
    _x192 = _x191*ceil(_x134*_x190)
    _x193 = _x132*_x192
    _x194 = _x191*ceil(_x130*_x190)
    _x195 = _x139*_x194
    _x196 = _x142*_x194
    _x197 = _x183*_x85
    _x198 = reduce(maximum, [_x189*(_x182 + _x186 + _x188), _x145*_x197/reduce(maximum, [_x193/ceil(_x193), _x195/ceil(_x195), _x196/ceil(_x196)])])
    _x199 = reduce(maximum, [1, _x23*_x36])
    _x200 = _x192*ceil(_x130*_x199)
    _x201 = _x134*_x199
    _x202 = _x194*ceil(_x201)
    _x203 = _x194*ceil(2*_x201)
    _x204 = _x145*_x23
    _x205 = reduce(maximum, [_x189*(_x182*_x23 + _x186*_x23 + _x188), _x197*_x204/reduce(maximum, [_x200/ceil(_x200), _x202/ceil(_x202), _x203/ceil(_x203)])])
    _x206 = _x34*h
    _x207 = _x31*_x94
    _x208 = F_s*_x207
    _x209 = _x23*_x34
    _x210 = reduce(maximum, [1, _x209])
    _x211 = _x134*_x210
    _x212 = _x140*ceil(_x211)
    _x213 = _x136*ceil(_x130*_x210)
    _x214 = _x140*ceil(2*_x211)
    _x215 = reduce(maximum, [_x129*(_x127 + _x206*_x23 + _x209*_x69), _x204*_x208/reduce(maximum, [_x212/ceil(_x212), _x213/ceil(_x213), _x214/ceil(_x214)])]) + reduce(maximum, [_x146*_x208, _x129*(_x127 + _x206 + _x34*_x69)])
    _x216 = E_s*_x215
    _x217 = -_x118*_x124 + _x120*_x172 + 3*_x181 + 3*_x198 + 3*_x205 + 3*_x216
    _x218 = _x124*(_x119 + _x122) + _x198 + _x205
    _x219 = _x181 + _x216
    _x220 = reduce(maximum, [1, _x86])
    _x221 = _x136*ceil(_x130*_x220)
    _x222 = _x134*_x220
    _x223 = _x140*ceil(_x222)
    _x224 = _x140*ceil(2*_x222)
    _x225 = W_tp**(-1.0)
    _x226 = _x207*_x225
    _x227 = t - 1
    _x228 = 4*_x227
    _x229 = _x228*(_x226 + alpha)
    _x230 = t_e - 1
    _x231 = W_etp**(-1.0)
    _x232 = _x231*_x81*_x94
    _x233 = alpha + 2*_x93/W_cr
    _x234 = 3*c_r - 3
    _x235 = c_u - 1
    _x236 = _x31*_x5
    _x237 = 4*_x69*(-_x236 + _x31*a*d_v*is_mla - _x61)/(W_cu*c_u)
    _x238 = M_e - 1
    _x239 = _x238*alpha
    _x240 = _x100*_x238*_x35*_x85
    _x241 = reduce(maximum, [_x240*f_off/W_eout, -_x240*(f_off - 1)/W_ein])
    _x242 = _x227*alpha
    _x243 = _x127*_x225*_x31
    _x244 = _x235*_x237 + _x235*alpha
    _x245 = _x228*_x243 + 2*_x242
    _x246 = _x230*alpha
    _x247 = 2*_x239 + 2*_x241
    _x248 = _x230*_x231*_x80*_x88 + 2*_x246 + _x247
    _x249 = _x38*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x250 = _x40*(Z_d - 1)/W_dpcp
    _x251 = _x123*(b_g + 26)
    _x252 = _x91*_x96
    _x253 = _x32*has_qlora
    _x254 = has_qlora*is_mla
    _x255 = _x254 - 1
    _x256 = n_m - 3
    _x257 = 2*_x256
    _x258 = _x52 + _x60
    _x259 = 2*_x16*_x90*(2*d_n + d_r + d_v) - 2*_x254*(_x55 + _x7 + r_q) + _x258*_x92 + 6*_x55 + _x84*drop
    _x260 = _x34 + _x77
    _x261 = -_x98*(_x106*_x123*_x62 + _x157)
    _x262 = _x115*_x124*(8*eager + 1)
    _x263 = _x167*_x90*(_x18*_x2 + _x9)
    _x264 = _x1*_x258*h + _x17*_x59*is_mla - _x90*has_qlora*(_x2*r_q + _x9)
    _x265 = _x226*_x227 + _x242
    _x266 = _x255*_x34
    _x267 = -_x260*has_qlora*is_mla
    _x268 = _x129*_x69
    return [
        -_x21 + 2*d_h*qk_norm + lin_bias*(-_x5 + 2*d_h*g + h),
        _x25,
        _x26*_x27,
        _x22*_x28,
        E*(h + router_bias),
        _x29,
        -_x29*(tied - 1),
        _x30*h,
        h*(_x6 + 3*ln_bias + 3),
        -_x10*(-_x0*_x33 + _x32) - _x20*_x31 + 2*_x30*h,
        _x25*_x31,
        E*router_bias + _x22*_x34 + _x26,
        _x26*_x35*_x37,
        -_x39 + _x40*b_g*z_2 - _x44*(-2*_x41 + _x43) - _x46*_x47 - _x49*(_x40*z_3 + _x48),
        -_x39 - _x44*(-_x42*_x50 + _x43) - _x47*_x51 - _x49*(_x48 + _x50*z_3) + _x50*b_g*z_2,
        _x69*(-_x14*_x53 + 4*_x52*flash + _x58 + _x68),
        _x72,
        _x69*(_x57 + _x76),
        _x69*_x83,
        _x85,
        _x87*b_l,
        _x88*_x89,
        4*_x93,
        _x94,
        _x69*_x75,
        _x96*n_m*(_x34 + _x95),
        -_x21*_x31*_x96,
        -_x97*_x98,
        _x99*n_m,
        _x94*(_x54*(E + _x100*_x27) + _x78),
        _x102,
        _x108,
        _x69*(_x104 + _x112),
        _x120,
        8*_x117*_x121,
        -_x106*_x71,
        3*_x171,
        _x108*_x172 - 3*_x158 + 3*_x168 + 3*_x169 + _x217,
        _x171,
        _x170 + _x218 + _x219,
        30*_x124*_x86 + 3*reduce(maximum, [_x129*(_x101 + _x127 + _x87), _x102*_x145/reduce(maximum, [_x221/ceil(_x221), _x223/ceil(_x223), _x224/ceil(_x224)])]),
        _x217,
        _x229,
        _x229,
        4*_x230*(_x232 + alpha),
        _x233*_x234,
        _x234*reduce(maximum, [0, _x155*_x158 + _x233]),
        2*_x235*(_x237 + alpha),
        4*_x239 + 4*_x241,
        2*v*(alpha + _x207/W_pp),
        8*_x227*_x243 + 4*_x242 + _x244,
        _x244 + _x245 + _x248,
        -_x249*_x250,
        -_x249*_x50*(Z_e - 1)/W_edp,
        _x250*(b_r*z_2 + 4*z_3),
        _x251*_x46,
        _x251*_x51,
        _x72,
        _x88,
        _x252,
        _x69*(-_x110*(F*_x253 - _x255*(_x55 + _x73)) + _x257*(-_x255*_x73 + _x54*h*has_qlora*is_mla) + _x259 + _x68 + _x75),
        _x69*_x76,
        _x72,
        _x88,
        _x252,
        _x69*(-_x110*(_x254*(_x34 + _x55) - _x255*_x260) - 2*_x236 + _x257*(_x253*_x28 - _x255*_x54*(E + h)) + _x259 + _x67 + _x82),
        _x69*(-_x55*(drop + 4) + _x83),
        _x95*_x96,
        _x69*_x79,
        _x261,
        _x262,
        _x263,
        _x125 - _x167*(-_x109*_x126*(_x254 + 1) + _x126*_x256 + _x264) + _x245,
        _x111*_x128*_x129 + _x154 + _x265,
        _x261,
        _x262,
        _x263,
        -_x167*(-_x109*h*(-2*_x266 - _x267) + _x256*h*(-_x266 - _x267) + _x264) + _x218 + _x230*_x232 + _x246 + _x247 + _x265,
        _x198 + _x205 + _x219 + _x248 + _x268*(_x113 + _x114 + _x117*_x57 + 10*_x77),
        _x114*_x268,
        E_s*(F_s*_x111*_x268*_x31 + _x215)]

# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_ag, n_m, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, v, z_1, z_2, z_3):
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
    _x53 = _x14*_x52
    _x54 = t_s**(-1.0)
    _x55 = _x54*h
    _x56 = _x55*drop
    _x57 = 4*_x55
    _x58 = _x56 + _x57
    _x59 = _x31*_x5
    _x60 = _x52*d_v + _x7
    _x61 = c_r - 1
    _x62 = _x32*a
    _x63 = _x62*(_x8 + d_r)
    _x64 = _x33*g
    _x65 = 2*_x1
    _x66 = _x63 - _x64*_x65
    _x67 = 2*_x66
    _x68 = _x61*_x67
    _x69 = _x1*_x64
    _x70 = c**(-1.0)
    _x71 = S*_x70
    _x72 = _x52*_x71
    _x73 = flash - 1
    _x74 = _x73*(3*drop + 2)
    _x75 = _x68*q_sv - 4*_x69 - _x72*_x74 + 2*is_mla*(_x15*_x31 + _x18 + _x60)
    _x76 = -2*_x59 + _x75
    _x77 = _x71*b
    _x78 = S**2
    _x79 = _x52*_x78*b
    _x80 = _x79/c**2
    _x81 = -_x74*_x80
    _x82 = F*_x31
    _x83 = 2*_x82
    _x84 = _x83*n_m
    _x85 = _x56 + _x84
    _x86 = E*_x54
    _x87 = _x34*n_m
    _x88 = 2*_x87
    _x89 = K*imb_mem
    _x90 = _x54*_x89
    _x91 = 4*_x86 + _x88 + 2*_x90*t_e*(_x37 + _x6)
    _x92 = _x58 + _x91
    _x93 = _x54*_x6
    _x94 = _x77*_x93
    _x95 = V*_x31
    _x96 = _x77*_x95
    _x97 = _x57*_x77
    _x98 = _x89*t_e
    _x99 = 4*_x77
    _x100 = _x66*_x99
    _x101 = _x6*_x77
    _x102 = F_e*_x90
    _x103 = 2*_x77
    _x104 = (flash - 2)*(_x13 + _x3 - _x65)
    _x105 = _x70*_x79
    _x106 = _x101*_x82
    _x107 = K*imb
    _x108 = _x29*_x31
    _x109 = _x103*_x108
    _x110 = drop + 32*eager + 10
    _x111 = _x110*_x55
    _x112 = _x73*(5*drop + 4)
    _x113 = -_x112*_x72 + 4*eager*(-_x1*_x31*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x53 + 5*d_r*is_mla*(_x52 + 1))
    _x114 = _x77*(_x111 + _x113)
    _x115 = n_m - 2
    _x116 = 2*_x115
    _x117 = _x116*eager + n_m
    _x118 = _x117*_x83
    _x119 = _x117*_x34
    _x120 = _x102*_x117
    _x121 = 8*_x55
    _x122 = E*_x35
    _x123 = _x98*(reduce(maximum, [0, reduce(minimum, [1, _x122 - 1])]) + 1)
    _x124 = _x121*_x123
    _x125 = 2*_x119 + 2*_x120 + _x124 + 20*_x86
    _x126 = _x77*(_x111 + _x125)
    _x127 = _x55*_x77
    _x128 = _x110*_x93 + _x113
    _x129 = W_hbm**(-1.0)
    _x130 = _x129*_x77
    _x131 = _x130*(_x118 + _x128)
    _x132 = _x82*h
    _x133 = _x77*h
    _x134 = _x77*_x82
    _x135 = 2*_x129
    _x136 = T_m**(-1.0)
    _x137 = reduce(maximum, [1, h])
    _x138 = ceil(_x136*_x137)
    _x139 = N_sm**(-1.0)
    _x140 = T_n**(-1.0)
    _x141 = reduce(maximum, [1, _x77])
    _x142 = _x139*ceil(_x140*_x141)
    _x143 = _x138*_x142
    _x144 = _x137*_x140
    _x145 = ceil(_x144)
    _x146 = _x139*ceil(_x136*_x141)
    _x147 = _x145*_x146
    _x148 = ceil(2*_x144)
    _x149 = _x146*_x148
    _x150 = Pk**(-1.0)
    _x151 = _x150/eta
    _x152 = _x151/reduce(maximum, [_x143/ceil(_x143), _x147/ceil(_x147), _x149/ceil(_x149)])
    _x153 = _x24*_x31
    _x154 = reduce(maximum, [1, _x153])
    _x155 = _x142*ceil(_x136*_x154)
    _x156 = _x140*_x154
    _x157 = _x146*ceil(_x156)
    _x158 = _x146*ceil(2*_x156)
    _x159 = _x101*_x151
    _x160 = reduce(maximum, [_x106*_x152, _x135*(_x132 + _x133 + _x134)]) + reduce(maximum, [_x135*(_x133 + _x153*_x77 + _x153*h), _x153*_x159/reduce(maximum, [_x155/ceil(_x155), _x157/ceil(_x157), _x158/ceil(_x158)])])
    _x161 = c_r**(-1.0)
    _x162 = S*_x161
    _x163 = _x104*_x150*(_x161*_x61*c_b + 1)/(_x162*eta_a*flash/(L_a0 + _x162) - _x73*eta)
    _x164 = _x105*_x163
    _x165 = -_x164
    _x166 = -S*_x70*b*h
    _x167 = _x31*(_x10 + _x12 + _x19*is_mla)
    _x168 = _x167/h
    _x169 = reduce(maximum, [1, -_x168])
    _x170 = _x140*_x169
    _x171 = _x146*ceil(_x170)
    _x172 = _x142*ceil(_x136*_x169)
    _x173 = _x146*ceil(2*_x170)
    _x174 = _x103*_x151
    _x175 = reduce(maximum, [_x135*(-_x166 - _x167 - _x168*_x77), -_x167*_x174/reduce(maximum, [_x171/ceil(_x171), _x172/ceil(_x172), _x173/ceil(_x173)])])
    _x176 = reduce(maximum, [-_x101*_x152*_x53, _x135*(-_x166 - _x53*_x77 - _x53*h)])
    _x177 = _x165 + _x175 + _x176
    _x178 = _x131 + _x160 + _x177
    _x179 = 3*_x129
    _x180 = reduce(maximum, [1, E])
    _x181 = _x54*_x77
    _x182 = reduce(maximum, [1, _x181])
    _x183 = _x139*ceil(_x136*_x180)*ceil(_x140*_x182)
    _x184 = _x140*_x180
    _x185 = _x139*ceil(_x136*_x182)
    _x186 = _x185*ceil(_x184)
    _x187 = _x185*ceil(2*_x184)
    _x188 = reduce(maximum, [_x135*(_x127 + _x26 + _x77*_x86), _x159*_x86/reduce(maximum, [_x183/ceil(_x183), _x186/ceil(_x186), _x187/ceil(_x187)])])
    _x189 = _x36*h
    _x190 = F_e*_x107
    _x191 = M_e/_x180
    _x192 = _x181*_x191
    _x193 = _x190*_x192
    _x194 = _x107*t_e
    _x195 = _x127*_x191*_x194
    _x196 = _x122*_x135
    _x197 = reduce(maximum, [1, _x192*_x194])
    _x198 = _x139*reduce(maximum, [1, _x122])
    _x199 = _x198*ceil(_x140*_x197)
    _x200 = _x138*_x199
    _x201 = _x198*ceil(_x136*_x197)
    _x202 = _x145*_x201
    _x203 = _x148*_x201
    _x204 = _x190*_x94
    _x205 = reduce(maximum, [_x196*(_x189 + _x193 + _x195), _x151*_x204/reduce(maximum, [_x200/ceil(_x200), _x202/ceil(_x202), _x203/ceil(_x203)])])
    _x206 = reduce(maximum, [1, _x23*_x36])
    _x207 = _x199*ceil(_x136*_x206)
    _x208 = _x140*_x206
    _x209 = _x201*ceil(_x208)
    _x210 = _x201*ceil(2*_x208)
    _x211 = _x151*_x23
    _x212 = reduce(maximum, [_x196*(_x189*_x23 + _x193*_x23 + _x195), _x204*_x211/reduce(maximum, [_x207/ceil(_x207), _x209/ceil(_x209), _x210/ceil(_x210)])])
    _x213 = _x34*h
    _x214 = _x101*_x31
    _x215 = F_s*_x214
    _x216 = _x23*_x34
    _x217 = reduce(maximum, [1, _x216])
    _x218 = _x140*_x217
    _x219 = _x146*ceil(_x218)
    _x220 = _x142*ceil(_x136*_x217)
    _x221 = _x146*ceil(2*_x218)
    _x222 = reduce(maximum, [_x135*(_x133 + _x213*_x23 + _x216*_x77), _x211*_x215/reduce(maximum, [_x219/ceil(_x219), _x220/ceil(_x220), _x221/ceil(_x221)])]) + reduce(maximum, [_x152*_x215, _x135*(_x133 + _x213 + _x34*_x77)])
    _x223 = E_s*_x222
    _x224 = -_x124*_x130 + _x126*_x179 + 3*_x188 + 3*_x205 + 3*_x212 + 3*_x223
    _x225 = _x130*(_x125 + _x128) + _x205 + _x212
    _x226 = _x188 + _x223
    _x227 = reduce(maximum, [1, _x95])
    _x228 = _x142*ceil(_x136*_x227)
    _x229 = _x140*_x227
    _x230 = _x146*ceil(_x229)
    _x231 = _x146*ceil(2*_x229)
    _x232 = W_tp**(-1.0)
    _x233 = _x214*_x232
    _x234 = t - 1
    _x235 = 4*_x234
    _x236 = _x235*(_x233 + alpha)
    _x237 = t_e - 1
    _x238 = W_etp**(-1.0)
    _x239 = _x101*_x238*_x90
    _x240 = W_cr**(-1.0)
    _x241 = _x240*_x77
    _x242 = _x241*_x67 + alpha
    _x243 = _x242*_x61
    _x244 = _x161*_x164
    _x245 = 2*_x52
    _x246 = _x161*_x163*_x245*_x70*_x78*b
    _x247 = _x241*_x68 + _x61*alpha
    _x248 = c_u - 1
    _x249 = _x99*(_x31*a*d_v*is_mla - _x59 - _x69)/(W_cu*c_u)
    _x250 = M_e - 1
    _x251 = _x250*alpha
    _x252 = _x107*_x250*_x35*_x94
    _x253 = reduce(maximum, [_x252*f_off/W_eout, -_x252*(f_off - 1)/W_ein])
    _x254 = _x234*alpha
    _x255 = _x133*_x232*_x31
    _x256 = _x248*_x249 + _x248*alpha
    _x257 = _x235*_x255 + 2*_x254
    _x258 = _x237*alpha
    _x259 = 2*_x251 + 2*_x253
    _x260 = _x237*_x238*_x89*_x97 + 2*_x258 + _x259
    _x261 = _x38*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x262 = _x40*(Z_d - 1)/W_dpcp
    _x263 = _x129*(b_g + 26)
    _x264 = _x103*_x63
    _x265 = _x32*has_qlora
    _x266 = has_qlora*is_mla
    _x267 = _x266 - 1
    _x268 = n_m - 3
    _x269 = 2*_x268
    _x270 = _x52 + _x64
    _x271 = 2*_x16*_x62*(2*d_n + d_r + d_v) - 2*_x266*(_x55 + _x7 + r_q) + _x270*_x65 + 6*_x55 + _x93*drop
    _x272 = _x34 + _x86
    _x273 = -_x105*(_x112*_x129*_x70 + _x163)
    _x274 = _x121*_x130*(8*eager + 1)
    _x275 = _x174*_x62*(_x18*_x2 + _x9)
    _x276 = _x1*_x270*h + _x17*_x60*is_mla - _x62*has_qlora*(_x2*r_q + _x9)
    _x277 = _x233*_x234 + _x254
    _x278 = _x267*_x34
    _x279 = -_x272*has_qlora*is_mla
    _x280 = _x135*_x77
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
        _x77*(4*_x52*flash - 2*_x53 + _x58 + _x76),
        _x81,
        _x77*(_x57 + _x85),
        _x77*_x92,
        _x94,
        _x96*b_l,
        _x97*_x98,
        _x100,
        _x101,
        _x77*_x84,
        _x103*n_m*(_x102 + _x34),
        -_x103*_x21*_x31,
        -_x104*_x105,
        _x106*n_m,
        _x101*(_x54*(E + _x107*_x27) + _x87),
        _x109,
        _x114,
        _x77*(_x111 + _x118),
        _x126,
        8*_x123*_x127,
        -_x112*_x80,
        3*_x178,
        _x114*_x179 - 3*_x164 + 3*_x175 + 3*_x176 + _x224,
        _x178,
        _x177 + _x225 + _x226,
        30*_x130*_x95 + 3*reduce(maximum, [_x135*(_x108 + _x133 + _x96), _x109*_x151/reduce(maximum, [_x228/ceil(_x228), _x230/ceil(_x230), _x231/ceil(_x231)])]),
        _x224,
        _x236,
        _x236,
        4*_x237*(_x239 + alpha),
        3*_x243,
        _x243*n_ag + 3*_x61*q_p2p*reduce(maximum, [0, _x242 + _x244]) + q_agr*(_x61*reduce(maximum, [0, _x100*_x240 + _x246 + alpha]) + reduce(maximum, [0, _x244 + _x247]) + reduce(maximum, [0, _x246 + _x247])),
        _x243*reduce(minimum, [1, n_ag]),
        _x165,
        2*_x248*(_x249 + alpha),
        4*_x251 + 4*_x253,
        2*v*(alpha + _x214/W_pp),
        8*_x234*_x255 + 4*_x254 + _x256,
        _x256 + _x257 + _x260,
        -_x261*_x262,
        -_x261*_x50*(Z_e - 1)/W_edp,
        _x262*(b_r*z_2 + 4*z_3),
        _x263*_x46,
        _x263*_x51,
        _x81,
        _x97,
        _x264,
        _x77*(-_x116*(F*_x265 - _x267*(_x55 + _x82)) - _x245*_x4 + _x269*(-_x267*_x82 + _x54*h*has_qlora*is_mla) + _x271 + _x75 + _x84),
        _x77*_x85,
        _x81,
        _x97,
        _x264,
        _x77*(-_x116*(_x266*(_x34 + _x55) - _x267*_x272) + _x269*(_x265*_x28 - _x267*_x54*(E + h)) + _x271 + _x76 + _x91),
        _x77*(-_x55*(drop + 4) + _x92),
        _x102*_x103,
        _x77*_x88,
        _x273,
        _x274,
        _x275,
        _x131 - _x174*(-_x115*_x132*(_x266 + 1) + _x132*_x268 + _x276) + _x257,
        _x117*_x134*_x135 + _x160 + _x277,
        _x273,
        _x274,
        _x275,
        -_x174*(-_x115*h*(-2*_x278 - _x279) + _x268*h*(-_x278 - _x279) + _x276) + _x225 + _x237*_x239 + _x258 + _x259 + _x277,
        _x205 + _x212 + _x226 + _x260 + _x280*(_x119 + _x120 + _x123*_x57 + 10*_x86),
        _x120*_x280,
        E_s*(F_s*_x117*_x280*_x31 + _x222)]

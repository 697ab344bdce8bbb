# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ulysses', 'X_ep', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_wq', 'q_8', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_m, n_wq, q_8, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
    _x0 = 2*d_h
    _x1 = is_mla - 1
    _x2 = _x1*d_h
    _x3 = d_n + d_r
    _x4 = _x3*is_mla
    _x5 = _x2 - _x4
    _x6 = _x5*a
    _x7 = 2*h
    _x8 = d_r + r_kv
    _x9 = d_n + d_v
    _x10 = _x9*r_kv
    _x11 = _x2*_x7*g - is_mla*(_x10*a + _x8*h + r_kv)
    _x12 = a*h
    _x13 = _x12*_x2
    _x14 = d_v*is_mla
    _x15 = -_x14 + _x2
    _x16 = _x3*a
    _x17 = has_qlora - 1
    _x18 = _x17*h
    _x19 = has_qlora*r_q
    _x20 = _x16*_x18 - _x19*(_x16 + h + 1)
    _x21 = _x12*_x15 + _x13 + _x20*is_mla
    _x22 = _x11 + _x21
    _x23 = h*n_m
    _x24 = n_m - 1
    _x25 = F*_x24
    _x26 = F*_x23 + lin_bias*(_x25 + h)
    _x27 = E*h
    _x28 = F_e*n_m
    _x29 = E_s*F_s
    _x30 = V*h
    _x31 = ln_bias + 1
    _x32 = t**(-1.0)
    _x33 = _x32*is_mla
    _x34 = t_g**(-1.0)
    _x35 = _x29*_x32
    _x36 = M_e**(-1.0)
    _x37 = t_e**(-1.0)
    _x38 = F_e*_x37
    _x39 = z_2 - 1
    _x40 = _x39*b_g
    _x41 = Z_d**(-1.0)
    _x42 = _x41*z_1
    _x43 = 2*z_1
    _x44 = _x43 + z_3 - 3
    _x45 = 2*mu
    _x46 = 1 - z_1
    _x47 = _x42 + _x46
    _x48 = 4*mu - 12
    _x49 = 1 - z_3
    _x50 = 2*mu - 2
    _x51 = Z_e**(-1.0)
    _x52 = _x46 + _x51*z_1
    _x53 = _x32*a
    _x54 = t_s**(-1.0)
    _x55 = _x54*h
    _x56 = _x55*drop
    _x57 = 4*_x55
    _x58 = _x56 + _x57
    _x59 = 2*_x53
    _x60 = -_x15
    _x61 = _x53*d_v + _x8
    _x62 = _x34*g
    _x63 = _x2*_x62
    _x64 = c**(-1.0)
    _x65 = S*_x64
    _x66 = _x53*_x65
    _x67 = flash - 1
    _x68 = _x67*(3*drop + 2)
    _x69 = _x55*(s_8 - 2) - 4*_x63 - _x66*_x68 + 2*is_mla*(_x16*_x32 + _x19 + _x61)
    _x70 = -_x5*_x59 + _x53*_x60*s_8 + _x69
    _x71 = _x65*b
    _x72 = S**2*_x53*b
    _x73 = _x72/c**2
    _x74 = -_x68*_x73
    _x75 = _x54*_x7
    _x76 = F*_x32
    _x77 = h*s_8
    _x78 = _x25*_x32
    _x79 = 2*_x78
    _x80 = _x54*_x77 + _x76*s_8 + _x79
    _x81 = E*_x54
    _x82 = _x35*n_m
    _x83 = 2*_x82
    _x84 = _x24*_x38
    _x85 = K*imb_mem
    _x86 = _x54*_x85
    _x87 = 4*_x81 + _x83 + _x86*t_e*(_x38*s_8 + _x7 + _x77 + 2*_x84)
    _x88 = _x58 + _x87
    _x89 = _x71*_x75
    _x90 = V*_x32
    _x91 = _x71*_x90
    _x92 = _x57*_x71
    _x93 = _x85*t_e
    _x94 = _x33*a
    _x95 = _x94*(_x9 + d_r)
    _x96 = 2*_x2
    _x97 = _x71*(-_x62*_x96 + _x95)
    _x98 = _x7*_x71
    _x99 = 2*_x76
    _x100 = _x99*n_m
    _x101 = F_e*_x86
    _x102 = 2*_x71
    _x103 = (flash - 2)*(_x14 + _x4 - _x96)
    _x104 = _x64*_x72
    _x105 = _x76*_x98
    _x106 = K*imb
    _x107 = _x30*_x32
    _x108 = _x102*_x107
    _x109 = drop + 32*eager + 10
    _x110 = _x109*_x55
    _x111 = _x15*_x53
    _x112 = _x67*(5*drop + 4)
    _x113 = -_x112*_x66 + 4*eager*(-_x111 - _x2*_x32*(a + g)*(reduce(minimum, [1, a - g]) + 5) + 5*d_r*is_mla*(_x53 + 1))
    _x114 = _x71*(_x110 + _x113)
    _x115 = n_m - 2
    _x116 = 2*_x115
    _x117 = _x116*eager + n_m
    _x118 = _x117*_x99
    _x119 = _x117*_x35
    _x120 = _x101*_x117
    _x121 = E*_x36
    _x122 = _x93*(reduce(maximum, [0, reduce(minimum, [1, _x121 - 1])]) + 1)
    _x123 = 8*_x122
    _x124 = 2*_x119 + 2*_x120 + _x123*_x55 + 20*_x81
    _x125 = _x71*(_x110 + _x124)
    _x126 = _x55*_x71
    _x127 = Pk**(-1.0)
    _x128 = c_r**(-1.0)
    _x129 = S*_x128
    _x130 = _x103*_x127/(_x129*eta_a*flash/(L_a0 + _x129) - _x67*eta)
    _x131 = _x104*_x130
    _x132 = -3*_x131
    _x133 = W_hbm**(-1.0)
    _x134 = _x109*_x75 + _x113
    _x135 = _x118 + _x134
    _x136 = 3*_x71
    _x137 = f_8 - 1
    _x138 = _x71*h
    _x139 = _x76*h
    _x140 = _x71*_x76
    _x141 = _x139 + _x140
    _x142 = 2*_x133
    _x143 = _x127/eta
    _x144 = T_m**(-1.0)
    _x145 = reduce(maximum, [1, h])
    _x146 = ceil(_x144*_x145)
    _x147 = N_sm**(-1.0)
    _x148 = T_n**(-1.0)
    _x149 = reduce(maximum, [1, _x71])
    _x150 = _x147*ceil(_x148*_x149)
    _x151 = _x146*_x150
    _x152 = _x145*_x148
    _x153 = ceil(_x152)
    _x154 = _x147*ceil(_x144*_x149)
    _x155 = _x153*_x154
    _x156 = ceil(2*_x152)
    _x157 = _x154*_x156
    _x158 = reduce(maximum, [_x151/ceil(_x151), _x155/ceil(_x155), _x157/ceil(_x157)])**(-1.0)
    _x159 = _x105*_x158
    _x160 = _x71*_x78
    _x161 = _x138 + _x78*h
    _x162 = _x143*_x98
    _x163 = reduce(maximum, [1, _x78])
    _x164 = _x150*ceil(_x144*_x163)
    _x165 = _x148*_x163
    _x166 = _x154*ceil(_x165)
    _x167 = _x154*ceil(2*_x165)
    _x168 = _x78/reduce(maximum, [_x164/ceil(_x164), _x166/ceil(_x166), _x167/ceil(_x167)])
    _x169 = reduce(maximum, [_x143*_x159, _x142*(_x138 + _x141)]) + reduce(maximum, [_x162*_x168, _x142*(_x160 + _x161)])
    _x170 = _x32*(_x11 + _x13 + _x20*is_mla)
    _x171 = _x170/h
    _x172 = _x171*_x71
    _x173 = -S*_x64*b*h
    _x174 = _x170 + _x173
    _x175 = reduce(maximum, [1, -_x171])
    _x176 = _x148*_x175
    _x177 = _x154*ceil(_x176)
    _x178 = _x150*ceil(_x144*_x175)
    _x179 = _x154*ceil(2*_x176)
    _x180 = _x102*_x170/reduce(maximum, [_x177/ceil(_x177), _x178/ceil(_x178), _x179/ceil(_x179)])
    _x181 = _x111*_x71
    _x182 = _x111*h + _x181
    _x183 = _x143*_x158
    _x184 = _x111*_x98
    _x185 = reduce(maximum, [-_x143*_x180, _x142*(-_x172 - _x174)]) + reduce(maximum, [-_x183*_x184, _x142*(-_x173 - _x182)])
    _x186 = _x137*(_x169 + _x185)
    _x187 = _x133*(_x141 + _x98)
    _x188 = 1/(Pk_8*eta_8)
    _x189 = _x159*_x188
    _x190 = reduce(maximum, [_x187, _x189])
    _x191 = _x133*(_x161 + _x71*_x79)
    _x192 = _x188*_x98
    _x193 = _x168*_x192
    _x194 = reduce(maximum, [_x191, _x193])
    _x195 = h*n_wq
    _x196 = _x115*h
    _x197 = _x71*s_x
    _x198 = _x139*n_wq + _x140 + _x195*_x78 + _x196*_x197
    _x199 = _x1*s_x
    _x200 = _x199 + 1
    _x201 = _x53*d_h
    _x202 = _x0*_x62
    _x203 = -_x111*_x195 - _x181 - _x199*h*(_x136 + _x201*n_wq + _x202*n_wq) + _x200*(_x138 - _x170*n_wq)
    _x204 = -_x172*_x200 - _x197*_x2*(_x53 + 2*_x62)
    _x205 = _x133*q_8
    _x206 = w_8**(-1.0)
    _x207 = _x133*(2*S*_x64*b*h - _x182)
    _x208 = _x158*_x188
    _x209 = _x184*_x208
    _x210 = reduce(maximum, [_x207, -_x209])
    _x211 = _x133*(-_x102*_x171 - _x174)
    _x212 = _x180*_x188
    _x213 = reduce(maximum, [_x211, -_x212])
    _x214 = _x62*d_h
    _x215 = _x133*(_x138 + _x202*_x71 + _x214*h)
    _x216 = reduce(maximum, [1, _x214])
    _x217 = _x148*_x216
    _x218 = _x154*ceil(_x217)
    _x219 = _x150*ceil(_x144*_x216)
    _x220 = _x154*ceil(2*_x217)
    _x221 = _x192*_x214/reduce(maximum, [_x218/ceil(_x218), _x219/ceil(_x219), _x220/ceil(_x220)])
    _x222 = _x133*(_x0*_x53*_x71 + _x138 + _x201*h)
    _x223 = reduce(maximum, [1, _x201])
    _x224 = _x148*_x223
    _x225 = _x154*ceil(_x224)
    _x226 = _x150*ceil(_x144*_x223)
    _x227 = _x154*ceil(2*_x224)
    _x228 = _x192*_x201/reduce(maximum, [_x225/ceil(_x225), _x226/ceil(_x226), _x227/ceil(_x227)])
    _x229 = 2*reduce(maximum, [_x215, _x221]) + reduce(maximum, [_x222, _x228])
    _x230 = -_x199*_x229 + _x200*_x213
    _x231 = -_x199*(_x229 + 2*reduce(maximum, [_x215, _x206*_x221]) + reduce(maximum, [_x222, _x206*_x228])) + _x200*(_x213 + reduce(maximum, [_x211, -_x206*_x212])) + 2*_x210 + _x230 + reduce(maximum, [_x207, -_x206*_x209])
    _x232 = _x35*h
    _x233 = _x35*_x71
    _x234 = _x232 + _x233
    _x235 = _x133*(_x234 + _x98)
    _x236 = _x32*_x98
    _x237 = F_s*_x236
    _x238 = _x208*_x237
    _x239 = _x24*_x35
    _x240 = _x138 + _x232*_x24
    _x241 = _x133*(_x102*_x239 + _x240)
    _x242 = reduce(maximum, [1, _x239])
    _x243 = _x148*_x242
    _x244 = _x154*ceil(_x243)
    _x245 = _x150*ceil(_x144*_x242)
    _x246 = _x154*ceil(2*_x243)
    _x247 = _x237*_x24/reduce(maximum, [_x244/ceil(_x244), _x245/ceil(_x245), _x246/ceil(_x246)])
    _x248 = _x188*_x247
    _x249 = reduce(maximum, [_x235, _x238]) + reduce(maximum, [_x241, _x248])
    _x250 = E_s*_x249
    _x251 = reduce(maximum, [1, E])
    _x252 = _x106/_x251
    _x253 = M_e*_x252
    _x254 = _x253*t_e
    _x255 = _x38*h
    _x256 = _x54*_x71
    _x257 = _x253*_x256
    _x258 = F_e*_x257
    _x259 = _x255 + _x258
    _x260 = _x121*_x133
    _x261 = _x260*(_x254*_x89 + _x259)
    _x262 = _x106*_x89
    _x263 = _x188*_x262
    _x264 = _x257*t_e
    _x265 = reduce(maximum, [1, _x264])
    _x266 = _x147*reduce(maximum, [1, _x121])
    _x267 = _x266*ceil(_x148*_x265)
    _x268 = _x146*_x267
    _x269 = _x266*ceil(_x144*_x265)
    _x270 = _x153*_x269
    _x271 = _x156*_x269
    _x272 = F_e/reduce(maximum, [_x268/ceil(_x268), _x270/ceil(_x270), _x271/ceil(_x271)])
    _x273 = _x263*_x272
    _x274 = reduce(maximum, [_x261, _x273])
    _x275 = _x24*_x258
    _x276 = _x126*_x254
    _x277 = _x24*_x255 + _x276
    _x278 = _x260*(2*_x275 + _x277)
    _x279 = reduce(maximum, [1, _x84])
    _x280 = _x267*ceil(_x144*_x279)
    _x281 = _x148*_x279
    _x282 = _x269*ceil(_x281)
    _x283 = _x269*ceil(2*_x281)
    _x284 = F_e*_x24
    _x285 = _x284/reduce(maximum, [_x280/ceil(_x280), _x282/ceil(_x282), _x283/ceil(_x283)])
    _x286 = _x263*_x285
    _x287 = reduce(maximum, [_x278, _x286])
    _x288 = _x71*_x81
    _x289 = _x252*t_e
    _x290 = _x256*_x27*_x289
    _x291 = _x115*s_x
    _x292 = F_e*(_x195*_x37 + _x257)
    _x293 = _x36*(_x264 + _x84*n_wq)
    _x294 = _x138 + _x195*_x239 + _x195*_x35 + _x233
    _x295 = E_s*_x294 + _x121*_x292 + _x27*_x293 + _x290*_x291
    _x296 = _x203 + _x295
    _x297 = reduce(maximum, [_x143*_x247, _x142*(_x239*_x71 + _x240)]) + reduce(maximum, [_x183*_x237, _x142*(_x138 + _x234)])
    _x298 = E_s*_x297
    _x299 = reduce(maximum, [1, _x256])
    _x300 = _x147*ceil(_x144*_x251)*ceil(_x148*_x299)
    _x301 = _x148*_x251
    _x302 = _x147*ceil(_x144*_x299)
    _x303 = _x302*ceil(_x301)
    _x304 = _x302*ceil(2*_x301)
    _x305 = reduce(maximum, [_x142*(_x126 + _x27 + _x288), _x162*_x81/reduce(maximum, [_x300/ceil(_x300), _x303/ceil(_x303), _x304/ceil(_x304)])])
    _x306 = _x121*_x142
    _x307 = _x143*_x262
    _x308 = reduce(maximum, [_x272*_x307, _x306*(_x259 + _x276)])
    _x309 = reduce(maximum, [_x285*_x307, _x306*(_x275 + _x277)])
    _x310 = _x308 + _x309
    _x311 = _x298 + _x305 + _x310
    _x312 = _x137*(_x185 + _x311)
    _x313 = _x305*f_8
    _x314 = 3*_x133
    _x315 = _x126*_x133
    _x316 = -_x123*_x315 + _x125*_x314
    _x317 = -_x131
    _x318 = _x133*_x71
    _x319 = _x135*_x318
    _x320 = _x138 + _x198
    _x321 = _x190 + _x194
    _x322 = _x210 + _x230
    _x323 = _x318*(_x124 + _x134)
    _x324 = _x274 + _x287
    _x325 = _x250 + _x324
    _x326 = reduce(maximum, [1, _x90])
    _x327 = _x150*ceil(_x144*_x326)
    _x328 = _x148*_x326
    _x329 = _x154*ceil(_x328)
    _x330 = _x154*ceil(2*_x328)
    _x331 = t - 1
    _x332 = 2*alpha
    _x333 = _x32/W_tp
    _x334 = _x138*_x333
    _x335 = 4*_x334
    _x336 = _x334*a_8
    _x337 = 2*_x331*(_x332 + _x335 - _x336)
    _x338 = t_e - 1
    _x339 = _x85/W_etp
    _x340 = _x339*_x89
    _x341 = alpha + 2*_x97/W_cr
    _x342 = 3*c_r - 3
    _x343 = c_u - 1
    _x344 = _x32*_x6
    _x345 = 4*_x71*(_x32*a*d_v*is_mla - _x344 - _x63)/(W_cu*c_u)
    _x346 = M_e - 1
    _x347 = _x262*_x346*_x36
    _x348 = reduce(maximum, [_x347*f_off/W_eout, -_x347*(f_off - 1)/W_ein])
    _x349 = _x331*alpha
    _x350 = _x331*_x333*_x98
    _x351 = _x343*_x345 + _x343*alpha
    _x352 = _x331*_x336
    _x353 = _x331*_x332 + _x331*_x335 - _x352
    _x354 = _x332*_x346 + 2*_x348
    _x355 = _x332*_x338 + _x338*_x339*_x92 + _x354
    _x356 = _x39*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x357 = _x41*(Z_d - 1)/W_dpcp
    _x358 = _x133*(b_g + 26)
    _x359 = _x102*_x95
    _x360 = _x33*has_qlora
    _x361 = has_qlora*is_mla
    _x362 = _x361 - 1
    _x363 = n_m - 3
    _x364 = 2*_x363
    _x365 = _x53 + _x62
    _x366 = 2*_x17*_x94*(2*d_n + d_r + d_v) - 2*_x361*(_x55 + _x8 + r_q) + _x365*_x96 + _x75*drop
    _x367 = _x35 + _x81
    _x368 = -_x104*(_x112*_x133*_x64 + _x130)
    _x369 = 8*_x315*(8*eager + 1)
    _x370 = _x188*f_8
    _x371 = _x137*_x143
    _x372 = _x102*_x94*(_x10 + _x19*_x3)*(_x370 - _x371)
    _x373 = _x18*_x61*is_mla + _x2*_x365*h - _x94*has_qlora*(_x10 + _x3*r_q)
    _x374 = _x102*(-_x115*_x139*(_x361 + 1) + _x139*_x363 + _x373)
    _x375 = _x349 + _x350 - 1/2*_x352
    _x376 = _x35*_x362
    _x377 = -_x367*has_qlora*is_mla
    _x378 = _x102*(-_x196*(-2*_x376 - _x377) + _x363*h*(-_x376 - _x377) + _x373)
    _x379 = _x142*_x71
    return [
        -_x22 + 2*d_h*qk_norm + lin_bias*(_x0*g - _x6 + h),
        _x26,
        _x27*_x28,
        _x23*_x29,
        E*(h + router_bias),
        _x30,
        -_x30*(tied - 1),
        _x31*h,
        h*(_x7 + 3*ln_bias + 3),
        -_x11*(-_x1*_x34 + _x33) - _x21*_x32 + 2*_x31*h,
        _x26*_x32,
        E*router_bias + _x23*_x35 + _x27,
        _x27*_x36*_x38*n_m,
        -_x40 + _x41*b_g*z_2 - _x45*(-2*_x42 + _x44) - _x47*_x48 - _x50*(_x41*z_3 + _x49),
        -_x40 - _x45*(-_x43*_x51 + _x44) - _x48*_x52 - _x50*(_x49 + _x51*z_3) + _x51*b_g*z_2,
        _x71*(4*_x53*flash + _x58 + _x70),
        _x74,
        _x71*(_x56 + _x75 + _x80),
        _x71*_x88,
        _x89,
        _x91*b_l,
        _x92*_x93,
        4*_x97,
        _x98,
        _x100*_x71,
        _x102*n_m*(_x101 + _x35),
        -_x102*_x22*_x32,
        -_x103*_x104,
        _x105*n_m,
        _x98*(_x54*(E + _x106*_x28) + _x82),
        _x108,
        _x114,
        _x71*(_x110 + _x118),
        _x125,
        _x123*_x126,
        -_x112*_x73,
        _x132 + _x133*_x135*_x136 - 3*_x186 + f_8*(2*_x190 + 2*_x194 + _x205*(3*_x138 + _x160 + _x198 + _x203 + _x204) + _x231 + reduce(maximum, [_x187, _x189*_x206]) + reduce(maximum, [_x191, _x193*_x206])),
        _x114*_x314 + _x132 - 3*_x312 + 3*_x313 + _x316 + f_8*(E_s*(_x249 + reduce(maximum, [_x235, _x206*_x238]) + reduce(maximum, [_x241, _x206*_x248])) + _x205*(E_s*_x71*(_x239 + h) + _x138 + _x204 + _x252*_x284*_x288 + _x290 + _x296) + _x231 + _x250 + 2*_x274 + 2*_x287 + reduce(maximum, [_x261, _x206*_x273]) + reduce(maximum, [_x278, _x206*_x286])),
        -_x186 + _x317 + _x319 + f_8*(_x205*(_x203 + _x320) + _x321 + _x322),
        -_x312 + _x313 + _x317 + _x323 + f_8*(_x205*_x296 + _x322 + _x325),
        30*_x318*_x90 + 3*reduce(maximum, [_x142*(_x107 + _x138 + _x91), _x108*_x143/reduce(maximum, [_x327/ceil(_x327), _x329/ceil(_x329), _x330/ceil(_x330)])]),
        3*_x298 + 3*_x305 + 3*_x308 + 3*_x309 + _x316,
        _x337,
        _x337,
        4*_x338*(_x340 + alpha),
        _x341*_x342,
        _x342*reduce(maximum, [0, _x128*_x131 + _x341]),
        2*_x343*(_x345 + alpha),
        4*_x346*alpha + 4*_x348,
        2*v*(alpha + _x236/W_pp),
        8*_x331*_x334 + 4*_x349 - _x350*a_8 + _x351,
        _x351 + _x353 + _x355,
        -_x356*_x357,
        -_x356*_x51*(Z_e - 1)/W_edp,
        _x357*(b_r*z_2 + 4*z_3),
        _x358*_x47,
        _x358*_x52,
        _x74,
        _x92,
        _x359,
        _x71*(-_x116*(F*_x360 - _x362*(_x55 + _x76)) + _x364*(-_x362*_x76 + _x54*h*has_qlora*is_mla) + _x366 + _x57 - _x59*_x60 + _x70 + _x80),
        _x71*(_x100 + _x56),
        _x74,
        _x92,
        _x359,
        _x71*(-_x111*s_8 + 2*_x111 - _x116*(_x361*(_x35 + _x55) - _x362*_x367) - 2*_x344 + _x364*(_x29*_x360 - _x362*_x54*(E + h)) + _x366 + 6*_x55 + _x69 + _x87),
        _x71*(-_x55*(drop + 4) + _x88),
        _x101*_x102,
        _x71*_x83,
        _x368,
        _x369,
        _x372,
        _x319 + _x353 - _x370*_x374 + _x371*_x374,
        _x117*_x140*_x142 - _x137*_x169 + _x375 + f_8*(_x205*_x320 + _x321),
        _x368,
        _x369,
        _x372,
        -_x137*_x310 + _x323 + _x338*_x340 + _x338*alpha + _x354 - _x370*_x378 + _x371*_x378 + _x375 + f_8*(E*_x205*(_x126*_x289*_x291 + _x292*_x36 + _x293*h) + _x324),
        -_x137*_x311 + _x313 + _x355 + _x379*(_x119 + _x120 + _x122*_x57 + 10*_x81) + f_8*(_x205*_x295 + _x325),
        _x120*_x379,
        E_s*(F_s*_x117*_x32*_x379 - _x137*_x297 + f_8*(_x205*_x294 + _x249))]

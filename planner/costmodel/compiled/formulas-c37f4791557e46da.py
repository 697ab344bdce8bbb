# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_wq', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_ag, n_m, n_wq, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
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
    _x59 = _x32*_x6
    _x60 = _x15*_x53
    _x61 = _x53*d_v + _x8
    _x62 = c_r - 1
    _x63 = _x33*a
    _x64 = _x63*(_x9 + d_r)
    _x65 = _x34*g
    _x66 = 2*_x2
    _x67 = _x64 - _x65*_x66
    _x68 = 2*_x67
    _x69 = _x62*_x68
    _x70 = _x2*_x65
    _x71 = c**(-1.0)
    _x72 = S*_x71
    _x73 = _x53*_x72
    _x74 = flash - 1
    _x75 = _x74*(3*drop + 2)
    _x76 = _x55*(s_8 - 2) + _x69*q_sv - 4*_x70 - _x73*_x75 + 2*is_mla*(_x16*_x32 + _x19 + _x61)
    _x77 = -2*_x59 - _x60*s_8 + _x76
    _x78 = _x72*b
    _x79 = S**2
    _x80 = _x53*_x79*b
    _x81 = _x80/c**2
    _x82 = -_x75*_x81
    _x83 = _x54*_x7
    _x84 = F*_x32
    _x85 = h*s_8
    _x86 = _x25*_x32
    _x87 = 2*_x86
    _x88 = _x54*_x85 + _x84*s_8 + _x87
    _x89 = E*_x54
    _x90 = _x35*n_m
    _x91 = 2*_x90
    _x92 = _x24*_x38
    _x93 = K*imb_mem
    _x94 = _x54*_x93
    _x95 = 4*_x89 + _x91 + _x94*t_e*(_x38*s_8 + _x7 + _x85 + 2*_x92)
    _x96 = _x58 + _x95
    _x97 = _x78*_x83
    _x98 = V*_x32
    _x99 = _x78*_x98
    _x100 = _x57*_x78
    _x101 = _x93*t_e
    _x102 = 4*_x78
    _x103 = _x102*_x67
    _x104 = _x7*_x78
    _x105 = 2*_x84
    _x106 = _x105*n_m
    _x107 = F_e*_x94
    _x108 = 2*_x78
    _x109 = (flash - 2)*(_x14 + _x4 - _x66)
    _x110 = _x71*_x80
    _x111 = _x104*_x84
    _x112 = K*imb
    _x113 = _x30*_x32
    _x114 = _x108*_x113
    _x115 = drop + 32*eager + 10
    _x116 = _x115*_x55
    _x117 = _x74*(5*drop + 4)
    _x118 = -_x117*_x73 + 4*eager*(-_x2*_x32*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x60 + 5*d_r*is_mla*(_x53 + 1))
    _x119 = _x78*(_x116 + _x118)
    _x120 = n_m - 2
    _x121 = 2*_x120
    _x122 = _x121*eager + n_m
    _x123 = _x105*_x122
    _x124 = _x122*_x35
    _x125 = _x107*_x122
    _x126 = E*_x36
    _x127 = _x101*(reduce(maximum, [0, reduce(minimum, [1, _x126 - 1])]) + 1)
    _x128 = 8*_x127
    _x129 = 2*_x124 + 2*_x125 + _x128*_x55 + 20*_x89
    _x130 = _x78*(_x116 + _x129)
    _x131 = _x55*_x78
    _x132 = Pk**(-1.0)
    _x133 = c_r**(-1.0)
    _x134 = S*_x133
    _x135 = _x109*_x132*(_x133*_x62*c_b + 1)/(_x134*eta_a*flash/(L_a0 + _x134) - _x74*eta)
    _x136 = _x110*_x135
    _x137 = -3*_x136
    _x138 = W_hbm**(-1.0)
    _x139 = _x115*_x83 + _x118
    _x140 = _x123 + _x139
    _x141 = 3*_x78
    _x142 = f_8 - 1
    _x143 = _x78*h
    _x144 = _x84*h
    _x145 = _x78*_x84
    _x146 = _x144 + _x145
    _x147 = 2*_x138
    _x148 = _x132/eta
    _x149 = T_m**(-1.0)
    _x150 = reduce(maximum, [1, h])
    _x151 = ceil(_x149*_x150)
    _x152 = N_sm**(-1.0)
    _x153 = T_n**(-1.0)
    _x154 = reduce(maximum, [1, _x78])
    _x155 = _x152*ceil(_x153*_x154)
    _x156 = _x151*_x155
    _x157 = _x150*_x153
    _x158 = ceil(_x157)
    _x159 = _x152*ceil(_x149*_x154)
    _x160 = _x158*_x159
    _x161 = ceil(2*_x157)
    _x162 = _x159*_x161
    _x163 = reduce(maximum, [_x156/ceil(_x156), _x160/ceil(_x160), _x162/ceil(_x162)])**(-1.0)
    _x164 = _x111*_x163
    _x165 = _x78*_x86
    _x166 = _x143 + _x86*h
    _x167 = _x104*_x148
    _x168 = reduce(maximum, [1, _x86])
    _x169 = _x155*ceil(_x149*_x168)
    _x170 = _x153*_x168
    _x171 = _x159*ceil(_x170)
    _x172 = _x159*ceil(2*_x170)
    _x173 = _x86/reduce(maximum, [_x169/ceil(_x169), _x171/ceil(_x171), _x172/ceil(_x172)])
    _x174 = reduce(maximum, [_x148*_x164, _x147*(_x143 + _x146)]) + reduce(maximum, [_x167*_x173, _x147*(_x165 + _x166)])
    _x175 = _x32*(_x11 + _x13 + _x20*is_mla)
    _x176 = _x175/h
    _x177 = _x176*_x78
    _x178 = -S*_x71*b*h
    _x179 = _x175 + _x178
    _x180 = reduce(maximum, [1, -_x176])
    _x181 = _x153*_x180
    _x182 = _x159*ceil(_x181)
    _x183 = _x155*ceil(_x149*_x180)
    _x184 = _x159*ceil(2*_x181)
    _x185 = _x108*_x175/reduce(maximum, [_x182/ceil(_x182), _x183/ceil(_x183), _x184/ceil(_x184)])
    _x186 = _x60*_x78
    _x187 = _x186 + _x60*h
    _x188 = _x148*_x163
    _x189 = _x104*_x60
    _x190 = reduce(maximum, [-_x148*_x185, _x147*(-_x177 - _x179)]) + reduce(maximum, [-_x188*_x189, _x147*(-_x178 - _x187)])
    _x191 = _x142*(_x174 + _x190)
    _x192 = _x138*(_x104 + _x146)
    _x193 = 1/(Pk_8*eta_8)
    _x194 = _x164*_x193
    _x195 = reduce(maximum, [_x192, _x194])
    _x196 = _x138*(_x166 + _x78*_x87)
    _x197 = _x104*_x193
    _x198 = _x173*_x197
    _x199 = reduce(maximum, [_x196, _x198])
    _x200 = h*n_wq
    _x201 = _x120*h
    _x202 = _x78*s_x
    _x203 = _x144*n_wq + _x145 + _x200*_x86 + _x201*_x202
    _x204 = _x1*s_x
    _x205 = _x204 + 1
    _x206 = _x53*d_h
    _x207 = _x0*_x65
    _x208 = -_x186 - _x200*_x60 - _x204*h*(_x141 + _x206*n_wq + _x207*n_wq) + _x205*(_x143 - _x175*n_wq)
    _x209 = -_x177*_x205 - _x2*_x202*(_x53 + 2*_x65)
    _x210 = _x138*q_8
    _x211 = w_8**(-1.0)
    _x212 = _x138*(2*S*_x71*b*h - _x187)
    _x213 = _x163*_x193
    _x214 = _x189*_x213
    _x215 = reduce(maximum, [_x212, -_x214])
    _x216 = _x138*(-_x108*_x176 - _x179)
    _x217 = _x185*_x193
    _x218 = reduce(maximum, [_x216, -_x217])
    _x219 = _x65*d_h
    _x220 = _x138*(_x143 + _x207*_x78 + _x219*h)
    _x221 = reduce(maximum, [1, _x219])
    _x222 = _x153*_x221
    _x223 = _x159*ceil(_x222)
    _x224 = _x155*ceil(_x149*_x221)
    _x225 = _x159*ceil(2*_x222)
    _x226 = _x197*_x219/reduce(maximum, [_x223/ceil(_x223), _x224/ceil(_x224), _x225/ceil(_x225)])
    _x227 = _x138*(_x0*_x53*_x78 + _x143 + _x206*h)
    _x228 = reduce(maximum, [1, _x206])
    _x229 = _x153*_x228
    _x230 = _x159*ceil(_x229)
    _x231 = _x155*ceil(_x149*_x228)
    _x232 = _x159*ceil(2*_x229)
    _x233 = _x197*_x206/reduce(maximum, [_x230/ceil(_x230), _x231/ceil(_x231), _x232/ceil(_x232)])
    _x234 = 2*reduce(maximum, [_x220, _x226]) + reduce(maximum, [_x227, _x233])
    _x235 = -_x204*_x234 + _x205*_x218
    _x236 = -_x204*(_x234 + 2*reduce(maximum, [_x220, _x211*_x226]) + reduce(maximum, [_x227, _x211*_x233])) + _x205*(_x218 + reduce(maximum, [_x216, -_x211*_x217])) + 2*_x215 + _x235 + reduce(maximum, [_x212, -_x211*_x214])
    _x237 = _x35*h
    _x238 = _x35*_x78
    _x239 = _x237 + _x238
    _x240 = _x138*(_x104 + _x239)
    _x241 = _x104*_x32
    _x242 = F_s*_x241
    _x243 = _x213*_x242
    _x244 = _x24*_x35
    _x245 = _x143 + _x237*_x24
    _x246 = _x138*(_x108*_x244 + _x245)
    _x247 = reduce(maximum, [1, _x244])
    _x248 = _x153*_x247
    _x249 = _x159*ceil(_x248)
    _x250 = _x155*ceil(_x149*_x247)
    _x251 = _x159*ceil(2*_x248)
    _x252 = _x24*_x242/reduce(maximum, [_x249/ceil(_x249), _x250/ceil(_x250), _x251/ceil(_x251)])
    _x253 = _x193*_x252
    _x254 = reduce(maximum, [_x240, _x243]) + reduce(maximum, [_x246, _x253])
    _x255 = E_s*_x254
    _x256 = reduce(maximum, [1, E])
    _x257 = _x112/_x256
    _x258 = M_e*_x257
    _x259 = _x258*t_e
    _x260 = _x38*h
    _x261 = _x54*_x78
    _x262 = _x258*_x261
    _x263 = F_e*_x262
    _x264 = _x260 + _x263
    _x265 = _x126*_x138
    _x266 = _x265*(_x259*_x97 + _x264)
    _x267 = _x112*_x97
    _x268 = _x193*_x267
    _x269 = _x262*t_e
    _x270 = reduce(maximum, [1, _x269])
    _x271 = _x152*reduce(maximum, [1, _x126])
    _x272 = _x271*ceil(_x153*_x270)
    _x273 = _x151*_x272
    _x274 = _x271*ceil(_x149*_x270)
    _x275 = _x158*_x274
    _x276 = _x161*_x274
    _x277 = F_e/reduce(maximum, [_x273/ceil(_x273), _x275/ceil(_x275), _x276/ceil(_x276)])
    _x278 = _x268*_x277
    _x279 = reduce(maximum, [_x266, _x278])
    _x280 = _x24*_x263
    _x281 = _x131*_x259
    _x282 = _x24*_x260 + _x281
    _x283 = _x265*(2*_x280 + _x282)
    _x284 = reduce(maximum, [1, _x92])
    _x285 = _x272*ceil(_x149*_x284)
    _x286 = _x153*_x284
    _x287 = _x274*ceil(_x286)
    _x288 = _x274*ceil(2*_x286)
    _x289 = F_e*_x24
    _x290 = _x289/reduce(maximum, [_x285/ceil(_x285), _x287/ceil(_x287), _x288/ceil(_x288)])
    _x291 = _x268*_x290
    _x292 = reduce(maximum, [_x283, _x291])
    _x293 = _x78*_x89
    _x294 = _x257*t_e
    _x295 = _x261*_x27*_x294
    _x296 = _x120*s_x
    _x297 = F_e*(_x200*_x37 + _x262)
    _x298 = _x36*(_x269 + _x92*n_wq)
    _x299 = _x143 + _x200*_x244 + _x200*_x35 + _x238
    _x300 = E_s*_x299 + _x126*_x297 + _x27*_x298 + _x295*_x296
    _x301 = _x208 + _x300
    _x302 = reduce(maximum, [_x148*_x252, _x147*(_x244*_x78 + _x245)]) + reduce(maximum, [_x188*_x242, _x147*(_x143 + _x239)])
    _x303 = E_s*_x302
    _x304 = reduce(maximum, [1, _x261])
    _x305 = _x152*ceil(_x149*_x256)*ceil(_x153*_x304)
    _x306 = _x153*_x256
    _x307 = _x152*ceil(_x149*_x304)
    _x308 = _x307*ceil(_x306)
    _x309 = _x307*ceil(2*_x306)
    _x310 = reduce(maximum, [_x147*(_x131 + _x27 + _x293), _x167*_x89/reduce(maximum, [_x305/ceil(_x305), _x308/ceil(_x308), _x309/ceil(_x309)])])
    _x311 = _x126*_x147
    _x312 = _x148*_x267
    _x313 = reduce(maximum, [_x277*_x312, _x311*(_x264 + _x281)])
    _x314 = reduce(maximum, [_x290*_x312, _x311*(_x280 + _x282)])
    _x315 = _x313 + _x314
    _x316 = _x303 + _x310 + _x315
    _x317 = _x142*(_x190 + _x316)
    _x318 = _x310*f_8
    _x319 = 3*_x138
    _x320 = _x131*_x138
    _x321 = -_x128*_x320 + _x130*_x319
    _x322 = -_x136
    _x323 = _x138*_x78
    _x324 = _x140*_x323
    _x325 = _x143 + _x203
    _x326 = _x195 + _x199
    _x327 = _x215 + _x235
    _x328 = _x323*(_x129 + _x139)
    _x329 = _x279 + _x292
    _x330 = _x255 + _x329
    _x331 = reduce(maximum, [1, _x98])
    _x332 = _x155*ceil(_x149*_x331)
    _x333 = _x153*_x331
    _x334 = _x159*ceil(_x333)
    _x335 = _x159*ceil(2*_x333)
    _x336 = t - 1
    _x337 = 2*alpha
    _x338 = _x32/W_tp
    _x339 = _x143*_x338
    _x340 = 4*_x339
    _x341 = _x339*a_8
    _x342 = 2*_x336*(_x337 + _x340 - _x341)
    _x343 = t_e - 1
    _x344 = _x93/W_etp
    _x345 = _x344*_x97
    _x346 = W_cr**(-1.0)
    _x347 = _x346*_x78
    _x348 = _x347*_x68 + alpha
    _x349 = _x348*_x62
    _x350 = _x133*_x136
    _x351 = 2*_x53
    _x352 = _x133*_x135*_x351*_x71*_x79*b
    _x353 = _x347*_x69 + _x62*alpha
    _x354 = c_u - 1
    _x355 = _x102*(_x32*a*d_v*is_mla - _x59 - _x70)/(W_cu*c_u)
    _x356 = M_e - 1
    _x357 = _x267*_x356*_x36
    _x358 = reduce(maximum, [_x357*f_off/W_eout, -_x357*(f_off - 1)/W_ein])
    _x359 = _x336*alpha
    _x360 = _x104*_x336*_x338
    _x361 = _x354*_x355 + _x354*alpha
    _x362 = _x336*_x341
    _x363 = _x336*_x337 + _x336*_x340 - _x362
    _x364 = _x337*_x356 + 2*_x358
    _x365 = _x100*_x343*_x344 + _x337*_x343 + _x364
    _x366 = _x39*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x367 = _x41*(Z_d - 1)/W_dpcp
    _x368 = _x138*(b_g + 26)
    _x369 = _x108*_x64
    _x370 = _x33*has_qlora
    _x371 = has_qlora*is_mla
    _x372 = _x371 - 1
    _x373 = n_m - 3
    _x374 = 2*_x373
    _x375 = -_x15
    _x376 = _x53 + _x65
    _x377 = 2*_x17*_x63*(2*d_n + d_r + d_v) - 2*_x371*(_x55 + _x8 + r_q) + _x376*_x66 + _x83*drop
    _x378 = _x35 + _x89
    _x379 = -_x110*(_x117*_x138*_x71 + _x135)
    _x380 = 8*_x320*(8*eager + 1)
    _x381 = _x193*f_8
    _x382 = _x142*_x148
    _x383 = _x108*_x63*(_x10 + _x19*_x3)*(_x381 - _x382)
    _x384 = _x18*_x61*is_mla + _x2*_x376*h - _x63*has_qlora*(_x10 + _x3*r_q)
    _x385 = _x108*(-_x120*_x144*(_x371 + 1) + _x144*_x373 + _x384)
    _x386 = _x359 + _x360 - 1/2*_x362
    _x387 = _x35*_x372
    _x388 = -_x378*has_qlora*is_mla
    _x389 = _x108*(-_x201*(-2*_x387 - _x388) + _x373*h*(-_x387 - _x388) + _x384)
    _x390 = _x147*_x78
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
        _x78*(4*_x53*flash + _x58 + _x77),
        _x82,
        _x78*(_x56 + _x83 + _x88),
        _x78*_x96,
        _x97,
        _x99*b_l,
        _x100*_x101,
        _x103,
        _x104,
        _x106*_x78,
        _x108*n_m*(_x107 + _x35),
        -_x108*_x22*_x32,
        -_x109*_x110,
        _x111*n_m,
        _x104*(_x54*(E + _x112*_x28) + _x90),
        _x114,
        _x119,
        _x78*(_x116 + _x123),
        _x130,
        _x128*_x131,
        -_x117*_x81,
        _x137 + _x138*_x140*_x141 - 3*_x191 + f_8*(2*_x195 + 2*_x199 + _x210*(3*_x143 + _x165 + _x203 + _x208 + _x209) + _x236 + reduce(maximum, [_x192, _x194*_x211]) + reduce(maximum, [_x196, _x198*_x211])),
        _x119*_x319 + _x137 - 3*_x317 + 3*_x318 + _x321 + f_8*(E_s*(_x254 + reduce(maximum, [_x240, _x211*_x243]) + reduce(maximum, [_x246, _x211*_x253])) + _x210*(E_s*_x78*(_x244 + h) + _x143 + _x209 + _x257*_x289*_x293 + _x295 + _x301) + _x236 + _x255 + 2*_x279 + 2*_x292 + reduce(maximum, [_x266, _x211*_x278]) + reduce(maximum, [_x283, _x211*_x291])),
        -_x191 + _x322 + _x324 + f_8*(_x210*(_x208 + _x325) + _x326 + _x327),
        -_x317 + _x318 + _x322 + _x328 + f_8*(_x210*_x301 + _x327 + _x330),
        30*_x323*_x98 + 3*reduce(maximum, [_x147*(_x113 + _x143 + _x99), _x114*_x148/reduce(maximum, [_x332/ceil(_x332), _x334/ceil(_x334), _x335/ceil(_x335)])]),
        3*_x303 + 3*_x310 + 3*_x313 + 3*_x314 + _x321,
        _x342,
        _x342,
        4*_x343*(_x345 + alpha),
        3*_x349,
        _x349*n_ag + 3*_x62*q_p2p*reduce(maximum, [0, _x348 + _x350]) + q_agr*(_x62*reduce(maximum, [0, _x103*_x346 + _x352 + alpha]) + reduce(maximum, [0, _x350 + _x353]) + reduce(maximum, [0, _x352 + _x353])),
        _x349*reduce(minimum, [1, n_ag]),
        _x322,
        2*_x354*(_x355 + alpha),
        4*_x356*alpha + 4*_x358,
        2*v*(alpha + _x241/W_pp),
        8*_x336*_x339 + 4*_x359 - _x360*a_8 + _x361,
        _x361 + _x363 + _x365,
        -_x366*_x367,
        -_x366*_x51*(Z_e - 1)/W_edp,
        _x367*(b_r*z_2 + 4*z_3),
        _x368*_x47,
        _x368*_x52,
        _x82,
        _x100,
        _x369,
        _x78*(-_x121*(F*_x370 - _x372*(_x55 + _x84)) - _x351*_x375 - _x351*_x5 + _x374*(-_x372*_x84 + _x54*h*has_qlora*is_mla) + _x375*_x53*s_8 + _x377 + _x57 + _x76 + _x88),
        _x78*(_x106 + _x56),
        _x82,
        _x100,
        _x369,
        _x78*(-_x121*(_x371*(_x35 + _x55) - _x372*_x378) + _x374*(_x29*_x370 - _x372*_x54*(E + h)) + _x377 + 6*_x55 + 2*_x60 + _x77 + _x95),
        _x78*(-_x55*(drop + 4) + _x96),
        _x107*_x108,
        _x78*_x91,
        _x379,
        _x380,
        _x383,
        _x324 + _x363 - _x381*_x385 + _x382*_x385,
        _x122*_x145*_x147 - _x142*_x174 + _x386 + f_8*(_x210*_x325 + _x326),
        _x379,
        _x380,
        _x383,
        -_x142*_x315 + _x328 + _x343*_x345 + _x343*alpha + _x364 - _x381*_x389 + _x382*_x389 + _x386 + f_8*(E*_x210*(_x131*_x294*_x296 + _x297*_x36 + _x298*h) + _x329),
        -_x142*_x316 + _x318 + _x365 + _x390*(_x124 + _x125 + _x127*_x57 + 10*_x89) + f_8*(_x210*_x300 + _x330),
        _x125*_x390,
        E_s*(F_s*_x122*_x32*_x390 - _x142*_x302 + f_8*(_x210*_x299 + _x254))]

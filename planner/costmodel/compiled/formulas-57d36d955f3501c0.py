# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_ag, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
    _x0 = 2*d_h
    _x1 = is_mla - 1
    _x2 = _x1*d_h
    _x3 = d_n + d_r
    _x4 = _x3*is_mla
    _x5 = _x2 - _x4
    _x6 = _x5*a
    _x7 = 2*h
    _x8 = _x7*g
    _x9 = d_r + r_kv
    _x10 = d_n + d_v
    _x11 = _x10*r_kv
    _x12 = is_mla*(_x11*a + _x9*h + r_kv)
    _x13 = -_x12 + _x2*_x8
    _x14 = a*h
    _x15 = _x14*_x2
    _x16 = d_v*is_mla
    _x17 = -_x16 + _x2
    _x18 = has_qlora - 1
    _x19 = _x3*a
    _x20 = _x19*h
    _x21 = has_qlora*r_q
    _x22 = _x21*(_x19 + h + 1)
    _x23 = _x18*_x20 - _x22
    _x24 = _x14*_x17 + _x15 + _x23*is_mla
    _x25 = _x13 + _x24
    _x26 = h*n_m
    _x27 = n_m - 1
    _x28 = F*_x27
    _x29 = F*_x26 + lin_bias*(_x28 + h)
    _x30 = E*h
    _x31 = F_e*n_m
    _x32 = E_s*F_s
    _x33 = V*h
    _x34 = ln_bias + 1
    _x35 = t**(-1.0)
    _x36 = _x35*is_mla
    _x37 = t_g**(-1.0)
    _x38 = _x32*_x35
    _x39 = M_e**(-1.0)
    _x40 = t_e**(-1.0)
    _x41 = F_e*_x40
    _x42 = z_2 - 1
    _x43 = _x42*b_g
    _x44 = Z_d**(-1.0)
    _x45 = _x44*z_1
    _x46 = 2*z_1
    _x47 = _x46 + z_3 - 3
    _x48 = 2*mu
    _x49 = 1 - z_1
    _x50 = _x45 + _x49
    _x51 = 4*mu - 12
    _x52 = 1 - z_3
    _x53 = 2*mu - 2
    _x54 = Z_e**(-1.0)
    _x55 = _x49 + _x54*z_1
    _x56 = _x35*a
    _x57 = t_s**(-1.0)
    _x58 = _x57*h
    _x59 = _x58*drop
    _x60 = 4*_x58
    _x61 = _x59 + _x60
    _x62 = _x35*_x6
    _x63 = _x17*_x56
    _x64 = _x56*d_v + _x9
    _x65 = c_r - 1
    _x66 = _x36*a
    _x67 = _x66*(_x10 + d_r)
    _x68 = _x37*g
    _x69 = 2*_x2
    _x70 = _x67 - _x68*_x69
    _x71 = 2*_x70
    _x72 = _x65*_x71
    _x73 = _x2*_x68
    _x74 = c**(-1.0)
    _x75 = S*_x74
    _x76 = _x56*_x75
    _x77 = flash - 1
    _x78 = _x77*(3*drop + 2)
    _x79 = _x58*(s_8 - 2) + _x72*q_sv - 4*_x73 - _x76*_x78 + 2*is_mla*(_x19*_x35 + _x21 + _x64)
    _x80 = -2*_x62 - _x63*s_8 + _x79
    _x81 = _x75*b
    _x82 = S**2
    _x83 = _x56*_x82*b
    _x84 = _x83/c**2
    _x85 = -_x78*_x84
    _x86 = _x57*_x7
    _x87 = F*_x35
    _x88 = h*s_8
    _x89 = _x28*_x35
    _x90 = 2*_x89
    _x91 = _x57*_x88 + _x87*s_8 + _x90
    _x92 = E*_x57
    _x93 = _x38*n_m
    _x94 = 2*_x93
    _x95 = _x27*_x41
    _x96 = K*imb_mem
    _x97 = _x57*_x96
    _x98 = 4*_x92 + _x94 + _x97*t_e*(_x41*s_8 + _x7 + _x88 + 2*_x95)
    _x99 = _x61 + _x98
    _x100 = _x81*_x86
    _x101 = V*_x35
    _x102 = _x101*_x81
    _x103 = _x60*_x81
    _x104 = _x96*t_e
    _x105 = 4*_x81
    _x106 = _x105*_x70
    _x107 = _x7*_x81
    _x108 = 2*_x87
    _x109 = _x108*n_m
    _x110 = F_e*_x97
    _x111 = 2*_x81
    _x112 = 2*_x35
    _x113 = flash - 2
    _x114 = _x16 + _x4
    _x115 = _x113*(_x114 - _x69)
    _x116 = _x74*_x83
    _x117 = _x107*_x87
    _x118 = K*imb
    _x119 = _x57*(E + _x118*_x31) + _x93
    _x120 = _x33*_x35
    _x121 = _x111*_x120
    _x122 = drop + 32*eager + 10
    _x123 = _x122*_x58
    _x124 = _x56 + 1
    _x125 = _x35*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x126 = 4*eager
    _x127 = 5*drop + 4
    _x128 = _x127*_x77
    _x129 = _x126*(5*_x124*d_r*is_mla - _x125*_x2 - _x63) - _x128*_x76
    _x130 = _x81*(_x123 + _x129)
    _x131 = n_m - 2
    _x132 = 2*_x131
    _x133 = _x132*eager + n_m
    _x134 = _x108*_x133
    _x135 = _x133*_x38
    _x136 = _x110*_x133
    _x137 = E*_x39
    _x138 = _x104*(reduce(maximum, [0, reduce(minimum, [1, _x137 - 1])]) + 1)
    _x139 = 8*_x138
    _x140 = 2*_x135 + 2*_x136 + _x139*_x58 + 20*_x92
    _x141 = _x123 + _x140
    _x142 = _x58*_x81
    _x143 = _x139*_x142
    _x144 = c_r**(-1.0)
    _x145 = S*_x144
    _x146 = _x145*eta_a*flash/(L_a0 + _x145)
    _x147 = Pk**(-1.0)
    _x148 = _x147*(_x144*_x65*c_b + 1)
    _x149 = _x115*_x148/(_x146 - _x77*eta)
    _x150 = _x116*_x149
    _x151 = -3*_x150
    _x152 = W_hbm**(-1.0)
    _x153 = _x122*_x86 + _x129
    _x154 = _x134 + _x153
    _x155 = 3*_x81
    _x156 = f_8 - 1
    _x157 = _x81*h
    _x158 = _x87*h
    _x159 = _x81*_x87
    _x160 = _x158 + _x159
    _x161 = 2*_x152
    _x162 = _x147/eta
    _x163 = T_m**(-1.0)
    _x164 = reduce(maximum, [1, h])
    _x165 = ceil(_x163*_x164)
    _x166 = N_sm**(-1.0)
    _x167 = T_n**(-1.0)
    _x168 = reduce(maximum, [1, _x81])
    _x169 = _x166*ceil(_x167*_x168)
    _x170 = _x165*_x169
    _x171 = _x164*_x167
    _x172 = ceil(_x171)
    _x173 = _x166*ceil(_x163*_x168)
    _x174 = _x172*_x173
    _x175 = ceil(2*_x171)
    _x176 = _x173*_x175
    _x177 = reduce(maximum, [_x170/ceil(_x170), _x174/ceil(_x174), _x176/ceil(_x176)])**(-1.0)
    _x178 = _x117*_x177
    _x179 = _x81*_x89
    _x180 = _x157 + _x89*h
    _x181 = _x107*_x162
    _x182 = reduce(maximum, [1, _x89])
    _x183 = _x169*ceil(_x163*_x182)
    _x184 = _x167*_x182
    _x185 = _x173*ceil(_x184)
    _x186 = _x173*ceil(2*_x184)
    _x187 = _x89/reduce(maximum, [_x183/ceil(_x183), _x185/ceil(_x185), _x186/ceil(_x186)])
    _x188 = reduce(maximum, [_x162*_x178, _x161*(_x157 + _x160)]) + reduce(maximum, [_x181*_x187, _x161*(_x179 + _x180)])
    _x189 = _x35*(_x13 + _x15 + _x23*is_mla)
    _x190 = _x189/h
    _x191 = _x190*_x81
    _x192 = -S*_x74*b*h
    _x193 = _x189 + _x192
    _x194 = reduce(maximum, [1, -_x190])
    _x195 = _x167*_x194
    _x196 = _x173*ceil(_x195)
    _x197 = _x169*ceil(_x163*_x194)
    _x198 = _x173*ceil(2*_x195)
    _x199 = _x111*_x189/reduce(maximum, [_x196/ceil(_x196), _x197/ceil(_x197), _x198/ceil(_x198)])
    _x200 = _x63*_x81
    _x201 = _x200 + _x63*h
    _x202 = _x162*_x177
    _x203 = _x107*_x63
    _x204 = reduce(maximum, [-_x162*_x199, _x161*(-_x191 - _x193)]) + reduce(maximum, [-_x202*_x203, _x161*(-_x192 - _x201)])
    _x205 = _x156*(_x188 + _x204)
    _x206 = _x152*(_x107 + _x160)
    _x207 = 1/(Pk_8*eta_8)
    _x208 = _x178*_x207
    _x209 = reduce(maximum, [_x206, _x208])
    _x210 = _x152*(_x180 + _x81*_x90)
    _x211 = _x107*_x207
    _x212 = _x187*_x211
    _x213 = reduce(maximum, [_x210, _x212])
    _x214 = h*n_wq
    _x215 = _x131*h
    _x216 = _x81*s_x
    _x217 = _x158*n_wq + _x159 + _x214*_x89 + _x215*_x216
    _x218 = _x1*s_x
    _x219 = _x218 + 1
    _x220 = _x56*d_h
    _x221 = _x0*_x68
    _x222 = -_x200 - _x214*_x63 - _x218*h*(_x155 + _x220*n_wq + _x221*n_wq) + _x219*(_x157 - _x189*n_wq)
    _x223 = -_x191*_x219 - _x2*_x216*(_x56 + 2*_x68)
    _x224 = _x152*q_8
    _x225 = w_8**(-1.0)
    _x226 = _x152*(2*S*_x74*b*h - _x201)
    _x227 = _x177*_x207
    _x228 = _x203*_x227
    _x229 = reduce(maximum, [_x226, -_x228])
    _x230 = _x152*(-_x111*_x190 - _x193)
    _x231 = _x199*_x207
    _x232 = reduce(maximum, [_x230, -_x231])
    _x233 = _x68*d_h
    _x234 = _x152*(_x157 + _x221*_x81 + _x233*h)
    _x235 = reduce(maximum, [1, _x233])
    _x236 = _x167*_x235
    _x237 = _x173*ceil(_x236)
    _x238 = _x169*ceil(_x163*_x235)
    _x239 = _x173*ceil(2*_x236)
    _x240 = _x211*_x233/reduce(maximum, [_x237/ceil(_x237), _x238/ceil(_x238), _x239/ceil(_x239)])
    _x241 = _x152*(_x0*_x56*_x81 + _x157 + _x220*h)
    _x242 = reduce(maximum, [1, _x220])
    _x243 = _x167*_x242
    _x244 = _x173*ceil(_x243)
    _x245 = _x169*ceil(_x163*_x242)
    _x246 = _x173*ceil(2*_x243)
    _x247 = _x211*_x220/reduce(maximum, [_x244/ceil(_x244), _x245/ceil(_x245), _x246/ceil(_x246)])
    _x248 = 2*reduce(maximum, [_x234, _x240]) + reduce(maximum, [_x241, _x247])
    _x249 = -_x218*_x248 + _x219*_x232
    _x250 = -_x218*(_x248 + 2*reduce(maximum, [_x234, _x225*_x240]) + reduce(maximum, [_x241, _x225*_x247])) + _x219*(_x232 + reduce(maximum, [_x230, -_x225*_x231])) + 2*_x229 + _x249 + reduce(maximum, [_x226, -_x225*_x228])
    _x251 = _x38*h
    _x252 = _x38*_x81
    _x253 = _x251 + _x252
    _x254 = _x152*(_x107 + _x253)
    _x255 = _x107*_x35
    _x256 = F_s*_x255
    _x257 = _x227*_x256
    _x258 = _x27*_x38
    _x259 = _x157 + _x251*_x27
    _x260 = _x152*(_x111*_x258 + _x259)
    _x261 = reduce(maximum, [1, _x258])
    _x262 = _x167*_x261
    _x263 = _x173*ceil(_x262)
    _x264 = _x169*ceil(_x163*_x261)
    _x265 = _x173*ceil(2*_x262)
    _x266 = _x256*_x27/reduce(maximum, [_x263/ceil(_x263), _x264/ceil(_x264), _x265/ceil(_x265)])
    _x267 = _x207*_x266
    _x268 = reduce(maximum, [_x254, _x257]) + reduce(maximum, [_x260, _x267])
    _x269 = E_s*_x268
    _x270 = reduce(maximum, [1, E])
    _x271 = _x118/_x270
    _x272 = M_e*_x271
    _x273 = _x272*t_e
    _x274 = _x41*h
    _x275 = _x57*_x81
    _x276 = _x272*_x275
    _x277 = F_e*_x276
    _x278 = _x274 + _x277
    _x279 = _x137*_x152
    _x280 = _x279*(_x100*_x273 + _x278)
    _x281 = _x100*_x118
    _x282 = _x207*_x281
    _x283 = _x276*t_e
    _x284 = reduce(maximum, [1, _x283])
    _x285 = _x166*reduce(maximum, [1, _x137])
    _x286 = _x285*ceil(_x167*_x284)
    _x287 = _x165*_x286
    _x288 = _x285*ceil(_x163*_x284)
    _x289 = _x172*_x288
    _x290 = _x175*_x288
    _x291 = F_e/reduce(maximum, [_x287/ceil(_x287), _x289/ceil(_x289), _x290/ceil(_x290)])
    _x292 = _x282*_x291
    _x293 = reduce(maximum, [_x280, _x292])
    _x294 = _x27*_x277
    _x295 = _x142*_x273
    _x296 = _x27*_x274 + _x295
    _x297 = _x279*(2*_x294 + _x296)
    _x298 = reduce(maximum, [1, _x95])
    _x299 = _x286*ceil(_x163*_x298)
    _x300 = _x167*_x298
    _x301 = _x288*ceil(_x300)
    _x302 = _x288*ceil(2*_x300)
    _x303 = F_e*_x27
    _x304 = _x303/reduce(maximum, [_x299/ceil(_x299), _x301/ceil(_x301), _x302/ceil(_x302)])
    _x305 = _x282*_x304
    _x306 = reduce(maximum, [_x297, _x305])
    _x307 = _x81*_x92
    _x308 = _x271*t_e
    _x309 = _x275*_x30*_x308
    _x310 = _x131*s_x
    _x311 = F_e*(_x214*_x40 + _x276)
    _x312 = _x39*(_x283 + _x95*n_wq)
    _x313 = _x157 + _x214*_x258 + _x214*_x38 + _x252
    _x314 = E_s*_x313 + _x137*_x311 + _x30*_x312 + _x309*_x310
    _x315 = _x222 + _x314
    _x316 = reduce(maximum, [_x162*_x266, _x161*(_x258*_x81 + _x259)]) + reduce(maximum, [_x202*_x256, _x161*(_x157 + _x253)])
    _x317 = E_s*_x316
    _x318 = reduce(maximum, [1, _x275])
    _x319 = _x166*ceil(_x163*_x270)*ceil(_x167*_x318)
    _x320 = _x167*_x270
    _x321 = _x166*ceil(_x163*_x318)
    _x322 = _x321*ceil(_x320)
    _x323 = _x321*ceil(2*_x320)
    _x324 = reduce(maximum, [_x161*(_x142 + _x30 + _x307), _x181*_x92/reduce(maximum, [_x319/ceil(_x319), _x322/ceil(_x322), _x323/ceil(_x323)])])
    _x325 = _x137*_x161
    _x326 = _x162*_x281
    _x327 = reduce(maximum, [_x291*_x326, _x325*(_x278 + _x295)])
    _x328 = reduce(maximum, [_x304*_x326, _x325*(_x294 + _x296)])
    _x329 = _x327 + _x328
    _x330 = _x317 + _x324 + _x329
    _x331 = _x156*(_x204 + _x330)
    _x332 = _x324*f_8
    _x333 = _x141*_x152
    _x334 = -_x143*_x152 + _x155*_x333
    _x335 = -_x150
    _x336 = _x152*_x81
    _x337 = _x154*_x336
    _x338 = _x157 + _x217
    _x339 = _x209 + _x213
    _x340 = _x229 + _x249
    _x341 = _x336*(_x140 + _x153)
    _x342 = _x293 + _x306
    _x343 = _x269 + _x342
    _x344 = reduce(maximum, [1, _x101])
    _x345 = _x169*ceil(_x163*_x344)
    _x346 = _x167*_x344
    _x347 = _x173*ceil(_x346)
    _x348 = _x173*ceil(2*_x346)
    _x349 = t - 1
    _x350 = 2*alpha
    _x351 = _x35/W_tp
    _x352 = _x157*_x351
    _x353 = 4*_x352
    _x354 = _x352*a_8
    _x355 = 2*_x349*(_x350 + _x353 - _x354)
    _x356 = t_e - 1
    _x357 = _x96/W_etp
    _x358 = _x100*_x357
    _x359 = W_cr**(-1.0)
    _x360 = _x359*_x81
    _x361 = _x360*_x71 + alpha
    _x362 = _x361*_x65
    _x363 = _x144*_x150
    _x364 = 2*_x56
    _x365 = _x144*_x149*_x364*_x74*_x82*b
    _x366 = _x360*_x72 + _x65*alpha
    _x367 = c_u - 1
    _x368 = _x105*(_x35*a*d_v*is_mla - _x62 - _x73)/(W_cu*c_u)
    _x369 = M_e - 1
    _x370 = _x369*alpha
    _x371 = W_eout**(-1.0)
    _x372 = _x281*_x39
    _x373 = _x369*_x371*_x372*f_off
    _x374 = f_off - 1
    _x375 = _x369*_x374
    _x376 = W_ein**(-1.0)
    _x377 = _x372*_x376
    _x378 = reduce(maximum, [_x373, -_x375*_x377])
    _x379 = _x370 + _x378
    _x380 = 4*_x370
    _x381 = ceil(f_off)
    _x382 = 8*_x142
    _x383 = 4*o_ep - 4
    _x384 = -_x369*_x374
    _x385 = reduce(maximum, [_x373, _x377*_x384])
    _x386 = _x370 + _x385
    _x387 = _x81*(_x119*_x162*_x7 + _x333)
    _x388 = 2*_x387
    _x389 = -_x77
    _x390 = -_x1*d_h
    _x391 = _x16 + _x390
    _x392 = _x81*(-S*_x113*_x148*_x56*(_x114 + 2*_x390)/(_x146 + _x389*eta) + _x112*_x162*(_x12 + _x14*_x390 + _x14*_x391 + _x390*_x8 + is_mla*(-_x18*_x20 + _x22)) + _x152*(_x123 + _x126*(5*_x124*d_r*is_mla + _x125*_x390 + _x391*_x56) + _x127*_x389*_x76))
    _x393 = 2*_x392
    _x394 = reduce(minimum, [_x386, _x387]) + reduce(minimum, [_x386, _x388]) + reduce(minimum, [_x386, _x392]) + reduce(minimum, [_x386, _x393])
    _x395 = _x384 + 1
    _x396 = M_e/_x395 - 1
    _x397 = alpha*(_x384 + _x396)
    _x398 = (1 - _x39)**K - 1
    _x399 = _x100*imb
    _x400 = _x369*_x399/W_nvl_x
    _x401 = (-_x39*_x395 + 1)**K - 1
    _x402 = _x399/W_rdma_x
    _x403 = reduce(maximum, [-_x398*_x400, -_x396*_x401*_x402])
    _x404 = _x397 + _x403
    _x405 = reduce(minimum, [_x387, _x404]) + reduce(minimum, [_x388, _x404]) + reduce(minimum, [_x392, _x404]) + reduce(minimum, [_x393, _x404])
    _x406 = -4*_x397 - 4*_x403 + _x405
    _x407 = (1 - _x375)**(-1.0)
    _x408 = _x383*(alpha*(M_e*_x407 - _x375 - 1) + reduce(maximum, [-_x398*_x400, -_x401*_x402*(M_e*_x407 - 1)])) - 1000000.0
    _x409 = _x349*alpha
    _x410 = _x107*_x349*_x351
    _x411 = _x367*_x368 + _x367*alpha
    _x412 = _x349*_x354
    _x413 = _x349*_x350 + _x349*_x353 - _x412
    _x414 = _x350*_x369 + 2*_x378
    _x415 = _x103*_x356*_x357 + _x350*_x356 + _x414
    _x416 = _x42*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x417 = _x44*(Z_d - 1)/W_dpcp
    _x418 = _x152*(b_g + 26)
    _x419 = _x111*_x67
    _x420 = _x36*has_qlora
    _x421 = has_qlora*is_mla
    _x422 = _x421 - 1
    _x423 = n_m - 3
    _x424 = 2*_x423
    _x425 = -_x17
    _x426 = _x56 + _x68
    _x427 = 2*_x18*_x66*(2*d_n + d_r + d_v) - 2*_x421*(_x58 + _x9 + r_q) + _x426*_x69 + _x86*drop
    _x428 = _x38 + _x92
    _x429 = -_x116*(_x128*_x152*_x74 + _x149)
    _x430 = _x152*_x382*(8*eager + 1)
    _x431 = _x207*f_8
    _x432 = _x156*_x162
    _x433 = _x111*_x66*(_x11 + _x21*_x3)*(_x431 - _x432)
    _x434 = _x18*_x64*h*is_mla + _x2*_x426*h - _x66*has_qlora*(_x11 + _x3*r_q)
    _x435 = _x111*(-_x131*_x158*(_x421 + 1) + _x158*_x423 + _x434)
    _x436 = _x409 + _x410 - 1/2*_x412
    _x437 = _x38*_x422
    _x438 = -_x428*has_qlora*is_mla
    _x439 = _x111*(-_x215*(-2*_x437 - _x438) + _x423*h*(-_x437 - _x438) + _x434)
    _x440 = _x161*_x81
    return [
        -_x25 + 2*d_h*qk_norm + lin_bias*(_x0*g - _x6 + h),
        _x29,
        _x30*_x31,
        _x26*_x32,
        E*(h + router_bias),
        _x33,
        -_x33*(tied - 1),
        _x34*h,
        h*(_x7 + 3*ln_bias + 3),
        -_x13*(-_x1*_x37 + _x36) - _x24*_x35 + 2*_x34*h,
        _x29*_x35,
        E*router_bias + _x26*_x38 + _x30,
        _x30*_x39*_x41*n_m,
        -_x43 + _x44*b_g*z_2 - _x48*(-2*_x45 + _x47) - _x50*_x51 - _x53*(_x44*z_3 + _x52),
        -_x43 - _x48*(-_x46*_x54 + _x47) - _x51*_x55 - _x53*(_x52 + _x54*z_3) + _x54*b_g*z_2,
        _x81*(4*_x56*flash + _x61 + _x80),
        _x85,
        _x81*(_x59 + _x86 + _x91),
        _x81*_x99,
        _x100,
        _x102*b_l,
        _x103*_x104,
        _x106,
        _x107,
        _x109*_x81,
        _x111*n_m*(_x110 + _x38),
        -_x112*_x25*_x81,
        -_x115*_x116,
        _x117*n_m,
        _x107*_x119,
        _x121,
        _x130,
        _x81*(_x123 + _x134),
        _x141*_x81,
        _x143,
        -_x128*_x84,
        _x151 + _x152*_x154*_x155 - 3*_x205 + f_8*(2*_x209 + 2*_x213 + _x224*(3*_x157 + _x179 + _x217 + _x222 + _x223) + _x250 + reduce(maximum, [_x206, _x208*_x225]) + reduce(maximum, [_x210, _x212*_x225])),
        3*_x130*_x152 + _x151 - 3*_x331 + 3*_x332 + _x334 + f_8*(E_s*(_x268 + reduce(maximum, [_x254, _x225*_x257]) + reduce(maximum, [_x260, _x225*_x267])) + _x224*(E_s*_x81*(_x258 + h) + _x157 + _x223 + _x271*_x303*_x307 + _x309 + _x315) + _x250 + _x269 + 2*_x293 + 2*_x306 + reduce(maximum, [_x280, _x225*_x292]) + reduce(maximum, [_x297, _x225*_x305])),
        -_x205 + _x335 + _x337 + f_8*(_x224*(_x222 + _x338) + _x339 + _x340),
        -_x331 + _x332 + _x335 + _x341 + f_8*(_x224*_x315 + _x340 + _x343),
        30*_x101*_x336 + 3*reduce(maximum, [_x161*(_x102 + _x120 + _x157), _x121*_x162/reduce(maximum, [_x345/ceil(_x345), _x347/ceil(_x347), _x348/ceil(_x348)])]),
        3*_x317 + 3*_x324 + 3*_x327 + 3*_x328 + _x334,
        _x355,
        _x355,
        4*_x356*(_x358 + alpha),
        3*_x362,
        _x362*n_ag + 3*_x65*q_p2p*reduce(maximum, [0, _x361 + _x363]) + q_agr*(_x65*reduce(maximum, [0, _x106*_x359 + _x365 + alpha]) + reduce(maximum, [0, _x363 + _x366]) + reduce(maximum, [0, _x365 + _x366])),
        _x362*reduce(minimum, [1, n_ag]),
        _x335,
        2*_x367*(_x368 + alpha),
        4*_x379,
        reduce(minimum, [_x369*_x382*(_x371*_x381 - _x376*(_x381 - 1)) + _x380 - 1000000.0*d_ag + 1000000.0, -_x408 - 1000000.0*d_dep - o_ep*(-_x405*n_sm_dep/(N_sm - n_sm_dep) + _x406), -_x408 - 1000000.0*d_hep - o_ep*(-_x405*n_sm_hep/(N_sm - n_sm_hep) + _x406), -_x379*_x383 - 1000000.0*d_a2a - o_ep*(-_x380 - 4*_x385 - _x394*n_sm_a2a/(N_sm - n_sm_a2a) + _x394) + 1000000.0]),
        2*v*(alpha + _x255/W_pp),
        8*_x349*_x352 + 4*_x409 - _x410*a_8 + _x411,
        _x411 + _x413 + _x415,
        -_x416*_x417,
        -_x416*_x54*(Z_e - 1)/W_edp,
        _x417*(b_r*z_2 + 4*z_3),
        _x418*_x50,
        _x418*_x55,
        _x85,
        _x103,
        _x419,
        _x81*(-_x132*(F*_x420 - _x422*(_x58 + _x87)) - _x364*_x425 - _x364*_x5 + _x424*(-_x422*_x87 + _x57*h*has_qlora*is_mla) + _x425*_x56*s_8 + _x427 + _x60 + _x79 + _x91),
        _x81*(_x109 + _x59),
        _x85,
        _x103,
        _x419,
        _x81*(-_x132*(_x421*(_x38 + _x58) - _x422*_x428) + _x424*(_x32*_x420 - _x422*_x57*(E + h)) + _x427 + 6*_x58 + 2*_x63 + _x80 + _x98),
        _x81*(-_x58*(drop + 4) + _x99),
        _x110*_x111,
        _x81*_x94,
        _x429,
        _x430,
        _x433,
        _x337 + _x413 - _x431*_x435 + _x432*_x435,
        _x133*_x159*_x161 - _x156*_x188 + _x436 + f_8*(_x224*_x338 + _x339),
        _x429,
        _x430,
        _x433,
        -_x156*_x329 + _x341 + _x356*_x358 + _x356*alpha + _x414 - _x431*_x439 + _x432*_x439 + _x436 + f_8*(E*_x224*(_x142*_x308*_x310 + _x311*_x39 + _x312*h) + _x342),
        -_x156*_x330 + _x332 + _x415 + _x440*(_x135 + _x136 + _x138*_x60 + 10*_x92) + f_8*(_x224*_x314 + _x343),
        _x136*_x440,
        E_s*(F_s*_x133*_x35*_x440 - _x156*_x316 + f_8*(_x224*_x313 + _x268))]

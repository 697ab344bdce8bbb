# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_o', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_o, b_r, c, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_ag, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
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
    _x46 = 1 - z_1
    _x47 = _x45 + _x46
    _x48 = 2*z_1
    _x49 = _x48 + z_3 - 3
    _x50 = 2*mu
    _x51 = 1 - z_3
    _x52 = 2*mu - 2
    _x53 = Z_e**(-1.0)
    _x54 = _x46 + _x53*z_1
    _x55 = _x35*a
    _x56 = t_s**(-1.0)
    _x57 = _x56*h
    _x58 = _x57*drop
    _x59 = 4*_x57
    _x60 = _x58 + _x59
    _x61 = _x35*_x6
    _x62 = _x17*_x55
    _x63 = _x55*d_v + _x9
    _x64 = c_r - 1
    _x65 = _x36*a
    _x66 = _x65*(_x10 + d_r)
    _x67 = _x37*g
    _x68 = 2*_x2
    _x69 = _x66 - _x67*_x68
    _x70 = 2*_x69
    _x71 = _x64*_x70
    _x72 = _x2*_x67
    _x73 = c**(-1.0)
    _x74 = S*_x73
    _x75 = _x55*_x74
    _x76 = flash - 1
    _x77 = _x76*(3*drop + 2)
    _x78 = _x57*(s_8 - 2) + _x71*q_sv - 4*_x72 - _x75*_x77 + 2*is_mla*(_x19*_x35 + _x21 + _x63)
    _x79 = -2*_x61 - _x62*s_8 + _x78
    _x80 = _x74*b
    _x81 = S**2
    _x82 = _x55*_x81*b
    _x83 = _x82/c**2
    _x84 = -_x77*_x83
    _x85 = _x56*_x7
    _x86 = F*_x35
    _x87 = h*s_8
    _x88 = _x28*_x35
    _x89 = 2*_x88
    _x90 = _x56*_x87 + _x86*s_8 + _x89
    _x91 = E*_x56
    _x92 = _x38*n_m
    _x93 = 2*_x92
    _x94 = _x27*_x41
    _x95 = K*imb_mem
    _x96 = _x56*_x95
    _x97 = 4*_x91 + _x93 + _x96*t_e*(_x41*s_8 + _x7 + _x87 + 2*_x94)
    _x98 = _x60 + _x97
    _x99 = _x80*_x85
    _x100 = V*_x35
    _x101 = _x100*_x80
    _x102 = _x59*_x80
    _x103 = _x95*t_e
    _x104 = 4*_x80
    _x105 = _x104*_x69
    _x106 = _x7*_x80
    _x107 = 2*_x86
    _x108 = _x107*n_m
    _x109 = F_e*_x96
    _x110 = 2*_x80
    _x111 = 2*_x35
    _x112 = flash - 2
    _x113 = _x16 + _x4
    _x114 = _x112*(_x113 - _x68)
    _x115 = _x73*_x82
    _x116 = _x106*_x86
    _x117 = K*imb
    _x118 = _x56*(E + _x117*_x31) + _x92
    _x119 = _x33*_x35
    _x120 = _x110*_x119
    _x121 = drop + 32*eager + 10
    _x122 = _x121*_x57
    _x123 = _x55 + 1
    _x124 = _x35*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x125 = 4*eager
    _x126 = 5*drop + 4
    _x127 = _x126*_x76
    _x128 = _x125*(5*_x123*d_r*is_mla - _x124*_x2 - _x62) - _x127*_x75
    _x129 = _x80*(_x122 + _x128)
    _x130 = n_m - 2
    _x131 = 2*_x130
    _x132 = _x131*eager + n_m
    _x133 = _x107*_x132
    _x134 = _x132*_x38
    _x135 = _x109*_x132
    _x136 = E*_x39
    _x137 = _x103*(reduce(maximum, [0, reduce(minimum, [1, _x136 - 1])]) + 1)
    _x138 = 8*_x137
    _x139 = 2*_x134 + 2*_x135 + _x138*_x57 + 20*_x91
    _x140 = _x122 + _x139
    _x141 = _x57*_x80
    _x142 = _x138*_x141
    _x143 = c_r**(-1.0)
    _x144 = S*_x143
    _x145 = _x144*eta_a*flash/(L_a0 + _x144)
    _x146 = Pk**(-1.0)
    _x147 = _x146*(_x143*_x64*c_b + 1)
    _x148 = _x114*_x147/(_x145 - _x76*eta)
    _x149 = _x115*_x148
    _x150 = -3*_x149
    _x151 = W_hbm**(-1.0)
    _x152 = _x121*_x85 + _x128
    _x153 = _x133 + _x152
    _x154 = 3*_x80
    _x155 = f_8 - 1
    _x156 = _x80*h
    _x157 = _x86*h
    _x158 = _x80*_x86
    _x159 = _x157 + _x158
    _x160 = 2*_x151
    _x161 = _x146/eta
    _x162 = T_m**(-1.0)
    _x163 = reduce(maximum, [1, h])
    _x164 = ceil(_x162*_x163)
    _x165 = N_sm**(-1.0)
    _x166 = T_n**(-1.0)
    _x167 = reduce(maximum, [1, _x80])
    _x168 = _x165*ceil(_x166*_x167)
    _x169 = _x164*_x168
    _x170 = _x163*_x166
    _x171 = ceil(_x170)
    _x172 = _x165*ceil(_x162*_x167)
    _x173 = _x171*_x172
    _x174 = ceil(2*_x170)
    _x175 = _x172*_x174
    _x176 = reduce(maximum, [_x169/ceil(_x169), _x173/ceil(_x173), _x175/ceil(_x175)])**(-1.0)
    _x177 = _x116*_x176
    _x178 = _x80*_x88
    _x179 = _x156 + _x88*h
    _x180 = _x106*_x161
    _x181 = reduce(maximum, [1, _x88])
    _x182 = _x168*ceil(_x162*_x181)
    _x183 = _x166*_x181
    _x184 = _x172*ceil(_x183)
    _x185 = _x172*ceil(2*_x183)
    _x186 = _x88/reduce(maximum, [_x182/ceil(_x182), _x184/ceil(_x184), _x185/ceil(_x185)])
    _x187 = reduce(maximum, [_x161*_x177, _x160*(_x156 + _x159)]) + reduce(maximum, [_x180*_x186, _x160*(_x178 + _x179)])
    _x188 = _x35*(_x13 + _x15 + _x23*is_mla)
    _x189 = _x188/h
    _x190 = _x189*_x80
    _x191 = -S*_x73*b*h
    _x192 = _x188 + _x191
    _x193 = reduce(maximum, [1, -_x189])
    _x194 = _x166*_x193
    _x195 = _x172*ceil(_x194)
    _x196 = _x168*ceil(_x162*_x193)
    _x197 = _x172*ceil(2*_x194)
    _x198 = _x110*_x188/reduce(maximum, [_x195/ceil(_x195), _x196/ceil(_x196), _x197/ceil(_x197)])
    _x199 = _x62*_x80
    _x200 = _x199 + _x62*h
    _x201 = _x161*_x176
    _x202 = _x106*_x62
    _x203 = reduce(maximum, [-_x161*_x198, _x160*(-_x190 - _x192)]) + reduce(maximum, [-_x201*_x202, _x160*(-_x191 - _x200)])
    _x204 = _x155*(_x187 + _x203)
    _x205 = _x151*(_x106 + _x159)
    _x206 = 1/(Pk_8*eta_8)
    _x207 = _x177*_x206
    _x208 = reduce(maximum, [_x205, _x207])
    _x209 = _x151*(_x179 + _x80*_x89)
    _x210 = _x106*_x206
    _x211 = _x186*_x210
    _x212 = reduce(maximum, [_x209, _x211])
    _x213 = h*n_wq
    _x214 = _x130*h
    _x215 = _x80*s_x
    _x216 = _x157*n_wq + _x158 + _x213*_x88 + _x214*_x215
    _x217 = _x1*s_x
    _x218 = _x217 + 1
    _x219 = _x55*d_h
    _x220 = _x0*_x67
    _x221 = -_x199 - _x213*_x62 - _x217*h*(_x154 + _x219*n_wq + _x220*n_wq) + _x218*(_x156 - _x188*n_wq)
    _x222 = -_x190*_x218 - _x2*_x215*(_x55 + 2*_x67)
    _x223 = _x151*q_8
    _x224 = w_8**(-1.0)
    _x225 = _x151*(2*S*_x73*b*h - _x200)
    _x226 = _x176*_x206
    _x227 = _x202*_x226
    _x228 = reduce(maximum, [_x225, -_x227])
    _x229 = _x151*(-_x110*_x189 - _x192)
    _x230 = _x198*_x206
    _x231 = reduce(maximum, [_x229, -_x230])
    _x232 = _x67*d_h
    _x233 = _x151*(_x156 + _x220*_x80 + _x232*h)
    _x234 = reduce(maximum, [1, _x232])
    _x235 = _x166*_x234
    _x236 = _x172*ceil(_x235)
    _x237 = _x168*ceil(_x162*_x234)
    _x238 = _x172*ceil(2*_x235)
    _x239 = _x210*_x232/reduce(maximum, [_x236/ceil(_x236), _x237/ceil(_x237), _x238/ceil(_x238)])
    _x240 = _x151*(_x0*_x55*_x80 + _x156 + _x219*h)
    _x241 = reduce(maximum, [1, _x219])
    _x242 = _x166*_x241
    _x243 = _x172*ceil(_x242)
    _x244 = _x168*ceil(_x162*_x241)
    _x245 = _x172*ceil(2*_x242)
    _x246 = _x210*_x219/reduce(maximum, [_x243/ceil(_x243), _x244/ceil(_x244), _x245/ceil(_x245)])
    _x247 = 2*reduce(maximum, [_x233, _x239]) + reduce(maximum, [_x240, _x246])
    _x248 = -_x217*_x247 + _x218*_x231
    _x249 = -_x217*(_x247 + 2*reduce(maximum, [_x233, _x224*_x239]) + reduce(maximum, [_x240, _x224*_x246])) + _x218*(_x231 + reduce(maximum, [_x229, -_x224*_x230])) + 2*_x228 + _x248 + reduce(maximum, [_x225, -_x224*_x227])
    _x250 = _x38*h
    _x251 = _x38*_x80
    _x252 = _x250 + _x251
    _x253 = _x151*(_x106 + _x252)
    _x254 = _x106*_x35
    _x255 = F_s*_x254
    _x256 = _x226*_x255
    _x257 = _x27*_x38
    _x258 = _x156 + _x250*_x27
    _x259 = _x151*(_x110*_x257 + _x258)
    _x260 = reduce(maximum, [1, _x257])
    _x261 = _x166*_x260
    _x262 = _x172*ceil(_x261)
    _x263 = _x168*ceil(_x162*_x260)
    _x264 = _x172*ceil(2*_x261)
    _x265 = _x255*_x27/reduce(maximum, [_x262/ceil(_x262), _x263/ceil(_x263), _x264/ceil(_x264)])
    _x266 = _x206*_x265
    _x267 = reduce(maximum, [_x253, _x256]) + reduce(maximum, [_x259, _x266])
    _x268 = E_s*_x267
    _x269 = reduce(maximum, [1, E])
    _x270 = _x117/_x269
    _x271 = M_e*_x270
    _x272 = _x271*t_e
    _x273 = _x41*h
    _x274 = _x56*_x80
    _x275 = _x271*_x274
    _x276 = F_e*_x275
    _x277 = _x273 + _x276
    _x278 = _x136*_x151
    _x279 = _x278*(_x272*_x99 + _x277)
    _x280 = _x117*_x99
    _x281 = _x206*_x280
    _x282 = _x275*t_e
    _x283 = reduce(maximum, [1, _x282])
    _x284 = _x165*reduce(maximum, [1, _x136])
    _x285 = _x284*ceil(_x166*_x283)
    _x286 = _x164*_x285
    _x287 = _x284*ceil(_x162*_x283)
    _x288 = _x171*_x287
    _x289 = _x174*_x287
    _x290 = F_e/reduce(maximum, [_x286/ceil(_x286), _x288/ceil(_x288), _x289/ceil(_x289)])
    _x291 = _x281*_x290
    _x292 = reduce(maximum, [_x279, _x291])
    _x293 = _x27*_x276
    _x294 = _x141*_x272
    _x295 = _x27*_x273 + _x294
    _x296 = _x278*(2*_x293 + _x295)
    _x297 = reduce(maximum, [1, _x94])
    _x298 = _x285*ceil(_x162*_x297)
    _x299 = _x166*_x297
    _x300 = _x287*ceil(_x299)
    _x301 = _x287*ceil(2*_x299)
    _x302 = F_e*_x27
    _x303 = _x302/reduce(maximum, [_x298/ceil(_x298), _x300/ceil(_x300), _x301/ceil(_x301)])
    _x304 = _x281*_x303
    _x305 = reduce(maximum, [_x296, _x304])
    _x306 = _x80*_x91
    _x307 = _x270*t_e
    _x308 = _x274*_x30*_x307
    _x309 = _x130*s_x
    _x310 = F_e*(_x213*_x40 + _x275)
    _x311 = _x39*(_x282 + _x94*n_wq)
    _x312 = _x156 + _x213*_x257 + _x213*_x38 + _x251
    _x313 = E_s*_x312 + _x136*_x310 + _x30*_x311 + _x308*_x309
    _x314 = _x221 + _x313
    _x315 = reduce(maximum, [_x161*_x265, _x160*(_x257*_x80 + _x258)]) + reduce(maximum, [_x201*_x255, _x160*(_x156 + _x252)])
    _x316 = E_s*_x315
    _x317 = reduce(maximum, [1, _x274])
    _x318 = _x165*ceil(_x162*_x269)*ceil(_x166*_x317)
    _x319 = _x166*_x269
    _x320 = _x165*ceil(_x162*_x317)
    _x321 = _x320*ceil(_x319)
    _x322 = _x320*ceil(2*_x319)
    _x323 = reduce(maximum, [_x160*(_x141 + _x30 + _x306), _x180*_x91/reduce(maximum, [_x318/ceil(_x318), _x321/ceil(_x321), _x322/ceil(_x322)])])
    _x324 = _x136*_x160
    _x325 = _x161*_x280
    _x326 = reduce(maximum, [_x290*_x325, _x324*(_x277 + _x294)])
    _x327 = reduce(maximum, [_x303*_x325, _x324*(_x293 + _x295)])
    _x328 = _x326 + _x327
    _x329 = _x316 + _x323 + _x328
    _x330 = _x155*(_x203 + _x329)
    _x331 = _x323*f_8
    _x332 = _x140*_x151
    _x333 = -_x142*_x151 + _x154*_x332
    _x334 = -_x149
    _x335 = _x151*_x80
    _x336 = _x153*_x335
    _x337 = _x156 + _x216
    _x338 = _x208 + _x212
    _x339 = _x228 + _x248
    _x340 = _x335*(_x139 + _x152)
    _x341 = _x292 + _x305
    _x342 = _x268 + _x341
    _x343 = reduce(maximum, [1, _x100])
    _x344 = _x168*ceil(_x162*_x343)
    _x345 = _x166*_x343
    _x346 = _x172*ceil(_x345)
    _x347 = _x172*ceil(2*_x345)
    _x348 = t - 1
    _x349 = 2*alpha
    _x350 = _x35/W_tp
    _x351 = _x156*_x350
    _x352 = 4*_x351
    _x353 = _x351*a_8
    _x354 = 2*_x348*(_x349 + _x352 - _x353)
    _x355 = t_e - 1
    _x356 = _x95/W_etp
    _x357 = _x356*_x99
    _x358 = W_cr**(-1.0)
    _x359 = _x358*_x80
    _x360 = _x359*_x70 + alpha
    _x361 = _x360*_x64
    _x362 = _x143*_x149
    _x363 = 2*_x55
    _x364 = _x143*_x148*_x363*_x73*_x81*b
    _x365 = _x359*_x71 + _x64*alpha
    _x366 = c_u - 1
    _x367 = _x104*(_x35*a*d_v*is_mla - _x61 - _x72)/(W_cu*c_u)
    _x368 = M_e - 1
    _x369 = _x368*alpha
    _x370 = W_eout**(-1.0)
    _x371 = _x280*_x39
    _x372 = _x368*_x370*_x371*f_off
    _x373 = f_off - 1
    _x374 = _x368*_x373
    _x375 = W_ein**(-1.0)
    _x376 = _x371*_x375
    _x377 = reduce(maximum, [_x372, -_x374*_x376])
    _x378 = _x369 + _x377
    _x379 = 4*_x369
    _x380 = ceil(f_off)
    _x381 = 8*_x141
    _x382 = 4*o_ep - 4
    _x383 = -_x368*_x373
    _x384 = reduce(maximum, [_x372, _x376*_x383])
    _x385 = _x369 + _x384
    _x386 = _x80*(_x118*_x161*_x7 + _x332)
    _x387 = 2*_x386
    _x388 = -_x76
    _x389 = -_x1*d_h
    _x390 = _x16 + _x389
    _x391 = _x80*(-S*_x112*_x147*_x55*(_x113 + 2*_x389)/(_x145 + _x388*eta) + _x111*_x161*(_x12 + _x14*_x389 + _x14*_x390 + _x389*_x8 + is_mla*(-_x18*_x20 + _x22)) + _x151*(_x122 + _x125*(5*_x123*d_r*is_mla + _x124*_x389 + _x390*_x55) + _x126*_x388*_x75))
    _x392 = 2*_x391
    _x393 = reduce(minimum, [_x385, _x386]) + reduce(minimum, [_x385, _x387]) + reduce(minimum, [_x385, _x391]) + reduce(minimum, [_x385, _x392])
    _x394 = _x383 + 1
    _x395 = M_e/_x394 - 1
    _x396 = alpha*(_x383 + _x395)
    _x397 = (1 - _x39)**K - 1
    _x398 = _x99*imb
    _x399 = _x368*_x398/W_nvl_x
    _x400 = (-_x39*_x394 + 1)**K - 1
    _x401 = _x398/W_rdma_x
    _x402 = reduce(maximum, [-_x397*_x399, -_x395*_x400*_x401])
    _x403 = _x396 + _x402
    _x404 = reduce(minimum, [_x386, _x403]) + reduce(minimum, [_x387, _x403]) + reduce(minimum, [_x391, _x403]) + reduce(minimum, [_x392, _x403])
    _x405 = -4*_x396 - 4*_x402 + _x404
    _x406 = (1 - _x374)**(-1.0)
    _x407 = _x382*(alpha*(M_e*_x406 - _x374 - 1) + reduce(maximum, [-_x397*_x399, -_x400*_x401*(M_e*_x406 - 1)])) - 1000000.0
    _x408 = _x348*alpha
    _x409 = _x106*_x348*_x350
    _x410 = _x366*_x367 + _x366*alpha
    _x411 = _x348*_x353
    _x412 = _x348*_x349 + _x348*_x352 - _x411
    _x413 = _x349*_x368 + 2*_x377
    _x414 = _x102*_x355*_x356 + _x349*_x355 + _x413
    _x415 = _x42*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x416 = _x44*(Z_d - 1)/W_dpcp
    _x417 = _x151*(b_g + 2*b_o + 8*mu + 2)
    _x418 = _x110*_x66
    _x419 = _x36*has_qlora
    _x420 = has_qlora*is_mla
    _x421 = _x420 - 1
    _x422 = n_m - 3
    _x423 = 2*_x422
    _x424 = -_x17
    _x425 = _x55 + _x67
    _x426 = 2*_x18*_x65*(2*d_n + d_r + d_v) - 2*_x420*(_x57 + _x9 + r_q) + _x425*_x68 + _x85*drop
    _x427 = _x38 + _x91
    _x428 = -_x115*(_x127*_x151*_x73 + _x148)
    _x429 = _x151*_x381*(8*eager + 1)
    _x430 = _x206*f_8
    _x431 = _x155*_x161
    _x432 = _x110*_x65*(_x11 + _x21*_x3)*(_x430 - _x431)
    _x433 = _x18*_x63*h*is_mla + _x2*_x425*h - _x65*has_qlora*(_x11 + _x3*r_q)
    _x434 = _x110*(-_x130*_x157*(_x420 + 1) + _x157*_x422 + _x433)
    _x435 = _x408 + _x409 - 1/2*_x411
    _x436 = _x38*_x421
    _x437 = -_x427*has_qlora*is_mla
    _x438 = _x110*(-_x214*(-2*_x436 - _x437) + _x422*h*(-_x436 - _x437) + _x433)
    _x439 = _x160*_x80
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
        -_x43 + _x44*b_g*z_2 + _x47*b_o - _x50*(-2*_x45 + _x49) - _x52*(_x44*z_3 + _x51),
        -_x43 - _x50*(-_x48*_x53 + _x49) - _x52*(_x51 + _x53*z_3) + _x53*b_g*z_2 + _x54*b_o,
        _x80*(4*_x55*flash + _x60 + _x79),
        _x84,
        _x80*(_x58 + _x85 + _x90),
        _x80*_x98,
        _x99,
        _x101*b_l,
        _x102*_x103,
        _x105,
        _x106,
        _x108*_x80,
        _x110*n_m*(_x109 + _x38),
        -_x111*_x25*_x80,
        -_x114*_x115,
        _x116*n_m,
        _x106*_x118,
        _x120,
        _x129,
        _x80*(_x122 + _x133),
        _x140*_x80,
        _x142,
        -_x127*_x83,
        _x150 + _x151*_x153*_x154 - 3*_x204 + f_8*(2*_x208 + 2*_x212 + _x223*(3*_x156 + _x178 + _x216 + _x221 + _x222) + _x249 + reduce(maximum, [_x205, _x207*_x224]) + reduce(maximum, [_x209, _x211*_x224])),
        3*_x129*_x151 + _x150 - 3*_x330 + 3*_x331 + _x333 + f_8*(E_s*(_x267 + reduce(maximum, [_x253, _x224*_x256]) + reduce(maximum, [_x259, _x224*_x266])) + _x223*(E_s*_x80*(_x257 + h) + _x156 + _x222 + _x270*_x302*_x306 + _x308 + _x314) + _x249 + _x268 + 2*_x292 + 2*_x305 + reduce(maximum, [_x279, _x224*_x291]) + reduce(maximum, [_x296, _x224*_x304])),
        -_x204 + _x334 + _x336 + f_8*(_x223*(_x221 + _x337) + _x338 + _x339),
        -_x330 + _x331 + _x334 + _x340 + f_8*(_x223*_x314 + _x339 + _x342),
        30*_x100*_x335 + 3*reduce(maximum, [_x160*(_x101 + _x119 + _x156), _x120*_x161/reduce(maximum, [_x344/ceil(_x344), _x346/ceil(_x346), _x347/ceil(_x347)])]),
        3*_x316 + 3*_x323 + 3*_x326 + 3*_x327 + _x333,
        _x354,
        _x354,
        4*_x355*(_x357 + alpha),
        3*_x361,
        _x361*n_ag + 3*_x64*q_p2p*reduce(maximum, [0, _x360 + _x362]) + q_agr*(_x64*reduce(maximum, [0, _x105*_x358 + _x364 + alpha]) + reduce(maximum, [0, _x362 + _x365]) + reduce(maximum, [0, _x364 + _x365])),
        _x361*reduce(minimum, [1, n_ag]),
        _x334,
        2*_x366*(_x367 + alpha),
        4*_x378,
        reduce(minimum, [_x368*_x381*(_x370*_x380 - _x375*(_x380 - 1)) + _x379 - 1000000.0*d_ag + 1000000.0, -_x407 - 1000000.0*d_dep - o_ep*(-_x404*n_sm_dep/(N_sm - n_sm_dep) + _x405), -_x407 - 1000000.0*d_hep - o_ep*(-_x404*n_sm_hep/(N_sm - n_sm_hep) + _x405), -_x378*_x382 - 1000000.0*d_a2a - o_ep*(-_x379 - 4*_x384 - _x393*n_sm_a2a/(N_sm - n_sm_a2a) + _x393) + 1000000.0]),
        2*v*(alpha + _x254/W_pp),
        8*_x348*_x351 + 4*_x408 - _x409*a_8 + _x410,
        _x410 + _x412 + _x414,
        -_x415*_x416,
        -_x415*_x53*(Z_e - 1)/W_edp,
        _x416*(b_r*z_2 + 4*z_3),
        _x417*_x47,
        _x417*_x54,
        _x84,
        _x102,
        _x418,
        _x80*(-_x131*(F*_x419 - _x421*(_x57 + _x86)) - _x363*_x424 - _x363*_x5 + _x423*(-_x421*_x86 + _x56*h*has_qlora*is_mla) + _x424*_x55*s_8 + _x426 + _x59 + _x78 + _x90),
        _x80*(_x108 + _x58),
        _x84,
        _x102,
        _x418,
        _x80*(-_x131*(_x420*(_x38 + _x57) - _x421*_x427) + _x423*(_x32*_x419 - _x421*_x56*(E + h)) + _x426 + 6*_x57 + 2*_x62 + _x79 + _x97),
        _x80*(-_x57*(drop + 4) + _x98),
        _x109*_x110,
        _x80*_x93,
        _x428,
        _x429,
        _x432,
        _x336 + _x412 - _x430*_x434 + _x431*_x434,
        _x132*_x158*_x160 - _x155*_x187 + _x435 + f_8*(_x223*_x337 + _x338),
        _x428,
        _x429,
        _x432,
        -_x155*_x328 + _x340 + _x355*_x357 + _x355*alpha + _x413 - _x430*_x438 + _x431*_x438 + _x435 + f_8*(E*_x223*(_x141*_x307*_x309 + _x310*_x39 + _x311*h) + _x341),
        -_x155*_x329 + _x331 + _x414 + _x439*(_x134 + _x135 + _x137*_x59 + 10*_x91) + f_8*(_x223*_x313 + _x342),
        _x135*_x439,
        E_s*(F_s*_x132*_x35*_x439 - _x155*_x315 + f_8*(_x223*_x312 + _x267))]

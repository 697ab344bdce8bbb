# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ulysses', 'X_ep', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_pp', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_h', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_wq', 'q_8', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_pp, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_h, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_m, n_wq, q_8, qk_norm, r_kv, r_q, router_bias, s_8, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
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
    _x35 = t_e**(-1.0)
    _x36 = F_e*_x35
    _x37 = M_e**(-1.0)
    _x38 = _x26*_x37
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
    _x53 = _x31*a
    _x54 = t_s**(-1.0)
    _x55 = _x54*h
    _x56 = _x55*drop
    _x57 = 4*_x55
    _x58 = _x56 + _x57
    _x59 = 2*_x53
    _x60 = -_x14
    _x61 = _x53*d_v + _x7
    _x62 = _x33*g
    _x63 = _x1*_x62
    _x64 = c**(-1.0)
    _x65 = S*_x64
    _x66 = _x53*_x65
    _x67 = flash - 1
    _x68 = _x67*(3*drop + 2)
    _x69 = _x55*(s_8 - 2) - 4*_x63 - _x66*_x68 + 2*is_mla*(_x15*_x31 + _x18 + _x61)
    _x70 = -_x4*_x59 + _x53*_x60*s_8 + _x69
    _x71 = _x65*b
    _x72 = S**2*_x53*b
    _x73 = _x72/c**2
    _x74 = -_x68*_x73
    _x75 = _x54*_x6
    _x76 = F*_x31
    _x77 = h*s_8
    _x78 = _x24*_x31
    _x79 = 2*_x78
    _x80 = _x54*_x77 + _x76*s_8 + _x79
    _x81 = E*_x54
    _x82 = _x34*n_m
    _x83 = 2*_x82
    _x84 = _x23*_x36
    _x85 = K*imb_mem
    _x86 = _x54*_x85
    _x87 = 4*_x81 + _x83 + _x86*t_e*(_x36*s_8 + _x6 + _x77 + 2*_x84)
    _x88 = _x58 + _x87
    _x89 = _x71*_x75
    _x90 = V*_x31
    _x91 = _x71*_x90
    _x92 = _x57*_x71
    _x93 = _x85*t_e
    _x94 = _x32*a
    _x95 = _x94*(_x8 + d_r)
    _x96 = 2*_x1
    _x97 = _x71*(-_x62*_x96 + _x95)
    _x98 = _x6*_x71
    _x99 = 2*_x76
    _x100 = _x99*n_m
    _x101 = F_e*_x86
    _x102 = 2*_x71
    _x103 = (flash - 2)*(_x13 + _x3 - _x96)
    _x104 = _x64*_x72
    _x105 = _x76*_x98
    _x106 = K*imb
    _x107 = _x29*_x31
    _x108 = _x102*_x107
    _x109 = drop + 32*eager + 10
    _x110 = _x109*_x55
    _x111 = _x14*_x53
    _x112 = _x67*(5*drop + 4)
    _x113 = -_x112*_x66 + 4*eager*(-_x1*_x31*(a + g)*(reduce(minimum, [1, a - g]) + 5) - _x111 + 5*d_r*is_mla*(_x53 + 1))
    _x114 = _x71*(_x110 + _x113)
    _x115 = n_m - 2
    _x116 = 2*_x115
    _x117 = _x116*eager + n_m
    _x118 = _x117*_x99
    _x119 = _x117*_x34
    _x120 = _x101*_x117
    _x121 = E*_x37
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
    _x133 = _x109*_x75 + _x113
    _x134 = W_hbm**(-1.0)
    _x135 = _x134*_x71
    _x136 = _x135*(_x118 + _x133)
    _x137 = f_8 - 1
    _x138 = _x71*h
    _x139 = _x76*h
    _x140 = _x71*_x76
    _x141 = _x139 + _x140
    _x142 = 2*_x134
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
    _x170 = _x31*(_x10 + _x12 + _x19*is_mla)
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
    _x187 = _x134*(_x141 + _x98)
    _x188 = 1/(Pk_8*eta_8)
    _x189 = _x159*_x188
    _x190 = reduce(maximum, [_x187, _x189])
    _x191 = _x134*(_x161 + _x71*_x79)
    _x192 = _x168*_x188*_x98
    _x193 = reduce(maximum, [_x191, _x192])
    _x194 = -_x172
    _x195 = h*n_wq
    _x196 = _x139*n_wq + _x140 + _x195*_x78
    _x197 = -_x111*_x195 - _x170*n_wq - _x181
    _x198 = _x196 + _x197
    _x199 = _x134*q_8
    _x200 = w_8**(-1.0)
    _x201 = _x134*(-_x102*_x171 - _x174)
    _x202 = _x180*_x188
    _x203 = reduce(maximum, [_x201, -_x202])
    _x204 = _x134*(2*S*_x64*b*h - _x182)
    _x205 = _x158*_x188
    _x206 = _x184*_x205
    _x207 = reduce(maximum, [_x204, -_x206])
    _x208 = 2*_x203 + 2*_x207 + reduce(maximum, [_x201, -_x200*_x202]) + reduce(maximum, [_x204, -_x200*_x206])
    _x209 = _x34*h
    _x210 = _x34*_x71
    _x211 = _x209 + _x210
    _x212 = _x134*(_x211 + _x98)
    _x213 = _x31*_x98
    _x214 = F_s*_x213
    _x215 = _x205*_x214
    _x216 = _x23*_x34
    _x217 = _x138 + _x209*_x23
    _x218 = _x134*(_x102*_x216 + _x217)
    _x219 = reduce(maximum, [1, _x216])
    _x220 = _x148*_x219
    _x221 = _x154*ceil(_x220)
    _x222 = _x150*ceil(_x144*_x219)
    _x223 = _x154*ceil(2*_x220)
    _x224 = _x214*_x23/reduce(maximum, [_x221/ceil(_x221), _x222/ceil(_x222), _x223/ceil(_x223)])
    _x225 = _x188*_x224
    _x226 = reduce(maximum, [_x212, _x215]) + reduce(maximum, [_x218, _x225])
    _x227 = E_s*_x226
    _x228 = reduce(maximum, [1, E])
    _x229 = _x106/_x228
    _x230 = M_e*_x229
    _x231 = _x230*t_e
    _x232 = _x36*h
    _x233 = _x54*_x71
    _x234 = _x230*_x233
    _x235 = F_e*_x234
    _x236 = _x232 + _x235
    _x237 = _x121*_x134
    _x238 = _x237*(_x231*_x89 + _x236)
    _x239 = _x106*_x89
    _x240 = _x188*_x239
    _x241 = _x234*t_e
    _x242 = reduce(maximum, [1, _x241])
    _x243 = _x147*reduce(maximum, [1, _x121])
    _x244 = _x243*ceil(_x148*_x242)
    _x245 = _x146*_x244
    _x246 = _x243*ceil(_x144*_x242)
    _x247 = _x153*_x246
    _x248 = _x156*_x246
    _x249 = F_e/reduce(maximum, [_x245/ceil(_x245), _x247/ceil(_x247), _x248/ceil(_x248)])
    _x250 = _x240*_x249
    _x251 = reduce(maximum, [_x238, _x250])
    _x252 = _x23*_x235
    _x253 = _x126*_x231
    _x254 = _x23*_x232 + _x253
    _x255 = _x237*(2*_x252 + _x254)
    _x256 = reduce(maximum, [1, _x84])
    _x257 = _x244*ceil(_x144*_x256)
    _x258 = _x148*_x256
    _x259 = _x246*ceil(_x258)
    _x260 = _x246*ceil(2*_x258)
    _x261 = F_e*_x23
    _x262 = _x261/reduce(maximum, [_x257/ceil(_x257), _x259/ceil(_x259), _x260/ceil(_x260)])
    _x263 = _x240*_x262
    _x264 = reduce(maximum, [_x255, _x263])
    _x265 = _x71*_x81
    _x266 = F_e*(_x195*_x35 + _x234)
    _x267 = _x241 + _x84*n_wq
    _x268 = _x138 + _x195*_x216 + _x195*_x34 + _x210
    _x269 = E_s*_x268 + _x121*_x266 + _x267*_x38
    _x270 = _x197 + _x269
    _x271 = reduce(maximum, [_x143*_x224, _x142*(_x216*_x71 + _x217)]) + reduce(maximum, [_x183*_x214, _x142*(_x138 + _x211)])
    _x272 = E_s*_x271
    _x273 = reduce(maximum, [1, _x233])
    _x274 = _x147*ceil(_x144*_x228)*ceil(_x148*_x273)
    _x275 = _x148*_x228
    _x276 = _x147*ceil(_x144*_x273)
    _x277 = _x276*ceil(_x275)
    _x278 = _x276*ceil(2*_x275)
    _x279 = reduce(maximum, [_x142*(_x126 + _x26 + _x265), _x162*_x81/reduce(maximum, [_x274/ceil(_x274), _x277/ceil(_x277), _x278/ceil(_x278)])])
    _x280 = _x121*_x142
    _x281 = _x143*_x239
    _x282 = reduce(maximum, [_x249*_x281, _x280*(_x236 + _x253)])
    _x283 = reduce(maximum, [_x262*_x281, _x280*(_x252 + _x254)])
    _x284 = _x282 + _x283
    _x285 = _x272 + _x279 + _x284
    _x286 = _x137*(_x185 + _x285)
    _x287 = _x279*f_8
    _x288 = 3*_x134
    _x289 = _x126*_x134
    _x290 = -_x123*_x289 + _x125*_x288
    _x291 = -_x131
    _x292 = _x190 + _x193
    _x293 = _x203 + _x207
    _x294 = _x135*(_x124 + _x133)
    _x295 = _x251 + _x264
    _x296 = _x227 + _x295
    _x297 = reduce(maximum, [1, _x90])
    _x298 = _x150*ceil(_x144*_x297)
    _x299 = _x148*_x297
    _x300 = _x154*ceil(_x299)
    _x301 = _x154*ceil(2*_x299)
    _x302 = W_tp**(-1.0)
    _x303 = _x213*_x302
    _x304 = t - 1
    _x305 = 4*_x304
    _x306 = _x305*(_x303 + alpha)
    _x307 = t_e - 1
    _x308 = _x85/W_etp
    _x309 = _x308*_x89
    _x310 = alpha + 2*_x97/W_cr
    _x311 = 3*c_r - 3
    _x312 = c_u - 1
    _x313 = _x31*_x5
    _x314 = 4*_x71*(_x31*a*d_v*is_mla - _x313 - _x63)/(W_cu*c_u)
    _x315 = M_e - 1
    _x316 = _x315*alpha
    _x317 = _x239*_x315*_x37
    _x318 = reduce(maximum, [_x317*f_off/W_eout, -_x317*(f_off - 1)/W_ein])
    _x319 = _x304*alpha
    _x320 = _x138*_x302*_x31
    _x321 = _x312*_x314 + _x312*alpha
    _x322 = _x305*_x320 + 2*_x319
    _x323 = _x307*alpha
    _x324 = 2*_x316 + 2*_x318
    _x325 = _x307*_x308*_x92 + 2*_x323 + _x324
    _x326 = _x39*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x327 = _x41*(Z_d - 1)/W_dpcp
    _x328 = _x134*(b_g + 26)
    _x329 = _x102*_x95
    _x330 = _x32*has_qlora
    _x331 = has_qlora*is_mla
    _x332 = _x331 - 1
    _x333 = n_m - 3
    _x334 = 2*_x333
    _x335 = _x53 + _x62
    _x336 = 2*_x16*_x94*(2*d_n + d_r + d_v) - 2*_x331*(_x55 + _x7 + r_q) + _x335*_x96 + _x75*drop
    _x337 = _x34 + _x81
    _x338 = -_x104*(_x112*_x134*_x64 + _x130)
    _x339 = 8*_x289*(8*eager + 1)
    _x340 = _x188*f_8
    _x341 = _x137*_x143
    _x342 = _x102*_x94*(_x340 - _x341)*(_x18*_x2 + _x9)
    _x343 = _x1*_x335*h + _x17*_x61*is_mla - _x94*has_qlora*(_x2*r_q + _x9)
    _x344 = _x102*(-_x115*_x139*(_x331 + 1) + _x139*_x333 + _x343)
    _x345 = _x303*_x304 + _x319
    _x346 = _x332*_x34
    _x347 = -_x337*has_qlora*is_mla
    _x348 = _x102*(-_x115*h*(-2*_x346 - _x347) + _x333*h*(-_x346 - _x347) + _x343)
    _x349 = _x142*_x71
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
        _x36*_x38*n_m,
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
        _x102*n_m*(_x101 + _x34),
        -_x102*_x21*_x31,
        -_x103*_x104,
        _x105*n_m,
        _x98*(_x54*(E + _x106*_x27) + _x82),
        _x108,
        _x114,
        _x71*(_x110 + _x118),
        _x125,
        _x123*_x126,
        -_x112*_x73,
        _x132 + 3*_x136 - 3*_x186 + f_8*(2*_x190 + 2*_x193 + _x199*(4*_x138 + _x160 + _x194 + _x198) + _x208 + reduce(maximum, [_x187, _x189*_x200]) + reduce(maximum, [_x191, _x192*_x200])),
        _x114*_x288 + _x132 - 3*_x286 + 3*_x287 + _x290 + f_8*(E_s*(_x226 + reduce(maximum, [_x212, _x200*_x215]) + reduce(maximum, [_x218, _x200*_x225])) + _x199*(E_s*_x71*(_x216 + h) + _x194 + _x229*_x233*_x26*t_e + _x229*_x261*_x265 + _x270 + _x98) + _x208 + _x227 + 2*_x251 + 2*_x264 + reduce(maximum, [_x238, _x200*_x250]) + reduce(maximum, [_x255, _x200*_x263])),
        _x136 - _x186 + _x291 + f_8*(_x199*(_x198 + _x98) + _x292 + _x293),
        -_x286 + _x287 + _x291 + _x294 + f_8*(_x199*(_x138 + _x270) + _x293 + _x296),
        30*_x135*_x90 + 3*reduce(maximum, [_x142*(_x107 + _x138 + _x91), _x108*_x143/reduce(maximum, [_x298/ceil(_x298), _x300/ceil(_x300), _x301/ceil(_x301)])]),
        3*_x272 + 3*_x279 + 3*_x282 + 3*_x283 + _x290,
        _x306,
        _x306,
        4*_x307*(_x309 + alpha),
        _x310*_x311,
        _x311*reduce(maximum, [0, _x128*_x131 + _x310]),
        2*_x312*(_x314 + alpha),
        4*_x316 + 4*_x318,
        2*v*(alpha + _x213/W_pp),
        8*_x304*_x320 + 4*_x319 + _x321,
        _x321 + _x322 + _x325,
        -_x326*_x327,
        -_x326*_x51*(Z_e - 1)/W_edp,
        _x327*(b_r*z_2 + 4*z_3),
        _x328*_x47,
        _x328*_x52,
        _x74,
        _x92,
        _x329,
        _x71*(-_x116*(F*_x330 - _x332*(_x55 + _x76)) + _x334*(-_x332*_x76 + _x54*h*has_qlora*is_mla) + _x336 + _x57 - _x59*_x60 + _x70 + _x80),
        _x71*(_x100 + _x56),
        _x74,
        _x92,
        _x329,
        _x71*(-_x111*s_8 + 2*_x111 - _x116*(_x331*(_x34 + _x55) - _x332*_x337) - 2*_x313 + _x334*(_x28*_x330 - _x332*_x54*(E + h)) + _x336 + 6*_x55 + _x69 + _x87),
        _x71*(-_x55*(drop + 4) + _x88),
        _x101*_x102,
        _x71*_x83,
        _x338,
        _x339,
        _x342,
        _x136 + _x322 - _x340*_x344 + _x341*_x344,
        _x117*_x140*_x142 - _x137*_x169 + _x345 + f_8*(_x199*(_x138 + _x196) + _x292),
        _x338,
        _x339,
        _x342,
        -_x137*_x284 + _x294 + _x307*_x309 + _x323 + _x324 - _x340*_x348 + _x341*_x348 + _x345 + f_8*(_x121*_x199*(_x266 + _x267*h) + _x295),
        -_x137*_x285 + _x287 + _x325 + _x349*(_x119 + _x120 + _x122*_x57 + 10*_x81) + f_8*(_x199*_x269 + _x296),
        _x120*_x349,
        E_s*(F_s*_x117*_x31*_x349 - _x137*_x271 + f_8*(_x199*_x268 + _x226))]

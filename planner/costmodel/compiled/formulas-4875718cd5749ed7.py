# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_ix', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'k_f', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_ix', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_ix, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, k_f, lin_bias, ln_bias, mu, n_ag, n_ix, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, v, w_8, z_1, z_2, z_3):
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
    _x18 = _x3*a
    _x19 = has_qlora - 1
    _x20 = _x19*h
    _x21 = has_qlora*r_q
    _x22 = _x21*(_x18 + h + 1)
    _x23 = _x18*_x20 - _x22
    _x24 = _x14*_x17 + _x15 + _x23*is_mla
    _x25 = _x13 + _x24
    _x26 = d_ix + n_ix
    _x27 = d_ix*n_ix
    _x28 = _x27*(_x20 - _x21)
    _x29 = -_x26*h + _x28 - 2*d_ix
    _x30 = h*n_m
    _x31 = n_m - 1
    _x32 = F*_x31
    _x33 = F*_x30 + lin_bias*(_x32 + h)
    _x34 = E*h
    _x35 = F_e*n_m
    _x36 = E_s*F_s
    _x37 = V*h
    _x38 = ln_bias + 1
    _x39 = t**(-1.0)
    _x40 = _x39*is_mla
    _x41 = t_g**(-1.0)
    _x42 = _x36*_x39
    _x43 = M_e**(-1.0)
    _x44 = t_e**(-1.0)
    _x45 = F_e*_x44
    _x46 = z_2 - 1
    _x47 = _x46*b_g
    _x48 = Z_d**(-1.0)
    _x49 = _x48*z_1
    _x50 = 2*z_1
    _x51 = _x50 + z_3 - 3
    _x52 = 2*mu
    _x53 = 1 - z_1
    _x54 = _x49 + _x53
    _x55 = 4*mu - 12
    _x56 = 1 - z_3
    _x57 = 2*mu - 2
    _x58 = Z_e**(-1.0)
    _x59 = _x53 + _x58*z_1
    _x60 = _x39*a
    _x61 = t_s**(-1.0)
    _x62 = _x61*h
    _x63 = _x62*drop
    _x64 = 4*_x62
    _x65 = _x63 + _x64
    _x66 = _x39*_x6
    _x67 = _x17*_x60
    _x68 = _x60*d_v + _x9
    _x69 = c_r - 1
    _x70 = _x40*a
    _x71 = _x70*(_x10 + d_r)
    _x72 = _x41*g
    _x73 = 2*_x2
    _x74 = _x71 - _x72*_x73
    _x75 = 2*_x74
    _x76 = _x69*_x75
    _x77 = _x2*_x72
    _x78 = c**(-1.0)
    _x79 = S*_x78
    _x80 = flash - 1
    _x81 = _x60*_x80
    _x82 = _x81*(3*drop + 2)
    _x83 = _x62*(s_8 - 2) + _x76*q_sv - 4*_x77 - _x79*_x82 + 2*is_mla*(_x18*_x39 + _x21 + _x68)
    _x84 = -2*_x66 - _x67*s_8 + _x83
    _x85 = _x78*b
    _x86 = S*_x85
    _x87 = S**2
    _x88 = _x87*b/c**2
    _x89 = -_x82*_x88
    _x90 = _x61*_x7
    _x91 = F*_x39
    _x92 = h*s_8
    _x93 = _x32*_x39
    _x94 = 2*_x93
    _x95 = _x61*_x92 + _x91*s_8 + _x94
    _x96 = E*_x61
    _x97 = _x42*n_m
    _x98 = 2*_x97
    _x99 = _x31*_x45
    _x100 = K*imb_mem
    _x101 = _x100*_x61
    _x102 = _x101*t_e*(_x45*s_8 + _x7 + _x92 + 2*_x99) + 4*_x96 + _x98
    _x103 = _x102 + _x65
    _x104 = _x86*_x90
    _x105 = V*_x39
    _x106 = _x105*_x86
    _x107 = _x64*_x86
    _x108 = _x100*t_e
    _x109 = 4*_x86
    _x110 = _x109*_x74
    _x111 = _x7*_x86
    _x112 = 2*_x91
    _x113 = _x112*n_m
    _x114 = F_e*_x101
    _x115 = 2*_x86
    _x116 = _x16 + _x4
    _x117 = _x60*(flash*k_f - 2*flash + 2)
    _x118 = _x117*(_x116 - _x73) + _x27
    _x119 = _x118*_x85*_x87
    _x120 = _x111*_x91
    _x121 = K*imb
    _x122 = _x61*(E + _x121*_x35) + _x97
    _x123 = _x37*_x39
    _x124 = drop + 32*eager + 10
    _x125 = _x124*_x62
    _x126 = _x60 + 1
    _x127 = _x39*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x128 = 4*eager
    _x129 = 5*drop + 4
    _x130 = _x129*_x79
    _x131 = _x130*_x81
    _x132 = _x128*(5*_x126*d_r*is_mla - _x127*_x2 - _x67) - _x131
    _x133 = _x86*(_x125 + _x132)
    _x134 = n_m - 2
    _x135 = 2*_x134
    _x136 = _x135*eager + n_m
    _x137 = _x112*_x136
    _x138 = _x136*_x42
    _x139 = _x114*_x136
    _x140 = E*_x43
    _x141 = _x108*(reduce(maximum, [0, reduce(minimum, [1, _x140 - 1])]) + 1)
    _x142 = 8*_x141
    _x143 = 2*_x138 + 2*_x139 + _x142*_x62 + 20*_x96
    _x144 = _x125 + _x143
    _x145 = _x62*_x86
    _x146 = _x142*_x145
    _x147 = W_hbm**(-1.0)
    _x148 = _x91*h
    _x149 = _x86*_x91
    _x150 = _x148 + _x149
    _x151 = _x147*(_x111 + _x150)
    _x152 = 1/(Pk_8*eta_8)
    _x153 = T_m**(-1.0)
    _x154 = reduce(maximum, [1, h])
    _x155 = ceil(_x153*_x154)
    _x156 = N_sm**(-1.0)
    _x157 = T_n**(-1.0)
    _x158 = reduce(maximum, [1, _x86])
    _x159 = _x156*ceil(_x157*_x158)
    _x160 = _x155*_x159
    _x161 = _x154*_x157
    _x162 = ceil(_x161)
    _x163 = _x156*ceil(_x153*_x158)
    _x164 = _x162*_x163
    _x165 = ceil(2*_x161)
    _x166 = _x163*_x165
    _x167 = reduce(maximum, [_x160/ceil(_x160), _x164/ceil(_x164), _x166/ceil(_x166)])**(-1.0)
    _x168 = _x120*_x167
    _x169 = _x152*_x168
    _x170 = reduce(maximum, [_x151, _x169])
    _x171 = _x86*h
    _x172 = _x171 + _x93*h
    _x173 = _x147*(_x172 + _x86*_x94)
    _x174 = _x111*_x152
    _x175 = reduce(maximum, [1, _x93])
    _x176 = _x159*ceil(_x153*_x175)
    _x177 = _x157*_x175
    _x178 = _x163*ceil(_x177)
    _x179 = _x163*ceil(2*_x177)
    _x180 = _x93/reduce(maximum, [_x176/ceil(_x176), _x178/ceil(_x178), _x179/ceil(_x179)])
    _x181 = _x174*_x180
    _x182 = reduce(maximum, [_x173, _x181])
    _x183 = _x86*_x93
    _x184 = h*n_wq
    _x185 = _x134*h
    _x186 = _x86*s_x
    _x187 = _x148*n_wq + _x149 + _x184*_x93 + _x185*_x186
    _x188 = _x1*s_x
    _x189 = _x188 + 1
    _x190 = _x39*(_x13 + _x15 + _x23*is_mla)
    _x191 = 3*_x86
    _x192 = _x60*d_h
    _x193 = _x0*_x72
    _x194 = _x67*_x86
    _x195 = -_x184*_x67 - _x188*h*(_x191 + _x192*n_wq + _x193*n_wq) + _x189*(_x171 - _x190*n_wq) - _x194
    _x196 = _x190/h
    _x197 = _x196*_x86
    _x198 = -_x186*_x2*(_x60 + 2*_x72) - _x189*_x197
    _x199 = _x147*q_8
    _x200 = w_8**(-1.0)
    _x201 = _x194 + _x67*h
    _x202 = _x147*(2*S*_x78*b*h - _x201)
    _x203 = _x152*_x167
    _x204 = _x111*_x67
    _x205 = _x203*_x204
    _x206 = reduce(maximum, [_x202, -_x205])
    _x207 = -S*_x78*b*h
    _x208 = _x190 + _x207
    _x209 = _x147*(-_x115*_x196 - _x208)
    _x210 = reduce(maximum, [1, -_x196])
    _x211 = _x157*_x210
    _x212 = _x163*ceil(_x211)
    _x213 = _x159*ceil(_x153*_x210)
    _x214 = _x163*ceil(2*_x211)
    _x215 = _x190/reduce(maximum, [_x212/ceil(_x212), _x213/ceil(_x213), _x214/ceil(_x214)])
    _x216 = _x115*_x152*_x215
    _x217 = reduce(maximum, [_x209, -_x216])
    _x218 = _x72*d_h
    _x219 = _x147*(_x171 + _x193*_x86 + _x218*h)
    _x220 = reduce(maximum, [1, _x218])
    _x221 = _x157*_x220
    _x222 = _x163*ceil(_x221)
    _x223 = _x159*ceil(_x153*_x220)
    _x224 = _x163*ceil(2*_x221)
    _x225 = _x174*_x218/reduce(maximum, [_x222/ceil(_x222), _x223/ceil(_x223), _x224/ceil(_x224)])
    _x226 = _x147*(_x0*_x60*_x86 + _x171 + _x192*h)
    _x227 = reduce(maximum, [1, _x192])
    _x228 = _x157*_x227
    _x229 = _x163*ceil(_x228)
    _x230 = _x159*ceil(_x153*_x227)
    _x231 = _x163*ceil(2*_x228)
    _x232 = _x174*_x192/reduce(maximum, [_x229/ceil(_x229), _x230/ceil(_x230), _x231/ceil(_x231)])
    _x233 = 2*reduce(maximum, [_x219, _x225]) + reduce(maximum, [_x226, _x232])
    _x234 = -_x188*_x233 + _x189*_x217
    _x235 = -_x188*(_x233 + 2*reduce(maximum, [_x219, _x200*_x225]) + reduce(maximum, [_x226, _x200*_x232])) + _x189*(_x217 + reduce(maximum, [_x209, -_x200*_x216])) + 2*_x206 + _x234 + reduce(maximum, [_x202, -_x200*_x205])
    _x236 = f_8 - 1
    _x237 = 2*_x147
    _x238 = eta**(-1.0)
    _x239 = Pk**(-1.0)
    _x240 = _x238*_x239
    _x241 = _x111*_x240
    _x242 = reduce(maximum, [_x168*_x240, _x237*(_x150 + _x171)]) + reduce(maximum, [_x180*_x241, _x237*(_x172 + _x183)])
    _x243 = 2*_x238
    _x244 = _x239*_x243
    _x245 = _x244*_x86
    _x246 = _x167*_x240
    _x247 = reduce(maximum, [-_x204*_x246, _x237*(-_x201 - _x207)]) + reduce(maximum, [-_x215*_x245, _x237*(-_x197 - _x208)])
    _x248 = _x236*(_x242 + _x247)
    _x249 = _x124*_x90 + _x132
    _x250 = _x137 + _x249
    _x251 = _x26*h + 2*d_ix
    _x252 = _x251 - _x28
    _x253 = c_r**(-1.0)
    _x254 = S*_x253
    _x255 = _x254*eta_a*flash/(L_a0 + _x254)
    _x256 = (_x255 - _x80*eta)**(-1.0)
    _x257 = _x253*_x69*c_b + 1
    _x258 = _x119*_x239*_x256*_x257
    _x259 = 6*_x240*_x252*_x86 + 3*_x258
    _x260 = _x42*h
    _x261 = _x42*_x86
    _x262 = _x260 + _x261
    _x263 = _x147*(_x111 + _x262)
    _x264 = _x111*_x39
    _x265 = F_s*_x264
    _x266 = _x203*_x265
    _x267 = _x31*_x42
    _x268 = _x171 + _x260*_x31
    _x269 = _x147*(_x115*_x267 + _x268)
    _x270 = reduce(maximum, [1, _x267])
    _x271 = _x157*_x270
    _x272 = _x163*ceil(_x271)
    _x273 = _x159*ceil(_x153*_x270)
    _x274 = _x163*ceil(2*_x271)
    _x275 = _x265*_x31/reduce(maximum, [_x272/ceil(_x272), _x273/ceil(_x273), _x274/ceil(_x274)])
    _x276 = _x152*_x275
    _x277 = reduce(maximum, [_x263, _x266]) + reduce(maximum, [_x269, _x276])
    _x278 = E_s*_x277
    _x279 = reduce(maximum, [1, E])
    _x280 = _x121/_x279
    _x281 = M_e*_x280
    _x282 = _x281*t_e
    _x283 = _x45*h
    _x284 = _x61*_x86
    _x285 = _x281*_x284
    _x286 = F_e*_x285
    _x287 = _x283 + _x286
    _x288 = _x140*_x147
    _x289 = _x288*(_x104*_x282 + _x287)
    _x290 = _x104*_x121
    _x291 = _x152*_x290
    _x292 = _x285*t_e
    _x293 = reduce(maximum, [1, _x292])
    _x294 = _x156*reduce(maximum, [1, _x140])
    _x295 = _x294*ceil(_x157*_x293)
    _x296 = _x155*_x295
    _x297 = _x294*ceil(_x153*_x293)
    _x298 = _x162*_x297
    _x299 = _x165*_x297
    _x300 = F_e/reduce(maximum, [_x296/ceil(_x296), _x298/ceil(_x298), _x299/ceil(_x299)])
    _x301 = _x291*_x300
    _x302 = reduce(maximum, [_x289, _x301])
    _x303 = _x286*_x31
    _x304 = _x145*_x282
    _x305 = _x283*_x31 + _x304
    _x306 = _x288*(2*_x303 + _x305)
    _x307 = reduce(maximum, [1, _x99])
    _x308 = _x295*ceil(_x153*_x307)
    _x309 = _x157*_x307
    _x310 = _x297*ceil(_x309)
    _x311 = _x297*ceil(2*_x309)
    _x312 = F_e*_x31
    _x313 = _x312/reduce(maximum, [_x308/ceil(_x308), _x310/ceil(_x310), _x311/ceil(_x311)])
    _x314 = _x291*_x313
    _x315 = reduce(maximum, [_x306, _x314])
    _x316 = _x86*_x96
    _x317 = _x280*t_e
    _x318 = _x284*_x317*_x34
    _x319 = _x134*s_x
    _x320 = F_e*(_x184*_x44 + _x285)
    _x321 = _x43*(_x292 + _x99*n_wq)
    _x322 = _x171 + _x184*_x267 + _x184*_x42 + _x261
    _x323 = E_s*_x322 + _x140*_x320 + _x318*_x319 + _x321*_x34
    _x324 = _x195 + _x323
    _x325 = reduce(maximum, [_x240*_x275, _x237*(_x267*_x86 + _x268)]) + reduce(maximum, [_x246*_x265, _x237*(_x171 + _x262)])
    _x326 = E_s*_x325
    _x327 = reduce(maximum, [1, _x284])
    _x328 = _x156*ceil(_x153*_x279)*ceil(_x157*_x327)
    _x329 = _x157*_x279
    _x330 = _x156*ceil(_x153*_x327)
    _x331 = _x330*ceil(_x329)
    _x332 = _x330*ceil(2*_x329)
    _x333 = reduce(maximum, [_x237*(_x145 + _x316 + _x34), _x241*_x96/reduce(maximum, [_x328/ceil(_x328), _x331/ceil(_x331), _x332/ceil(_x332)])])
    _x334 = _x140*_x237
    _x335 = _x240*_x290
    _x336 = reduce(maximum, [_x300*_x335, _x334*(_x287 + _x304)])
    _x337 = reduce(maximum, [_x313*_x335, _x334*(_x303 + _x305)])
    _x338 = _x336 + _x337
    _x339 = _x326 + _x333 + _x338
    _x340 = _x236*(_x247 + _x339)
    _x341 = _x333*f_8
    _x342 = _x144*_x147
    _x343 = -_x146*_x147 + _x191*_x342
    _x344 = _x171 + _x187
    _x345 = _x170 + _x182
    _x346 = _x206 + _x234
    _x347 = _x147*_x86
    _x348 = _x250*_x347
    _x349 = _x243*_x252
    _x350 = _x239*_x349
    _x351 = _x258 + _x350*_x86
    _x352 = _x302 + _x315
    _x353 = _x278 + _x352
    _x354 = _x347*(_x143 + _x249)
    _x355 = reduce(maximum, [1, _x105])
    _x356 = _x159*ceil(_x153*_x355)
    _x357 = _x157*_x355
    _x358 = _x163*ceil(_x357)
    _x359 = _x163*ceil(2*_x357)
    _x360 = t - 1
    _x361 = 2*alpha
    _x362 = _x39/W_tp
    _x363 = _x171*_x362
    _x364 = 4*_x363
    _x365 = _x363*a_8
    _x366 = 2*_x360*(_x361 + _x364 - _x365)
    _x367 = t_e - 1
    _x368 = _x100/W_etp
    _x369 = _x104*_x368
    _x370 = W_cr**(-1.0)
    _x371 = _x370*_x86
    _x372 = _x371*_x75 + alpha
    _x373 = _x372*_x69
    _x374 = S*_x257
    _x375 = _x118*_x256*_x374
    _x376 = _x239*(_x349 + _x375)
    _x377 = _x254*_x376*_x85
    _x378 = -_x377
    _x379 = -2*_x377
    _x380 = _x371*_x76 + _x69*alpha
    _x381 = c_u - 1
    _x382 = _x109*(_x39*a*d_v*is_mla - _x66 - _x77)/(W_cu*c_u)
    _x383 = M_e - 1
    _x384 = _x383*alpha
    _x385 = W_eout**(-1.0)
    _x386 = _x290*_x43
    _x387 = _x383*_x385*_x386*f_off
    _x388 = f_off - 1
    _x389 = _x383*_x388
    _x390 = W_ein**(-1.0)
    _x391 = _x386*_x390
    _x392 = reduce(maximum, [_x387, -_x389*_x391])
    _x393 = _x384 + _x392
    _x394 = 4*_x384
    _x395 = ceil(f_off)
    _x396 = 8*_x145
    _x397 = 4*o_ep - 4
    _x398 = -_x383*_x388
    _x399 = reduce(maximum, [_x387, _x391*_x398])
    _x400 = _x384 + _x399
    _x401 = _x86*(_x122*_x240*_x7 + _x342)
    _x402 = 2*_x401
    _x403 = -_x19*h
    _x404 = -_x80
    _x405 = -_x1*d_h
    _x406 = _x16 + _x405
    _x407 = _x86*(_x147*(_x125 + _x128*(5*_x126*d_r*is_mla + _x127*_x405 + _x406*_x60) + _x130*_x404*_x60) + _x239*_x374*(_x117*(_x116 + 2*_x405) + _x27)/(_x255 + _x404*eta) + _x244*_x39*(_x12 + _x14*_x405 + _x14*_x406 + _x405*_x8 + is_mla*(_x18*_x403 + _x22)) + _x244*(_x251 + _x27*(_x21 + _x403)))
    _x408 = 2*_x407
    _x409 = reduce(minimum, [_x400, _x401]) + reduce(minimum, [_x400, _x402]) + reduce(minimum, [_x400, _x407]) + reduce(minimum, [_x400, _x408])
    _x410 = _x398 + 1
    _x411 = M_e/_x410 - 1
    _x412 = alpha*(_x398 + _x411)
    _x413 = (1 - _x43)**K - 1
    _x414 = _x104*imb
    _x415 = _x383*_x414/W_nvl_x
    _x416 = (-_x410*_x43 + 1)**K - 1
    _x417 = _x414/W_rdma_x
    _x418 = reduce(maximum, [-_x413*_x415, -_x411*_x416*_x417])
    _x419 = _x412 + _x418
    _x420 = reduce(minimum, [_x401, _x419]) + reduce(minimum, [_x402, _x419]) + reduce(minimum, [_x407, _x419]) + reduce(minimum, [_x408, _x419])
    _x421 = -4*_x412 - 4*_x418 + _x420
    _x422 = (1 - _x389)**(-1.0)
    _x423 = _x397*(alpha*(M_e*_x422 - _x389 - 1) + reduce(maximum, [-_x413*_x415, -_x416*_x417*(M_e*_x422 - 1)])) - 1000000.0
    _x424 = _x360*alpha
    _x425 = _x111*_x360*_x362
    _x426 = _x381*_x382 + _x381*alpha
    _x427 = _x360*_x365
    _x428 = _x360*_x361 + _x360*_x364 - _x427
    _x429 = _x361*_x383 + 2*_x392
    _x430 = _x107*_x367*_x368 + _x361*_x367 + _x429
    _x431 = _x46*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x432 = _x48*(Z_d - 1)/W_dpcp
    _x433 = _x147*(b_g + 26)
    _x434 = _x115*_x71
    _x435 = _x40*has_qlora
    _x436 = has_qlora*is_mla
    _x437 = _x436 - 1
    _x438 = n_m - 3
    _x439 = 2*_x438
    _x440 = -_x17
    _x441 = 2*_x60
    _x442 = _x60 + _x72
    _x443 = 2*_x19*_x70*(2*d_n + d_r + d_v) - 2*_x436*(_x62 + _x9 + r_q) + _x442*_x73 + _x90*drop
    _x444 = _x42 + _x96
    _x445 = _x86*(-_x131*_x147 + _x239*_x375 + _x350)
    _x446 = _x147*_x396*(8*eager + 1)
    _x447 = _x152*f_8
    _x448 = _x115*_x70*(_x11 + _x21*_x3)*(-_x236*_x240 + _x447)
    _x449 = _x2*_x442*h + _x20*_x68*is_mla - _x70*has_qlora*(_x11 + _x3*r_q)
    _x450 = -_x134*_x148*(_x436 + 1) + _x148*_x438 + _x449
    _x451 = _x115*_x447
    _x452 = _x236*_x245
    _x453 = _x424 + _x425 - 1/2*_x427
    _x454 = _x42*_x437
    _x455 = -_x444*has_qlora*is_mla
    _x456 = -_x185*(-2*_x454 - _x455) + _x438*h*(-_x454 - _x455) + _x449
    _x457 = _x237*_x86
    return [
        -_x25 - _x29 + 2*d_h*qk_norm + lin_bias*(_x0*g - _x6 + h),
        _x33,
        _x34*_x35,
        _x30*_x36,
        E*(h + router_bias),
        _x37,
        -_x37*(tied - 1),
        _x38*h,
        h*(_x7 + 3*ln_bias + 3),
        -_x13*(-_x1*_x41 + _x40) - _x24*_x39 - _x29 + 2*_x38*h,
        _x33*_x39,
        E*router_bias + _x30*_x42 + _x34,
        _x34*_x43*_x45*n_m,
        -_x47 + _x48*b_g*z_2 - _x52*(-2*_x49 + _x51) - _x54*_x55 - _x57*(_x48*z_3 + _x56),
        -_x47 - _x52*(-_x50*_x58 + _x51) - _x55*_x59 - _x57*(_x56 + _x58*z_3) + _x58*b_g*z_2,
        _x86*(4*_x60*flash + _x65 + _x84),
        _x89,
        _x86*(_x63 + _x90 + _x95),
        _x103*_x86,
        _x104,
        _x106*b_l,
        _x107*_x108,
        _x110,
        _x111,
        _x113*_x86,
        _x115*n_m*(_x114 + _x42),
        -_x115*_x25*_x39,
        _x119,
        _x120*n_m,
        _x111*_x122,
        _x115*_x123,
        _x133,
        _x86*(_x125 + _x137),
        _x144*_x86,
        _x146,
        -_x129*_x81*_x88,
        _x147*_x191*_x250 - 3*_x248 + _x259 + f_8*(2*_x170 + 2*_x182 + _x199*(3*_x171 + _x183 + _x187 + _x195 + _x198) + _x235 + reduce(maximum, [_x151, _x169*_x200]) + reduce(maximum, [_x173, _x181*_x200])),
        3*_x133*_x147 + _x259 - 3*_x340 + 3*_x341 + _x343 + f_8*(E_s*(_x277 + reduce(maximum, [_x263, _x200*_x266]) + reduce(maximum, [_x269, _x200*_x276])) + _x199*(E_s*_x86*(_x267 + h) + _x171 + _x198 + _x280*_x312*_x316 + _x318 + _x324) + _x235 + _x278 + 2*_x302 + 2*_x315 + reduce(maximum, [_x289, _x200*_x301]) + reduce(maximum, [_x306, _x200*_x314])),
        -_x248 + _x348 + _x351 + f_8*(_x199*(_x195 + _x344) + _x345 + _x346),
        -_x340 + _x341 + _x351 + _x354 + f_8*(_x199*_x324 + _x346 + _x353),
        30*_x105*_x347 + 3*reduce(maximum, [_x237*(_x106 + _x123 + _x171), _x123*_x245/reduce(maximum, [_x356/ceil(_x356), _x358/ceil(_x358), _x359/ceil(_x359)])]),
        3*_x326 + 3*_x333 + 3*_x336 + 3*_x337 + _x343,
        _x366,
        _x366,
        4*_x367*(_x369 + alpha),
        3*_x373,
        _x373*n_ag + 3*_x69*q_p2p*reduce(maximum, [0, _x372 + _x378]) + q_agr*(_x69*reduce(maximum, [0, _x110*_x370 + _x379 + alpha]) + reduce(maximum, [0, _x378 + _x380]) + reduce(maximum, [0, _x379 + _x380])),
        _x373*reduce(minimum, [1, n_ag]),
        _x376*_x86,
        2*_x381*(_x382 + alpha),
        4*_x393,
        reduce(minimum, [_x383*_x396*(_x385*_x395 - _x390*(_x395 - 1)) + _x394 - 1000000.0*d_ag + 1000000.0, -_x423 - 1000000.0*d_dep - o_ep*(-_x420*n_sm_dep/(N_sm - n_sm_dep) + _x421), -_x423 - 1000000.0*d_hep - o_ep*(-_x420*n_sm_hep/(N_sm - n_sm_hep) + _x421), -_x393*_x397 - 1000000.0*d_a2a - o_ep*(-_x394 - 4*_x399 - _x409*n_sm_a2a/(N_sm - n_sm_a2a) + _x409) + 1000000.0]),
        2*v*(alpha + _x264/W_pp),
        8*_x360*_x363 + 4*_x424 - _x425*a_8 + _x426,
        _x426 + _x428 + _x430,
        -_x431*_x432,
        -_x431*_x58*(Z_e - 1)/W_edp,
        _x432*(b_r*z_2 + 4*z_3),
        _x433*_x54,
        _x433*_x59,
        _x89,
        _x107,
        _x434,
        _x86*(-_x135*(F*_x435 - _x437*(_x62 + _x91)) + _x439*(-_x437*_x91 + _x61*h*has_qlora*is_mla) - _x440*_x441 + _x440*_x60*s_8 - _x441*_x5 + _x443 + _x64 + _x83 + _x95),
        _x86*(_x113 + _x63),
        _x89,
        _x107,
        _x434,
        _x86*(_x102 - _x135*(_x436*(_x42 + _x62) - _x437*_x444) + _x439*(_x36*_x435 - _x437*_x61*(E + h)) + _x443 + 6*_x62 + 2*_x67 + _x84),
        _x86*(_x103 - _x62*(drop + 4)),
        _x114*_x115,
        _x86*_x98,
        _x445,
        _x446,
        _x448,
        _x348 + _x428 - _x450*_x451 + _x450*_x452,
        _x136*_x149*_x237 - _x236*_x242 + _x453 + f_8*(_x199*_x344 + _x345),
        _x445,
        _x446,
        _x448,
        -_x236*_x338 + _x354 + _x367*_x369 + _x367*alpha + _x429 - _x451*_x456 + _x452*_x456 + _x453 + f_8*(E*_x199*(_x145*_x317*_x319 + _x320*_x43 + _x321*h) + _x352),
        -_x236*_x339 + _x341 + _x430 + _x457*(_x138 + _x139 + _x141*_x64 + 10*_x96) + f_8*(_x199*_x323 + _x353),
        _x139*_x457,
        E_s*(F_s*_x136*_x39*_x457 - _x236*_x325 + f_8*(_x199*_x322 + _x277))]

# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_sort', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'Tk_router', 'Tk_perm', 'Tk_sort', 'Tk_experts', 'Tk_experts_fd', 'Tk_expert_act', 'Tk_shared', 'Tk_attn_core', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_ep', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_r, c, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_ag, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_ep, v, w_8, z_1, z_2, z_3):
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
    _x103 = _x96*t_e
    _x104 = _x60*_x81
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
    _x117 = K*imb
    _x118 = _x57*(E + _x117*_x31) + _x93
    _x119 = _x33*_x35
    _x120 = drop + 32*eager + 10
    _x121 = _x120*_x58
    _x122 = _x56 + 1
    _x123 = _x35*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x124 = 4*eager
    _x125 = 5*drop + 4
    _x126 = _x125*_x77
    _x127 = _x124*(5*_x122*d_r*is_mla - _x123*_x2 - _x63) - _x126*_x76
    _x128 = _x81*(_x121 + _x127)
    _x129 = n_m - 2
    _x130 = 2*_x129
    _x131 = _x130*eager + n_m
    _x132 = _x108*_x131
    _x133 = 20*_x92
    _x134 = _x131*_x38
    _x135 = _x110*_x131
    _x136 = 8*_x103
    _x137 = _x133 + 2*_x134 + 2*_x135 + _x136*_x58
    _x138 = _x121 + _x137
    _x139 = _x58*_x81
    _x140 = _x136*_x139
    _x141 = E*_x39
    _x142 = reduce(maximum, [0, reduce(minimum, [1, _x141 - 1])])
    _x143 = c_r**(-1.0)
    _x144 = S*_x143
    _x145 = _x144*eta_a*flash/(L_a0 + _x144)
    _x146 = Pk**(-1.0)
    _x147 = _x146*(_x143*_x65*c_b + 1)
    _x148 = _x115*_x147/(_x145 - _x77*eta)
    _x149 = _x116*_x148
    _x150 = -3*_x149
    _x151 = W_hbm**(-1.0)
    _x152 = _x120*_x86 + _x127
    _x153 = _x132 + _x152
    _x154 = 3*_x81
    _x155 = f_8 - 1
    _x156 = _x81*h
    _x157 = _x87*h
    _x158 = _x81*_x87
    _x159 = _x157 + _x158
    _x160 = 2*_x151
    _x161 = reduce(maximum, [1, _x81])
    _x162 = _x161*u_ep
    _x163 = _x146/eta
    _x164 = T_m**(-1.0)
    _x165 = reduce(maximum, [1, h])
    _x166 = ceil(_x164*_x165)
    _x167 = N_sm**(-1.0)
    _x168 = T_n**(-1.0)
    _x169 = _x167*ceil(_x161*_x168)
    _x170 = _x166*_x169
    _x171 = _x165*_x168
    _x172 = ceil(_x171)
    _x173 = _x167*ceil(_x161*_x164)
    _x174 = _x172*_x173
    _x175 = ceil(2*_x171)
    _x176 = _x173*_x175
    _x177 = reduce(maximum, [_x170/ceil(_x170), _x174/ceil(_x174), _x176/ceil(_x176)])**(-1.0)
    _x178 = _x158*_x177
    _x179 = _x81*_x89
    _x180 = _x156 + _x89*h
    _x181 = reduce(maximum, [1, _x89])
    _x182 = _x169*ceil(_x164*_x181)
    _x183 = _x168*_x181
    _x184 = _x173*ceil(_x183)
    _x185 = _x173*ceil(2*_x183)
    _x186 = reduce(maximum, [_x182/ceil(_x182), _x184/ceil(_x184), _x185/ceil(_x185)])**(-1.0)
    _x187 = _x156*_x163
    _x188 = reduce(maximum, [_x160*(_x156 + _x159), _x7*(_x162 + _x163*_x178)]) + reduce(maximum, [_x160*(_x179 + _x180), _x90*(_x162 + _x186*_x187)])
    _x189 = h**(-1.0)
    _x190 = _x35*(_x13 + _x15 + _x23*is_mla)
    _x191 = _x189*_x190
    _x192 = _x191*_x81
    _x193 = -S*_x74*b*h
    _x194 = _x190 + _x193
    _x195 = _x162*_x189
    _x196 = reduce(maximum, [1, -_x191])
    _x197 = _x168*_x196
    _x198 = _x173*ceil(_x197)
    _x199 = _x169*ceil(_x164*_x196)
    _x200 = _x173*ceil(2*_x197)
    _x201 = _x81/reduce(maximum, [_x198/ceil(_x198), _x199/ceil(_x199), _x200/ceil(_x200)])
    _x202 = 2*_x190
    _x203 = _x63*_x81
    _x204 = _x203 + _x63*h
    _x205 = _x163*_x177
    _x206 = reduce(maximum, [-_x202*(_x163*_x201 + _x195), _x160*(-_x192 - _x194)]) + reduce(maximum, [_x7*(_x162 - _x203*_x205), _x160*(-_x193 - _x204)])
    _x207 = _x155*(_x188 + _x206)
    _x208 = _x151*(_x107 + _x159)
    _x209 = 1/(Pk_8*eta_8)
    _x210 = _x178*_x209
    _x211 = reduce(maximum, [_x208, _x7*(_x162 + _x210)])
    _x212 = _x151*(_x180 + _x81*_x90)
    _x213 = _x156*_x209
    _x214 = _x186*_x213
    _x215 = reduce(maximum, [_x212, _x90*(_x162 + _x214)])
    _x216 = h*n_wq
    _x217 = _x129*h
    _x218 = _x81*s_x
    _x219 = _x157*n_wq + _x158 + _x216*_x89 + _x217*_x218
    _x220 = _x1*s_x
    _x221 = _x220 + 1
    _x222 = _x56*d_h
    _x223 = _x0*_x68
    _x224 = -_x203 - _x216*_x63 - _x220*h*(_x154 + _x222*n_wq + _x223*n_wq) + _x221*(_x156 - _x190*n_wq)
    _x225 = -_x192*_x221 - _x2*_x218*(_x56 + 2*_x68)
    _x226 = _x151*q_8
    _x227 = w_8**(-1.0)
    _x228 = _x151*(2*S*_x74*b*h - _x204)
    _x229 = _x177*_x209
    _x230 = _x203*_x229
    _x231 = reduce(maximum, [_x228, _x7*(_x162 - _x230)])
    _x232 = _x151*(-_x111*_x191 - _x194)
    _x233 = _x201*_x209
    _x234 = reduce(maximum, [_x232, -_x202*(_x195 + _x233)])
    _x235 = _x68*d_h
    _x236 = _x151*(_x156 + _x223*_x81 + _x235*h)
    _x237 = reduce(maximum, [1, _x235])
    _x238 = _x168*_x237
    _x239 = _x173*ceil(_x238)
    _x240 = _x169*ceil(_x164*_x237)
    _x241 = _x173*ceil(2*_x238)
    _x242 = _x213/reduce(maximum, [_x239/ceil(_x239), _x240/ceil(_x240), _x241/ceil(_x241)])
    _x243 = _x0*_x56
    _x244 = _x151*(_x156 + _x222*h + _x243*_x81)
    _x245 = reduce(maximum, [1, _x222])
    _x246 = _x168*_x245
    _x247 = _x173*ceil(_x246)
    _x248 = _x169*ceil(_x164*_x245)
    _x249 = _x173*ceil(2*_x246)
    _x250 = _x213/reduce(maximum, [_x247/ceil(_x247), _x248/ceil(_x248), _x249/ceil(_x249)])
    _x251 = 2*reduce(maximum, [_x236, _x223*(_x162 + _x242)]) + reduce(maximum, [_x244, _x243*(_x162 + _x250)])
    _x252 = -_x220*_x251 + _x221*_x234
    _x253 = -_x220*(_x251 + 2*reduce(maximum, [_x236, _x223*(_x162 + _x227*_x242)]) + reduce(maximum, [_x244, _x243*(_x162 + _x227*_x250)])) + _x221*(_x234 + reduce(maximum, [_x232, -_x202*(_x195 + _x227*_x233)])) + 2*_x231 + _x252 + reduce(maximum, [_x228, _x7*(_x162 - _x227*_x230)])
    _x254 = _x38*h
    _x255 = _x38*_x81
    _x256 = _x254 + _x255
    _x257 = _x151*(_x107 + _x256)
    _x258 = F_s*_x35
    _x259 = _x258*_x81
    _x260 = _x229*_x259
    _x261 = reduce(maximum, [_x257, _x7*(_x162 + _x260)])
    _x262 = 2*_x27
    _x263 = _x156 + _x254*_x27
    _x264 = _x151*(_x255*_x262 + _x263)
    _x265 = E_s*_x162
    _x266 = _x27*_x38
    _x267 = reduce(maximum, [1, _x266])
    _x268 = _x168*_x267
    _x269 = _x173*ceil(_x268)
    _x270 = _x169*ceil(_x164*_x267)
    _x271 = _x173*ceil(2*_x268)
    _x272 = reduce(maximum, [_x269/ceil(_x269), _x270/ceil(_x270), _x271/ceil(_x271)])**(-1.0)
    _x273 = _x213*_x272
    _x274 = _x258*_x262
    _x275 = reduce(maximum, [_x264, _x274*(_x265 + _x273)])
    _x276 = _x261 + _x275
    _x277 = E_s*_x276
    _x278 = reduce(maximum, [_x257, _x7*(_x162 + _x227*_x260)]) + reduce(maximum, [_x264, _x274*(_x227*_x273 + _x265)])
    _x279 = reduce(maximum, [1, E])
    _x280 = _x279**(-1.0)
    _x281 = _x81*_x92
    _x282 = _x57*_x81
    _x283 = _x117*_x282
    _x284 = _x280*t_e
    _x285 = _x283*_x284*_x30
    _x286 = _x129*s_x
    _x287 = M_e*_x280
    _x288 = _x283*_x287
    _x289 = F_e*(_x216*_x40 + _x288)
    _x290 = _x288*t_e
    _x291 = _x39*(_x290 + _x95*n_wq)
    _x292 = _x156 + _x216*_x266 + _x216*_x38 + _x255
    _x293 = E_s*_x292 + _x141*_x289 + _x285*_x286 + _x291*_x30
    _x294 = _x224 + _x293
    _x295 = _x287*t_e
    _x296 = _x100*_x117
    _x297 = _x41*h
    _x298 = F_e*_x288
    _x299 = _x297 + _x298
    _x300 = _x141*_x151
    _x301 = _x300*(_x295*_x296 + _x299)
    _x302 = reduce(maximum, [1, _x290])
    _x303 = _x141*_x302*u_ep
    _x304 = _x167*reduce(maximum, [1, _x141])
    _x305 = _x304*ceil(_x168*_x302)
    _x306 = _x166*_x305
    _x307 = _x304*ceil(_x164*_x302)
    _x308 = _x172*_x307
    _x309 = _x175*_x307
    _x310 = F_e*_x283/reduce(maximum, [_x306/ceil(_x306), _x308/ceil(_x308), _x309/ceil(_x309)])
    _x311 = _x209*_x310
    _x312 = reduce(maximum, [_x301, _x7*(_x303 + _x311)])
    _x313 = F_e*_x262
    _x314 = _x117*_x139
    _x315 = _x295*_x314
    _x316 = _x27*_x297 + _x315
    _x317 = _x300*(_x288*_x313 + _x316)
    _x318 = _x303*_x40
    _x319 = reduce(maximum, [1, _x95])
    _x320 = _x305*ceil(_x164*_x319)
    _x321 = _x168*_x319
    _x322 = _x307*ceil(_x321)
    _x323 = _x307*ceil(2*_x321)
    _x324 = reduce(maximum, [_x320/ceil(_x320), _x322/ceil(_x322), _x323/ceil(_x323)])**(-1.0)
    _x325 = _x209*_x314*_x324
    _x326 = reduce(maximum, [_x317, _x313*(_x318 + _x325)])
    _x327 = 2*_x312 + 2*_x326 + reduce(maximum, [_x301, _x7*(_x227*_x311 + _x303)]) + reduce(maximum, [_x317, _x313*(_x227*_x325 + _x318)])
    _x328 = reduce(maximum, [1, _x282])
    _x329 = _x167*ceil(_x164*_x279)*ceil(_x168*_x328)
    _x330 = _x168*_x279
    _x331 = _x167*ceil(_x164*_x328)
    _x332 = _x331*ceil(_x330)
    _x333 = _x331*ceil(2*_x330)
    _x334 = _x139*_x163
    _x335 = reduce(maximum, [_x160*(_x139 + _x281 + _x30), 2*E*(_x328*u_ep + _x334/reduce(maximum, [_x329/ceil(_x329), _x332/ceil(_x332), _x333/ceil(_x333)]))])
    _x336 = reduce(maximum, [_x160*(_x156 + _x256), _x7*(_x162 + _x205*_x259)]) + reduce(maximum, [_x160*(_x263 + _x266*_x81), _x274*(_x187*_x272 + _x265)])
    _x337 = E_s*_x336
    _x338 = _x141*_x160
    _x339 = reduce(maximum, [_x338*(_x299 + _x315), _x7*(_x163*_x310 + _x303)])
    _x340 = reduce(maximum, [_x338*(_x27*_x298 + _x316), _x313*(_x117*_x324*_x334 + _x318)])
    _x341 = _x339 + _x340
    _x342 = _x335 + _x337 + _x341
    _x343 = _x155*(_x206 + _x342)
    _x344 = _x335*f_8
    _x345 = _x138*_x151
    _x346 = -_x140*_x151 + _x154*_x345
    _x347 = -_x149
    _x348 = _x151*_x81
    _x349 = _x153*_x348
    _x350 = _x156 + _x219
    _x351 = _x211 + _x215
    _x352 = _x231 + _x252
    _x353 = _x348*(_x137 + _x152)
    _x354 = _x312 + _x326
    _x355 = _x277 + _x354
    _x356 = reduce(maximum, [1, _x101])
    _x357 = _x169*ceil(_x164*_x356)
    _x358 = _x168*_x356
    _x359 = _x173*ceil(_x358)
    _x360 = _x173*ceil(2*_x358)
    _x361 = 16*_x103*_x139*_x151
    _x362 = _x155*_x341
    _x363 = -_x362
    _x364 = _x155*_x336
    _x365 = t - 1
    _x366 = 2*alpha
    _x367 = _x35/W_tp
    _x368 = _x156*_x367
    _x369 = 4*_x368
    _x370 = _x368*a_8
    _x371 = 2*_x365*(_x366 + _x369 - _x370)
    _x372 = t_e - 1
    _x373 = _x96/W_etp
    _x374 = _x100*_x373
    _x375 = W_cr**(-1.0)
    _x376 = _x375*_x81
    _x377 = _x376*_x71 + alpha
    _x378 = _x377*_x65
    _x379 = _x143*_x149
    _x380 = 2*_x56
    _x381 = _x143*_x148*_x380*_x74*_x82*b
    _x382 = _x376*_x72 + _x65*alpha
    _x383 = c_u - 1
    _x384 = _x105*(_x35*a*d_v*is_mla - _x62 - _x73)/(W_cu*c_u)
    _x385 = M_e - 1
    _x386 = _x385*alpha
    _x387 = W_eout**(-1.0)
    _x388 = _x296*_x39
    _x389 = _x385*_x387*_x388*f_off
    _x390 = f_off - 1
    _x391 = _x385*_x390
    _x392 = W_ein**(-1.0)
    _x393 = _x388*_x392
    _x394 = reduce(maximum, [_x389, -_x391*_x393])
    _x395 = _x386 + _x394
    _x396 = 4*_x386
    _x397 = ceil(f_off)
    _x398 = 8*_x139
    _x399 = 4*o_ep - 4
    _x400 = -_x385*_x390
    _x401 = reduce(maximum, [_x389, _x393*_x400])
    _x402 = _x386 + _x401
    _x403 = _x81*(_x118*_x163*_x7 + _x345)
    _x404 = 2*_x403
    _x405 = -_x77
    _x406 = -_x1*d_h
    _x407 = _x16 + _x406
    _x408 = _x81*(-S*_x113*_x147*_x56*(_x114 + 2*_x406)/(_x145 + _x405*eta) + _x112*_x163*(_x12 + _x14*_x406 + _x14*_x407 + _x406*_x8 + is_mla*(-_x18*_x20 + _x22)) + _x151*(_x121 + _x124*(5*_x122*d_r*is_mla + _x123*_x406 + _x407*_x56) + _x125*_x405*_x76))
    _x409 = 2*_x408
    _x410 = reduce(minimum, [_x402, _x403]) + reduce(minimum, [_x402, _x404]) + reduce(minimum, [_x402, _x408]) + reduce(minimum, [_x402, _x409])
    _x411 = _x400 + 1
    _x412 = M_e/_x411 - 1
    _x413 = alpha*(_x400 + _x412)
    _x414 = (1 - _x39)**K - 1
    _x415 = _x100*imb
    _x416 = _x385*_x415/W_nvl_x
    _x417 = (-_x39*_x411 + 1)**K - 1
    _x418 = _x415/W_rdma_x
    _x419 = reduce(maximum, [-_x414*_x416, -_x412*_x417*_x418])
    _x420 = _x413 + _x419
    _x421 = reduce(minimum, [_x403, _x420]) + reduce(minimum, [_x404, _x420]) + reduce(minimum, [_x408, _x420]) + reduce(minimum, [_x409, _x420])
    _x422 = -4*_x413 - 4*_x419 + _x421
    _x423 = (1 - _x391)**(-1.0)
    _x424 = _x399*(alpha*(M_e*_x423 - _x391 - 1) + reduce(maximum, [-_x414*_x416, -_x417*_x418*(M_e*_x423 - 1)])) - 1000000.0
    _x425 = _x365*alpha
    _x426 = _x107*_x365*_x367
    _x427 = _x383*_x384 + _x383*alpha
    _x428 = _x365*_x370
    _x429 = _x365*_x366 + _x365*_x369 - _x428
    _x430 = _x366*_x385 + 2*_x394
    _x431 = _x104*_x372*_x373 + _x366*_x372 + _x430
    _x432 = _x42*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x433 = _x44*(Z_d - 1)/W_dpcp
    _x434 = _x151*(b_g + 26)
    _x435 = _x111*_x67
    _x436 = _x36*has_qlora
    _x437 = has_qlora*is_mla
    _x438 = _x437 - 1
    _x439 = n_m - 3
    _x440 = 2*_x439
    _x441 = -_x17
    _x442 = _x56 + _x68
    _x443 = 2*_x18*_x66*(2*d_n + d_r + d_v) - 2*_x437*(_x58 + _x9 + r_q) + _x442*_x69 + _x86*drop
    _x444 = _x38 + _x92
    _x445 = -_x116*(_x126*_x151*_x74 + _x148)
    _x446 = _x151*_x398*(8*eager + 1)
    _x447 = _x209*f_8
    _x448 = _x155*_x163
    _x449 = _x111*_x66*(_x11 + _x21*_x3)*(_x447 - _x448)
    _x450 = _x18*_x64*h*is_mla + _x2*_x442*h - _x66*has_qlora*(_x11 + _x3*r_q)
    _x451 = _x111*(-_x129*_x157*(_x437 + 1) + _x157*_x439 + _x450)
    _x452 = _x425 + _x426 - 1/2*_x428
    _x453 = _x38*_x438
    _x454 = -_x444*has_qlora*is_mla
    _x455 = _x111*(-_x217*(-2*_x453 - _x454) + _x439*h*(-_x453 - _x454) + _x450)
    _x456 = _x160*_x81
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
        _x107*_x87*n_m,
        _x107*_x118,
        _x111*_x119,
        _x128,
        _x81*(_x121 + _x132),
        _x138*_x81,
        _x140,
        _x140*_x142,
        -_x126*_x84,
        _x150 + _x151*_x153*_x154 - 3*_x207 + f_8*(2*_x211 + 2*_x215 + _x226*(3*_x156 + _x179 + _x219 + _x224 + _x225) + _x253 + reduce(maximum, [_x208, _x7*(_x162 + _x210*_x227)]) + reduce(maximum, [_x212, _x90*(_x162 + _x214*_x227)])),
        3*_x128*_x151 + _x150 - 3*_x343 + 3*_x344 + _x346 + f_8*(E_s*(_x276 + _x278) + _x226*(E_s*_x81*(_x266 + h) + F_e*_x117*_x27*_x280*_x281 + _x156 + _x225 + _x285 + _x294) + _x253 + _x277 + _x327),
        -_x207 + _x347 + _x349 + f_8*(_x226*(_x224 + _x350) + _x351 + _x352),
        -_x343 + _x344 + _x347 + _x353 + f_8*(_x226*_x294 + _x352 + _x355),
        30*_x101*_x348 + 3*reduce(maximum, [_x160*(_x102 + _x119 + _x156), 2*_x101*(_x162 + _x187/reduce(maximum, [_x357/ceil(_x357), _x359/ceil(_x359), _x360/ceil(_x360)]))]),
        3*_x335 + 3*_x337 + 3*_x339 + 3*_x340 + _x346,
        3*_x133*_x348 + 3*_x335,
        _x361,
        _x142*_x361,
        _x327*f_8 - 3*_x362,
        2*_x354*f_8 + 2*_x363,
        6*_x135*_x348,
        E_s*(-3*_x364 + f_8*(2*_x261 + 2*_x275 + _x278)),
        _x150,
        _x371,
        _x371,
        4*_x372*(_x374 + alpha),
        3*_x378,
        _x378*n_ag + 3*_x65*q_p2p*reduce(maximum, [0, _x377 + _x379]) + q_agr*(_x65*reduce(maximum, [0, _x106*_x375 + _x381 + alpha]) + reduce(maximum, [0, _x379 + _x382]) + reduce(maximum, [0, _x381 + _x382])),
        _x378*reduce(minimum, [1, n_ag]),
        _x347,
        2*_x383*(_x384 + alpha),
        4*_x395,
        reduce(minimum, [_x385*_x398*(_x387*_x397 - _x392*(_x397 - 1)) + _x396 - 1000000.0*d_ag + 1000000.0, -_x424 - 1000000.0*d_dep - o_ep*(-_x421*n_sm_dep/(N_sm - n_sm_dep) + _x422), -_x424 - 1000000.0*d_hep - o_ep*(-_x421*n_sm_hep/(N_sm - n_sm_hep) + _x422), 16*K*S*_x142*_x151*_x57*_x74*b*h*imb_mem*t_e - _x395*_x399 - 1000000.0*d_a2a - o_ep*(-_x396 - 4*_x401 - _x410*n_sm_a2a/(N_sm - n_sm_a2a) + _x410) + 1000000.0]),
        2*v*(alpha + _x107*_x35/W_pp),
        8*_x365*_x368 + 4*_x425 - _x426*a_8 + _x427,
        _x427 + _x429 + _x431,
        -_x432*_x433,
        -_x432*_x54*(Z_e - 1)/W_edp,
        _x433*(b_r*z_2 + 4*z_3),
        _x434*_x50,
        _x434*_x55,
        _x85,
        _x104,
        _x435,
        _x81*(-_x130*(F*_x436 - _x438*(_x58 + _x87)) - _x380*_x441 - _x380*_x5 + _x440*(-_x438*_x87 + _x57*h*has_qlora*is_mla) + _x441*_x56*s_8 + _x443 + _x60 + _x79 + _x91),
        _x81*(_x109 + _x59),
        _x85,
        _x104,
        _x435,
        _x81*(-_x130*(_x437*(_x38 + _x58) - _x438*_x444) + _x440*(_x32*_x436 - _x438*_x57*(E + h)) + _x443 + 6*_x58 + 2*_x63 + _x80 + _x98),
        _x81*(-_x58*(drop + 4) + _x99),
        _x110*_x111,
        _x81*_x94,
        _x445,
        _x446,
        _x449,
        _x349 + _x429 - _x447*_x451 + _x448*_x451,
        _x131*_x158*_x160 - _x155*_x188 + _x452 + f_8*(_x226*_x350 + _x351),
        _x445,
        _x446,
        _x449,
        _x353 + _x363 + _x372*_x374 + _x372*alpha + _x430 - _x447*_x455 + _x448*_x455 + _x452 + f_8*(E*_x226*(_x284*_x286*_x314 + _x289*_x39 + _x291*h) + _x354),
        -_x155*_x342 + _x344 + _x431 + _x456*(_x103*_x60 + _x134 + _x135 + 10*_x92) + f_8*(_x226*_x293 + _x355),
        _x135*_x456,
        E_s*(_x131*_x258*_x456 - _x364 + f_8*(_x226*_x292 + _x276))]

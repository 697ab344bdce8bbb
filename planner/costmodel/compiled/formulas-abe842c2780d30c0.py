# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_sort', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'Tk_router', 'Tk_perm', 'Tk_sort', 'Tk_experts', 'Tk_experts_fd', 'Tk_expert_act', 'Tk_shared', 'Tk_attn_core', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ring_rc', 'T_core', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'Pk_8', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'a_8', 'alpha', 'b', 'b_g', 'b_l', 'b_o', 'b_r', 'b_y', 'c', 'c_b', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_ix', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_8', 'eta_a', 'eta_g', 'f_8', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'k_f', 'lin_bias', 'ln_bias', 'mu', 'n_ag', 'n_ix', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'n_wq', 'o_ep', 'q_8', 'q_agr', 'q_p2p', 'q_sv', 'qk_norm', 'r_kv', 'r_q', 'rho_ov', 'router_bias', 's_8', 's_x', 't', 't_e', 't_g', 't_s', 'tied', 'u_ep', 'v', 'w_8', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, Pk_8, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, a_8, alpha, b, b_g, b_l, b_o, b_r, b_y, c, c_b, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_ix, d_n, d_r, d_v, drop, eager, eta, eta_8, eta_a, eta_g, f_8, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, k_f, lin_bias, ln_bias, mu, n_ag, n_ix, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, n_wq, o_ep, q_8, q_agr, q_p2p, q_sv, qk_norm, r_kv, r_q, rho_ov, router_bias, s_8, s_x, t, t_e, t_g, t_s, tied, u_ep, v, w_8, z_1, z_2, z_3):
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
    _x50 = 1 - z_1
    _x51 = _x49 + _x50
    _x52 = 2*z_1
    _x53 = _x52 + z_3 - 3
    _x54 = 2*mu
    _x55 = 1 - z_3
    _x56 = 2*mu - 2
    _x57 = Z_e**(-1.0)
    _x58 = _x50 + _x57*z_1
    _x59 = _x39*a
    _x60 = t_s**(-1.0)
    _x61 = _x60*h
    _x62 = _x61*drop
    _x63 = 4*_x61
    _x64 = _x62 + _x63
    _x65 = _x39*_x6
    _x66 = _x17*_x59
    _x67 = _x59*d_v + _x9
    _x68 = c_r - 1
    _x69 = _x40*a
    _x70 = _x69*(_x10 + d_r)
    _x71 = _x41*g
    _x72 = 2*_x2
    _x73 = _x70 - _x71*_x72
    _x74 = 2*_x73
    _x75 = _x68*_x74
    _x76 = _x2*_x71
    _x77 = c**(-1.0)
    _x78 = S*_x77
    _x79 = flash - 1
    _x80 = _x59*_x79
    _x81 = _x80*(3*drop + 2)
    _x82 = _x61*(s_8 - 2) + _x75*q_sv - 4*_x76 - _x78*_x81 + 2*is_mla*(_x18*_x39 + _x21 + _x67)
    _x83 = -2*_x65 - _x66*s_8 + _x82
    _x84 = _x77*b
    _x85 = S*_x84
    _x86 = S**2
    _x87 = _x86*b/c**2
    _x88 = -_x81*_x87
    _x89 = _x60*_x7
    _x90 = F*_x39
    _x91 = h*s_8
    _x92 = _x32*_x39
    _x93 = 2*_x92
    _x94 = _x60*_x91 + _x90*s_8 + _x93
    _x95 = E*_x60
    _x96 = _x42*n_m
    _x97 = 2*_x96
    _x98 = _x31*_x45
    _x99 = K*imb_mem
    _x100 = _x60*_x99
    _x101 = _x100*t_e*(_x45*s_8 + _x91 + 2*_x98 + b_y*h) + 4*_x95 + _x97
    _x102 = _x101 + _x64
    _x103 = _x85*_x89
    _x104 = V*_x39
    _x105 = _x104*_x85
    _x106 = _x99*t_e
    _x107 = _x63*_x85
    _x108 = 4*_x85
    _x109 = _x108*_x73
    _x110 = _x7*_x85
    _x111 = 2*_x90
    _x112 = _x111*n_m
    _x113 = F_e*_x100
    _x114 = 2*_x85
    _x115 = _x16 + _x4
    _x116 = _x59*(flash*k_f - 2*flash + 2)
    _x117 = _x116*(_x115 - _x72) + _x27
    _x118 = _x117*_x84*_x86
    _x119 = K*imb
    _x120 = _x60*(E + _x119*_x35) + _x96
    _x121 = _x37*_x39
    _x122 = drop + 32*eager + 10
    _x123 = _x122*_x61
    _x124 = _x59 + 1
    _x125 = _x39*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x126 = 4*eager
    _x127 = 5*drop + 4
    _x128 = _x127*_x78
    _x129 = _x128*_x80
    _x130 = _x126*(5*_x124*d_r*is_mla - _x125*_x2 - _x66) - _x129
    _x131 = _x85*(_x123 + _x130)
    _x132 = n_m - 2
    _x133 = 2*_x132
    _x134 = _x133*eager + n_m
    _x135 = _x111*_x134
    _x136 = 20*_x95
    _x137 = _x134*_x42
    _x138 = _x113*_x134
    _x139 = 8*_x106
    _x140 = _x136 + 2*_x137 + 2*_x138 + _x139*_x61
    _x141 = _x123 + _x140
    _x142 = _x61*_x85
    _x143 = _x139*_x142
    _x144 = E*_x43
    _x145 = reduce(maximum, [0, reduce(minimum, [1, _x144 - 1])])
    _x146 = W_hbm**(-1.0)
    _x147 = _x90*h
    _x148 = _x85*_x90
    _x149 = _x147 + _x148
    _x150 = _x146*(_x110 + _x149)
    _x151 = reduce(maximum, [1, _x85])
    _x152 = _x151*u_ep
    _x153 = 1/(Pk_8*eta_8)
    _x154 = T_m**(-1.0)
    _x155 = reduce(maximum, [1, h])
    _x156 = ceil(_x154*_x155)
    _x157 = N_sm**(-1.0)
    _x158 = T_n**(-1.0)
    _x159 = _x157*ceil(_x151*_x158)
    _x160 = _x156*_x159
    _x161 = _x155*_x158
    _x162 = ceil(_x161)
    _x163 = _x157*ceil(_x151*_x154)
    _x164 = _x162*_x163
    _x165 = ceil(2*_x161)
    _x166 = _x163*_x165
    _x167 = reduce(maximum, [_x160/ceil(_x160), _x164/ceil(_x164), _x166/ceil(_x166)])**(-1.0)
    _x168 = _x148*_x167
    _x169 = _x153*_x168
    _x170 = reduce(maximum, [_x150, _x7*(_x152 + _x169)])
    _x171 = _x85*h
    _x172 = _x171 + _x92*h
    _x173 = _x146*(_x172 + _x85*_x93)
    _x174 = reduce(maximum, [1, _x92])
    _x175 = _x159*ceil(_x154*_x174)
    _x176 = _x158*_x174
    _x177 = _x163*ceil(_x176)
    _x178 = _x163*ceil(2*_x176)
    _x179 = reduce(maximum, [_x175/ceil(_x175), _x177/ceil(_x177), _x178/ceil(_x178)])**(-1.0)
    _x180 = _x153*_x171
    _x181 = _x179*_x180
    _x182 = reduce(maximum, [_x173, _x93*(_x152 + _x181)])
    _x183 = _x85*_x92
    _x184 = h*n_wq
    _x185 = _x132*h
    _x186 = _x85*s_x
    _x187 = _x147*n_wq + _x148 + _x184*_x92 + _x185*_x186
    _x188 = _x1*s_x
    _x189 = _x188 + 1
    _x190 = _x39*(_x13 + _x15 + _x23*is_mla)
    _x191 = 3*_x85
    _x192 = _x59*d_h
    _x193 = _x0*_x71
    _x194 = _x66*_x85
    _x195 = -_x184*_x66 - _x188*h*(_x191 + _x192*n_wq + _x193*n_wq) + _x189*(_x171 - _x190*n_wq) - _x194
    _x196 = h**(-1.0)
    _x197 = _x190*_x196
    _x198 = _x197*_x85
    _x199 = -_x186*_x2*(_x59 + 2*_x71) - _x189*_x198
    _x200 = _x146*q_8
    _x201 = w_8**(-1.0)
    _x202 = _x194 + _x66*h
    _x203 = _x146*(2*S*_x77*b*h - _x202)
    _x204 = _x167*_x194
    _x205 = _x153*_x204
    _x206 = reduce(maximum, [_x203, _x7*(_x152 - _x205)])
    _x207 = -S*_x77*b*h
    _x208 = _x190 + _x207
    _x209 = _x146*(-_x114*_x197 - _x208)
    _x210 = _x152*_x196
    _x211 = reduce(maximum, [1, -_x197])
    _x212 = _x158*_x211
    _x213 = _x163*ceil(_x212)
    _x214 = _x159*ceil(_x154*_x211)
    _x215 = _x163*ceil(2*_x212)
    _x216 = _x85/reduce(maximum, [_x213/ceil(_x213), _x214/ceil(_x214), _x215/ceil(_x215)])
    _x217 = _x153*_x216
    _x218 = 2*_x190
    _x219 = reduce(maximum, [_x209, -_x218*(_x210 + _x217)])
    _x220 = _x71*d_h
    _x221 = _x146*(_x171 + _x193*_x85 + _x220*h)
    _x222 = reduce(maximum, [1, _x220])
    _x223 = _x158*_x222
    _x224 = _x163*ceil(_x223)
    _x225 = _x159*ceil(_x154*_x222)
    _x226 = _x163*ceil(2*_x223)
    _x227 = _x180/reduce(maximum, [_x224/ceil(_x224), _x225/ceil(_x225), _x226/ceil(_x226)])
    _x228 = _x0*_x59
    _x229 = _x146*(_x171 + _x192*h + _x228*_x85)
    _x230 = reduce(maximum, [1, _x192])
    _x231 = _x158*_x230
    _x232 = _x163*ceil(_x231)
    _x233 = _x159*ceil(_x154*_x230)
    _x234 = _x163*ceil(2*_x231)
    _x235 = _x180/reduce(maximum, [_x232/ceil(_x232), _x233/ceil(_x233), _x234/ceil(_x234)])
    _x236 = 2*reduce(maximum, [_x221, _x193*(_x152 + _x227)]) + reduce(maximum, [_x229, _x228*(_x152 + _x235)])
    _x237 = -_x188*_x236 + _x189*_x219
    _x238 = -_x188*(_x236 + 2*reduce(maximum, [_x221, _x193*(_x152 + _x201*_x227)]) + reduce(maximum, [_x229, _x228*(_x152 + _x201*_x235)])) + _x189*(_x219 + reduce(maximum, [_x209, -_x218*(_x201*_x217 + _x210)])) + 2*_x206 + _x237 + reduce(maximum, [_x203, _x7*(_x152 - _x201*_x205)])
    _x239 = f_8 - 1
    _x240 = 2*_x146
    _x241 = eta**(-1.0)
    _x242 = Pk**(-1.0)
    _x243 = _x241*_x242
    _x244 = _x171*_x243
    _x245 = reduce(maximum, [_x240*(_x149 + _x171), _x7*(_x152 + _x168*_x243)]) + reduce(maximum, [_x240*(_x172 + _x183), _x93*(_x152 + _x179*_x244)])
    _x246 = reduce(maximum, [-_x218*(_x210 + _x216*_x243), _x240*(-_x198 - _x208)]) + reduce(maximum, [_x7*(_x152 - _x204*_x243), _x240*(-_x202 - _x207)])
    _x247 = _x239*(_x245 + _x246)
    _x248 = _x122*_x89 + _x130
    _x249 = _x135 + _x248
    _x250 = _x26*h + 2*d_ix
    _x251 = _x250 - _x28
    _x252 = _x243*_x85
    _x253 = c_r**(-1.0)
    _x254 = S*_x253
    _x255 = _x254*eta_a*flash/(L_a0 + _x254)
    _x256 = (_x255 - _x79*eta)**(-1.0)
    _x257 = _x253*_x68*c_b + 1
    _x258 = _x118*_x242*_x256*_x257
    _x259 = 6*_x251*_x252 + 3*_x258
    _x260 = _x42*h
    _x261 = _x42*_x85
    _x262 = _x260 + _x261
    _x263 = _x146*(_x110 + _x262)
    _x264 = F_s*_x39
    _x265 = _x167*_x264
    _x266 = _x153*_x265*_x85
    _x267 = reduce(maximum, [_x263, _x7*(_x152 + _x266)])
    _x268 = 2*_x31
    _x269 = _x171 + _x260*_x31
    _x270 = _x146*(_x261*_x268 + _x269)
    _x271 = E_s*_x152
    _x272 = _x31*_x42
    _x273 = reduce(maximum, [1, _x272])
    _x274 = _x158*_x273
    _x275 = _x163*ceil(_x274)
    _x276 = _x159*ceil(_x154*_x273)
    _x277 = _x163*ceil(2*_x274)
    _x278 = reduce(maximum, [_x275/ceil(_x275), _x276/ceil(_x276), _x277/ceil(_x277)])**(-1.0)
    _x279 = _x180*_x278
    _x280 = _x264*_x268
    _x281 = reduce(maximum, [_x270, _x280*(_x271 + _x279)])
    _x282 = _x267 + _x281
    _x283 = E_s*_x282
    _x284 = reduce(maximum, [_x263, _x7*(_x152 + _x201*_x266)]) + reduce(maximum, [_x270, _x280*(_x201*_x279 + _x271)])
    _x285 = reduce(maximum, [1, E])
    _x286 = _x285**(-1.0)
    _x287 = _x85*_x95
    _x288 = _x60*_x85
    _x289 = _x119*_x288
    _x290 = _x286*t_e
    _x291 = _x289*_x290*_x34
    _x292 = _x132*s_x
    _x293 = M_e*_x286
    _x294 = _x289*_x293
    _x295 = F_e*(_x184*_x44 + _x294)
    _x296 = _x294*t_e
    _x297 = _x43*(_x296 + _x98*n_wq)
    _x298 = _x171 + _x184*_x272 + _x184*_x42 + _x261
    _x299 = E_s*_x298 + _x144*_x295 + _x291*_x292 + _x297*_x34
    _x300 = _x195 + _x299
    _x301 = _x293*t_e
    _x302 = _x103*_x119
    _x303 = _x45*h
    _x304 = F_e*_x294
    _x305 = _x303 + _x304
    _x306 = _x144*_x146
    _x307 = _x306*(_x301*_x302 + _x305)
    _x308 = reduce(maximum, [1, _x296])
    _x309 = _x144*_x308*u_ep
    _x310 = _x157*reduce(maximum, [1, _x144])
    _x311 = _x310*ceil(_x158*_x308)
    _x312 = _x156*_x311
    _x313 = _x310*ceil(_x154*_x308)
    _x314 = _x162*_x313
    _x315 = _x165*_x313
    _x316 = F_e*_x289/reduce(maximum, [_x312/ceil(_x312), _x314/ceil(_x314), _x315/ceil(_x315)])
    _x317 = _x153*_x316
    _x318 = reduce(maximum, [_x307, _x7*(_x309 + _x317)])
    _x319 = F_e*_x268
    _x320 = _x119*_x142
    _x321 = _x301*_x320
    _x322 = _x303*_x31 + _x321
    _x323 = _x306*(_x294*_x319 + _x322)
    _x324 = _x309*_x44
    _x325 = reduce(maximum, [1, _x98])
    _x326 = _x311*ceil(_x154*_x325)
    _x327 = _x158*_x325
    _x328 = _x313*ceil(_x327)
    _x329 = _x313*ceil(2*_x327)
    _x330 = _x320/reduce(maximum, [_x326/ceil(_x326), _x328/ceil(_x328), _x329/ceil(_x329)])
    _x331 = _x153*_x330
    _x332 = reduce(maximum, [_x323, _x319*(_x324 + _x331)])
    _x333 = 2*_x318 + 2*_x332 + reduce(maximum, [_x307, _x7*(_x201*_x317 + _x309)]) + reduce(maximum, [_x323, _x319*(_x201*_x331 + _x324)])
    _x334 = reduce(maximum, [1, _x288])
    _x335 = _x157*ceil(_x154*_x285)*ceil(_x158*_x334)
    _x336 = _x158*_x285
    _x337 = _x157*ceil(_x154*_x334)
    _x338 = _x337*ceil(_x336)
    _x339 = _x337*ceil(2*_x336)
    _x340 = reduce(maximum, [_x240*(_x142 + _x287 + _x34), 2*E*(_x142*_x243/reduce(maximum, [_x335/ceil(_x335), _x338/ceil(_x338), _x339/ceil(_x339)]) + _x334*u_ep)])
    _x341 = reduce(maximum, [_x240*(_x171 + _x262), _x7*(_x152 + _x252*_x265)]) + reduce(maximum, [_x240*(_x269 + _x272*_x85), _x280*(_x244*_x278 + _x271)])
    _x342 = E_s*_x341
    _x343 = _x144*_x240
    _x344 = _x242/eta_g
    _x345 = reduce(maximum, [_x343*(_x305 + _x321), _x7*(_x309 + _x316*_x344)])
    _x346 = reduce(maximum, [_x319*(_x324 + _x330*_x344), _x343*(_x304*_x31 + _x322)])
    _x347 = _x345 + _x346
    _x348 = _x340 + _x342 + _x347
    _x349 = _x239*(_x246 + _x348)
    _x350 = _x340*f_8
    _x351 = _x141*_x146
    _x352 = -_x143*_x146 + _x191*_x351
    _x353 = _x171 + _x187
    _x354 = _x170 + _x182
    _x355 = _x206 + _x237
    _x356 = _x146*_x85
    _x357 = _x249*_x356
    _x358 = 2*_x241
    _x359 = _x251*_x358
    _x360 = _x242*_x359
    _x361 = _x258 + _x360*_x85
    _x362 = _x318 + _x332
    _x363 = _x283 + _x362
    _x364 = _x356*(_x140 + _x248)
    _x365 = reduce(maximum, [1, _x104])
    _x366 = _x159*ceil(_x154*_x365)
    _x367 = _x158*_x365
    _x368 = _x163*ceil(_x367)
    _x369 = _x163*ceil(2*_x367)
    _x370 = 16*_x106*_x142*_x146
    _x371 = _x239*_x347
    _x372 = -_x371
    _x373 = _x239*_x341
    _x374 = S*_x257
    _x375 = _x117*_x256*_x374
    _x376 = _x242*(_x359 + _x375)
    _x377 = t - 1
    _x378 = 2*alpha
    _x379 = _x39/W_tp
    _x380 = _x171*_x379
    _x381 = 4*_x380
    _x382 = _x380*a_8
    _x383 = 2*_x377*(_x378 + _x381 - _x382)
    _x384 = t_e - 1
    _x385 = _x99/W_etp
    _x386 = _x103*_x385
    _x387 = W_cr**(-1.0)
    _x388 = _x387*_x85
    _x389 = _x388*_x74 + alpha
    _x390 = _x389*_x68
    _x391 = _x254*_x376*_x84
    _x392 = -_x391
    _x393 = -2*_x391
    _x394 = _x388*_x75 + _x68*alpha
    _x395 = c_u - 1
    _x396 = _x108*(_x39*a*d_v*is_mla - _x65 - _x76)/(W_cu*c_u)
    _x397 = M_e - 1
    _x398 = _x397*alpha
    _x399 = W_eout**(-1.0)
    _x400 = _x302*_x43
    _x401 = _x397*_x399*_x400*f_off
    _x402 = f_off - 1
    _x403 = _x397*_x402
    _x404 = W_ein**(-1.0)
    _x405 = _x400*_x404
    _x406 = reduce(maximum, [_x401, -_x403*_x405])
    _x407 = _x398 + _x406
    _x408 = 4*_x398
    _x409 = ceil(f_off)
    _x410 = 8*_x142
    _x411 = 4*o_ep - 4
    _x412 = -_x397*_x402
    _x413 = reduce(maximum, [_x401, _x405*_x412])
    _x414 = _x398 + _x413
    _x415 = _x85*(_x120*_x243*_x7 + _x351)
    _x416 = 2*_x415
    _x417 = -_x19*h
    _x418 = _x242*_x358
    _x419 = -_x79
    _x420 = -_x1*d_h
    _x421 = _x16 + _x420
    _x422 = _x85*(_x146*(_x123 + _x126*(5*_x124*d_r*is_mla + _x125*_x420 + _x421*_x59) + _x128*_x419*_x59) + _x242*_x374*(_x116*(_x115 + 2*_x420) + _x27)/(_x255 + _x419*eta) + _x39*_x418*(_x12 + _x14*_x420 + _x14*_x421 + _x420*_x8 + is_mla*(_x18*_x417 + _x22)) + _x418*(_x250 + _x27*(_x21 + _x417)))
    _x423 = 2*_x422
    _x424 = reduce(minimum, [_x414, _x415]) + reduce(minimum, [_x414, _x416]) + reduce(minimum, [_x414, _x422]) + reduce(minimum, [_x414, _x423])
    _x425 = _x412 + 1
    _x426 = M_e/_x425 - 1
    _x427 = alpha*(_x412 + _x426)
    _x428 = (1 - _x43)**K - 1
    _x429 = _x103*imb
    _x430 = _x397*_x429/W_nvl_x
    _x431 = (-_x425*_x43 + 1)**K - 1
    _x432 = _x429/W_rdma_x
    _x433 = reduce(maximum, [-_x428*_x430, -_x426*_x431*_x432])
    _x434 = _x427 + _x433
    _x435 = reduce(minimum, [_x415, _x434]) + reduce(minimum, [_x416, _x434]) + reduce(minimum, [_x422, _x434]) + reduce(minimum, [_x423, _x434])
    _x436 = -4*_x427 - 4*_x433 + _x435
    _x437 = (1 - _x403)**(-1.0)
    _x438 = _x411*(alpha*(M_e*_x437 - _x403 - 1) + reduce(maximum, [-_x428*_x430, -_x431*_x432*(M_e*_x437 - 1)])) - 1000000.0
    _x439 = _x377*alpha
    _x440 = _x110*_x377*_x379
    _x441 = _x395*_x396 + _x395*alpha
    _x442 = _x377*_x382
    _x443 = _x377*_x378 + _x377*_x381 - _x442
    _x444 = _x378*_x397 + 2*_x406
    _x445 = _x107*_x384*_x385 + _x378*_x384 + _x444
    _x446 = _x46*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x447 = _x48*(Z_d - 1)/W_dpcp
    _x448 = _x146*(b_g + 2*b_o + 8*mu + 2)
    _x449 = _x114*_x70
    _x450 = _x40*has_qlora
    _x451 = has_qlora*is_mla
    _x452 = _x451 - 1
    _x453 = n_m - 3
    _x454 = 2*_x453
    _x455 = -_x17
    _x456 = 2*_x59
    _x457 = _x59 + _x71
    _x458 = 2*_x19*_x69*(2*d_n + d_r + d_v) - 2*_x451*(_x61 + _x9 + r_q) + _x457*_x72 + _x89*drop
    _x459 = _x42 + _x95
    _x460 = _x85*(-_x129*_x146 + _x242*_x375 + _x360)
    _x461 = _x146*_x410*(8*eager + 1)
    _x462 = _x153*f_8
    _x463 = _x114*_x69*(_x11 + _x21*_x3)*(-_x239*_x243 + _x462)
    _x464 = _x2*_x457*h + _x20*_x67*is_mla - _x69*has_qlora*(_x11 + _x3*r_q)
    _x465 = -_x132*_x147*(_x451 + 1) + _x147*_x453 + _x464
    _x466 = _x114*_x462
    _x467 = _x239*_x418*_x85
    _x468 = _x439 + _x440 - 1/2*_x442
    _x469 = _x42*_x452
    _x470 = -_x459*has_qlora*is_mla
    _x471 = -_x185*(-2*_x469 - _x470) + _x453*h*(-_x469 - _x470) + _x464
    _x472 = _x240*_x85
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
        -_x47 + _x48*b_g*z_2 + _x51*b_o - _x54*(-2*_x49 + _x53) - _x56*(_x48*z_3 + _x55),
        -_x47 - _x54*(-_x52*_x57 + _x53) - _x56*(_x55 + _x57*z_3) + _x57*b_g*z_2 + _x58*b_o,
        _x85*(4*_x59*flash + _x64 + _x83),
        _x88,
        _x85*(_x62 + _x89 + _x94),
        _x102*_x85,
        _x103,
        _x105*b_l,
        _x106*_x107,
        _x109,
        _x110,
        _x112*_x85,
        _x114*n_m*(_x113 + _x42),
        -_x114*_x25*_x39,
        _x118,
        _x110*_x90*n_m,
        _x110*_x120,
        _x114*_x121,
        _x131,
        _x85*(_x123 + _x135),
        _x141*_x85,
        _x143,
        _x143*_x145,
        -_x127*_x80*_x87,
        _x146*_x191*_x249 - 3*_x247 + _x259 + f_8*(2*_x170 + 2*_x182 + _x200*(3*_x171 + _x183 + _x187 + _x195 + _x199) + _x238 + reduce(maximum, [_x150, _x7*(_x152 + _x169*_x201)]) + reduce(maximum, [_x173, _x93*(_x152 + _x181*_x201)])),
        3*_x131*_x146 + _x259 - 3*_x349 + 3*_x350 + _x352 + f_8*(E_s*(_x282 + _x284) + _x200*(E_s*_x85*(_x272 + h) + F_e*_x119*_x286*_x287*_x31 + _x171 + _x199 + _x291 + _x300) + _x238 + _x283 + _x333),
        -_x247 + _x357 + _x361 + f_8*(_x200*(_x195 + _x353) + _x354 + _x355),
        -_x349 + _x350 + _x361 + _x364 + f_8*(_x200*_x300 + _x355 + _x363),
        30*_x104*_x356 + 3*reduce(maximum, [_x240*(_x105 + _x121 + _x171), 2*_x104*(_x152 + _x244/reduce(maximum, [_x366/ceil(_x366), _x368/ceil(_x368), _x369/ceil(_x369)]))]),
        3*_x340 + 3*_x342 + 3*_x345 + 3*_x346 + _x352,
        3*_x136*_x356 + 3*_x340,
        _x370,
        _x145*_x370,
        _x333*f_8 - 3*_x371,
        2*_x362*f_8 + 2*_x372,
        6*_x138*_x356,
        E_s*(-3*_x373 + f_8*(2*_x267 + 2*_x281 + _x284)),
        _x191*_x376,
        _x383,
        _x383,
        4*_x384*(_x386 + alpha),
        3*_x390,
        _x390*n_ag + 3*_x68*q_p2p*reduce(maximum, [0, _x389 + _x392]) + q_agr*(_x68*reduce(maximum, [0, _x109*_x387 + _x393 + alpha]) + reduce(maximum, [0, _x392 + _x394]) + reduce(maximum, [0, _x393 + _x394])),
        _x390*reduce(minimum, [1, n_ag]),
        _x376*_x85,
        2*_x395*(_x396 + alpha),
        4*_x407,
        reduce(minimum, [_x397*_x410*(_x399*_x409 - _x404*(_x409 - 1)) + _x408 - 1000000.0*d_ag + 1000000.0, -_x438 - 1000000.0*d_dep - o_ep*(-_x435*reduce(maximum, [rho_ov, n_sm_dep/(N_sm - n_sm_dep)]) + _x436), -_x438 - 1000000.0*d_hep - o_ep*(-_x435*reduce(maximum, [rho_ov, n_sm_hep/(N_sm - n_sm_hep)]) + _x436), 16*K*S*_x145*_x146*_x60*_x77*b*h*imb_mem*t_e - _x407*_x411 - 1000000.0*d_a2a - o_ep*(-_x408 - 4*_x413 - _x424*reduce(maximum, [rho_ov, n_sm_a2a/(N_sm - n_sm_a2a)]) + _x424) + 1000000.0]),
        2*v*(alpha + _x110*_x39/W_pp),
        8*_x377*_x380 + 4*_x439 - _x440*a_8 + _x441,
        _x441 + _x443 + _x445,
        -_x446*_x447,
        -_x446*_x57*(Z_e - 1)/W_edp,
        _x447*(b_r*z_2 + 4*z_3),
        _x448*_x51,
        _x448*_x58,
        _x88,
        _x107,
        _x449,
        _x85*(-_x133*(F*_x450 - _x452*(_x61 + _x90)) + _x454*(-_x452*_x90 + _x60*h*has_qlora*is_mla) - _x455*_x456 + _x455*_x59*s_8 - _x456*_x5 + _x458 + _x63 + _x82 + _x94),
        _x85*(_x112 + _x62),
        _x88,
        _x107,
        _x449,
        _x85*(_x101 - _x133*(_x451*(_x42 + _x61) - _x452*_x459) + _x454*(_x36*_x450 - _x452*_x60*(E + h)) + _x458 + 6*_x61 + 2*_x66 + _x83),
        _x85*(_x102 - _x61*(drop + 4)),
        _x113*_x114,
        _x85*_x97,
        _x460,
        _x461,
        _x463,
        _x357 + _x443 - _x465*_x466 + _x465*_x467,
        _x134*_x148*_x240 - _x239*_x245 + _x468 + f_8*(_x200*_x353 + _x354),
        _x460,
        _x461,
        _x463,
        _x364 + _x372 + _x384*_x386 + _x384*alpha + _x444 - _x466*_x471 + _x467*_x471 + _x468 + f_8*(E*_x200*(_x290*_x292*_x320 + _x295*_x43 + _x297*h) + _x362),
        -_x239*_x348 + _x350 + _x445 + _x472*(_x106*_x63 + _x137 + _x138 + 10*_x95) + f_8*(_x200*_x299 + _x363),
        _x138*_x472,
        E_s*(_x134*_x264*_x472 - _x373 + f_8*(_x200*_x298 + _x282))]

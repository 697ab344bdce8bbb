# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit
_NAMES = ['P_attn', 'P_mlp', 'P_experts', 'P_shared', 'P_router', 'P_embed', 'P_head', 'P_norm', 'P_mtp', 'G_dense_attn', 'G_dense_mlp', 'G_moe_dense', 'G_experts', 'Bpp_dense', 'Bpp_expert', 'A_attn', 'A_scores', 'A_mlp', 'A_moe', 'A_full', 'A_logits', 'B_moe', 'B_cp', 'B_tp', 'Tr_dense', 'Tr_moe', 'Fl_attn_mm', 'Fl_attn_core', 'Fl_mlp', 'Fl_moe', 'Fl_head', 'M_ew_attn', 'M_ew_mlp', 'M_ew_moe', 'M_perm', 'M_scores', 'T_dense', 'T_moe', 'T_rc_dense', 'T_rc_moe', 'T_head', 'T_moe_block', 'X_tp_attn', 'X_tp_mlp', 'X_etp', 'X_ring', 'X_ring_exposed', 'X_ulysses', 'X_ep', 'X_ep_run', 'X_pp', 'X_rc_dense', 'X_rc_moe', 'X_dp_per_param', 'X_edp_per_param', 'X_dp_mb_per_param', 'T_opt_dense', 'T_opt_expert', 'S_dense_core_attn', 'S_dense_layernorm', 'S_dense_mla_up_proj', 'S_dense_op', 'S_dense_mlp', 'S_moe_core_attn', 'S_moe_layernorm', 'S_moe_mla_up_proj', 'S_moe_op', 'S_moe_moe', 'S_moe_moe_act', 'S_moe_shared_experts', 'T_dense_core_attn', 'T_dense_layernorm', 'T_dense_mla_up_proj', 'T_dense_op', 'T_dense_mlp', 'T_moe_core_attn', 'T_moe_layernorm', 'T_moe_mla_up_proj', 'T_moe_op', 'T_moe_moe', 'T_moe_moe_act', 'T_moe_shared_experts']
_ARGS = ['E', 'E_s', 'F', 'F_e', 'F_s', 'K', 'L_a0', 'M_e', 'N_sm', 'Pk', 'S', 'T_m', 'T_n', 'V', 'W_cr', 'W_cu', 'W_dpcp', 'W_edp', 'W_ein', 'W_eout', 'W_etp', 'W_hbm', 'W_nvl_x', 'W_pp', 'W_rdma_x', 'W_tp', 'Z_d', 'Z_e', 'a', 'alpha', 'b', 'b_g', 'b_l', 'b_r', 'c', 'c_r', 'c_u', 'd_a2a', 'd_ag', 'd_dep', 'd_h', 'd_hep', 'd_n', 'd_r', 'd_v', 'drop', 'eager', 'eta', 'eta_a', 'f_off', 'flash', 'g', 'h', 'has_qlora', 'imb', 'imb_mem', 'is_mla', 'lin_bias', 'ln_bias', 'mu', 'n_m', 'n_sm_a2a', 'n_sm_dep', 'n_sm_hep', 'o_ep', 'qk_norm', 'r_kv', 'r_q', 'router_bias', 't', 't_e', 't_g', 't_s', 'tied', 'v', 'z_1', 'z_2', 'z_3']
def _fn(E, E_s, F, F_e, F_s, K, L_a0, M_e, N_sm, Pk, S, T_m, T_n, V, W_cr, W_cu, W_dpcp, W_edp, W_ein, W_eout, W_etp, W_hbm, W_nvl_x, W_pp, W_rdma_x, W_tp, Z_d, Z_e, a, alpha, b, b_g, b_l, b_r, c, c_r, c_u, d_a2a, d_ag, d_dep, d_h, d_hep, d_n, d_r, d_v, drop, eager, eta, eta_a, f_off, flash, g, h, has_qlora, imb, imb_mem, is_mla, lin_bias, ln_bias, mu, n_m, n_sm_a2a, n_sm_dep, n_sm_hep, o_ep, qk_norm, r_kv, r_q, router_bias, t, t_e, t_g, t_s, tied, v, z_1, z_2, z_3):
    _x0 = is_mla - 1
    _x1 = _x0*d_h
    _x2 = d_n + d_r
    _x3 = _x2*is_mla
    _x4 = _x1 - _x3
    _x5 = _x4*a
    _x6 = 2*h
    _x7 = _x6*g
    _x8 = d_r + r_kv
    _x9 = d_n + d_v
    _x10 = _x9*r_kv
    _x11 = is_mla*(_x10*a + _x8*h + r_kv)
    _x12 = _x1*_x7 - _x11
    _x13 = a*h
    _x14 = _x1*_x13
    _x15 = d_v*is_mla
    _x16 = _x1 - _x15
    _x17 = has_qlora - 1
    _x18 = _x2*a
    _x19 = _x18*h
    _x20 = has_qlora*r_q
    _x21 = _x20*(_x18 + h + 1)
    _x22 = _x17*_x19 - _x21
    _x23 = _x13*_x16 + _x14 + _x22*is_mla
    _x24 = _x12 + _x23
    _x25 = h*n_m
    _x26 = n_m - 1
    _x27 = F*_x26
    _x28 = F*_x25 + lin_bias*(_x27 + h)
    _x29 = E*h
    _x30 = F_e*n_m
    _x31 = E_s*F_s
    _x32 = V*h
    _x33 = ln_bias + 1
    _x34 = t**(-1.0)
    _x35 = _x34*is_mla
    _x36 = t_g**(-1.0)
    _x37 = _x31*_x34
    _x38 = M_e**(-1.0)
    _x39 = F_e/t_e
    _x40 = _x39*n_m
    _x41 = z_2 - 1
    _x42 = _x41*b_g
    _x43 = Z_d**(-1.0)
    _x44 = _x43*z_1
    _x45 = 2*z_1
    _x46 = _x45 + z_3 - 3
    _x47 = 2*mu
    _x48 = 1 - z_1
    _x49 = _x44 + _x48
    _x50 = 4*mu - 12
    _x51 = 1 - z_3
    _x52 = 2*mu - 2
    _x53 = Z_e**(-1.0)
    _x54 = _x48 + _x53*z_1
    _x55 = _x34*a
    _x56 = 2*_x55
    _x57 = t_s**(-1.0)
    _x58 = _x57*h
    _x59 = _x58*drop
    _x60 = 4*_x58
    _x61 = _x59 + _x60
    _x62 = _x55*d_v + _x8
    _x63 = _x36*g
    _x64 = _x1*_x63
    _x65 = c**(-1.0)
    _x66 = S*_x65
    _x67 = _x55*_x66
    _x68 = flash - 1
    _x69 = _x68*(3*drop + 2)
    _x70 = -4*_x64 - _x67*_x69 + 2*is_mla*(_x18*_x34 + _x20 + _x62)
    _x71 = -_x4*_x56 + _x70
    _x72 = _x66*b
    _x73 = S**2*_x55*b
    _x74 = _x73/c**2
    _x75 = -_x69*_x74
    _x76 = F*_x34
    _x77 = 2*_x76
    _x78 = _x77*n_m
    _x79 = _x59 + _x78
    _x80 = E*_x57
    _x81 = _x37*n_m
    _x82 = 2*_x81
    _x83 = K*imb_mem
    _x84 = _x57*_x83
    _x85 = 4*_x80 + _x82 + 2*_x84*t_e*(_x40 + _x6)
    _x86 = _x61 + _x85
    _x87 = _x57*_x6
    _x88 = _x72*_x87
    _x89 = V*_x34
    _x90 = _x72*_x89
    _x91 = _x60*_x72
    _x92 = _x83*t_e
    _x93 = _x35*a
    _x94 = _x93*(_x9 + d_r)
    _x95 = 2*_x1
    _x96 = _x72*(-_x63*_x95 + _x94)
    _x97 = _x6*_x72
    _x98 = F_e*_x84
    _x99 = 2*_x72
    _x100 = 2*_x34
    _x101 = flash - 2
    _x102 = _x15 + _x3
    _x103 = _x101*(_x102 - _x95)
    _x104 = _x65*_x73
    _x105 = _x76*_x97
    _x106 = K*imb
    _x107 = _x57*(E + _x106*_x30) + _x81
    _x108 = _x32*_x34
    _x109 = _x108*_x99
    _x110 = drop + 32*eager + 10
    _x111 = _x110*_x58
    _x112 = _x55 + 1
    _x113 = _x16*_x55
    _x114 = _x34*(a + g)*(reduce(minimum, [1, a - g]) + 5)
    _x115 = 4*eager
    _x116 = 5*drop + 4
    _x117 = _x116*_x68
    _x118 = _x115*(-_x1*_x114 + 5*_x112*d_r*is_mla - _x113) - _x117*_x67
    _x119 = _x72*(_x111 + _x118)
    _x120 = n_m - 2
    _x121 = 2*_x120
    _x122 = _x121*eager + n_m
    _x123 = _x122*_x77
    _x124 = _x122*_x37
    _x125 = _x122*_x98
    _x126 = 8*_x58
    _x127 = E*_x38
    _x128 = _x92*(reduce(maximum, [0, reduce(minimum, [1, _x127 - 1])]) + 1)
    _x129 = _x126*_x128
    _x130 = 2*_x124 + 2*_x125 + _x129 + 20*_x80
    _x131 = _x111 + _x130
    _x132 = _x58*_x72
    _x133 = 8*_x132
    _x134 = _x110*_x87 + _x118
    _x135 = W_hbm**(-1.0)
    _x136 = _x135*_x72
    _x137 = _x136*(_x123 + _x134)
    _x138 = _x76*h
    _x139 = _x72*h
    _x140 = _x72*_x76
    _x141 = 2*_x135
    _x142 = T_m**(-1.0)
    _x143 = reduce(maximum, [1, h])
    _x144 = ceil(_x142*_x143)
    _x145 = N_sm**(-1.0)
    _x146 = T_n**(-1.0)
    _x147 = reduce(maximum, [1, _x72])
    _x148 = _x145*ceil(_x146*_x147)
    _x149 = _x144*_x148
    _x150 = _x143*_x146
    _x151 = ceil(_x150)
    _x152 = _x145*ceil(_x142*_x147)
    _x153 = _x151*_x152
    _x154 = ceil(2*_x150)
    _x155 = _x152*_x154
    _x156 = Pk**(-1.0)
    _x157 = _x156/eta
    _x158 = _x157/reduce(maximum, [_x149/ceil(_x149), _x153/ceil(_x153), _x155/ceil(_x155)])
    _x159 = _x27*_x34
    _x160 = reduce(maximum, [1, _x159])
    _x161 = _x148*ceil(_x142*_x160)
    _x162 = _x146*_x160
    _x163 = _x152*ceil(_x162)
    _x164 = _x152*ceil(2*_x162)
    _x165 = _x157*_x97
    _x166 = reduce(maximum, [_x105*_x158, _x141*(_x138 + _x139 + _x140)]) + reduce(maximum, [_x141*(_x139 + _x159*_x72 + _x159*h), _x159*_x165/reduce(maximum, [_x161/ceil(_x161), _x163/ceil(_x163), _x164/ceil(_x164)])])
    _x167 = c_r**(-1.0)
    _x168 = S*_x167
    _x169 = _x168*eta_a*flash/(L_a0 + _x168)
    _x170 = _x103*_x156/(_x169 - _x68*eta)
    _x171 = _x104*_x170
    _x172 = -S*_x65*b*h
    _x173 = _x34*(_x12 + _x14 + _x22*is_mla)
    _x174 = _x173/h
    _x175 = reduce(maximum, [1, -_x174])
    _x176 = _x146*_x175
    _x177 = _x152*ceil(_x176)
    _x178 = _x148*ceil(_x142*_x175)
    _x179 = _x152*ceil(2*_x176)
    _x180 = _x157*_x99
    _x181 = reduce(maximum, [_x141*(-_x172 - _x173 - _x174*_x72), -_x173*_x180/reduce(maximum, [_x177/ceil(_x177), _x178/ceil(_x178), _x179/ceil(_x179)])])
    _x182 = reduce(maximum, [-_x113*_x158*_x97, _x141*(-_x113*_x72 - _x113*h - _x172)])
    _x183 = -_x171 + _x181 + _x182
    _x184 = _x137 + _x166 + _x183
    _x185 = _x131*_x135
    _x186 = reduce(maximum, [1, E])
    _x187 = _x57*_x72
    _x188 = reduce(maximum, [1, _x187])
    _x189 = _x145*ceil(_x142*_x186)*ceil(_x146*_x188)
    _x190 = _x146*_x186
    _x191 = _x145*ceil(_x142*_x188)
    _x192 = _x191*ceil(_x190)
    _x193 = _x191*ceil(2*_x190)
    _x194 = reduce(maximum, [_x141*(_x132 + _x29 + _x72*_x80), _x165*_x80/reduce(maximum, [_x189/ceil(_x189), _x192/ceil(_x192), _x193/ceil(_x193)])])
    _x195 = _x39*h
    _x196 = F_e*_x106
    _x197 = M_e/_x186
    _x198 = _x187*_x197
    _x199 = _x196*_x198
    _x200 = _x106*t_e
    _x201 = _x132*_x197*_x200
    _x202 = _x127*_x141
    _x203 = reduce(maximum, [1, _x198*_x200])
    _x204 = _x145*reduce(maximum, [1, _x127])
    _x205 = _x204*ceil(_x146*_x203)
    _x206 = _x144*_x205
    _x207 = _x204*ceil(_x142*_x203)
    _x208 = _x151*_x207
    _x209 = _x154*_x207
    _x210 = _x196*_x88
    _x211 = reduce(maximum, [_x202*(_x195 + _x199 + _x201), _x157*_x210/reduce(maximum, [_x206/ceil(_x206), _x208/ceil(_x208), _x209/ceil(_x209)])])
    _x212 = reduce(maximum, [1, _x26*_x39])
    _x213 = _x205*ceil(_x142*_x212)
    _x214 = _x146*_x212
    _x215 = _x207*ceil(_x214)
    _x216 = _x207*ceil(2*_x214)
    _x217 = _x157*_x26
    _x218 = reduce(maximum, [_x202*(_x195*_x26 + _x199*_x26 + _x201), _x210*_x217/reduce(maximum, [_x213/ceil(_x213), _x215/ceil(_x215), _x216/ceil(_x216)])])
    _x219 = _x37*h
    _x220 = _x34*_x97
    _x221 = F_s*_x220
    _x222 = _x26*_x37
    _x223 = reduce(maximum, [1, _x222])
    _x224 = _x146*_x223
    _x225 = _x152*ceil(_x224)
    _x226 = _x148*ceil(_x142*_x223)
    _x227 = _x152*ceil(2*_x224)
    _x228 = reduce(maximum, [_x141*(_x139 + _x219*_x26 + _x222*_x72), _x217*_x221/reduce(maximum, [_x225/ceil(_x225), _x226/ceil(_x226), _x227/ceil(_x227)])]) + reduce(maximum, [_x158*_x221, _x141*(_x139 + _x219 + _x37*_x72)])
    _x229 = E_s*_x228
    _x230 = -_x129*_x136 + 3*_x185*_x72 + 3*_x194 + 3*_x211 + 3*_x218 + 3*_x229
    _x231 = _x136*(_x130 + _x134) + _x211 + _x218
    _x232 = _x194 + _x229
    _x233 = reduce(maximum, [1, _x89])
    _x234 = _x148*ceil(_x142*_x233)
    _x235 = _x146*_x233
    _x236 = _x152*ceil(_x235)
    _x237 = _x152*ceil(2*_x235)
    _x238 = W_tp**(-1.0)
    _x239 = _x220*_x238
    _x240 = t - 1
    _x241 = 4*_x240
    _x242 = _x241*(_x239 + alpha)
    _x243 = t_e - 1
    _x244 = W_etp**(-1.0)
    _x245 = _x244*_x84*_x97
    _x246 = alpha + 2*_x96/W_cr
    _x247 = 3*c_r - 3
    _x248 = c_u - 1
    _x249 = _x34*_x5
    _x250 = 4*_x72*(-_x249 + _x34*a*d_v*is_mla - _x64)/(W_cu*c_u)
    _x251 = M_e - 1
    _x252 = _x251*alpha
    _x253 = W_eout**(-1.0)
    _x254 = _x106*_x38*_x88
    _x255 = _x251*_x253*_x254*f_off
    _x256 = f_off - 1
    _x257 = _x251*_x256
    _x258 = W_ein**(-1.0)
    _x259 = _x254*_x258
    _x260 = reduce(maximum, [_x255, -_x257*_x259])
    _x261 = _x252 + _x260
    _x262 = 4*_x252
    _x263 = ceil(f_off)
    _x264 = 4*o_ep - 4
    _x265 = -_x251*_x256
    _x266 = reduce(maximum, [_x255, _x259*_x265])
    _x267 = _x252 + _x266
    _x268 = _x72*(_x107*_x157*_x6 + _x185)
    _x269 = 2*_x268
    _x270 = -_x68
    _x271 = -_x0*d_h
    _x272 = _x15 + _x271
    _x273 = _x72*(-S*_x101*_x156*_x55*(_x102 + 2*_x271)/(_x169 + _x270*eta) + _x100*_x157*(_x11 + _x13*_x271 + _x13*_x272 + _x271*_x7 + is_mla*(-_x17*_x19 + _x21)) + _x135*(_x111 + _x115*(5*_x112*d_r*is_mla + _x114*_x271 + _x272*_x55) + _x116*_x270*_x67))
    _x274 = 2*_x273
    _x275 = reduce(minimum, [_x267, _x268]) + reduce(minimum, [_x267, _x269]) + reduce(minimum, [_x267, _x273]) + reduce(minimum, [_x267, _x274])
    _x276 = _x265 + 1
    _x277 = M_e/_x276 - 1
    _x278 = alpha*(_x265 + _x277)
    _x279 = (1 - _x38)**K - 1
    _x280 = _x88*imb
    _x281 = _x251*_x280/W_nvl_x
    _x282 = (-_x276*_x38 + 1)**K - 1
    _x283 = _x280/W_rdma_x
    _x284 = reduce(maximum, [-_x279*_x281, -_x277*_x282*_x283])
    _x285 = _x278 + _x284
    _x286 = reduce(minimum, [_x268, _x285]) + reduce(minimum, [_x269, _x285]) + reduce(minimum, [_x273, _x285]) + reduce(minimum, [_x274, _x285])
    _x287 = -4*_x278 - 4*_x284 + _x286
    _x288 = (1 - _x257)**(-1.0)
    _x289 = _x264*(alpha*(M_e*_x288 - _x257 - 1) + reduce(maximum, [-_x279*_x281, -_x282*_x283*(M_e*_x288 - 1)])) - 1000000.0
    _x290 = _x240*alpha
    _x291 = _x139*_x238*_x34
    _x292 = _x248*_x250 + _x248*alpha
    _x293 = _x241*_x291 + 2*_x290
    _x294 = _x243*alpha
    _x295 = 2*_x252 + 2*_x260
    _x296 = _x243*_x244*_x83*_x91 + 2*_x294 + _x295
    _x297 = _x41*z_1*(b_r + 2) + 2*b_r*(z_1 - 1) + 2*z_2*(z_3 - 1)
    _x298 = _x43*(Z_d - 1)/W_dpcp
    _x299 = _x135*(b_g + 26)
    _x300 = _x94*_x99
    _x301 = _x35*has_qlora
    _x302 = has_qlora*is_mla
    _x303 = _x302 - 1
    _x304 = n_m - 3
    _x305 = 2*_x304
    _x306 = _x55 + _x63
    _x307 = 2*_x17*_x93*(2*d_n + d_r + d_v) - 2*_x302*(_x58 + _x8 + r_q) + _x306*_x95 + 6*_x58 + _x87*drop
    _x308 = _x37 + _x80
    _x309 = -_x104*(_x117*_x135*_x65 + _x170)
    _x310 = _x126*_x136*(8*eager + 1)
    _x311 = _x180*_x93*(_x10 + _x2*_x20)
    _x312 = _x1*_x306*h + _x17*_x62*h*is_mla - _x93*has_qlora*(_x10 + _x2*r_q)
    _x313 = _x239*_x240 + _x290
    _x314 = _x303*_x37
    _x315 = -_x308*has_qlora*is_mla
    _x316 = _x141*_x72
    return [
        -_x24 + 2*d_h*qk_norm + lin_bias*(-_x5 + 2*d_h*g + h),
        _x28,
        _x29*_x30,
        _x25*_x31,
        E*(h + router_bias),
        _x32,
        -_x32*(tied - 1),
        _x33*h,
        h*(_x6 + 3*ln_bias + 3),
        -_x12*(-_x0*_x36 + _x35) - _x23*_x34 + 2*_x33*h,
        _x28*_x34,
        E*router_bias + _x25*_x37 + _x29,
        _x29*_x38*_x40,
        -_x42 + _x43*b_g*z_2 - _x47*(-2*_x44 + _x46) - _x49*_x50 - _x52*(_x43*z_3 + _x51),
        -_x42 - _x47*(-_x45*_x53 + _x46) - _x50*_x54 - _x52*(_x51 + _x53*z_3) + _x53*b_g*z_2,
        _x72*(-_x16*_x56 + 4*_x55*flash + _x61 + _x71),
        _x75,
        _x72*(_x60 + _x79),
        _x72*_x86,
        _x88,
        _x90*b_l,
        _x91*_x92,
        4*_x96,
        _x97,
        _x72*_x78,
        _x99*n_m*(_x37 + _x98),
        -_x100*_x24*_x72,
        -_x103*_x104,
        _x105*n_m,
        _x107*_x97,
        _x109,
        _x119,
        _x72*(_x111 + _x123),
        _x131*_x72,
        _x128*_x133,
        -_x117*_x74,
        3*_x184,
        3*_x119*_x135 - 3*_x171 + 3*_x181 + 3*_x182 + _x230,
        _x184,
        _x183 + _x231 + _x232,
        30*_x136*_x89 + 3*reduce(maximum, [_x141*(_x108 + _x139 + _x90), _x109*_x157/reduce(maximum, [_x234/ceil(_x234), _x236/ceil(_x236), _x237/ceil(_x237)])]),
        _x230,
        _x242,
        _x242,
        4*_x243*(_x245 + alpha),
        _x246*_x247,
        _x247*reduce(maximum, [0, _x167*_x171 + _x246]),
        2*_x248*(_x250 + alpha),
        4*_x261,
        reduce(minimum, [_x133*_x251*(_x253*_x263 - _x258*(_x263 - 1)) + _x262 - 1000000.0*d_ag + 1000000.0, -_x289 - 1000000.0*d_dep - o_ep*(-_x286*n_sm_dep/(N_sm - n_sm_dep) + _x287), -_x289 - 1000000.0*d_hep - o_ep*(-_x286*n_sm_hep/(N_sm - n_sm_hep) + _x287), -_x261*_x264 - 1000000.0*d_a2a - o_ep*(-_x262 - 4*_x266 - _x275*n_sm_a2a/(N_sm - n_sm_a2a) + _x275) + 1000000.0]),
        2*v*(alpha + _x220/W_pp),
        8*_x240*_x291 + 4*_x290 + _x292,
        _x292 + _x293 + _x296,
        -_x297*_x298,
        -_x297*_x53*(Z_e - 1)/W_edp,
        _x298*(b_r*z_2 + 4*z_3),
        _x299*_x49,
        _x299*_x54,
        _x75,
        _x91,
        _x300,
        _x72*(-_x121*(F*_x301 - _x303*(_x58 + _x76)) + _x305*(-_x303*_x76 + _x57*h*has_qlora*is_mla) + _x307 + _x71 + _x78),
        _x72*_x79,
        _x75,
        _x91,
        _x300,
        _x72*(-_x121*(_x302*(_x37 + _x58) - _x303*_x308) - 2*_x249 + _x305*(_x301*_x31 - _x303*_x57*(E + h)) + _x307 + _x70 + _x85),
        _x72*(-_x58*(drop + 4) + _x86),
        _x98*_x99,
        _x72*_x82,
        _x309,
        _x310,
        _x311,
        _x137 - _x180*(-_x120*_x138*(_x302 + 1) + _x138*_x304 + _x312) + _x293,
        _x122*_x140*_x141 + _x166 + _x313,
        _x309,
        _x310,
        _x311,
        -_x180*(-_x120*h*(-2*_x314 - _x315) + _x304*h*(-_x314 - _x315) + _x312) + _x231 + _x243*_x245 + _x294 + _x295 + _x313,
        _x211 + _x218 + _x232 + _x296 + _x316*(_x124 + _x125 + _x128*_x60 + 10*_x80),
        _x125*_x316,
        E_s*(F_s*_x122*_x316*_x34 + _x228)]

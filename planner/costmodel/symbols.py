"""The cost model's symbols (their notation: the docstring of `planner.costmodel.formulas`) and the
time of a GEMM (wave quantisation and the roofline), which the per-layer formulas read."""
from __future__ import annotations

import sympy as sp

from planner.costmodel.names import DENSE_MODULES, MOE_MODULES, R_D, R_M, STAGE_COUNTS, STAGE_FLAGS, STAGE_INT_NAMES

# --------------------------------------------------------------------------- symbols

h, a, g, dh, V, F, nm, E, K, Fe, Es, Fs = sp.symbols("h a g d_h V F n_m E K F_e E_s F_s", positive=True)
rq, rkv, dr, dn, dv = sp.symbols("r_q r_kv d_r d_n d_v", nonnegative=True)
mla, qlora, qkn, lnb, lb, rb, tied = sp.symbols("is_mla has_qlora qk_norm ln_bias lin_bias router_bias tied",
                                                nonnegative=True)
S, b, m = sp.symbols("S b m", positive=True)
t, c, d, p, v, te, Me, De, cu, cr, ts, tg = sp.symbols("t c d p v t_e M_e D_e c_u c_r t_s t_g", positive=True)
flash, drop, imb, imbm = sp.symbols("flash drop imb imb_mem", nonnegative=True)
eager = sp.Symbol("eager", nonnegative=True)                 # torchtitan modules without torch.compile
bg, br, Zd, Ze, bl = sp.symbols("b_g b_r Z_d Z_e b_l", positive=True)
z1, z2, z3, mu, u1 = sp.symbols("z_1 z_2 z_3 mu u_1", nonnegative=True)
bo = sp.Symbol("b_o", positive=True)   # optimizer-state bytes per parameter (kinds.OPTIMIZER_BYTES)
by = sp.Symbol("b_y", nonnegative=True)   # bytes per expert-output element kept for the routing weights' gradient
Pk, eta, eta_a, alpha, W_hbm = sp.symbols("Pk eta eta_a alpha W_hbm", positive=True)
eta_g = sp.Symbol("eta_g", positive=True)   # the routed experts' bf16 grouped GEMM efficiency (its kernel's, by engine)
Nsm, Tm, Tn, La0 = sp.symbols("N_sm T_m T_n L_a0", positive=True)      # SMs, GEMM tile, attention half-block
u_ep = sp.Symbol("u_ep", nonnegative=True)     # seconds per byte of a GEMM's output tile store (1 / W_hbm, or 0)
W_tp, W_cu, W_cr, W_dpcp, W_edp, W_etp, W_pp, W_in, W_out = sp.symbols(
    "W_tp W_cu W_cr W_dpcp W_edp W_etp W_pp W_ein W_eout", positive=True)
f_off = sp.symbols("f_off", nonnegative=True)                   # share of EP peers on another node
# the attention layer kinds (planner.costmodel.attention_kinds): k_f the model's mean attention core work
# beside full causal attention (1 for full-only models); n_ix, d_ix a sparse-attention indexer's heads, dim
k_f, n_ix, d_ix = sp.symbols("k_f n_ix d_ix", nonnegative=True)

# recompute modules by layer kind and the stage integers: named in `names` (sympy-free)
nd_, nmo_, fd_, fmo_ = sp.symbols(" ".join(STAGE_COUNTS), nonnegative=True)
ef, el, hm = sp.symbols(" ".join(STAGE_FLAGS), nonnegative=True)
r_d = {k: sp.Symbol(n, nonnegative=True) for k, n in zip(DENSE_MODULES, R_D)}
r_m = {k: sp.Symbol(n, nonnegative=True) for k, n in zip(MOE_MODULES, R_M)}
STAGE_INTS = (nd_, nmo_, fd_, fmo_, *r_d.values(), *r_m.values(), ef, el, hm)
assert tuple(q.name for q in STAGE_INTS) == STAGE_INT_NAMES

# --------------------------------------------------------------------------- GEMM time

T_mm = lambda flops: flops / (Pk * eta)


def f_wave(M, N, G=1):
    """Wave quantisation of G GEMMs with M x N outputs: G * ceil(M/T_m) * ceil(N/T_n) output
    tiles run in whole waves over N_sm SMs (grouped expert GEMMs schedule all G experts'
    tiles together): the share of SM-slots that work. The kernel library picks its tile per
    shape, so the best of T_m x T_n, T_n x T_m and T_m x T_n/2 counts."""
    M, N, G = (sp.Max(1, x, evaluate=False) for x in (M, N, G))                # an absent GEMM (no flops) stays finite

    def share(tm, tn):
        tiles = G * sp.ceiling(M / tm) * sp.ceiling(N / tn)
        return tiles / (sp.ceiling(tiles / Nsm) * Nsm)
    return sp.Max(share(Tm, Tn), share(Tn, Tm), share(Tm, Tn / 2), evaluate=False)


def T_tiles(flops, rate, M, N, G=1):
    """The tensor cores' time of G GEMMs with M x N bf16 outputs at `rate` FLOP/s (the asymptote of
    long K loops): each output tile runs its K loop (the FLOPs at the wave-quantised rate), then writes
    its output tile to HBM without overlapping the next tile's loop (the epilogue): 2 G M N bytes at
    u_ep seconds a byte (1 / W_hbm). The per-element cost is 2 K FLOPs + 2 bytes, so the efficiency by
    K is K / (K + rate / W_hbm) of the asymptote: a short K loop (an expert's F_e of a few hundred)
    runs well below a long one. Checked against DeepGEMM's published FP8 GEMM tables on H800
    (tests/test_kernels.py); u_ep = 0 on GPUs with no such measurement (GPUSpec.gemm_epilogue)."""
    return flops / (rate * f_wave(M, N, G)) + 2 * G * sp.Max(1, M, evaluate=False) * N * u_ep


def T_gemm(flops, M, N, K, G=1, eff=eta):
    """G bf16 GEMMs of M x N x K: the slower of the tensor cores (at `eff`, the GEMMs' efficiency:
    eta, or eta_g for the routed experts' grouped kernel; wave-quantised, with their epilogue:
    T_tiles) and HBM (reading both operands, writing the output: 2 (M K + K N + M N) bytes each)
    -- the roofline, so a skinny GEMM (a router's N = E) costs its bytes, not its FLOPs."""
    nbytes = 2 * G * (M * K + K * N + M * N)
    return sp.Max(T_tiles(flops, Pk * eff, M, N, G), nbytes / W_hbm, evaluate=False)


# --------------------------------------------------------------------------- FP8
# f_8 = 1 when the linear layers' GEMMs run in an FP8 recipe (planner.specs.precision); Pk_8, eta_8
# the FP8 peak and efficiency; w_8 the recipe's wgrad rate / fprop rate; q_8 HBM bytes per element of
# each tensor cast for an FP8 GEMM; s_8 bytes per saved linear input; c_8 cached fp8 weight bytes
# per linear weight element; n_wq weight casts per micro-batch (1, or 1/m with a cached copy);
# g_8 = 1 with FP8 parameter all-gather
# s_x = 1 where each linear casts its own input (torchao); a_8 = 1 where the TP all-gather of a block's
# input runs in fp8 (torchtitan's float8 tensorwise TP)
f8, w8, q8, s8, c8, n_wq, g8, sx, a8 = sp.symbols("f_8 w_8 q_8 s_8 c_8 n_wq g_8 s_x a_8", nonnegative=True)
Pk8, eta8 = sp.symbols("Pk_8 eta_8", positive=True)


def T_gemm8(flops, M, N, K, G=1, rate=1):
    """G FP8 GEMMs of M x N x K at `rate` x the FP8 rate: the roofline of T_gemm with 1-byte
    operands and a bf16 output."""
    nbytes = G * (M * K + K * N + 2 * M * N)
    return sp.Max(T_tiles(flops, Pk8 * eta8 * rate, M, N, G), nbytes / W_hbm, evaluate=False)


def lin_gemms(flops, M, N, K, G=1, eff=eta):
    """(bf16 forward, FP8 forward, FP8 backward) times of the GEMMs of a linear layer (dgrad and
    wgrad at the forward's shape, wgrad at w_8 x the rate; the bf16 ones at `eff`) and (forward,
    backward) elements its FP8 casts read: the input x (M x K) and the weight (n_wq x K x N)
    forward, dy (M x N) backward."""
    f = T_gemm8(flops, M, N, K, G)
    return (T_gemm(flops, M, N, K, G, eff), f, f + T_gemm8(flops, M, N, K, G, w8),
            G * (M * K + n_wq * K * N), G * M * N)


def lin_sum(*gemms):
    """The element-wise sum of lin_gemms tuples."""
    return tuple(sum(x) for x in zip(*gemms))


def lin_time(gemms, fwd_only=False):
    """Forward + backward (or forward-only) time of linear GEMMs `gemms` (a lin_gemms tuple) at the
    job's precision: 3 (1) bf16 forwards, or the FP8 GEMMs; the casts are counted apart (lin_cast)."""
    bf, ff, fb = gemms[:3]
    return (1 - f8) * bf + f8 * ff if fwd_only else (1 - f8) * 3 * bf + f8 * (ff + fb)


T_mm8 = lambda flops: (1 - f8) * T_mm(flops) + f8 * flops / (Pk8 * eta8)    # T_mm at the job's precision

# FP8 weights' bytes per linear weight element beyond bf16 (c_8 cached copies; with FP8 parameter
# all-gather the fp8 copy is the compute weight: Megatron -2 (bf16 param + fp8 copy -> fp8 param +
# transpose), FSDP2 -1 (the gathered copy kept from forward to backward is fp8)) and the all-gather
# traffic FP8 parameter all-gather saves per element (1 byte of 2), per step and per micro-batch
w8_bytes = c8 - g8 * (2 * (1 - mu) + mu * (1 - z3))
g8_step = lambda Z, W: g8 * (Z - 1) / Z * (z1 * (1 - z2) + z2 * (1 - z3)) / W
g8_mb = lambda Z, W: g8 * (Z - 1) / Z * 2 * z3 / W

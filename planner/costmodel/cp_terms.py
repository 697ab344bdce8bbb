"""The ring part of CP as each engine runs it (planner.specs.cp_impl says what each implementation
overlaps, with its sources): the exposed K/V traffic, the causal load balance and the memory of a
gathered K/V, written once in sympy for `planner.costmodel.formulas`, which passes in its per-layer
expressions. Symbols (bound by `planner.costmodel.values` from planner.specs.cp_impl.CP_TERMS):
q_p2p, q_agr one-hot of p2p / ag-ring, n_ag the exposed whole-K/V collectives of ag-te / ag-flex,
q_sv the gathered K/V saved for backward, c_b 1 when the causal mask is not load-balanced."""
from __future__ import annotations

import sympy as sp

q_p2p, q_agr, n_ag, q_sv, c_b = sp.symbols("q_p2p q_agr n_ag q_sv c_b", nonnegative=True)


def balance(cr):
    """The slowest ring rank's causal attention over the mean: 1 with head-tail (zig-zag) chunks,
    (2 c_r - 1) / c_r with contiguous ones (the last rank holds (2 c_r - 1) / c_r^2 of the causal
    triangle; planner.specs.cp_impl.causal_share)."""
    return 1 + c_b * (cr - 1) / cr


def gather(cr, kv_bytes, W, alpha):
    """One all-gather (or reduce-scatter) of the whole K/V over the c_r ring ranks, whose local
    K/V is `kv_bytes`: (c_r - 1) / c_r of c_r * kv_bytes on the wire, c_r - 1 hops."""
    return (cr - 1) * kv_bytes / W + (cr - 1) * alpha


def ring_exposed(cr, kv_bytes, W, alpha, step):
    """Exposed K/V traffic of one layer per micro-batch, forward + backward, where `step` is one
    ring step's forward attention (T_core / c_r; backward steps take twice as long).

    p2p      c_r - 1 passes forward (K/V), c_r - 1 backward (K/V + dK/dV: twice the bytes), each
             hidden only behind its own step's attention
    ag-ring  the all-gather hides behind the first block only, forward and again in backward; the
             fp32 dK/dV (twice bf16's bytes) return by c_r - 1 passes, each behind a backward step
    ag-te / ag-flex  n_ag whole-K/V all-gathers / reduce-scatters, none hidden"""
    ag = gather(cr, kv_bytes, W, alpha)
    p2p = 3 * (cr - 1) * sp.Max(0, kv_bytes / W + alpha - step)
    agr = (sp.Max(0, ag - step) + sp.Max(0, ag - 2 * step)
           + (cr - 1) * sp.Max(0, 2 * kv_bytes / W + alpha - 2 * step))
    return q_p2p * p2p + q_agr * agr + n_ag * ag


def recompute_exposed(cr, kv_bytes, W, alpha):
    """What a full recompute of the layer's forward repeats: the exposed forward all-gather of
    ag-te / ag-flex (p2p and ag-ring repeat hidden passes, as the forward did)."""
    return sp.Min(1, n_ag) * gather(cr, kv_bytes, W, alpha)


def saved_kv(cr, kv_bytes):
    """Activation bytes: the other ranks' K/V, kept for backward when the gathered K/V is saved
    (ag-flex: flex_attention saves its inputs)."""
    return q_sv * (cr - 1) * kv_bytes


def transient_kv(cr, kv_bytes):
    """The running layer's CP buffers when c_r > 1: the ring's double buffer of K/V (p2p), or the
    gathered K/V and, in backward, the gathered dK/dV (the all-gather kinds)."""
    return (q_p2p * 2 * kv_bytes + (1 - q_p2p) * 2 * cr * kv_bytes) * sp.Min(1, cr - 1)

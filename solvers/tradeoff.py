"""Floors for the coupling of the bottleneck t and the exposed gradient reduction d in
the stage model's objective W * t_max + V * d_max (W = V*M + P - 1): the least d of any
split (memory and time aside), the least d among the splits that reach a bottleneck, the
least t of a split exposing less than a reduction, and a walk along the trade-off
between the two. Each is the DP of solvers/stagedp.py with a cap on the other quantity
(`stage_options`' `excess_cap` / `time_cap`), so each floor is exact about what it drops.
"""
from __future__ import annotations

import numpy as np

from solvers.stagedp import Block, minmax, stage_options, stage_sum


def reduction_floors(problem, blk: Block, kept, L: int, P: int, V: int, M: int, t_star: float, d_hint: int,
                     o_hint: float, bnd, stages):
    """Given T* and a split reaching it (bnd, stages) that exposes d_hint and steps its
    optimizer in o_hint: (d_star: the least exposed reduction of any split; d_hint: a
    reduction threshold, the least among the splits reaching T* where that was computed;
    t_e / t_eo: the least bottleneck of a split exposing less than it / also stepping its
    optimizer faster than o_hint; td_floor: a floor of W * t_max + V * d_max; bnd, stages:
    the split to start CP-SAT from). `blk` holds every searchable module (window-only ones
    too); `kept`: least_bottleneck's per-stage arrays."""
    td_floor = 0.0
    # the least exposed reduction over every split: per stage and interval the least
    # excess of any choice (memory and time aside), min-max over splits
    cx = np.full((P, L + 1, L + 1), np.inf)
    for i, _, _, _, inv, lo_, hi_, _, codes, _ in kept:
        cx[i][lo_, hi_] = _least_excess(problem, blk, codes, L, int(i == 0), int(i == P - 1))[inv]
    d_star = max(0.0, minmax(cx)[0])
    got = _least_t_below(problem, blk, kept, L, P, V, d_hint, o_hint)
    if got is None:                              # not a monotone question: no bound from it
        t_e = t_eo = 0.0
    else:
        t_e, t_eo = got
        W = V * M + P - 1
        if t_e <= t_star or W * (t_e - t_star) * STAIR_STEPS >= V * (d_hint - d_star):
            # Some split reaching T* exposes less than this one, or the trade-off between
            # bottleneck and reduction is coarse enough to walk: the least reduction
            # among the splits reaching T* (the step's weight on the bottleneck dwarfs
            # the reduction's, so the optimum is usually one of them), then the walk.
            low = _least_excess_at(problem, blk, kept, L, P, V, int(t_star))
            if low is not None and low[0] < d_hint:
                d_low, bnd2, stages2, o2 = low
                if max(0.0, d_low) + o2 < d_hint + o_hint:      # a better start for CP-SAT
                    bnd, stages = bnd2, stages2
                d_hint = max(0, int(d_low))
                t_e, t_eo = _least_t_below(problem, blk, kept, L, P, V, d_hint, o_hint)   # monotone, as above
            td_floor = _staircase(problem, blk, kept, L, P, V, M, t_star, d_hint, t_e, d_star)
    return d_star, d_hint, t_e, t_eo, td_floor, bnd, stages


def _least_t_below(problem, blk: Block, kept, L: int, P: int, V: int, d_cap: int, o_cap: float):
    """(the least bottleneck over the splits whose every stage exposes less than d_cap,
    the same with every optimizer step also below o_cap); None when that is not a
    monotone question."""
    ce = np.full((P, L + 1, L + 1), np.inf)
    ceo = np.full((P, L + 1, L + 1), np.inf)
    for i, _, _, _, inv, lo_, hi_, _, codes, k in kept:
        got = stage_options(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1), excess_cap=d_cap - 1)
        if got is None:
            return None
        t2, o2 = got[0], got[1]
        ce[i][lo_, hi_] = t2.reshape(len(codes), -1).min(1)[inv]
        ceo[i][lo_, hi_] = np.where(o2 < o_cap, t2, np.inf).reshape(len(codes), -1).min(1)[inv]
    return minmax(ce)[0], minmax(ceo)[0]


STAIR_STEPS = 6


def _staircase(problem, blk: Block, kept, L, P, V, M, t0, d0, t1, d_floor, steps: int = STAIR_STEPS) -> float:
    """A floor of W * t_max + V * d_max (W = V*M + P - 1) over every split, walking the
    trade-off between bottleneck and exposed reduction: (t0, d0) a bottleneck no plan
    beats and a reduction, t1 the least bottleneck of a plan exposing less than d0. A plan
    exposes at least d0 (then it costs at least W t0 + V d0), or it has t >= t1: then it
    exposes at least d1 = the least reduction of a plan with t <= t1, or t >= t2 = the
    least bottleneck of a plan exposing less than d1, ... The walk stops when the next
    bottleneck alone (with `d_floor`, a floor of any plan's reduction) cannot beat the
    best point, after `steps` points, or when the steps left, each the size of the last,
    could not reach that point."""
    W = V * M + P - 1
    best, t_prev, t, d = W * t0 + V * d0, t0, t1, d0
    for left in range(steps, 0, -1):
        if not np.isfinite(t) or W * t + V * d_floor >= best:
            return float(best)
        if W * (t - t_prev) * left < V * (d - d_floor):
            # the steps left, each the size of the last, cannot close the gap (each costs two
            # passes over the stages; measured, DeepSeek-V3's pp = 16 fronts need hundreds)
            break
        low = _least_excess_at(problem, blk, kept, L, P, V, int(t))
        if low is None:
            break
        d = max(0, int(low[0]))
        best = min(best, W * t + V * d)
        got = _least_t_below(problem, blk, kept, L, P, V, d, np.inf)
        if got is None or d <= d_floor:
            return float(best)
        t_prev, t = t, got[0]
    return float(min(best, W * t + V * d_floor))     # a plan exposing less than d has t >= t


def _least_excess_at(problem, blk: Block, kept, L: int, P: int, V: int, t_cap: int):
    """The least exposed reduction over the splits whose every stage's micro-batch fits
    `t_cap` (any folding, module set, recompute that fits memory), with such a split: (d,
    boundaries, per stage (row, modules, r), its slowest optimizer step); None when that is
    not a monotone question or no split fits."""
    cx = np.full((P, L + 1, L + 1), np.inf)
    choice = np.zeros((P, L + 1, L + 1, 3), np.int64)
    opt = np.zeros((P, L + 1, L + 1))
    for i, _, _, _, inv, lo_, hi_, _, codes, k in kept:
        got = stage_options(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1), time_cap=t_cap)
        if got is None:
            return None
        t, o, r, _, e = got
        flat = np.where(np.isfinite(t), e, np.inf).reshape(len(codes), -1)
        arg = flat.argmin(1)
        s_i, f_i, c_i = np.unravel_index(arg, t.shape[1:])
        pick = np.arange(len(arg))
        cx[i][lo_, hi_] = flat[pick, arg][inv]
        choice[i][lo_, hi_] = np.stack([s_i, f_i, r[pick, s_i, f_i, c_i]], 1)[inv]
        opt[i][lo_, hi_] = o[pick, s_i, f_i, c_i][inv]
    d, bnd = minmax(cx)
    if bnd is None:
        return None
    stages = []
    for i in range(P):
        s_i, f_i, r_i = choice[i][bnd[i], bnd[i + 1]]
        stages.append((int(blk.rows[f_i]), blk.sets[s_i], int(r_i)))
    return d, bnd, stages, max(opt[i][bnd[i], bnd[i + 1]] for i in range(P))


def _least_excess(problem, blk: Block, codes, L: int, first: int, last: int) -> np.ndarray:
    """Per pair of layer counts: the least excess of the gradient reduction over the
    compute window of any (module set, row, layers fully recomputed), memory aside. The
    excess is linear in r on each piece (MoE layers first, then dense), so its least is at
    r = 0, nm or n (only 0 without full recompute)."""
    c = blk.C["exc"]
    nd = (codes // (L + 1))[:, None, None]
    nm = (codes % (L + 1))[:, None, None]
    e0 = stage_sum(c, nd, nm, first, last)
    out = e0
    if "full" in problem.train.recompute:
        e_nm = e0 + nm * (c["F_m"] - c["L_m"])
        out = np.minimum(np.minimum(e0, e_nm), e_nm + nd * (c["F_d"] - c["L_d"]))
    return out.reshape(len(codes), -1).min(1).astype(float)

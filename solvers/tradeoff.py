"""Floors for the coupling of the bottleneck t and the exposed gradient reduction d in
the stage model's objective W * t_max + V * d_max (W = V*M + P - 1): the least d of any
split (memory and time aside), the least d among the splits that reach a bottleneck, the
least t of a split exposing less than a reduction, and a walk along the trade-off
between the two. Each is the DP of solvers/stagedp.py with a cap on the other quantity
(`stage_options`' `excess_cap` / `time_cap`), so each floor is exact about what it drops.
"""
from __future__ import annotations

import numpy as np

from solvers.stagedp import Block, minmax, minmax_many, stage_front, stage_options, stage_sum


def reduction_floors(problem, blk: Block, kept, L: int, P: int, V: int, M: int, t_star: float, d_hint: int,
                     o_hint: float, bnd, stages, target: float = np.inf):
    """Given T* and a split reaching it (bnd, stages) that exposes d_hint and steps its
    optimizer in o_hint: (d_star: the least exposed reduction of any split; d_hint: the
    least among the splits reaching T*; t_e / t_eo: the least bottleneck of a split
    exposing less than it / also stepping its optimizer faster than o_hint; td_floor: a
    floor of W * t_max + V * d_max; bnd, stages: the split to start CP-SAT from, the best
    the floors met). `blk` holds every searchable module (window-only ones too); `kept`:
    least_bottleneck's per-stage arrays; `target`: a value of W * t_max + V * d_max the
    caller need not see beaten (the floor is refined no further once it reaches it)."""
    W = V * M + P - 1
    # the least exposed reduction over every split: per stage and interval the least
    # excess of any choice (memory and time aside), min-max over splits
    cx = np.full((P, L + 1, L + 1), np.inf)
    for i, _, _, _, inv, lo_, hi_, _, codes, _ in kept:
        cx[i][lo_, hi_] = _least_excess(problem, blk, codes, L, int(i == 0), int(i == P - 1))[inv]
    d_star = max(0.0, minmax(cx)[0])
    # the least reduction among the splits reaching T*: the top of the trade-off
    low = _least_excess_at(problem, blk, kept, L, P, V, int(t_star))
    if low is None:                              # not a monotone question: no bound from it
        return d_star, d_hint, 0.0, 0.0, 0.0, bnd, stages
    d_low, bnd2, stages2, o2 = low
    if d_low < d_hint:
        if max(0.0, d_low) + o2 < d_hint + o_hint:      # a better start for CP-SAT
            bnd, stages = bnd2, stages2
        d_hint = max(0, int(d_low))
    t_e, t_eo = _least_t_below(problem, blk, kept, L, P, V, d_hint, o_hint)
    hint_td = W * t_star + V * d_hint
    td_floor, point = _bracket(problem, blk, kept, L, P, V, W, t_star, d_hint, t_e, d_star, target)
    if point is not None and point[1] < hint_td:
        # a split with a slower bottleneck that exposes enough less: start CP-SAT there
        got = _least_excess_at(problem, blk, kept, L, P, V, int(point[0]))
        if got is not None and W * point[0] + V * (max(0.0, got[0]) + got[3]) < hint_td + V * o_hint:
            bnd, stages = got[1], got[2]
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


class _Fronts:
    """Per stage of a tuple and interval it can hold: the least micro-batch time of a choice
    exposing at most e, a staircase in e (solvers/stagedp.py's `stage_front`), so that the
    least bottleneck of a split exposing less than c costs a min-max DP per cap c."""

    def __init__(self, problem, blk: Block, kept, L: int, P: int, V: int, t_cap: float):
        """Only choices within `t_cap` are kept (a split with a slower stage is not sought):
        a pair of layer counts whose least time (any choice, `kept`'s) exceeds it is left out
        (the window-only modules of `blk` free no memory, so they never lower that least)."""
        self.L, self.P, self.parts = L, P, []
        for i, t_any, _, _, inv, lo_, hi_, _, codes, k in kept:
            n = len(codes)
            keep = np.flatnonzero(t_any.reshape(n, -1).min(1) <= t_cap)
            pair, e, t = stage_front(problem, blk, codes[keep], L, V, k, int(i == 0), int(i == P - 1))
            pair, e, t = keep[pair[t <= t_cap]], e[t <= t_cap], t[t <= t_cap]
            span = int(e.max()) + 3 if len(e) else 3
            key = pair * span + np.clip(e, -1, span - 3) + 1          # by pair, then excess (-1: any cap)
            order = np.argsort(key, kind="stable")
            key, pair, t = key[order], pair[order], t[order].astype(np.int64)
            # the prefix least time within each pair: later pairs offset below earlier ones
            off = (n - pair) * (int(t.max()) + 1 if len(t) else 1)
            least = (np.minimum.accumulate(t + off) - off).astype(float)
            starts = np.searchsorted(pair, np.arange(n), "left")
            self.parts.append((i, inv, lo_, hi_, n, span, key, least, starts))

    def least_t(self, caps) -> np.ndarray:
        """Per cap c: the least bottleneck over the splits whose every stage exposes less than c."""
        caps = np.asarray(caps, np.int64)
        ce = np.full((len(caps), self.P, self.L + 1, self.L + 1), np.inf)
        for i, inv, lo_, hi_, n, span, key, least, starts in self.parts:
            q = np.arange(n)[None, :] * span + np.clip(caps - 1, -1, span - 3)[:, None] + 1
            pos = np.searchsorted(key, q, "right") - 1
            got = np.where(pos >= starts[None, :], least[np.maximum(pos, 0)] if len(least) else np.inf, np.inf)
            ce[:, i][:, lo_, hi_] = got[:, inv]
        return minmax_many(ce)


# The trade-off bracket: rounds of refinement, each splitting the weakest interval into
# this many parts in one pass over the stages (measured on DeepSeek-V3's pp = 16 tuples:
# the bottleneck / reduction front has hundreds of steps, a walk along it hundreds of passes)
BRACKET_ROUNDS, BRACKET_PARTS = 8, 16
BRACKET_TOL = 1e-4                 # refine no further once the floor is this close to a plan found


def _bracket(problem, blk: Block, kept, L, P, V, W, t0, d0, t1, d_floor, target=np.inf,
             rounds: int = BRACKET_ROUNDS, parts: int = BRACKET_PARTS):
    """A floor of W * t_max + V * d_max (W = V*M + P - 1) over every split, and the best
    (bottleneck, W t + V d) point met: (t0, d0) a bottleneck no plan beats and the least
    reduction of a split reaching it, t1 the least bottleneck of a split exposing less than
    d0, d_floor a floor of any split's reduction. With caps d_floor = c_0 < c_1 < ... <
    c_n = d0 and g_j the least bottleneck of a split exposing less than c_j, a split
    exposes at least d0 (then it costs at least W t0 + V d0) or its reduction lies in some
    [c_(j-1), c_j), where it costs at least W g_j + V c_(j-1). Each round splits the
    interval of least floor into `parts` (a min-max DP per cap over each stage's front,
    made once), until the floor reaches `target` or comes within BRACKET_TOL of a split met
    (a split exposing less than c_j with bottleneck g_j costs at most W g_j + V (c_j - 1))."""
    top = W * t0 + V * d0
    lo = max(0, int(np.ceil(d_floor - 1e-6)))
    if d0 <= lo or not np.isfinite(t1):
        return float(top), None
    caps, g = [lo, int(d0)], [np.inf, float(t1)]           # no split exposes less than d_floor
    fronts, cap_ub = None, np.inf
    best = (float(t1), W * t1 + V * (d0 - 1)) if np.isfinite(t1) else None
    for _ in range(rounds + 1):
        lbs = [W * g[j] + V * caps[j - 1] for j in range(1, len(caps))]
        j = int(np.argmin(lbs)) + 1
        ub = min(top, best[1]) if best else top
        floor = min(top, lbs[j - 1], cap_ub)
        if floor >= target or floor >= ub * (1 - BRACKET_TOL) or caps[j] - caps[j - 1] <= 1 or not rounds:
            return float(floor), best
        rounds -= 1
        new = np.unique(np.linspace(caps[j - 1], caps[j], parts + 1)[1:-1].astype(np.int64))
        new = new[(new > caps[j - 1]) & (new < caps[j])]
        if fronts is None:
            # a split beating the best point met has W t < ub - V * lo: only such stages matter
            # (an interval whose floor they change has one at least ub, and ub caps the floor)
            cap_ub = ub
            fronts = _Fronts(problem, blk, kept, L, P, V, np.floor((ub - V * lo) / W))
        got = fronts.least_t(new)
        for c, t in zip(new.tolist(), got.tolist()):
            if np.isfinite(t) and (best is None or W * t + V * (c - 1) < best[1]):
                best = (t, W * t + V * (c - 1))
        caps[j:j] = new.tolist()
        g[j:j] = got.tolist()
    return float(floor), best


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

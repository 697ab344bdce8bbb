"""Floors for the coupling of the bottleneck t and the exposed gradient reduction d in
the stage model's objective W * t_max + V * d_max (W = V*M + P - 1): the least d of any
split (memory and time aside), the least d among the splits that reach a bottleneck, the
least t of a split exposing less than a reduction, and a bracket of the trade-off between
the two. Each stage's choices are enumerated once as a staircase (the least time of a
choice exposing at most e, planner/solve/stagedp.py's `stage_front`), so each floor is the
min-max DP of exact per-stage values.
"""
from __future__ import annotations

import numpy as np

from planner.costmodel import step
from planner.solve.splits import minmax, minmax_many
from planner.solve.stagedp import Block, stage_front, stage_sum


def reduction_floors(problem, blk: Block, kept, L: int, P: int, V: int, M: int, t_star: float, d_hint: int,
                     o_hint: float, bnd, stages, target: float = np.inf):
    """Given T* and a split reaching it (bnd, stages) that exposes d_hint and steps its
    optimizer in o_hint: (d_star: the least exposed reduction of any split; d_hint: the
    least among the splits reaching T*; t_e / t_eo: floors of the bottleneck of a split
    exposing less than it / also stepping its optimizer faster than o_hint; td_floor: a
    floor of W * t_max + V * d_max; bnd, stages: the split to start CP-SAT from, the best
    the floors met). `blk` holds every searchable module (window-only ones too); `kept`:
    least_bottleneck's per-stage arrays; `target`: a value of W * t_max + V * d_max the
    caller need not see beaten (the floor is refined no further once it reaches it)."""
    W = step.bottleneck_weight(M, P, V)
    # the least exposed reduction over every split: per stage and interval the least
    # excess of any choice (memory and time aside), min-max over splits
    cx = np.full((P, L + 1, L + 1), np.inf)
    for i, _, _, _, inv, lo_, hi_, _, codes, _ in kept:
        cx[i][lo_, hi_] = _least_excess(problem, blk, codes, L, int(i == 0), int(i == P - 1))[inv]
    d_star = max(0.0, minmax(cx)[0])
    lo = max(0, int(np.ceil(d_star - 1e-6)))
    # A split with a stage slower than t_cap costs more than the hint's W T* + V d_hint:
    # only the choices within it are enumerated. A floor the fronts put above t_cap is
    # taken as t_cap + 1 (every choice within t_cap is there, so the true value exceeds it).
    t_cap = np.floor((W * t_star + V * d_hint - V * lo) / W)
    fronts = _Fronts(problem, blk, kept, L, P, V, t_cap)
    clamp = lambda t: min(float(t), t_cap + 1)
    low = fronts.least_excess(t_star)            # the least reduction among the splits reaching T*
    if low is not None and low[0] < d_hint:
        d_low, bnd2, stages2, o2 = low
        if max(0.0, d_low) + o2 < d_hint + o_hint:      # a better start for CP-SAT
            bnd, stages = bnd2, stages2
        d_hint = max(0, int(d_low))
    t_e = clamp(fronts.least_t([d_hint])[0])
    t_eo = clamp(fronts.least_t([d_hint], o_hint)[0])
    hint_td = W * t_star + V * d_hint
    td_floor, point = _bracket(fronts, L, P, V, W, t_star, d_hint, t_e, lo, target)
    td_floor = max(td_floor, fronts.joint(W, V, t_cap))         # the two maxima at one stage together
    if point is not None and point[1] < hint_td:
        # a split with a slower bottleneck that exposes enough less: start CP-SAT there
        got = fronts.least_excess(point[0])
        if got is not None and W * point[0] + V * (max(0.0, got[0]) + got[3]) < hint_td + V * o_hint:
            bnd, stages = got[1], got[2]
    return d_star, d_hint, t_e, t_eo, td_floor, bnd, stages


class _Fronts:
    """Per stage of a tuple: its choices within a time cap, sorted by (pair of layer
    counts, excess), with the least time of each pair's choices up to each excess: the
    least bottleneck of a split exposing less than c is a min-max DP per cap c, and the
    least reduction of a split within a bottleneck one more."""

    def __init__(self, problem, blk: Block, kept, L: int, P: int, V: int, t_cap: float):
        """Only choices within `t_cap` are kept: a pair of layer counts whose least time
        (any choice, `kept`'s) exceeds it is left out (the window-only modules of `blk`
        free no memory, so they never lower that least)."""
        self.L, self.P, self.blk, self.parts = L, P, blk, []
        for i, t_any, _, _, inv, lo_, hi_, _, codes, k in kept:
            n = len(codes)
            keep = np.flatnonzero(t_any.reshape(n, -1).min(1) <= t_cap)
            c = stage_front(problem, blk, codes[keep], L, V, k, int(i == 0), int(i == P - 1))
            ok = c["t"] <= t_cap
            c = {q: a[ok] for q, a in c.items()}
            c["pair"] = keep[c["pair"]]
            span = max(int(c["e"].max()), 0) + 3 if len(c["e"]) else 3        # e <= -1 (hidden) all read as -1
            key = c["pair"] * span + np.clip(c["e"], -1, span - 3) + 1      # by pair, then excess (-1: any cap)
            order = np.argsort(key, kind="stable")
            c = {q: a[order] for q, a in c.items()}
            t = c["t"].astype(np.int64)
            # the prefix least time within each pair: later pairs offset below earlier ones
            off = (n - c["pair"]) * (int(t.max()) + 1 if len(t) else 1)
            c["least"] = (np.minimum.accumulate(t + off) - off).astype(float)
            c["key"] = key[order]
            c["starts"] = np.searchsorted(c["pair"], np.arange(n), "left")
            c["ends"] = np.searchsorted(c["pair"], np.arange(n), "right")
            self.parts.append((i, inv, lo_, hi_, n, span, c))

    def least_t(self, caps, o_cap: float = np.inf) -> np.ndarray:
        """Per cap c: the least bottleneck over the splits whose every stage exposes less
        than c (and, with `o_cap`, steps its optimizer in less than it)."""
        caps = np.asarray(caps, np.int64)
        ce = np.full((len(caps), self.P, self.L + 1, self.L + 1), np.inf)
        for i, inv, lo_, hi_, n, span, c in self.parts:
            if np.isfinite(o_cap):            # one cap: the least time per pair among the choices within both
                ok = (c["e"] <= caps[0] - 1) & (c["o"] < o_cap)
                got = _per_pair_min(np.where(ok, c["t"], np.inf), c)[None, :]
            else:
                q = np.arange(n)[None, :] * span + np.clip(caps - 1, -1, span - 3)[:, None] + 1
                pos = np.searchsorted(c["key"], q, "right") - 1
                got = (np.where(pos >= c["starts"][None, :], c["least"][np.maximum(pos, 0)], np.inf)
                       if len(c["least"]) else np.full(q.shape, np.inf))
            ce[:, i][:, lo_, hi_] = got[:, inv]
        return minmax_many(ce)

    def joint(self, W: int, V: int, t_cap: float) -> float:
        """A floor of W * t_max + V * d_max over every split: each stage's least W t + V
        max(0, e) over its choices (exact: every r, every module set), min-max over splits;
        a stage's choices beyond t_cap are not in the front, and cost at least W (t_cap + 1)."""
        cost = np.full((self.P, self.L + 1, self.L + 1), np.inf)
        for i, inv, lo_, hi_, n, span, c in self.parts:
            vals = W * c["t"].astype(float) + V * np.maximum(c["e"], 0).astype(float)
            cost[i][lo_, hi_] = _per_pair_min(vals, c, W * (t_cap + 1.0))[inv]
        return float(minmax(cost)[0])

    def least_excess(self, t_cap: float):
        """The least exposed reduction over the splits whose every stage's micro-batch fits
        `t_cap`, with such a split: (d, boundaries, per stage (row, modules, r), its slowest
        optimizer step); None when no split fits."""
        cx = np.full((self.P, self.L + 1, self.L + 1), np.inf)
        pick = np.full((self.P, self.L + 1, self.L + 1), -1, np.int64)
        for i, inv, lo_, hi_, n, span, c in self.parts:
            # the first choice within the cap in each pair's excess order
            pos = np.where(c["t"] <= t_cap, np.arange(len(c["t"])), len(c["t"]))
            first = _per_pair_min(pos, c, len(c["t"])).astype(np.int64)
            ok = first < c["ends"]
            cx[i][lo_, hi_] = np.where(ok, c["e"][np.minimum(first, max(len(c["e"]) - 1, 0))] if len(c["e"]) else 0,
                                       np.inf)[inv]
            pick[i][lo_, hi_] = np.where(ok, first, -1)[inv]
        d, bnd = minmax(cx)
        if bnd is None:
            return None
        stages, opt = [], []
        for i, inv, lo_, hi_, n, span, c in self.parts:
            j = pick[i][bnd[i], bnd[i + 1]]
            stages.append((int(self.blk.rows[c["row"][j]]), self.blk.sets[c["set"][j]], int(c["r"][j])))
            opt.append(float(c["o"][j]))
        return d, bnd, stages, max(opt)


def _per_pair_min(vals: np.ndarray, c: dict, empty=np.inf) -> np.ndarray:
    """The least of `vals` (one per choice, in the front's order) within each pair; `empty`
    for a pair without choices."""
    n = len(c["starts"])
    if not len(vals):
        return np.full(n, empty, float)
    ext = np.append(vals.astype(float), empty)
    got = np.minimum.reduceat(ext, np.minimum(c["starts"], len(vals)))
    return np.where(c["ends"] > c["starts"], got, empty)


# The trade-off bracket: rounds of refinement, each splitting the weakest interval into
# this many parts (measured on DeepSeek-V3's pp = 16 tuples: the bottleneck / reduction
# front has hundreds of steps, a walk along it hundreds of passes over the stages)
BRACKET_ROUNDS, BRACKET_PARTS = 8, 16
BRACKET_TOL = 1e-4                 # refine no further once the floor is this close to a plan found


def _bracket(fronts: _Fronts, L, P, V, W, t0, d0, t1, lo, target=np.inf,
             rounds: int = BRACKET_ROUNDS, parts: int = BRACKET_PARTS):
    """A floor of W * t_max + V * d_max (W = V*M + P - 1) over every split, and the best
    (bottleneck, W t + V d) point met: (t0, d0) a bottleneck no plan beats and the least
    reduction of a split reaching it, t1 a floor of the bottleneck of a split exposing less
    than d0, lo a floor of any split's reduction. With caps lo = c_0 < c_1 < ... < c_n =
    d0 and g_j the least bottleneck of a split exposing less than c_j, a split exposes at
    least d0 (then it costs at least W t0 + V d0) or its reduction lies in some [c_(j-1),
    c_j), where it costs at least W g_j + V c_(j-1). Each round splits the interval of
    least floor into `parts`, until the floor reaches `target` or comes within BRACKET_TOL
    of a split met (a split exposing less than c_j with bottleneck g_j costs at most W g_j
    + V (c_j - 1))."""
    top = W * t0 + V * d0
    if d0 <= lo or not np.isfinite(t1):
        return float(top), None
    caps, g = [lo, int(d0)], [np.inf, float(t1)]           # no split exposes less than lo
    best = None
    for _ in range(rounds + 1):
        lbs = [W * g[j] + V * caps[j - 1] for j in range(1, len(caps))]
        j = int(np.argmin(lbs)) + 1
        ub = min(top, best[1]) if best else top
        floor = min(top, lbs[j - 1])
        if floor >= target or floor >= ub * (1 - BRACKET_TOL) or caps[j] - caps[j - 1] <= 1 or not rounds:
            return float(floor), best
        rounds -= 1
        new = np.unique(np.linspace(caps[j - 1], caps[j], parts + 1)[1:-1].astype(np.int64))
        new = new[(new > caps[j - 1]) & (new < caps[j])]
        got = fronts.least_t(new)
        for c, t in zip(new.tolist(), got.tolist()):
            if np.isfinite(t) and (best is None or W * t + V * (c - 1) < best[1]):
                best = (t, W * t + V * (c - 1))
        caps[j:j] = new.tolist()
        g[j:j] = got.tolist()
    return float(floor), best


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

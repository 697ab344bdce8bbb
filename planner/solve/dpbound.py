"""A per-tuple lower bound (and a feasible bottleneck) from the stage model's own
coefficients, by dynamic programming over the stage boundaries — much tighter than the
fluid bounds of planner/solve/bounds.py, cheap enough to run on every tuple the search would
otherwise hand to CP-SAT.

`tmin[i, lo, hi]` is the least micro-batch time of stage i holding layers [lo, hi) over
every folding, module set and fully recomputed layer count that fits the budget
(planner/solve/stagedp.py's `stage_options`, exact). The least bottleneck over all splits, min
over splits of max_i tmin, is a min-max partition solved by DP; it is the stage model's
t_max at its least, so

    V * step >= (V*M + P - 1) * T*  +  V * (least exposed reduction + least optimizer step)

(planner.costmodel.step's rule, scaled by V)
with the last two taken from planner/solve/bounds.py (valid for any split). Every choice the
stage model can make is among those minimised over, so the bound is valid; it only drops
the coupling of the three maxima. `floors` evaluates a cheaper relaxation of it (recompute
as an LP) on blocks of tuples; for the tuples CP-SAT is handed, `least_bottleneck` is
exact, and bounds the coupling of bottleneck and exposed reduction too (planner/solve/tradeoff.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Optional

import numpy as np

from planner.costmodel import GiB, chunks, step
from planner.solve.space import Tables
from planner.solve.splits import intervals, minmax, minmax_many, minmax_start, minmax_step
from planner.solve.stagedp import Block, stage_options, stage_sum
from planner.solve.tradeoff import reduction_floors


@dataclass
class DPResult:
    """The least bottleneck T* (ns; inf when nothing fits) and a split reaching it: stage
    boundaries, and per stage (row of the table, recompute modules, layers fully recomputed)."""
    t_star: float
    o_star: float = np.inf           # the least slowest-stage optimizer step over every split (memory aside)
    bnd: Optional[list[int]] = None
    stages: Optional[list[tuple[int, tuple[str, ...], int]]] = None
    o_hint: float = np.inf           # the slowest optimizer step of that split
    t_below: float = np.inf          # the least bottleneck when every stage's optimizer step is below o_hint

    d_star: float = 0.0              # the least exposed reduction over every split (memory and time aside)
    d_hint: float = 0.0              # the exposed reduction of that split
    t_e: float = np.inf              # the least bottleneck when every stage exposes less than d_hint
    t_eo: float = np.inf             # ... and keeps its optimizer step below o_hint
    td_floor: float = 0.0            # a floor of W * t_max + V * d_max over every split (planner/solve/tradeoff.py)

    def objective_floor(self, m: int, pp: int, vpp: int, d: int) -> float:
        """A floor of the stage model's objective, V * step = step.scaled_step(t_max, d_max,
        o_max) (d: a floor of d_max), by cases: a plan keeps o_max >= o_hint or o_max <
        o_hint (then t_max >= t_below), and d_max >= d_hint or d_max < d_hint (then t_max >=
        t_e, or t_eo when both are below)."""
        dh = max(d, self.d_hint)
        cases = ((self.t_star, dh, self.o_hint), (self.t_below, dh, self.o_star), (self.t_e, d, self.o_hint),
                 (self.t_eo, d, self.o_star))
        return min(step.scaled_step(t, e, o, m, pp, vpp) for t, e, o in cases)


def _relaxed_stage(problem, blk: Block, codes, L: int, V: int, k, first: int, last: int, base=None):
    """A lower bound on stage i's least micro-batch time per (pair of layer counts, row),
    cheaper than stage_options: the LP relaxation of the recompute choice. Per layer kind, a
    layer may take any mix of its options (nothing, a module set, full recompute): the
    lower convex hull of their (bytes freed, time added) points, filled cheapest segment
    first across both kinds until the memory over the budget is freed. None when some
    option lowers the time (the hull from the origin would not bound it). `base`: the
    stages' times without recompute per (pair, row) of each piece of step.PACE, when already
    known."""
    allowed = set(problem.train.recompute)
    cap = int(problem.cluster.memory_budget_gib * GiB) * V
    nd = (codes // (L + 1))[:, None].astype(float)             # (pair, row)
    nm = (codes % (L + 1))[:, None].astype(float)
    kk = np.asarray(k, float).reshape(-1) if np.ndim(k) else float(k)
    d = blk.floats()
    mem = {q: V * d["mem"][q] + kk * d["act"][q] for q in ("const", "e_f", "e_l", "h_m", "L_d", "L_m")}
    v0 = {"mem": stage_sum(mem, nd, nm, first, last)}
    # the pieces that pace the micro-batch (step.PACE): recompute adds to the first, its own work
    side = base if base is not None else tuple(stage_sum(d[p], nd, nm, first, last) for p in step.PACE)
    own, beside = side[0], side[1:]
    kinds = tuple(kd for kd, cnt in (("m", nm), ("d", nd)) if cnt.any())     # a kind no interval holds adds nothing
    segs = blk.fill_segments(kinds, "full" in allowed, V, kk)
    if segs is None:
        return None
    free, fin, is_m, scale = segs                   # (segment, row); the need is filled in units of `scale`
    need = np.maximum(0.0, v0["mem"] - cap)
    if not free.shape[0]:
        return np.where(need <= 0, reduce(np.maximum, beside, own), np.inf)
    need_s = need / scale
    tol = 1e-6 * np.maximum(need, 1.0) / scale
    if len(kinds) == 1:
        # one kind: the hull's segments already come in increasing slope, so per layer
        # (need / n of it) the fill is one convex piecewise-linear function of each row
        n = nm if kinds[0] == "m" else nd                              # (pair, 1)
        per = need_s / np.maximum(n, 1.0)
        start = np.cumsum(free, 0) - free
        extra = np.zeros_like(per)
        for j in range(free.shape[0]):
            extra += fin[j] * np.clip(per - start[j], 0.0, free[j])
        t = reduce(np.maximum, beside, own + n * extra)
        return np.where(n * free.sum(0) >= need_s - tol, t, np.inf)
    # both kinds: every segment of either, cheapest first per row, each holding its kind's
    # layer count times its bytes (one (pair, row) slice at a time, as a running sum)
    before, extra = np.zeros_like(need), np.zeros_like(need)
    for j in range(free.shape[0]):
        capa = np.where(is_m[j], nm, nd) * free[j]
        extra += fin[j] * np.clip(np.minimum(capa, need_s - before), 0.0, None)
        before += capa
    t = reduce(np.maximum, beside, own + extra)
    return np.where(before >= need_s - tol, t, np.inf)


def least_bottleneck(problem, tab: Tables, ti: int, rows=None, target: float = np.inf) -> DPResult:
    """T*: the least bottleneck micro-batch time (ns, integer tables) of tuple ti over every
    split, folding and recompute that fits memory, and a split that reaches it (among
    those, one with the least slowest optimizer step). `target`: a value of W * t_max + V *
    d_max past which the caller needs no sharper floor (planner/solve/tradeoff.py)."""
    rows = np.arange(tab.rows[ti].start, tab.rows[ti].stop) if rows is None else np.asarray(rows)
    if len(rows) == 0:
        return DPResult(np.inf)
    blk, kept, o_frees, L, P, V, M = _stage_choices(problem, tab, ti, rows)
    cost = np.full((P, L + 1, L + 1), np.inf)
    ocost = np.full((P, L + 1, L + 1), np.inf)             # least optimizer step, memory aside
    for i, t, _, _, inv, lo_, hi_, _, codes, _ in kept:
        cost[i][lo_, hi_] = t.reshape(len(codes), -1).min(1)[inv]
    for (i, _, _, _, inv, lo_, hi_, _, codes, _), o_free in zip(kept, o_frees):
        ocost[i][lo_, hi_] = o_free.reshape(len(codes), -1).min(1)[inv]
    t_star = minmax(cost)[0]
    o_star = minmax(ocost)[0]
    if not np.isfinite(t_star):
        return DPResult(np.inf, o_star)
    # a split reaching T* that also keeps the slowest optimizer step least (the hint)
    ocost2 = np.full((P, L + 1, L + 1), np.inf)
    choice = np.zeros((P, L + 1, L + 1, 3), np.int64)       # per stage and interval: set, row, r
    exc = np.zeros((P, L + 1, L + 1))                       # and the excess of that choice
    for i, t, o, r, inv, lo_, hi_, e, _, _ in kept:
        oo = np.where(t <= t_star, o, np.inf)
        flat = oo.reshape(oo.shape[0], -1)
        arg = flat.argmin(1)
        s_i, f_i, c_i = np.unravel_index(arg, oo.shape[1:])
        pick = np.arange(len(arg))
        ocost2[i][lo_, hi_] = flat[pick, arg][inv]
        choice[i][lo_, hi_] = np.stack([s_i, f_i, r[pick, s_i, f_i, c_i]], 1)[inv]
        exc[i][lo_, hi_] = np.broadcast_to(e, t.shape)[pick, s_i, f_i, c_i][inv]
    _, bnd = minmax(ocost2)
    if bnd is None:
        return DPResult(t_star, o_star)
    stages = []
    for i in range(P):
        s_i, f_i, r_i = choice[i][bnd[i], bnd[i + 1]]
        stages.append((int(rows[f_i]), blk.sets[s_i], int(r_i)))
    o_hint = max(ocost2[i][bnd[i], bnd[i + 1]] for i in range(P))
    # the least bottleneck with every stage's optimizer step below o_hint
    below = np.full((P, L + 1, L + 1), np.inf)
    for i, t, o, r, inv, lo_, hi_, *_ in kept:
        below[i][lo_, hi_] = np.where(o < o_hint, t, np.inf).reshape(t.shape[0], -1).min(1)[inv]
    # the exposed reduction of that split, and the least bottleneck of a split exposing less
    d_hint = max(0, int(max(exc[i][bnd[i], bnd[i + 1]] for i in range(P))))
    t_e = t_eo = np.inf                              # d_max < 0 is impossible
    d_star, td_floor = 0.0, 0.0
    if d_hint > 0:
        blk2 = Block(problem, tab, rows, every_module=True)     # the window-only modules too, exactly
        d_star, d_hint, t_e, t_eo, td_floor, bnd, stages = reduction_floors(
            problem, blk2, kept, L, P, V, M, t_star, d_hint, o_hint, bnd, stages, target)
    return DPResult(t_star, o_star, bnd, stages, float(o_hint), minmax(below)[0], d_star, float(d_hint), t_e, t_eo,
                    td_floor)


def _stage_choices(problem, tab: Tables, ti: int, rows: np.ndarray):
    """Of tuple ti: (the Block of its rows; per stage that holds an interval, stage_options'
    (stage, t, o, r, inverse, lo, hi, excess, codes, in-flight chunks); per such stage the
    least optimizer step, memory aside; L, P, V, M)."""
    tu = tab.tuples[ti]
    L, pm = _moe_prefix(problem)
    P, V, M = tu.pp, tu.vpp, tu.num_microbatches
    blk = Block(problem, tab, rows)
    kept, o_frees = [], []
    for i in range(P):
        lo_, hi_, codes, inv = intervals(L, P, V, i, pm)
        if len(lo_) == 0:
            continue
        k = int(chunks(P, V, M, i))
        t, o, r, o_free, e = stage_options(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1))
        kept.append((i, t, o, r, inv, lo_, hi_, e, codes, k))
        o_frees.append(o_free)
    return blk, kept, o_frees, L, P, V, M


def uniform_bottleneck(problem, tab: Tables, ti: int, rows) -> np.ndarray:
    """Per row of tuple ti (one expert folding): the least bottleneck over every split and
    recompute that fits memory when every stage takes that folding (an engine that sets
    EP / ETP once: planner.layout rule target.uniform_fold), exact; inf where none fits."""
    rows = np.asarray(rows)
    _, kept, _, L, P, _, _ = _stage_choices(problem, tab, ti, rows)
    cost = np.full((len(rows), P, L + 1, L + 1), np.inf)
    for i, t, _, _, inv, lo_, hi_, _, _, _ in kept:
        cost[:, i][:, lo_, hi_] = t.min(axis=(1, 3))[inv].T
    return minmax_many(cost)


def floors(problem, tab: Tables, tis, max_rows: int = 8192, relaxed: bool = True,
           cap=None, block=Block) -> tuple[np.ndarray, np.ndarray]:
    """(T*, O*) of each tuple in `tis` (the least bottleneck and the least slowest
    optimizer step, as least_bottleneck), evaluated in blocks of tuples that share pp and
    vpp (the module sets of a block are the union of its tuples': more choices, still a
    lower bound). `cap` (per tuple): a stage whose time without recompute already exceeds
    it is taken at that time, not relaxed further (the floor stays exact up to the cap and
    is never below min(cap, exact)). `block`: the Block class whose stage times are
    minimised (planner/solve/exposure.py passes one whose time carries the exposure)."""
    tis = np.asarray(tis, int)
    cap = np.full(len(tis), np.inf) if cap is None else np.asarray(cap, float)
    t_out, o_out = np.full(len(tis), np.inf), np.full(len(tis), np.inf)
    L, pm = _moe_prefix(problem)
    for P, V, part in _blocks(tab, tis, max_rows):
        t_out[part], o_out[part] = _block_floors(problem, tab, tis[part], L, P, V, pm, relaxed, cap[part], block)
    return t_out, o_out


def _moe_prefix(problem) -> tuple[int, np.ndarray]:
    """The layer count and the MoE layers before each layer boundary (L + 1 entries)."""
    is_moe = problem.model.moe_layers()
    return len(is_moe), np.concatenate([[0], np.cumsum(np.array(is_moe, int))])


def _blocks(tab: Tables, tis: np.ndarray, max_rows: int):
    """(pp, vpp, positions in `tis`) of blocks of tuples sharing pp and vpp, each block as
    many tuples as fit in max_rows table rows (at least one); tuples without rows left out."""
    PV = np.array([(tab.tuples[t].pp, tab.tuples[t].vpp) for t in tis]).reshape(-1, 2)
    for P, V in {tuple(x) for x in PV.tolist()}:
        idx = np.flatnonzero((PV[:, 0] == P) & (PV[:, 1] == V))
        lens = np.array([tab.rows[tis[j]].stop - tab.rows[tis[j]].start for j in idx])
        keep = lens > 0
        idx, lens = idx[keep], lens[keep]
        lo = 0
        while lo < len(idx):
            hi = lo + 1
            while hi < len(idx) and lens[lo:hi + 1].sum() <= max_rows:
                hi += 1
            yield P, V, idx[lo:hi]
            lo = hi


def window_floors(problem, tab: Tables, tis, max_rows: int = 8192) -> np.ndarray:
    """A floor of each tuple's least bottleneck, cheaper than `floors`: some stage holds at
    least n = ceil(L / P) layers, and a stage's relaxed time (_relaxed_stage) only grows with
    the layers it holds when no per-layer part is negative and no recompute option frees
    more than its layer holds (a layer added brings at least the memory it can free, and
    its time). So t_max >= the least, over stages i and windows of n consecutive layers, of
    stage i's relaxed time on the window. A stage without MoE layers may lack a MoE stage's
    extra (h_m, negative in some parts): where a window has none and a part of h_m is
    negative, or the conditions fail, the floor is 0."""
    tis = np.asarray(tis, int)
    out = np.zeros(len(tis))
    L, pm = _moe_prefix(problem)
    for P, V, part in _blocks(tab, tis, max_rows):
        n = -(-L // P)
        nm = pm[n:] - pm[:L - n + 1]
        codes = np.unique((n - nm) * (L + 1) + nm)
        out[part] = _window_block(problem, tab, tis[part], L, P, V, codes, bool((codes % (L + 1) == 0).any()))
    return out


def _window_block(problem, tab, tis, L, P, V, codes, dense_window: bool) -> np.ndarray:
    rows = np.concatenate([np.arange(tab.rows[t].start, tab.rows[t].stop) for t in tis])
    lens = np.array([tab.rows[t].stop - tab.rows[t].start for t in tis])
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    blk = Block(problem, tab, rows)
    d = blk.floats()
    is_moe = problem.model.moe_layers()
    kinds = [kd for kd, present in (("d", not all(is_moe)), ("m", any(is_moe))) if present]
    ok = np.ones(len(rows), bool)
    for g in ("mem", "act", *step.PACE):
        for q in ("L_d", "L_m") + (("h_m",) if dense_window and "m" in kinds else ()):
            ok &= d[g][q] >= 0
        for kind in kinds:                # what one layer's options free, at most, against what it holds
            parts = blk.option_parts(kind, "full" in problem.train.recompute) or ([], None)
            mods = sum((np.minimum(0.0, d[g][q]) for q in parts[0]), np.zeros(len(rows)))
            ok &= -mods <= d[g][f"L_{kind}"]
            if parts[1]:
                ok &= -np.minimum(0.0, d[g][parts[1]]) <= d[g][f"L_{kind}"]
    best = np.full(len(tis), np.inf)
    for i in range(P):
        k = np.repeat([chunks(P, V, tab.tuples[t].num_microbatches, i) for t in tis], lens)[None, :]
        r = _relaxed_stage(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1))
        if r is None:
            return np.zeros(len(tis))
        best = np.minimum(best, np.minimum.reduceat(r.min(0), starts))
    valid = np.logical_and.reduceat(ok, starts)
    return np.where(valid, best, 0.0)


def _least_opt(problem, blk: Block, codes, L: int, first: int, last: int) -> np.ndarray:
    """A lower bound on a stage's optimizer step per (pair, row), any recompute."""
    c = blk.floats()["opt"]
    nd = (codes // (L + 1))[:, None].astype(float)
    nm = (codes % (L + 1))[:, None].astype(float)
    out = stage_sum(c, nd, nm, first, last)
    for q, a in c.items():                       # recompute parts (0 for the optimizer step) only lower it
        if q.startswith(("Lf_", "r_")) and (a < 0).any():
            out = out + np.minimum(0.0, a) * (nm if q.endswith("_m") or "_m_" in q else nd)
    return out


def _block_floors(problem, tab, tis, L, P, V, pm, relaxed=True, cap=None, block=Block):
    rows = np.concatenate([np.arange(tab.rows[t].start, tab.rows[t].stop) for t in tis])
    lens = np.array([tab.rows[t].stop - tab.rows[t].start for t in tis])
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    Ms = np.array([tab.tuples[t].num_microbatches for t in tis])
    blk = block(problem, tab, rows)
    T = len(tis)
    best_t = best_o = minmax_start(T, L)
    for i in range(P):
        lo_, hi_, codes, inv = intervals(L, P, V, i, pm)
        k = np.repeat([chunks(P, V, int(m), i) for m in Ms], lens)[None, :]   # per row
        first, last = int(i == 0), int(i == P - 1)
        keep, plain, base = np.arange(len(codes)), np.zeros((len(codes), T)), None
        if relaxed and cap is not None and np.isfinite(cap).any():
            # the time without recompute bounds the relaxed time below: past the cap, it stands in
            d = blk.floats()
            nd, nm = (codes // (L + 1))[:, None].astype(float), (codes % (L + 1))[:, None].astype(float)
            base = tuple(stage_sum(d[p], nd, nm, first, last) for p in step.PACE)
            plain = np.minimum.reduceat(reduce(np.maximum, base), starts, axis=1)
            keep = np.flatnonzero((plain <= cap[None, :]).any(1))
            base = tuple(a[keep] for a in base) if len(keep) < len(codes) else base
        t_rel = _relaxed_stage(problem, blk, codes[keep], L, V, k, first, last, base) \
            if relaxed and len(keep) else None
        if relaxed and (t_rel is not None or not len(keep)):
            per_t = plain
            if len(keep):
                per_t[keep] = np.minimum.reduceat(t_rel, starts, axis=1)        # (pair, tuple)
            per_o = np.minimum.reduceat(_least_opt(problem, blk, codes, L, first, last), starts, axis=1)
        elif not getattr(blk, "exact_fallback", True):          # no floor from this stage
            per_t = per_o = np.full((len(codes), T), -np.inf)
        else:
            t, _, _, o_free, _ = stage_options(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1))
            per_t = np.minimum.reduceat(t.min(axis=(1, 3)), starts, axis=1)
            per_o = np.minimum.reduceat(o_free.min(axis=1), starts, axis=1)
        best_t = minmax_step(best_t, per_t[inv].T, lo_, hi_)
        best_o = minmax_step(best_o, per_o[inv].T, lo_, hi_)
    return best_t[:, L], best_o[:, L]


def int_floors(t: float, d: float, o: float) -> dict:
    """Integer floors (ns) of the stage model's t_max, d_max, o_max from valid real bounds."""
    up = lambda v: int(np.ceil(v - 1e-6)) if np.isfinite(v) and v > 0 else (0 if np.isfinite(v) else 2 ** 62)
    return dict(t=up(t), d=up(d), o=up(o))


def scaled(tu, fl: dict) -> int:
    """V * step of the integer floors of the three maxima (the cost model's step rule)."""
    return step.scaled_step(fl["t"], fl["d"], fl["o"], tu.num_microbatches, tu.pp, tu.vpp)


def floor_ns(tu, fl: dict) -> float:
    """The step time (ns) the floors imply (`scaled` / V), or the objective floor `obj`
    (V * step) where one is known."""
    if fl["t"] >= 2 ** 62 or fl["o"] >= 2 ** 62:
        return np.inf
    if "obj" in fl:
        return fl["obj"] / tu.vpp
    return scaled(tu, fl) / tu.vpp

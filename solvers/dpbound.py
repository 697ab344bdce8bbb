"""A per-tuple lower bound (and a feasible bottleneck) from the stage model's own
coefficients, by dynamic programming over the stage boundaries — much tighter than the
fluid bounds of solvers/bounds.py, cheap enough to run on every tuple the search would
otherwise hand to CP-SAT.

For one tuple, stage i holding layers [lo, hi) (nd dense, nm MoE layers) under folding f,
recompute modules S and r fully recomputed layers (MoE first, as the stage model) has
memory V * persistent + chunks_i * act_mb and micro-batch time max(work + comm, shard_mb),
each linear in (nd, nm, r) for fixed (i, f, S): exactly the sums `stage_model._StageVars.term`
writes. `tmin[i, lo, hi]` is the least such time over every (f, S, r) that fits the
budget (a piecewise-linear function of r on an integer interval reaches its least value
at an end of the interval where it fits, so a handful of candidate r per (f, S) is exact).
The least bottleneck over all splits, min over splits of max_i tmin, is a min-max
partition solved by DP; it is the stage model's t_max at its least, so

    V * step >= (V*M + P - 1) * T*  +  V * (least exposed reduction + least optimizer step)

with the last two taken from solvers/bounds.py (valid for any split). Every choice the
stage model can make is among those minimised over, so the bound is valid; it only drops
the coupling of the three maxima.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Optional

import numpy as np

from planner.costmodel import GiB, chunks
from planner.costmodel.names import COMM_TERMS, DENSE_MODULES, MOE_MODULES, PERSISTENT_TERMS
from solvers.space import Tables, searchable_modules

BUSY = ("work",) + COMM_TERMS


def _parts(tab: Tables, terms, rows, consts: dict) -> dict[str, np.ndarray]:
    """The sum of `terms`' coefficients per part over `rows` (int64); a part that is one
    number for every row (a broadcast column of the tables) is a shared read-only vector
    of `consts` (value -> vector)."""
    out = {}
    for q in tab.coef[terms[0]]:
        const, acc = 0, None
        for t in terms:
            a = tab.coef[t][q]
            if a.strides and a.strides[0] == 0:
                const += int(a[0]) if a.size else 0
            elif acc is None:
                acc = a[rows].copy() if isinstance(rows, slice) else a[rows]   # a copy: safe to add into
            else:
                acc += a[rows]
        if acc is None:
            if const not in consts:
                consts[const] = np.full(len(rows), const, np.int64)
                consts[const].flags.writeable = False
            out[q] = consts[const]
        else:
            out[q] = acc + const if const else acc
    return out


def _module_sets(problem, mods) -> list[tuple[str, ...]]:
    if "selective" not in problem.train.recompute:
        return [()]
    return [c for n in range(len(mods) + 1) for c in combinations(mods, n)]


class _Lazy(dict):
    """A dict whose missing entries are made on first read."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        value = self[key] = self._make(key)
        return value


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
    td_floor: float = 0.0            # a floor of W * t_max + V * d_max over every split (_staircase)

    def objective_floor(self, W: int, V: int, d: int) -> float:
        """A floor of the stage model's objective W*t_max + V*d_max + V*o_max (d: a floor of
        d_max), by cases: a plan keeps o_max >= o_hint or o_max < o_hint (then t_max >=
        t_below), and d_max >= d_hint or d_max < d_hint (then t_max >= t_e, or t_eo when
        both are below)."""
        dh = max(d, self.d_hint)
        return min(W * self.t_star + V * dh + V * self.o_hint, W * self.t_below + V * dh + V * self.o_star,
                   W * self.t_e + V * d + V * self.o_hint, W * self.t_eo + V * d + V * self.o_star)


class _Block:
    """The coefficients of a set of table rows (one tuple's foldings, or several tuples' of
    the same pp and vpp), per recompute-module set: shape (set, row)."""

    def __init__(self, problem, tab: Tables, rows: np.ndarray, every_module: bool = False):
        self.rows = rows
        self.mods = searchable_modules(problem, tab, rows, memory_only=not every_module)
        self.sets = _module_sets(problem, self.mods)
        consts: dict = {}
        per = {name: _parts(tab, terms, rows, consts) for name, terms in
               (("mem", PERSISTENT_TERMS), ("act", ("act_mb",)), ("busy", BUSY), ("shard", ("shard_mb",)),
                ("opt", ("opt_step",)), ("red", ("dp_step", "edp_step")), ("work", ("work",)))}
        per["exc"] = {q: per["red"][q] - per["work"][q] for q in per["red"]}      # excess = reduction - work
        self.per = per
        # what the modules that free no memory (searched for the reduction window alone) can
        # take off a layer's excess at most: (kind -> per row)
        full = searchable_modules(problem, tab, rows)
        self.window = {kind: sum((np.clip(-per["exc"][f"r_{kind}_{q}"], 0, None) for q in full
                                  if q not in self.mods and q in names), np.zeros(len(rows), np.int64))
                       for kind, names in (("m", MOE_MODULES), ("d", DENSE_MODULES))}
        self.mods = searchable_modules(problem, tab, rows, memory_only=True)
        # both built on first use, per term group (the relaxed bound reads only floats)
        self.C = _Lazy(lambda name: self._coefs(per[name]))
        self.set_has = np.array([len(S) > 0 for S in self.sets])[None, :, None, None]
        self._floats, self._points, self._const = _Lazy(self._float_parts), {}, {}

    def floats(self) -> dict:
        """The parts of each term group as floats, (row,) each."""
        return self._floats

    def _float_parts(self, name: str) -> dict:
        R = len(self.rows)
        out = {}
        for q, a in self.per[name].items():
            if a.shape == (R,) and not (a.strides and a.strides[0] == 0):
                out[q] = a.astype(float)
            else:                              # one number for every row: one shared read-only vector
                v = float(a.flat[0]) if a.size else 0.0
                if v not in self._const:
                    self._const[v] = np.full(R, v)
                    self._const[v].flags.writeable = False
                out[q] = self._const[v]
        return out

    def points(self, kind: str, full_ok: bool):
        """Per recompute option of one layer of a kind (nothing, each module set, full):
        its persistent-memory, activation and time coefficients, (point, row) each; None
        when an option lowers the time or the sharding traffic."""
        key = (kind, full_ok)
        if key not in self._points:
            d = self.floats()
            names = MOE_MODULES if kind == "m" else DENSE_MODULES
            R = len(self.rows)
            cols = [[np.zeros(R)] * 3]
            bad = False
            for S in self.sets:
                qs = [f"r_{kind}_{q}" for q in S if q in names]
                if qs:
                    cols.append([sum(d[t][q] for q in qs) for t in ("mem", "act", "busy")])
                    bad |= any((d["shard"][q] < 0).any() for q in qs)
            if full_ok:
                cols.append([d[t][f"Lf_{kind}"] for t in ("mem", "act", "busy")])
                bad |= bool((d["shard"][f"Lf_{kind}"] < 0).any())
            out = tuple(np.stack([c[j] for c in cols]) for j in range(3))
            bad |= bool((out[2] < 0).any())
            self._points[key] = None if bad else out
        return self._points[key]

    def _coefs(self, d):
        """Per (set, row): the stage extras and the cost of a dense / MoE layer kept (its
        modules recomputed) or fully recomputed."""
        R = len(self.rows)
        shape = (len(self.sets), R)
        out = {q: np.broadcast_to(d[q], shape) for q in ("const", "e_f", "e_l", "h_m")}
        for kind, names in (("d", DENSE_MODULES), ("m", MOE_MODULES)):
            # a layer kept under set S adds its modules' recompute: (set x module) @ (module x row)
            ks = [k for k in dict.fromkeys(k for S in self.sets for k in S) if k in names]
            if ks:
                member = np.array([[k in S for k in ks] for S in self.sets], np.int64)
                out[f"L_{kind}"] = d[f"L_{kind}"] + member @ np.stack([np.broadcast_to(d[f"r_{kind}_{k}"], (R,))
                                                                       for k in ks])
            else:
                out[f"L_{kind}"] = np.broadcast_to(d[f"L_{kind}"], shape)
        out["F_d"] = np.broadcast_to(d["L_d"] + d["Lf_d"], shape)
        out["F_m"] = np.broadcast_to(d["L_m"] + d["Lf_m"], shape)
        return out


def _stage(problem, blk: _Block, codes, L: int, V: int, k, first: int, last: int, excess_cap=None,
           time_cap=None):
    """Every (pair of layer counts, module set, row, candidate r) of one stage: the
    micro-batch time t (inf where memory does not fit), the optimizer step o, r, the least
    optimizer step over every r with memory aside (pair, set, row), and the excess of the
    gradient reduction over the compute at r. With `excess_cap`, r is the least that also
    keeps the excess (less what window-only modules could take off) within the cap, and t
    is inf where none does; None when that is not a monotone question (then no bound).
    With `time_cap` instead, r is the most that keeps the time within the cap (the least
    excess there, the excess falling with r), and t is inf where no r that fits does."""
    allowed = set(problem.train.recompute)
    full_ok, none_ok = "full" in allowed, "none" in allowed
    cap = int(problem.cluster.memory_budget_gib * GiB) * V
    nd = (codes // (L + 1))[:, None, None]                       # (pair, set, row)
    nm = (codes % (L + 1))[:, None, None]
    n, h = nd + nm, (nm > 0).astype(np.int64)
    xwin = nm * blk.window["m"] + nd * blk.window["d"]            # (pair, 1, row)
    # per term: its value with no layer fully recomputed, v0 (pair, set, row), and what one
    # MoE / dense layer fully recomputed adds, sm / sd (set, row)
    v0, sm, sd = {}, {}, {}
    for name in ("mem", "busy", "shard", "opt", "exc"):
        c = blk.C[name]
        if name == "mem":                 # V * persistent + in-flight chunks * activations (integers, exact)
            c = {q: V * c[q] + k * blk.C["act"][q] for q in c}
        v0[name] = (c["const"] + first * c["e_f"] + last * c["e_l"]) + h * c["h_m"] + nd * c["L_d"] + nm * c["L_m"]
        sm[name], sd[name] = c["F_m"] - c["L_m"], c["F_d"] - c["L_d"]

    def value(name, r):
        fm = np.minimum(r, nm)
        return v0[name] + fm * sm[name] + (r - fm) * sd[name]

    set_has = blk.set_has[..., 0]
    o_fixed = not (sm["opt"].any() or sd["opt"].any())
    if o_fixed:                                            # the optimizer step does not depend on r
        o_free = np.where(set_has | none_ok | (n == 0), v0["opt"], np.iinfo(np.int64).max)
        if not none_ok and full_ok:
            o_free = np.minimum(o_free, v0["opt"])         # r = n is always allowed then
    else:
        ends = (0 * n, nm + 0 * n, n) if full_ok else (0 * n,)
        o_free = np.min([np.where(set_has | none_ok | (e == n), value("opt", e), np.iinfo(np.int64).max)
                         for e in ends], axis=0)
    if full_ok:
        # r fully recomputed layers: MoE ones first (piece A, r <= nm), then dense (piece B)
        m0 = v0["mem"]
        m_nm = m0 + nm * sm["mem"]

        def boundary(a, b, ma, s, cap=cap):
            """The end of the piece's feasible integer interval set by the budget: for a
            falling piece (s < 0) the first r that fits, a + ceil((ma-cap)/-s); for a rising
            one the last, a + floor((cap-ma)/s); both a + sign(s) * floor((cap-ma)/|s|)."""
            return np.clip(a + np.sign(s) * _floordiv(cap - ma, np.where(s == 0, 1, np.abs(s))), a, b)

        monotone = ((sm["mem"] <= 0).all() and (sd["mem"] <= 0).all()
                    and all((x[y] >= 0).all() for x in (sm, sd) for y in ("busy", "shard")))
        if ((excess_cap is not None or time_cap is not None)
                and not (monotone and (sm["exc"] <= 0).all() and (sd["exc"] <= 0).all())):
            return None
        if monotone:
            # memory falls and time grows with r: the least r that fits is the best
            rA = nm + 0 * m0 if not (sm["mem"] < 0).any() else boundary(0, nm, m0, sm["mem"])
            rB = n + 0 * m0 if not (sd["mem"] < 0).any() else boundary(nm, n, m_nm, sd["mem"])
            r = np.where(m0 <= cap, 0, np.where(m_nm <= cap, rA, rB))
            if excess_cap is not None:
                # and the least r whose excess (less the window-only modules' most) is within the cap
                e_cap = excess_cap + xwin
                e0, e_nm = v0["exc"], v0["exc"] + nm * sm["exc"]
                eA = boundary(0, nm, e0, sm["exc"], e_cap)
                eB = boundary(nm, n, e_nm, sd["exc"], e_cap)
                r = np.maximum(r, np.where(e0 <= e_cap, 0, np.where(e_nm <= e_cap, eA, eB)))
            if time_cap is not None:
                # the most r whose time (busy and sharding traffic, both rising) is within the
                # cap; below the least r that fits, t exceeds the cap and is dropped below
                r_hi = np.minimum(_last_within(v0["busy"], sm["busy"], sd["busy"], nm, n, time_cap),
                                  _last_within(v0["shard"], sm["shard"], sd["shard"], nm, n, time_cap))
                r = np.where(r_hi >= r, r_hi, r)
            r = r[..., None]
        else:
            # a linear function on an integer interval is least at an end of it
            zero = 0 * m0
            r = np.stack([zero, nm + zero, n + zero, boundary(zero, nm + zero, m0, sm["mem"]),
                          boundary(nm + zero, n + zero, m_nm, sd["mem"])], axis=-1)
    else:
        r = (0 * v0["mem"])[..., None]
    nd, nm, n = nd[..., None], nm[..., None], n[..., None]
    v0 = {q: a[..., None] for q, a in v0.items()}
    sm = {q: a[..., None] for q, a in sm.items()}
    sd = {q: a[..., None] for q, a in sd.items()}
    if not none_ok:                                     # no module: every layer fully recomputed
        r = np.where(blk.set_has, r, n)
    fits = value("mem", r) <= cap
    if not none_ok and not full_ok:
        fits &= blk.set_has
    e = value("exc", r)
    if excess_cap is not None:
        fits &= e <= excess_cap + xwin[..., None]
    if time_cap is not None:
        fits &= np.maximum(value("busy", r), value("shard", r)) <= time_cap
    t = np.where(fits, np.maximum(value("busy", r), value("shard", r)).astype(float), np.inf)
    o = value("opt", r).astype(float)
    o_free = np.where(o_free == np.iinfo(np.int64).max, np.inf, o_free.astype(float))
    return t, o, np.broadcast_to(r, t.shape), np.broadcast_to(o_free, t.shape[:3]), e.astype(float)


def _last_within(f0, s_a, s_b, nm, n, cap):
    """The most r in [0, n] with f(r) <= cap for f rising and piecewise linear: slope s_a on
    [0, nm] (the MoE layers fully recomputed first), s_b on [nm, n]; -1 where f(0) > cap."""
    f_nm = f0 + nm * s_a
    last_a = np.where(s_a > 0, np.minimum(nm, _floordiv(cap - f0, np.where(s_a > 0, s_a, 1))), nm)
    last_b = np.where(s_b > 0, np.minimum(n, nm + _floordiv(cap - f_nm, np.where(s_b > 0, s_b, 1))), n)
    return np.where(f0 > cap, -1, np.where(f_nm <= cap, last_b, last_a))


def _floordiv(x: np.ndarray, d: np.ndarray) -> np.ndarray:
    """floor(x / d) for int64 x and d >= 1, exact (|x| < 2^53): the float quotient, off by
    at most one, corrected in integers (numpy's int64 floor division is several times slower)."""
    q = np.floor(x / d).astype(np.int64)
    q += (q + 1) * d <= x
    q -= q * d > x
    return q


def _relaxed_stage(problem, blk: _Block, codes, L: int, V: int, k, first: int, last: int):
    """A lower bound on stage i's least micro-batch time per (pair of layer counts, row),
    cheaper than _stage: the LP relaxation of the recompute choice. Per layer kind, a
    layer may take any mix of its options (nothing, a module set, full recompute): the
    lower convex hull of their (bytes freed, time added) points, filled cheapest segment
    first across both kinds until the memory over the budget is freed. None when some
    option lowers the time (the hull from the origin would not bound it)."""
    allowed = set(problem.train.recompute)
    cap = int(problem.cluster.memory_budget_gib * GiB) * V
    nd = (codes // (L + 1))[:, None].astype(float)             # (pair, row)
    nm = (codes % (L + 1))[:, None].astype(float)
    h = (nm > 0).astype(float)
    kk = np.asarray(k, float).reshape(-1) if np.ndim(k) else float(k)
    R = len(blk.rows)
    d = blk.floats()
    mem = {q: V * d["mem"][q] + kk * d["act"][q] for q in ("const", "e_f", "e_l", "h_m", "L_d", "L_m")}
    v0 = {name: (c["const"] + first * c["e_f"] + last * c["e_l"]) + h * c["h_m"] + nd * c["L_d"] + nm * c["L_m"]
          for name, c in (("mem", mem), ("busy", d["busy"]), ("shard", d["shard"]))}
    seg_free, seg_rate, seg_kind = [], [], []
    kinds = [kd for kd, cnt in (("m", nm), ("d", nd)) if cnt.any()]     # a kind no interval holds adds nothing
    for kind in kinds:
        pts = blk.points(kind, "full" in allowed)
        if pts is None:
            return None
        p_mem, p_act, cost = pts                                      # (point, row)
        free = -(V * p_mem + kk * p_act)
        # lower convex hull from the origin: repeatedly the point of least slope beyond the current one
        fc, cc = np.zeros(R), np.zeros(R)
        for _ in range(p_mem.shape[0] - 1):
            ahead = free > fc + 1e-9
            slope = np.where(ahead, (cost - cc) / np.where(ahead, free - fc, 1.0), np.inf)
            j = slope.argmin(0)
            best = slope[j, np.arange(R)]
            ok = np.isfinite(best)
            if not ok.any():
                break
            nf = np.where(ok, free[j, np.arange(R)], fc)
            seg_free.append(nf - fc)
            seg_rate.append(np.where(ok, best, np.inf))
            seg_kind.append(kind)
            fc, cc = nf, np.where(ok, cost[j, np.arange(R)], cc)
    need = np.maximum(0.0, v0["mem"] - cap)
    if not seg_free:
        return np.where(need <= 0, np.maximum(v0["busy"], v0["shard"]), np.inf)
    free = np.stack(seg_free)                                       # (segment, row)
    rate = np.stack(seg_rate)
    if len(kinds) == 1:
        # one kind: the hull's segments already come in increasing slope
        capa = (nm if kinds[0] == "m" else nd)[None] * free[:, None, :]          # (segment, pair, row)
    else:
        order = np.argsort(rate, axis=0, kind="stable")
        free = np.take_along_axis(free, order, 0)
        rate = np.take_along_axis(rate, order, 0)
        is_m = np.take_along_axis(np.array([kd == "m" for kd in seg_kind])[:, None].repeat(R, 1), order, 0)
        capa = np.where(is_m[:, None, :], nm[None], nd[None]) * free[:, None, :]
    before = np.cumsum(capa, 0) - capa
    take = np.clip(np.minimum(capa, need[None] - before), 0.0, None)
    extra = (take * np.where(np.isfinite(rate), rate, 0.0)[:, None, :]).sum(0)
    t = np.maximum(v0["busy"] + extra, v0["shard"])
    return np.where(capa.sum(0) >= need - 1e-6 * np.maximum(need, 1.0), t, np.inf)


def _intervals(L: int, P: int, V: int, i: int, pm: np.ndarray):
    """The intervals [lo, hi) stage i can hold (each stage keeps at least V layers), and
    their (dense, MoE) layer counts as codes nd * (L + 1) + nm: unique codes, inverse
    (read-only arrays, shared by every call with the same arguments)."""
    return _intervals_of(L, P, V, i, tuple(int(x) for x in pm))


@lru_cache(maxsize=4096)
def _intervals_of(L: int, P: int, V: int, i: int, pm_t: tuple):
    pm = np.array(pm_t)
    los = np.arange(V * i, L - V * (P - i) + 1) if i else np.array([0])
    lo_, hi_ = [a.ravel() for a in np.meshgrid(los, np.arange(L + 1), indexing="ij")]
    ok = (hi_ - lo_ >= V) & (hi_ <= L - V * (P - 1 - i)) & ((hi_ == L) if i == P - 1 else True)
    lo_, hi_ = lo_[ok], hi_[ok]
    nm_all = pm[hi_] - pm[lo_]
    codes, inv = np.unique((hi_ - lo_ - nm_all) * (L + 1) + nm_all, return_inverse=True)
    out = lo_, hi_, codes, inv.ravel()
    for a in out:
        a.flags.writeable = False
    return out


def least_bottleneck(problem, tab: Tables, ti: int, rows=None) -> DPResult:
    """T*: the least bottleneck micro-batch time (ns, integer tables) of tuple ti over every
    split, folding and recompute that fits memory, and a split that reaches it (among
    those, one with the least slowest optimizer step)."""
    tu = tab.tuples[ti]
    rows = np.arange(tab.rows[ti].start, tab.rows[ti].stop) if rows is None else np.asarray(rows)
    if len(rows) == 0:
        return DPResult(np.inf)
    is_moe = problem.model.moe_layers()
    L, P, V, M = len(is_moe), tu.pp, tu.vpp, tu.num_microbatches
    pm = np.concatenate([[0], np.cumsum(np.array(is_moe, int))])
    blk = _Block(problem, tab, rows)
    cost = np.full((P, L + 1, L + 1), np.inf)
    ocost = np.full((P, L + 1, L + 1), np.inf)             # least optimizer step, memory aside
    kept = []
    for i in range(P):
        lo_, hi_, codes, inv = _intervals(L, P, V, i, pm)
        if len(lo_) == 0:
            continue
        t, o, r, o_free, e = _stage(problem, blk, codes, L, V, int(chunks(P, V, M, i)), int(i == 0), int(i == P - 1))
        cost[i][lo_, hi_] = t.reshape(len(codes), -1).min(1)[inv]
        ocost[i][lo_, hi_] = o_free.reshape(len(codes), -1).min(1)[inv]
        kept.append((i, t, o, r, inv, lo_, hi_, e, codes, int(chunks(P, V, M, i))))
    t_star = _minmax(cost)[0]
    o_star = _minmax(ocost)[0]
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
    _, bnd = _minmax(ocost2)
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
        blk2 = _Block(problem, tab, rows, every_module=True)     # the window-only modules too, exactly
        # the least exposed reduction over every split: per stage and interval the least
        # excess of any choice (memory and time aside), min-max over splits
        cx = np.full((P, L + 1, L + 1), np.inf)
        for i, _, _, _, inv, lo_, hi_, _, codes, _ in kept:
            cx[i][lo_, hi_] = _least_excess(problem, blk2, codes, L, int(i == 0), int(i == P - 1))[inv]
        d_star = max(0.0, _minmax(cx)[0])
        got = _least_t_below(problem, blk2, kept, L, P, V, d_hint, o_hint)
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
                low = _least_excess_at(problem, blk2, kept, L, P, V, int(t_star))
                if low is not None and low[0] < d_hint:
                    d_low, bnd2, stages2, o2 = low
                    if max(0.0, d_low) + o2 < d_hint + o_hint:      # a better start for CP-SAT
                        bnd, stages = bnd2, stages2
                    d_hint = max(0, int(d_low))
                    t_e, t_eo = _least_t_below(problem, blk2, kept, L, P, V, d_hint, o_hint)   # monotone, as above
                td_floor = _staircase(problem, blk2, kept, L, P, V, M, t_star, d_hint, t_e, d_star)
    return DPResult(t_star, o_star, bnd, stages, float(o_hint), _minmax(below)[0], d_star, float(d_hint), t_e, t_eo,
                    td_floor)


def _least_t_below(problem, blk: _Block, kept, L: int, P: int, V: int, d_cap: int, o_cap: float):
    """(the least bottleneck over the splits whose every stage exposes less than d_cap,
    the same with every optimizer step also below o_cap); None when that is not a
    monotone question."""
    ce = np.full((P, L + 1, L + 1), np.inf)
    ceo = np.full((P, L + 1, L + 1), np.inf)
    for i, _, _, _, inv, lo_, hi_, _, codes, k in kept:
        got = _stage(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1), excess_cap=d_cap - 1)
        if got is None:
            return None
        t2, o2 = got[0], got[1]
        ce[i][lo_, hi_] = t2.reshape(len(codes), -1).min(1)[inv]
        ceo[i][lo_, hi_] = np.where(o2 < o_cap, t2, np.inf).reshape(len(codes), -1).min(1)[inv]
    return _minmax(ce)[0], _minmax(ceo)[0]


STAIR_STEPS = 6


def _staircase(problem, blk: _Block, kept, L, P, V, M, t0, d0, t1, d_floor, steps: int = STAIR_STEPS) -> float:
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


def _least_excess_at(problem, blk: _Block, kept, L: int, P: int, V: int, t_cap: int):
    """The least exposed reduction over the splits whose every stage's micro-batch fits
    `t_cap` (any folding, module set, recompute that fits memory), with such a split: (d,
    boundaries, per stage (row, modules, r), its slowest optimizer step); None when that is
    not a monotone question or no split fits."""
    cx = np.full((P, L + 1, L + 1), np.inf)
    choice = np.zeros((P, L + 1, L + 1, 3), np.int64)
    opt = np.zeros((P, L + 1, L + 1))
    for i, _, _, _, inv, lo_, hi_, _, codes, k in kept:
        got = _stage(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1), time_cap=t_cap)
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
    d, bnd = _minmax(cx)
    if bnd is None:
        return None
    stages = []
    for i in range(P):
        s_i, f_i, r_i = choice[i][bnd[i], bnd[i + 1]]
        stages.append((int(blk.rows[f_i]), blk.sets[s_i], int(r_i)))
    return d, bnd, stages, max(opt[i][bnd[i], bnd[i + 1]] for i in range(P))


def _least_excess(problem, blk: _Block, codes, L: int, first: int, last: int) -> np.ndarray:
    """Per pair of layer counts: the least excess of the gradient reduction over the
    compute window of any (module set, row, layers fully recomputed), memory aside. The
    excess is linear in r on each piece (MoE layers first, then dense), so its least is at
    r = 0, nm or n (only 0 without full recompute)."""
    c = blk.C["exc"]
    nd = (codes // (L + 1))[:, None, None]
    nm = (codes % (L + 1))[:, None, None]
    e0 = (c["const"] + first * c["e_f"] + last * c["e_l"]) + (nm > 0) * c["h_m"] + nd * c["L_d"] + nm * c["L_m"]
    out = e0
    if "full" in problem.train.recompute:
        e_nm = e0 + nm * (c["F_m"] - c["L_m"])
        out = np.minimum(np.minimum(e0, e_nm), e_nm + nd * (c["F_d"] - c["L_d"]))
    return out.reshape(len(codes), -1).min(1).astype(float)


def floors(problem, tab: Tables, tis, max_rows: int = 1024, relaxed: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(T*, O*) of each tuple in `tis` (the least bottleneck and the least slowest
    optimizer step, as least_bottleneck), evaluated in blocks of tuples that share pp and
    vpp (the module sets of a block are the union of its tuples': more choices, still a
    lower bound)."""
    tis = np.asarray(tis, int)
    t_out, o_out = np.full(len(tis), np.inf), np.full(len(tis), np.inf)
    is_moe = problem.model.moe_layers()
    L = len(is_moe)
    pm = np.concatenate([[0], np.cumsum(np.array(is_moe, int))])
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
            part = idx[lo:hi]
            t_out[part], o_out[part] = _block_floors(problem, tab, tis[part], L, P, V, pm, relaxed)
            lo = hi
    return t_out, o_out


def _least_opt(problem, blk: _Block, codes, L: int, first: int, last: int) -> np.ndarray:
    """A lower bound on a stage's optimizer step per (pair, row), any recompute."""
    c = blk.floats()["opt"]
    nd = (codes // (L + 1))[:, None].astype(float)
    nm = (codes % (L + 1))[:, None].astype(float)
    out = (c["const"] + first * c["e_f"] + last * c["e_l"]) + (nm > 0) * c["h_m"] + nd * c["L_d"] + nm * c["L_m"]
    for q, a in c.items():                       # recompute parts (0 for the optimizer step) only lower it
        if q.startswith(("Lf_", "r_")) and (a < 0).any():
            out = out + np.minimum(0.0, a) * (nm if q.endswith("_m") or "_m_" in q else nd)
    return out


def _block_floors(problem, tab, tis, L, P, V, pm, relaxed=True):
    rows = np.concatenate([np.arange(tab.rows[t].start, tab.rows[t].stop) for t in tis])
    lens = np.array([tab.rows[t].stop - tab.rows[t].start for t in tis])
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    Ms = np.array([tab.tuples[t].num_microbatches for t in tis])
    blk = _Block(problem, tab, rows)
    T = len(tis)
    best_t = best_o = None
    for i in range(P):
        lo_, hi_, codes, inv = _intervals(L, P, V, i, pm)
        k = np.repeat([chunks(P, V, int(m), i) for m in Ms], lens)[None, :]   # per row
        t_rel = _relaxed_stage(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1)) if relaxed else None
        if t_rel is not None:
            per_t = np.minimum.reduceat(t_rel, starts, axis=1)                  # (pair, tuple)
            per_o = np.minimum.reduceat(_least_opt(problem, blk, codes, L, first=int(i == 0), last=int(i == P - 1)),
                                        starts, axis=1)
        else:
            t, _, _, o_free, _ = _stage(problem, blk, codes, L, V, k, int(i == 0), int(i == P - 1))
            per_t = np.minimum.reduceat(t.min(axis=(1, 3)), starts, axis=1)
            per_o = np.minimum.reduceat(o_free.min(axis=1), starts, axis=1)
        c_t = np.full((T, L + 1, L + 1), np.inf)
        c_o = np.full((T, L + 1, L + 1), np.inf)
        c_t[:, lo_, hi_] = per_t[inv].T
        c_o[:, lo_, hi_] = per_o[inv].T
        if i == 0:
            best_t, best_o = c_t[:, 0, :], c_o[:, 0, :]
        else:
            best_t = np.maximum(best_t[:, :, None], c_t).min(1)
            best_o = np.maximum(best_o[:, :, None], c_o).min(1)
    return best_t[:, L], best_o[:, L]


def _minmax(cost: np.ndarray):
    """min over splits 0 = b_0 < ... < b_P = L of max_i cost[i, b_i, b_i+1], and a split reaching it."""
    P, L = cost.shape[0], cost.shape[1] - 1
    best = cost[0][0].copy()
    back = []
    for i in range(1, P):
        both = np.maximum(best[:, None], cost[i])
        back.append(both.argmin(0))
        best = both.min(0)
    if not np.isfinite(best[L]):
        return float(best[L]), None
    bnd = [L]
    for i in range(P - 1, 0, -1):
        bnd.append(int(back[i - 1][bnd[-1]]))
    bnd.append(0)
    return float(best[L]), bnd[::-1]

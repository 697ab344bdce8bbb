"""One pipeline stage's options as arrays: with planner/solve/splits.py (the min-max DP over
stage boundaries), the primitives of the per-tuple bounds (planner/solve/dpbound.py,
planner/solve/tradeoff.py).

For one tuple, stage i holding layers [lo, hi) (nd dense, nm MoE layers) under folding f,
recompute modules S and r fully recomputed layers (MoE first, as the stage model) has
memory V * persistent + chunks_i * act_mb and micro-batch time max(busy, shard) (the pieces
of planner.costmodel.step.stage_time),
each linear in (nd, nm, r) for fixed (i, f, S): exactly the sums `stage_model._StageVars.term`
writes. `stage_options` evaluates them over every (pair of layer counts, module set, row)
at the candidate r that can be least (a piecewise-linear function of r on an integer
interval reaches its least value at an end of the interval where it fits).
"""
from __future__ import annotations

from functools import reduce
from itertools import combinations

import numpy as np

from planner.costmodel import GiB, step
from planner.costmodel.names import DENSE_MODULES, MOE_MODULES, PERSISTENT_TERMS
from planner.solve.space import Tables, searchable_modules


def _parts(tab: Tables, terms, rows, consts: dict) -> dict[str, np.ndarray]:
    """The sum of `terms`' coefficients (names, or {name: sign}) per part over `rows`
    (int64); a part that is one number for every row (a broadcast column of the tables) is
    a shared read-only vector of `consts` (value -> vector)."""
    out = {}
    for q in tab.coef[next(iter(terms))]:
        const, acc = tab.split_sum(terms, q, rows)
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


def stage_sum(c: dict, nd, nm, first: int, last: int):
    """One term group's value for a stage of nd dense and nm MoE layers (none fully
    recomputed): its constant, the first / last stage's extras, the MoE-stage part and
    the per-layer parts (`c`: the group's parts, any broadcastable shapes)."""
    return (c["const"] + first * c["e_f"] + last * c["e_l"]) + (nm > 0) * c["h_m"] + nd * c["L_d"] + nm * c["L_m"]


class _Lazy(dict):
    """A dict whose missing entries are made on first read."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        value = self[key] = self._make(key)
        return value


class Block:
    """The coefficients of a set of table rows (one tuple's foldings, or several tuples' of
    the same pp and vpp), per recompute-module set: shape (set, row)."""

    def __init__(self, problem, tab: Tables, rows: np.ndarray, every_module: bool = False):
        self.rows = rows
        self.mods = searchable_modules(problem, tab, rows, memory_only=not every_module)
        self.sets = _module_sets(problem, self.mods)
        consts: dict = {}
        per = {name: _parts(tab, terms, rows, consts) for name, terms in
               (("mem", PERSISTENT_TERMS), ("act", ("act_mb",)))}
        # the stage time's pieces (planner.costmodel.step.stage_time): those that pace a
        # micro-batch (step.PACE), the optimizer step, and the excess = reduction - window
        st = step.stage_time(lambda w: _parts(tab, w, rows, consts))
        per.update({p: st.piece(p) for p in step.PACE}, opt=st.opt, exc=st.excess)
        self.per = per
        # what the modules that free no memory (searched for the reduction window alone) can
        # take off a layer's excess at most: (kind -> per row)
        full = searchable_modules(problem, tab, rows)
        self.window = {kind: sum((np.clip(-per["exc"][f"r_{kind}_{q}"], 0, None) for q in full
                                  if q not in self.mods and q in names), np.zeros(len(rows), np.int64))
                       for kind, names in (("m", MOE_MODULES), ("d", DENSE_MODULES))}
        self.mods = searchable_modules(problem, tab, rows, memory_only=True)
        self.allowed = set(problem.train.recompute)
        # both built on first use, per term group (the relaxed bound reads only floats)
        self.C = _Lazy(lambda name: self._coefs(per[name]))
        self.set_has = np.array([len(S) > 0 for S in self.sets])[None, :, None, None]
        self._floats, self._const, self._hulls, self._fast = _Lazy(self._float_parts), {}, {}, {}

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

    def option_parts(self, kind: str, full_ok: bool):
        """The parts a layer of a kind adds under its recompute options: (one per module its
        sets take, full recompute's or None); a module set adds the sum of its modules'.
        None when an option lowers the time or the sharding traffic."""
        d = self.floats()
        names = MOE_MODULES if kind == "m" else DENSE_MODULES
        mods = [f"r_{kind}_{q}" for q in self.mods if q in names] if "selective" in self.allowed else []
        full = f"Lf_{kind}" if full_ok else None
        if any((d[p][q] < 0).any() for p in step.PACE for q in mods + [full] * bool(full)):
            return None
        return mods, full

    def options_hull(self, kind: str, full_ok: bool, V: int, k):
        """The points through which the lower convex hull, from the origin, of one layer's
        recompute options (nothing, each module set, full) in (bytes freed, time added)
        passes: (freed, added) of (point, row) each, `k` the in-flight micro-batches per row;
        None when an option lowers the time or the sharding traffic. A module set's point is
        the sum of its modules', so that hull's module part is the chain of the modules that
        free memory taken by least time per byte freed (the lower boundary of their subset
        sums): K + 2 points per row, not 2^K + 1."""
        d = self.floats()
        parts = self.option_parts(kind, full_ok)
        if parts is None:
            return None
        qs, full = parts
        R = len(self.rows)
        free = lambda q: -(V * d["mem"][q] + k * d["act"][q])
        zero = np.zeros((1, R))
        pts_f, pts_c = [zero], [zero]
        if qs:
            f = np.stack([np.broadcast_to(free(q), (R,)) for q in qs])
            c = np.stack([d["busy"][q] for q in qs])
            gain = f > 0                                   # a module that frees nothing is never on the hull
            f, c = np.where(gain, f, 0.0), np.where(gain, c, 0.0)
            order = np.argsort(np.where(gain, c / np.where(gain, f, 1.0), np.inf), axis=0, kind="stable")
            pts_f.append(np.cumsum(np.take_along_axis(f, order, 0), 0))
            pts_c.append(np.cumsum(np.take_along_axis(c, order, 0), 0))
        if full:
            pts_f.append(np.broadcast_to(free(full), (R,))[None])
            pts_c.append(d["busy"][full][None])
        return np.concatenate(pts_f), np.concatenate(pts_c)

    def fill_segments(self, kinds: tuple, full_ok: bool, V: int, k):
        """The segments of those hulls for layers of `kinds` (each kind's, merged cheapest
        first per row when two): freed bytes, time per byte (0 where the hull ended) and
        whether a MoE layer's, (segment, row) each, for `k` in-flight micro-batches per row,
        plus the scale `s` of the bytes: a segment frees s x its bytes at 1 / s its rate
        (None as options_hull). When no option changes the persistent memory, a point frees
        k times what it frees at k = 1, so the hulls have the same vertices, in the same
        order, at every k: made once per block at k = 1, with s = k."""
        key = (kinds, full_ok, V)
        if kinds not in self._fast:
            d = self.floats()
            qs = [f"r_{kind}_{q}" for kind in kinds for q in self.mods] + [f"Lf_{kind}" for kind in kinds]
            self._fast[kinds] = all(q not in d["mem"] or not d["mem"][q].any() for q in qs)
        fast = self._fast[kinds]
        if fast and key in self._hulls:
            got = self._hulls[key]
            return None if got is None else (*got, k)
        got = self._merged(kinds, full_ok, V, 1.0 if fast else k)
        if fast:
            self._hulls[key] = got
        return None if got is None else (*got, k if fast else 1.0)

    def _merged(self, kinds, full_ok, V, k):
        R = len(self.rows)
        frees, rates, is_m = [], [], []
        for kind in kinds:
            pts = self.options_hull(kind, full_ok, V, k)
            if pts is None:
                return None
            f, r = _hull(*pts)
            frees.append(f), rates.append(r), is_m.append(np.full(f.shape, kind == "m"))
        free, rate, is_m = (np.concatenate(x) if x else np.zeros((0, R)) for x in (frees, rates, is_m))
        if len(kinds) > 1:
            order = np.argsort(rate, axis=0, kind="stable")
            free, rate, is_m = (np.take_along_axis(x, order, 0) for x in (free, rate, is_m))
        return free, np.where(np.isfinite(rate), rate, 0.0), is_m.astype(bool)

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


def stage_options(problem, blk: Block, codes, L: int, V: int, k, first: int, last: int):
    """Every (pair of layer counts, module set, row, candidate r) of one stage: the
    micro-batch time t (inf where memory does not fit), the optimizer step o, r, the least
    optimizer step over every r with memory aside (pair, set, row), and the excess of the
    gradient reduction over the compute at r (`stage_front` enumerates every r instead)."""
    allowed = set(problem.train.recompute)
    full_ok, none_ok = "full" in allowed, "none" in allowed
    cap = int(problem.cluster.memory_budget_gib * GiB) * V
    nd = (codes // (L + 1))[:, None, None]                       # (pair, set, row)
    nm = (codes % (L + 1))[:, None, None]
    n = nd + nm
    # per term: its value with no layer fully recomputed, v0 (pair, set, row), and what one
    # MoE / dense layer fully recomputed adds, sm / sd (set, row)
    v0, sm, sd = {}, {}, {}
    for name in ("mem", *step.PACE, "opt", "exc"):
        c = blk.C[name]
        if name == "mem":                 # V * persistent + in-flight chunks * activations (integers, exact)
            c = {q: V * c[q] + k * blk.C["act"][q] for q in c}
        v0[name] = stage_sum(c, nd, nm, first, last)
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
            return np.clip(a + np.sign(s) * floordiv(cap - ma, np.where(s == 0, 1, np.abs(s))), a, b)

        monotone = ((sm["mem"] <= 0).all() and (sd["mem"] <= 0).all()
                    and all((x[y] >= 0).all() for x in (sm, sd) for y in step.PACE))
        if monotone:
            # memory falls and time grows with r: the least r that fits is the best
            rA = nm + 0 * m0 if not (sm["mem"] < 0).any() else boundary(0, nm, m0, sm["mem"])
            rB = n + 0 * m0 if not (sd["mem"] < 0).any() else boundary(nm, n, m_nm, sd["mem"])
            r = np.where(m0 <= cap, 0, np.where(m_nm <= cap, rA, rB))[..., None]
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
    t = np.where(fits, paced(lambda p: value(p, r)).astype(float), np.inf)
    o = value("opt", r).astype(float)
    o_free = np.where(o_free == np.iinfo(np.int64).max, np.inf, o_free.astype(float))
    return t, o, np.broadcast_to(r, t.shape), np.broadcast_to(o_free, t.shape[:3]), e.astype(float)


def stage_front(problem, blk: Block, codes, L: int, V: int, k: int, first: int, last: int):
    """Every choice of one stage (pair of layer counts, module set, row, layers fully
    recomputed r = 0..n) that fits memory, as flat arrays: the pair's, set's and row's
    index, r, the excess of the gradient reduction over the compute window (less what
    window-only modules could take off), the micro-batch time and the optimizer step. r is enumerated, not solved for, so no monotonicity is
    assumed: the least time of a choice exposing at most e is exact for every e."""
    if not len(codes):
        z = np.zeros(0, np.int64)
        return dict(pair=z, set=z, row=z, r=z, e=z, t=z, o=z)
    allowed = set(problem.train.recompute)
    full_ok, none_ok = "full" in allowed, "none" in allowed
    cap = int(problem.cluster.memory_budget_gib * GiB) * V
    nd = (codes // (L + 1))[:, None, None, None]                 # (pair, set, row, r)
    nm = (codes % (L + 1))[:, None, None, None]
    n = nd + nm
    r = np.arange(int(n.max()) + 1 if full_ok else 1)
    ok = r <= n
    has = blk.set_has                                          # (1, set, 1, 1)
    if not none_ok:
        ok = ok & (has | (r == n)) if full_ok else ok & has
    fm = np.minimum(r, nm)

    def value(name):
        c = blk.C[name]
        if name == "mem":
            c = {q: V * c[q] + k * blk.C["act"][q] for q in c}
        v0 = stage_sum(c, nd[..., 0], nm[..., 0], first, last)[..., None]
        return v0 + fm * (c["F_m"] - c["L_m"])[..., None] + (r - fm) * (c["F_d"] - c["L_d"])[..., None]

    ok = ok & (value("mem") <= cap)
    t = paced(value)
    e = value("exc") - (nm[..., 0] * blk.window["m"] + nd[..., 0] * blk.window["d"])[..., None]
    o = np.broadcast_to(value("opt"), ok.shape)
    pair, s_i, f_i, r_i = np.nonzero(ok)
    return dict(pair=pair, set=s_i, row=f_i, r=r_i, e=np.broadcast_to(e, ok.shape)[ok],
                t=np.broadcast_to(t, ok.shape)[ok], o=o[ok])


def paced(value):
    """A stage's micro-batch time from `value(piece)` of each piece that paces it (step.PACE)."""
    return reduce(np.maximum, (value(p) for p in step.PACE))


def floordiv(x: np.ndarray, d: np.ndarray) -> np.ndarray:
    """floor(x / d) for int64 x and d >= 1, exact (|x| < 2^53): the float quotient, off by
    at most one, corrected in integers (numpy's int64 floor division is several times slower)."""
    q = np.floor(x / d).astype(np.int64)
    q += (q + 1) * d <= x
    q -= q * d > x
    return q


def _hull(free: np.ndarray, cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lower convex hull from the origin of points (point, row) in (freed, time added),
    repeatedly the point of least slope beyond the current one: its segments' freed bytes
    and slopes, (segment, row) each (a row whose hull ended has segments of 0 bytes at
    slope inf)."""
    R = free.shape[1]
    fc, cc = np.zeros(R), np.zeros(R)
    seg_free, seg_rate = [], []
    for _ in range(free.shape[0] - 1):
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
        fc, cc = nf, np.where(ok, cost[j, np.arange(R)], cc)
    if not seg_free:
        return np.zeros((0, R)), np.zeros((0, R))
    return np.stack(seg_free), np.stack(seg_rate)

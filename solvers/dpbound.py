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
from itertools import combinations
from typing import Optional

import numpy as np

from planner.costmodel import GiB, chunks
from planner.costmodel.formulas import COMM_TERMS, DENSE_MODULES, MOE_MODULES
from solvers.space import Tables, searchable_modules

PERSISTENT = ("weights", "grads", "optimizer", "logits", "buffers")
BUSY = ("work",) + COMM_TERMS


def _parts(tab: Tables, terms, rows) -> dict[str, np.ndarray]:
    co = tab.coef
    return {q: sum(co[t][q][rows].astype(np.int64) for t in terms) for q in co[terms[0]]}


def _module_sets(problem, mods) -> list[tuple[str, ...]]:
    if "selective" not in problem.train.recompute:
        return [()]
    return [c for n in range(len(mods) + 1) for c in combinations(mods, n)]


@dataclass
class DPResult:
    """The least bottleneck T* (ns; inf when nothing fits) and a split reaching it: stage
    boundaries, and per stage (row of the table, recompute modules, layers fully recomputed)."""
    t_star: float
    o_star: float = np.inf           # the least slowest-stage optimizer step over every split (memory aside)
    bnd: Optional[list[int]] = None
    stages: Optional[list[tuple[int, tuple[str, ...], int]]] = None


def least_bottleneck(problem, tab: Tables, ti: int, rows=None) -> DPResult:
    """T*: the least bottleneck micro-batch time (ns, integer tables) of tuple ti over every
    split, folding and recompute that fits memory, and a split that reaches it."""
    tu = tab.tuples[ti]
    if rows is None:
        rows = np.arange(tab.rows[ti].start, tab.rows[ti].stop)
    rows = np.asarray(rows)
    if len(rows) == 0:
        return DPResult(np.inf)
    is_moe = problem.model.moe_layers()
    L, P, V, M = len(is_moe), tu.pp, tu.vpp, tu.num_microbatches
    allowed = set(problem.train.recompute)
    full_ok, none_ok = "full" in allowed, "none" in allowed
    budget = int(problem.cluster.memory_budget_gib * GiB)
    mods = searchable_modules(problem, tab, list(rows))
    sets = _module_sets(problem, mods)

    pm = np.concatenate([[0], np.cumsum(np.array(is_moe, int))])
    per = {name: _parts(tab, terms, rows) for name, terms in
           (("mem", PERSISTENT), ("act", ("act_mb",)), ("busy", BUSY), ("shard", ("shard_mb",)),
            ("opt", ("opt_step",)))}

    def sel(part_kind, names, S, d):
        return sum((d[f"r_{part_kind}_{k}"] for k in S if k in names), np.zeros(len(rows), np.int64))

    def coefs(d):
        """Per (set, fold): the stage extras and the cost of a dense / MoE layer kept
        (its modules recomputed) or fully recomputed."""
        sd = np.stack([sel("d", DENSE_MODULES, S, d) for S in sets])
        sm = np.stack([sel("m", MOE_MODULES, S, d) for S in sets])
        shape = (len(sets), len(rows))
        out = {q: np.broadcast_to(d[q], shape) for q in ("const", "e_f", "e_l", "h_m")}
        out["L_d"], out["L_m"] = d["L_d"] + sd, d["L_m"] + sm
        out["F_d"] = np.broadcast_to(d["L_d"] + d["Lf_d"], shape)
        out["F_m"] = np.broadcast_to(d["L_m"] + d["Lf_m"], shape)
        return out

    C = {k: coefs(d) for k, d in per.items()}
    cost = np.full((P, L + 1, L + 1), np.inf)
    choice = np.zeros((P, L + 1, L + 1, 3), np.int64)       # per stage and interval: set, row, r
    ocost = np.full((P, L + 1, L + 1), np.inf)             # least optimizer step, memory aside
    kept = []                                              # per stage: (t, o, r, inverse) to re-read
    for i in range(P):
        first, last = int(i == 0), int(i == P - 1)
        k = int(chunks(P, V, M, i))
        # the intervals stage i can hold (every stage keeps at least V layers)
        los = np.arange(V * i, L - V * (P - i) + 1) if i else np.array([0])
        lo_, hi_ = [a.ravel() for a in np.meshgrid(los, np.arange(L + 1), indexing="ij")]
        ok = (hi_ - lo_ >= V) & (hi_ <= L - V * (P - 1 - i)) & ((hi_ == L) if i == P - 1 else True)
        lo_, hi_ = lo_[ok], hi_[ok]
        if len(lo_) == 0:
            continue
        nm_all = pm[hi_] - pm[lo_]
        code = (hi_ - lo_ - nm_all) * (L + 1) + nm_all
        codes, inv = np.unique(code, return_inverse=True)
        nd = (codes // (L + 1))[:, None, None]                       # (pair, set, fold)
        nm = (codes % (L + 1))[:, None, None]
        n, h = nd + nm, (nm > 0).astype(np.int64)
        # per stage, the extras are constants and the memory one affine form (integers, exact)
        g = {}
        for name in ("mem", "busy", "shard", "opt"):
            c = C[name]
            if name == "mem":
                c = {q: V * c[q] + k * C["act"][q] for q in c}
            base = c["const"] + first * c["e_f"] + last * c["e_l"]
            g[name] = dict(base=base, **{q: c[q] for q in ("h_m", "L_d", "L_m", "F_d", "F_m")})

        def value(name, r):
            c = g[name]
            fm = np.minimum(r, nm)
            fd = r - fm
            return (c["base"] + h * c["h_m"] + (nd - fd) * c["L_d"] + fd * c["F_d"] + (nm - fm) * c["L_m"]
                    + fm * c["F_m"])

        cap = budget * V
        zero = np.zeros((len(codes), len(sets), len(rows)), np.int64)
        if full_ok:
            # r fully recomputed layers: MoE ones first (piece A, r <= nm), then dense (piece B)
            sA = g["mem"]["F_m"] - g["mem"]["L_m"]
            sB = g["mem"]["F_d"] - g["mem"]["L_d"]
            m0, m_nm = value("mem", zero), value("mem", nm + zero)

            def boundary(a, b, ma, s):
                """The end of the piece's feasible integer interval set by the budget."""
                with np.errstate(divide="ignore"):
                    up = -((ma - cap) // np.where(s < 0, s, -1))          # ceil((ma-cap)/-s): first r that fits
                    dn = (cap - ma) // np.where(s > 0, s, 1)              # floor((cap-ma)/s): last r that fits
                r = np.where(s < 0, a + up, np.where(s > 0, a + dn, a))
                return np.clip(r, a, b)

            rA = boundary(zero, nm + zero, m0, sA)
            rB = boundary(nm + zero, n + zero, m_nm, sB)
            tA = g["busy"]["F_m"] - g["busy"]["L_m"]
            tB = g["busy"]["F_d"] - g["busy"]["L_d"]
            uA = g["shard"]["F_m"] - g["shard"]["L_m"]
            uB = g["shard"]["F_d"] - g["shard"]["L_d"]
            if all((x <= 0).all() for x in (sA, sB)) and all((x >= 0).all() for x in (tA, tB, uA, uB)):
                # memory falls and time grows with r: the least r that fits is the best
                r = np.where(m0 <= cap, zero, np.where(m_nm <= cap, rA, rB))[..., None]
            else:
                r = np.stack([zero, nm + zero, n + zero, rA, rB], axis=-1)
        else:
            r = zero[..., None]
        nd, nm, n, h = nd[..., None], nm[..., None], n[..., None], h[..., None]
        g = {name: {q: a[..., None] for q, a in c.items()} for name, c in g.items()}
        set_has = np.array([len(S) > 0 for S in sets])[None, :, None, None]
        if not none_ok:                                     # no module: every layer fully recomputed
            r = np.where(set_has, r, n)
        fits = value("mem", r) <= cap
        if not none_ok and not full_ok:
            fits &= set_has
        t = np.maximum(value("busy", r), value("shard", r)).astype(float)
        t = np.where(fits, t, np.inf)
        r = np.broadcast_to(r, t.shape)
        o = value("opt", r).astype(float)
        ends = [x for x in ((0 * n, nm, n) if full_ok else (0 * n,))]
        o_free = np.min([np.where(set_has | none_ok | (e == n), value("opt", e), np.inf) for e in ends], axis=0)
        ocost[i][lo_, hi_] = o_free.reshape(len(codes), -1).min(1)[inv.ravel()]
        kept.append((t, o, r, inv.ravel(), lo_, hi_))
        flat = t.reshape(len(codes), -1)
        cost[i][lo_, hi_] = flat.min(1)[inv.ravel()]
    t_star = _minmax(cost)[0]
    o_star = _minmax(ocost)[0]
    if not np.isfinite(t_star):
        return DPResult(np.inf, o_star)
    # a split reaching T* that also keeps the slowest optimizer step least (the hint)
    ocost2 = np.full((P, L + 1, L + 1), np.inf)
    for i, (t, o, r, inv, lo_, hi_) in enumerate(kept):
        oo = np.where(t <= t_star, o, np.inf)
        flat = oo.reshape(oo.shape[0], -1)
        arg = flat.argmin(1)
        s_i, f_i, c_i = np.unravel_index(arg, oo.shape[1:])
        pick = np.arange(len(arg))
        ocost2[i][lo_, hi_] = flat[pick, arg][inv]
        choice[i][lo_, hi_] = np.stack([s_i, f_i, r[pick, s_i, f_i, c_i]], 1)[inv]
    _, bnd = _minmax(ocost2)
    if bnd is None:
        return DPResult(t_star, o_star)
    stages = []
    for i in range(P):
        s_i, f_i, r_i = choice[i][bnd[i], bnd[i + 1]]
        stages.append((int(rows[f_i]), sets[s_i], int(r_i)))
    return DPResult(t_star, o_star, bnd, stages)


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

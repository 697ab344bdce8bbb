"""The outer search space: every legal degree tuple, and its per-row cost coefficients.

A `Degrees` value fixes (tp, cp, dp, pp, vpp, CP kind and split, rank order, micro-batch,
sharding); the expert folding (etp, ep, edp) is chosen per stage by the inner model,
from the *folds* of the tuple: every factoring of tp*cp*dp that the rule table allows.
Legality is `planner.layout`'s rule table, applied while enumerating as soon as the
fields each rule reads are fixed.

`tables(problem, tuples)` evaluates the compiled coefficients of the per-stage sums
(`planner.costmodel.coefficients`) once, vectorised, over every (tuple, fold) row: the
CP-SAT stage model and the search bounds read these; the brute-force reference does not.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import isqrt

from typing import Optional

import numpy as np

from planner import costmodel as cm
from planner.costmodel.names import DENSE_MODULES, MEMORY_TERMS, MOE_MODULES
from planner.engines import EngineConstraints, constraints
from planner.layout import ORDERS, SHARDINGS, dense_strides
from planner.specs.kinds import MASTERS, cp_kind_of
from planner.layout.grid import locality
from planner.specs import Problem
from planner.solve.tables import PerTuple, Tables  # noqa: F401  (re-exported)

NS = 1e9          # seconds -> integer nanoseconds


def divisors(n: int) -> list[int]:
    small = [k for k in range(1, isqrt(n) + 1) if n % k == 0]
    return sorted(set(small + [n // k for k in small]))


@dataclass(frozen=True)
class Space:
    """Every degree tuple a search enumerated, its expert foldings and whether it passed the memory
    bound: references to what the search built anyway (the HTML report realises a sample of them)."""
    tuples: list                 # Degrees
    folds: list                  # per tuple, its (etp, ep, edp) foldings
    fits: "np.ndarray"           # per tuple: its layers fit the budget under the most recompute allowed


@dataclass(frozen=True)
class Degrees:
    """One point of the outer search (the per-stage split, folding and recompute are the
    inner model's)."""
    tp: int
    cp: int
    dp: int
    pp: int
    vpp: int
    cp_kind: str
    cp_ulysses: int
    cp_ring: int
    order: str
    micro_batch: int
    num_microbatches: int
    sharding: str = "zero1"

    @property
    def stage_ranks(self) -> int:
        return self.tp * self.cp * self.dp

    def strides(self) -> dict[str, int]:
        return dense_strides(self.order, {"tp": self.tp, "cp": self.cp, "dp": self.dp})


@lru_cache(maxsize=None)
def _orders(tp: int, cp: int, dp: int, cu: int, per_domain: int, pp: int = 1) -> list[str]:
    """Rank orders that differ in what the cost model prices: it reads an order only through
    the locality vector (planner.layout.grid.locality, over all `pp` stages: a folding at its
    worst stage), so orders with the same vector cost the same: keep the first of each."""
    orders = list(ORDERS)
    st = [dense_strides(o, {"tp": tp, "cp": cp, "dp": dp}) for o in orders]
    n = len(orders)
    # one vectorised call over all six orders (the expert view does not depend on the order:
    # any folding gives the same answer for every order)
    x = dict(tp=tp, cp=cp, dp=dp, pp=pp, cu=cu, cr=cp // cu, etp=1, ep=1, edp=tp * cp * dp,
             **{f"s_{a}": np.array([s[a] for s in st], float) for a in ("tp", "cp", "dp")})
    loc = locality({k: np.broadcast_to(np.asarray(v, float), (n,)).copy() for k, v in x.items()}, per_domain)
    seen, out = set(), []
    for j, order in enumerate(orders):
        key = tuple(float(loc[k][j]) for k in sorted(loc))
        if key not in seen:
            seen.add(key)
            out.append(order)
    return out


def folds(problem: Problem, stage_ranks: int, engine: Optional[EngineConstraints] = None) -> list[tuple[int, int, int]]:
    """(etp, ep, edp) with etp*ep*edp == stage_ranks that the rules allow (and etp within
    a node: expert TP across nodes is never searched)."""
    bad = (engine or constraints(problem.train.target)).degree_violations
    if not problem.model.is_moe:
        return [(1, 1, stage_ranks)]
    gpn = problem.cluster.domain_used
    out = []
    for etp in divisors(stage_ranks):
        if etp > gpn or bad(problem, "fold", etp=etp):
            continue
        for ep in divisors(stage_ranks // etp):
            if not bad(problem, "fold", ep=ep):
                out.append((etp, ep, stage_ranks // (etp * ep)))
    return out


def _cp_kinds(problem: Problem, tp: int, cp: int, engine: EngineConstraints) -> list[tuple[str, int, int]]:
    if cp == 1:
        return [("ring", 1, 1)]
    splits = [(1, cp), (cp, 1)] + [(u, cp // u) for u in divisors(cp) if 1 < u < cp]    # ring, ulysses, hybrids
    return [(cp_kind_of(u, r), u, r) for u, r in splits
            if not engine.degree_violations(problem, tp=tp, cp=cp, cp_ulysses=u, cp_ring=r)]


def enumerate_tuples(problem: Problem, fixed: Optional[dict] = None,
                     engine: Optional[EngineConstraints] = None) -> list[Degrees]:
    """Every legal tuple: degrees whose every rule in planner.layout's table, and in the target
    engine's (`engine`, planner.engines.constraints; default the problem's target's), holds (and, with
    `fixed`, whose fields given there take those values: the same tuples, in the same order,
    as filtering the whole list afterwards, without making the others)."""
    mo, tr = problem.model, problem.train
    n, gpn = problem.cluster.gpus, problem.cluster.domain_used       # tensor parallel within an NVLink domain
    gb = tr.global_batch
    engine = engine or constraints(problem.train.target)
    bad = lambda **kw: engine.degree_violations(problem, **kw)
    fixed = fixed or {}
    ok = lambda **kw: all(fixed.get(k, v) == v for k, v in kw.items())
    out = []
    for tp in divisors(n):
        if tp > gpn or not ok(tp=tp) or bad(tp=tp):
            continue
        for pp in divisors(n // tp):
            if not ok(pp=pp) or bad(pp=pp, vpp=1):
                continue
            for cp in divisors(n // (tp * pp)):
                dp = n // (tp * pp * cp)
                if not ok(cp=cp, dp=dp) or gb % dp or bad(world=n, tp=tp, cp=cp, dp=dp, pp=pp):
                    continue
                kinds = [kd for kd in _cp_kinds(problem, tp, cp, engine) if ok(cp_kind=kd[0], cp_ulysses=kd[1], cp_ring=kd[2])]
                shardings = tr.allowed_shardings if dp * cp > 1 or mo.is_moe else tr.allowed_shardings[:1]
                shardings = [sh for sh in shardings if ok(sharding=sh) and not bad(tp=tp, cp=cp, sharding=sh)]
                for mb in tr.micro_batches:
                    if (gb // dp) % mb or not ok(micro_batch=mb):
                        continue
                    m = gb // (dp * mb)
                    for vpp in range(1, tr.max_vpp + 1):
                        if not ok(vpp=vpp) or vpp > 1 and bad(pp=pp, vpp=vpp, num_microbatches=m):
                            continue
                        for kind, cu, cr in kinds:
                            for order in _orders(tp, cp, dp, cu, gpn, pp):
                                if not ok(order=order):
                                    continue
                                for sh in shardings:
                                    out.append(Degrees(tp, cp, dp, pp, vpp, kind, cu, cr, order, mb, m, sh))
    return out


@lru_cache(maxsize=None)
def _strides(order: str, tp: int, cp: int, dp: int) -> tuple[int, int, int]:
    st = dense_strides(order, {"tp": tp, "cp": cp, "dp": dp})
    return st["tp"], st["cp"], st["dp"]


_ROW_NAMES = ("tp", "cp", "dp", "pp", "vpp", "cu", "cr", "micro_batch", "num_microbatches", "s_tp", "s_cp", "s_dp",
              "sharding")


class _RowInputs:
    """The layout inputs of the table rows (a tuple's degrees and a folding), made for a
    run of tuples at a time: one float array per input over 10^6 rows would cost ~16 MB each."""

    def __init__(self, tuples: list[Degrees], master: float):
        self.per = np.array([(d.tp, d.cp, d.dp, d.pp, d.vpp, d.cp_ulysses, d.cp_ring, d.micro_batch,
                              d.num_microbatches, *_strides(d.order, d.tp, d.cp, d.dp), SHARDINGS.index(d.sharding))
                             for d in tuples], float).reshape(-1, len(_ROW_NAMES))
        self.master = master

    def grid(self, lo: int, hi: int, fold_list) -> dict[str, np.ndarray]:
        """The inputs of tuples lo..hi-1, which share `fold_list`: each tuple's degrees a
        column (tuple, 1), each folding's a row (1, fold), so the cost model evaluates a
        part that reads only one of the two once per tuple or once per folding."""
        x = {k: self.per[lo:hi, i][:, None] for i, k in enumerate(_ROW_NAMES)}
        fr = np.array(fold_list, float).reshape(-1, 3)
        x.update(etp=fr[None, :, 0], ep=fr[None, :, 1], edp=fr[None, :, 2], master=np.float64(self.master))
        return x


def tables(problem: Problem, tuples: list[Degrees], fold_filter=None,
           engine: Optional[EngineConstraints] = None) -> Tables:
    cache: dict = {}
    same: dict = {}                          # one list object per distinct filtered fold list
    by_ranks: dict = {}                      # the rules' foldings of each stage size, once
    fold_lists, rows, start = [], [], 0
    # a filter may say which of the tuple's fields it reads (`tuple_key`): its fold list is
    # then made once per value of those, not once per tuple
    reads = getattr(fold_filter, "tuple_key", lambda tu: tu)
    for tu in tuples:
        key = (tu.stage_ranks, reads(tu)) if fold_filter is not None else tu.stage_ranks
        if key not in cache:
            if tu.stage_ranks not in by_ranks:
                by_ranks[tu.stage_ranks] = folds(problem, tu.stage_ranks, engine)
            got = [f for f in by_ranks[tu.stage_ranks] if fold_filter is None or fold_filter(tu, f)]
            cache[key] = same.setdefault(tuple(got), got)
        fold_lists.append(cache[key])
        rows.append(slice(start, start + len(cache[key])))
        start += len(cache[key])
    lens = np.array([r.stop - r.start for r in rows], np.int64)
    x = _RowInputs(tuples, float(MASTERS.index(problem.train.master)))
    base = cm.model_values(problem)
    coef: dict = {}
    # Runs of consecutive tuples that share a fold list (their rows are contiguous, tuple
    # by tuple), evaluated as a (tuple, folding) grid in chunks of about CHUNK rows, so
    # the generated code's temporaries stay small at 10^6 rows. A part that reads only the
    # tuple (or only the folding) comes back one column (or row) of the grid, and is
    # rounded there; a part that is one number for every row is stored as a broadcast view.
    lo = 0
    while lo < len(tuples):
        end = lo + 1
        while end < len(tuples) and fold_lists[end] is fold_lists[lo]:
            end += 1
        F = len(fold_lists[lo])
        step = max(1, CHUNK // max(F, 1))
        for a in range(lo, end, step) if F else ():
            b = min(end, a + step)
            r0, r1 = rows[a].start, rows[b - 1].stop
            raw = cm.coefficients({**base, **cm.layout_values(problem, x.grid(a, b, fold_lists[lo]))})
            for t, parts in raw.items():
                scale = 1.0 if t in MEMORY_TERMS else NS
                dest = coef.setdefault(t, {})
                for q, arr in parts.items():
                    if q not in dest:
                        dest[q] = _Column(lens)
                    g = np.broadcast_to(np.asarray(arr, float), (b - a, F))
                    if not any(g.strides):
                        dest[q].put_const(a, b, r0, r1, int(np.ceil(float(g.flat[0]) * scale)))
                    else:
                        small = g[:, :1] if g.strides[1] == 0 else (g[:1, :] if g.strides[0] == 0 else g)
                        dest[q].put(a, b, r0, r1, _to_int(small * scale, t), (b - a, F))
        lo = end
    if not coef:                             # no row at all (a filter left no folding): empty columns
        raw = cm.coefficients({**base, **cm.layout_values(problem, x.grid(0, min(1, len(tuples)), []))})
        coef = {t: {q: _Column(lens) for q in parts} for t, parts in raw.items()}
    return Tables(tuples, fold_lists, rows, {t: {q: c.array() for q, c in parts.items()} for t, parts in coef.items()})


CHUNK = 1 << 16


class _Column:
    """One coefficient, filled chunk by chunk: a broadcast view while every chunk so far
    held one and the same number (most parts are 0 for most models), one number per tuple
    (PerTuple) while every chunk held one per tuple, else one per row."""

    def __init__(self, lens: np.ndarray):
        self.lens, self.n = lens, int(lens.sum())
        self.const, self.per, self.data = None, None, None

    def put(self, a: int, b: int, lo: int, hi: int, val: np.ndarray, grid: tuple[int, int]) -> None:
        """Tuples a..b-1 (rows lo..hi-1), a (tuple, folding) grid of shape `grid` in row
        order, from `val` (any shape that broadcasts to it)."""
        if val.size == 0 or val.min() == val.max():
            self.put_const(a, b, lo, hi, int(val.flat[0]) if val.size else 0)
            return
        if self.data is None and (val.shape[1] == 1 or grid[1] == 1):      # one number per tuple
            self._tuples(a)[a:b] = val.reshape(-1)
            return
        self._rows(a, lo)
        self.data[lo:hi].reshape(grid)[...] = val

    def put_const(self, a: int, b: int, lo: int, hi: int, v: int) -> None:
        if self.data is None and self.per is None and (self.const is None or self.const == v):
            self.const = v
        elif self.data is None:
            self._tuples(a)[a:b] = v
        else:
            self.data[lo:hi] = v

    def _tuples(self, a: int) -> np.ndarray:
        # the tuples before `a` held the one number so far
        if self.per is None:
            self.per = np.zeros(len(self.lens), np.int64)
            self.per[:a] = self.const or 0
        return self.per

    def _rows(self, a: int, lo: int) -> None:
        # the rows before `lo` (the tuples before `a`) held the one number, or one per tuple
        if self.data is None:
            self.data = np.empty(self.n, np.int64)
            self.data[:lo] = np.repeat(self.per[:a], self.lens[:a]) if self.per is not None else (self.const or 0)
            self.per = None

    def array(self) -> "np.ndarray | PerTuple":
        if self.data is not None:
            return self.data
        if self.per is not None:
            return self.per if len(self.per) == self.n and (self.lens == 1).all() else PerTuple(self.per)
        return np.broadcast_to(np.int64(self.const or 0), (self.n,))


def _to_int(a: np.ndarray, term: str) -> np.ndarray:
    # every coefficient rounds up: a cost (bytes, ns) is never understated, and a saving
    # (a negative coefficient) rounds toward zero, so it is never overstated
    if isinstance(a, np.ndarray) and a.ndim:
        return np.ceil(a, out=a).astype(np.int64)          # (a is the caller's temporary)
    return np.ceil(a).astype(np.int64)


def undominated(tab: Tables, ti: int) -> list[int]:
    """Rows of tuple ti whose fold no other fold of the tuple beats or ties on every
    coefficient (with a compute window no smaller): the stage model never needs the others."""
    sl = tab.rows[ti]
    cols = [tab.col(term, q, sl) for term, parts in tab.coef.items() for q in parts]
    window = cm.step.STAGE_TIME["window"]                     # the step rule's compute window
    cols += [-sum(c * tab.col(t, q, sl) for t, c in window.items()) for q in tab.coef[next(iter(window))]]
    block = np.stack(cols, axis=1)
    le = (block[:, None, :] <= block[None, :, :]).all(-1)        # le[g, f]: g <= f everywhere
    lt = (block[:, None, :] < block[None, :, :]).any(-1)
    n = len(block)
    earlier = np.arange(n)[:, None] < np.arange(n)[None, :]
    dominated = ((le & lt) | (le & earlier)).any(0)
    return [sl.start + i for i in range(n) if not dominated[i]]


def searchable_modules(problem: Problem, tab: Tables, rows=None, memory_only: bool = False) -> tuple[str, ...]:
    """Recompute modules the search chooses among for a tuple: those `train.recompute_modules`
    allows that the model has and that free memory in these rows, or that add compute
    where a gradient reduction can be exposed (the extra work widens the window it hides
    behind: measured, brute force 0.08% faster on a dp=4, 2-GPU-node problem). `moe` (the
    whole MoE block) is left to full recompute: what it frees depends on the expert
    folding, which the stage model does not multiply. `memory_only`: the first kind only
    (what a least-bottleneck bound needs: a module that frees nothing only adds time).
    `rows`: a list, array or slice of table rows; None for every row."""
    if "selective" not in problem.train.recompute:
        return ()
    is_moe = problem.model.moe_layers()
    kinds = [("d", DENSE_MODULES)] * (not all(is_moe)) + [("m", MOE_MODULES)] * any(is_moe)
    pick = lambda t, q: tab.values(t, q, rows)
    time = cm.step.STAGE_TIME                                  # the step rule's pieces of a stage's time
    reduces = not memory_only and any(_any_nonzero(pick(t, q)) for t in time["reduction"] for q in tab.coef[t])
    widens = lambda part: any(_any_nonzero(pick(t, part)) for t in time["window"])
    out = []
    for k in problem.train.recompute_modules:
        if k == "moe":
            continue
        if any(k in mods and (_any_negative(pick("act_mb", f"r_{x}_{k}")) or (reduces and widens(f"r_{x}_{k}")))
               for x, mods in kinds):
            out.append(k)
    return tuple(out)


def _any_nonzero(a: np.ndarray) -> bool:
    if a.size and a.strides and a.strides[0] == 0:
        return bool(a.flat[0] != 0)
    return bool(a.any())


def _any_negative(a: np.ndarray) -> bool:
    # a broadcast view (one number for every row) is read once
    if a.size and a.strides and a.strides[0] == 0:
        return bool(a.flat[0] < 0)
    return bool((a < 0).any())

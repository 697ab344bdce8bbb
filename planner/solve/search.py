"""Outer search: enumerate every legal tuple, bound each one vectorised, visit them best
bound first, solve the survivors' stage models with CP-SAT, stop when no remaining bound
can beat the K-th best plan found.

The bounds (planner/solve/bounds.py) are valid for every choice the inner model can make, so
a tuple is skipped only when it cannot beat the K-th plan: OPTIMAL means proven.
"""
from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from planner import costmodel as cm
from planner.costmodel import step
from planner.engines import EngineConstraints, constraints
from planner.safeio import validate
from planner.layout import Layout, check
from planner.specs import Problem
from planner.solve.bounds import bounds, lagrangian
from planner.solve.dpbound import floor_ns as _floor_ns, floors, int_floors as _int_floors, least_bottleneck, \
    uniform_bottleneck, window_floors
from planner.solve.exposure import joint_floors, with_joint
from planner.solve.space import PerTuple, Space, Tables, enumerate_tuples, tables, undominated
from planner.solve.nofit import min_memory
from planner.solve.stage_model import solve_stages
import planner.solve.tiebreak as tiebreak


@dataclass
class Candidate:
    layout: Layout
    estimate: cm.Estimate
    objective_ns: float          # step time in ns as the stage model sees it (integer tables)
    status: str


@dataclass
class SearchResult:
    plans: list[Candidate]
    status: str                  # OPTIMAL (proved) | FEASIBLE (time limit) | INFEASIBLE
    wall_s: float
    tuples: int
    pruned: int
    cpsat_calls: int
    bound_pruned: int            # pruned by the memory bound
    evaluated: list = field(default_factory=list)       # the layout the stage model chose for each solved tuple
    min_memory: Optional[dict] = None                                  # when nothing fits
    space: Optional[Space] = None        # every tuple enumerated (planner.solve.space.Space)
    fastest_ns: Optional[float] = None   # the least step (ns) of any plan; plans[0] is the tie-break's (tiebreak.py)


TUPLE_FIELDS = ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "order", "micro_batch", "sharding")
FOLD_FIELDS = ("etp", "ep", "edp")


def _require_overlap(problem: Problem) -> None:
    """The stage model hides each stage's gradient reduction behind its last micro-batch."""
    if not problem.train.overlap_grad_reduce:
        raise ValueError("train.overlap_grad_reduce: the search plans with the gradient reduction overlapped "
                         "(Megatron --overlap-grad-reduce, which foldplan's export sets); set it true")


def search_plans(problem: Problem, *, top: int = 5, time_limit: float = 60.0,
           progress: Optional[Callable[[str], None]] = None, fixed: Optional[dict] = None,
           fold_filter: Optional[Callable] = None, engine: Optional[EngineConstraints] = None,
           settle: bool = True) -> SearchResult:
    """The best `top` plans. `fixed` pins any of TUPLE_FIELDS and FOLD_FIELDS (the audit
    and `explain --layout` use it to complete a partial layout with its best split); `engine`:
    what the target constrains (planner.engines; default the problem's target's); `fold_filter(tuple,
    (etp, ep, edp))` restricts the expert foldings (default: the engine's); `settle`: plans[0] is tiebreak.py's."""
    t0, engine = time.perf_counter(), engine or constraints(problem.train.target)
    fixed = {_ALIASES.get(k, k): v for k, v in (fixed or {}).items()}
    _require_overlap(problem)
    tuples = enumerate_tuples(problem, {k: fixed[k] for k in TUPLE_FIELDS if k in fixed}, engine)
    if not tuples:
        return SearchResult([], "INFEASIBLE", time.perf_counter() - t0, 0, 0, 0, 0,
                            min_memory={"reason": "no legal degree tuple"})
    want = {k: fixed[k] for k in FOLD_FIELDS if k in fixed}
    fold_filter = fold_filter if fold_filter is not None else engine.fold_filter(problem)
    tab = tables(problem, tuples, fold_filter=_fold_keep(want, fold_filter), engine=engine)
    parts, budget = {}, problem.cluster.memory_budget_gib * cm.GiB
    t_lb, m_lb = bounds(problem, tab, parts)
    feasible = m_lb <= budget                      # (and, checked per tuple on its first visit: no int64 overflow)
    # visit best bound first: the fresh tuples in fluid-bound order, the others as `_Line` keeps them
    order = sorted(np.flatnonzero(feasible), key=lambda i: (t_lb[i], _key(tuples[i])))
    line = _Line(problem, tab, parts, t_lb, engine.uniform_fold)
    st = _walk(problem, tab, line, order, t_lb, top, time_limit, progress, engine, tiebreak.Pool(problem, settle))
    best = tiebreak.apply(problem, tab, st, top, time_limit, engine, Candidate) if settle else st.best
    wall = time.perf_counter() - t0
    pruned, bound_pruned = len(tuples) - len(st.seen), int((~feasible).sum()) + st.unsafe
    space = Space(tab.tuples, tab.folds, feasible)
    if not best:
        return SearchResult([], "INFEASIBLE" if st.status == "OPTIMAL" else st.status, wall, len(tuples), pruned,
                            st.calls, bound_pruned, st.evaluated, min_memory=min_memory(problem, tab, m_lb),
                            space=space)
    for cand in best:                       # the float model's full estimate, top K only
        check(cand.layout, problem, engine.plan_rules)
        cand.estimate = cm.evaluate(problem, cand.layout)
    wall = time.perf_counter() - t0
    return SearchResult(best, st.status, wall, len(tuples), pruned, st.calls, bound_pruned, st.evaluated, None,
                        space, st.best[0].objective_ns)


@dataclass
class _Walk:
    """Where a search stands: the best plans so far (at most `top`, best first) and its counts."""
    best: list = field(default_factory=list)
    calls: int = 0                     # CP-SAT calls
    status: str = "OPTIMAL"
    evaluated: list = field(default_factory=list)
    seen: set = field(default_factory=set)   # the tuples handed to CP-SAT (one may be solved again)
    spent: float = 0.0                 # work budget used: CP-SAT deterministic time + nominal costs, not wall time
    unsafe: int = 0                    # tuples whose CP-SAT model could overflow int64
    nxt: int = 0                       # next fresh tuple (index into the bound order)
    pool: Optional[tiebreak.Pool] = None     # every plan solved, and how far past the fastest to walk


def _walk(problem: Problem, tab: Tables, line: "_Line", order: list, t_lb: np.ndarray, top: int,
          time_limit: float, progress, engine: EngineConstraints, pool: Optional[tiebreak.Pool] = None) -> _Walk:
    """Visit the tuples best bound first until none can beat `Pool.cutoff` or the work budget is spent."""
    st = _Walk(pool=pool or tiebreak.Pool(problem, False))
    per_call = max(1.0, time_limit / 20)          # one hard tuple may not eat the whole budget
    tuples = tab.tuples
    while True:
        kth = st.pool.cutoff(st.best, top)
        fresh = order[st.nxt] if st.nxt < len(order) else None
        fresh_key = (t_lb[fresh], _key(tuples[fresh])) if fresh is not None else None
        take_fresh = fresh is not None and (not line.heap or fresh_key < line.heap[0][:2])
        if take_fresh and t_lb[fresh] >= kth:
            st.nxt, take_fresh = len(order), False     # the order is sorted: no fresh tuple can beat it
        if not take_fresh and (not line.heap or line.heap[0][0] >= kth):
            break                                  # nothing left can beat the K-th plan
        remaining = time_limit - st.spent              # which plan comes back never depends on the clock
        if remaining <= 0:
            st.status = "FEASIBLE"
            break
        if take_fresh:
            # the next block of fresh tuples (bound order)
            block, size = [], line.block_size("fresh")
            while st.nxt < len(order) and len(block) < size and t_lb[order[st.nxt]] < kth:
                block.append(int(order[st.nxt]))
                st.nxt += 1
            safe = _solver_safe(problem, tab, block)
            st.unsafe += int((~safe).sum())
            line.fresh([ti for ti, ok in zip(block, safe) if ok], kth)
            continue
        got = line.visit(kth)
        if got is None:
            continue
        st.spent += DP_S * got[0]
        if got[1] is not None:
            if progress and st.calls % 25 == 0:
                progress(f"tuple {st.nxt}/{len(order)} (bound-ordered), {st.calls} CP-SAT calls, "
                         f"{len(st.best)} plans")
            _solve_one(problem, tab, st, got[1], top, min(remaining, per_call), engine)
    return st


def _solve_one(problem: Problem, tab: Tables, st: _Walk, item, top: int, limit: float,
               engine: EngineConstraints) -> None:
    """CP-SAT on one tuple (its floors, DP hint and rows from the line); a plan that beats
    the K-th joins the best."""
    ti, lb, fl, dp, rows = item
    st.seen.add(ti)
    cutoff = st.pool.cutoff(st.best, top, finite=True)
    sol = solve_stages(problem, tab, ti, time_limit=max(0.05, limit), cutoff_ns=cutoff, rows=rows, hint=dp,
                       lower_ns=lb, floors=fl, engine=engine)
    st.calls += 1
    st.spent += CALL_S + sol.det_s                 # work, counted the same on every machine
    if sol.layout is None:
        if sol.status == "UNKNOWN":
            st.status = "FEASIBLE"
        return
    if sol.status != "OPTIMAL":
        st.status = "FEASIBLE"
    st.evaluated.append(sol.layout)
    st.best.append(Candidate(sol.layout, None, sol.objective / sol.layout.vpp, sol.status))
    st.pool.add(tab, ti, rows, st.best[-1])
    st.best.sort(key=lambda c: (c.objective_ns, _key_layout(c.layout)))
    del st.best[top:]


def _fold_keep(want: dict, fold_filter: Optional[Callable]) -> Optional[Callable]:
    """The foldings a search keeps: those matching the pinned FOLD_FIELDS that `fold_filter`
    allows (None: all). It reads the tuple fields the filter names (`tuple_key`), or all."""
    if not want and fold_filter is None:
        return None

    def keep(tu, f):
        return (all(f[FOLD_FIELDS.index(k)] == v for k, v in want.items())
                and (fold_filter is None or fold_filter(tu, f)))
    if fold_filter is None or hasattr(fold_filter, "tuple_key"):      # `want` reads no tuple field
        keep.tuple_key = getattr(fold_filter, "tuple_key", lambda tu: ())
    return keep


class _Line:
    """The tuples waiting for their next visit, best bound first (ties broken by the tuple's
    fields, for determinism). Each visit refines a tuple's bound and puts it back in line
    under the new one: first the Lagrangian floor (planner/solve/bounds.py, blocks of fresh
    tuples), then the window floor and the relaxed DP over its stage boundaries, then the
    joint floor of bottleneck and exposed reduction (planner/solve/exposure.py; batches of
    the tuples next in line, each), then the exact DP (planner/solve/dpbound.py); the visit
    after those hands it to CP-SAT. Under an engine's target (one folding for every stage)
    each folding of a tuple goes on alone after the joint floor, under its own exact least
    bottleneck."""

    def __init__(self, problem: Problem, tab: Tables, parts: dict, t_lb: np.ndarray, uniform: bool):
        self.problem, self.tab, self.parts, self.t_lb = problem, tab, parts, t_lb
        self.heap: list = []                       # (bound, key, (tuple index, row or -1))
        self.state: dict = {}                      # item -> (visits so far, bound, floors[, DP result, rows])
        self.uniform = uniform                     # the engine runs one folding for every stage
        self.blocks = {"fresh": -1, "window": -1, "relaxed": -1, "joint": -1}

    def block_size(self, kind: str) -> int:
        """The next block of this kind: FIRST_BLOCK, then twice the last, up to BLOCK."""
        self.blocks[kind] = min(self.blocks[kind] + 1, 8)
        return min(BLOCK, FIRST_BLOCK << self.blocks[kind])

    def _push(self, ti: int, row: int, visits: int, lb: float, fl: dict, *solved) -> None:
        heapq.heappush(self.heap, (lb, _key(self.tab.tuples[ti]), (ti, row)))
        self.state[ti, row] = (visits, lb, fl, *solved)

    def fresh(self, block: list[int], kth: float) -> None:
        """First visit: the Lagrangian floors of a block of fresh tuples."""
        parts = self.parts
        for ti, lg in zip(block, lagrangian(self.problem, self.tab, block)):
            fl = _int_floors(max(lg, parts["t_lb"][ti]), parts["d_lb"][ti], parts["o_lb"][ti])
            lb = max(self.t_lb[ti], _floor_ns(self.tab.tuples[ti], fl))
            if lb < kth:
                self._push(ti, -1, 0, lb, fl)

    def visit(self, kth: float):
        """The next visit of the item in front: (relaxed-DP tuples refined, None), or (0,
        (tuple, bound, floors, DP result, rows)) when it is CP-SAT's turn; None when it can
        no longer beat `kth`."""
        _, _, item = heapq.heappop(self.heap)
        visits, lb, fl, *solved = self.state.pop(item)
        if lb >= kth:
            return None
        if visits == 0:
            return self._window(item[0], lb, fl, kth), None
        if visits == 1:
            return self._relaxed(item[0], lb, fl, kth), None
        if visits == 2:
            return self._joint(item[0], lb, fl, kth), None
        if visits == 3 and item[1] < 0 and self.uniform:
            self._split_folds(item[0], lb, fl, kth)
            return 0, None
        if visits == 3:
            self._exact(item, lb, fl, kth)
            return 0, None
        return 0, (item[0], lb, fl, *solved)

    def _batch(self, ti: int, lb: float, fl: dict, kth: float, visits: int, kind: str):
        """This tuple and those next in line that wait for the same visit (within BATCH_SLACK
        of its bound): their indices and states."""
        block, got, skipped = [ti], {ti: (visits, lb, fl)}, []
        size = self.block_size(kind)
        while self.heap and len(block) < size and self.heap[0][0] < min(kth, lb * (1 + BATCH_SLACK)):
            e = heapq.heappop(self.heap)
            if self.state[e[2]][0] == visits:
                block.append(e[2][0])
                got[e[2][0]] = self.state.pop(e[2])
            else:
                skipped.append(e)
        for e in skipped:
            heapq.heappush(self.heap, e)
        return block, got

    def _window(self, ti: int, lb: float, fl: dict, kth: float) -> int:
        """Second visit: the window floor (dpbound.window_floors: the stage holding the most
        layers) of this tuple and those next in line; how many it refined."""
        block, got = self._batch(ti, lb, fl, kth, 0, "window")
        for tj, ts in zip(block, window_floors(self.problem, self.tab, block)):
            _, lb_j, fl_j = got[tj]
            fl_j = _int_floors(max(ts, fl_j["t"]), fl_j["d"], fl_j["o"])
            lb_j = max(lb_j, _floor_ns(self.tab.tuples[tj], fl_j))
            if lb_j < kth:
                self._push(tj, -1, 1, lb_j, fl_j)
        return len(block)

    def _relaxed(self, ti: int, lb: float, fl: dict, kth: float) -> int:
        """Third visit: the relaxed DP of this tuple and those next in line (as long as they
        too wait for it, within BATCH_SLACK of its bound); how many it refined."""
        block, got = self._batch(ti, lb, fl, kth, 1, "relaxed")
        t_star, o_star = floors(self.problem, self.tab, block, cap=[CAP * got[tj][2]["t"] for tj in block])
        for tj, ts, os_ in zip(block, t_star, o_star):
            _, lb_j, fl_j = got[tj]
            fl_j = _int_floors(max(ts, fl_j["t"]), fl_j["d"], max(os_, fl_j["o"]))
            lb_j = max(lb_j, _floor_ns(self.tab.tuples[tj], fl_j))
            if lb_j < kth:
                self._push(tj, -1, 2, lb_j, fl_j)
        return len(block)

    def _joint(self, ti: int, lb: float, fl: dict, kth: float) -> int:
        """Fourth visit: the joint floor of the bottleneck and the exposed reduction
        (planner/solve/exposure.py) of this tuple and those next in line; how many it refined.
        A visit of its own, after the relaxed DP: only the tuples still in line pay for it."""
        block, got = self._batch(ti, lb, fl, kth, 2, "joint")
        for tj, td in zip(block, joint_floors(self.problem, self.tab, block)):
            _, lb_j, fl_j = got[tj]
            fl_j = {**fl_j, "obj": max(fl_j.get("obj", 0), with_joint(self.tab.tuples[tj], fl_j, td))}
            lb_j = max(lb_j, _floor_ns(self.tab.tuples[tj], fl_j))
            if lb_j < kth:
                self._push(tj, -1, 3, lb_j, fl_j)
        return len(block)

    def _split_folds(self, ti: int, lb: float, fl: dict, kth: float) -> None:
        """One folding for every stage (the engine's target): each folding its own item, in
        line under its exact least bottleneck."""
        rows = undominated(self.tab, ti)
        for r, t_r in zip(rows, uniform_bottleneck(self.problem, self.tab, ti, rows)):
            fl_r = _int_floors(max(t_r, fl["t"]), fl["d"], fl["o"])
            lb_r = max(lb, _floor_ns(self.tab.tuples[ti], fl_r))
            if lb_r < kth:
                self._push(ti, int(r), 3, lb_r, fl_r)

    def _exact(self, item, lb: float, fl: dict, kth: float) -> None:
        """Fifth visit: the exact DP floors (of the tuple, or of one of its foldings)."""
        ti, row = item
        tu = self.tab.tuples[ti]
        rows = undominated(self.tab, ti) if row < 0 else [row]
        target = tu.vpp * (kth - fl["o"]) if np.isfinite(kth) else np.inf
        dp = least_bottleneck(self.problem, self.tab, ti, rows, target)     # exact T* and O*, a split reaching T*
        joint = fl.get("obj", 0) - tu.vpp * fl["o"]                   # the relaxed joint floor of W t + V d
        fl = _int_floors(max(dp.t_star, fl["t"]), max(dp.d_star, fl["d"]), max(dp.o_star, fl["o"]))
        fl["obj"] = with_joint(tu, fl, joint)
        if dp.bnd is not None:
            fl["obj"] = max(fl["obj"], int(dp.objective_floor(tu.num_microbatches, tu.pp, tu.vpp, fl["d"])),
                            int(np.floor(dp.td_floor)) + tu.vpp * fl["o"])
        lb = max(lb, _floor_ns(tu, fl))
        if lb < kth:
            self._push(ti, row, 4, lb, fl, dp, rows)


def _solver_safe(problem: Problem, tab: Tables, tis: list[int]) -> np.ndarray:
    """validate.solver_safe on these tuples' rows only (their CP-SAT models cannot overflow int64)."""
    if not tis:
        return np.zeros(0, bool)
    idx = np.concatenate([np.arange(tab.rows[t].start, tab.rows[t].stop) for t in tis])
    lens = [tab.rows[t].stop - tab.rows[t].start for t in tis]
    ends = np.cumsum(lens)
    sub = Tables([tab.tuples[t] for t in tis], [tab.folds[t] for t in tis],
                 [slice(int(e - n), int(e)) for e, n in zip(ends, lens)],
                 {t: {q: (a[:len(idx)] if not isinstance(a, PerTuple) and a.strides[0] == 0 else tab.col(t, q, idx))
                      for q, a in parts.items()} for t, parts in tab.coef.items()})
    return np.asarray(validate.solver_safe(problem, sub), bool)


_ALIASES = {"cu": "cp_ulysses", "cr": "cp_ring"}
# The time limit is a work budget, not the clock (so the same input and limit give the
# same plan): each CP-SAT call costs CALL_S nominal seconds (building and presolving the
# stage model: ~0.05-0.07 s measured on the 64-GPU default) plus its deterministic time.
CALL_S = 0.05
DP_S = 0.002                      # one DP bound (planner/solve/dpbound.py): ~2-20 ms measured
BLOCK = 512                       # tuples refined together by a vectorised floor, at most: the first
FIRST_BLOCK = 32                  # block of each kind this many, each next twice the last (a search that
                                  # needs few refined tuples does not pay for hundreds)
BATCH_SLACK = 0.03                # a window / relaxed-DP batch: the tuples in line within 3% of the first (no
                                  # plan bounds the line until CP-SAT's first ones, so a wide batch refines
                                  # tuples the optimum would have pruned: on DeepSeek-V3 4,096 GPUs at 10%,
                                  # 2,017 relaxed DPs, at 3% 904, at 1% 709 in more, smaller calls)
CAP = 1.5                        # the relaxed DP relaxes a stage while its time without recompute is within
                                  # this factor of the tuple's floor (measured on DeepSeek-V3 4,096 GPUs: the
                                  # same floors on all 3,722 tuples, 25% less time; at 1.25 DeepSeek-V3 on
                                  # 1,024 GPUs sent 4x as many tuples on to the exact DP)


def _key(tu) -> tuple:
    return (tu.pp, tu.tp, tu.cp, tu.dp, tu.vpp, tu.cp_kind, tu.cp_ulysses, tu.order, tu.micro_batch, tu.sharding)


def _key_layout(L: Layout) -> tuple:
    return (L.pp, L.tp, L.cp, L.dp, L.vpp, L.cp_kind, L.cp_ulysses, L.order, L.micro_batch, L.sharding,
            tuple((s.layers, s.fold, s.recompute_full, s.recompute_selective, s.recompute_modules) for s in L.stages))

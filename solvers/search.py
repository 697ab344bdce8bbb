"""Outer search: enumerate every legal tuple, bound each one vectorised, visit them best
bound first, solve the survivors' stage models with CP-SAT, stop when no remaining bound
can beat the K-th best plan found.

Bounds (both valid for every choice the inner model can make):
* time: the bottleneck stage takes at least 1/P of all layer work (no recompute, the
  cheapest folding per layer) and at least the largest single-layer time; the step is
  at least (M + (P-1)/V) times that;
* memory: some stage holds at least 1/P of all weights plus the embedding/head extras,
  and the last stage holds the logits, so a tuple whose lower bound exceeds the budget
  is infeasible without a CP-SAT call.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from planner import costmodel as cm
from planner.layout import Layout, check
from planner.specs import Problem
from solvers.space import NS, Tables, enumerate_tuples, tables
from solvers.stage_model import solve_stages


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


def _min_recompute(L: int, cost: np.ndarray, cap_free: np.ndarray, cap_full: np.ndarray) -> float:
    """Fewest recomputed layers (fractional) to place L layers on stages where stage i
    holds cap_free[i] layers without recompute and up to cap_full[i] layers when every
    extra layer costs cost[i] recomputed layers. Greedy on a separable convex LP:
    cheapest segments first. inf when even full recompute cannot place L layers."""
    free = np.clip(cap_free, 0, None)
    full = np.clip(cap_full, 0, None)
    extra = np.clip(full - free, 0, None)
    left = L - free.sum()
    if left <= 0:
        return 0.0
    if extra.sum() < left:
        return float("inf")
    need = 0.0
    for i in np.argsort(cost):
        take = min(left, extra[i])
        need += take * cost[i]
        left -= take
        if left <= 0:
            break
    return need


def bounds(problem: Problem, tab: Tables) -> tuple[np.ndarray, np.ndarray]:
    """(step-time lower bound [ns], memory lower bound [bytes]) per tuple; a tuple whose
    layers cannot be placed even under full recompute gets an infinite memory bound.

    The time bound relaxes the stage model: layers are a fluid with the cheapest per-layer
    weights, activations and time of any layer type and folding, and the recompute
    that memory forces is the least any placement needs (`_min_recompute`)."""
    from solvers.stage_model import chunks
    is_moe = problem.model.moe_layers()
    L = len(is_moe)
    n_moe = sum(is_moe)
    n_dense = L - n_moe
    budget = problem.cluster.memory_budget_gib * cm.GiB
    allowed = set(problem.train.recompute)
    tb, mb = [], []
    for ti, tu in enumerate(tab.tuples):
        sl = tab.rows[ti]
        r0 = sl.start
        if sl.stop == sl.start:                 # no folding left (filtered out)
            tb.append(float("inf")); mb.append(float("inf"))
            continue
        kinds_w, kinds_a, kinds_t, kinds_rc = [], [], [], []
        if n_dense:
            kinds_w.append(tab.w_dense[r0]); kinds_a.append(tab.a_dense[r0])
            kinds_t.append(tab.t_dense[r0]); kinds_rc.append(tab.rc_dense[r0])
        if n_moe:
            kinds_w.append(tab.w_moe[sl].min()); kinds_a.append(tab.a_moe[sl].min())
            kinds_t.append(tab.t_moe[sl].min()); kinds_rc.append(tab.rc_moe[sl].min())
        w, a, t, rc = min(kinds_w), min(kinds_a), min(kinds_t), min(kinds_rc)
        af = tab.a_full[r0]
        if "full" not in allowed:
            af = a - (tab.a_sel[r0] if "selective" in allowed else 0)
        t_m = tab.t_moe[sl].min() if n_moe else 0
        work = n_dense * tab.t_dense[r0] + n_moe * t_m + tab.t_last[sl].min() + tu.pp * tab.t_pp[r0]
        biggest = max(tab.t_dense[r0] if n_dense else 0, t_m)
        # memory: per-stage capacity in layers, without and with full recompute
        P = tu.pp
        k = np.array([chunks(P, tu.vpp, tu.num_microbatches, i) / tu.vpp for i in range(P)])
        extras = np.full(P, float(min(tab.buf_dense[r0], tab.buf_moe[sl].min())))
        extras[0] += tab.w_first[sl].min()
        extras[-1] += tab.w_last[sl].min() + tab.a_last[sl].min()
        room = budget - extras
        cap_free = room / (w + k * a) if "none" in allowed else np.zeros(P)
        cap_full = room / (w + k * af)
        cap_full = np.where(cap_full >= tu.vpp, cap_full, 0)      # a stage needs >= vpp layers
        delta = max(a - af, 1e-9)
        cost = (w + k * a) / (k * delta)
        need = _min_recompute(L, cost, cap_free, cap_full)
        if "none" not in allowed:
            need = L
        if not np.isfinite(need) or (room < 0).any():
            tb.append(float("inf")); mb.append(float("inf"))
            continue
        t_lb = max((work + need * rc) / P, biggest)
        tb.append((tu.vpp * tu.num_microbatches + P - 1) * t_lb / tu.vpp)
        mb.append(0.0)
    return np.asarray(tb, float), np.asarray(mb, float)


TUPLE_FIELDS = ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "cu", "cr", "order", "micro_batch")
FOLD_FIELDS = ("etp", "ep", "edp")


def search(problem: Problem, *, top: int = 5, time_limit: float = 60.0,
           progress: Optional[Callable[[str], None]] = None, fixed: Optional[dict] = None,
           fold_filter: Optional[Callable] = None) -> SearchResult:
    """The best `top` plans. `fixed` pins any of TUPLE_FIELDS and FOLD_FIELDS (the audit
    and `explain --layout` use it to complete a partial layout with its best split);
    `fold_filter(tuple, (etp, ep, edp))` restricts the expert foldings."""
    t0 = time.perf_counter()
    fixed = dict(fixed or {})
    tuples = [tu for tu in enumerate_tuples(problem)
              if all(getattr(tu, k) == fixed[k] for k in TUPLE_FIELDS if k in fixed)]
    if not tuples:
        return SearchResult([], "INFEASIBLE", time.perf_counter() - t0, 0, 0, 0, 0,
                            min_memory={"reason": "no legal degree tuple"})
    want = {k: fixed[k] for k in FOLD_FIELDS if k in fixed}
    keep = None
    if want or fold_filter:
        keep = lambda tu, f: (all(f[FOLD_FIELDS.index(k)] == v for k, v in want.items())
                              and (fold_filter is None or fold_filter(tu, f)))
    tab = tables(problem, tuples, prune_folds=keep is None, fold_filter=keep)
    t_lb, m_lb = bounds(problem, tab)
    budget = problem.cluster.memory_budget_gib * cm.GiB
    feasible = m_lb <= budget
    # visit best bound first; ties broken by the tuple's fields for determinism
    order = sorted(np.flatnonzero(feasible), key=lambda i: (t_lb[i], _key(tuples[i])))
    best: list[Candidate] = []
    calls, status, evaluated = 0, "OPTIMAL", []
    visited = 0
    for rank, ti in enumerate(order):
        if len(best) >= top and t_lb[ti] >= best[top - 1].objective_ns:
            break
        remaining = time_limit - (time.perf_counter() - t0)
        if remaining <= 0:
            status = "FEASIBLE"
            break
        if progress and rank % 25 == 0:
            progress(f"tuple {rank + 1}/{len(order)} (bound-ordered), {calls} CP-SAT calls, "
                     f"{len(best)} plans")
        visited += 1
        sol = solve_stages(problem, tab, ti, time_limit=max(0.05, min(remaining, 30.0)))
        calls += 1
        if sol.layout is None:
            if sol.status == "UNKNOWN":
                status = "FEASIBLE"
            continue
        if sol.status != "OPTIMAL":
            status = "FEASIBLE"
        evaluated.append(sol.layout)
        cand = Candidate(sol.layout, None, sol.objective / sol.layout.vpp, sol.status)
        best.append(cand)
        best.sort(key=lambda c: (c.objective_ns, _key_layout(c.layout)))
        del best[top:]
    wall = time.perf_counter() - t0
    pruned = len(tuples) - visited
    if not best:
        return SearchResult([], "INFEASIBLE" if status == "OPTIMAL" else status, wall, len(tuples), pruned, calls,
                            int((~feasible).sum()), evaluated, min_memory=min_memory(problem, tab, m_lb))
    for cand in best:                       # the float model's full estimate, top K only
        check(cand.layout, problem)
        cand.estimate = cm.evaluate(problem, cand.layout)
    wall = time.perf_counter() - t0
    return SearchResult(best, status, wall, len(tuples), pruned, calls, int((~feasible).sum()), evaluated)


def _key(tu) -> tuple:
    return (tu.pp, tu.tp, tu.cp, tu.dp, tu.vpp, tu.cp_kind, tu.cu, tu.order, tu.micro_batch)


def _key_layout(L: Layout) -> tuple:
    return (L.pp, L.tp, L.cp, L.dp, L.vpp, L.cp_kind, L.cp_ulysses, L.order, L.micro_batch,
            tuple((s.layers, s.fold, s.recompute_full, s.recompute_selective) for s in L.stages))


def min_memory(problem: Problem, tab: Tables, m_lb: np.ndarray) -> dict:
    """When nothing fits: the smallest memory any tuple needs under full recompute and the
    most even split, and the term that dominates it."""
    from solvers.stage_model import solve_stages as _solve
    # cheapest-by-bound tuples, re-solved with an unlimited budget to get a real figure
    idx = np.argsort(m_lb)[:20]
    best = None
    for ti in idx:
        sol = _solve(problem, tab, int(ti), time_limit=2.0, budget_bytes=2**60)
        if sol.layout is None:
            continue
        # minimise memory instead of time: evaluate full recompute on the same split
        L = sol.layout
        stages = tuple(s.model_copy(update={"recompute_full": s.num_layers, "recompute_selective": 0})
                       for s in L.stages) if "full" in problem.train.recompute else L.stages
        L = L.model_copy(update={"stages": stages})
        est = cm.evaluate(problem, L)
        if best is None or est.peak_bytes < best[1].peak_bytes:
            best = (L, est)
    if best is None:
        return {"reason": "no tuple could be evaluated"}
    L, est = best
    st = est.stages[est.peak_stage]
    terms = {"weights": st.weights, "grads": st.grads, "optimizer": st.optimizer,
             "activations": st.activations, "logits": st.logits, "buffers": st.buffers}
    dom = max(terms, key=terms.get)
    return {"layout": L, "peak_gib": est.peak_bytes / cm.GiB, "stage": st.index, "dominant": dom,
            "terms_gib": {k: v / cm.GiB for k, v in terms.items()}}

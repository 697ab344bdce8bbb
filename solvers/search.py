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


def _min_recompute(n: np.ndarray, cost: np.ndarray, cap_free: np.ndarray, cap_full: np.ndarray) -> np.ndarray:
    """Fewest recomputed layers (fractional), per row, to place n layers on P stages where
    stage i holds cap_free[i] layers without recompute and up to cap_full[i] layers when
    each layer beyond cap_free costs cost[i] recomputed layers: a separable convex LP,
    solved greedily (cheapest segments first), vectorised over rows. inf if even full
    recompute cannot place n layers."""
    free = np.clip(cap_free, 0, None)
    extra = np.clip(np.clip(cap_full, 0, None) - free, 0, None)
    left = n - free.sum(1)
    order = np.argsort(cost, axis=1)
    c_sorted = np.take_along_axis(cost, order, 1)
    e_sorted = np.take_along_axis(extra, order, 1)
    before = np.cumsum(e_sorted, 1) - e_sorted
    take = np.clip(np.minimum(e_sorted, left[:, None] - before), 0, None)
    need = (take * c_sorted).sum(1)
    need = np.where(left <= 0, 0.0, need)
    return np.where(extra.sum(1) < left - 1e-9, np.inf, need)


def _inflight_matrix(p: int, v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """In-flight micro-batches (in units of the stage's layers) of every stage, for rows
    of (vpp, micro-batches) sharing pp = p (costmodel.inflight, vectorised by uniques)."""
    from solvers.stage_model import chunks
    out = np.empty((len(v), p))
    pairs, inv = np.unique(np.stack([v, m], 1), axis=0, return_inverse=True)
    for j, (vv, mm) in enumerate(pairs):
        out[inv.ravel() == j] = [chunks(p, int(vv), int(mm), i) / vv for i in range(p)]
    return out


def _moe_fill(problem, tab, P, V, M, buf, w_first, w_last, a_last, n_moe, allowed, budget):
    """Least total MoE-layer time per tuple when each folding f can hold at most cap_f MoE
    layers: cap_f = what all P stages could hold under f alone (full recompute, the
    lightest extras). Giving every folding the whole capacity relaxes "one folding per
    stage", so the greedy fill (fastest folding first) is a valid lower bound; it stops
    the bound from using a fast folding that cannot hold a layer (e.g. ep=1 with 256
    experts). Also returns whether the foldings together can hold every MoE layer."""
    from solvers.stage_model import chunks
    T = len(tab.tuples)
    lens = np.array([r.stop - r.start for r in tab.rows])
    tix = np.repeat(np.arange(T), lens)
    a_min = tab.a_full if "full" in allowed else (tab.a_moe - (tab.a_sel if "selective" in allowed else 0))
    a_min = np.minimum(a_min, tab.a_moe).astype(float)
    cap = np.zeros(len(tix))
    for p_val in np.unique(P):
        ts = np.flatnonzero(P == p_val)
        if len(ts) == 0:
            continue
        k = _inflight_matrix(int(p_val), V[ts], M[ts])                           # (tuples, P)
        extras = np.repeat(buf[ts, None], p_val, 1)
        extras[:, 0] += w_first[ts]
        extras[:, -1] += w_last[ts] + a_last[ts]
        room = np.full(T, np.nan)[:, None].repeat(p_val, 1)
        kk = np.full((T, int(p_val)), np.nan)
        room[ts], kk[ts] = budget - extras, k
        rows = np.flatnonzero(P[tix] == p_val)
        per = room[tix[rows]] / (tab.w_moe[rows, None] + kk[tix[rows]] * a_min[rows, None])
        cap[rows] = np.clip(per, 0, None).sum(1)
    order = np.lexsort((tab.t_moe, tix))                 # by tuple, then fastest folding first
    tix_s, cap_s, t_s = tix[order], cap[order], tab.t_moe[order].astype(float)
    starts = np.array([r.start for r in tab.rows])
    seg_cum = np.cumsum(cap_s)
    seg_base = np.where(lens > 0, (seg_cum - cap_s)[np.minimum(starts, len(cap_s) - 1)], 0)
    before = seg_cum - cap_s - seg_base[tix_s]
    take = np.clip(np.minimum(cap_s, n_moe - before), 0, None)
    cost = take * t_s
    total = np.zeros(T)
    np.add.at(total, tix_s, cost)
    held = np.zeros(T)
    np.add.at(held, tix_s, take)
    return total, held >= n_moe - 1e-6


def bounds(problem: Problem, tab: Tables) -> tuple[np.ndarray, np.ndarray]:
    """(step-time lower bound [ns], memory lower bound [bytes]) per tuple; a tuple whose
    layers cannot be placed even under full recompute gets an infinite memory bound.

    Relaxation of the stage model: per layer type, its layers are a fluid with the
    cheapest weights, activations and time of any folding; the other type's layers are
    dropped (which only frees memory); the recompute that memory then forces is the least
    any placement needs (`_min_recompute`). Both types give valid bounds; take the larger."""
    from solvers.stage_model import chunks
    is_moe = problem.model.moe_layers()
    L = len(is_moe)
    n_moe = sum(is_moe)
    n_dense = L - n_moe
    budget = problem.cluster.memory_budget_gib * cm.GiB
    allowed = set(problem.train.recompute)
    T = len(tab.tuples)
    starts = np.array([r.start for r in tab.rows])
    lens = np.array([r.stop - r.start for r in tab.rows])
    empty = lens == 0
    starts_c = np.where(empty, 0, starts)

    def per_tuple_min(arr):
        if len(arr) == 0:
            return np.zeros(T)
        out = np.minimum.reduceat(arr.astype(float), starts_c) if T else np.zeros(0)
        return np.where(empty, np.inf, out)

    def per_tuple_max(arr):
        out = np.maximum.reduceat(arr.astype(float), starts_c) if T else np.zeros(0)
        return np.where(empty, -np.inf, out)

    first = lambda arr: arr[starts_c].astype(float)
    P = np.array([tu.pp for tu in tab.tuples])
    V = np.array([tu.vpp for tu in tab.tuples])
    M = np.array([tu.num_microbatches for tu in tab.tuples])
    t_m, w_m, a_m, rc_m = (per_tuple_min(tab.t_moe), per_tuple_min(tab.w_moe), per_tuple_min(tab.a_moe),
                           per_tuple_min(tab.rc_moe))
    t_d, w_d, a_d, rc_d = first(tab.t_dense), first(tab.w_dense), first(tab.a_dense), first(tab.rc_dense)
    a_full, a_sel = first(tab.a_full), first(tab.a_sel)
    t_last, w_first, w_last, a_last = (per_tuple_min(tab.t_last), per_tuple_min(tab.w_first),
                                       per_tuple_min(tab.w_last), per_tuple_min(tab.a_last))
    buf = np.minimum(first(tab.buf_dense), per_tuple_min(tab.buf_moe))
    moe_time = n_moe * t_m if n_moe else np.zeros(T)
    if n_moe:
        moe_time, fold_ok = _moe_fill(problem, tab, P, V, M, buf, w_first, w_last, a_last, n_moe, allowed, budget)
    work = n_dense * t_d + moe_time + t_last + P * first(tab.t_pp)
    biggest = np.maximum(t_d if n_dense else 0, t_m if n_moe else 0)
    if "full" in allowed:
        af = a_full
    else:
        af = None
    # the fullest stage holds at least ceil(L/P) layers (plus its p2p)
    t_layer_min = np.minimum(t_d if n_dense else np.inf, t_m if n_moe else np.inf)
    t_lb = np.maximum(np.maximum(work / P, biggest), np.ceil(L / P) * t_layer_min + first(tab.t_pp))
    r_min = np.zeros(T)                      # fewest recomputed layers memory forces
    feasible = ~empty
    for p_val in np.unique(P):
        rows = np.flatnonzero((P == p_val) & ~empty)
        if len(rows) == 0:
            continue
        k = _inflight_matrix(int(p_val), V[rows], M[rows])                        # (rows, P) in flight
        extras = np.repeat(buf[rows, None], p_val, 1)
        extras[:, 0] += w_first[rows]
        extras[:, -1] += w_last[rows] + a_last[rows]
        room = budget - extras
        need_best = np.zeros(len(rows))
        count_best = np.zeros(len(rows))
        for n_type, w, a, rc in ((n_dense, w_d, a_d, rc_d), (n_moe, w_m, a_m, rc_m)):
            if n_type == 0:
                continue
            w_, a_, rc_ = w[rows, None], a[rows, None], rc[rows]
            if af is not None:
                af_ = af[rows, None]
            else:
                af_ = a_ - (a_sel[rows, None] if "selective" in allowed else 0)
            cap_free = room / (w_ + k * a_) if "none" in allowed else np.zeros_like(room)
            cap_full = room / (w_ + k * af_)
            cap_full = np.where(cap_full >= V[rows, None], cap_full, 0)
            delta = np.maximum(a_ - af_, 1e-9)
            cost = (w_ + k * a_) / (k * delta)
            need = _min_recompute(np.full(len(rows), float(n_type)), cost, cap_free, cap_full)
            if "none" not in allowed:
                need = np.where(np.isfinite(need), float(n_type), need)
            bad = ~np.isfinite(need) | (room < 0).any(1)
            feasible[rows[bad]] = False
            need_best = np.maximum(need_best, np.where(np.isfinite(need), need * rc_, 0))
            count_best = np.maximum(count_best, np.where(np.isfinite(need), need, 0))
        t_lb[rows] = np.maximum(t_lb[rows], (work[rows] + need_best) / p_val)
        r_min[rows] = count_best
    # exposed gradient reduction: some stage exposes at least the mean excess of reduction
    # over its compute window. Recompute widens the window but lengthens the bottleneck
    # more (weight V*M+P-1 >= V), so the bound holds at the least recompute memory
    # forces; the window is taken at its widest per layer (slowest folding's compute).
    red = (n_dense * first(tab.dp_dense) + n_moe * first(tab.dp_moe_dense)
           + n_moe * (per_tuple_min(tab.edp_moe) if n_moe else 0) + per_tuple_min(tab.dp_first)
           + per_tuple_min(tab.dp_last))
    c_m = per_tuple_max(tab.c_moe) if n_moe else 0
    rc_max = np.maximum(first(tab.rc_dense) if n_dense else 0, per_tuple_max(tab.rc_moe) if n_moe else 0)
    rc_max = np.maximum(rc_max, first(tab.rc_sel))
    rc_min = np.minimum(first(tab.rc_dense) if n_dense else np.inf, per_tuple_min(tab.rc_moe) if n_moe else np.inf)
    steep = (M + (P - 1) / V) * rc_min >= rc_max         # recompute costs more than it hides
    r_win = np.where(steep, r_min, L)                     # else: the widest window, all recomputed
    window = n_dense * first(tab.c_dense) + n_moe * c_m + per_tuple_max(tab.t_last) + r_win * rc_max
    d_lb = np.maximum(0.0, (red - window) / P)
    # ... and the fullest stage (>= ceil(L/P) layers) exposes at least that many times the
    # smallest per-layer excess of reduction over its widest window (all recomputed)
    ex_d = first(tab.dp_dense) - first(tab.c_dense) - rc_max if n_dense else np.full(T, np.inf)
    ex_m = (first(tab.dp_moe_dense) + per_tuple_min(tab.edp_moe) - c_m - rc_max) if n_moe else np.full(T, np.inf)
    # (the last stage's head time widens its window: take it off)
    d_lb = np.maximum(d_lb, np.ceil(L / P) * np.clip(np.minimum(ex_d, ex_m), 0, None) - per_tuple_max(tab.t_last))
    # optimizer step: some stage steps at least the mean, and the fullest stage at least
    # ceil(L/P) layers' worth (cheapest layer kind and folding)
    o_layer = np.minimum(first(tab.o_dense) if n_dense else np.inf, per_tuple_min(tab.o_moe) if n_moe else np.inf)
    o_tot = (n_dense * first(tab.o_dense) + (n_moe * per_tuple_min(tab.o_moe) if n_moe else 0)
             + per_tuple_min(tab.o_first) + per_tuple_min(tab.o_last))
    o_lb = np.maximum(o_tot / P, np.ceil(L / P) * o_layer)
    step_lb = (V * M + P - 1) * t_lb / V + d_lb + o_lb
    if n_moe:
        feasible &= fold_ok
    step_lb = np.where(feasible, step_lb, np.inf)
    return step_lb, np.where(feasible, 0.0, np.inf)


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
    tab = tables(problem, tuples, fold_filter=keep)
    t_lb, m_lb = bounds(problem, tab)
    budget = problem.cluster.memory_budget_gib * cm.GiB
    feasible = m_lb <= budget
    # visit best bound first; ties broken by the tuple's fields for determinism
    order = sorted(np.flatnonzero(feasible), key=lambda i: (t_lb[i], _key(tuples[i])))
    best: list[Candidate] = []
    calls, status, evaluated = 0, "OPTIMAL", []
    per_call = max(1.0, time_limit / 20)          # one hard tuple may not eat the whole budget
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
        cutoff = best[top - 1].objective_ns if len(best) >= top else None
        sol = solve_stages(problem, tab, ti, time_limit=max(0.05, min(remaining, per_call)), cutoff_ns=cutoff)
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

"""Brute-force reference: every legal tuple, every contiguous split, every folding and
recompute count of every stage — no bounds, no pruning, no CP-SAT. For tests (same
optimum as `solvers.search`) and benchmarks (the speed ratio). Exponential: keep it to
small problems, or cap it with `max_tuples`.

It reads the same integer tables as the stage model (so the two optimise the same
numbers) but assembles stage memory and time in its own plain-Python code. The only
reduction is exact: per stage, options dominated in (time, exposed reduction, optimizer
step) are dropped before the product over stages, since the objective is monotone in
all three maxima.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations, product
from typing import Optional

from planner.costmodel import GiB
from planner.layout import Layout, Stage
from planner.specs import Problem
from solvers.space import enumerate_tuples, tables
from solvers.stage_model import chunks


@dataclass
class BruteResult:
    best_ns: Optional[float]          # step time (ns) of the optimum, None if nothing fits
    layout: Optional[Layout]
    tuples: int                       # tuples enumerated (after `where`)
    wall_s: float
    capped: bool                      # stopped by max_tuples / time_limit before the end
    tuples_done: int = 0

    @property
    def tuples_total(self) -> int:
        return self.tuples


def _splits(L: int, P: int, minimum: int):
    """Every contiguous split of L layers into P stages of at least `minimum` layers
    (stars and bars on L - P*(minimum-1): no rejected candidates to spin through)."""
    short = L - P * (minimum - 1)
    if short < P:
        return
    for cuts in combinations(range(1, short), P - 1):
        yield (0, *(c + (i + 1) * (minimum - 1) for i, c in enumerate(cuts)), L)


def _pareto(opts):
    """Options (t, d, o, payload) not beaten on all of t, d and o."""
    opts.sort(key=lambda o: (o[0], o[1], o[2]))
    out = []
    for o in opts:
        if not any(k[0] <= o[0] and k[1] <= o[1] and k[2] <= o[2] for k in out):
            out.append(o)
    return out


def brute_force(problem: Problem, max_tuples: Optional[int] = None, time_limit: Optional[float] = None,
                where: Optional[dict] = None) -> BruteResult:
    """`where` pins tuple fields (as solvers.search's `fixed`)."""
    t0 = time.perf_counter()
    tuples = [tu for tu in enumerate_tuples(problem)
              if not where or all(getattr(tu, k) == v for k, v in where.items())]
    capped = False
    if max_tuples is not None and len(tuples) > max_tuples:
        tuples, capped = tuples[:max_tuples], True
    tab = tables(problem, tuples)
    is_moe = problem.model.moe_layers()
    L = len(is_moe)
    prefix = [0]
    for f in is_moe:
        prefix.append(prefix[-1] + int(f))
    budget = int(problem.cluster.memory_budget_gib * GiB)
    allowed = set(problem.train.recompute)
    best: Optional[tuple[float, Layout]] = None
    done = 0
    for ti, tu in enumerate(tuples):
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            capped = True
            break
        done += 1
        rows = list(range(tab.rows[ti].start, tab.rows[ti].stop))
        P, V, M = tu.pp, tu.vpp, tu.num_microbatches
        r0 = rows[0]
        g = lambda name, r=r0: int(getattr(tab, name)[r])
        sel_ok = "selective" in allowed and g("a_sel") > 0
        memo: dict = {}

        def stage_options(i: int, lo: int, hi: int):
            key = (i, lo, hi)
            if key in memo:
                return memo[key]
            nm = prefix[hi] - prefix[lo]
            nd = (hi - lo) - nm
            opts = []
            for f, r in enumerate(rows):
                for rf in range(0, hi - lo + 1):
                    if rf and "full" not in allowed:
                        break
                    fm = min(rf, nm)
                    fd = rf - fm
                    for sl in range(0, (hi - lo - rf if sel_ok else 0) + 1):
                        if "none" not in allowed and rf + sl != hi - lo:
                            continue
                        static = nd * g("w_dense") + nm * g("w_moe", r)
                        static += g("buf_moe", r) if nm else g("buf_dense")
                        if i == 0:
                            static += g("w_first", r)
                        if i == P - 1:
                            static += g("w_last", r) + g("a_last", r)
                        act = ((nd - fd) * g("a_dense") + fd * g("a_full") + (nm - fm) * g("a_moe", r)
                               + fm * g("a_full") - sl * g("a_sel"))
                        if V * static + chunks(P, V, M, i) * act > V * budget:
                            continue
                        work = (nd * g("c_dense") + nm * g("c_moe", r) + fd * g("rc_dense") + fm * g("rc_moe", r)
                                + sl * g("rc_sel") + (g("t_last", r) if i == P - 1 else 0))
                        comm = nd * (g("t_dense") - g("c_dense")) + nm * (g("t_moe", r) - g("c_moe", r)) + g("t_pp")
                        red = (nd * g("dp_dense") + nm * g("dp_moe_dense") + nm * g("edp_moe", r)
                               + (g("dp_first", r) if i == 0 else 0) + (g("dp_last", r) if i == P - 1 else 0))
                        opt = (nd * g("o_dense") + nm * g("o_moe", r) + (g("o_first", r) if i == 0 else 0)
                               + (g("o_last", r) if i == P - 1 else 0))
                        opts.append((work + comm, max(0, red - work), opt, (tab.folds[ti][f], rf, sl)))
            memo[key] = _pareto(opts)
            return memo[key]

        for bnds in _splits(L, P, V):
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                capped = True
                break
            per_stage = [stage_options(i, bnds[i], bnds[i + 1]) for i in range(P)]
            if any(not o for o in per_stage):
                continue
            for n_combo, combo in enumerate(product(*per_stage)):
                if n_combo % 4096 == 4095 and time_limit is not None and time.perf_counter() - t0 > time_limit:
                    capped = True
                    break
                t_max = max(o[0] for o in combo)
                d_max = max(o[1] for o in combo)
                o_max = max(o[2] for o in combo)
                obj = ((V * M + P - 1) * t_max + V * d_max + V * o_max) / V
                if best is None or obj < best[0]:
                    stages = tuple(Stage(index=i, layers=(bnds[i], bnds[i + 1]), etp=o[3][0][0], ep=o[3][0][1],
                                         edp=o[3][0][2], recompute_full=o[3][1], recompute_selective=o[3][2])
                                   for i, o in enumerate(combo))
                    lay = Layout(world=problem.cluster.gpus, tp=tu.tp, cp=tu.cp, dp=tu.dp, pp=P, vpp=V,
                                 cp_kind=tu.cp_kind, cp_ulysses=tu.cu, cp_ring=tu.cr, order=tu.order,
                                 micro_batch=tu.micro_batch, num_microbatches=M, stages=stages)
                    best = (obj, lay)
    wall = time.perf_counter() - t0
    return BruteResult(best[0] if best else None, best[1] if best else None, len(tuples), wall, capped, done)

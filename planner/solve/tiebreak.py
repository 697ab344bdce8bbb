"""The plan the search returns first: among the plans within a stated tolerance of the
fastest, the one with the most headroom and the simplest, chosen exactly.

Order of preference, lexicographic:

1. inside published practice (planner/solve/sanity.py: CP chunk, TP within a domain) when
   such a plan is at most SANE_TOLERANCE slower than the fastest plan;
2. within TIE_TOLERANCE of the fastest plan left by (1): the least peak memory (in steps of
   MEMORY_STEP of the budget above MEMORY_COMFORT of it; below, peaks tie), then the
   least recompute (fully recomputed layers first, then module-layers), then the fewest
   collective groups leaving their NVLink domain and the fewest parallel axes in use.

It is proven, not a re-sort of the plans found: the walk (planner/solve/search.py) visits
every tuple whose bound is below the window's largest possible end (`Pool.cutoff`), so every
tuple with a plan in the window has its fastest plan; for each of those, the least memory
step holding a plan inside the window is found over the tuple's whole stage model (split,
foldings, recompute), each step below proven empty by the tuple's exact DP floor or by
CP-SAT under that step's budget, then CP-SAT minimises the recompute within that step with
the step time bounded by the window (`least_memory`). The planner/solve/bruteforce.py reference applies the same
order over every split and option (`tests/test_solver.py`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from planner import costmodel as cm
from planner.costmodel import GiB
from planner.layout import Layout
from planner.layout.grid import RankGrid
from planner.solve.sanity import SANE_TOLERANCE, tuple_flags
from planner.solve.stage_model import StageSolution
from planner.solve.dpbound import floor_ns, int_floors, least_bottleneck, scaled
from planner.solve.stage_model import StageSolution, solve_stages
from planner.solve.stage_model import _StageModel, _solve

# Plans within this fraction of the fastest step are ties. A cost-model estimate is not
# known to better than a few percent (benchmarks/fidelity*.py: its error on published runs),
# so a plan rated 0.5% faster at the edge of memory is not one the estimate can promise,
# while the headroom it gives up is what absorbs a fragmentation spike or a longer document.
# Stated, not derived: resolved well below those bands, so that a plan the model rates
# clearly faster is never passed over for headroom.
TIE_TOLERANCE = 0.005
# Peaks are compared in steps of this fraction of the memory budget (the first key is the
# step a plan's peak falls in, `memory_step`): the preset's allocator margin (reserved over
# allocated, 5.6% in a published Megatron MoE run, planner/specs/presets/gpus) is one
# measurement, and a plan-to-plan difference of a fraction of it is not one the estimate can
# promise; without a step, a plan recomputing a layer to save 0.5 GiB of 70 beat the same
# plan without recompute (Llama-3.1-405B, 16,384 GPUs, 16M tokens). Stated, not derived.
MEMORY_STEP = 0.02
# Below this fraction of the budget every peak ties on memory (recompute and simplicity
# decide): the budget already holds the allocator margin, and 10% more is above the margin
# itself, so headroom below it buys no fit. Without it a plan at 38% of the budget
# recomputed five stages' norms to save 1.2 GiB (Llama-3.1-405B, 16,384 GPUs, 4M tokens).
# Stated, not derived: the level the why-lines long called "binds".
MEMORY_COMFORT = 0.90
# how far past the fastest plan the walk must reach so that every tie of a sane plan is seen
REACH = (1 + SANE_TOLERANCE) * (1 + TIE_TOLERANCE) - 1


@dataclass
class Near:
    """A plan the walk found: its tuple's index, the table rows it chose among, the plan."""
    ti: int
    rows: list
    cand: object                # planner.solve.search.Candidate


class Pool:
    """The plans the walk solved (`Near`) and how far past the fastest it must walk: to
    TIE_TOLERANCE past the fastest plan inside published practice, or REACH past the fastest
    plan, whichever is nearer (both only fall as plans are found, so a tuple pruned earlier
    is pruned under the final reach too). `active` False: the K fastest only."""

    def __init__(self, problem, active: bool):
        self.problem, self.active, self.items, self.sane_best = problem, active, [], math.inf

    def add(self, tab, ti: int, rows, cand) -> None:
        self.items.append(Near(ti, rows, cand))
        if self.active and not tuple_flags(self.problem, tab.tuples[ti]):
            self.sane_best = min(self.sane_best, cand.objective_ns)

    def cutoff(self, best: list, top: int, finite: bool = False):
        """What a tuple must beat to matter: the K-th plan of `best` (fastest first), or the
        reach, whichever is later (`finite`: None for no bound yet)."""
        kth = best[top - 1].objective_ns if len(best) >= top else math.inf
        if best and self.active:
            kth = max(kth, min(self.sane_best * (1 + TIE_TOLERANCE), best[0].objective_ns * (1 + REACH)))
        return None if finite and math.isinf(kth) else kth


def apply(problem, tab, st, top: int, time_limit: float, engine, candidate) -> list:
    """The walk's plans settled (`settle`); the walk's status FEASIBLE unless every
    tie-break solve was proven. `candidate`: planner.solve.search.Candidate."""
    if not st.best:
        return st.best
    plans, proven = settle(problem, tab, st.pool.items, top, max(1.0, time_limit / 20), engine,
                           lambda L, e, s: candidate(L, e, e.step_time * 1e9, s))
    st.status = st.status if proven else "FEASIBLE"
    return plans


def recompute_amount(problem, L: Layout) -> tuple[int, int]:
    """(layers fully recomputed, module-layers selectively recomputed: the cost model's stage
    integers Lf_* and r_*, which the stage model's fd, fm, dk, mk are)."""
    ints = cm.stage_ints(problem, L)
    full = int(ints["Lf_d"].sum() + ints["Lf_m"].sum())
    mods = int(sum(v.sum() for k, v in ints.items() if k.startswith(("r_d_", "r_m_"))))
    return full, mods


def simplicity(problem, L: Layout) -> tuple[int, int]:
    """(dense collective groups leaving their NVLink domain, parallel axes in use); the
    expert groups are the stage model's and not counted here."""
    grid = RankGrid(L, problem.cluster.domain_used)
    axes = [a for a in ("tp", "cp", "dp") if getattr(L, a) > 1]
    off = sum(not grid.group(a, 0).intra_node for a in axes) + int(L.pp > 1 and L.world > problem.cluster.domain_used)
    used = len(axes) + int(L.pp > 1) + int(L.vpp > 1) + int(L.sharding == "zero3")
    return off, used


def memory_step(problem, peak_bytes: float) -> int:
    """The steps of MEMORY_STEP x the budget that a peak reaches above MEMORY_COMFORT x the
    budget (0: at or below it)."""
    budget = problem.cluster.memory_budget_gib * GiB
    return max(0, math.ceil((peak_bytes - MEMORY_COMFORT * budget) / (MEMORY_STEP * budget) - 1e-9))


def memory_ceiling(problem, step: int) -> float:
    """The largest peak (bytes) in memory step `step`."""
    budget = problem.cluster.memory_budget_gib * GiB
    return (MEMORY_COMFORT + MEMORY_STEP * step) * budget


def order_key(problem, L: Layout, est: cm.Estimate) -> tuple:
    return (memory_step(problem, est.peak_bytes), *recompute_amount(problem, L), *simplicity(problem, L))


def window(problem, plans: list[tuple[float, object]]) -> tuple[float, bool]:
    """The step (ns) a tied plan stays below, and whether the sane plans set it: `plans` are
    (step ns, tuple-like) of every tuple's fastest plan below REACH of the fastest."""
    fastest = min(s for s, _ in plans)
    sane = [s for s, tu in plans if not tuple_flags(problem, tu) and s < fastest * (1 + SANE_TOLERANCE)]
    base = min(sane) if sane else fastest
    return base * (1 + TIE_TOLERANCE), bool(sane)


def lead_index(problem, plans: list) -> int:
    """Which of `plans` (Candidates with estimates: an engine's realised forms, planner.solve.targets)
    the order above puts first: inside the window of `window` over their steps (the sane plans',
    where one is within SANE_TOLERANCE of the fastest), the least `order_key`, then the fastest."""
    cap, sane = window(problem, [(c.estimate.step_time, c.layout) for c in plans])
    inside = [i for i, c in enumerate(plans)
              if c.estimate.step_time < cap and not (sane and tuple_flags(problem, c.layout))]
    return min(inside, key=lambda i: (order_key(problem, plans[i].layout, plans[i].estimate),
                                      plans[i].estimate.step_time))


def settle(problem, tab, near: list[Near], top: int, limit: float, engine, make) -> tuple[list, bool]:
    """The plans in the order to return them: the lexicographic best first, then every other
    found plan not dominated in (step, peak) by one already kept, fastest first, `top` in
    all. `make(layout, estimate, status)` builds a Candidate. Returns (plans, proven)."""
    pool = [n for n in near if n.cand.layout is not None]
    if not pool:
        return [], True
    cap, sane = window(problem, [(n.cand.objective_ns, tab.tuples[n.ti]) for n in pool])
    proven, tied = True, []
    for n in pool:
        if n.cand.objective_ns >= cap or (sane and tuple_flags(problem, tab.tuples[n.ti])):
            continue
        if n.cand.estimate is None:
            n.cand.estimate = cm.evaluate(problem, n.cand.layout)
        if memory_step(problem, n.cand.estimate.peak_bytes) == 0 and recompute_amount(problem, n.cand.layout) == (0, 0):
            tied.append(n.cand)           # least in both keys the solves would lower (simplicity is the tuple's)
            continue
        sol = least_memory(problem, tab, n.ti, n.rows, cap, n.cand, limit, engine)
        L = sol.layout if sol.layout is not None else n.cand.layout
        proven &= sol.status == "OPTIMAL"
        est = cm.evaluate(problem, L)
        tied.append(make(L, est, sol.status if sol.layout is not None else n.cand.status))
    tied.sort(key=lambda c: (order_key(problem, c.layout, c.estimate), c.objective_ns))
    return [tied[0]] + undominated(problem, tied[0], [n.cand for n in pool] + tied[1:], top - 1), proven


def dominates(a, b) -> bool:
    """a is no slower and no larger than b, and better in one (estimates' step and peak)."""
    ta, ma, tb, mb = a.estimate.step_time, a.estimate.peak_bytes, b.estimate.step_time, b.estimate.peak_bytes
    return ta <= tb and ma <= mb and (ta < tb or ma < mb)


def undominated(problem, first, rest: list, n: int) -> list:
    """Up to n plans of `rest`, fastest first (by the stage model's objective; each priced by
    the cost model only when its turn comes), none dominated by `first`, by another kept one
    or equal to one kept in layout."""
    kept, seen = [], {first.layout}
    for c in sorted(rest, key=lambda c: c.objective_ns):
        if len(kept) >= n:
            break
        if c.estimate is None:
            c.estimate = cm.evaluate(problem, c.layout)
        # a plan the sanity rule passed over may beat `first` on both: it is not returned
        if c.layout in seen or any(dominates(k, c) or dominates(c, k) for k in (first, *kept)):
            continue
        kept.append(c)
        seen.add(c.layout)
    return kept


def least_memory(problem, tab, ti: int, rows: list, cap_ns: float, found, limit: float, engine):
    """Tuple ti's plan in the least memory step (of MEMORY_STEP x the budget, `memory_step`)
    among those faster than `cap_ns`, and in that step the least recompute. `found`: the
    tuple's plan in the window (a Candidate with its estimate). A StageSolution; its status
    OPTIMAL only when every step below the answer is proven empty and the recompute solve
    is proven.

    A memory step k is the stage model's own question under the budget memory_ceiling(k):
    is its fastest plan faster than the cap? The tuple's exact DP floor under that budget
    (planner/solve/dpbound.py) answers most steps without CP-SAT (a floor at or past the
    cap: nothing there); the rest go to the search's own solve with that budget, the DP's
    split as its hint. Minimising the peak itself in CP-SAT, against the step bound, could
    not be proven within the budget on rack-scale pipelines (Qwen3-235B, 144 GB200 GPUs)."""
    budget = problem.cluster.memory_budget_gib * GiB
    k0 = memory_step(problem, found.estimate.peak_bytes)
    proven, hit = True, None
    for k in range(k0 + 1):
        pk = with_budget(problem, min(budget, memory_ceiling(problem, k)))
        sol = _under_budget(pk, tab, ti, rows, cap_ns, limit, engine)
        if sol.layout is not None:
            hit = (k, pk, sol)
            break
        proven &= sol.status == "INFEASIBLE"
    if hit is None:            # the model's peak and the estimate's disagree at the step's edge
        return StageSolution("FEASIBLE" if proven else "UNKNOWN", None, None, 0.0, 0)
    k, pk, sol = hit
    least = least_recompute(pk, tab, ti, rows, cap_ns, sol.layout, limit, engine)
    if least.layout is None:
        least = sol
    if not (proven and least.status == "OPTIMAL"):
        least.status = "FEASIBLE"
    return least


def with_budget(problem, budget_bytes: float):
    """The same problem with another memory budget (bytes)."""
    cluster = problem.cluster.model_copy(update={"memory_budget_gib": budget_bytes / GiB})
    return problem.model_copy(update={"cluster": cluster})


def _under_budget(problem, tab, ti: int, rows: list, cap_ns: float, limit: float, engine):
    """A plan of tuple ti faster than `cap_ns` under `problem`'s budget (INFEASIBLE: proven
    none): the exact DP floor first, then CP-SAT from the DP's split."""
    tu = tab.tuples[ti]
    dp = least_bottleneck(problem, tab, ti, rows)
    if not np.isfinite(dp.t_star):
        return StageSolution("INFEASIBLE", None, None, 0.0, 0)
    fl = int_floors(dp.t_star, dp.d_star, dp.o_star)
    fl["obj"] = scaled(tu, fl)
    if dp.bnd is not None:
        fl["obj"] = max(fl["obj"], int(dp.objective_floor(tu.num_microbatches, tu.pp, tu.vpp, fl["d"])))
    if floor_ns(tu, fl) >= cap_ns:
        return StageSolution("INFEASIBLE", None, None, 0.0, 0)
    return solve_stages(problem, tab, ti, time_limit=limit, cutoff_ns=cap_ns, rows=rows,
                        hint=dp if dp.bnd is not None else None, floors=fl, engine=engine)


def least_recompute(problem, tab, ti: int, rows: list, cap_ns: float, start: Layout, limit: float, engine):
    """Tuple ti's plan of least recompute (a fully recomputed layer above every module-layer
    it could have run instead) faster than `cap_ns` under `problem`'s budget; CP-SAT from
    `start`, a plan that meets both."""
    tu = tab.tuples[ti]
    sm = _StageModel(problem, tab, tu, rows, int(problem.cluster.memory_budget_gib * GiB), engine)
    model, V = sm.model, tu.vpp
    model.add(sm.objective <= math.ceil(cap_ns * V) - 1)           # strictly faster than the cap
    w = 1 + sm.L * max(1, len(next(iter(sm.stages)).on))
    model.minimize(sum(w * (sv.fd + sum(sv.fm)) + sum(sv.dk.values()) + sum(sv.mk.values()) for sv in sm.stages))
    sm.hint(layout_hint(tab, ti, rows, start))
    fl = [tab.folds[ti][r - tab.rows[ti].start] for r in rows]
    return _solve(problem, model, sm.stages, sm.bnd, fl, tu, limit)


def layout_hint(tab, ti: int, rows: list, L: Layout) -> SimpleNamespace:
    """A layout in the form the stage model's hint reads (planner/solve/stage_hints.py):
    stage boundaries and, per stage, its table row, recompute modules and layers fully
    recomputed."""
    start = tab.rows[ti].start
    row = {tuple(tab.folds[ti][r - start]): r for r in rows}
    bnd = [s.layers[0] for s in L.stages] + [L.stages[-1].layers[1]]
    stages = [(row.get(s.fold), s.recompute_modules if s.recompute_selective else (), s.recompute_full)
              for s in L.stages]
    return SimpleNamespace(bnd=bnd, stages=stages)

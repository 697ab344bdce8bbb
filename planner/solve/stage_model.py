"""Inner model: for one fixed tuple, CP-SAT chooses the stage boundaries, the expert
folding of each stage, and each stage's recompute (layers fully recomputed, and which
Megatron recompute modules its other layers run), to minimise the step time under every
stage's memory budget.

Every per-stage sum of the cost model is linear in the stage integers once the tuple is
fixed; its coefficients come compiled from the formulas (`planner.solve.space.Tables`), so this
file holds no formula: `_StageVars.term` writes any per-stage sum as a CP-SAT linear
expression, and the step-time rule is `planner.costmodel.step`'s, as constraints
(`step_objective`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np


def _import_cp_model():
    """ortools' cp_model imports pandas (~0.3 s, a third of the CLI's import time) only for
    its pandas-Series helpers, which foldplan never calls: when pandas is not loaded
    already, it is imported against a stand-in that names the two classes its
    annotations read, and the stand-in is removed at once (a later `import pandas` gets
    the real one; cp_model's Series helpers would then still see the stand-in)."""
    # deferred: OR-Tools once, with pandas stood in (see the docstring)
    import sys
    import types
    if "pandas" in sys.modules:
        # deferred: OR-Tools once, with pandas stood in (see the docstring)
        from ortools.sat.python import cp_model as cpm
        return cpm
    stub = types.ModuleType("pandas")
    stub.Index = type("Index", (), {})
    stub.Series = type("Series", (), {})
    sys.modules["pandas"] = stub
    try:
        # deferred: OR-Tools once, with pandas stood in (see the docstring)
        from ortools.sat.python import cp_model as cpm
    finally:
        if sys.modules.get("pandas") is stub:
            del sys.modules["pandas"]
    return cpm


cp_model = _import_cp_model()

from planner.costmodel import GiB, chunks, step
from planner.engines import EngineConstraints, constraints
from planner.costmodel.names import DENSE_MODULES, MOE_MODULES, PERSISTENT_TERMS
from planner.layout import Layout, Stage
from planner.layout.placement import range_kinds_hold
from planner.layout.rules import layout_of
from planner.specs import Problem
from planner.solve.space import Tables, searchable_modules, undominated
from planner.solve.stage_hints import hint_even_split as _hint_even_split, hint_forms as _hint_forms, \
    hint_solution as _hint_solution



@dataclass
class StageSolution:
    status: str                      # OPTIMAL | FEASIBLE | INFEASIBLE | UNKNOWN
    objective: Optional[int]         # v * step time, nanoseconds
    layout: Optional[Layout]
    wall_s: float
    branches: int
    det_s: float = 0.0                # CP-SAT deterministic time used (work, not seconds)


class _StageVars:
    """The decision variables of one stage and its per-stage sums as linear expressions."""

    def __init__(self, model: cp_model.CpModel, i: int, tab: Tables, rows: list[int], n_i, nm_i, L: int,
                 n_moe: int, mods: tuple[str, ...], first: bool, last: bool):
        self.tab, self.rows, self.first, self.last, self.mods = tab, rows, first, last, mods
        self.model, self.i, self.n_moe, self._mkf = model, i, n_moe, {}
        nf = len(rows)
        self.n, self.nm, self.nd = n_i, nm_i, n_i - nm_i
        # y[f]: the stage uses fold f;  nmf[f]: its MoE layers if so, else 0
        self.y = [model.new_bool_var(f"y_{i}_{f}") for f in range(nf)]
        self.nmf = [model.new_int_var(0, n_moe, f"nmf_{i}_{f}") for f in range(nf)]
        # fm[f]: MoE layers fully recomputed (under fold f); fd: dense ones
        self.fm = [model.new_int_var(0, n_moe, f"fm_{i}_{f}") for f in range(nf)]
        self.fd = model.new_int_var(0, L, f"fd_{i}")
        # has_moe: the stage holds a MoE layer; z[f] = has_moe and y[f]
        self.has_moe = model.new_bool_var(f"has_moe_{i}")
        self.z = [model.new_bool_var(f"z_{i}_{f}") for f in range(nf)]
        # on[k]: module k recomputed in the stage's layers not fully recomputed;
        # dk[k] / mk[k]: the dense / MoE layers that then run it (0 when off)
        self.on = {k: model.new_bool_var(f"on_{i}_{k}") for k in mods}
        self.dk = {k: model.new_int_var(0, L, f"dk_{i}_{k}") for k in mods if k in DENSE_MODULES}
        self.mk = {k: model.new_int_var(0, n_moe, f"mk_{i}_{k}") for k in mods if k in MOE_MODULES}

    def constrain(self, model: cp_model.CpModel, allowed: set) -> None:
        # Each stage picks exactly one expert folding; its MoE layers are counted under it.
        model.add_exactly_one(self.y)
        for f, y in enumerate(self.y):
            model.add(self.nmf[f] == self.nm).only_enforce_if(y)
            model.add(self.nmf[f] == 0).only_enforce_if(y.negated())
            model.add(self.fm[f] <= self.nmf[f])
            model.add_bool_and([self.has_moe, y]).only_enforce_if(self.z[f])
            model.add_bool_or([self.has_moe.negated(), y.negated()]).only_enforce_if(self.z[f].negated())
        model.add(self.nm >= 1).only_enforce_if(self.has_moe)
        model.add(self.nm == 0).only_enforce_if(self.has_moe.negated())
        full_m = sum(self.fm)
        # Full recompute takes the stage's MoE layers first (layout.layer_recompute's rule).
        moe_first = model.new_bool_var("moe_first")
        model.add(self.fd <= self.nd)
        model.add(full_m == self.nm).only_enforce_if(moe_first)
        model.add(self.fd == 0).only_enforce_if(moe_first.negated())
        # A module runs in every layer of its kind that is not fully recomputed.
        for k, on in self.on.items():
            if k in self.dk:
                model.add(self.dk[k] == self.nd - self.fd).only_enforce_if(on)
                model.add(self.dk[k] == 0).only_enforce_if(on.negated())
            if k in self.mk:
                model.add(self.mk[k] == self.nm - full_m).only_enforce_if(on)
                model.add(self.mk[k] == 0).only_enforce_if(on.negated())
        if "full" not in allowed:
            model.add(self.fd + full_m == 0)
        if "selective" not in allowed:
            for on in self.on.values():
                model.add(on == 0)
        if "none" not in allowed:
            # every layer is recomputed: fully, or by the stage's modules
            any_mod = model.new_bool_var("any_mod")
            model.add_max_equality(any_mod, list(self.on.values()) or [model.new_constant(0)])
            model.add(self.fd + full_m == self.n).only_enforce_if(any_mod.negated())

    def term(self, *names: str):
        """The sum of the per-stage sums `names` as one linear expression of this stage's
        variables."""
        return self.signed({n: 1 for n in names})

    def signed(self, weights: dict[str, int]):
        """The signed sum of per-stage sums ({name: sign}) as one linear expression of this
        stage's variables (the reader planner.costmodel.step.stage_time takes)."""
        name = "+".join(weights)
        co = self.tab.sub(weights, self.rows)
        c = lambda part, f: co[part][f]
        one = lambda part: self._fold_free(co[part], part, name)
        ext = lambda f: c("const", f) + (c("e_f", f) if self.first else 0) + (c("e_l", f) if self.last else 0)
        expr = sum(y * ext(f) for f, y in enumerate(self.y))
        expr += sum(z * c("h_m", f) for f, z in enumerate(self.z))
        expr += sum(self.nmf[f] * c("L_m", f) + self.fm[f] * c("Lf_m", f) for f in range(len(self.rows)))
        expr += self.nd * one("L_d") + self.fd * one("Lf_d")
        expr += sum(v * one(f"r_d_{k}") for k, v in self.dk.items())
        for k, v in self.mk.items():
            vals = co[f"r_m_{k}"]
            if len(set(vals)) == 1:
                expr += v * one(f"r_m_{k}")
            else:   # the MoE load (planner.costmodel.routing) depends on the folding: count per folding
                expr += sum(x * vals[f] for f, x in enumerate(self._per_fold(k)))
        return expr

    def _per_fold(self, k: str) -> list:
        """mk[k] split by folding: the MoE layers running module k under fold f (0 unless chosen)."""
        if k not in self._mkf:
            xs = [self.model.new_int_var(0, self.n_moe, f"mkf_{self.i}_{k}_{f}") for f in range(len(self.y))]
            for x, y in zip(xs, self.y):
                self.model.add(x == self.mk[k]).only_enforce_if(y)
                self.model.add(x == 0).only_enforce_if(y.negated())
            self._mkf[k] = xs
        return self._mkf[k]

    def _fold_free(self, vals: list, part: str, name: str) -> int:
        vals = set(vals)
        if len(vals) != 1:
            raise ValueError(f"stage model: coefficient {name}:{part} depends on the expert folding")
        return vals.pop()

    def stage(self, solver, index: int, lo: int, hi: int, fold) -> Stage:
        full = solver.value(self.fd) + sum(solver.value(v) for v in self.fm)
        chosen = tuple(k for k, on in self.on.items() if solver.value(on))
        return Stage(index=index, layers=(lo, hi), etp=fold[0], ep=fold[1], edp=fold[2], recompute_full=full,
                     recompute_selective=(hi - lo - full) if chosen else 0,
                     recompute_modules=chosen or ("core_attn",))


def _target_rules(model, engine: EngineConstraints, stages: list[_StageVars], L: int, V: int, split) -> None:
    """What an engine's flags fix for the whole model. Megatron / torchtitan set EP and ETP
    once, so every stage picks the same folding as stage 0 (their rule target.uniform_fold);
    Megatron also has one recompute form (_one_recompute)."""
    if engine.uniform_fold:
        for sv in stages[1:]:
            for y0, y in zip(stages[0].y, sv.y):
                model.add(y == y0)
    if engine.one_recompute_form:
        _one_recompute(model, stages, L, V, split)


def _one_recompute(model, stages: list[_StageVars], L: int, V: int, split) -> None:
    """Megatron: one recompute form for the model (planner/engines/megatron/recompute.py
    `form`): every stage runs the same recompute modules (selective: in all its
    layers), or none and `--recompute-method block --recompute-num-layers N` for one N, the
    stage's full count then recompute.block_full(n, N, V): min(n, N) with one chunk, every
    layer with V > 1. No full recompute otherwise. Block recompute takes the first N layers of a
    stage in layer order (megatron/core/recompute.py:167-181), the placement its MoE layers first:
    a stage keeps to block counts where the two take as many MoE layers (then the same layers;
    Megatron's rule target.recompute_layers). `split`: (bnd, pm, prefix_moe) of the stage model."""
    bnd, pm, prefix_moe = split
    mixed = 0 < prefix_moe[-1] < L
    full_on = model.new_bool_var("granularity_full")
    n_blk = model.new_int_var(1, max(1, -(-L // V)), "recompute_num_layers")
    first = stages[0]
    for k, on in first.on.items():
        for sv in stages[1:]:
            model.add(sv.on[k] == on)
        model.add(on == 0).only_enforce_if(full_on)              # one granularity
    for i, sv in enumerate(stages):
        full = sv.fd + sum(sv.fm)
        model.add(full == 0).only_enforce_if(full_on.negated())
        if V > 1:
            model.add(full == sv.n).only_enforce_if(full_on)
        else:
            least = model.new_int_var(0, L, f"block_full_{i}")
            model.add_min_equality(least, [sv.n, n_blk])
            model.add(full == least).only_enforce_if(full_on)
            if mixed:
                # block_moe_i: the MoE layers among the stage's first `least` layers
                end = model.new_int_var(0, L, f"block_end_{i}")
                model.add(end == bnd[i] + least)
                moe_before = model.new_int_var(0, prefix_moe[-1], f"block_moe_{i}")
                model.add_element(end, prefix_moe, moe_before)
                model.add(sum(sv.fm) == moe_before - pm[i]).only_enforce_if(full_on)


def _upper(tab: Tables, rows: list[int], name: str, L: int) -> int:
    """A bound on the per-stage sum `name` over any stage (for the variables' domains)."""
    return int(sum(int(abs(tab.col(name, q, rows)).max()) * (1 if q in ("const", "e_f", "e_l", "h_m") else L)
                   for q in tab.coef[name])) + 1


def solve_stages(problem: Problem, tab: Tables, ti: int, *, time_limit: float = 10.0,
                 budget_bytes: Optional[int] = None, prune_folds: bool = True,
                 cutoff_ns: Optional[float] = None, rows: Optional[list[int]] = None,
                 hint=None, lower_ns: Optional[float] = None, floors: Optional[dict] = None,
                 engine: Optional[EngineConstraints] = None) -> StageSolution:
    """The best stage split / folding / recompute of tuple `ti`. With `cutoff_ns`, only
    plans strictly faster than that step time are sought (INFEASIBLE: none exists).
    `rows`: the tuple's table rows to choose among (default: its undominated foldings);
    `hint`: a solution to start from (a planner.solve.dpbound.DPResult over the same rows);
    `lower_ns`: a proven lower bound on the step time (lets CP-SAT stop on reaching it);
    `floors`: proven least values (integer ns) of the bottleneck `t`, the exposed reduction
    `d` and the slowest optimizer step `o` over every split (solve/dpbound.py,
    solve/bounds.py); with a hint that reaches them the hint is checked and returned.
    `engine`: what the target fixes for the whole model (planner.engines; default: the problem's target)."""
    tu, engine = tab.tuples[ti], engine or constraints(problem.train.target)
    if rows is None:
        rows = undominated(tab, ti) if prune_folds else list(range(tab.rows[ti].start, tab.rows[ti].stop))
    if not rows:                                    # no expert folding survived the filters
        return StageSolution("INFEASIBLE", None, None, 0.0, 0)
    fl = [tab.folds[ti][r - tab.rows[ti].start] for r in rows]
    budget = budget_bytes if budget_bytes is not None else int(problem.cluster.memory_budget_gib * GiB)
    sm = _StageModel(problem, tab, tu, rows, budget, engine)
    model, V = sm.model, tu.vpp
    if cutoff_ns is not None:
        model.add(sm.objective <= int(cutoff_ns * V) - 1)     # only plans that beat the incumbent
    floor_obj = None
    if floors:
        floor_obj = sm.add_floors(floors)
    elif lower_ns is not None and np.isfinite(lower_ns):
        model.add(sm.objective >= int(np.floor(lower_ns * V * (1 - 1e-12))))   # proven: redundant, closes the gap
    if hint is not None and hint.bnd is not None:
        if floor_obj is not None:
            # the hint alone, every hinted variable fixed: when it reaches the floor it is optimal
            for cand in _hint_forms(engine, hint):
                model.clear_hints()
                sm.hint(cand)
                sol = _solve(problem, model, sm.stages, sm.bnd, fl, tu, min(time_limit, 1.0), fixed=True)
                if sol.objective is not None and sol.objective <= floor_obj:
                    sol.status = "OPTIMAL"
                    return sol
            model.clear_hints()
        sm.hint(hint)
    else:
        _hint_even_split(model, sm.bnd, sm.L, tu.pp)
    return _solve(problem, model, sm.stages, sm.bnd, fl, tu, time_limit)


def step_objective(model, paced, excess, opt, tu, upper: tuple[int, int, int]):
    """The cost model's step rule (planner.costmodel.step) over the stages' linear sums:
    t_max bounds every piece that paces a stage's micro-batch (`paced[i]`: stage i's, in
    the order of step.PACE, its own work first), d_max every stage's reduction beyond its
    window (and 0), o_max every optimizer step; the objective is V * step =
    scaled_step(t_max, d_max, o_max). Returns (objective, (t_max, d_max, o_max))."""
    P = tu.pp
    # t_max: bottleneck micro-batch time; d_max: exposed gradient reduction; o_max: the
    # slowest stage's optimizer step (all ns)
    t_max = model.new_int_var(0, upper[0], "t_max")
    d_max = model.new_int_var(0, upper[1], "d_max")
    o_max = model.new_int_var(0, upper[2], "o_max")
    for pieces, e, o in zip(paced, excess, opt):
        for x in pieces:
            model.add(t_max >= x)
        model.add(d_max >= e)
        model.add(o_max >= o)
    # Redundant: each maximum is at least the mean stage (tightens the relaxation).
    model.add(P * t_max >= sum(pieces[0] for pieces in paced))
    model.add(P * d_max >= sum(excess))
    model.add(P * o_max >= sum(opt))
    objective = step.scaled_step(t_max, d_max, o_max, tu.num_microbatches, P, tu.vpp)
    model.minimize(objective)
    return objective, (t_max, d_max, o_max)


class _StageModel:
    """The CP-SAT model of one tuple, read top to bottom: data, variables, constraints,
    objective (hints and floors are added by the caller)."""

    def __init__(self, problem: Problem, tab: Tables, tu, rows: list[int], budget: int, engine: EngineConstraints):
        self.problem, self.rows = problem, rows
        is_moe = problem.model.moe_layers()
        self.is_moe = is_moe
        L, P, V, M = len(is_moe), tu.pp, tu.vpp, tu.num_microbatches
        self.L, self.tu = L, tu
        self.prefix_moe = [0]
        for flag in is_moe:
            self.prefix_moe.append(self.prefix_moe[-1] + int(flag))
        n_moe = self.prefix_moe[-1]
        allowed = set(problem.train.recompute)
        mods = searchable_modules(problem, tab, rows)
        model = self.model = cp_model.CpModel()
        # bnd[i]: first layer of stage i (bnd[P] = L);  pm[i]: MoE layers before bnd[i]
        self.bnd = [model.new_constant(0)] + [model.new_int_var(0, L, f"bnd_{i}") for i in range(1, P)] \
            + [model.new_constant(L)]
        self.pm = [model.new_int_var(0, n_moe, f"pm_{i}") for i in range(P + 1)]
        bnd, pm = self.bnd, self.pm
        # Stages are contiguous and each holds at least one layer per virtual chunk; the MoE
        # prefix count is read at each boundary.
        for i in range(P):
            model.add(bnd[i + 1] - bnd[i] >= V)
        for i in range(P + 1):
            model.add_element(bnd[i], self.prefix_moe, pm[i])
        # vpp > 1: ranges count a rank's MoE layers only on the splits range_kinds_hold allows (placement).
        least_first = range_kinds_hold(is_moe, V) if P > 1 else 0
        if least_first is None:
            model.add_bool_or([])                    # no split is counted right: none is offered
        elif least_first:
            model.add(bnd[1] >= least_first)
        self.stages, times = [], []
        for i in range(P):
            sv = _StageVars(model, i, tab, rows, bnd[i + 1] - bnd[i], pm[i + 1] - pm[i], L, n_moe, mods, i == 0,
                            i == P - 1)
            sv.constrain(model, allowed)
            self.stages.append(sv)
            # Memory of the stage (scaled by V: in-flight chunks are 1/V of the stage) fits the budget.
            model.add(V * sv.term(*PERSISTENT_TERMS) + chunks(P, V, M, i) * sv.term("act_mb") <= V * budget)
            # The stage's time (planner.costmodel.step.stage_time): the pieces that pace its
            # micro-batch, its reduction beyond its compute window, its optimizer step.
            times.append(step.stage_time(sv.signed))
        _target_rules(model, engine, self.stages, L, V, (bnd, pm, self.prefix_moe))
        hi = lambda weights: sum(abs(c) * _upper(tab, rows, n, L) for n, c in weights.items())
        w = step.stage_time(None)
        upper = (max(hi(w.weights(p)) for p in step.PACE), hi(w.weights("reduction")), hi(w.weights("opt")))
        self.objective, self.maxima = step_objective(model, [t.paced for t in times], [t.excess for t in times],
                                                     [t.opt for t in times], tu, upper)

    def add_floors(self, floors: dict) -> int:
        """Proven least values (integers) of the three maxima, and the objective's floor."""
        for name, var in zip("tdo", self.maxima):
            self.model.add(var >= int(floors.get(name, 0)))
        tu = self.tu
        floor_obj = step.scaled_step(*(int(floors.get(k, 0)) for k in "tdo"), tu.num_microbatches, tu.pp, tu.vpp)
        floor_obj = max(floor_obj, int(floors.get("obj", 0)))
        self.model.add(self.objective >= floor_obj)
        return floor_obj

    def hint(self, solution) -> None:
        _hint_solution(self.model, solution, self.stages, self.bnd, self.pm, self.rows, self.is_moe, self.prefix_moe)


def _solve(problem, model, stages, bnd, fl, tu, time_limit, fixed: bool = False) -> StageSolution:
    """Solve, check the status before reading, and read the layout back. `fixed`: every
    hinted variable takes its hinted value (checks a given solution against every constraint)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    if fixed:
        solver.parameters.fix_variables_to_their_hinted_value = True
    # the full LP relaxation: with only the default, some one-stage models crawl up the
    # objective nanosecond by nanosecond (measured: 5 s FEASIBLE vs 0.02 s OPTIMAL)
    solver.parameters.linearization_level = 2
    # a deterministic budget (CP-SAT work units, ~seconds): the same input and limit give the same plan
    solver.parameters.max_deterministic_time = time_limit
    # and a wall-clock safety net: CP-SAT can spend wall time its deterministic clock does
    # not count; only a call that hits this (and then says FEASIBLE) can vary between runs
    solver.parameters.max_time_in_seconds = 4 * time_limit + 1
    status = solver.solve(model)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return StageSolution(name, None, None, solver.wall_time, solver.num_branches, solver.deterministic_time)
    out = []
    for i, sv in enumerate(stages):
        f = next(k for k, y in enumerate(sv.y) if solver.value(y))
        out.append(sv.stage(solver, i, solver.value(bnd[i]), solver.value(bnd[i + 1]), fl[f]))
    layout = layout_of(tu, problem, out)
    return StageSolution(name, int(solver.objective_value), layout, solver.wall_time, solver.num_branches,
                         solver.deterministic_time)

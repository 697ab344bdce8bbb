"""Inner model: for one fixed tuple, CP-SAT chooses the stage boundaries, the expert
folding of each stage and each stage's recompute, to minimise the step time under
every stage's memory budget.

Once the tuple is fixed, every stage's memory and time are linear in a few integers
(dense / MoE layers in the stage, how many of each are recomputed), so the model is
small and solved to OPTIMAL. All coefficients come from `solvers.space.Tables`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ortools.sat.python import cp_model

from planner.costmodel import GiB, inflight
from planner.layout import Layout, Stage
from planner.specs import Problem
from solvers.space import Tables, undominated


@dataclass
class StageSolution:
    status: str                      # OPTIMAL | FEASIBLE | INFEASIBLE | UNKNOWN
    objective: Optional[int]         # v * step time, nanoseconds
    layout: Optional[Layout]
    wall_s: float
    branches: int


def chunks(pp: int, vpp: int, m: int, i: int) -> int:
    """In-flight micro-batch chunks of stage i (each 1/vpp of the stage's layers)."""
    return round(inflight(pp, vpp, m, i) * vpp)


def solve_stages(problem: Problem, tab: Tables, ti: int, *, time_limit: float = 10.0,
                 budget_bytes: Optional[int] = None, prune_folds: bool = True,
                 cutoff_ns: Optional[float] = None) -> StageSolution:
    """The best stage split / folding / recompute of tuple `ti`. With `cutoff_ns`, only
    plans strictly faster than that step time are sought (INFEASIBLE: none exists)."""
    tu = tab.tuples[ti]
    start = tab.rows[ti].start
    rows = undominated(tab, ti) if prune_folds else list(range(start, tab.rows[ti].stop))
    fl = [tab.folds[ti][r - start] for r in rows]
    nf = len(fl)
    r0 = rows[0]
    is_moe = problem.model.moe_layers()
    L, P, V, M = len(is_moe), tu.pp, tu.vpp, tu.num_microbatches
    prefix_moe = [0]
    for flag in is_moe:
        prefix_moe.append(prefix_moe[-1] + int(flag))
    n_moe = prefix_moe[-1]
    budget = budget_bytes if budget_bytes is not None else int(problem.cluster.memory_budget_gib * GiB)
    allowed = set(problem.train.recompute)
    sel_useful = int(tab.a_sel[r0]) > 0 and "selective" in allowed
    col = lambda name: [int(getattr(tab, name)[r]) for r in rows]      # per fold
    one = lambda name: int(getattr(tab, name)[r0])                     # fold-independent
    w_d, a_d, a_f, a_s = one("w_dense"), one("a_dense"), one("a_full"), one("a_sel")
    t_d, c_d, rc_d, rc_s = one("t_dense"), one("c_dense"), one("rc_dense"), one("rc_sel")
    dp_d, dp_md, t_pp = one("dp_dense"), one("dp_moe_dense"), one("t_pp")
    buf_d = one("buf_dense")
    w_m, a_m, t_m, c_m, rc_m = col("w_moe"), col("a_moe"), col("t_moe"), col("c_moe"), col("rc_moe")
    edp_m, buf_m = col("edp_moe"), col("buf_moe")
    o_d, o_m, o_first, o_last = one("o_dense"), col("o_moe"), col("o_first"), col("o_last")
    w_first, dp_first = col("w_first"), col("dp_first")
    w_last, a_last, t_last, dp_last = col("w_last"), col("a_last"), col("t_last"), col("dp_last")

    model = cp_model.CpModel()
    # bnd[i]: first layer of stage i (bnd[P] = L)
    bnd = [model.new_constant(0)] + [model.new_int_var(0, L, f"bnd_{i}") for i in range(1, P)] + [model.new_constant(L)]
    # pm[i]: MoE layers before bnd[i] (prefix count, read with an element constraint)
    pm = [model.new_int_var(0, n_moe, f"pm_{i}") for i in range(P + 1)]
    # y[i][f]: stage i uses fold f;  nmf[i][f]: its MoE layers if so, else 0
    y = [[model.new_bool_var(f"y_{i}_{f}") for f in range(nf)] for i in range(P)]
    nmf = [[model.new_int_var(0, n_moe, f"nmf_{i}_{f}") for f in range(nf)] for i in range(P)]
    # fm[i][f]: MoE layers of stage i fully recomputed (under fold f); fd[i]: dense ones
    fm = [[model.new_int_var(0, n_moe, f"fm_{i}_{f}") for f in range(nf)] for i in range(P)]
    fd = [model.new_int_var(0, L, f"fd_{i}") for i in range(P)]
    # sl[i]: layers of stage i with selective (core attention) recompute
    sl = [model.new_int_var(0, L if sel_useful else 0, f"sl_{i}") for i in range(P)]
    # moe_first[i]: all MoE layers of stage i are recomputed (so dense ones may be)
    moe_first = [model.new_bool_var(f"moe_first_{i}") for i in range(P)]
    # has_moe[i]: stage i holds a MoE layer; z[i][f] = has_moe[i] and y[i][f]
    has_moe = [model.new_bool_var(f"has_moe_{i}") for i in range(P)]
    z = [[model.new_bool_var(f"z_{i}_{f}") for f in range(nf)] for i in range(P)]
    # t_max: bottleneck micro-batch time; d_max: exposed gradient reduction (ns)
    t_hi = L * (max([t_d, rc_d] + t_m + rc_m) * 2 + rc_s) + max(t_last) + t_pp
    d_hi = L * max([dp_d + dp_md] + edp_m) + max(dp_first) + max(dp_last)
    o_hi = L * max([o_d] + o_m) + max(o_first) + max(o_last)
    t_max = model.new_int_var(0, t_hi, "t_max")
    d_max = model.new_int_var(0, d_hi, "d_max")
    # o_max: the slowest stage's optimizer step (ns)
    o_max = model.new_int_var(0, o_hi, "o_max")

    # Stages are contiguous and each holds at least one layer per virtual chunk.
    for i in range(P):
        model.add(bnd[i + 1] - bnd[i] >= V)
    # The MoE prefix count is read at each boundary.
    for i in range(P + 1):
        model.add_element(bnd[i], prefix_moe, pm[i])
    stage_time, stage_excess, stage_opt = [], [], []
    for i in range(P):
        n_i = bnd[i + 1] - bnd[i]
        nm_i = pm[i + 1] - pm[i]
        nd_i = n_i - nm_i
        # Each stage picks exactly one expert folding; its MoE layers are counted under it.
        model.add_exactly_one(y[i])
        for f in range(nf):
            model.add(nmf[i][f] == nm_i).only_enforce_if(y[i][f])
            model.add(nmf[i][f] == 0).only_enforce_if(y[i][f].negated())
            model.add(fm[i][f] <= nmf[i][f])
            model.add_bool_and([has_moe[i], y[i][f]]).only_enforce_if(z[i][f])
            model.add_bool_or([has_moe[i].negated(), y[i][f].negated()]).only_enforce_if(z[i][f].negated())
        model.add(nm_i >= 1).only_enforce_if(has_moe[i])
        model.add(nm_i == 0).only_enforce_if(has_moe[i].negated())
        fm_i = sum(fm[i])
        # Recomputed layers are layers of the stage; full recompute takes MoE layers first.
        model.add(fd[i] <= nd_i)
        model.add(fd[i] + fm_i + sl[i] <= n_i)
        model.add(fm_i == nm_i).only_enforce_if(moe_first[i])
        model.add(fd[i] == 0).only_enforce_if(moe_first[i].negated())
        if "full" not in allowed:
            model.add(fd[i] + fm_i == 0)
        if "none" not in allowed:
            model.add(fd[i] + fm_i + sl[i] == n_i)
        # Memory of the stage (scaled by V: in-flight chunks are 1/V of the stage) fits the budget.
        first, last = i == 0, i == P - 1
        static = (nd_i * w_d + sum(nmf[i][f] * w_m[f] for f in range(nf))
                  + buf_d * (1 - has_moe[i]) + sum(z[i][f] * buf_m[f] for f in range(nf))
                  + (sum(y[i][f] * w_first[f] for f in range(nf)) if first else 0)
                  + (sum(y[i][f] * (w_last[f] + a_last[f]) for f in range(nf)) if last else 0))
        act = (nd_i * a_d - fd[i] * (a_d - a_f) - sl[i] * a_s
               + sum(nmf[i][f] * a_m[f] - fm[i][f] * (a_m[f] - a_f) for f in range(nf)))
        model.add(V * static + chunks(P, V, M, i) * act <= V * budget)
        # Time of one micro-batch on the stage bounds the bottleneck time.
        work = (nd_i * c_d + sum(nmf[i][f] * c_m[f] for f in range(nf)) + fd[i] * rc_d
                + sum(fm[i][f] * rc_m[f] for f in range(nf)) + sl[i] * rc_s
                + (sum(y[i][f] * t_last[f] for f in range(nf)) if last else 0))
        comm = nd_i * (t_d - c_d) + sum(nmf[i][f] * (t_m[f] - c_m[f]) for f in range(nf)) + t_pp
        model.add(t_max >= work + comm)
        stage_time.append(work + comm)
        # Gradient reduction not hidden behind the stage's last backward bounds d_max.
        dp_i = (nd_i * dp_d + nm_i * dp_md + sum(nmf[i][f] * edp_m[f] for f in range(nf))
                + (sum(y[i][f] * dp_first[f] for f in range(nf)) if first else 0)
                + (sum(y[i][f] * dp_last[f] for f in range(nf)) if last else 0))
        model.add(d_max >= dp_i - work)
        stage_excess.append(dp_i - work)
        # The optimizer step of the stage's parameter shard bounds o_max.
        opt_i = (nd_i * o_d + sum(nmf[i][f] * o_m[f] for f in range(nf))
                 + (sum(y[i][f] * o_first[f] for f in range(nf)) if first else 0)
                 + (sum(y[i][f] * o_last[f] for f in range(nf)) if last else 0))
        model.add(o_max >= opt_i)
        stage_opt.append(opt_i)
    # Redundant: the bottleneck is at least the mean stage, the exposed reduction at least
    # the mean excess (tightens the LP relaxation; changes no solution).
    model.add(P * t_max >= sum(stage_time))
    model.add(P * d_max >= sum(stage_excess))
    model.add(P * o_max >= sum(stage_opt))

    # Objective: V * step time = (V*M + P - 1) * bottleneck + V * (exposed reduction + optimizer step).
    objective = (V * M + P - 1) * t_max + V * d_max + V * o_max
    model.minimize(objective)
    if cutoff_ns is not None:
        # Only plans that beat the incumbent matter: cut the rest off (exact pruning).
        model.add(objective <= int(cutoff_ns * V) - 1)
    # Hint: the even split, first folding, no recompute.
    base, extra = divmod(L, P)
    acc = 0
    for i in range(1, P):
        acc += base + (1 if i - 1 >= P - extra else 0)
        model.add_hint(bnd[i], acc)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return StageSolution(name, None, None, solver.wall_time, solver.num_branches)
    stages = []
    for i in range(P):
        f = next(k for k in range(nf) if solver.value(y[i][k]))
        etp, ep, edp = fl[f]
        stages.append(Stage(index=i, layers=(solver.value(bnd[i]), solver.value(bnd[i + 1])), etp=etp, ep=ep,
                            edp=edp, recompute_full=solver.value(fd[i]) + sum(solver.value(v_) for v_ in fm[i]),
                            recompute_selective=solver.value(sl[i])))
    layout = Layout(world=problem.cluster.gpus, tp=tu.tp, cp=tu.cp, dp=tu.dp, pp=tu.pp, vpp=tu.vpp,
                    cp_kind=tu.cp_kind, cp_ulysses=tu.cu, cp_ring=tu.cr, order=tu.order,
                    micro_batch=tu.micro_batch, num_microbatches=tu.num_microbatches, stages=tuple(stages))
    return StageSolution(name, int(solver.objective_value), layout, solver.wall_time, solver.num_branches)

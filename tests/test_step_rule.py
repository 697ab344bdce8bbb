"""The pipeline step rule is the cost model's (planner.costmodel.step); each of the
solver's encodings of it (CP-SAT's objective, the integer floors, the bounds) equals it at
the maxima and bounds it from below at floors of them, on random stage times."""
import random

import pytest

from planner import costmodel as cm
from planner.costmodel import step
from planner.solve.stage_model import cp_model, step_objective


def random_stages(rng: random.Random):
    """Per-stage integer ns: micro-batch time, sharding traffic, reduction, window,
    optimizer step; and (M, P, V) of a legal schedule."""
    P = rng.choice([1, 2, 3, 4, 8])
    V = rng.choice([1, 2, 3]) if P > 1 else 1
    M = P * rng.randint(1, 6) if V > 1 else rng.randint(1, 32)
    n = lambda hi: [rng.randint(0, hi) for _ in range(P)]
    return dict(M=M, P=P, V=V, busy=n(10**7), shard=n(10**7), red=n(10**8), win=n(10**8), opt=n(10**6))


def _rule(s) -> float:
    """The cost model's step time (seconds -> ns kept as given) of the random stages."""
    t = [max(b, sh) for b, sh in zip(s["busy"], s["shard"])]
    got, _, _ = cm.step_time(s["M"], s["P"], s["V"], t, s["win"], s["red"], s["opt"])
    return got


def test_pieces_are_one_rule():
    for m, p, v in [(1, 1, 1), (8, 4, 1), (8, 4, 2), (12, 3, 4)]:
        assert step.bottleneck_weight(m, p, v) == v * step.bubble_factor(m, p, v)
        assert step.bubble(p, v, 1.0) == step.bubble_factor(m, p, v) - m
    assert cm.step_time is step.step_time          # evaluate's rule is this module's


@pytest.mark.parametrize("seed", range(40))
def test_cpsat_objective_is_the_step_rule(seed):
    # the stage model's own objective builder, over constant stage sums: its optimum / V
    # is the cost model's step time of those stages
    rng = random.Random(seed)
    s = random_stages(rng)
    tu = type("T", (), dict(pp=s["P"], vpp=s["V"], num_microbatches=s["M"]))
    model = cp_model.CpModel()
    excess = [r - w for r, w in zip(s["red"], s["win"])]
    obj, _ = step_objective(model, list(zip(s["busy"], s["shard"])), excess, s["opt"], tu, (10**8, 10**8, 10**7))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert solver.objective_value / s["V"] == pytest.approx(_rule(s), rel=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_floors_bound_the_step_rule(seed):
    rng = random.Random(100 + seed)
    s = random_stages(rng)
    M, P, V = s["M"], s["P"], s["V"]
    t = max(max(b, sh) for b, sh in zip(s["busy"], s["shard"]))
    d = max(0, max(r - w for r, w in zip(s["red"], s["win"])))
    o = max(s["opt"])
    exact = _rule(s)
    # at the maxima: the bounds' float form and the solver's integer V * step are the rule
    assert step.step_floor(t, d, o, M, P, V) == pytest.approx(exact, rel=1e-12)
    assert step.scaled_step(t, d, o, M, P, V) / V == pytest.approx(exact, rel=1e-12)
    # at floors of them: never above the rule (the search prunes on these)
    ft, fd, fo = rng.randint(0, t), rng.randint(0, d), rng.randint(0, o)
    assert step.step_floor(ft, fd, fo, M, P, V) <= exact * (1 + 1e-12)
    assert step.scaled_step(ft, fd, fo, M, P, V) <= V * exact * (1 + 1e-12)
    from planner.solve.dpbound import floor_ns as _floor_ns
    tu = type("T", (), dict(pp=P, vpp=V, num_microbatches=M))
    assert _floor_ns(tu, dict(t=t, d=d, o=o)) == pytest.approx(exact, rel=1e-12)
    assert _floor_ns(tu, dict(t=ft, d=fd, o=fo)) <= exact * (1 + 1e-12)


def test_explain_prints_the_rule_it_computes():
    from planner.report import explain
    from planner.solve import search_plans
    from planner.specs import ModelSpec, make_problem
    m = ModelSpec(name="d", layers=4, hidden=1024, heads=8, kv_heads=8, head_dim=128, vocab=32000, ffn_hidden=4096)
    p = make_problem(model=m, gpus=4, gpus_per_node=4, seq=8192, global_batch=8, micro_batches=(1,), memory_gib=40)
    plan = search_plans(p, top=1, fixed=dict(pp=2)).plans[0]
    import io
    buf = io.StringIO()
    explain(p, plan.layout, stream=buf)
    text = buf.getvalue()
    assert f"step time (s) = {step.RULE}" in text
    est = plan.estimate
    t_max = max(s.time for s in est.stages)
    L = plan.layout
    assert step.with_numbers(L.num_microbatches, L.pp, L.vpp, t_max, est.exposed["dp"] + est.exposed["edp"],
                             est.optimizer, est.step_time) in text
    assert est.step_time == pytest.approx(step.step_floor(t_max, est.exposed["dp"] + est.exposed["edp"], est.optimizer,
                                                          L.num_microbatches, L.pp, L.vpp), rel=1e-12)


# ---------------------------------------------------------------- one owner of the stage time
# Every encoding reads a stage's time from planner.costmodel.step.stage_time (STAGE_TIME, PACE):
# a change planted there alone must reach evaluate, the CP-SAT stage model, the fluid bounds,
# the DP floors (relaxed and exact) and the brute force. Each plant is checked against the
# rule written out here by hand from the cost model's per-stage sums; each encoding's number
# must move with it (a copy of the old rule would not), the floors stay below the CP-SAT
# optimum of each tuple, and the search finds the brute force's optimum.
K = 1000             # a plant's factor: large enough that the planted term sets the bottleneck

busy_of = lambda r, i: r["work"][i] + r["comm_tp"][i] + r["comm_cp"][i] + r["comm_ep"][i] + r["comm_pp"][i]


def _plant_in_piece(mp):
    """A new term inside a piece: K optimizer steps added to every micro-batch's own work."""
    mp.setitem(step.STAGE_TIME, "busy", {**step.STAGE_TIME["busy"], "opt_step": K})
    return lambda r, i: max(busy_of(r, i) + K * r["opt_step"][i], r["shard_mb"][i])


def _plant_new_piece(mp):
    """A new piece that paces the micro-batch: K optimizer steps beside every micro-batch."""
    mp.setitem(step.STAGE_TIME, "host", {"opt_step": K})
    mp.setattr(step, "PACE", (*step.PACE, "host"))
    return lambda r, i: max(busy_of(r, i), r["shard_mb"][i], K * r["opt_step"][i])


def _plant_problem(moe: bool):
    from planner.specs import ModelSpec, make_problem
    m = dict(name="plant", layers=4, hidden=1024, heads=8, kv_heads=2, head_dim=128, vocab=32000,
             ffn_hidden=4096 if not moe else 3072)
    if moe:
        m["moe"] = dict(experts=4, top_k=2, expert_ffn_hidden=2048, first_dense_layers=1)
    return make_problem(model=ModelSpec(**m), gpu="h100-sxm", gpus=4, gpus_per_node=4, seq=32768, global_batch=8,
                        micro_batches=(1,), memory_gib=40, shardings=("zero1", "zero2"),
                        recompute_modules=("core_attn",))


def _hand_rule(p, layout, t_of) -> float:
    """The step time of `layout` by the planted rule, from the cost model's per-stage sums."""
    r = cm.stage_terms(p, layout)
    P, V, M = layout.pp, layout.vpp, layout.num_microbatches
    t = max(t_of(r, i) for i in range(P))
    d = max(0.0, max(r["dp_step"][i] + r["edp_step"][i] - r["work"][i] for i in range(P)))
    return (M + (P - 1) / V) * t + d + max(r["opt_step"][i] for i in range(P))


def _tuples(p, pin):
    from planner.solve.space import enumerate_tuples
    return enumerate_tuples(p, pin)


def _encodings(p, pin) -> dict:
    """Per tuple of the pinned space: the fluid bound and the relaxed and exact DP floors of
    the bottleneck, and the CP-SAT stage model's optimum (V * step / V, ns)."""
    import numpy as np
    from planner.solve.bounds import bounds
    from planner.solve.dpbound import floors, least_bottleneck
    from planner.solve.space import tables
    from planner.solve.stage_model import solve_stages
    tab = tables(p, _tuples(p, pin))
    parts: dict = {}
    bounds(p, tab, parts)
    n = len(tab.tuples)
    sols = [solve_stages(p, tab, ti) for ti in range(n)]
    return dict(fluid=parts["t_lb"], relaxed=floors(p, tab, np.arange(n))[0],
                exact=np.array([least_bottleneck(p, tab, ti).t_star for ti in range(n)]),
                cpsat=np.array([s.objective / tu.vpp if s.objective is not None else np.inf
                                for s, tu in zip(sols, tab.tuples)]))


@pytest.mark.parametrize("moe", [False, True])
@pytest.mark.parametrize("plant", [_plant_in_piece, _plant_new_piece])
def test_every_encoding_reads_the_stage_time(plant, moe, monkeypatch):
    import numpy as np
    from planner.solve import search_plans as search
    from planner.solve.bruteforce import brute_force
    p = _plant_problem(moe)
    pin = dict(tp=2, pp=2, micro_batch=1)
    before, was = search(p, top=1, fixed=pin).plans[0], _encodings(p, pin)
    t_of = plant(monkeypatch)
    now = _encodings(p, pin)
    for name in now:                   # every encoding's number moves with the plant
        assert (now[name] > was[name] * (1 + 1e-6)).any(), name
    tus = _tuples(p, pin)
    for name in ("fluid", "relaxed", "exact"):       # and a floor of the bottleneck floors each step
        floor = np.array([step.step_floor(t, 0, 0, tu.num_microbatches, tu.pp, tu.vpp) for t, tu in zip(now[name], tus)])
        assert (floor <= now["cpsat"] * (1 + 1e-9)).all(), name
    # evaluate prices the planted rule, and the plant changed the price (it is not idle)
    planted = cm.evaluate(p, before.layout).step_time
    assert planted == pytest.approx(_hand_rule(p, before.layout, t_of), rel=1e-12)
    assert planted > before.estimate.step_time * (1 + 1e-6)
    # the brute force (numbers) and the search (CP-SAT over the bounds' survivors) agree on it,
    # up to the tables' rounding of each coefficient up to a whole ns (times the plant's K)
    res, ref = search(p, top=1, fixed=pin), brute_force(p, where=pin)
    assert res.status == "OPTIMAL" and ref.best_ns is not None
    assert cm.evaluate(p, ref.layout).step_time * 1e9 == pytest.approx(ref.best_ns, rel=1e-9)
    assert res.fastest_ns == pytest.approx(ref.best_ns, rel=1e-5, abs=1e3)
    best = res.plans[0]
    assert best.estimate.step_time == pytest.approx(_hand_rule(p, best.layout, t_of), rel=1e-12)
    assert best.estimate.step_time * 1e9 == pytest.approx(best.objective_ns, rel=1e-5, abs=1e3)

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
    obj, _ = step_objective(model, s["busy"], s["shard"], excess, s["opt"], tu, (10**8, 10**8, 10**7))
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

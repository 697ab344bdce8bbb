"""Engine targets: the search keeps to what Megatron-LM / torchtitan can run (one expert
folding, their rank order, their fold / CP / sharding rules), the stage model and the
brute force agree under the uniform-fold constraint, and each cited engine rule fires."""
import random

import pytest

from planner import costmodel as cm
from planner.engines import constraints
from planner.engines.shared import ENGINE_ORDER
from planner.solve import targets
from planner.layout import Layout, Stage, check
from planner.specs import ModelSpec, make_problem
from planner.solve import search_plans
from planner.solve.bruteforce import brute_force
import planner.solve.tiebreak as tiebreak

from test_solver import random_problem


def degree_violations(problem, scope="degree", **fields):
    return constraints(problem.train.target).degree_violations(problem, scope, **fields)


def _as(problem, target):
    over = {k: v for k, v in constraints(target).train_defaults().items()
            if k in ("target", "master", "shardings", "cp_kinds")}
    train = problem.train.model_copy(update=over)
    return problem.model_copy(update={"train": type(problem.train)(**train.model_dump())})


@pytest.mark.parametrize("target", ["megatron", "torchtitan"])
def test_stage_model_matches_brute_force_with_one_folding(target):
    rng = random.Random(77 if target == "megatron" else 78)
    done = 0
    while done < 3:                      # small: the brute force is exponential
        p = random_problem(rng)
        if not p.model.is_moe or p.cluster.gpus > 8 or p.model.layers > 3 or p.train.seq > 32768:
            continue
        p = _as(p, target)
        eng = constraints(target)
        res = search_plans(p, top=2, fixed={"order": ENGINE_ORDER}, fold_filter=eng.fold_filter(p), engine=eng)
        ref = brute_force(p, where={"order": ENGINE_ORDER}, engine=eng)
        done += 1
        if ref.best_ns is None:
            assert not res.plans
            continue
        assert res.plans and res.status == "OPTIMAL"
        assert res.fastest_ns == pytest.approx(ref.best_ns, rel=1e-6, abs=1e3)
        first, e_tie = res.plans[0], cm.evaluate(p, ref.tie_layout)     # the same tie-break over its own layouts
        assert tiebreak.order_key(p, first.layout, first.estimate) == tiebreak.order_key(p, ref.tie_layout, e_tie)
        for c in res.plans:
            check(c.layout, p, eng.plan_rules)                   # target.uniform_fold, target.etp, ...
            assert len({s.fold for s in c.layout.stages}) == 1
        assert len({s.fold for s in ref.layout.stages}) == 1


def _moe(layers=4):
    return ModelSpec(name="m", layers=layers, hidden=1024, heads=8, kv_heads=8, head_dim=128, vocab=32000,
                     ffn_hidden=0, moe=dict(experts=8, top_k=2, expert_ffn_hidden=2048))


def _registry(m):
    """The small MoE under the name of a torchtitan 0.3 registry model (qwen3's: GQA, RMSNorm, SwiGLU
    experts): the torchtitan target refuses a model its registry does not build (target.model), and these
    tests exercise its search, not its model builder."""
    return m.model_copy(update={"name": "qwen3-30b-a3b"})


def test_uniform_fold_rule_names_the_foldings():
    p = make_problem(model=_moe(), gpus=8, seq=4096, global_batch=8, **constraints("megatron").train_defaults())
    st = (Stage(index=0, layers=(0, 2), etp=1, ep=4, edp=1), Stage(index=1, layers=(2, 4), etp=1, ep=2, edp=2))
    L = Layout(world=8, tp=1, cp=1, dp=4, pp=2, micro_batch=1, num_microbatches=2, stages=st, master="bf16+fp32")
    msgs = [v for v in constraints(p.train.target).violations(L, p) if v.rule == "target.uniform_fold"]
    assert msgs and "etp1 ep2 edp2, etp1 ep4 edp1" in msgs[0]
    bundle = p.model_copy(update={"train": p.train.model_copy(update={"target": "bundle", "master": "bf16+fp32"})})
    assert not [v for v in constraints(bundle.train.target).violations(L, bundle) if v.rule.startswith("target.")]


def test_torchtitan_rules_fire_as_cited():
    p = make_problem(model=_moe(), gpus=16, seq=4096, global_batch=16, **constraints("torchtitan").train_defaults())
    # torchtitan 0.3.0 parallel_dims.py:279, 338-339: no expert TP when ep > 1 (0.2.2 also ran etp = tp);
    # tests/test_engine_torchtitan.py holds 0.3's own code to it
    assert degree_violations(p, "fold", tp=4, cp=1, dp=4, etp=2, ep=2, edp=4)
    assert degree_violations(p, "fold", tp=4, cp=1, dp=4, etp=4, ep=2, edp=2)
    assert not degree_violations(p, "fold", tp=4, cp=1, dp=4, etp=1, ep=8, edp=2)
    # ring CP only; no ZeRO-1; DDP on a 1-D mesh only; the fp32 master
    assert "target.cp_kind" in [v.rule for v in degree_violations(p, cp=2, cp_kind="ulysses")]
    assert "target.cp_kind" not in [v.rule for v in degree_violations(p, cp=2, cp_kind="ring")]
    assert degree_violations(p, sharding="zero1", tp=1, cp=1, pp=1)
    assert degree_violations(p, sharding="none", tp=2, cp=1, pp=1)
    assert not degree_violations(p, sharding="none", tp=1, cp=1, pp=1)
    assert degree_violations(p, master="bf16+fp32")
    meg = make_problem(model=_moe(), gpus=16, seq=4096 + 4, global_batch=16, **constraints("megatron").train_defaults())
    # arguments.py:1335: seq % (2 * cp) for every CP kind
    assert [v.rule for v in degree_violations(meg, cp=4)] == ["target.cp_seq"]
    assert not degree_violations(meg, cp=2)


def test_target_search_returns_runnable_plans():
    p = make_problem(model=_registry(_moe()), gpus=16, seq=8192, global_batch=16, memory_gib=6, micro_batches=(1,))
    for target in ("megatron", "torchtitan"):
        pr = _as(p, target).model_copy()
        pr = pr.model_copy(update={"train": pr.train.model_copy(update=constraints(target).train_defaults())})
        res = targets.search(pr, top=3, time_limit=10)
        assert res.plans, target
        for c in res.plans:
            broken = constraints(pr.train.target).violations(c.layout, pr)
            assert broken == [], (target, broken)
            assert c.layout.order == ENGINE_ORDER
            assert c.estimate.peak_bytes <= pr.cluster.memory_budget_gib * cm.GiB * (1 + 1e-9)
            form, why = constraints(pr.train.target).recompute_form(c.layout)
            assert why is None and form is not None


def test_recompute_forms_megatron_and_torchtitan():
    st = (Stage(index=0, layers=(0, 3), recompute_full=2, etp=1, ep=4, edp=1),
          Stage(index=1, layers=(3, 6), recompute_full=1, etp=1, ep=4, edp=1))
    L = Layout(world=8, tp=1, cp=1, dp=4, pp=2, micro_batch=1, num_microbatches=2, stages=st)
    megatron_recompute, torchtitan_recompute = constraints("megatron").recompute_form, \
        constraints("torchtitan").recompute_form
    assert megatron_recompute(L)[0] is None and "--recompute-num-layers" in megatron_recompute(L)[1]
    even = L.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_full": 2}) for s in st)})
    assert megatron_recompute(even)[0] == {"granularity": "full", "method": "block", "num_layers": 2}
    # torchtitan 0.3: FullAC (every block) or per-op SelectiveAC; one layer of each 3-layer stage (0.2's
    # "every 2nd block") it cannot say
    third = L.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_full": 1}) for s in st)})
    assert torchtitan_recompute(third)[0] is None and "every k-th block" in torchtitan_recompute(third)[1]
    every = L.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_full": 3}) for s in st)})
    assert torchtitan_recompute(every)[0] == {"mode": "full"}
    assert torchtitan_recompute(L)[0] is None


@pytest.mark.parametrize("memory_gib", [6.5, 7.0])
def test_megatron_one_recompute_form_is_searched_not_rounded(memory_gib):
    # memory where the per-stage optimum mixes full and selective recompute across the two
    # stages, which Megatron's flags cannot say: the stage model keeps to one form itself
    # (as the brute force enumerates them), so the plan is proven, and dearer than the free one
    # (the memory budgets were found under a busiest-rank load of 1.1: pinned, routing is not what this tests;
    # from 7.5 GiB on, with Megatron keeping no expert output for the routing weights, one form is as fast)
    p = make_problem(model=_registry(_moe(6)), gpus=4, seq=16384, global_batch=8, memory_gib=memory_gib, micro_batches=(1,),
                     moe_imbalance=1.1, **constraints("megatron").train_defaults())
    fix = {"order": ENGINE_ORDER, "pp": 2, "tp": 1, "cp": 1, "vpp": 1, "sharding": "zero1"}
    free = p.model_copy(update={"train": p.train.model_copy(update={"target": "bundle"})})
    loose = search_plans(free, top=1, fixed=fix, fold_filter=constraints("megatron").fold_filter(p))
    assert loose.status == "OPTIMAL" and constraints(p.train.target).recompute_form(loose.plans[0].layout)[1] is not None
    res = targets.search(p, top=1, time_limit=20, fixed=fix)
    ref = brute_force(p, where=fix, engine=constraints("megatron"))
    assert res.status == "OPTIMAL" and res.plans
    assert constraints(p.train.target).recompute_form(res.plans[0].layout)[1] is None
    # the search's fastest is of the plans Megatron can run once realised (planner.solve.targets): never
    # faster than the brute force's score, and its plan prices no dearer than the brute force's returned layout
    assert res.fastest_ns >= ref.best_ns * (1 - 1e-6)
    assert cm.evaluate(p, res.plans[0].layout).step_time <= cm.evaluate(p, ref.layout).step_time * (1 + 1e-6)
    assert ref.best_ns > loose.fastest_ns * 1.001


@pytest.mark.parametrize("memory_gib", [7.0, 8.0])   # the target's chunked loss keeps no logits
def test_torchtitan_forms_are_searched_when_the_free_plan_needs_rounding(memory_gib):
    # memory where the free per-stage optimum recomputes some blocks fully, which torchtitan's AC cannot
    # say (FullAC is every block, SelectiveAC per op in every block): the target search runs one search per
    # form, so its plan is proven; the reference is the brute force over each form's layouts
    eng = constraints("torchtitan")
    p = make_problem(model=_registry(_moe(6)), gpus=4, seq=16384, global_batch=8, memory_gib=memory_gib, micro_batches=(1,),
                     moe_imbalance=1.1, **eng.train_defaults())
    fix = {"order": ENGINE_ORDER, "pp": 2, "tp": 1, "cp": 1, "vpp": 1, "sharding": "zero2"}
    loose = search_plans(p, top=1, fixed=fix, engine=eng)
    assert loose.status == "OPTIMAL" and eng.recompute_form(loose.plans[0].layout)[1] is not None
    res = targets.search(p, top=1, time_limit=20, fixed=fix)
    assert res.status == "OPTIMAL" and res.plans
    assert eng.recompute_form(res.plans[0].layout)[1] is None
    refs = []
    for update in eng.recompute_searches(p):
        refs.append(brute_force(targets.with_train(p, update), where=fix, engine=eng).best_ns)
    assert res.fastest_ns == pytest.approx(min(r for r in refs if r is not None), rel=1e-6)
    rounded = targets.realise(p, loose.plans[0].layout, eng)          # what rounding the free plan gives
    assert rounded is None or res.plans[0].estimate.step_time <= rounded[1].step_time * (1 + 1e-9)

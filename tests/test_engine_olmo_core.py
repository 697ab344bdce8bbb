"""OLMo-core (ai2-olmo-core 3.0.0) as a target, an export and an audit source, judged by OLMo-core's
own code: every OLMo-core target plan of the test set is exported, the script's configs are built by
OLMo-core's classes, and the rank groups of the meshes its builders make (build_world_mesh for dense
models, OLMoDDPTrainModule's folded MoE meshes) equal foldplan's rank grid (planner/layout/grid.py)."""
from __future__ import annotations

import pytest

from planner import costmodel as cm
from planner.engines import ENGINES, EXPORTS, READ_FORMATS, TARGETS, constraints, export
from planner.engines.errors import ExportError
from planner.engines.judge import available, judge
from planner.layout import Layout, Stage, cp_split
from planner.layout.grid import RankGrid
from planner.plan import Plan, document
from planner.solve import targets
from planner.specs import load_model, make_problem

ENGINE = "olmo-core"
OLMO = constraints(ENGINE)
WHY = available(ENGINE)
needs_engine = pytest.mark.skipif(WHY is not None, reason=str(WHY))


def problem(model, gpus, seq, gb="4M", **over):
    from planner.specs import load_gpu
    m = load_model(model)
    return make_problem(model=m, gpus=gpus, seq=seq, global_batch=gb,
                        **{**OLMO.train_defaults(m, load_gpu("h100-sxm")), **over})


# (model, GPUs, seq, global batch): dense and MoE, 8 .. 1024 ranks; the planner's own search picks the layouts
SEARCHED = [("olmoe-1b-7b", 8, "4k", "1M"), ("llama3-8b", 8, "8k", "1M"), ("mixtral-8x7b", 64, "128k", "4M"),
            ("llama3-70b", 64, "32k", "4M"), ("qwen3-30b-a3b", 256, "32k", "8M"), ("llama3.1-405b", 1024, "128k", "16M"),
            ("mixtral-8x22b", 1024, "64k", "16M")]


def searched_plans() -> list[Plan]:
    out = []
    for model, gpus, seq, gb in SEARCHED:
        p = problem(model, gpus, seq, gb)
        res = targets.search(p, top=2, time_limit=20)
        assert res.plans, f"no olmo-core plan for {model} on {gpus}"
        out += [Plan(p, c.layout, c.estimate, {}) for c in res.plans]
    return out


def hand_plan(model, gpus, seq, gb, *, cp=1, pp=1, tp=1, kind="ring", ep=1, split=None, full=None, mb=1) -> Plan:
    """A layout the search need not pick (PP with MoE folding, selected_blocks AC), checked by the rules."""
    p = problem(model, gpus, seq, gb, memory_gib=10_000)
    dp = gpus // (tp * cp * pp)
    sizes = split or [p.model.layers // pp] * pp
    stages, first = [], 0
    for i, n in enumerate(sizes):
        stages.append(Stage(index=i, layers=(first, first + n), etp=1, ep=ep, edp=tp * cp * dp // ep,
                            recompute_full=full[i] if full else 0, recompute_selective=0))
        first += n
    u, r = cp_split(kind, cp, None)
    L = Layout(world=gpus, tp=tp, cp=cp, dp=dp, pp=pp, vpp=1, cp_kind=kind, cp_ulysses=u, cp_ring=r, micro_batch=mb,
               num_microbatches=p.train.global_batch // (dp * mb), sharding=p.train.shardings[0],
               master=p.train.master, stages=tuple(stages))
    bad = OLMO.violations(L, p)
    assert not bad, bad
    return Plan(p, L, cm.evaluate(p, L), {})


HAND = [dict(model="olmoe-1b-7b", gpus=16, seq="8k", gb="1M", cp=2, pp=2, ep=4, split=[7, 9], full=[4, 4]),
        dict(model="qwen3-30b-a3b", gpus=128, seq="32k", gb="4M", cp=4, pp=4, kind="ulysses", ep=16),
        dict(model="llama3-8b", gpus=32, seq="16k", gb="2M", tp=2, cp=2, pp=2, split=[15, 17], full=[8, 8])]


def grid_groups(plan) -> dict[str, set]:
    L = plan.layout
    grid = RankGrid(L, plan.problem.cluster.domain_used)
    out = {a: set(grid.groups(a)) for a in ("tp", "cp", "dp", "dp_cp", "pp")}
    if plan.problem.model.moe is not None:
        for a in ("ep", "edp"):
            out[a] = set().union(*(grid.groups(a, stage=s.index) for s in L.stages))
    return out


# --------------------------------------------------------------------------- the one engine list

def test_one_engine_list():
    assert "olmo-core" in ENGINES and TARGETS == ("bundle", *ENGINES) and set(EXPORTS) == {*ENGINES, "torchtitan-0.2"}
    from planner.audit.options import formats
    assert set(READ_FORMATS) <= set(formats())
    from planner.specs.types import TrainSpec
    assert TrainSpec(seq=4096, global_batch_tokens=2**20, target="olmo-core").target == "olmo-core"


# --------------------------------------------------------------------------- target rules

def test_target_excludes_what_olmo_core_cannot_run():
    p = problem("mixtral-8x7b", 64, "32k")
    seen = {v.rule for v in OLMO.degree_violations(p, tp=2, cp=1, cp_kind="ring", cp_ulysses=1)}
    assert "target.moe_tp" in seen
    seen = {v.rule for v in OLMO.degree_violations(p, cp=4, cp_kind="hybrid", cp_ulysses=2, cp_ring=2, tp=1)}
    assert "target.cp_kind" in seen
    seen = {v.rule for v in OLMO.degree_violations(p, "fold", etp=2, ep=4, edp=8, tp=1, cp=8, dp=8)}
    assert "target.etp" in seen
    # Ulysses over more ranks than Mixtral's 8 KV heads
    seen = {v.rule for v in OLMO.degree_violations(p, tp=1, cp_ulysses=16)}
    assert "target.ulysses_kv" in seen
    ds = problem("deepseek-v3", 256, "4k")
    assert "target.model" in {v.rule for v in OLMO.degree_violations(ds, world=256)}


def test_per_stage_folding_is_excluded():
    plan = hand_plan("olmoe-1b-7b", 16, "8k", "1M", cp=2, pp=2, ep=4, split=[7, 9])
    L = plan.layout
    other = L.stages[1].model_copy(update={"ep": 8, "edp": 2})
    bad = OLMO.violations(L.model_copy(update={"stages": (L.stages[0], other)}), plan.problem)
    assert "target.uniform_fold" in {v.rule for v in bad}


def test_searched_plans_keep_the_rules():
    p = problem("mixtral-8x7b", 64, "128k")
    res = targets.search(p, top=3, time_limit=20)
    assert res.plans
    for c in res.plans:
        assert not OLMO.violations(c.layout, p)
        assert c.layout.tp == 1 and c.layout.cp_kind != "hybrid" and c.layout.sharding == "zero1"
        assert {s.fold[0] for s in c.layout.stages} == {1}


# --------------------------------------------------------------------------- export refusals

def test_export_refuses_in_one_line_and_writes_nothing(tmp_path):
    plan = hand_plan("llama3-8b", 32, "16k", "2M", tp=2, cp=2, pp=2, split=[15, 17], full=[8, 8])
    L = plan.layout
    odd = (L.stages[0].model_copy(update={"recompute_full": 3}), L.stages[1])      # not every k-th block
    bad = Plan(plan.problem, L.model_copy(update={"stages": odd}), plan.estimate, {})
    out = tmp_path / "train.py"
    with pytest.raises(ExportError) as e:
        export.write(bad, ENGINE, str(out))
    assert "\n" not in str(e.value) and "olmo-core" in str(e.value) and "target.recompute" in str(e.value)
    assert not out.exists()


def test_export_names_the_version_and_its_fill_fields():
    plan = hand_plan("olmoe-1b-7b", 16, "8k", "1M", cp=2, pp=2, ep=4, split=[7, 9], full=[4, 4])
    text = export.render(plan, ENGINE)["train.py"]
    assert "ai2-olmo-core 3.0.0" in text and "FILL" in text
    compile(text, "train.py", "exec")


# --------------------------------------------------------------------------- OLMo-core's own code

@needs_engine
def test_olmo_core_accepts_every_export_and_its_meshes_equal_the_rank_grid():
    plans = searched_plans() + [hand_plan(**h) for h in HAND]
    cases = [(document([p])["plans"][0], export.render(p, ENGINE)) for p in plans]
    verdicts = judge(ENGINE, cases)
    equal = 0
    for plan, v in zip(plans, verdicts):
        L = plan.layout
        name = f"{plan.problem.model.name} x{L.world}"
        assert v["accepted"], f"{name}: {v['reason']}"
        got = v["parsed"]
        assert (got["world"], got["tp"], got["cp"], got["pp"]) == (L.world, L.tp, L.cp, L.pp), name
        assert got["seq"] == plan.problem.train.seq and got["micro_batch"] == L.micro_batch
        assert got["global_batch"] == L.dp * L.micro_batch * L.num_microbatches
        if L.cp > 1:
            assert got["cp_kind"] == L.cp_kind
        if plan.problem.model.moe is not None:
            assert got["ep"] == L.stages[0].ep and got["train_module"] == "OLMoDDPTrainModule"
        if L.pp > 1:
            assert got["split_points"] == [s.layers[0] for s in L.stages[1:]]
            assert got["parallelize"].startswith("AC applied")
        else:                  # OLMo-core's own parallelize step ran on the model (CP, TP, EP, AC)
            assert got["parallelize"].startswith("applied"), got["parallelize"]
        want = grid_groups(plan)
        have = {a: {tuple(g) for g in v["groups"][a]} for a in want}
        assert have == want, f"{name}: {[a for a in want if have[a] != want[a]]}"
        equal += 1
    assert equal == len(plans) >= 15


# --------------------------------------------------------------------------- audit: read, never run

def test_audit_reads_olmo_core_script_without_running_it(tmp_path):
    from planner.audit import detect
    path = tmp_path / "train.py"
    # a script whose execution would fail at once: the reader must not run it
    path.write_text("import olmo_core\nraise SystemExit('ran')\n" + export.render(
        hand_plan("olmoe-1b-7b", 16, "8k", "1M", cp=2, pp=2, ep=4, split=[7, 9], full=[4, 4]), ENGINE)["train.py"])
    cfg = detect.load(str(path))
    assert cfg.format == "olmo-core" and (cfg.world, cfg.cp, cfg.pp, cfg.ep, cfg.edp) == (16, 2, 2, 4, 2)


def test_audit_refuses_a_python_file_that_is_no_olmo_core_script(tmp_path):
    from planner.audit import detect
    from planner.layout.foreign import AuditParseError
    path = tmp_path / "x.py"
    path.write_text("import olmo_core\nx = 1\n")
    with pytest.raises(AuditParseError) as e:
        detect.load(str(path))
    assert "not an OLMo-core training script" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("h", HAND, ids=lambda h: f"{h['model']}-x{h['gpus']}")
def test_round_trip_export_audit(h, tmp_path):
    from planner.audit import detect
    from planner.audit.audit import run_audit
    plan = hand_plan(**h)
    (out,) = export.write(plan, ENGINE, str(tmp_path / "train.py"))
    cfg = detect.load(out)
    rep = run_audit(cfg, plan.problem, search=False)
    assert not rep.errors, [f.message for f in rep.errors]
    got, want = rep.layout, plan.layout
    for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "order", "micro_batch", "num_microbatches",
              "sharding", "master"):
        assert getattr(got, k) == getattr(want, k), k
    for a, b in zip(got.stages, want.stages):
        assert (a.layers, a.fold, a.recompute_full, a.recompute_selective) == \
               (b.layers, b.fold, b.recompute_full, b.recompute_selective)
    assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=1e-9)
    assert rep.estimate.peak_bytes == pytest.approx(plan.estimate.peak_bytes, rel=1e-9)


def test_rule_table_ids_and_start_up_rules():
    from planner.layout.rules import TABLE
    own = OLMO.rules.rules
    assert not set(own) & set(TABLE.rules)
    for r in own.values():
        assert (r.scope == "startup") == r.id.startswith("olmo-core."), r.id
        assert r.scope == "startup" or r.id.startswith("target."), r.id
    from planner.audit import detect
    from planner.engines.startup import framework_rules
    from pathlib import Path
    real = Path(__file__).resolve().parent.parent / "examples" / "audit" / "real" / "olmo_core_olmo2_7b_long_context.py"
    cfg = detect.load(str(real), gpus=32)
    assert not [f for f in framework_rules(cfg) if f.severity == "error"]
    fired = {f.rule for f in framework_rules(cfg.replace(world=36))}
    assert "olmo-core.world_divisible" in fired                 # 8 does not divide 36
    fired = {f.rule for f in framework_rules(cfg.replace(ep=8))}
    assert "olmo-core.ep_tp" in fired                           # EP beside TP 8
    fired = {f.rule for f in framework_rules(cfg.replace(tp=1, cp=2, ep=12, world=32))}
    assert "olmo-core.ep_fold" in fired                         # 12 does not divide dp x cp = 32


def random_olmo_problem(rng):
    """A random problem on the OLMo-core target: dense or MoE (sometimes a shape OLMo-core cannot build)."""
    from planner.specs import ModelSpec, load_gpu
    moe = rng.random() < 0.6
    heads = rng.choice([8, 16, 32])
    kv = rng.choice([k for k in (1, 2, 4, 8, 16) if heads % k == 0])
    hidden = heads * 128
    m = dict(name="rand", layers=rng.randint(2, 12), hidden=hidden, heads=heads, kv_heads=kv, head_dim=128,
             vocab=rng.choice([32000, 50304, 128256]), ffn_hidden=0 if moe else 4 * hidden,
             tied_embeddings=rng.random() < 0.2, norm=rng.choice(["rmsnorm"] * 5 + ["layernorm"]))
    if moe:
        m["moe"] = dict(experts=rng.choice([4, 8, 16, 64]), top_k=rng.choice([1, 2, 4]), expert_ffn_hidden=2 * hidden,
                        shared_experts=rng.choice([0, 0, 1]), shared_ffn_hidden=2 * hidden)
    spec = ModelSpec(**m)
    gpus = rng.choice([8, 16, 32, 64, 128, 256])
    return make_problem(model=spec, gpus=gpus, seq=rng.choice([4096, 16384, 65536, 131072]),
                        global_batch=rng.choice([32, 64, 128]), memory_gib=rng.choice([20, 40, 80]),
                        **OLMO.train_defaults(spec, load_gpu("h100-sxm")))


@needs_engine
def test_property_random_olmo_core_target_plans_all_run():
    import random
    rng = random.Random(2929)
    plans, refused = [], 0
    while len(plans) < 10:
        p = random_olmo_problem(rng)
        res = targets.search(p, top=1, time_limit=10)
        if not res.plans:
            refused += 1
            continue
        plans.append(Plan(p, res.plans[0].layout, res.plans[0].estimate, {}))
    verdicts = judge(ENGINE, [(document([q])["plans"][0], export.render(q, ENGINE)) for q in plans])
    for q, v in zip(plans, verdicts):
        assert v["accepted"], v["reason"]
        want = grid_groups(q)
        assert {a: {tuple(g) for g in v["groups"][a]} for a in want} == want


def test_audit_refuses_a_degree_computed_at_run_time(tmp_path):
    from planner.audit import detect
    from planner.layout.foreign import AuditParseError
    path = tmp_path / "t.py"
    path.write_text("import olmo_core\nTP = int(os.environ['TP'])\n"
                    "cfg = TransformerTrainModuleConfig(rank_microbatch_size=8192, max_sequence_length=8192,\n"
                    "    tp_config=TransformerTensorParallelConfig(degree=TP))\n")
    with pytest.raises(AuditParseError) as e:
        detect.load(str(path), gpus=8)
    assert str(e.value).startswith(f"{path}:4: tp_config degree")

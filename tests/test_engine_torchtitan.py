"""torchtitan's own code judges foldplan's torchtitan exports: 0.3.0 (`export --to torchtitan`, a
config module loaded by its ConfigManager) and 0.2.2 (`--to torchtitan-0.2`, a job TOML loaded by its
TOML loader), each through ParallelDims and its mesh on a fake process group, the model args updated
from the config, the meta-device model, the pipeline split and the parallelize function's checks
(planner/engines/torchtitan/judge.py). What an export cannot say is refused before anything is
written; the round trip export -> audit reads back the plan's layout and memory for both forms."""
import re

import pytest

from planner.audit import detect
from planner.audit.audit import run_audit
from planner.engines import export
from planner.engines.judge import available, judge
from planner.engines.torchtitan.export import render as render_toml
from planner import costmodel as cm
from planner.layout.grid import RankGrid
from test_export import TITAN, _plan

CASES = {**TITAN,
         "dense-128k-cp16": dict(model="llama3-70b", gpus=16, seq="128k", gb=1, cp=16, full=[80], sharding="zero3"),
         "deepseek-ep": dict(model="deepseek-v3", gpus=64, seq="4k", gb=64, fold=(1, 64), full=[61],
                             sharding="zero2"),
         "moe-forced": dict(model="qwen3-30b-a3b", gpus=16, seq="4k", gb=16, fold=(1, 8), full=[48],
                            sharding="zero2", routing="forced")}
# DeepSeek-V3 with CP (and PP): refused by the torchtitan target's rules (test_deepseek_cp_refused_by_target)
DEEPSEEK_CP = dict(model="deepseek-v3", gpus=64, seq="16k", gb=32, cp=2, pp=4, split=[15, 16, 15, 15],
                   fold=(1, 16), full=[15, 16, 15, 15], sharding="zero2")
# what each export refuses, and why (the engine cannot say it; each refusal is checked below)
REFUSED = {("torchtitan-0.2", "deepseek-ep"): "no multi-token prediction"}
VERSIONS = ("torchtitan", "torchtitan-0.2")
_PLANS: dict = {}


def plan_of(case):
    if case not in _PLANS:
        _PLANS[case] = _plan("torchtitan", **CASES[case])
    return _PLANS[case]


def _name(case):
    return "foldplan_" + case.replace("-", "_")


@pytest.mark.parametrize("version", VERSIONS)
def test_exports_or_refusals(version):
    """Every case exports for each version, or is refused in one line naming why (nothing written)."""
    for case in CASES:
        want = REFUSED.get((version, case))
        if want:
            with pytest.raises(export.ExportError, match=want) as e:
                export.render(plan_of(case), version, _name(case))
            assert "\n" not in str(e.value)
        else:
            files = export.render(plan_of(case), version, _name(case))
            (fname, text), = files.items()
            assert fname.endswith(".py" if version == "torchtitan" else ".toml")
            assert ("torchtitan 0.3.0" if version == "torchtitan" else "torchtitan 0.2.2") in text
            assert "FILL" in text


def _mutants() -> list:
    """Exports changed the way the engines refuse: each must be refused by the engine's own code."""
    pp3 = export.render(plan_of("dense-fsdp-full"), "torchtitan", "mut_lm")["mut_lm.py"]
    ds3 = export.render(plan_of("deepseek-ep"), "torchtitan", "mut_seq")["mut_seq.py"]
    ds_cp = ds3.replace("data_parallel_shard_degree = 64", "data_parallel_shard_degree = 32") \
        .replace("context_parallel_degree = 1", "context_parallel_degree = 2")
    return [("torchtitan", "dense-fsdp-full", {"mut_lm.py": pp3.replace("'lm_head'", "'output'")}, "in no part"),
            ("torchtitan", "dense-fsdp-full", {"mut_cg.py": pp3.replace("disable_cuda_graphs = True",
                                                                        "disable_cuda_graphs = False")},
             "CUDA graphs do not support pipeline"),
            ("torchtitan", "deepseek-ep", {"mut_seq.py": re.sub(r"seq_len = \d+", "seq_len = 32768", ds3)},
             "RoPE maximum"),
            # DeepSeek-V3 with CP, which target.mtp keeps out of torchtitan plans: 0.3 refuses its MTP with CP
            ("torchtitan", "deepseek-ep", {"mut_cp.py": ds_cp}, "MTP does not support context parallelism"),
            # and 0.2.2 refuses its CP with FlexAttention (a TOML written from a bundle plan, bypassing export)
            ("torchtitan-0.2", "deepseek-ep", render_toml(_plan("bundle", **DEEPSEEK_CP), "mut_cp"),
             "Context Parallel")]


def test_deepseek_cp_refused_by_target():
    """DeepSeek-V3 with CP (or PP) is no torchtitan plan (target.mtp), and export says why in one line."""
    with pytest.raises(AssertionError, match="MTP module"):
        _plan("torchtitan", **DEEPSEEK_CP)
    for version in VERSIONS:
        with pytest.raises(export.ExportError, match="target.mtp") as e:
            export.render(_plan("bundle", **DEEPSEEK_CP), version, "ds")
        assert "\n" not in str(e.value)


@pytest.fixture(scope="module")
def verdicts():
    """One judge run per version: every export, then the mutants."""
    out = {}
    for version in VERSIONS:
        if available(version):
            continue
        cases = [(c, export.render(plan_of(c), version, _name(c))) for c in CASES if (version, c) not in REFUSED]
        muts = [m for m in _mutants() if m[0] == version]
        got = judge(version, [(plan_of(c).to_dict(), f) for c, f in cases] +
                    [(plan_of(c).to_dict(), f) for _, c, f, _ in muts])
        out[version] = (dict(zip([c for c, _ in cases], got)), list(zip(muts, got[len(cases):])))
    return out


def _need(version):
    why = available(version)
    if why:
        pytest.skip(why)


@pytest.mark.parametrize("version", VERSIONS)
def test_every_export_accepted_by_the_engine(version, verdicts):
    _need(version)
    accepted, _ = verdicts[version]
    for case, v in accepted.items():
        assert v["accepted"], (case, v["reason"])
        assert v["engine"] == ("torchtitan 0.3.0" if version == "torchtitan" else "torchtitan 0.2.2")
        p, L = v["parsed"], plan_of(case).layout
        s0, model = L.stages[0], plan_of(case).problem.model
        dp_shard = 1 if L.sharding == "none" else L.dp
        assert (p["dp_replicate"] * p["dp_shard"], p["dp_shard"], p["tp"], p["cp"], p["pp"]) == \
               (L.dp, dp_shard, L.tp, L.cp, L.pp), case
        assert p["ep"] == (s0.ep if model.moe else 1) and p["vpp"] == L.vpp, case
        assert p.get("stage_layers", [model.layers]) == [s.num_layers for s in L.stages], case
        assert (p["layers"], p["dim"], p["seq"]) == (model.layers, model.hidden, plan_of(case).problem.train.seq)
        assert (p["heads"], p["kv_heads"]) == (model.heads, model.kv_heads), case
        assert p["experts"] == (model.moe.experts if model.moe else None), case
        if version == "torchtitan":
            # the model torchtitan built runs FlexAttention, whose CP all-gathers K/V (api.py:57-78): what the
            # plan priced (cp_comm ag-flex, attention kernel flex), with the load balancer the plan names
            assert p["attention"].startswith("FlexAttention"), (case, p["attention"])
            assert plan_of(case).problem.train.attention_kernel == "flex"
            if L.cp > 1:
                assert L.cp_comm == "ag-flex" and p["cp_load_balancer"] == "headtail", case
        _groups_match(case, v["groups"])


def _groups_match(case, groups):
    """torchtitan's mesh groups through rank 0 equal foldplan's rank grid: tp, cp, pp, ep, and its
    loss group (dp_replicate x dp_shard x cp, the ranks reducing dense gradients) as foldplan's dp_cp."""
    L = plan_of(case).layout
    grid = RankGrid(L, plan_of(case).problem.cluster.domain_used)
    ours = {"tp": "tp", "cp": "cp", "pp": "pp", "ep": "ep", "loss": "dp_cp"}
    for theirs, axis in ours.items():
        size = len(grid.group(axis, 0).ranks)
        if size > 1:
            assert sorted(groups[theirs]) == sorted(grid.group(axis, 0).ranks), (case, theirs, groups[theirs])


@pytest.mark.parametrize("version", VERSIONS)
def test_engine_refuses_what_the_export_avoids(version, verdicts):
    _need(version)
    _, muts = verdicts[version]
    assert muts
    for (_, case, _, why), v in muts:
        assert not v["accepted"] and why in v["reason"], (case, v["reason"])


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_round_trip_reads_back_layout_and_memory(version, case, tmp_path):
    if (version, case) in REFUSED:
        pytest.skip("refused by this export (test_exports_or_refusals)")
    plan = plan_of(case)
    suffix = ".py" if version == "torchtitan" else ".toml"
    path, = export.write(plan, version, str(tmp_path / (_name(case) + suffix)))
    cfg = detect.load(path)
    assert any(("0.3 config module" if version == "torchtitan" else "0.2 job TOML") in a for a in cfg.assumed)
    rep = run_audit(cfg, plan.problem, search=False)
    assert not rep.errors, [f.message for f in rep.errors]
    got, want = rep.layout, plan.layout
    for k in ("world", "tp", "cp", "dp", "pp", "vpp", "micro_batch", "num_microbatches", "sharding"):
        assert getattr(got, k) == getattr(want, k), (k, getattr(got, k), getattr(want, k))
    # 0.3 runs every language model's CP as FlexAttention with K/V all-gathered (no rotate method: the
    # audit reads torch's default, allgather) and prices it as the plan did (cp_comm ag-flex); 0.2's
    # TOML says alltoall, SDPA's p2p ring, which the audit prices as such
    assert cfg.cp_kind == (None if want.cp == 1 else "allgather" if version == "torchtitan" else "ring")
    assert [s.layers for s in got.stages] == [s.layers for s in want.stages]
    if want.cp > 1:
        assert got.cp_comm == (want.cp_comm if version == "torchtitan" else "p2p")
        assert want.cp_comm == "ag-flex"
    # the plan's estimate, or, where the config runs another CP implementation or loss (0.2's TOML has no
    # chunked loss: its logits are upcast whole), the plan's layout with it
    t = plan.problem.train
    problem = plan.problem if rep.problem.train.loss_logits == t.loss_logits else plan.problem.model_copy(
        update={"train": type(t)(**{**t.model_dump(), "loss_logits": rep.problem.train.loss_logits})})
    est = plan.estimate if got.cp_comm == want.cp_comm and problem is plan.problem else \
        cm.evaluate(problem, want.model_copy(update={"cp_comm": got.cp_comm}))
    assert rep.estimate.peak_bytes == pytest.approx(est.peak_bytes, rel=0.01)
    assert rep.estimate.step_time == pytest.approx(est.step_time, rel=0.01)


USER_03 = """import os
from torchtitan.models.llama3.config_registry import llama3_70b
from torchtitan.models.llama3 import model_registry
from torchtitan.components.quantization import Float8LinearConverter
from torchtitan.distributed.activation_checkpoint import SelectiveAC

os.system("touch {marker}")   # never run: the audit reads the tree


def my_job():
    config = llama3_70b()
    config.model_spec = model_registry("70B", converters=[Float8LinearConverter.Config()])
    config.parallelism.context_parallel_degree = 2
    config.training.seq_len = 8192
    config.training.local_batch_size = 1
    config.activation_checkpoint = SelectiveAC.Config()
    return config
"""


def test_reads_a_user_03_module_without_running_it(tmp_path):
    """A hand-written 0.3 config module: its registry function's own settings (llama3_70b sets
    tensor_parallel_degree 8) read from torchtitan's source when installed, the file's own lines on top,
    its float8 converter read as the precision (0.3's Float8LinearConverter: rowwise by default); nothing in
    it runs."""
    marker = tmp_path / "ran"
    path = tmp_path / "job.py"
    path.write_text(USER_03.format(marker=marker))
    cfg = detect.load(str(path), world=64)
    assert not marker.exists()
    assert cfg.format == "torchtitan" and cfg.model_name == "llama3:70B"
    assert (cfg.cp, cfg.seq, cfg.recompute, cfg.recompute_modules) == (2, 8192, "selective", ("op",))
    assert cfg.extra["precision"] == "fp8-rowwise" and not any("converters" in e[0] for e in cfg.effects)
    assert cfg.cp_kind == "allgather"                 # torch's default rotate method: 0.3 sets none
    if available("torchtitan") is None:               # the registry function read from torchtitan's source
        assert cfg.tp == 8 and cfg.dp == 64 // 16 and cfg.sharding == "zero3"
    else:
        assert any("not read" in a for a in cfg.assumed)


def test_a_non_literal_03_value_is_one_line(tmp_path):
    path = tmp_path / "job.py"
    path.write_text(USER_03.format(marker=tmp_path / "x").replace("seq_len = 8192", "seq_len = SEQ"))
    with pytest.raises(Exception) as e:
        detect.load(str(path), world=64)
    assert str(e.value).count("\n") == 0 and "job.py:14" in str(e.value) and "training.seq_len" in str(e.value)


def test_02_toml_unmodelled_settings_and_cp_sharding(tmp_path):
    """0.2: the loss compiled and async TP are named as what the estimate does not model, the float8
    converter is read as the precision (tensorwise without a recipe name); FSDP spans dp_shard x cp, so dp_shard 1 with cp 16 is sharded (zero3), not DDP."""
    path = tmp_path / "job.toml"
    path.write_text("[model]\nname = \"llama3\"\nflavor = \"70B\"\nconverters = [\"float8\"]\n"
                    "[training]\nseq_len = 131072\nlocal_batch_size = 1\n"
                    "[parallelism]\ndata_parallel_shard_degree = 1\ncontext_parallel_degree = 16\n"
                    "enable_async_tensor_parallel = true\n[compile]\nenable = true\n")
    cfg = detect.load(str(path))
    assert cfg.sharding == "zero3" and cfg.world == 16
    named = " ".join(e[0] for e in cfg.effects)
    for what in ("compile.components loss", "enable_async_tensor_parallel"):
        assert what in named
    assert cfg.extra["precision"] == "fp8-tensorwise" and "converters" not in named
    assert any("0.2 job TOML" in a for a in cfg.assumed)


def test_the_03_audit_fixture_is_one_torchtitan_accepts():
    """examples/audit/torchtitan_llama3_70b_03.py: the audit reads what torchtitan 0.3's own loader
    and checks make of it (degrees, seq), on 64 GPUs."""
    _need("torchtitan")
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "examples" / "audit" / "torchtitan_llama3_70b_03.py"
    v, = judge("torchtitan", [({"layout": {"world": 64}}, {path.name: path.read_text()})])
    assert v["accepted"], v["reason"]
    cfg = detect.load(str(path), world=64)
    p = v["parsed"]
    assert (cfg.tp, cfg.cp, cfg.pp, cfg.dp, cfg.seq) == (p["tp"], p["cp"], p["pp"], p["dp_replicate"] * p["dp_shard"],
                                                         p["seq"])


@pytest.mark.full_matrix      # tests/test_engine_property.py draws torchtitan plans in the default run
def test_random_target_plans_export_and_the_engine_accepts_them():
    """Random problems planned with --target torchtitan (seeded): each plan exports for both releases
    (or 0.3 refuses it in one line, counted) and the engine's own code accepts every export."""
    import random
    from planner.engines import constraints
    from planner.plan import from_search
    from planner.solve import targets
    from planner.specs import make_problem
    rng, plans = random.Random(7), []
    while len(plans) < 8:
        m = rng.choice(["llama3-8b", "llama3-70b", "llama3.1-405b", "qwen3-30b-a3b"])
        gpus = rng.choice([16, 32, 64] if m == "llama3.1-405b" else [8, 16, 32, 64])
        pr = make_problem(model=m, gpus=gpus, seq=rng.choice([4096, 8192, 16384]),
                          global_batch=rng.choice([32, 64, 128]), **constraints("torchtitan").train_defaults())
        plans += from_search(pr, targets.search(pr, top=1, time_limit=30))[:1]
    for version in VERSIONS:
        files = []
        for i, p in enumerate(plans):
            try:
                files.append((p, export.render(p, version, f"prop_{i}")))
            except export.ExportError as e:
                assert version == "torchtitan" and "\n" not in str(e)
        assert len(files) >= len(plans) // 2
        if available(version):
            continue
        for (p, _), v in zip(files, judge(version, [(p.to_dict(), f) for p, f in files])):
            assert v["accepted"], (version, p.problem.model.name, p.layout.to_dict(), v["reason"])

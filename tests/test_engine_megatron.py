"""Megatron-LM's own code judges foldplan's Megatron exports (planner/engines/megatron/judge.py): its
parse_args, validate_args, TransformerConfig and initialize_model_parallel (fake process group) accept
every export of tests/megatron_cases.py, read back the planned degrees, recompute and model shape, and
build exactly foldplan's rank grid. All cases go to one child process (megatron imports take ~10 s)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from planner.engines import constraints, export
from planner.engines.judge import available, judge
from planner.layout.grid import RankGrid

sys.path.insert(0, str(Path(__file__).resolve().parent))
import megatron_cases as mc  # noqa: E402

WHY = available("megatron")
needs_megatron = pytest.mark.skipif(WHY is not None, reason=WHY or "")


def _rules(**kw) -> set:
    p = mc.make(check=False, **kw)
    return {v.rule for v in constraints("megatron").violations(p.layout, p.problem)}


def test_a2a_cp_needs_local_heads_divisible():
    # llama3-8b: 32 heads, 8 kv groups; tp 2 leaves 4 kv heads per rank: a2a over 8 cannot split them
    assert "target.cp_a2a_heads" in _rules(model="llama3-8b", gpus=16, seq="16k", gb=16, tp=2, cp=8, kind="ulysses")
    assert "target.cp_a2a_heads" not in _rules(model="llama3-8b", gpus=16, seq="16k", gb=16, tp=2, cp=4,
                                               kind="ulysses")
    # hybrid: only the Ulysses part splits heads
    assert "target.cp_a2a_heads" not in _rules(model="llama3-8b", gpus=16, seq="16k", gb=16, tp=2, cp=8,
                                               kind="hybrid", cu=4)
    # fewer kv groups than tp: one kv head per rank (attention.py:353-360), so no a2a at all
    assert "target.cp_a2a_heads" in _rules(model="llama3-8b", gpus=32, seq="16k", gb=16, tp=16, cp=2,
                                           kind="ulysses")


def test_megatron_fsdp_with_tp_or_cp_only_from_blackwell():
    kw = dict(model="llama3-8b", gpus=16, seq="8k", gb=16, tp=2, sharding="zero3")
    assert "target.fsdp_tp_cp" in _rules(**kw)
    assert "target.fsdp_tp_cp" not in _rules(**kw, gpu="b200")
    assert "target.fsdp_tp_cp" not in _rules(**{**kw, "sharding": "zero1"})
    assert "target.fsdp_tp_cp" not in _rules(**{**kw, "tp": 1})


FILLED = {"DATA_PATH": "/data/corpus_text_document", "CHECKPOINT_DIR": "/ckpt/run1", "TRAIN_ITERS": "1000",
          "LR": "3e-4", "MEGATRON": "/opt/Megatron-LM"}
LAUNCHED = ("deepseek-v3-pp8-mtp", "llama3-8b-a100-tp4", "qwen3-30b-b200-cp-a2a")


def launch(files: dict, where: Path, env: dict) -> subprocess.CompletedProcess:
    """bash runs the launch script with a `torchrun` on PATH that prints the arguments it is given."""
    where.mkdir(parents=True, exist_ok=True)
    fake = where / "torchrun"
    fake.write_text('#!/bin/bash\nprintf "%s\\n" "$@"\n')
    fake.chmod(0o755)
    script = where / "train.sh"
    script.write_text(files["train.sh"])
    return subprocess.run(["bash", str(script)], env={"PATH": f"{where}:{os.environ['PATH']}", **env},
                          capture_output=True, text=True)


def launched_argv(files: dict, where: Path) -> list[str]:
    """What the launch script hands pretrain_gpt.py once the FILL IN values are set."""
    r = launch(files, where, FILLED)
    assert r.returncode == 0, r.stderr
    words = r.stdout.split("\n")
    return [w for w in words[words.index(FILLED["MEGATRON"] + "/pretrain_gpt.py") + 1:] if w]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    plans = mc.plans()
    cases = [mc.payload(p, export.render(p, "megatron")) for p in plans.values()]
    # the launch scripts as bash expands them, training settings filled in: the whole command line
    for name in LAUNCHED:
        files = export.render(plans[name], "megatron")
        argv = launched_argv(files, tmp_path_factory.mktemp(name))
        cases.append(mc.payload(plans[name], {"train.args": "\n".join(argv), "train.sh": files["train.sh"]}))
    # the engine can refuse: the same export without the environment Megatron requires for tp > 1
    # property: random problems planned with --target megatron (tests/test_solver.py's draw)
    drawn = mc.random_target_plans(2029, 6)
    cases += [mc.payload(q, export.render(q, "megatron")) for q in drawn.values()]
    p = plans["llama3-8b-a100-tp4"]
    files = export.render(p, "megatron")
    stripped = {n: t.replace("export CUDA_DEVICE_MAX_CONNECTIONS=1\n", "") for n, t in files.items()}
    assert stripped != files
    out = judge("megatron", cases + [mc.payload(p, stripped)])
    n, k = len(plans), len(LAUNCHED)
    return plans, out[:n], out[-1], out[n:n + k], (drawn, out[n + k:-1])


def _foldplan_groups(L, gpn) -> dict:
    g = RankGrid(L, gpn)
    out = {a: g.groups(a) for a in ("tp", "cp", "pp", "dp", "dp_cp")}
    for a in ("ep", "etp", "edp"):
        out[a] = sorted({grp for s in L.stages for grp in g.groups(a, s.index)})
    return {a: sorted(list(x) for x in v) for a, v in out.items()}


@needs_megatron
def test_every_export_accepted(verdicts):
    plans, got, _, _, _ = verdicts
    refused = {n: v["reason"] for n, v in zip(plans, got) if not v["accepted"]}
    assert not refused, refused
    assert all(v["engine"] == "megatron-core 0.19.2" for v in got)


@needs_megatron
def test_engine_reads_the_plan(verdicts):
    plans, got, _, _, _ = verdicts
    for (name, plan), v in zip(plans.items(), got):
        L, m, r = plan.layout, plan.problem.model, v["parsed"]
        s0 = L.stages[0]
        want = dict(tp=L.tp, cp=L.cp, pp=L.pp, vpp=L.vpp, dp=L.dp, world=L.world, layers=m.layers,
                    hidden=m.hidden, heads=m.heads, seq=plan.problem.train.seq, micro_batch=L.micro_batch,
                    global_batch=L.dp * L.micro_batch * L.num_microbatches, position_embedding="rope",
                    mtp_layers=m.mtp_layers)
        if m.moe is not None:
            t = plan.problem.train
            want.update(ep=s0.ep, etp=s0.etp, edp=s0.edp, experts=m.moe.experts, moe_grouped_gemm=True,
                        routing={"forced": t.routing == "forced", "capacity_factor": t.capacity_factor,
                                 "pad": t.capacity_pad})
        if m.attention != "mla":
            want["kv_groups"] = m.kv_heads
        assert {k: r[k] for k in want} == want, name
        full, sel = any(s.recompute_full for s in L.stages), any(s.recompute_selective for s in L.stages)
        assert r["recompute"]["granularity"] == ("full" if full else "selective" if sel else None), name
        if sel:
            assert sorted(r["recompute"]["modules"]) == sorted(s0.recompute_modules), name
        fsdp = {"zero2": "optim_grads", "zero3": "optim_grads_params"}.get(L.sharding)
        assert r["sharding"] == {"distributed_optimizer": L.sharding != "none", "megatron_fsdp": fsdp}, name
        want_kind = {"ring": "p2p", "ulysses": "a2a", "hybrid": "a2a+p2p"}[L.cp_kind] if L.cp > 1 else "p2p"
        if L.cp > 1 and L.cp_comm == "ag-te":      # TE's all-gather CP (transformer_config.py:987-995)
            want_kind = "allgather"
        assert r["cp_comm_type"] in (want_kind, [want_kind], None if L.cp == 1 else want_kind), name


@needs_megatron
def test_megatron_rank_groups_are_foldplans_grid(verdicts):
    plans, got, _, _, _ = verdicts
    for (name, plan), v in zip(plans.items(), got):
        mine = _foldplan_groups(plan.layout, plan.problem.cluster.domain_used)
        theirs = v["groups"]
        axes = ("tp", "cp", "pp", "dp", "dp_cp") + (("ep", "etp", "edp") if plan.problem.model.moe else ())
        for a in axes:
            assert theirs[a] == mine[a], (name, a)
            assert sum(map(len, theirs[a])) == plan.layout.world, (name, a)   # every rank, once


@needs_megatron
def test_the_engine_refuses_in_its_own_words(verdicts):
    _, _, refused, _, _ = verdicts
    assert not refused["accepted"]
    assert "CUDA_DEVICE_MAX_CONNECTIONS" in refused["reason"] and refused["reason"].startswith("validate_args")


@needs_megatron
def test_launch_script_command_line_accepted(verdicts):
    """The launch script's full command line (flags + the filled-in training settings, as bash expands
    them) passes Megatron's checks too, and says the same layout as the argument file."""
    plans, got, _, launched, _ = verdicts
    by_name = dict(zip(plans, got))
    for name, v in zip(LAUNCHED, launched):
        assert v["accepted"], (name, v["reason"])
        assert v["parsed"] == by_name[name]["parsed"], name
        assert v["groups"] == by_name[name]["groups"], name


def test_launch_script_refuses_without_the_training_settings(tmp_path):
    p = mc.make(**mc.CASES["llama3-8b-fsdp"])
    files = export.render(p, "megatron")
    r = launch(files, tmp_path, {k: v for k, v in FILLED.items() if k != "DATA_PATH"})
    assert r.returncode != 0 and "FILL IN DATA_PATH" in r.stderr and not r.stdout


@needs_megatron
def test_random_target_plans_accepted(verdicts):
    """Every plan the search makes for --target megatron on random problems is one Megatron runs, with
    foldplan's rank grid."""
    drawn, got = verdicts[4]
    assert len(drawn) >= 6
    for (name, plan), v in zip(drawn.items(), got):
        assert v["accepted"], (name, v["reason"])
        mine = _foldplan_groups(plan.layout, plan.problem.cluster.domain_used)
        for a in ("tp", "cp", "pp", "dp", "dp_cp"):
            assert v["groups"][a] == mine[a], (name, a)

"""`foldplan export`: Megatron-LM flags and torchtitan TOML read back by the audit give the
plan's own layout (degrees, per-stage layers and folding, recompute, sharding, schedule)
and its estimate (step time within 1%); what an engine cannot run is refused in one line.

Megatron's own code judges the Megatron exports in tests/test_engine_megatron.py; the torchtitan TOML is
re-checked here against ParallelDims._validate as cited (`_titan_checks`)."""
import tomllib

import pytest

from planner import cli
from planner.engines import constraints, export
from planner.engines.torchtitan.recompute import SAC
from planner import costmodel as cm
from planner.audit import detect
from planner.audit.audit import run_audit
from planner.layout import Layout, Stage, cp_split
from planner.plan import Plan
from planner.specs import make_problem

import megatron_cases


def _plan(target, model, gpus, seq, gb, **kw):
    return megatron_cases.make(model, gpus, seq, gb, target=target, **kw)


MEGATRON = megatron_cases.EXPORT_SUITE      # the four Megatron plans (tests/megatron_cases.py holds them once)
TITAN = {
    "dense-fsdp-full": dict(model="llama3-8b", gpus=16, seq="8k", gb=32, tp=2, pp=2, split=[15, 17], full=[15, 17],
                            sharding="zero3"),
    "moe-ring-full": dict(model="qwen3-30b-a3b", gpus=32, seq="16k", gb=32, cp=2, pp=2, vpp=2, split=[22, 26],
                          fold=(1, 16), full=[22, 26], sharding="zero2"),
    "moe-tp-ep-op": dict(model="qwen3-30b-a3b", gpus=16, seq="8k", gb=16, tp=2, fold=(1, 8), sel=True,
                         mods=SAC, sharding="zero3"),
    "dense-ddp": dict(model="llama3-8b", gpus=8, seq="4k", gb=16, sharding="none"),
}


def _round_trip(plan, target, tmp_path):
    files = export.write(plan, target, str(tmp_path / ("train.sh" if target == "megatron" else "train.toml")))
    # the Megatron argument file holds its pipeline layout unquoted (`E,t*6|t*9...`, so that the launch
    # script can read it word by word); the audit reads such files once its shell reader takes an unquoted
    # `|` in an args file (issue 29, part 6) -- until then the round trip reads the launch script
    for path in [f for f in files if not f.endswith(".args")]:
        cfg = detect.load(path, world=plan.layout.world if path.endswith(".args") else None)
        rep = run_audit(cfg, plan.problem, search=False)
        assert not rep.errors, [f.message for f in rep.errors]
        got, want = rep.layout, plan.layout
        for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "order", "micro_batch",
                  "num_microbatches", "sharding", "master"):
            assert getattr(got, k) == getattr(want, k), (path, k, getattr(got, k), getattr(want, k))
        for a, b in zip(got.stages, want.stages):
            assert (a.layers, a.fold, a.recompute_full, a.recompute_selective) == \
                   (b.layers, b.fold, b.recompute_full, b.recompute_selective), path
            if b.recompute_selective:
                assert a.recompute_modules == b.recompute_modules
        # the plan's estimate; where the config's loss keeps the logits otherwise (torchtitan 0.2's TOML has no
        # chunked loss: its logits are upcast whole), the plan's layout under that loss
        t, loss = plan.problem.train, rep.problem.train.loss_logits
        est = plan.estimate if loss == t.loss_logits else cm.evaluate(
            plan.problem.model_copy(update={"train": type(t)(**{**t.model_dump(), "loss_logits": loss})}), plan.layout)
        assert rep.estimate.step_time == pytest.approx(est.step_time, rel=0.01)
        assert rep.estimate.peak_bytes == pytest.approx(est.peak_bytes, rel=0.01)
    return files


@pytest.mark.parametrize("case", sorted(MEGATRON))
def test_megatron_round_trip(case, tmp_path):
    plan = _plan("megatron", **MEGATRON[case])
    _round_trip(plan, "megatron", tmp_path)      # Megatron's own checks: tests/test_engine_megatron.py


@pytest.mark.parametrize("case", sorted(TITAN))
def test_torchtitan_round_trip(case, tmp_path):
    plan = _plan("torchtitan", **TITAN[case])
    files = _round_trip(plan, "torchtitan-0.2", tmp_path)      # 0.3's config module: test_engine_torchtitan.py
    _titan_checks(tomllib.loads(open(files[0]).read()), plan)


def _titan_checks(doc, plan):
    """torchtitan ParallelDims._validate (parallel_dims.py:35-59 at 238fa99) on the TOML's degrees."""
    par = doc["parallelism"]
    rep, shard = par["data_parallel_replicate_degree"], par["data_parallel_shard_degree"]
    tp, cp, pp = par["tensor_parallel_degree"], par["context_parallel_degree"], par["pipeline_parallel_degree"]
    assert rep * shard * cp * tp * pp == plan.layout.world                      # :53-56
    ep, etp = par.get("expert_parallel_degree", 1), par.get("expert_tensor_parallel_degree", 1)
    if ep > 1:
        assert etp in (1, tp)                                                   # :58-59
    assert (shard * cp * tp) % (etp * ep) == 0                                  # the efsdp mesh size (:137)
    if rep > 1 and shard == 1:
        assert tp * cp * pp == 1                     # llama3/infra/parallelize.py:148-151 (DDP is 1-D)
    assert doc["activation_checkpoint"]["mode"] in ("none", "selective", "full", "memory_budget")
    if pp > 1:
        parts = par["module_fqns_per_model_part"]
        assert len(parts) % pp == 0 and parts[0][0] == "tok_embeddings" and parts[-1][-2:] == ["norm", "output"]
        assert doc["training"]["local_batch_size"] % par["pipeline_parallel_microbatch_size"] == 0


def test_refusals_name_what_the_engine_cannot_say(tmp_path, capsys):
    # a model torchtitan 0.3's registry builds, so that the folding is what it refuses
    bundle = make_problem(model="qwen3-30b-a3b", gpus=8, seq="8k", global_batch=16, memory_gib=10_000,
                          **constraints("bundle").train_defaults())
    st = (Stage(index=0, layers=(0, 24), etp=1, ep=8, edp=1), Stage(index=1, layers=(24, 48), etp=1, ep=4, edp=2))
    L = Layout(world=16, tp=1, cp=1, dp=8, pp=2, micro_batch=1, num_microbatches=2, stages=st, master="fp32",
               sharding="zero2")
    bundle = bundle.model_copy(update={"cluster": bundle.cluster.model_copy(update={"gpus": 16})})
    plan = Plan(bundle, L, cm.evaluate(bundle, L), {})
    with pytest.raises(export.ExportError, match="one expert folding for all stages"):
        export.render(plan, "torchtitan")
    with pytest.raises(export.ExportError, match="master"):
        export.render(plan, "megatron")
    # a model torchtitan has no flavour of: the torchtitan target plans none (target.model), and a plan
    # made for another target is refused by the export with the same line
    with pytest.raises(AssertionError, match="no torchtitan flavour"):
        _plan("torchtitan", model="mixtral-8x7b", gpus=8, seq="4k", gb=8, fold=(1, 8), sharding="zero3")
    mix = _plan("bundle", model="mixtral-8x7b", gpus=8, seq="4k", gb=8, fold=(1, 8), sharding="zero3")
    with pytest.raises(export.ExportError, match="model mixtral-8x7b has no torchtitan flavour"):
        export.render(mix, "torchtitan")
    # through the CLI: one line, exit 2, nothing written
    path = tmp_path / "plan.json"
    from planner import plan as planmod
    path.write_text(planmod.dumps([mix]))
    out = tmp_path / "t.toml"
    rc = cli.main(["export", str(path), "--to", "torchtitan", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == cli.EXIT_INPUT and err.count("\n") == 1 and "no torchtitan flavour" in err
    assert not out.exists()


@pytest.mark.parametrize("case", sorted(MEGATRON))
def test_megatron_argument_file_reads_word_by_word(case, tmp_path):
    """train.args needs no shell: `$(cat train.args)`, as bash expands it, gives the words the launch script
    passes for the planned flags (no quotes, no comments); the launch environment and the FILL IN block
    are in the script, which names the engine version."""
    import shlex
    import subprocess
    plan = _plan("megatron", **MEGATRON[case])
    files = export.render(plan, "megatron")
    args, script = files["train.args"], files["train.sh"]
    (tmp_path / "train.args").write_text(args)
    words = subprocess.run(["bash", "-c", 'printf "%s\\n" $(cat train.args)'], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert words == args.split() and "#" not in args
    launch = shlex.split(script[script.index('"$MEGATRON/pretrain_gpt.py"'):].replace("\\\n", " "))
    assert launch[1:1 + len(words)] == words
    assert "megatron-core 0.19.2" in script.splitlines()[1]
    assert ': "${DATA_PATH:?FILL IN' in script
    L = plan.layout
    wants_env = (L.tp > 1 or L.cp > 1) and L.sharding not in ("zero2", "zero3")
    assert ("export CUDA_DEVICE_MAX_CONNECTIONS=1" in script) == wants_env


def test_export_out_onto_existing_files_needs_force(tmp_path, capsys):
    from planner import plan as planmod
    plan = _plan("megatron", **MEGATRON["moe-ring-none"])
    path = tmp_path / "plan.json"
    path.write_text(planmod.dumps([plan]))
    out = tmp_path / "job.sh"
    assert cli.main(["export", str(path), "--to", "megatron", "--out", str(out)]) == cli.EXIT_OK
    first = out.read_text()
    (tmp_path / "job.args").write_text("mine\n")
    capsys.readouterr()
    rc = cli.main(["export", str(path), "--to", "megatron", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == cli.EXIT_INPUT and err.count("\n") == 1 and "--force" in err and "job.args" in err
    assert (tmp_path / "job.args").read_text() == "mine\n" and out.read_text() == first   # nothing written
    assert cli.main(["export", str(path), "--to", "megatron", "--out", str(out), "--force"]) == cli.EXIT_OK
    assert (tmp_path / "job.args").read_text() != "mine\n" and "--num-layers" in (tmp_path / "job.args").read_text()


def test_export_out_naming_the_side_file_is_refused(tmp_path, capsys):
    """--out train.args would write the launch script there and then the argument file over it."""
    from planner import plan as planmod
    plan = _plan("megatron", **MEGATRON["moe-ring-none"])
    path = tmp_path / "plan.json"
    path.write_text(planmod.dumps([plan]))
    out = tmp_path / "train.args"
    assert cli.main(["export", str(path), "--to", "megatron", "--out", str(out)]) == cli.EXIT_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out " + str(tmp_path / "train.sh") in err
    assert not out.exists() and not (tmp_path / "train.sh").exists()

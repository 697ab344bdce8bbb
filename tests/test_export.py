"""`foldplan export`: Megatron-LM flags and torchtitan TOML read back by the audit give the
plan's own layout (degrees, per-stage layers and folding, recompute, sharding, schedule)
and its estimate (step time within 1%); what an engine cannot run is refused in one line.

The exported files are also re-checked against the engine's own validation rules as cited
(neither engine is pip-installable here without its GPU stack): Megatron's arguments.py
checks in `_megatron_checks`, torchtitan's ParallelDims._validate in `_titan_checks`."""
import tomllib

import pytest

from planner import cli
from planner.engines import constraints, export
from planner.engines.torchtitan.recompute import SAC
from planner import costmodel as cm
from planner.audit import detect
from planner.audit.audit import run_audit
from planner.engines.megatron.pplayout import parse as parse_pp_layout
from planner.layout import Layout, Stage, cp_split
from planner.plan import Plan
from planner.specs import make_problem


def _plan(target, model, gpus, seq, gb, *, tp=1, cp=1, pp=1, vpp=1, kind="ring", cu=None, fold=None, split=None,
          sharding="zero1", mb=1, full=None, sel=None, mods=("core_attn",)):
    p = make_problem(model=model, gpus=gpus, seq=seq, global_batch=gb, memory_gib=10_000,
                     **constraints(target).train_defaults())
    dp = gpus // (tp * cp * pp)
    sizes = split or [p.model.layers // pp + (1 if i < p.model.layers % pp else 0) for i in range(pp)]
    etp, ep = fold or (1, 1)
    stages, first = [], 0
    for i, n in enumerate(sizes):
        stages.append(Stage(index=i, layers=(first, first + n), etp=etp, ep=ep, edp=tp * cp * dp // (etp * ep),
                            recompute_full=full[i] if full else 0, recompute_selective=n if sel else 0,
                            recompute_modules=mods))
        first += n
    u, r = cp_split(kind, cp, cu)
    L = Layout(world=gpus, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp, cp_kind=kind, cp_ulysses=u, cp_ring=r,
               micro_batch=mb, num_microbatches=p.train.global_batch // (dp * mb), sharding=sharding,
               master=p.train.master, stages=tuple(stages))
    bad = constraints(p.train.target).violations(L, p)
    assert not bad, bad
    return Plan(p, L, cm.evaluate(p, L), {})


MEGATRON = {
    "dense-uneven-vpp-selective": dict(model="llama3-8b", gpus=32, seq="16k", gb=32, tp=2, cp=2, pp=4, vpp=2,
                                       split=[6, 9, 9, 8], sel=True, mods=("core_attn", "layernorm", "mlp"),
                                       sharding="zero1"),
    "moe-ulysses-full-block": dict(model="mixtral-8x7b", gpus=64, seq="32k", gb=32, tp=2, cp=4, pp=2,
                                   kind="ulysses", fold=(1, 8), split=[15, 17], full=[3, 3], sharding="zero2"),
    "moe-hybrid-zero3-moe_act": dict(model="olmoe-1b-7b", gpus=16, seq="32k", gb=16, cp=8, kind="hybrid", cu=2,
                                     fold=(1, 8), sel=True, mods=("moe_act", "layernorm"), sharding="zero3"),
    "moe-ring-none": dict(model="olmoe-1b-7b", gpus=16, seq="8k", gb=32, cp=2, pp=2, fold=(1, 4), split=[7, 9],
                          sharding="none", mb=2),
}
TITAN = {
    "dense-fsdp-full": dict(model="llama3-8b", gpus=16, seq="8k", gb=32, tp=2, pp=2, split=[15, 17], full=[15, 17],
                            sharding="zero3"),
    "moe-ring-every-2nd": dict(model="qwen3-30b-a3b", gpus=32, seq="16k", gb=32, cp=2, pp=2, vpp=2, split=[22, 26],
                               fold=(1, 16), full=[11, 13], sharding="zero2"),
    "moe-etp-tp-op": dict(model="qwen3-30b-a3b", gpus=16, seq="8k", gb=16, tp=2, fold=(2, 4), sel=True,
                          mods=SAC, sharding="zero3"),
    "dense-ddp": dict(model="llama3-8b", gpus=8, seq="4k", gb=16, sharding="none"),
}


def _round_trip(plan, target, tmp_path):
    files = export.write(plan, target, str(tmp_path / ("train.sh" if target == "megatron" else "train.toml")))
    for path in files:
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
        assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=0.01)
        assert rep.estimate.peak_bytes == pytest.approx(plan.estimate.peak_bytes, rel=0.01)
    return files


@pytest.mark.parametrize("case", sorted(MEGATRON))
def test_megatron_round_trip(case, tmp_path):
    plan = _plan("megatron", **MEGATRON[case])
    files = _round_trip(plan, "megatron", tmp_path)
    _megatron_checks(open(files[1]).read().split("\n"), plan)


@pytest.mark.parametrize("case", sorted(TITAN))
def test_torchtitan_round_trip(case, tmp_path):
    plan = _plan("torchtitan", **TITAN[case])
    files = _round_trip(plan, "torchtitan-0.2", tmp_path)      # 0.3's config module: test_engine_torchtitan.py
    _titan_checks(tomllib.loads(open(files[0]).read()), plan)


def _megatron_checks(lines, plan):
    """megatron/training/arguments.py (d98e8a6) checks the exported flags must pass."""
    fl = {}
    for line in lines:
        if line.startswith("--"):
            name, *vals = line.split()
            fl[name] = vals
    i = lambda k, d=1: int(fl[k][0]) if k in fl else d
    tp, pp, cp = i("--tensor-model-parallel-size"), i("--pipeline-model-parallel-size"), i("--context-parallel-size")
    world = plan.layout.world
    assert world % (tp * pp * cp) == 0
    seq = i("--seq-length")
    if cp > 1:
        assert seq % (2 * cp) == 0                                              # :1335-1338
    if "--hierarchical-context-parallel-sizes" in fl:
        hs = [int(x) for x in fl["--hierarchical-context-parallel-sizes"]]
        assert hs[0] * hs[1] == cp                                              # :580-582
    if "a2a+p2p" in fl.get("--cp-comm-type", []):
        assert "--hierarchical-context-parallel-sizes" in fl                   # :583-585
    if "--num-experts" in fl:
        assert i("--num-experts") % i("--expert-model-parallel-size") == 0     # :1657
        etp, ep = i("--expert-tensor-parallel-size"), i("--expert-model-parallel-size")
        assert world % (etp * ep * pp) == 0
    if fl.get("--recompute-granularity") == ["selective"]:
        assert "--recompute-method" not in fl                                   # :1425-1428
    if "--pipeline-model-parallel-layout" in fl:
        layout = parse_pp_layout(fl["--pipeline-model-parallel-layout"][0].strip("'"), pp)
        assert sum(layout["virtual"]) == i("--num-layers")
        assert len(layout["virtual"]) % pp == 0                                 # :944-949
        vpp = len(layout["virtual"]) // pp
        if vpp > 1:
            assert pp > 2 or "--overlap-p2p-comm" in fl                         # :1000-1009
        assert layout["embedding_stage"] == 0 and layout["loss_stage"] == pp - 1
    if "--use-megatron-fsdp" in fl:
        assert fl["--ckpt-format"] == ["fsdp_dtensor"]                          # :1168-1170
    if "--overlap-param-gather" in fl:                                          # :1024-1029
        assert "--use-distributed-optimizer" in fl or "--use-megatron-fsdp" in fl
        assert "--overlap-grad-reduce" in fl
    # the estimate hides the gradient reduction behind the last micro-batch, which Megatron
    # does only with --overlap-grad-reduce (:3121, default off)
    assert "--overlap-grad-reduce" in fl
    gb, mb = i("--global-batch-size"), i("--micro-batch-size")
    assert gb % (mb * world // (tp * pp * cp)) == 0


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
    bundle = make_problem(model="olmoe-1b-7b", gpus=8, seq="8k", global_batch=16, memory_gib=10_000,
                          **constraints("bundle").train_defaults())
    st = (Stage(index=0, layers=(0, 8), etp=1, ep=8, edp=1), Stage(index=1, layers=(8, 16), etp=1, ep=4, edp=2))
    L = Layout(world=16, tp=1, cp=1, dp=8, pp=2, micro_batch=1, num_microbatches=2, stages=st, master="fp32",
               sharding="zero2")
    bundle = bundle.model_copy(update={"cluster": bundle.cluster.model_copy(update={"gpus": 16})})
    plan = Plan(bundle, L, cm.evaluate(bundle, L), {})
    with pytest.raises(export.ExportError, match="one expert folding for all stages"):
        export.render(plan, "torchtitan")
    with pytest.raises(export.ExportError, match="master"):
        export.render(plan, "megatron")
    # a model torchtitan has no flavour of
    mix = _plan("torchtitan", model="mixtral-8x7b", gpus=8, seq="4k", gb=8, fold=(1, 8), sharding="zero3")
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

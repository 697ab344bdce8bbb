"""train.py --dry-run: one rank traced with fake tensors and a fake process group.

Fast cases (the plan's own small model at full size, one rank, a few seconds):
the bytes FSDPMemTracker measures obey the sharding table of dataparallel.py
exactly: AdamW m + v = 2 x the fp32 master shard; zero1 keeps an fp32
accumulated gradient of every gathered bf16 parameter (2 x its bytes); zero3
does not keep the gathered copy of the whole stage.
Slow cases (full_matrix): the 64-GPU Mixtral-8x7B 128k plan, rank 0 and the
last rank, against the plan's estimate of their stage.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402

pytest.importorskip("torch")
from planner.bundle.codegen import render_bundle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def dry_runs(bundle, ranks, timeout=1800) -> dict:
    """{rank: the dry-run's JSON}, the ranks traced side by side (one core each)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    procs = {r: subprocess.Popen([sys.executable, "train.py", "--dry-run", "--rank", str(r), "--json"], cwd=bundle,
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for r in ranks}
    out = {}
    try:
        for r, p in procs.items():
            stdout, stderr = p.communicate(timeout=timeout)
            assert p.returncode == 0, stderr[-3000:]
            out[r] = json.loads(stdout.strip().splitlines()[-1])
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
    return out


def dry_run(bundle, rank, timeout=1800):
    return dry_runs(bundle, [rank], timeout)[rank]


def test_dry_run_bytes_follow_the_sharding(tmp_path):
    out = {}
    for sharding in ("zero1", "zero3"):
        bundle = render_bundle(plan(dp=2, cp=2, folds=[(1, 2, 2)], sharding=sharding, num_microbatches=2),
                               tmp_path / sharding)
        out[sharding] = r = dry_run(bundle, 3, timeout=300)
        assert r["rank"] == 3 and r["stage"] == 0 and r["sharding"] == sharding
        assert set(r["measured_gib"]) >= {"weights", "grads", "optimizer", "activations", "peak"}
        assert {"weights", "grads", "optimizer", "activations", "total"} <= set(r["estimated_gib"])
        b = r["peak_breakdown_bytes"]
        assert b["OptState"] == pytest.approx(2 * b["Sharded Param"], rel=1e-2)   # Adam m, v (+ step) of the master
        assert b["Total"] == sum(v for k, v in b.items() if k != "Total")
    z1, z3 = out["zero1"]["peak_breakdown_bytes"], out["zero3"]["peak_breakdown_bytes"]
    assert z1["Sharded Param"] == z3["Sharded Param"]
    # zero1: the whole stage's bf16 copy stays gathered, its gradient accumulates in fp32
    assert z1["Unsharded Param"] > z1["Sharded Param"] / 2
    assert z1["Unsharded Grad"] == pytest.approx(2 * z1["Unsharded Param"], rel=1e-3)
    # zero3: gathered one unit at a time, gradients reduce-scattered every micro-batch
    assert z3["Unsharded Param"] < 0.6 * z1["Unsharded Param"]
    assert z3["Unsharded Grad"] < 0.6 * z1["Unsharded Grad"]


def _default_bundle(tmp_path, precision="bf16"):
    """The main job's plan, its estimate the balanced one: the dry run's fake tensors route every
    token balanced (moe/dispatch.py _to_host), not with dropless routing's budgeted skew."""
    from planner import costmodel as cm
    from planner import plan as P
    base = P.load(str(ROOT / "generated" / "default-64gpu-128k" / "plan.json"))[0]
    problem = base.problem.model_copy(update={"train": base.problem.train.model_copy(
        update={"moe_imbalance": 1.0, "precision": precision})})
    return render_bundle(P.Plan(problem, base.layout, cm.evaluate(problem, base.layout), base.solver),
                         tmp_path / f"b64-{precision}")


@pytest.mark.full_matrix
@pytest.mark.parametrize("precision", ["bf16", "fp8-tensorwise"])
def test_dry_run_64gpu_default_plan(tmp_path, precision):
    """Mixtral-8x7B, 64 GPUs, 128k, rank 0 and the last rank: measured vs the plan's
    estimate (minutes on 2 cores); at fp8-tensorwise too (the bundle's FP8 linears keep bf16
    inputs for backward, as the cost model's s_8 = 2 says)."""
    for rank, out in dry_runs(_default_bundle(tmp_path, precision), [0, 63]).items():
        m, e = out["measured_gib"], out["estimated_gib"]
        assert out["rank"] == rank
        assert m["peak"] == pytest.approx(e["total"], rel=0.10)
        # the plan files the fp32 master under the optimizer (Megatron), FSDP2 holds it as the parameter
        assert m["weights"] + m["optimizer"] == pytest.approx(e["weights"] + e["optimizer"], rel=0.02)
        assert m["activations"] == pytest.approx(e["activations"] + e["logits"], rel=0.10)
        # Known gap on this layout (tp2 cp16 dp2, experts etp2 ep2 edp16, zero2): FSDP2's reduce-scatter
        # buffer (0.98 GiB on rank 0) is twice the plan's gradient buffer (0.49 GiB); the peak
        # agrees (docs/bundle.md). Buffers are checked term by term on the pp / zero3 layout below.


def _pp_zero3_bundle(tmp_path):
    """The default 64-GPU 128k problem laid out as the planner's pp > 1 runner-up (tp1 cp32
    (Ulysses 2 x ring 16) dp1 pp2 vpp4, experts ep8 x edp4, 16 layers per pp rank), run as
    zero3 with an fp32 master (FSDP2); the estimate is the cost model's for that layout."""
    from planner import costmodel as cm
    from planner import plan as P
    base = P.load(str(ROOT / "generated" / "default-64gpu-128k" / "plan.json"))[0]
    # the dry run's fake tensors route every token balanced (moe/dispatch.py _to_host): the estimate
    # compared with it is the balanced one (moe_imbalance 1, not dropless routing's budgeted skew)
    problem = base.problem.model_copy(update={"train": base.problem.train.model_copy(update={"moe_imbalance": 1.0})})
    st = base.layout.stages[0]
    stages = tuple(st.model_copy(update={"index": i, "layers": (16 * i, 16 * i + 16), "etp": 1, "ep": 8, "edp": 4,
                                         "recompute_full": 0, "recompute_selective": 0}) for i in range(2))
    lay = base.layout.model_copy(update={"tp": 1, "cp": 32, "dp": 1, "pp": 2, "vpp": 4, "cp_kind": "hybrid",
                                         "cp_ulysses": 2, "cp_ring": 16, "stages": stages,
                                         "sharding": "zero3", "master": "fp32"})
    return render_bundle(P.Plan(problem, lay, cm.evaluate(problem, lay), base.solver), tmp_path / "bpp")


@pytest.mark.full_matrix
def test_dry_run_64gpu_pp_zero3(tmp_path):
    for rank, out in dry_runs(_pp_zero3_bundle(tmp_path), [0, 63]).items():
        m, e, b = out["measured_gib"], out["estimated_gib"], out["peak_breakdown_gib"]
        assert out["sharding"] == "zero3"
        # FSDP2 zero3 with an fp32 master: master and grads sharded, m and v twice the master
        assert b["Sharded Param"] == pytest.approx(e["weights"], rel=0.02)
        assert b["OptState"] == pytest.approx(e["optimizer"], rel=0.02)
        assert m["peak"] == pytest.approx(e["total"], rel=0.10)
        assert m["activations"] == pytest.approx(e["activations"] + e["logits"], rel=0.10)
        assert m["buffers"] == pytest.approx(e["buffers"], rel=0.10)


def test_dry_run_sequence_parallel_shards_the_activations(tmp_path):
    """Sequence parallel: at the same model and sequence, tp = 2 holds the activations that
    cp = 2 does (each rank 1/2 of the tokens between blocks, heads split inside attention),
    about half of one rank alone; without sequence parallelism the residual stream, the
    norms' inputs and the MLP inputs would stay whole on both tp ranks."""
    acts = {}
    for name, kw in {"tp1_cp1": dict(), "tp1_cp2": dict(cp=2, cp_kind="ulysses", folds=[(1, 2, 1)]),
                     "tp2_cp1": dict(tp=2, folds=[(1, 2, 1)])}.items():
        bundle = render_bundle(plan(seq=4096, **kw), tmp_path / name)
        acts[name] = dry_run(bundle, 0, timeout=300)["measured_gib"]["activations"]
    assert acts["tp2_cp1"] == pytest.approx(acts["tp1_cp2"], rel=0.1)
    assert acts["tp2_cp1"] < 0.55 * acts["tp1_cp1"]

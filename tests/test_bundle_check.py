"""Generated bundles train like the single-process reference (CPU, gloo).

Each case renders a small plan, runs `torchrun --nproc-per-node=W train.py --check`
and expects PASS (two cases go through launch/local_cpu.sh and launch/torchrun.sh):
loss, every gradient and every parameter after one AdamW
step equal the reference's (rtol 1e-4). Three mutation cases patch the rendered
code (zig-zag placement; expert-gradient reduction, FSDP2 and all-reduce engines)
and expect FAIL. CPU only (gloo); 14 torchrun launches, ~3.5 minutes on 2 cores.
"""
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import MODEL, model, plan  # noqa: E402

torch = pytest.importorskip("torch")
from planner.codegen import render_bundle  # noqa: E402

TORCHRUN = shutil.which("torchrun") or str(Path(sys.executable).parent / "torchrun")
pytestmark = pytest.mark.skipif(not Path(TORCHRUN).exists(), reason="torchrun not found")


def run_check(bundle: Path, world: int, dp: str = "fsdp2", timeout: int = 300):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    cmd = [TORCHRUN, "--standalone", f"--nproc-per-node={world}", "train.py", "--check", "--device", "cpu",
           "--dp", dp]
    p = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_script(bundle: Path, script: str, world: int, timeout: int = 300):
    """The bundle's own launch script, --check (CPU), torchrun found on PATH."""
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore",
               PATH=str(Path(TORCHRUN).parent) + os.pathsep + os.environ.get("PATH", ""),
               NNODES="1", NODE_RANK="0", NPROC_PER_NODE=str(world), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()))
    cmd = ["bash", str(bundle / "launch" / script), "--check", "--device", "cpu"]
    p = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


# These cases go through the bundle's launch scripts instead of torchrun directly.
VIA_SCRIPT = {"ulysses_cp4": "local_cpu.sh", "dp2_cp2_ep4_edp1": "torchrun.sh"}


def summary(out: str) -> str:
    return "\n".join(l for l in out.splitlines() if "CHECK" in l or "differs" in l or "Error" in l)[-3000:]


TIED = model(tied_embeddings=True)
TIED_SOFTMAX = model(tied_embeddings=True, moe={**MODEL["moe"], "router_score": "softmax"})


# Data-parallel engine: FSDP2 (the default) unless the name says allreduce.
CASES = {
    # world 4
    "ring_cp4_allreduce": (4, plan(cp=4, cp_kind="ring")),
    "ulysses_cp4": (4, plan(cp=4, cp_kind="ulysses")),
    "hybrid_2x2_allreduce": (4, plan(cp=4, cp_kind="hybrid", cp_ulysses=2, cp_ring=2)),
    "dp2_cp2_ep4_edp1": (4, plan(dp=2, cp=2, folds=[(1, 4, 1)])),
    "dp2_cp2_ep2_edp2": (4, plan(dp=2, cp=2, folds=[(1, 2, 2)], order="cp-dp-tp-pp")),
    # capacity factor 1.0 drops tokens; the reference drops within the same per-rank groups
    "tp2_cp2_capacity_factor": (4, plan(tp=2, cp=2, folds=[(1, 2, 2)], capacity_factor=1.0)),
    # 2 kv heads < tp=4: each tp rank keeps the kv head of its queries
    "tp4_kv_heads_replicated": (4, plan(tp=4, model=model(kv_heads=2), folds=[(1, 4, 1)])),
    # interleaved 1F1B, 2 chunks per pp rank; the two pp ranks fold experts differently (etp=2)
    "pp2_vpp2_per_stage_folding_recompute": (4, plan(
        pp=2, vpp=2, cp=2, num_microbatches=2, folds=[(1, 2, 1), (2, 1, 1)], recompute=[(0, 1), (1, 0)])),
    # world 8
    "pp2_uneven_cp2_dp2_full_recompute_one_stage": (8, plan(
        pp=2, cp=2, dp=2, split=[1, 3], folds=[(1, 4, 1), (1, 2, 2)], num_microbatches=2,
        recompute=[(0, 0), (3, 0)], model=TIED)),
    "tp2_cp2_dp2_etp2_ep2_edp2_tied_softmax": (8, plan(tp=2, cp=2, dp=2, folds=[(2, 2, 2)], model=TIED_SOFTMAX)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bundle_matches_reference(name, tmp_path):
    world, p = CASES[name]
    bundle = render_bundle(p, tmp_path / "bundle")
    if name in VIA_SCRIPT:
        rc, out = run_script(bundle, VIA_SCRIPT[name], world)
    else:
        rc, out = run_check(bundle, world, "allreduce" if "allreduce" in name else "fsdp2")
    assert rc == 0 and "CHECK PASS" in out, summary(out) or out[-3000:]


def _patch(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text, f"mutation target not found in {path.name}"
    path.write_text(text.replace(old, new))


def test_check_fails_without_zigzag(tmp_path):
    """Contiguous chunks instead of zig-zag: the ring's block masks are wrong -> FAIL."""
    bundle = render_bundle(plan(cp=4, cp_kind="ring"), tmp_path / "bundle")
    _patch(bundle / "cp" / "layout.py", "for c in zigzag_chunks(ring_rank, ring_size)]",
           "for c in (2 * ring_rank, 2 * ring_rank + 1)]")
    rc, out = run_check(bundle, 4)
    assert rc != 0 and "CHECK FAIL" in out, out[-3000:]


@pytest.mark.parametrize("dp", ["fsdp2", "allreduce"])
def test_check_fails_without_edp_reduction(tmp_path, dp):
    """Expert gradients not summed over edp (edp=2): FAIL, with either engine."""
    bundle = render_bundle(plan(dp=2, cp=2, folds=[(1, 2, 2)]), tmp_path / "bundle")
    if dp == "fsdp2":   # experts left in their layer's FSDP unit: summed over dp x cp instead
        _patch(bundle / "model.py", 'units.append((layer.moe.experts, f"edp{layer.moe.stage}"))', "pass")
    else:
        _patch(bundle / "dataparallel.py", "grads = [p.grad for p, m in pm if m.reduce == kind]",
               'grads = [p.grad for p, m in pm if m.reduce == kind and not kind.startswith("edp")]')
    rc, out = run_check(bundle, 4, dp)
    assert rc != 0 and "CHECK FAIL" in out, out[-3000:]

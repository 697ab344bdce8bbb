"""Generated bundles train like the single-process reference (CPU, gloo).

Each case renders a small plan, runs `torchrun --nproc-per-node=W train.py --check`
and expects PASS: the running stages, folding and recompute are plan.json's, and
loss, every gradient, every parameter and router bias after each of two AdamW
steps (micro-batch 2, non-zero initial router bias) equal the reference's
(reference.py, its own model code; rtol 1e-4).

The default set (3 launches of 4 ranks) covers every CP kind (ring, Ulysses,
hybrid), TP, EP folding with edp > 1, uneven PP with recompute, both
data-parallel engines and both launch scripts; the rest of the matrix is marked
`full_matrix` (`python -m pytest -m full_matrix tests`, run by .ci/run).
torchrun is the running interpreter's (`python -m torch.distributed.run`).
"""
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import MODEL, model, plan  # noqa: E402

pytest.importorskip("torch")
from planner.bundle.codegen import render_bundle  # noqa: E402

TORCHRUN = [sys.executable, "-m", "torch.distributed.run"]
BIN = str(Path(sys.executable).parent)      # the launch scripts call `torchrun` by name


def _env(**more):
    # Python's warnings on: a run prints none (_run_case)
    env = dict(os.environ, OMP_NUM_THREADS="1", PATH=BIN + os.pathsep + os.environ.get("PATH", ""), **more)
    env.pop("PYTHONWARNINGS", None)
    return env


def run_check(bundle: Path, world: int, dp: str = "fsdp2", timeout: int = 300, extra=()):
    """train.py --check under torchrun; one rank runs as a plain process (no elastic agent)."""
    args = ["train.py", "--check", "--device", "cpu", "--dp", dp, *extra]
    if world == 1:
        cmd, env = [sys.executable, *args], _env(RANK="0", LOCAL_RANK="0", WORLD_SIZE="1",
                                                  MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
    else:
        cmd, env = [*TORCHRUN, "--standalone", f"--nproc-per-node={world}", *args], _env()
    p = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_script(bundle: Path, script: str, world: int, timeout: int = 300):
    """The bundle's own launch script, --check (CPU)."""
    env = _env(NNODES="1", NODE_RANK="0", NPROC_PER_NODE=str(world), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()))
    cmd = ["bash", str(bundle / "launch" / script), "--check", "--device", "cpu"]
    p = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def summary(out: str) -> str:
    return "\n".join(l for l in out.splitlines() if "CHECK" in l or "differs" in l or "Error" in l
                     or "plan.json" in l or "recompute" in l or "missing" in l)[-3000:]


TIED = model(tied_embeddings=True)
SOFTMAX_NO_BIAS = model(moe={**MODEL["moe"], "router_score": "softmax", "router_bias": False})
TIED_SOFTMAX = model(tied_embeddings=True, moe={**MODEL["moe"], "router_score": "softmax"})

FAST = {
    # ring CP + TP + EP folding with edp > 1; capacity factor 1.0 drops tokens (the
    # reference drops within the same per-rank groups)
    "tp2_ring_cp2_ep2_edp2_capacity_factor": (4, plan(tp=2, cp=2, folds=[(1, 2, 2)], capacity_factor=1.0)),
    # Ulysses CP + uneven PP (1 + 3 layers), full recompute on one stage, selective on the
    # other, tied embeddings across stages; through launch/local_cpu.sh
    "ulysses_cp2_pp2_uneven_recompute_tied": (4, plan(
        pp=2, cp=2, cp_kind="ulysses", split=[1, 3], num_microbatches=2, recompute=[(0, 1), (2, 1)],
        folds=[(1, 2, 1), (1, 2, 1)], model=TIED)),
    # hybrid CP (Ulysses 2 x ring 2), all-reduce engine; experts over the ring x Ulysses ranks
    "hybrid_2x2_allreduce": (4, plan(cp=4, cp_kind="hybrid", cp_ulysses=2, cp_ring=2, folds=[(1, 4, 1)])),
}

FULL = {
    "ring_cp4_allreduce": (4, plan(cp=4, cp_kind="ring")),
    "ulysses_cp4": (4, plan(cp=4, cp_kind="ulysses")),
    "dp2_cp2_ep4_edp1": (4, plan(dp=2, cp=2, folds=[(1, 4, 1)])),
    "dp2_cp2_ep2_edp2": (4, plan(dp=2, cp=2, folds=[(1, 2, 2)], order="cp-dp-tp-pp")),
    # one expert per rank (4 experts, ep4): the dispatch skips the sort by local expert
    "dp2_cp2_ep4_one_local_expert": (4, plan(dp=2, cp=2, folds=[(1, 4, 1)],
                                             model=model(moe={**MODEL["moe"], "experts": 4}))),
    # 2 kv heads < tp=4: each tp rank keeps the kv head of its queries
    "tp4_kv_heads_replicated": (4, plan(tp=4, model=model(kv_heads=2), folds=[(1, 4, 1)])),
    # interleaved 1F1B, 2 chunks per pp rank; the two pp ranks fold experts differently (etp=2)
    "pp2_vpp2_per_stage_folding_recompute": (4, plan(
        pp=2, vpp=2, cp=2, num_microbatches=2, folds=[(1, 2, 1), (2, 1, 1)], recompute=[(0, 1), (1, 0)])),
    "zero3_dp2_cp2": (4, plan(dp=2, cp=2, folds=[(1, 2, 2)], sharding="zero3")),
    # world 8
    "pp2_uneven_cp2_dp2_full_recompute_one_stage": (8, plan(
        pp=2, cp=2, dp=2, split=[1, 3], folds=[(1, 4, 1), (1, 2, 2)], num_microbatches=2,
        recompute=[(0, 0), (3, 0)], model=TIED)),
    "tp2_cp2_dp2_etp2_ep2_edp2_tied_softmax": (8, plan(tp=2, cp=2, dp=2, folds=[(2, 2, 2)], model=TIED_SOFTMAX)),
    # sequence parallel across a stage boundary (each tp rank sends its 1/tp of the rows);
    # zero2 with pp > 1 keeps the gathered copy over the micro-batches, reduce-scatters each
    "tp2_pp2_zero2_tied": (4, plan(tp=2, pp=2, num_microbatches=2, folds=[(1, 2, 1), (1, 2, 1)],
                                   sharding="zero2", model=TIED)),
    # softmax router with the load-balancing loss in the gradients (the reference computes
    # its own over the same routing groups), sequence parallel, a fully recomputed MoE layer
    "tp2_dp2_softmax_aux_full_recompute": (4, plan(tp=2, dp=2, folds=[(1, 2, 2)], num_microbatches=2,
                                                   recompute=[(1, 0)], model=SOFTMAX_NO_BIAS)),
    # sequence parallel with Ulysses CP, dense layers only, zero3, selective recompute
    "tp2_ulysses_cp2_dense_zero3_recompute": (4, plan(tp=2, cp=2, cp_kind="ulysses", model=model(moe=None),
                                                      sharding="zero3", recompute=[(1, 2)])),
}

# These cases go through the bundle's launch scripts instead of torchrun directly.
VIA_SCRIPT = {"ulysses_cp2_pp2_uneven_recompute_tied": "local_cpu.sh", "dp2_cp2_ep4_edp1": "torchrun.sh"}


def _run_case(name, world, p, tmp_path):
    bundle = render_bundle(p, tmp_path / "bundle")
    if name in VIA_SCRIPT:
        rc, out = run_script(bundle, VIA_SCRIPT[name], world)
    else:
        rc, out = run_check(bundle, world, "allreduce" if "allreduce" in name else "fsdp2")
    assert rc == 0 and "CHECK PASS" in out, summary(out) or out[-3000:]
    assert "after 2 steps" in out and "check: step 1" in out      # two steps, progress printed
    warned = [line for line in out.splitlines() if "Warning" in line]
    assert not warned, warned[:4]


@pytest.mark.parametrize("name", list(FAST))
def test_bundle_matches_reference(name, tmp_path):
    _run_case(name, *FAST[name], tmp_path)


@pytest.mark.full_matrix
@pytest.mark.parametrize("name", list(FULL))
def test_bundle_matches_reference_full_matrix(name, tmp_path):
    _run_case(name, *FULL[name], tmp_path)

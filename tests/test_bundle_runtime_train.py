"""The bundle as a training program (CPU, gloo, world 4, --tiny): token file,
LR schedule, metrics file, DCP checkpoint and exact resume.

4 straight steps and 2 steps + stop + resume to 4 give the same losses (and
grad norms and LRs) step for step, for a pipelined zero1 layout, a zero3 one and
a softmax-routed MoE (auxiliary balancing loss) over hybrid CP with recompute, and FP8
linears with tensor-parallel experts. Each
case: 3 torchrun launches of 4 processes, ~1 minute on 2 cores. Every launch runs
with Python's warnings on and prints none (stderr holds no "Warning").
A resume under another schedule (--steps) is refused in one line.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import MODEL, model, plan  # noqa: E402

torch = pytest.importorskip("torch")
from planner.bundle.codegen import render_bundle  # noqa: E402

TORCHRUN = shutil.which("torchrun") or str(Path(sys.executable).parent / "torchrun")
pytestmark = pytest.mark.skipif(not Path(TORCHRUN).exists(), reason="torchrun not found")

CASES = {
    "pp2_dp2_zero1": plan(pp=2, dp=2, num_microbatches=2, sharding="zero1"),
    "dp2_cp2_zero3": plan(dp=2, cp=2, folds=[(1, 2, 2)], sharding="zero3", num_microbatches=2),
    "moe_softmax_cp4_hybrid": plan(cp=4, cp_kind="hybrid", cp_ulysses=2, cp_ring=2, folds=[(1, 1, 4)],
                                   sharding="zero3", num_microbatches=2, recompute=[(2, 1)],
                                   model=model(moe=dict(MODEL["moe"], router_score="softmax", router_bias=False,
                                                        shared_experts=0, shared_ffn_hidden=0))),
    # FP8 linears (fp8.py) with tensor parallelism folded into the experts: the amax reductions
    # and the compiled casts resume as exactly as the bf16 GEMMs
    "fp8_tp2_dp2_etp2": plan(tp=2, dp=2, folds=[(2, 1, 2)], num_microbatches=2, precision="fp8-tensorwise"),
}
# the default run resumes the MoE case; the other two are in the full matrix (pytest -m full_matrix)
DEFAULT = ("moe_softmax_cp4_hybrid",)
KEYS = {"step", "loss", "tokens_per_s", "mfu", "peak_memory_gib", "grad_norm", "lr"}


def train(bundle, *args, timeout=300):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("PYTHONWARNINGS", None)
    cmd = [TORCHRUN, "--standalone", "--nproc-per-node=4", "train.py", "--tiny", "--device", "cpu", *args]
    p = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, (p.stdout + p.stderr)[-4000:]
    assert "Warning" not in p.stderr, p.stderr[-4000:]
    return p.stdout


def rows(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


@pytest.mark.parametrize("name", [n if n in DEFAULT else pytest.param(n, marks=pytest.mark.full_matrix) for n in CASES])
def test_resume_continues_exactly(name, tmp_path):
    bundle = render_bundle(CASES[name], tmp_path / "bundle")
    sys.path.insert(0, str(bundle))
    try:
        from data import write_tokens
    finally:
        sys.path.remove(str(bundle))
    tokens = tmp_path / "tokens.bin"
    # a learnable stream (each id follows from the one before) with 5% noise: 4 steps lower its loss
    rng = np.random.default_rng(0)
    stream = (np.arange(20_000) * 37) % 128
    write_tokens(tokens, np.where(rng.random(20_000) < 0.05, rng.integers(0, 128, 20_000), stream))
    common = ["--data", str(tokens), "--steps", "4", "--warmup", "1", "--lr", "3e-3"]
    train(bundle, *common, "--metrics", str(tmp_path / "straight.jsonl"))
    train(bundle, *common, "--stop-after", "2", "--ckpt", str(tmp_path / "ckpt"), "--save-every", "2",
          "--metrics", str(tmp_path / "first.jsonl"))
    assert (tmp_path / "ckpt" / "step-2").is_dir()
    out = train(bundle, *common, "--ckpt", str(tmp_path / "ckpt"), "--resume",
                "--metrics", str(tmp_path / "resumed.jsonl"))
    assert "resumed from" in out

    straight = rows(tmp_path / "straight.jsonl")
    assert [r["step"] for r in straight] == [0, 1, 2, 3]
    for r in straight:
        assert KEYS <= set(r), r
        assert r["tokens_per_s"] > 0 and r["peak_memory_gib"] > 0 and r["grad_norm"] > 0
    assert straight[0]["lr"] == pytest.approx(3e-3) and straight[3]["lr"] < straight[1]["lr"]   # warm-up, cosine
    assert straight[3]["loss"] < straight[0]["loss"]                                            # it learns
    first, resumed = rows(tmp_path / "first.jsonl"), rows(tmp_path / "resumed.jsonl")
    assert [r["step"] for r in resumed] == [2, 3]
    assert [r["loss"] for r in first] == [r["loss"] for r in straight[:2]]
    for a, b in zip(straight[2:], resumed):
        assert a["loss"] == b["loss"] and a["grad_norm"] == b["grad_norm"] and a["lr"] == b["lr"], (a, b)


def test_resume_under_another_schedule_is_refused(tmp_path):
    # --steps 2 then --resume --steps 4: step 1 ran at a 2-step cosine's learning rate, so the
    # resumed run is not the 4-step run; refused before any process group, in one line
    bundle = render_bundle(CASES["pp2_dp2_zero1"], tmp_path / "bundle")
    train(bundle, "--steps", "2", "--ckpt", str(tmp_path / "ckpt"), "--save-every", "2")
    saved = json.loads((tmp_path / "ckpt" / "step-2" / "trajectory.json").read_text())
    assert saved["steps"] == 2 and saved["lr"] == 1e-3
    p = subprocess.run([sys.executable, "train.py", "--tiny", "--device", "cpu", "--steps", "4", "--resume",
                        "--ckpt", str(tmp_path / "ckpt")], cwd=bundle, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    line, = p.stderr.strip().splitlines()
    assert "--steps 2 -> 4" in line and "--stop-after" in line and "--reschedule" in line, line

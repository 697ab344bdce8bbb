"""Exact resume of a generated bundle too large for this machine, at its reduced layout.

A bundle in generated/ whose world does not fit a CPU machine (check_fit.py says so and names
`layout.CHECK_WORLD`, the smallest layout with every parallel kind of the plan) is rendered again
at that layout: the plan's model, sharding, master weights and per-stage recompute, the
degrees of CHECK_WORLD, one pipeline stage per CHECK_WORLD stage. It then trains `--tiny` on CPU
(gloo) three times: 4 steps straight; 2 steps saved (`--stop-after 2 --save-every 2`); and
`--resume` to 4. Each step's loss and gradient norm must be bit-identical.

  python benchmarks/resume_reduced.py generated/default-64gpu-128k [--out DIR]
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def reduced_plan(bundle: Path):
    """The bundle's plan at its CHECK_WORLD degrees (tests/bundle_plans.plan builds it legal)."""
    from bundle_plans import plan
    src = (bundle / "layout.py").read_text()
    line = next(l for l in src.splitlines() if l.startswith("CHECK_WORLD = "))
    w = ast.literal_eval(line.split("=", 1)[1].strip())
    rec = json.loads((bundle / "plan.json").read_text())["plans"][0]
    L, model = rec["layout"], rec["problem"]["model"]
    if w["pp"] != 1 or L["pp"] != 1:
        raise SystemExit("resume_reduced: a pipelined CHECK_WORLD is not built here (one stage only)")
    st = L["stages"][0]
    kind = "hybrid" if w["cp_ulysses"] > 1 and w["cp_ring"] > 1 else ("ulysses" if w["cp_ulysses"] > 1 else "ring")
    p = plan(tp=w["tp"], cp=w["cp"], dp=w["dp"], cp_kind=kind, cp_ulysses=w["cp_ulysses"], cp_ring=w["cp_ring"],
             folds=[tuple(w["folds"][0])], model=model, seq=64, sharding=L["sharding"], master=L["master"],
             recompute=[(st["recompute_full"], st["recompute_selective"])], num_microbatches=2)
    stages = tuple(s.model_copy(update={"recompute_modules": tuple(st["recompute_modules"])}) for s in p.layout.stages)
    p.layout = p.layout.model_copy(update={"stages": stages, "master": L["master"]})
    return p, w["world"]


def main() -> int:
    from planner.bundle.codegen import render_bundle
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle", type=Path)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    out = a.out or Path(tempfile.mkdtemp(prefix="resume-reduced-"))
    out.mkdir(parents=True, exist_ok=True)
    p, world = reduced_plan(a.bundle)
    bundle = render_bundle(p, out / "bundle")
    sys.path.insert(0, str(bundle))
    from data import write_tokens
    rng = np.random.default_rng(0)
    stream = (np.arange(200_000) * 37) % 128          # a learnable stream with 5% noise
    write_tokens(out / "tokens.bin", np.where(rng.random(200_000) < 0.05, rng.integers(0, 128, 200_000), stream))

    def train(*args):
        env = dict(os.environ, OMP_NUM_THREADS="1")
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={world}",
               "train.py", "--tiny", "--device", "cpu", "--data", str(out / "tokens.bin"), "--steps", "4",
               "--warmup", "1", "--lr", "3e-3", *args]
        print("$", " ".join(cmd[2:]), flush=True)
        t = time.time()
        r = subprocess.run(cmd, cwd=bundle, env=env, capture_output=True, text=True)
        print(f"  exit {r.returncode} after {time.time() - t:.0f} s", flush=True)
        if r.returncode:
            print(r.stderr[-3000:])
            raise SystemExit(1)

    train("--metrics", str(out / "straight.jsonl"))
    train("--stop-after", "2", "--ckpt", str(out / "ck"), "--save-every", "2", "--metrics", str(out / "first.jsonl"))
    train("--ckpt", str(out / "ck"), "--resume", "--metrics", str(out / "resumed.jsonl"))
    rows = lambda n: [json.loads(l) for l in (out / n).read_text().splitlines()]
    straight, split = rows("straight.jsonl"), rows("first.jsonl") + rows("resumed.jsonl")
    for name, rs in (("straight", straight), ("2 + resume", split)):
        for r in rs:
            print(f"{name:10s} step {r['step']}  loss {r['loss']!r}  grad_norm {r['grad_norm']!r}")
    same = [(r["step"], r["loss"], r["grad_norm"]) for r in straight] == \
        [(r["step"], r["loss"], r["grad_norm"]) for r in split]
    print(f"{world} ranks: bit-exact" if same else f"{world} ranks: DIFFERENT")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

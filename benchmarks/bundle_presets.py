"""--check of one plan of every model preset: the bundle against its single-process reference.

For each preset under planner/specs/presets/models, one 4-rank plan of that model (its own
architecture: attention kind, norms, shared experts, router, dense layers, tied embeddings;
the bundle's --check shrinks the widths and keeps the layers and experts): tp 2 x ring cp 2,
the experts folded over the 4 ranks (ep as large as the experts allow, the rest edp), ZeRO-1.
Each bundle runs `train.py --check` under torchrun on CPU (gloo), eager (--no-compile) and
with its compiled regions, at the default seed; the table gives PASS / FAIL, the worst
difference the check reports and the wall time.

With --precision fp8-tensorwise the same plans run their linear layers in FP8 (fp8.py) and
the check compares every FP8 GEMM instead of the losses and gradients (check_fp8.py); the
table goes to the block bundle-presets-fp8.

With --default-plan each preset's bundle is instead the planner's own default plan,
`foldplan plan --gpus 8 --seq 32k --model NAME --out DIR`, and the check is what its README
says to run, `DIR/launch/local_cpu.sh --check` (8 ranks, compiled regions; check_fit.py
refuses, before a rank starts, a check that does not fit this machine's memory); the table
goes to the block bundle-presets-default.

  python benchmarks/bundle_presets.py [--only NAME ...] [--modes eager compiled] [--precision P] [--markdown docs/bundle.md]
  python benchmarks/bundle_presets.py --default-plan [--only NAME ...] [--markdown docs/bundle.md]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def preset_plan(name: str, precision: str = "bf16"):
    from bundle_plans import plan
    from planner.specs.catalog import load_model
    m = load_model(name).model_dump()
    experts = m["moe"]["experts"] if m.get("moe") else 1
    ep = max(d for d in (1, 2, 4) if experts % d == 0)
    return plan(tp=2, cp=2, folds=[(1, ep, 4 // ep)], model=m, seq=64, precision=precision)


def run(bundle: Path, compiled: bool, timeout: int) -> tuple[str, str, float]:
    args = ["train.py", "--check", "--device", "cpu"] + ([] if compiled else ["--no-compile"])
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=4",
                            *args], cwd=bundle, env=env, capture_output=True, text=True, timeout=timeout)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        return "TIMEOUT", "", time.perf_counter() - t0
    wall = time.perf_counter() - t0
    line = next((l for l in out.splitlines() if "CHECK PASS" in l or "CHECK FAIL" in l), "")
    verdict = "PASS" if rc == 0 and "CHECK PASS" in out else "FAIL"
    warned = [l for l in out.splitlines() if "Warning" in l]
    if verdict == "PASS" and warned:
        verdict = "PASS, warned"
    if verdict != "PASS":
        line = line or out.strip().splitlines()[-1][:200] if out.strip() else "no output"
    return verdict, said(line), wall


def run_default(name: str, d: Path, timeout: int) -> tuple[str, str, float]:
    """The default plan of `name` at 8 GPUs, 32k, written as a bundle; its local_cpu.sh --check."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    bundle = d / "bundle"
    p = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "--gpus", "8", "--seq", "32k", "--model", name,
                        "--out", str(bundle)], cwd=ROOT, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return "NO PLAN", said((p.stderr or p.stdout).strip().splitlines()[-1]), 0.0
    t0 = time.perf_counter()
    try:
        q = subprocess.run(["bash", str(bundle / "launch" / "local_cpu.sh"), "--check"], cwd=bundle, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", "", time.perf_counter() - t0
    out, wall = q.stdout + q.stderr, time.perf_counter() - t0
    line = next((l for l in out.splitlines() if "CHECK PASS" in l or "CHECK FAIL" in l), "")
    if not line:
        refused = next((l for l in out.splitlines() if l.startswith("check_fit:") and "fits:" not in l
                        and "measuring" not in l), "")
        killed = "exitcode  : -9" in out
        why = refused or ("a rank was killed (SIGKILL: out of memory)" if killed else out.strip().splitlines()[-1])
        return ("REFUSED" if refused else "FAIL"), said(why), wall
    return ("PASS" if q.returncode == 0 and "CHECK PASS" in line else "FAIL"), said(line), wall


def said(line: str) -> str:
    """The check's closing line, short: its loss against the reference's and how many comparisons."""
    m = re.search(r"CHECK (PASS|FAIL): loss (\S+) \(reference (\S+)\) after (\d+) steps; (\d+) comparisons", line)
    if m:
        return f"loss {m[2]} (reference {m[3]}) after {m[4]} steps; {m[5]} comparisons"
    return re.sub(r"\s+", " ", line)[:160]


def main() -> int:
    from planner.bundle.codegen import render_bundle
    from planner.specs.catalog import model_names
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--modes", nargs="*", default=["eager", "compiled"], choices=["eager", "compiled"])
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--precision", default="bf16", choices=["bf16", "fp8-tensorwise"])
    ap.add_argument("--markdown", default=None, help="write the table into this file's generated block")
    ap.add_argument("--default-plan", action="store_true",
                    help="each preset's default plan at 8 GPUs, 32k, through launch/local_cpu.sh --check")
    a = ap.parse_args()
    if a.default_plan:
        return default_plans(a)
    rows = []
    for name in a.only or model_names():
        with tempfile.TemporaryDirectory() as d:
            bundle = render_bundle(preset_plan(name, a.precision), Path(d) / "bundle")
            for mode in a.modes:
                verdict, line, wall = run(bundle, mode == "compiled", a.timeout)
                rows.append((name, mode, verdict, line, wall))
                print(f"{name:18s} {mode:8s} {verdict:6s} {wall:6.1f} s  {line}", flush=True)
    if a.markdown:
        from mdtables import command_line, table, write_blocks
        body = (f"4 ranks on CPU (gloo), default seed, linear layers in {a.precision}; the check's own closing line.\n\n"
                + table(["preset", "mode", "result", "the check says", "wall s"],
                        [[n, m, v, l, f"{w:.0f}"] for n, m, v, l, w in rows], right=(4,)))
        block = "bundle-presets" if a.precision == "bf16" else "bundle-presets-fp8"
        write_blocks(a.markdown, command_line(), {block: body})
    return 0 if all(r[2].startswith("PASS") for r in rows) else 1


def default_plans(a) -> int:
    from planner.specs.catalog import model_names
    rows = []
    for name in a.only or model_names():
        with tempfile.TemporaryDirectory() as d:
            verdict, line, wall = run_default(name, Path(d), a.timeout)
        rows.append((name, verdict, line, wall))
        print(f"{name:18s} {verdict:8s} {wall:6.1f} s  {line}", flush=True)
    if a.markdown:
        from mdtables import command_line, table, write_blocks
        body = ("The default plan of each preset (`foldplan plan --gpus 8 --seq 32k --model NAME --out b`), "
                "`b/launch/local_cpu.sh --check`: 8 ranks on CPU (gloo), compiled regions, default seed; the "
                "check's own closing line.\n\n"
                + table(["preset", "result", "the check says", "wall s"],
                        [[n, v, l, f"{w:.0f}"] for n, v, l, w in rows], right=(3,)))
        write_blocks(a.markdown, command_line(), {"bundle-presets-default": body})
    return 0 if all(r[1] == "PASS" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Re-plan and re-render the example bundles.

examples/plans/<stem>.args holds the `foldplan plan` arguments of one example; the
script runs the planner (`--replan`, the default when the .json is missing) into
examples/plans/<stem>.json, then renders its best plan (loaded by planner.plan) into generated/<stem>/ (force).
tests/test_bundle_generated.py holds them to properties: every bundle under generated/ is
the render of its committed plan, and every committed plan satisfies the layout rules,
carries the cost model's estimate of its layout and is optimal for its .args (a re-plan
finds nothing better, within the solver's gap).

    python scripts/regenerate_generated.py [--check] [--replan]
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from planner import plan as planmod  # noqa: E402
from planner.bundle.codegen import render_bundle  # noqa: E402

PLANS = ROOT / "examples" / "plans"
GENERATED = ROOT / "generated"


def plan_files():
    return sorted(PLANS.glob("*.json")) if PLANS.is_dir() else []


def arg_files():
    return sorted(PLANS.glob("*.args")) if PLANS.is_dir() else []


def plan_now(args_file: Path) -> dict:
    """The plans document `foldplan plan <args> --json` gives now (run from the repo root)."""
    import os
    import shlex
    import subprocess
    args = shlex.split(args_file.read_text())
    r = subprocess.run([sys.executable, "-m", "planner.cli", "plan", *args, "--json"], cwd=ROOT,
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if r.returncode != 0:
        raise SystemExit(f"{args_file.name}: foldplan plan failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def best_plan(plan_file: Path):
    """The first (best) plan of a plans file, loaded and validated by planner.plan."""
    return planmod.load(str(plan_file), index=0)[0]


def tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def differences(out_root: Path = GENERATED) -> list[str]:
    """Bundles under out_root that differ from a fresh rendering (empty = in sync)."""
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in plan_files():
            fresh = render_bundle(best_plan(f), Path(tmp) / f.stem)
            have = out_root / f.stem
            if not have.is_dir() or tree(have) != tree(fresh):
                bad.append(f.stem)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only report bundles that are out of date")
    ap.add_argument("--replan", action="store_true", help="re-run the planner for every examples/plans/*.args")
    args = ap.parse_args()
    if not args.check:
        for a in arg_files():
            target = a.with_suffix(".json")
            if args.replan or not target.exists():
                target.write_text(json.dumps(plan_now(a), indent=1, sort_keys=True) + "\n")
                print(f"{a.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
    if args.check:
        bad = differences()
        print("\n".join(f"out of date: generated/{b}" for b in bad) or "generated/ is up to date")
        return 1 if bad else 0
    for f in plan_files():
        out = render_bundle(best_plan(f), GENERATED / f.stem, force=True)
        print(f"{f.relative_to(ROOT)} -> {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

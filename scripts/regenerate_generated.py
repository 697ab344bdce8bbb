#!/usr/bin/env python3
"""Re-render the example bundles: examples/plans/<stem>.json -> generated/<stem>/ (force).

Each plans file is a `foldplan.plans/1` document; its best plan (index 0) is
rendered. tests/test_bundle_generated.py checks the committed generated/ is
byte-for-byte what this script produces.

    python scripts/regenerate_generated.py [--check]
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from planner.codegen import render_bundle  # noqa: E402

PLANS = ROOT / "examples" / "plans"
GENERATED = ROOT / "generated"


def plan_files():
    return sorted(PLANS.glob("*.json")) if PLANS.is_dir() else []


def tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def differences(out_root: Path = GENERATED) -> list[str]:
    """Bundles under out_root that differ from a fresh rendering (empty = in sync)."""
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in plan_files():
            fresh = render_bundle(json.loads(f.read_text()), Path(tmp) / f.stem)
            have = out_root / f.stem
            if not have.is_dir() or tree(have) != tree(fresh):
                bad.append(f.stem)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only report bundles that are out of date")
    args = ap.parse_args()
    if args.check:
        bad = differences()
        print("\n".join(f"out of date: generated/{b}" for b in bad) or "generated/ is up to date")
        return 1 if bad else 0
    for f in plan_files():
        out = render_bundle(json.loads(f.read_text()), GENERATED / f.stem, force=True)
        print(f"{f.relative_to(ROOT)} -> {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Exports tried / accepted by torchtitan's own code, per release: the cases of
tests/test_engine_torchtitan.py exported with `--to torchtitan` (0.3.0 config module) and
`--to torchtitan-0.2` (0.2.2 job TOML), each judged by planner/engines/torchtitan/judge.py.

    python scripts/judge_torchtitan.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from planner.engines import export  # noqa: E402
from planner.engines.judge import available, judge  # noqa: E402
from test_engine_torchtitan import CASES, _name, plan_of  # noqa: E402


def main() -> None:
    for version in ("torchtitan", "torchtitan-0.2"):
        why = available(version)
        if why:
            print(f"{version}: not judged ({why})")
            continue
        files, refused = {}, {}
        for case in CASES:
            try:
                files[case] = export.render(plan_of(case), version, _name(case))
            except export.ExportError as e:
                refused[case] = str(e)
        got = judge(version, [(plan_of(c).to_dict(), f) for c, f in files.items()])
        ok = sum(v["accepted"] for v in got)
        print(f"{version} ({got[0]['engine'] if got else '?'}): {len(CASES)} cases, {len(refused)} refused by the "
              f"export, {len(files)} exported, {ok} accepted by the engine")
        for c, v in zip(files, got):
            print(f"  {c:22s} {'accepted' if v['accepted'] else 'REFUSED: ' + str(v['reason'])}")
        for c, why in refused.items():
            print(f"  {c:22s} not exported: {why}")


if __name__ == "__main__":
    main()

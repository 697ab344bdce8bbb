"""The tie-break's effect on the speed benchmark's cases (benchmarks/plan_speed.py CASES):
the fastest plan (`settle=False`) beside the plan returned first, their step and peak, what of
the first is outside published practice (planner/solve/sanity.py) and the CPU seconds of each
search (process time, not wall: the machine may be shared). The engine-target cases of
plan_speed are left out: this table is planner.solve.search's own tie-break.

    python benchmarks/tiebreak.py        # a markdown table on stdout (docs/search.md holds one)
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parent))
sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from plan_speed import CASES  # noqa: E402

from planner import costmodel as cm  # noqa: E402
from planner.solve import search_plans  # noqa: E402
from planner.solve.sanity import layout_flags  # noqa: E402
from planner.specs import ModelSpec, make_problem  # noqa: E402


def degrees(L) -> str:
    return f"tp{L.tp} cp{L.cp} dp{L.dp} pp{L.pp}" + (f" vpp{L.vpp}" if L.vpp > 1 else "") + f" {L.sharding}"


def main() -> None:
    print("| case | fastest (no tie-break) | step s | peak GiB | first (tie-break) | step s | peak GiB | vs fastest "
          "| first outside practice | CPU s without / with |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, kw, _, _ in CASES:
        kw = dict(kw)
        if kw.pop("target", "bundle") != "bundle":
            continue              # an engine target's search rounds and re-ranks (planner.solve.targets): not this table's
        if isinstance(kw.get("model"), dict):
            kw["model"] = ModelSpec(**kw["model"])
        p = make_problem(**kw)
        t = time.process_time()
        a = search_plans(p, top=5, time_limit=60, settle=False)
        ta = time.process_time() - t
        t = time.process_time()
        b = search_plans(p, top=5, time_limit=60)
        tb = time.process_time() - t
        x, y = a.plans[0], b.plans[0]
        print(f"| {name} | {degrees(x.layout)} | {x.estimate.step_time:.3f} | {x.estimate.peak_bytes / cm.GiB:.1f} | "
              f"{degrees(y.layout)} | {y.estimate.step_time:.3f} | {y.estimate.peak_bytes / cm.GiB:.1f} | "
              f"{y.estimate.step_time / x.estimate.step_time - 1:+.2%} | {', '.join(layout_flags(p, y.layout)) or '-'} "
              f"| {ta:.1f} / {tb:.1f} |", flush=True)


if __name__ == "__main__":
    main()

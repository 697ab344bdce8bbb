"""How much of the Megatron reader Megatron's own parser checks: the configs and values that
tests/test_megatron_argparse.py compares, counted (python scripts/megatron_argparse_tally.py,
from the repository root, with the engines installed: scripts/install_engines.sh)."""
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import test_megatron_argparse as t  # noqa: E402

from planner.audit import detect  # noqa: E402
from planner.engines import export  # noqa: E402


def main() -> None:
    rows, tmp = [], Path(tempfile.mkdtemp())
    for kind, name in [("corpus", x) for x in t.CORPUS] + [("example", x) for x in t.EXAMPLES]:
        rows.append((kind, name, *t._case(kind, name)))
    plans, make = t._exports()
    for case, kw in plans.items():
        plan = make("megatron", **kw)
        for fname, text in export.render(plan, "megatron").items():
            (tmp / fname).write_text(text)
            rows.append(("export", f"{case}/{fname}", t.read.argv(text, str(tmp / fname), dict(os.environ)),
                         detect.load(str(tmp / fname), gpus=plan.layout.world)))
    for name, body in t.PROBES.items():
        path = tmp / f"{name}.args"
        path.write_text(t._BASE + body)
        rows.append(("probe", name, t.read.argv(path.read_text(), str(path), {}), detect.load(str(path), gpus=64)))
    total = {}
    for kind, name, argv, cfg in rows:
        pairs, bad, dropped = t._compare(argv, cfg)
        k = total.setdefault(kind, [0, 0, 0, 0])
        k[0] += 1
        k[1] += sum(w.startswith("--") for w in argv)
        k[2] += len(pairs)
        k[3] += len(bad)
    print("| source | configs | flags in argv | values compared | mismatches |\n|---|---|---|---|---|")
    for kind, (n, flags, values, bad) in total.items():
        print(f"| {kind} | {n} | {flags} | {values} | {bad} |")
    print(f"| all | {sum(v[0] for v in total.values())} | {sum(v[1] for v in total.values())} | "
          f"{sum(v[2] for v in total.values())} | {sum(v[3] for v in total.values())} |")


if __name__ == "__main__":
    main()

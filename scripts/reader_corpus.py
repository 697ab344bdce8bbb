"""The reader corpus, one line per file and a tally per public source: each real config of
examples/audit/real (provenance: CORPUS.md) read by foldplan's reader and compared field by field with
what a person reads from the file (expected.toml), and each Hugging Face config.json of
examples/models/hf compared with its published parameter counts (published.yaml).

    python scripts/reader_corpus.py          # read right / misread / refused, per file and per source

A file is "read right" when every field written in expected.toml is what the reader gives; "misread"
when one differs (the field is named); "refused" when the reader stops, with its one line. Exit 1 on
any misread."""
from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from planner.layout.foreign import AuditParseError  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from published_configs import differences, read_entry  # noqa: E402  (one reading of an entry, one comparison)

REAL = ROOT / "examples" / "audit" / "real"


def sources() -> dict[str, str]:
    """file -> the repository it comes from (CORPUS.md's table)."""
    rows = re.findall(r"^\| (\S+) \| ([^|]+?) \|", (REAL / "CORPUS.md").read_text(), re.M)
    return {f: repo.split(" (")[0] for f, repo in rows if f != "file"}


def check(name: str, exp: dict) -> tuple[str, str]:
    """(verdict, detail) of one corpus file."""
    try:
        cfg = read_entry(name, exp.get("args", {}))
    except AuditParseError as e:
        return "refused", str(e)
    wrong = differences(cfg, exp)
    if wrong:
        return "misread", "; ".join(wrong)
    n = len(exp.get("layout", {})) + len(exp.get("model", {}))
    needs = " (model shapes not in the file: --model)" if exp.get("verdict") == "needs_model" else ""
    return "read right", f"{n} fields{needs}"


def hf_rows() -> list[tuple[str, str, str, str]]:
    """(source, file, verdict, detail) of the Hugging Face configs against their published counts."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import hf_models
    out = []
    for name, pub in hf_models.published().items():
        r = hf_models.row(name, pub)
        if "refused" in r:
            out.append(("Hugging Face config.json", name, "refused", r["refused"]))
            continue
        misses = pub.get("miss") or {}
        off = [f"{k} {r['d_' + k]:+.1%}" for k in ("total", "active") if abs(r["d_" + k]) > 0.01 and k not in misses]
        detail = f"total {r['d_total']:+.1%}, active {r['d_active']:+.1%} of the published counts" + (
            f"; {' and '.join(misses)} off by more than 1% (docs/models.md says why)" if misses else "")
        out.append(("Hugging Face config.json", name, "misread" if off else "read right", detail))
    return out


def main() -> int:
    expected = tomllib.loads((REAL / "expected.toml").read_text())
    src = sources()
    rows = [(src.get(n, "?"), n, *check(n, exp)) for n, exp in sorted(expected.items())] + hf_rows()
    tally: dict[str, Counter] = defaultdict(Counter)
    for source, name, verdict, detail in rows:
        tally[source][verdict] += 1
        print(f"{verdict:10s}  {name}  [{source}]  {detail}")
    print()
    print(f"{'source':45s} {'read right':>10s} {'misread':>8s} {'refused':>8s}")
    for source in sorted(tally):
        t = tally[source]
        print(f"{source:45s} {t['read right']:10d} {t['misread']:8d} {t['refused']:8d}")
    total = sum(tally.values(), Counter())
    print(f"{'all ' + str(len(rows)) + ' files':45s} {total['read right']:10d} {total['misread']:8d} {total['refused']:8d}")
    return 1 if total["misread"] else 0


if __name__ == "__main__":
    raise SystemExit(main())

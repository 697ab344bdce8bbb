"""The Hugging Face model table of docs/models.md: every config.json in examples/models/hf/ read
by foldplan's reader, its parameter counts beside the published ones (published.yaml, with sources).

    python scripts/hf_models.py            # a markdown table on stdout
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from planner import costmodel as cm  # noqa: E402
from planner.specs import SpecError  # noqa: E402
from planner.specs.hfconfig import tower_params, read_hf_config  # noqa: E402

HF = ROOT / "examples" / "models" / "hf"


def published() -> dict:
    raw = yaml.safe_load((HF / "published.yaml").read_text())
    return {k: {**v, "total": float(v["total"]), "active": float(v["active"])} for k, v in raw.items()}


def row(name: str, pub: dict) -> dict:
    """Our counts of one config beside the published ones (None where the reader refuses it)."""
    cfg = json.loads((HF / name).read_text())
    try:
        spec, notes = read_hf_config(cfg, Path(name).stem)
    except SpecError as e:
        return {"name": name, "refused": str(e), "notes": []}
    pc = cm.param_counts(spec)
    towers = sum(tower_params(cfg[k]) for k in ("vision_config", "audio_config") if isinstance(cfg.get(k), dict))
    active = pc["active"] - (pc["embedding"] if pub["active_counts"] == "unembedding" else 0.0)
    total = pc["total"] + (towers if pub.get("towers") else 0.0)
    return {"name": name, "total": total, "text_total": pc["total"], "towers": towers, "active": active,
            "d_total": total / pub["total"] - 1, "d_active": active / pub["active"] - 1, "notes": notes}


def main() -> int:
    pubs = published()
    print("| config.json | total (ours) | published | Δ | active (ours) | published | Δ | what the reader says |")
    print("|---|---|---|---|---|---|---|---|")
    for name, pub in pubs.items():
        r = row(name, pub)
        if "refused" in r:
            print(f"| {name} | refused | {pub['total'] / 1e9:.1f}B | | | {pub['active'] / 1e9:.1f}B | | "
                  f"exit 2: {r['refused'].split(': ', 1)[1]} |")
            continue
        tot = f"{r['total'] / 1e9:.2f}B" + (f" ({r['text_total'] / 1e9:.2f}B text + ~{r['towers'] / 1e9:.2f}B vision)"
                                             if pub.get("towers") else "")
        act = f"{r['active'] / 1e9:.2f}B" + (" (no embedding lookup)" if pub["active_counts"] == "unembedding" else "")
        said = "; ".join(r["notes"]) or "read right, nothing ignored"
        print(f"| {name} | {tot} | {pub['total'] / 1e9:.2f}B | {r['d_total']:+.1%} | {act} | {pub['active'] / 1e9:.2f}B "
              f"| {r['d_active']:+.1%} | {said} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

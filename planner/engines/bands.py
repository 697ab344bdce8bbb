"""Each target's known error band: how far the cost model's step estimates were from published
runs that engine ran, by kind of run (dense, MoE, long-context CP, FP8).

The rows are the fidelity benchmarks' own (benchmarks/fidelity.py, fidelity_fp8.py,
fidelity_cp.py, fidelity_ep.py write them to `fidelity_bands.json` beside this module,
benchmarks/bands.py says how); this module only groups them and takes the median |error| and
the worst signed error of each group. Every error is estimated throughput / published - 1, so
+ means the estimate was faster than the run. An engine with no published run of a kind has no
band for it ("no published runs to check against"); no engine's rows stand in for another's.

A source that leaves its count open (NeMo's FLOP count, full-mask or causal) gives one band
per reading; both are shown.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).with_name("fidelity_bands.json")
SCHEMA = "foldplan.fidelity-bands/1"
KIND_NAMES = {"dense": "dense", "moe": "MoE", "cp": "long-context CP", "fp8": "FP8"}
NONE = "no published runs to check against"


@dataclass(frozen=True)
class Band:
    engine: str
    kind: str
    runs: int
    median_abs: float          # median |error| over the runs
    worst: float               # the signed error of largest magnitude
    sources: tuple[str, ...]
    reading: str = ""          # the source's reading of its own count, where it leaves that open
    worst_run: str = ""        # the run of the worst error

    def text(self) -> str:
        kind = KIND_NAMES[self.kind] + (f" ({self.reading} count)" if self.reading else "")
        return (f"{kind}: median {self.median_abs:.1%}, worst {self.worst:+.1%} over {self.runs} runs "
                f"({', '.join(self.sources)})")

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "runs": self.runs, "median_abs_error": round(self.median_abs, 4),
               "worst_error": round(self.worst, 4), "worst_run": self.worst_run, "sources": list(self.sources)}
        if self.reading:
            out["reading"] = self.reading
        return out


@lru_cache(maxsize=1)
def rows() -> tuple[dict, ...]:
    """Every benchmark row, in the order the sections were written."""
    doc = json.loads(PATH.read_text())
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"{PATH}: schema must be {SCHEMA!r}, got {doc.get('schema')!r}")
    return tuple(r for sec in sorted(doc["sections"]) for r in doc["sections"][sec])


def summarise(engine: str, kind: str, sub: list[dict], reading: str = "") -> Band:
    """The band of one group of rows: median |error|, and the worst signed error with its run."""
    worst = max(sub, key=lambda r: abs(r["error"]))
    return Band(engine, kind, len(sub), statistics.median(abs(r["error"]) for r in sub), worst["error"],
                tuple(dict.fromkeys(r["source"] for r in sub)), reading, f"{worst['source']} {worst['run']}")


def bands(engine: str, kind: str) -> list[Band]:
    """The engine's band for this kind, one per reading; [] when it ran no published run of it."""
    mine = [r for r in rows() if r["engine"] == engine and r["kind"] == kind]
    out = []
    for reading in dict.fromkeys(r.get("reading", "") for r in mine):
        sub = [r for r in mine if r.get("reading", "") == reading]
        out.append(summarise(engine, kind, sub, reading))
    return out


def kinds_of(problem, layout) -> list[str]:
    """What kind of run a plan is, most specific last: the model (MoE or dense), then long-context CP
    (a layout with CP), then FP8 (linear GEMMs in FP8)."""
    out = ["moe" if problem.model.is_moe else "dense"]
    if layout.cp > 1:
        out.append("cp")
    if problem.train.precision != "bf16":
        out.append("fp8")
    return out


def for_plan(target: str, problem, layout) -> list[Band]:
    return [b for k in kinds_of(problem, layout) for b in bands(target, k)]


def kind_text(kind: str, group: list[Band]) -> str:
    """One kind's band(s) in a few words: 'MoE median 4%, worst +36% (24 runs)'; a source read two
    ways gives both figures, in the order of its readings."""
    med = " / ".join(f"{b.median_abs:.0%}" for b in group)
    worst = " / ".join(f"{b.worst:+.0%}" for b in group)
    runs = f"{group[0].runs} runs" + (f", {' / '.join(b.reading for b in group)} count" if len(group) > 1 else "")
    return f"{KIND_NAMES[kind]} median {med}, worst {worst} ({runs})"


def describe(target: str, problem, layout) -> str:
    """One line: each band the target has for this plan's kinds, and the kinds it has none for."""
    kinds = kinds_of(problem, layout)
    have = [kind_text(k, bands(target, k)) for k in kinds if bands(target, k)]
    missing = [KIND_NAMES[k] for k in kinds if not bands(target, k)]
    if not have:
        other = [kind_text(k, bands(target, k)) for k in KIND_NAMES if k not in kinds and bands(target, k)]
        if not other:
            return NONE
        return (f"no published {' / '.join(missing)} runs to check against (other kinds it ran: "
                + "; ".join(other) + ")")
    return "; ".join(have + ([f"no published {' / '.join(missing)} runs"] if missing else []))


def document(target: str, problem, layout) -> dict:
    """The bands of a plan as the plan JSON carries them."""
    kinds = kinds_of(problem, layout)
    return {"kinds": kinds, "bands": [b.to_dict() for b in for_plan(target, problem, layout)],
            "no_published_runs": [k for k in kinds if not bands(target, k)]}

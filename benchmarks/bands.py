"""The machine-readable rows of the fidelity benchmarks: one entry per published run, with the
engine that ran it, its kind and the estimate's signed error, written where the planner reads
them (planner/engines/fidelity_bands.json; planner.engines.bands turns them into each engine's
known error band per kind).

Every error is in the throughput sense: estimated throughput / published throughput - 1 (for a
seconds row: published seconds / estimated seconds - 1), so + means the estimate is faster
than the run was. Each benchmark script writes its own section (`write(section, rows)`);
the sections of the other scripts are kept as they are.

Kinds: "dense", "moe", "cp" (long-context runs with context parallelism), "fp8" (FP8 linear
GEMMs; the row's error is the FP8 run's absolute error). A row whose source leaves its
reading open (NeMo's FLOP count: full-mask or causal) carries `reading`, one row per reading.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "planner" / "engines" / "fidelity_bands.json"
SCHEMA = "foldplan.fidelity-bands/1"
KINDS = ("dense", "moe", "cp", "fp8")


def row(engine: str, kind: str, source: str, run: str, error: float, reading: str = "") -> dict:
    assert kind in KINDS, kind
    out = {"engine": engine, "kind": kind, "source": source, "run": run, "error": round(float(error), 6)}
    if reading:
        out["reading"] = reading
    return out


def from_seconds(estimated: float, measured: float) -> float:
    """A seconds row's error in the throughput sense."""
    return measured / estimated - 1


def write(section: str, rows: list[dict], path: Path = PATH) -> None:
    """Replace `section`'s rows in the file (atomically), keeping every other section's."""
    doc = json.loads(path.read_text()) if path.exists() else {}
    sections = dict(doc.get("sections", {}))
    sections[section] = rows
    doc = {"schema": SCHEMA,
           "sign": "estimated throughput / published throughput - 1: + means the estimate is faster than the run",
           "written_by": "benchmarks/fidelity.py, fidelity_fp8.py, fidelity_cp.py, fidelity_ep.py (--markdown)",
           "sections": {k: sections[k] for k in sorted(sections)}}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


# which engine ran each dense source (docs/fidelity.md): the Megatron-LM papers, and MT-NLG 530B on
# DeepSpeed's pipeline engine with Megatron's layers
DENSE_ENGINE = {"N21": "megatron", "K22": "megatron", "MT": "deepspeed"}


def dense_rows(summary) -> list[dict]:
    """benchmarks/fidelity.py's dense rows."""
    return [row(DENSE_ENGINE[r.run.source], "dense", r.run.source,
                f"{r.run.model.name} {r.run.gpus} GPUs tp{r.run.tp} pp{r.run.pp} {r.run.recompute}", r.rel_error)
            for r in summary.rows]


def moe_rows(rows) -> list[dict]:
    """benchmarks/fidelity_moe.py's MoE Parallel Folding rows (Megatron-Core)."""
    return [row("megatron", "moe", r.run.source, f"{r.run.model.name} {r.run.gpus} GPUs {r.run.mapping} "
                f"GBS {r.run.global_batch}", r.rel_error) for r in rows]


def torchtitan_rows(tt_runs) -> list[dict]:
    """torchtitan's Llama 3.1 8B rows at the preset's peak (the middle of fidelity_moe.torchtitan_runs)."""
    _, mid, _ = tt_runs
    return [row("torchtitan", "dense", "TT", f"llama3-8b {n} GPUs {'torch.compile' if comp else 'eager'}",
                est / pub - 1) for n, comp, _, est, pub in mid]


def ep_rows(overlap_pair, zoo_pair) -> list[dict]:
    """Megatron-Bridge's and the ModelZoo's MoE runs with and without the EP overlap (seconds rows)."""
    return [row("megatron", "moe", r.name.split()[0], r.name, from_seconds(r.estimate, r.measured))
            for r in (*overlap_pair, *zoo_pair)]


def cp_rows(rows) -> list[dict]:
    """NeMo's long-sequence rows (Megatron-Core), one per reading of its FLOP count."""
    out = []
    for r in rows:
        name = f"llama2-7b {r.run.seq_k}k {r.run.gpus} GPUs cp{r.run.cp}"
        out.append(row("megatron", "cp", "NeMo", name, r.rel_error, "full-mask"))
        out.append(row("megatron", "cp", "NeMo", name, r.rel_error_causal, "causal"))
    return out


def cp_torchtitan_rows(tt) -> list[dict]:
    """torchtitan's published CP rows (benchmarks/fidelity_cp.py torchtitan_rows: Llama 3.1 8B, CP 1..8)."""
    return [row("torchtitan", "cp", "TTCP", f"llama3-8b {seq // 1024}k 8 GPUs cp{cp}", est / pub - 1)
            for cp, seq, est, pub, _, _ in tt]


FP8_ENGINE = {"F25-T2": "megatron", "TT6": "torchtitan", "TT12": "torchtitan"}


def fp8_rows(pairs) -> list[dict]:
    """benchmarks/fidelity_fp8.py: each FP8 run's absolute error; the BF16 halves of torchtitan's TT6
    pairs as dense runs (TT12's BF16 halves are the torchtitan rows already)."""
    out = []
    for pr in pairs:
        eng = FP8_ENGINE[pr.source]
        if pr.source == "TT6":
            out.append(row(eng, "dense", pr.source, f"{pr.what} bf16", pr.est_base / pr.base - 1))
        for prec, pub, est, _ in pr.rows():
            out.append(row(eng, "fp8", pr.source, f"{pr.what} {prec}", est / pub - 1))
    return out

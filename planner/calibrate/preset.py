"""A calibration results file -> a GPU preset YAML (planner/specs/presets/gpus/*.yaml's schema) whose
measured fields replace the base preset's, with a `calibration` block saying which measurement set
each field, by which fit, and which fields were kept from the base preset."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from planner import safeio
from planner.calibrate import fit
from planner.engines.bundle.rules import attention_kernel
from planner.specs import GPUSpec, build, load_gpu

KINDS = {"gemm": ("name", "m", "k", "n", "flops", "time_s"),
         "grouped_gemm": ("name", "experts", "rows", "k", "n", "flops", "time_s"),
         "attention": ("block", "heads", "head_dim", "flops", "time_s"),
         "memory": ("op", "bytes", "time_s"),
         "collective": ("op", "axis", "group_size", "span", "bytes", "time_s"),
         "skipped": ("what", "why")}
OPS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "p2p")
PROVENANCE = ("host", "torch", "device", "date", "world_size", "backend")
MAX_RESULTS_BYTES = 64 * 2 ** 20


def _number(row: dict, key: str, where: str, positive: bool = True) -> None:
    v = row[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
        raise safeio.InputError(f"{where}.{key}: expected a finite number, got {v!r:.40}")
    if positive and v <= 0:
        raise safeio.InputError(f"{where}.{key}: must be positive, got {v}")


def _check_row(row, where: str) -> dict:
    if not isinstance(row, dict) or row.get("kind") not in KINDS:
        raise safeio.InputError(f"{where}: expected an object with kind one of {', '.join(KINDS)}")
    for k in KINDS[row["kind"]]:
        if k not in row:
            raise safeio.InputError(f"{where}: a {row['kind']} row lacks {k!r}")
    for k in ("m", "k", "n", "flops", "time_s", "experts", "rows", "block", "heads", "head_dim", "bytes",
              "group_size"):
        if k in row:
            _number(row, k, where)
    if row["kind"] == "collective":
        if row["op"] not in OPS:
            raise safeio.InputError(f"{where}.op: {row['op']!r:.40} is not one of {', '.join(OPS)}")
        if row["span"] not in ("intra", "inter"):
            raise safeio.InputError(f"{where}.span: expected intra or inter, got {row['span']!r:.40}")
        if row["group_size"] < 2:
            raise safeio.InputError(f"{where}.group_size: a collective needs 2 or more ranks, got {row['group_size']}")
    return row


def read_results(path) -> tuple[dict, list[dict]]:
    """(provenance, measurement rows) of a calibrate.py results file; one-line InputError if malformed."""
    text = safeio.read_text_limited(path, "results", MAX_RESULTS_BYTES)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise safeio.InputError(f"results: {path} is empty (calibrate.py writes one JSON line per measurement)")
    rows = []
    for i, ln in enumerate(lines, 1):
        try:
            rows.append(json.loads(ln))
        except ValueError as e:
            raise safeio.InputError(f"results: {Path(path).name} line {i} is not JSON ({e.msg})") from None
    prov = rows[0]
    if not isinstance(prov, dict) or prov.get("kind") != "provenance":
        raise safeio.InputError(f"results: {Path(path).name} line 1 should be the provenance row "
                                f"(kind provenance: {', '.join(PROVENANCE)}), as calibrate.py writes it")
    missing = [k for k in PROVENANCE if k not in prov]
    if missing:
        raise safeio.InputError(f"results: the provenance row lacks {', '.join(missing)}")
    body = [_check_row(r, f"results line {i}") for i, r in enumerate(rows[1:], 2)]
    if not any(r["kind"] != "skipped" for r in body):
        raise safeio.InputError(f"results: {Path(path).name} holds no measurement")
    return prov, body


def calibrated_fields(prov: dict, rows: list[dict], base) -> tuple[dict, dict, list[str]]:
    """(new field values, {field: how it was measured}, notes) over the base GPUSpec."""
    new, how, notes = {}, {}, []
    peak = base.peak_flops
    if prov.get("device_type") != "cuda":
        # not the preset's accelerator (a CPU try of the round trip): its datasheet peak is unknown here, so
        # the best measured GEMM rate stands as the peak (compute_efficiency 1.0) and every efficiency below
        # is relative to it
        best, _ = fit.compute_efficiency(rows, 1.0)
        if best is not None:
            peak = new["peak_flops"] = best
            how["peak_flops"] = (f"{prov.get('device_type')} device, not the {base.name} preset's GPU: its peak is "
                                 f"unknown, the best measured GEMM rate ({best / 1e12:.4g} TFLOP/s) stands for it")
    eta, note = fit.compute_efficiency(rows, peak)
    if eta is not None:
        if eta > 1:
            notes.append(f"compute_efficiency: measured {eta:.3g} of the base peak (above 1: the base preset's "
                         f"peak_flops is below this device's); capped at 1.0")
        new["compute_efficiency"] = min(eta, 1.0)
        how["compute_efficiency"] = note
    else:
        notes.append(f"compute_efficiency: {note}")
    curve, note = fit.attention_curve(rows, peak)
    prefix = "flash2_attention" if attention_kernel(base) == "flash2" else "attention"
    if curve is not None:
        new[f"{prefix}_efficiency"], new[f"{prefix}_half_block"] = min(curve[0], 1.0), curve[1]
        how[f"{prefix}_efficiency"] = how[f"{prefix}_half_block"] = (
            f"{note}; SDPA is the bundle's kernel, so the base preset's {prefix} curve is the one replaced")
    else:
        notes.append(f"{prefix} curve: {note}")
    bw, note = fit.memory_bandwidth(rows)
    if bw is not None:
        new["hbm_bw"] = bw / base.hbm_efficiency
        how["hbm_bw"] = f"{note}; field = measured / hbm_efficiency {base.hbm_efficiency} (kept)"
    coll, note = fit.collectives(rows)
    if "latency_s" in coll:
        new["latency_s"], how["latency_s"] = coll["latency_s"], note
    for span, field in (("intra", "intra_node_bw"), ("inter", "inter_node_bw")):
        if span in coll:
            new[field] = coll[span] / base.bus_efficiency
            how[field] = (f"{note}; the preset holds the link rate, the cost model multiplies it by "
                          f"bus_efficiency {base.bus_efficiency} (kept): field = measured / {base.bus_efficiency}")
    if not coll or len(coll) == 1:
        notes.append(f"collectives: {note}")
    if prov.get("device_type") == "cuda" and isinstance(prov.get("memory_gib"), (int, float)):
        new["memory_gib"] = float(prov["memory_gib"])
        how["memory_gib"] = f"torch.cuda.get_device_properties().total_memory on {prov['device']}"
    ratio, note = fit.grouped_ratio(rows)
    if ratio is not None:
        notes.append(f"grouped GEMM (no preset field; the cost model prices experts with compute_efficiency): {note}")
    notes += [f"not measured: {r['what']} ({r['why']})" for r in rows if r["kind"] == "skipped"]
    return {k: float(v) for k, v in new.items()}, how, notes


def build_preset(results_path, base_name: str) -> tuple[dict, list[str]]:
    """The preset mapping (YAML-ready) and the notes printed beside it."""
    prov, rows = read_results(results_path)
    base = load_gpu(base_name)
    new, how, notes = calibrated_fields(prov, rows, base)
    data = base.model_dump(mode="json")
    data.pop("name")
    data.update(new)
    build(GPUSpec, {"name": "calibrated", **data}, "calibrated preset")      # the values pass GPUSpec's checks
    data["source"] = (f"measured by the bundle's calibrate.py on {prov['host']} ({prov['device']}, torch "
                      f"{prov['torch']}, {prov['backend']}, world {prov['world_size']}, {prov['date']}); "
                      f"other fields from the {base.name} preset")
    kept = sorted(k for k in data if k not in new and k not in ("source", "memory_source"))
    data["calibration"] = {"base_preset": base.name, "results": str(results_path),
                           "provenance": {k: prov.get(k) for k in prov if k != "kind"},
                           "measured": {k: {"value": new[k], "fit": how[k]} for k in sorted(new)},
                           "kept_from_base": kept, "notes": notes}
    return data, notes


def write_preset(data: dict, out) -> Path:
    head = ("# GPU preset calibrated on the user's cluster by `foldplan calibrate` (calibration: below says\n"
            "# which measurement set each field and by which fit; kept_from_base: the base preset's values).\n"
            "# Use it with: foldplan plan --gpu THIS_FILE ...\n")
    text = head + yaml.safe_dump(data, sort_keys=False, width=110)
    return safeio.atomic_write_text(out, text, "out")

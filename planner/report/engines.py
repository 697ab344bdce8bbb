"""The engine block: the best plan each target (the bundle, Megatron-LM, torchtitan, OLMo-core)
can run on the same problem, side by side with its step, MFU, peak, what differs from the
detailed plan, and each target's known error band for runs of this kind (planner.engines.bands,
computed from the fidelity benchmarks' rows). The same values feed the text output, the plan
JSON's "engines" object (docs/plan-schema.md), sweeps and the HTML report.

`priced` is planner.solve.targets.price's answer for the targets other than the detailed one.
"""
from __future__ import annotations

from typing import Optional

from planner import costmodel as cm
from planner.engines import bands
from planner.layout import Layout
from planner.plan import Plan
from planner.specs.kinds import TARGETS
from planner import report

SIGN = "the cost model against published runs of this kind that the engine ran (docs/fidelity.md); " \
       "+ means the estimate was faster than the run"
_ATTENTION = {"flash2": "FA2", "flex": "FlexAttention", "fused": "cuDNN attention"}
_DEGREES = ("tp", "cp", "dp", "pp", "vpp")


def entries(best: Plan, priced: Optional[dict]) -> list[dict]:
    """One entry per target in TARGETS order: the detailed plan's own, then each priced one (None
    where nothing that target can run fits; targets not priced are left out)."""
    own = best.problem.train.target
    out = []
    for target in TARGETS:
        if target == own:
            out.append({"target": target, "detailed": True, "plan": (best.problem, best.layout, best.estimate),
                        "status": best.solver.get("status", ""), "slowdown": 0.0, "notes": []})
        elif priced is not None and target in priced:
            got = priced[target]
            if got is None or "layout" not in got:      # {"refused": why}: the model, sequence, precision
                out.append({"target": target, "detailed": False, "plan": None, "why": (got or {}).get("refused")})
                continue
            out.append({"target": target, "detailed": False, "status": got["status"], "slowdown": got["slowdown"],
                        "plan": (got["problem"], got["layout"], got["estimate"]), "notes": _notes(best, got)})
    return out


def _notes(best: Plan, got: dict) -> list[str]:
    """What the target's own defaults change beside the layout: kernels, attention, precision."""
    t, notes = best.problem.train, []
    if got.get("kernels") and got["kernels"] != t.kernels:
        notes.append(got["kernels"])
    if got.get("attention") and got["attention"] != t.attention_kernel:
        notes.append(_ATTENTION.get(got["attention"], got["attention"]))
    if got.get("precision") and got["precision"] != t.precision:
        notes.append(f"{got['precision']} (it runs no {t.precision})")
    return notes


def differs(ref: Layout, L: Layout) -> list[str]:
    """What of `L` differs from `ref`, as `L` has it, in the table's short words."""
    out = [" ".join(f"{f}{getattr(L, f)}" for f in _DEGREES
                    if getattr(L, f) != getattr(ref, f) and not (f == "vpp" and L.pp == 1))]
    if L.micro_batch != ref.micro_batch:
        out.append(f"mb{L.micro_batch}")
    if L.sharding != ref.sharding:
        out.append(L.sharding)
    if report.cp_text(L) != report.cp_text(ref):
        out.append(f"CP {report.cp_text(L)}")
    if L.order != ref.order:
        out.append(f"order {L.order.removesuffix('-pp')}")
    if report.folding(L) != report.folding(ref):
        out.append(report.folding(L))
    if report.split(L) != report.split(ref) and L.pp == ref.pp:
        out.append(f"split {report.split(L)}")
    if report.recompute(L) != report.recompute(ref):
        out.append(f"recompute {report.recompute(L)}")
    return [x for x in out if x]


def rows(best: Plan, priced: Optional[dict]) -> tuple[list[str], list[list[str]]]:
    """The block's table: one row per target, the detailed one marked `*`."""
    own = best.problem.train.target
    head = ["target", "step s", f"vs {own}", "MFU", "peak GiB", "tok/s/GPU", f"differs from the {own} plan"]
    body = []
    for e in entries(best, priced):
        name = e["target"] + (" *" if e["detailed"] else "")
        if e["plan"] is None:
            body.append([name, "-", "-", "-", "-", "-", e.get("why") or "nothing it can run fits"])
            continue
        _, L, est = e["plan"]
        what = "the plan detailed below" if e["detailed"] else \
            ", ".join(differs(best.layout, L) + e["notes"]) or "the same layout"
        if not e["detailed"] and e["status"] != "OPTIMAL":
            what += "; not proven best"
        body.append([name, f"{est.step_time:.3f}", f"{e['slowdown']:+.1%}", f"{est.mfu:.1%}",
                     f"{est.peak_bytes / cm.GiB:.1f}", f"{est.tokens_per_s_per_gpu:,.0f}", what])
    return head, body


def band_pairs(best: Plan, priced: Optional[dict]) -> list[tuple[str, str]]:
    """(target, its known error band for this plan's kinds of run), one per target with a plan."""
    return [(e["target"], bands.describe(e["target"], *e["plan"][:2])) for e in entries(best, priced) if e["plan"]]


def band_lines(best: Plan, priced: Optional[dict]) -> list[str]:
    return [f"  {t:10} {text}" for t, text in band_pairs(best, priced)]


def print_block(best: Plan, priced: Optional[dict], stream=None) -> None:
    head, body = rows(best, priced)
    title = "Best plan per target (* = detailed below; --target picks it)" + \
        ("; the other targets not priced (--no-engines)" if priced is None else "")
    report.print_table(head, body, title=title, stream=stream)
    print("Known error bands: the cost model against published runs of this kind the engine ran "
          "(docs/fidelity.md; + = estimate faster than the run):", file=stream)
    for line in band_lines(best, priced):
        print(line, file=stream)


def document(best: Plan, priced: Optional[dict]) -> dict:
    """The plan JSON's "engines" object (docs/plan-schema.md)."""
    targets = {}
    for e in entries(best, priced):
        if e["plan"] is None:
            targets[e["target"]] = None
            continue
        pr, L, est = e["plan"]
        targets[e["target"]] = {
            "detailed": e["detailed"], "status": e["status"], "slowdown": e["slowdown"],
            "step_time": est.step_time, "mfu": est.mfu, "peak_gib": est.peak_bytes / cm.GiB,
            "tokens_per_s_per_gpu": est.tokens_per_s_per_gpu, "layout": L.to_dict(),
            "differs": [] if e["detailed"] else differs(best.layout, L) + e["notes"],
            "error_band": bands.document(e["target"], pr, L)}
    refused = {e["target"]: e["why"] for e in entries(best, priced) if e["plan"] is None and e.get("why")}
    return {"detailed": best.problem.train.target, "priced": priced is not None, "sign": SIGN, "targets": targets,
            "refused": refused}

"""A foldplan ``plan.json`` (schema ``foldplan.plans/1``) -> ForeignConfig of its best plan.

Reads ``plans[0]``: the layout and its per-stage folding (``stages``), the model
(``problem.model``, keys already in plan-schema form) and the training shape
(``problem.train``). A plan whose stages fold differently keeps every stage in
``stages``; the top-level ``etp, ep, edp`` are those of stage 0.

``extra`` keys: ``order``, ``num_microbatches``, ``cluster`` (the problem's cluster record),
``train`` (the problem's training record: the audit estimates the job the plan describes,
its kernels, attention, precision and overlap included, on the plan's GPU and budget
unless flags say otherwise: planner/cli/audit.py ``base_problem``).
"""

from __future__ import annotations

import json

from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div
from planner import safeio
from planner.safeio import InputError

SCHEMA = "foldplan.plans/1"


def parse(text: str, path: str, world: int | None = None) -> ForeignConfig:
    try:                                   # bounded: depth, integer digits, NaN / Infinity refused
        doc = safeio.load_json(text, path)
    except safeio.InputError as e:
        raise AuditParseError(path, None, str(e).removeprefix(f"{path}: ")) from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise AuditParseError(path, None, f"not a foldplan plan file (schema must be {SCHEMA!r})")
    plans = doc.get("plans")
    if not isinstance(plans, list) or not plans or not isinstance(plans[0], dict):
        raise AuditParseError(path, None, "the plan file holds no plans")
    plan = plans[0]
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner.plan import files as plan_files     # the plan's own model: every field, named with its path
    try:
        plan_files.plan_entry(plan, "plans[0]")
    except InputError as e:
        raise AuditParseError(path, None, str(e)) from None
    except (ValueError, TypeError, OverflowError) as e:
        raise AuditParseError(path, None, f"plans[0]: {str(e).splitlines()[0][:200]}") from None
    layout = plan.get("layout")
    if not isinstance(layout, dict):
        raise AuditParseError(path, None, "plans[0] has no layout")
    problem = plan.get("problem") or {}
    train = problem.get("train") or {}
    model = dict(problem.get("model") or {})
    name = model.pop("name", None)
    stages = tuple(dict(s) for s in layout.get("stages") or ())
    if not stages:
        raise AuditParseError(path, None, "plans[0].layout has no stages")
    for k in ("tp", "cp", "dp", "pp"):
        v = layout.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise AuditParseError(path, None, f"layout.{k} must be a positive integer, got {v!r}")
    first = stages[0]
    seq = train.get("seq")
    tokens = train.get("global_batch_tokens")
    spans = [s.get("layers") or [0, 0] for s in stages]
    recompute = "none"
    if any(s.get("recompute_full") for s in stages):
        recompute = "full"
    elif any(s.get("recompute_selective") for s in stages):
        recompute = "selective"
    return ForeignConfig(
        format="foldplan", path=path,
        tp=layout["tp"], cp=layout["cp"], dp=layout["dp"], pp=layout["pp"], vpp=layout.get("vpp", 1),
        etp=first.get("etp"), ep=first.get("ep"), edp=first.get("edp"),
        cp_kind=layout.get("cp_kind") if layout["cp"] > 1 else None,
        cp_ulysses=layout.get("cp_ulysses"), cp_ring=layout.get("cp_ring"),
        world=world if world is not None else layout.get("world"),
        micro_batch=layout.get("micro_batch"),
        global_batch=exact_div(tokens, seq), seq=seq, recompute=recompute,
        first_stage_layers=spans[0][1] - spans[0][0], last_stage_layers=spans[-1][1] - spans[-1][0],
        stages=stages, model=model, model_name=name,
        sharding=layout.get("sharding"), master=layout.get("master"),
        extra={"order": layout.get("order"), "num_microbatches": layout.get("num_microbatches"),
               **{k: layout[k] for k in ("cp_comm", "cp_balance") if layout.get(k)},
               "cluster": problem.get("cluster"), "train": train,
               **{k: layout[k] for k in ("dispatcher", "ep_overlap", "delay_wgrad") if k in layout}},
    )

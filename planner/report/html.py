"""The HTML report: one self-contained page (inline CSS, inline SVG, a few lines of JS for
hover) for a plan search (`foldplan plan --report`) or an audit.

Python computes every coordinate, colour and label here; `templates/report.html.j2` only
loops and substitutes (StrictUndefined, autoescape). Reads plans and estimates only: no
search, no formulas of its own (the Pareto plot evaluates the solver's layouts and a stated
sample of the search's space, planner/report/pareto.py, with `costmodel.evaluate`, the one
source of the numbers).

Sections: the best plan of every target with its known error band (planner/report/engines.py),
the rank map (every GPU a cell, grouped by node, coloured by pipeline stage; the dense view dp x cp x tp beside the expert view edp x ep x etp of the same ranks),
memory per stage against the budget, the step's time split, the top plans and the Pareto
plot over the search's space; for an audit, the findings and the audited layout beside
the best plan.
"""
from __future__ import annotations

import os  # noqa: F401  (tests patch htmlreport.os.replace)
from pathlib import Path
from types import SimpleNamespace
from typing import Optional

import jinja2

from planner import report, safeio
from planner.layout import Layout
from planner.plan import Plan
from planner.specs import Problem, problem_from_dict

from planner.report.svg import (TEMPLATES, MAX_CELLS, STAGE_COLOURS, SHADES, MEM_TERMS, MEM_COLOURS,
                                TIME_PARTS, TIME_COLOURS, DENSE_AXES_VIEW, EXPERT_AXES_VIEW, HOVER_AXES,
                                SEVERITY_COLOURS, Subject, _est_dict, subject_of, _n, _rect, _text, _line,
                                _circle, _group, _svg, _shade, stage_colour, _nice_ticks, _fmt_tick,
                                ranks_text, shown_ranks, _group_table, _cell_title, rank_map,
                                _view_degrees)  # noqa: F401  (re-exported)
from planner.report import engines as engine_block
from planner.report.pareto import cloud
from planner.report.charts import (memory_chart, time_parts, _part_name, time_chart, time_table, _layout_text,
                                   pareto_chart, summary_row, SUMMARY_HEAD,
                                   _legends)  # noqa: F401  (re-exported)


# --------------------------------------------------------------------------- pages

def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                              autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _render(**ctx) -> str:
    return _env().get_template("report.html.j2").render(**ctx)


def _subject_block(s: Subject, max_cells: int, y_max: Optional[float] = None) -> dict:
    try:
        ranks, why_not = rank_map(s, max_cells), ""
    except (ValueError, KeyError, IndexError, ZeroDivisionError) as e:     # a layout that breaks the grid's rules
        ranks, why_not = None, f"no rank map: the layout does not form a rank grid ({str(e).splitlines()[0]})"
    return {"title": s.title, "rank_map": ranks, "rank_map_error": why_not, "memory": memory_chart(s, y_max),
            "time_rows": time_table(s.est)}


def render_plan_report(plans: list[Plan], result=None, max_cells: int = MAX_CELLS, priced=None) -> str:
    """The page for a plan search: plans best first; result (a SearchResult) adds the Pareto plot;
    `priced` (planner.solve.targets.price of the other targets) the engine comparison."""
    if not plans:
        raise ValueError("no plans to report")
    best = plans[0]
    problem = best.problem
    subjects = [subject_of(p, f"#{i}") for i, p in enumerate(plans, 1)]
    head, body = report.rows(plans)
    pareto = None
    if result is not None and getattr(result, "evaluated", None):
        cl = cloud(problem, result)
        pareto = {**pareto_chart(problem, cl.layouts, best.layout, [p.layout for p in plans]),
                  "caption": cl.caption()}
    solver = best.solver or {}
    solver_text = ", ".join(f"{k} {solver[k]}" for k in ("status", "tuples", "pruned", "cpsat_calls", "wall_s")
                            if k in solver)
    e_head, e_body = engine_block.rows(best, priced)
    engines = {"head": e_head, "rows": e_body, "bands": engine_block.band_pairs(best, priced),
               "priced": priced is not None, "sign": engine_block.SIGN}
    return _render(kind="plan", page_title=f"foldplan plan: {problem.model.name} on {problem.cluster.gpus} GPUs",
                   header=report.header(problem).splitlines(), why=report.why(plans), solver=solver_text,
                   engines=engines,
                   main=_subject_block(subjects[0], max_cells), best_layout=_layout_text(best.layout),
                   time_svg=time_chart(subjects), table_head=head, table_rows=body, pareto=pareto,
                   legends=_legends(), audit=None, hover_axes=list(HOVER_AXES))


def write_plan_report(plans: list[Plan], result, path, priced=None) -> Path:
    return write_atomic(render_plan_report(plans, result, priced=priced), path)


def _audit_subjects(audit_json: dict, best_plan, audited) -> tuple[Optional[Subject], Optional[Subject]]:
    problem = None
    if audited is not None:
        problem = audited.problem
    elif audit_json.get("problem"):
        problem = problem_from_dict(audit_json["problem"])
    elif best_plan is not None:
        problem = best_plan.problem
    a = b = None
    if audited is not None:
        a = subject_of(audited, "audited")
    elif problem is not None and audit_json.get("layout") and audit_json.get("estimate"):
        a = Subject("audited", problem, Layout.from_dict(audit_json["layout"]), dict(audit_json["estimate"]))
    if best_plan is not None:
        b = subject_of(best_plan, "best")
    elif problem is not None and audit_json.get("best"):
        best = audit_json["best"]
        b = Subject("best", problem, Layout.from_dict(best["layout"]), dict(best["estimate"]))
    return a, b


def _from_audit_object(audit, best_plan, audited):
    """An AuditReport (planner.audit) as (its JSON dict, best plan-like, audited plan-like)."""
    if isinstance(audit, dict):
        return audit, best_plan, audited
    doc = audit.to_json()
    problem = getattr(audit, "problem", None)
    if problem is not None:
        if audited is None and getattr(audit, "layout", None) is not None and audit.estimate is not None:
            audited = SimpleNamespace(problem=problem, layout=audit.layout, estimate=audit.estimate)
        if best_plan is None and getattr(audit, "best_layout", None) is not None and audit.best_estimate is not None:
            best_plan = SimpleNamespace(problem=problem, layout=audit.best_layout, estimate=audit.best_estimate)
    return doc, best_plan, audited


def render_audit_report(audit_json: dict, best_plan: Optional[Plan] = None, audited=None,
                        max_cells: int = MAX_CELLS) -> str:
    """The page for an audit (schema foldplan.audit/1): findings, then the audited layout
    beside the best plan (memory, time, rank maps). `audited` and `best_plan` are anything
    with .problem, .layout, .estimate; where absent they come from the audit dict
    ("problem", "layout", "estimate", "best"). An AuditReport object is taken too."""
    audit_json, best_plan, audited = _from_audit_object(audit_json, best_plan, audited)
    a, b = _audit_subjects(audit_json, best_plan, audited)
    findings = []
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in audit_json.get("findings", []):
        sev = f.get("severity", "info")
        counts[sev] = counts.get(sev, 0) + 1
        findings.append({"severity": sev, "colour": SEVERITY_COLOURS.get(sev, "#555"), "rule": f.get("rule", ""),
                         "message": f.get("message", ""), "fix": f.get("fix") or ""})
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: order.get(f["severity"], 3))
    subjects = [s for s in (a, b) if s is not None]
    y_max = None
    if subjects:
        y_max = max([x.problem.cluster.memory_budget_gib for x in subjects]
                    + [m["total"] for x in subjects for m in x.est["memory_gib_by_stage"]]) * 1.1
    blocks = [_subject_block(s, max_cells, y_max) for s in subjects]
    src = audit_json.get("source") or {}
    speedup = audit_json.get("speedup_of_best")
    problem = subjects[0].problem if subjects else None
    audit = {"source": f"{src.get('format', '?')} config {src.get('path', '')}".strip(),
             "assumed": list(src.get("assumed", [])), "findings": findings,
             "counts": ", ".join(f"{v} {k}{'s' if v != 1 else ''}" for k, v in counts.items()),
             "speedup": f"the best plan is {speedup:.2f}x as fast as the audited layout" if speedup else "",
             "blocks": blocks, "table_rows": [summary_row(s) for s in subjects],
             "has_audited": a is not None, "has_best": b is not None}
    return _render(kind="audit", page_title=f"foldplan audit: {src.get('path', 'config')}",
                   header=report.header(problem).splitlines() if problem else [], why=[], solver="",
                   main=None, best_layout="", time_svg=time_chart(subjects) if subjects else None,
                   table_head=SUMMARY_HEAD, table_rows=[], pareto=None, legends=_legends(), audit=audit,
                   hover_axes=list(HOVER_AXES))


def write_audit_report(audit, path, best_plan: Optional[Plan] = None, audited=None) -> Path:
    """Write the audit page (audit: the foldplan.audit/1 dict or an AuditReport) atomically."""
    return write_atomic(render_audit_report(audit, best_plan, audited), path)


def write_atomic(text: str, path) -> Path:
    """Write the page atomically (planner.safeio): a temp file beside PATH, fsync, rename;
    only a new file or a regular file is replaced, and the directory must exist."""
    return safeio.atomic_write_text(path, text, field="report")

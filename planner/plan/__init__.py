"""Plan = Problem + Layout + Estimate + solver record, and the versioned JSON document.

Schema `foldplan.plans/1` (docs/plan-schema.md): {"schema", "plans": [PLAN, ...]}, best
first. Floats are rounded to 6 significant digits and keys sorted, so the same input
gives byte-identical JSON — except `solver.wall_s`, the one field that measures the run.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Optional

from pydantic import ValidationError

from planner import costmodel as cm
from planner import safeio
from planner.safeio import validate
from planner.plan import files as validate_files
from planner.layout import Layout, check
from planner.specs import Problem, one_line, problem_from_dict

SCHEMA = "foldplan.plans/1"


class PlanFileError(ValueError):
    """A plan file could not be read. One line, naming the file and the field."""


@dataclass
class Plan:
    problem: Problem
    layout: Layout
    estimate: cm.Estimate
    solver: dict

    def to_dict(self) -> dict:
        return {"problem": self.problem.to_dict(), "layout": self.layout.to_dict(),
                "estimate": self.estimate.to_dict(), "solver": dict(self.solver)}


def _round(x):
    if isinstance(x, float):
        if x == 0 or not math.isfinite(x):
            return x
        return float(f"{x:.6g}")
    if isinstance(x, dict):
        return {k: _round(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v) for v in x]
    if hasattr(x, "item"):          # numpy scalar
        return _round(x.item())
    return x


def document(plans: list[Plan]) -> dict:
    return {"schema": SCHEMA, "plans": [_round(p.to_dict()) for p in plans]}


def dumps(plans: list[Plan], extra: Optional[dict] = None) -> str:
    """The document as text; `extra`: top-level objects beside the plans (the CLI's "engines")."""
    return json.dumps({**document(plans), **_round(extra or {})}, indent=1, sort_keys=True) + "\n"


def solver_record(result, cand) -> dict:
    return {"status": "OPTIMAL" if result.status == "OPTIMAL" and cand.status == "OPTIMAL" else "FEASIBLE",
            "wall_s": round(result.wall_s, 2), "tuples": result.tuples, "pruned": result.pruned,
            "cpsat_calls": result.cpsat_calls}


def from_search(problem: Problem, result) -> list[Plan]:
    return [Plan(problem, c.layout, c.estimate, solver_record(result, c)) for c in result.plans]


def load(path: str, index: Optional[int] = None) -> list[Plan]:
    """Read a plan file back (for explain / audit / bundle); re-checks and re-estimates."""
    try:                                    # a regular file, bounded in size and depth (planner.safeio)
        doc = safeio.read_json(path, "plan")
    except safeio.InputError as e:
        raise PlanFileError(str(e)) from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise PlanFileError(f"{path}: schema must be {SCHEMA!r}, got {doc.get('schema') if isinstance(doc, dict) else None!r}")
    plans = doc.get("plans")
    if not isinstance(plans, list) or not plans:
        raise PlanFileError(f"{path}: 'plans' must be a non-empty list")
    try:
        validate.plan_index(index, len(plans), path)
    except safeio.InputError as e:
        raise PlanFileError(str(e)) from None
    out = []
    for i, p in enumerate(plans):
        if index is not None and i != index:
            continue
        try:
            validate_files.plan_entry(p, f"{path}: plans[{i}]")    # every field, named with its path
        except safeio.InputError as e:
            raise PlanFileError(str(e)) from None
        try:
            problem = problem_from_dict(p["problem"])
            layout = Layout.from_dict(p["layout"])
        except KeyError as e:
            raise PlanFileError(f"{path}: plans[{i}] lacks {e}") from None
        except ValidationError as e:        # pydantic: name the field, on one line
            raise PlanFileError(f"{path}: plans[{i}]: {one_line(e)}") from None
        except (TypeError, ValueError) as e:
            raise PlanFileError(f"{path}: plans[{i}]: {str(e).splitlines()[0]}") from None
        check(layout, problem)
        out.append(Plan(problem, layout, cm.evaluate(problem, layout), p.get("solver", {})))
    return out

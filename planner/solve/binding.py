"""What binds a plan, found by search rather than read off its peak: memory binds only when a
faster layout exists that the budget excludes. `memory_binding` searches the same problem
again under RELAX times the budget (top 1, no tie-break) and compares the fastest plans.

RELAX = 4: four times an 80 GB budget is more than any layout the search enumerates needs
once it shards its state (zero3 over the data-parallel ranks and recompute of every layer
bring any plan of the models in planner/specs/presets/models under it); it is a search
bound, not a physical one, and the line says "with 4x the memory" rather than "unlimited".
"""
from __future__ import annotations

from typing import Optional

from planner import costmodel as cm
from planner.solve import targets

RELAX = 4


def memory_binding(problem, fastest_s: float, time_limit: float = 30.0) -> Optional[dict]:
    """None when no layout is faster with RELAX times the budget; else the faster layout, its
    step (s) and peak (GiB)."""
    c = problem.cluster
    big = problem.model_copy(update={"cluster": c.model_copy(update={"memory_budget_gib": c.memory_budget_gib * RELAX})})
    res = targets.search(big, top=1, time_limit=time_limit, settle=False)
    if not res.plans:
        return None
    best = res.plans[0]
    if best.estimate.step_time >= fastest_s * (1 - 1e-6):
        return None
    return {"layout": best.layout, "step_s": best.estimate.step_time, "peak_gib": best.estimate.peak_bytes / cm.GiB}

"""What the audit's memory verdict may claim: the estimate's measured error, and the routing tail.

* The model's measured error. Whole-job memory estimates against engines' measured peaks
  (tests/test_memory_engines.py: torchtitan's Llama 3.1 8B FSDP rows on 8 and 128 H100, logged
  maximum reserved 82.4 and 67.0 GiB, estimated -2.9% and -2.7%) put the estimate within
  `MEMORY_ERROR` of what a job holds. A stage over its budget by less than that is not a verdict the
  model can give: the finding says so and is a warning (tests/test_memory_verdict.py recomputes the
  measured errors and checks this figure against them).
* The routing tail (planner.costmodel.tail): the verdict budgets a dropless MoE's busiest EP rank
  at its steady-state load; where a burst at the 1 - 1e-4 quantile would not fit, a warning states
  how likely the busiest rank is to pass the load at which the stage overflows, and the fixes.
"""
from __future__ import annotations

from planner.costmodel.routing import MEMORY_QUANTILE
from planner.costmodel.tail import routing_tail
from planner.layout.foreign import Finding

MEMORY_ERROR = 0.03     # the largest whole-job error measured (2.9%), tests/test_memory_engines.py


def error_note(total_gib: float, budget_gib: float) -> str:
    return (f"; within the estimate's measured error ({MEMORY_ERROR:.0%} of the budget: whole-job estimates "
            f"against measured peaks, tests/test_memory_engines.py), so not an error: it may fit")


def tail_findings(path: str, problem, layout) -> list[Finding]:
    """A warning where a dropless routing burst (the tail) would not fit though the steady state does."""
    t = routing_tail(problem, layout)
    if t is None or t.fits or t.steady_gib > t.budget_gib:
        return []
    bal = "forced balance" if t.balancing == "forced" else f"{t.balancing} balancing"
    return [Finding(
        "warning", "memory.routing_tail",
        f"{path}: stage {t.stage} holds {t.steady_gib:.1f} GiB with the busiest EP rank at x{t.steady_load:.2f} the "
        f"mean expert rows, its steady state under {bal} (Wang et al. 2024, arXiv 2408.15664, Table 2); a routing "
        f"burst (early training, before the balancing settles) at the 1 - {1 - MEMORY_QUANTILE:.0e} quantile, x"
        f"{t.tail_load:.2f}, would need {t.tail_gib:.1f} GiB > budget {t.budget_gib:.1f} GiB: the stage overflows "
        f"when the busiest rank's rows pass x{t.level:.2f} over the {t.moe_layers} MoE layers it holds: probability "
        f"{t.stage_probability:.1e} with the layers' loads independent, at most {t.probability:.1e} (one layer's "
        f"micro-batch) if they move together",
        f"cap the rows with a capacity factor of {t.level:.2f} or less (Megatron --moe-expert-capacity-factor; "
        f"it drops the rows above it; --moe-pad-expert-input-to-capacity makes the buffers fixed), recompute the "
        f"experts (--recompute-modules moe_act or moe), or plan with the tail budgeted (--routing-memory tail)")]

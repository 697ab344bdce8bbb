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

from planner import costmodel as cm
from planner.costmodel.routing import MEMORY_QUANTILE
from planner.costmodel.tail import routing_tail
from planner.layout.foreign import Finding, ForeignConfig
from planner.specs import Problem

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


_TERMS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")


def memory_findings(cfg: ForeignConfig, problem: Problem, est: cm.Estimate, unmodelled: tuple = ()) -> list[Finding]:
    """One finding for the stage furthest over (or nearest to) the budget: its largest term and the excess.
    Over budget is an error only when the estimate models everything the config sets that changes memory;
    otherwise a warning that names those settings."""
    budget = problem.cluster.memory_budget_gib
    gpu = problem.cluster.gpu
    totals = [st.total / cm.GiB for st in est.stages]
    st = est.stages[est.peak_stage]
    total = totals[st.index]
    terms = {k: getattr(st, k) / cm.GiB for k in _TERMS}
    top = max(terms, key=terms.get)
    shown = ", ".join(f"{k} {v:.1f}" for k, v in sorted(terms.items(), key=lambda kv: -kv[1]) if v >= 0.05)
    over = [i for i, t in enumerate(totals) if t > budget]
    if over:
        others = f"; {len(over)} of {len(totals)} stages are over ({_ranges(over)})" if len(over) > 1 else ""
        fix = {"activations": "recompute more layers (full recompute), raise cp or tp, or lower the micro-batch",
               "logits": "raise tp or cp (they split the last stage's logits), or move layers off the last stage",
               "buffers": "lower the MoE capacity factor or the micro-batch"}.get(
            top, "shard the states further: more dp (distributed optimizer), more pp, or more ep")
        unsure = [u[0] for u in unmodelled if "memory" in u[1]]
        caveat = (f"; not an error: the estimate does not model {', '.join(unsure)}, which change memory"
                  if unsure else "")
        near = max(totals) <= budget * (1 + MEMORY_ERROR)
        caveat += error_note(total, budget) if near else ""
        return [Finding("warning" if unsure or near else "error", "memory.stage_over_budget",
                        f"{cfg.path}: stage {st.index} needs {total:.1f} GiB > budget {budget:.1f} GiB "
                        f"({_budget_arithmetic(gpu, budget)}) "
                        f"by {total - budget:.1f} GiB; {top} is the largest term ({shown} GiB){others}{caveat}", fix)]
    if total > 0.9 * budget:
        return [Finding("warning", "memory.stage_near_budget",
                        f"{cfg.path}: stage {st.index} uses {total:.1f} of {budget:.1f} GiB ({total / budget:.0%}); "
                        f"{top} {terms[top]:.1f} GiB is the largest term",
                        "leave headroom for fragmentation: recompute a few more layers")]
    return []


def _budget_arithmetic(gpu, budget: float) -> str:
    """How the budget comes from the GPU: (memory - context reserve) / (1 + allocator margin) x fraction."""
    alloc = gpu.allocatable_gib
    frac = f" x {budget / alloc:.2f}" if abs(budget / alloc - 1) > 5e-3 else ""
    return (f"{gpu.name}: ({gpu.memory_gib:.1f} GiB - {gpu.reserve_gib:.1f} reserve) / {1 + gpu.allocator_margin:.3f} "
            f"allocator margin = {alloc:.1f} GiB allocatable{frac}")


def _ranges(xs: list[int]) -> str:
    """[0, 1, 2, 5] -> "stages 0-2, 5"."""
    out, start = [], xs[0]
    for a, b in zip(xs, xs[1:] + [None]):
        if b != a + 1:
            out.append(f"{start}-{a}" if a != start else f"{a}")
            start = b
    return "stages " + ", ".join(out)

"""The dropless routing tail of a layout's memory: what a burst of routed rows above the steady state
would need, and how likely the stage is to see it (planner/costmodel/routing.py has the model).

The memory verdict budgets the busiest EP rank's rows in steady state (`routing_memory = "steady"`).
A stage's memory is linear in those rows (R_rows, planner/costmodel/formulas.py), so the stage is
evaluated twice -- at the steady load m_s and at the 1 - 1e-4 tail m_q -- and the load at which the
stage reaches its budget B is read off the line between them:

    level = m_s + (B - M(m_s)) (m_q - m_s) / (M(m_q) - M(m_s))

The probability that one layer's micro-batch sends the busiest rank more than `level` x the mean rows
is `routing.exceed_probability`. A stage overflows only when the rows it holds at its peak are that
high on average over its MoE layers: with the layers' loads independent (different experts) that is
`stage_probability`; with them moving together, the per-layer `probability` bounds it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from planner.costmodel import routing
from planner.costmodel.assemble import GiB, evaluate
from planner.costmodel.values import expert_rows, layout_values, layout_vector


@dataclass(frozen=True)
class RoutingTail:
    stage: int                      # the stage the tail reaches first (the most likely to overflow)
    steady_gib: float               # its peak at the steady-state load
    tail_gib: float                 # its peak at the tail load
    budget_gib: float
    steady_load: float              # the busiest EP rank's rows / mean: steady state
    tail_load: float                # ... at the MEMORY_QUANTILE quantile
    level: Optional[float]          # rows / mean at which the stage reaches its budget (None: the tail fits)
    probability: float              # one layer's micro-batch passes `level` (0 when the tail fits)
    stage_probability: float        # the stage's MoE layers pass it on average, taken as independent
    moe_layers: int
    balancing: str

    @property
    def fits(self) -> bool:
        return self.level is None


def routing_tail(problem, layout) -> Optional[RoutingTail]:
    """The routing tail of `layout`'s memory under `problem`, None where there is none (a dense model,
    routing that fixes the rows: forced round robin, capacity padding, a given imbalance)."""
    moe, tr = problem.model.moe, problem.train
    if moe is None or not moe.experts or tr.capacity_pad or tr.moe_imbalance is not None:
        return None
    steady_pr = problem.model_copy(update={"train": tr.model_copy(update={"routing_memory": "steady"})})
    tail_pr = problem.model_copy(update={"train": tr.model_copy(update={"routing_memory": "tail"})})
    x = layout_vector(layout)
    m_s, m_q = layout_values(steady_pr, x)["imb_mem"], layout_values(tail_pr, x)["imb_mem"]
    est_s, est_q = evaluate(steady_pr, layout), evaluate(tail_pr, layout)
    if max(q.total - s.total for s, q in zip(est_s.stages, est_q.stages)) < 2**20:
        return None
    budget = problem.cluster.memory_budget_gib * GiB
    rows = expert_rows(problem, x)
    is_moe = problem.model.moe_layers()
    best = None
    for i, (s, q) in enumerate(zip(est_s.stages, est_q.stages)):
        level, n = None, sum(is_moe[slice(*layout.stages[i].layers)])
        if q.total > budget and q.total > s.total:
            level = float(m_s[i] + max(budget - s.total, 0.0) * (m_q[i] - m_s[i]) / (q.total - s.total))
        p = [0.0 if level is None else float(routing.exceed_probability(tr, moe, rows[i], x["ep"][i], level, k))
             for k in (1, n)]
        row = RoutingTail(i, s.total / GiB, q.total / GiB, budget / GiB, float(m_s[i]), float(m_q[i]), level, *p, n,
                          "forced" if tr.routing == "forced" else routing.balancing_of(tr, moe))
        key = (row.stage_probability, row.tail_gib - row.budget_gib)
        if best is None or key > (best.stage_probability, best.tail_gib - best.budget_gib):
            best = row
    return best

"""When no layout fits: the least memory any layout needs, and the term that dominates it."""
from __future__ import annotations

import numpy as np

from planner import costmodel as cm
from planner.specs import Problem
from planner.solve.space import Tables
from planner.solve.stage_model import solve_stages


def min_memory(problem: Problem, tab: Tables, m_lb: np.ndarray) -> dict:
    """When nothing fits: the smallest memory any tuple needs under full recompute and the
    most even split, and the term that dominates it."""
    # cheapest-by-bound tuples, re-solved with an unlimited budget to get a real figure
    idx = np.argsort(m_lb)[:20]
    best = None
    for ti in idx:
        sol = solve_stages(problem, tab, int(ti), time_limit=2.0, budget_bytes=2**60)
        if sol.layout is None:
            continue
        # minimise memory instead of time: evaluate full recompute on the same split
        L = sol.layout
        stages = tuple(s.model_copy(update={"recompute_full": s.num_layers, "recompute_selective": 0})
                       for s in L.stages) if "full" in problem.train.recompute else L.stages
        L = L.model_copy(update={"stages": stages})
        est = cm.evaluate(problem, L)
        if best is None or est.peak_bytes < best[1].peak_bytes:
            best = (L, est)
    if best is None:
        return {"reason": "no tuple could be evaluated"}
    L, est = best
    st = est.stages[est.peak_stage]
    terms = {"weights": st.weights, "grads": st.grads, "optimizer": st.optimizer,
             "activations": st.activations, "logits": st.logits, "buffers": st.buffers}
    dom = max(terms, key=terms.get)
    return {"layout": L, "peak_gib": est.peak_bytes / cm.GiB, "stage": st.index, "dominant": dom,
            "terms_gib": {k: v / cm.GiB for k, v in terms.items()}}

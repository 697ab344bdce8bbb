"""When no layout fits: the least memory any layout needs, and the term that dominates it."""
from __future__ import annotations

import numpy as np

from planner import costmodel as cm
from planner.specs import Problem
from planner.solve.space import Tables
from planner.solve.stage_model import solve_stages
from planner.engines import constraints
from planner.solve.space import divisors


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


def why_none(problem: Problem, result, time_limit: float, engine=None) -> dict:
    """What `report.nothing_fits` says when a search returns no plan: the least memory (a memory
    failure), or a `reason` that is not about memory (the time limit; no legal degree tuple, with
    the bounds the rules put on each degree), and `hints` naming the flag that changes the input."""
    info = dict(result.min_memory or {})
    if result.status not in ("INFEASIBLE", "OPTIMAL"):
        info = {"reason": f"the search stopped at its time limit ({time_limit:g} s) before it found a plan "
                          f"({result.status}); give it longer (--time-limit)"}
    elif "peak_gib" not in info and info.get("reason") == "no legal degree tuple":
        info["reason"] = _no_tuple(problem, engine)
    hint = _placement_hint(problem.cluster)
    if hint:
        info["hints"] = [hint]
    return info


def refusal(problem: Problem, engine=None) -> str:
    """Why the target cannot run this problem at any degrees (its rules that read no degree but the
    world: the model, the sequence, the precision), in one line; '' when it can."""
    engine = engine or constraints(problem.train.target)
    return "; ".join(engine.degree_violations(problem, world=problem.cluster.gpus))


def _no_tuple(problem: Problem, engine=None) -> str:
    """The largest degree each axis may take alone under the target's rules, and what they multiply to."""
    engine = engine or constraints(problem.train.target)
    whole = refusal(problem, engine)
    if whole:
        return whole
    n, gpn, gb = problem.cluster.gpus, problem.cluster.domain_used, problem.train.global_batch
    divs = divisors(n)
    bad = lambda **kw: engine.degree_violations(problem, **kw)
    whole = bad(world=n)                 # a rule of the model or the job alone (what the target builds)
    if whole:
        return whole[0].message
    top = lambda ok: max([d for d in divs if ok(d)] or [1])
    tp = top(lambda d: d <= gpn and not bad(tp=d))
    pp = top(lambda d: not bad(pp=d, vpp=1))
    cp = top(lambda d: not bad(tp=1, cp=d))
    dp = top(lambda d: gb % d == 0)
    most = tp * pp * cp * dp
    where = (f"each degree alone: tp <= {tp}, pp <= {pp} ({problem.model.layers} layers), cp <= {cp} "
             f"(seq {problem.train.seq:,}), dp <= {dp} (it divides the global batch of {gb} sequences)")
    if most < n:
        return (f"no tp * cp * dp * pp = gpus({n:,}) passes the {problem.train.target} rules: {where}, at most "
                f"{most:,} GPUs together; use fewer GPUs (--gpus) or a larger batch (--global-batch)")
    return (f"no tp * cp * dp * pp = gpus({n:,}) passes the {problem.train.target} rules together ({where}): the "
            f"degrees multiply to exactly the GPU count; a count whose factors the axes can take (--gpus)")


def _placement_hint(c) -> str:
    used, n = c.used_per_domain, c.gpus
    if n <= used or n % used == 0:
        return ""
    fits = [u for u in range(c.gpus_per_node, used + 1, c.gpus_per_node) if n % u == 0]
    alt = f" or --used-per-domain {fits[-1]} (whole hosts of each domain)" if fits else ""
    return (f"gpus({n}) is not a whole number of the {used}-GPU NVLink domains the job uses (the last holds "
            f"{n % used}): --gpus {-(-n // used) * used}{alt}; --gpus-per-node / --gpus-per-domain set the host and "
            f"the domain")

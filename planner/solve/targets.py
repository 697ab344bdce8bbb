"""The search within what a target engine can run: planner.solve.search_plans handed the target's
`EngineConstraints` (planner.engines.constraints: its rank order, its degree and fold rules,
one expert folding for all stages, and for Megatron one recompute form for the model, all
kept by the search itself, so those plans come back proven). torchtitan's and OLMo-core's AC modes are
not in the stage model: each returned plan's per-stage recompute is rounded to the nearest
form its flags can say (`realise`), choosing, on the same split and folding, the fastest form
that fits.

What `realise` returns is proven optimal when the solver's own best plan needed no rounding.
Otherwise, for an engine whose forms are each a restriction of the stage model's choices
(torchtitan: none, per-op selective everywhere, full everywhere; `recompute_searches`), one
search per form is run and the best over them is proven; for the rest (OLMo-core's
every-k-th-block form depends on the split) the status says FEASIBLE.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from planner import costmodel as cm
from planner.engines import ENGINES, EngineConstraints, constraints
from planner.layout import Layout
from planner.specs import TrainSpec
from planner.solve import parallel
from planner.solve.nofit import refusal
from planner.solve.search import Candidate, search_plans
from planner.solve.tiebreak import dominates, lead_index

# the plans every search ranks before it returns `top` (the CLI's default --top): `--top K` lists for
# K up to it are prefixes of one list
RANKED = 5

# how many solver plans `search` rounds before it ranks them (one per degree tuple)
WIDEN = 12


def dispatch_forms(problem, layout: Layout, engine: EngineConstraints) -> list[Layout]:
    """`layout` with each dispatcher and EP overlap the target runs (problem.train.dispatchers,
    ep_overlap) that its rules allow for it. Delayed wgrad is not chosen: the cost model prices it as
    the overlap alone (planner.costmodel.dispatch), and with --overlap-grad-reduce, which the Megatron
    export sets, it needs Transformer Engine >= 2.8.0 (megatron/training/arguments.py:1822-1827)."""
    if not problem.model.is_moe or max(s.ep for s in layout.stages) <= 1:
        return [layout]
    tr, out = problem.train, []
    for name in tr.dispatchers:
        for ov in ((False, True) if tr.ep_overlap else (False,)):
            cand = layout.model_copy(update={"dispatcher": name, "ep_overlap": ov, "delay_wgrad": False})
            if not [v for v in engine.runs_on(cand, problem) if v.rule.startswith(("target.dispatch", "target.ep_",
                                                                                     "target.flex"))]:
                out.append(cand)
    return out or [layout]


_DISPATCH = ("dispatcher", "ep_overlap", "delay_wgrad")


def _same(realised: Layout, solved: Layout) -> bool:
    """The solver's layout with the dispatcher and overlap `dispatch_forms` chose (which the search
    priced per tuple: choosing them is no rounding)."""
    return realised.model_copy(update={k: getattr(solved, k) for k in _DISPATCH}) == solved


def realise(problem, layout: Layout, engine: EngineConstraints) -> Optional[tuple[Layout, cm.Estimate]]:
    """The fastest layout `engine` can run with this layout's split and folding (its own
    recompute when the engine can say it; the dispatcher and EP overlap it runs that fit), and its
    estimate; None when no form fits. The search priced each degree tuple with the cheapest dispatcher
    (exact: the dispatcher changes no memory) and with the overlap where the target runs it; the
    overlap's extra micro-batch in flight is checked here."""
    budget = problem.cluster.memory_budget_gib * cm.GiB
    forms = [layout] if engine.recompute_form(layout)[1] is None else \
        [c for c in engine.recompute_forms(problem, layout) if engine.recompute_form(c)[1] is None]
    best = None
    for form in forms:
        for cand in dispatch_forms(problem, form, engine):
            est = cm.evaluate(problem, cand)
            if est.peak_bytes <= budget and (best is None or est.step_time < best[1].step_time):
                best = (cand, est)
    if best is None and engine.recompute_form(layout)[1] is None:
        return layout, cm.evaluate(problem, layout)          # as the solver returned it
    return best


def search(problem, *, top: int = 5, time_limit: float = 60.0, progress=None, fixed: Optional[dict] = None,
           settle: bool = True):
    """planner.solve.search_plans within what `problem.train.target` can run (see the module docstring);
    `settle`: the tie-break's plan first (planner/solve/tiebreak.py), else the fastest."""
    engine = constraints(problem.train.target)
    if engine.narrow is not None and engine.narrow(problem.train):
        problem = with_train(problem, engine.narrow(problem.train))     # what the engine's own checks need
    if engine.own:                           # foldplan's own bundle: the plain search
        res = search_plans(problem, top=max(top, RANKED), time_limit=time_limit, progress=progress, fixed=fixed,
                           settle=settle)
        return dataclasses.replace(res, plans=res.plans[:top])
    fixed = dict(fixed or {})
    if engine.order is not None:
        fixed.setdefault("order", engine.order)
    # the stage model keeps to Megatron's one recompute form itself; torchtitan's per-op AC is
    # not in it, so `realise` tries it on the WIDEN best plans
    wide = max(top, RANKED) if engine.one_recompute_form else max(top, WIDEN)
    res = search_plans(problem, top=wide, time_limit=time_limit, progress=progress, fixed=fixed, engine=engine,
                       settle=settle)
    plans, proven = _realised(problem, res, engine, settle)
    if not proven and res.status == "OPTIMAL" and engine.recompute_searches is not None:
        return _by_form(problem, engine, top, time_limit, progress, fixed, settle, res)
    status = res.status if proven or not plans else "FEASIBLE"
    fastest = min((c.objective_ns for c in plans), default=res.fastest_ns)   # of the plans it can run
    return dataclasses.replace(res, plans=plans[:top], status=status, fastest_ns=fastest)


def with_train(problem, update: dict):
    """The problem with these TrainSpec fields changed, validated as a new TrainSpec."""
    train = problem.train.model_copy(update=update)
    return problem.model_copy(update={"train": type(problem.train)(**train.model_dump())})


def _realised(problem, res, engine, settle: bool) -> tuple[list, bool]:
    """The search's plans in the forms the engine can say (`realise`), the tie-break's first
    plan first where it realised, the rest fastest first; and whether the first is the
    search's own proven plan (no rounding)."""
    plans = []
    for c in res.plans:
        got = realise(problem, c.layout, engine)
        if got is None:
            continue
        L, est = got
        # the search priced the overlap without its extra micro-batch in flight: where that did not fit,
        # the realised plan is dearer than the proven objective
        kept = _same(L, c.layout) and est.step_time * 1e9 <= c.objective_ns * (1 + 1e-3)
        status = c.status if kept else "FEASIBLE"
        plans.append(Candidate(L, est, est.step_time * 1e9, status))
    # fastest first, the tie-break's first plan (planner/solve/tiebreak.py) chosen again among the realised
    # ones: a plan whose realised form is slower (an overlap that no longer fits) is not kept first
    # against a faster one by a sanity or tie rule it no longer meets
    plans.sort(key=lambda c: c.estimate.step_time)
    if settle and plans:
        plans.insert(0, plans.pop(lead_index(problem, plans)))
    proven = bool(res.status == "OPTIMAL" and plans and res.plans and _same(plans[0].layout, res.plans[0].layout)
                  and plans[0].status == res.plans[0].status)
    return plans, proven


def _by_form(problem, engine, top, time_limit, progress, fixed, settle, first):
    """One search per recompute form the engine can say (`engine.recompute_searches`: each a
    restriction of the stage model's choices, so its plans need no rounding and its optimum is
    proven); the form with the fastest plan leads with its own tie-break's plan, then every
    form's plans fastest first, none dominated by one kept. OPTIMAL when every form's search is proven."""
    runs = []
    for update in engine.recompute_searches(problem):
        pr = with_train(problem, update)
        res = search_plans(pr, top=max(top, RANKED), time_limit=time_limit, progress=progress, fixed=fixed,
                           engine=engine, settle=settle)
        plans, proven = _realised(problem, res, engine, settle)
        runs.append((res, plans, proven or (res.status == "INFEASIBLE" and not plans)))
    found = [r for r in runs if r[1]]
    if not found:
        return dataclasses.replace(first, plans=[], status="INFEASIBLE" if all(p for *_, p in runs) else "FEASIBLE")
    lead = min(found, key=lambda r: r[0].fastest_ns)
    every = sorted((c for r in found for c in r[1]), key=lambda c: c.estimate.step_time)
    plans = [lead[1][0]] if settle else []
    for c in every:                   # none dominated in (step, peak) by one kept (tiebreak.undominated's rule)
        if len(plans) < max(top, RANKED) and c not in plans and not any(dominates(k, c) for k in plans):
            plans.append(c)
    status = "OPTIMAL" if all(p for *_, p in runs) else "FEASIBLE"
    return dataclasses.replace(first, plans=plans[:top], status=status, cpsat_calls=first.cpsat_calls + sum(
        r[0].cpsat_calls for r in runs), fastest_ns=min(c.objective_ns for c in every))


def _narrowed(problem, engine: EngineConstraints) -> str:
    """Why nothing a target can run fits, in one line: its own rules that refuse pipeline or context
    parallelism at degree 2 (multi-token prediction, say), which leave memory nothing to shard with."""
    own = engine.rules.rules
    seen = []
    for fields in ({"tp": 1, "cp": 1, "pp": 2, "vpp": 1}, {"tp": 1, "cp": 2, "pp": 1, "cp_kind": "ring",
                                                           "cp_ulysses": 1, "cp_ring": 2}):
        for v in engine.degree_violations(problem, **fields):
            if v.rule in own and v.rule not in [r for r, _ in seen]:
                seen.append((v.rule, str(v)))
    if seen:
        return "nothing it can run fits: " + "; ".join(m for _, m in seen)
    return ""


def own_defaults(problem, target: str, given: Optional[dict]) -> dict:
    """The TrainSpec updates of `target`'s search on `problem`: every field some engine's defaults set
    back at TrainSpec's own default (the problem carries the detailed target's: its balancing, its
    shardings), then `target`'s defaults, then the flags the user gave (`given`; None: only the
    target's defaults laid over the problem's)."""
    own = constraints(target).train_defaults(problem.model, problem.cluster.gpu)
    if given is None:
        return own
    names = {n for t in ENGINES for n in constraints(t).defaults} - {"target"}
    out = {n: TrainSpec.model_fields[n].get_default(call_default_factory=True) for n in names
           if n in TrainSpec.model_fields}
    out.update(own)
    out.update({k: v for k, v in given.items() if k != "target"})
    return out


def price(problem, best_time: float, *, time_limit: float = 30.0, targets=ENGINES, fixed=None,
          given: Optional[dict] = None, top: int = 1) -> dict:
    """The best plan each of `targets` (default: every engine, planner.engines.ENGINES) could run on
    the same problem under its own search defaults (the bundle: the attention kernel it runs on the GPU,
    planner.engines.bundle.rules.model_defaults), and how much slower it is than `best_time` (the price
    of its rules and flags). A target that does not build the problem's precision's linears (its `precision_error`: the bundle
    builds bf16 and fp8-tensorwise) is priced in bf16, and the entry says so. `fixed`: the degrees the user pinned
    (--fix), kept for every target (one that cannot keep them gets None). `given`: the TrainSpec flags the
    user gave, which every target keeps; each target is otherwise priced under its own defaults (own_defaults).
    `top`: plans kept per target; the entry's "result" is its search (a caller detailing that target reuses it).
    `price_start(...)(best_time)` is the same answer, its searches started before `best_time` is known."""
    return price_start(problem, time_limit=time_limit, targets=targets, fixed=fixed, given=given, top=top)(best_time)


def _search_or_none(pr, top: int, time_limit: float, fixed, bind):
    """(`search`, or None where a pinned value is one this target's rules refuse; with `bind`, what
    binds its best plan, `bind(problem, fastest seconds)`, which `foldplan plan` prints if it details
    this target)."""
    try:
        res = search(pr, top=top, time_limit=time_limit, fixed=fixed)
    except ValueError:
        return None, None
    if bind is None or not res.plans:
        return res, None
    return res, {"binding": bind(pr, res.fastest_ns / 1e9)}


def price_start(problem, *, time_limit: float = 30.0, targets=ENGINES, fixed=None, given: Optional[dict] = None,
                top: int = 1, bind=None):
    """`price`'s searches, started now beside the caller's own (planner.solve.parallel: one forked
    process each where the machine has the cores); the answer is `collect(best_time)`, the function
    returned, and `collect.cancel()` stops the searches when no answer is wanted. `bind(problem,
    fastest seconds)`: each entry also carries what binds its plan ("binding": the CLI passes
    planner.solve.binding.memory_binding), found beside it, for a caller that may detail that target."""
    jobs = {}
    for target in targets:
        eng = constraints(target)
        update = own_defaults(problem, target, given)   # the bundle's attention kernel among its defaults
        if eng.precision_error and eng.precision_error(problem.train.precision):
            update["precision"] = "bf16"
        pr = with_train(problem, update)
        whole = refusal(pr, constraints(target))
        # the model, the sequence or the precision: no degree helps
        jobs[target] = (pr, whole, None if whole else parallel.start(_search_or_none, pr, top, time_limit, fixed, bind))

    def collect(best_time: float) -> dict:
        out = {}
        for target, (pr, whole, job) in jobs.items():
            if whole:
                out[target] = {"refused": whole}
                continue
            res, extra = job.result()
            if res is None or not res.plans:
                out[target] = {"refused": _narrowed(pr, constraints(target))}
                continue
            c = res.plans[0]
            out[target] = {"layout": c.layout, "estimate": c.estimate, "status": res.status, "problem": pr,
                           "slowdown": c.estimate.step_time / best_time - 1, "kernels": pr.train.kernels,
                           "attention": pr.train.attention_kernel, "precision": pr.train.precision, "result": res,
                           **(extra or {})}
        return out

    def cancel() -> None:
        for _, _, job in jobs.values():
            if job is not None:
                job.cancel()
    collect.cancel = cancel                  # the caller's own search found nothing: the answer is not wanted
    return collect

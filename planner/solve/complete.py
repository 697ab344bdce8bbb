"""Complete a layout string into a Layout: the one completion rule of audit, explain, compare
and ``plan --fix`` (docs/layout-strings.md "What a string leaves out").

1. The degrees: planner.layout.strings.fill_degrees.
2. What the search chooses (micro_batch, sharding, order, the stages: their layer split, expert
   folding and recompute), where the string leaves any of it out: taken from the best plan of a
   search with every given value pinned. A string that gives all of it runs no search.
3. What the search does not choose: from the problem (master, cp_comm, cp_balance: the
   training record's) or the layout's own default (dispatcher alltoall, no EP overlap).
4. num_microbatches = global batch / (dp * micro_batch), checked against a given one.

Every filled value is an ``assumed`` line: ``key=value: where it came from``.
"""
from __future__ import annotations

import time

from planner.layout import Layout, LayoutError, Stage, uniform_stages
from planner.layout import strings as layoutstr
from planner.engines import constraints
from planner.layout.foreign import AuditParseError
from planner.solve.search import search_plans
from planner import costmodel as cm
from planner.solve.search import Candidate, SearchResult

class LayoutStringError(LayoutError):
    """The string itself is wrong (a bad value, a contradiction): no layout to compare or audit."""


SEARCHED = ("micro_batch", "sharding", "order", "stages")
_FROM_TRAIN = ("master", "cp_comm", "cp_balance")
_DEFAULTS = {"dispatcher": "alltoall", "ep_overlap": False, "delay_wgrad": False}


def layout_from_string(text: str, problem, engine=None, check: bool = True) -> tuple[Layout, tuple[str, ...]]:
    """The layout a string names on `problem`, and the ``assumed`` lines of what it filled;
    `check`: refuse a layout that breaks a rule of the target (compare lists them instead)."""
    engine = engine or constraints(problem.train.target)
    try:
        v = layoutstr.fields(text)
        gpus = problem.cluster.gpus
        if v.get("world", gpus) != gpus:
            raise LayoutStringError(f"layout: world({v['world']}) != the problem's gpus({gpus})")
        v.setdefault("world", gpus)
        assumed = layoutstr.fill_degrees(v)
    except AuditParseError as e:
        raise LayoutStringError(f"layout: {e.what}") from None
    except ValueError as e:        # the rules of the degrees and folding given say it first (ep vs experts ...)
        rules = _rules_given(v, problem, engine)     # a rule broken: a layout compare can list; else a bad string
        raise (LayoutError if rules else LayoutStringError)("layout: " + "; ".join(dict.fromkeys(rules + [str(e)]))) \
            from None
    _batch(v, problem, assumed)
    base = None
    missing = [k for k in SEARCHED if k not in v]
    if missing:
        base, why = _searched(text, v, problem, engine, check)
        for k in missing:
            if k != "stages":
                v[k] = getattr(base, k)
                assumed.append(f"{k}={v[k]}: {why}")
    if v.get("recompute") == "selective" and "recompute_modules" not in v:
        assumed.append("recompute_modules=core_attn: Megatron's selective recompute")
    for k in _FROM_TRAIN:
        if k not in v:
            v[k] = getattr(problem.train, k)
            assumed.append(f"{k}={v[k]}: the problem's (train.{k})")
    for k, d in _DEFAULTS.items():
        if k not in v:
            v[k] = d
            if k == "dispatcher" and problem.model.is_moe:
                assumed.append(f"{k}={d}: the layout default")
    v["num_microbatches"] = problem.train.global_batch // (v["dp"] * v["micro_batch"])
    layout = _build(v, problem, base)
    if "stages" in missing:
        assumed.append(f"stages={layoutstr.format_stages(layout.stages)}: {why}"
                       + (f"; recompute={v['recompute']} as given" if "recompute" in v else ""))
    bad = engine.violations(layout, problem) if check else []
    if bad:
        raise LayoutError("layout: " + "; ".join(dict.fromkeys(str(b.message) for b in bad)))
    return layout, tuple(assumed)


def _rules_given(v: dict, problem, engine) -> list[str]:
    degrees = {k: v[k] for k in ("tp", "cp", "dp", "pp", "vpp", "order", "sharding") if k in v}
    folds = {k: v[k] for k in ("etp", "ep", "edp", "tp", "cp", "dp") if k in v}
    try:
        return [str(b) for b in engine.degree_violations(problem, **degrees)
                + engine.degree_violations(problem, "fold", **folds)]
    except (KeyError, TypeError, ValueError):
        return []


def _batch(v: dict, problem, assumed: list) -> None:
    """micro_batch and num_microbatches against the global batch: dp * micro_batch * num_microbatches."""
    gb, dp = problem.train.global_batch, v["dp"]
    if "micro_batch" not in v and "num_microbatches" in v:
        n = v["num_microbatches"]
        if gb % (dp * n):
            raise LayoutStringError(f"layout: num_microbatches({n}) * dp({dp}) = {dp * n} does not divide the global "
                              f"batch({gb} sequences)")
        v["micro_batch"] = gb // (dp * n)
        assumed.append(f"micro_batch={v['micro_batch']}: global batch / (dp * num_microbatches)")
    if "micro_batch" in v and gb % (dp * v["micro_batch"]):
        raise LayoutStringError(f"layout: dp({dp}) * micro_batch({v['micro_batch']}) = {dp * v['micro_batch']} does "
                          f"not divide the global batch({gb} sequences)")
    if "micro_batch" in v and "num_microbatches" in v and dp * v["micro_batch"] * v["num_microbatches"] != gb:
        raise LayoutStringError(f"layout: dp({dp}) * micro_batch({v['micro_batch']}) * num_microbatches("
                          f"{v['num_microbatches']}) = {dp * v['micro_batch'] * v['num_microbatches']} != the "
                          f"global batch({gb} sequences)")
    layers = problem.model.layers
    if v.get("stages") and sum(s["layers"] for s in v["stages"]) != layers:
        raise LayoutStringError(f"layout: stages hold {'+'.join(str(s['layers']) for s in v['stages'])} = "
                          f"{sum(s['layers'] for s in v['stages'])} layers; the model has {layers}")


def _build(v: dict, problem, base) -> Layout:
    """The Layout of the completed values `v` (stages from the string, else the search's)."""
    if v.get("stages"):
        stages, first = [], 0
        for s in v["stages"]:
            n = s["layers"]
            mods = {"recompute_modules": s["recompute_modules"]} if "recompute_modules" in s else {}
            stages.append(Stage(index=s["index"], layers=(first, first + n), etp=s.get("etp", v["etp"]),
                                ep=s.get("ep", v["ep"]), edp=s.get("edp", v["edp"]),
                                recompute_full=s.get("recompute_full", 0),
                                recompute_selective=s.get("recompute_selective", 0), **mods))
            first += n
    else:
        stages = list(base.stages)
    kind = v.get("recompute")
    if kind is not None:                        # recompute= on every layer of every stage
        mods = v.get("recompute_modules") or ("core_attn",)      # Megatron's --recompute-granularity selective
        stages = [s.model_copy(update={"recompute_full": s.num_layers if kind == "full" else 0,
                                       "recompute_selective": s.num_layers if kind == "selective" else 0,
                                       **({"recompute_modules": tuple(mods)} if kind == "selective" else {})})
                  for s in stages]
    keys = ("world", "tp", "cp", "dp", "pp", "vpp", "cp_ulysses", "cp_ring", "cp_comm", "cp_balance", "order",
            "micro_batch", "num_microbatches", "sharding", "master", "dispatcher", "ep_overlap", "delay_wgrad")
    try:
        return Layout(**{k: v[k] for k in keys if k in v}, stages=tuple(stages))
    except ValueError as e:
        raise LayoutError(f"layout: {_first_error(e)}") from None


def _first_error(e: ValueError) -> str:
    errs = getattr(e, "errors", None)
    if callable(errs):
        x = errs()[0]
        return f"{'.'.join(map(str, x.get('loc', ()))) or 'layout'}: {x.get('msg', '')}".replace("Value error, ", "")
    return str(e).splitlines()[0]


def _searchable(problem, v: dict):
    """`problem` with the micro-batch and virtual-stage degree the layout names among its candidates:
    the candidates bound a free search, not what a layout may give (a torchtitan local batch of 8, a
    Megatron-Bridge recipe's VPP 12, ran), so a given value outside them is searched, not refused."""
    update = {}
    mb = v.get("micro_batch")
    if mb and mb not in problem.train.micro_batches:
        update["micro_batches"] = tuple(sorted({*problem.train.micro_batches, mb}))
    if v.get("vpp", 1) > problem.train.max_vpp:
        update["max_vpp"] = v["vpp"]
    if not update:
        return problem
    return problem.model_copy(update={"train": problem.train.model_copy(update=update)})


def _searched(text: str, v: dict, problem, engine, check: bool = True) -> tuple[Layout, str]:
    """The best plan with every given value the search can pin pinned, and where it came from;
    when none fits, the layout of the given values that needs the least memory (to show why)."""
    fixed = {k: v[k] for k in ("tp", "cp", "dp", "pp", "vpp", "micro_batch", "sharding", "order") if k in v}
    if v["cp"] > 1:
        fixed.update(cu=v["cp_ulysses"], cr=v["cp_ring"])
    folds = {(s.get("etp", v["etp"]), s.get("ep", v["ep"]), s.get("edp", v["edp"])) for s in v.get("stages") or [{}]}
    if len(folds) == 1:
        fixed.update(zip(("etp", "ep", "edp"), folds.pop()))
    problem = _searchable(problem, v)
    res = search_plans(problem, top=1, fixed=fixed, time_limit=30, engine=engine, settle=False)   # its fastest split
    if res.plans:
        return res.plans[0].layout, "the best plan's with the values given (search)"
    mb = v.get("micro_batch", 1)
    layers = problem.model.layers
    if v["pp"] > layers:
        raise LayoutError(f"layout: pp({v['pp']}) > the model's layers({layers})")
    full = "full" in problem.train.recompute
    fallback = Layout(world=v["world"], tp=v["tp"], cp=v["cp"], dp=v["dp"], pp=v["pp"], vpp=v["vpp"],
                      cp_ulysses=v.get("cp_ulysses", 1), cp_ring=v.get("cp_ring", 1), micro_batch=mb,
                      num_microbatches=max(1, problem.train.global_batch // (v["dp"] * mb)),
                      sharding=v.get("sharding", problem.train.allowed_shardings[-1]),
                      order=v.get("order", engine.order or "tp-cp-dp-pp"),
                      stages=uniform_stages(layers, v["pp"], (v["etp"], v["ep"], v["edp"]), -1 if full else 0))
    # no plan fits with these values: say why when a rule of the degrees or the folding is broken
    bad = [b.message for b in engine.violations(fallback, problem)
           if engine.plan_rules.rules[b.rule].scope in ("degree", "fold") or b.rule == "stage.folding"] if check else []
    if bad:
        raise LayoutError("layout: " + "; ".join(dict.fromkeys(bad)))
    return fallback, ("no plan fits with the values given: the least memory (even split, most sharding, "
                      "full recompute where allowed)")


def fixed_result(text: str, problem):
    """`plan --fix` with values the search cannot pin (recompute, stages, master, ...): the one
    layout the completion rule makes of it, as a search result (no plan when it breaks a rule
    or does not fit), and its ``assumed`` lines."""
    t0 = time.perf_counter()
    layout, assumed = layout_from_string(text, problem)
    est = cm.evaluate(problem, layout)
    budget = problem.cluster.memory_budget_gib
    if est.peak_bytes > budget * cm.GiB:
        why = f"the layout of --fix needs {est.peak_bytes / cm.GiB:.1f} GiB on stage {est.peak_stage}"
        return SearchResult([], "INFEASIBLE", time.perf_counter() - t0, 1, 0, 0, 0,
                            min_memory={"reason": why}), assumed
    return SearchResult([Candidate(layout, est, est.step_time * 1e9, "FEASIBLE")], "FEASIBLE",
                        time.perf_counter() - t0, 1, 0, 0, 0, fastest_ns=est.step_time * 1e9), assumed

"""Which target `foldplan plan` details when the user names none: the default target (the bundle)
unless it has no published run behind its estimate for this kind of run and a target that has
(planner.engines.bands) is slower by less than that target's known error, median |error| of its
widest band for the plan's kinds. Its plan is then no more than an estimate's error apart, and the
engine that has run jobs like it is the one to recommend; the output says which and why."""
from __future__ import annotations

import dataclasses
from typing import Optional

from planner import engines
from planner.engines import bands


def rival(plans, priced) -> Optional[tuple[str, bands.Band, float]]:
    """(target, its widest band, how much slower its plan is) of the fastest target with measured
    runs that the detailed one leads by less than that band; None where there is none, or the
    detailed target has measured runs of its own."""
    best = plans[0]
    if bands.for_plan(best.problem.train.target, best.problem, best.layout):
        return None
    found = []
    for target, got in (priced or {}).items():
        if not got or "layout" not in got:
            continue
        own = bands.for_plan(target, got["problem"], got["layout"])
        if own:
            widest = max(own, key=lambda b: b.median_abs)
            if got["slowdown"] <= widest.median_abs:
                found.append((got["estimate"].step_time, target, widest, got["slowdown"]))
    if not found:
        return None
    _, target, band, slow = min(found, key=lambda f: f[0])
    return target, band, slow


def why_line(detailed: str, named: bool, switched: Optional[tuple] = None, default: str = "bundle") -> str:
    """One line: why the output details the target it details."""
    if named:
        return f"Detailed: {detailed}, the target named (--target)."
    if switched is None:
        return (f"Detailed: {detailed}, the default target: no target with published runs of this kind is within "
                f"its known error of it (--target picks another).")
    _, band, slow = switched
    return (f"Detailed: {detailed}, not the {default} (the default target): the {default}'s plan is only "
            f"{slow / (1 + slow):.1%} faster, inside {detailed}'s known error on runs of this kind ("
            f"{bands.KIND_NAMES[band.kind]} median {band.median_abs:.0%} over {band.runs} runs), and the {default} "
            f"has no published run behind its estimate; --target {default} details its plan.")


def switch(args, plans, priced, search):
    """The plans, priced rows and problem of the rival target (`rival`), or None. `search(args)`:
    (problem, result, plans) of the CLI's own search for those arguments."""
    got = rival(plans, priced)
    if got is None:
        return None
    target = got[0]
    problem, result, new = search(dataclasses.replace(args, target=target))
    if not new:
        return None
    step = new[0].estimate.step_time
    old = plans[0]
    rows = {t: v for t, v in priced.items() if t != target}
    rows[old.problem.train.target] = {"layout": old.layout, "estimate": old.estimate,
                                      "status": old.solver.get("status", ""), "problem": old.problem,
                                      "kernels": old.problem.train.kernels,
                                      "attention": old.problem.train.attention_kernel,
                                      "precision": old.problem.train.precision}
    for v in rows.values():
        if v and "layout" in v:
            v["slowdown"] = v["estimate"].step_time / step - 1
    return problem, result, new, rows, got


def maybe_switch(a, args, plans, priced, fixed, whole: bool):
    """`switch` for `foldplan plan` with no --target, no --out (a bundle is the bundle's) and no
    whole-layout --fix; the search is the CLI's own (planner.solve.targets)."""
    if args.target is not None or not priced or a.out or whole:
        return None
    # deferred: the search and plan modules, loaded by `plan` only when it switches target
    from planner import plan as planmod
    from planner.cli.problem_args import build_problem
    from planner.solve import targets

    def research(b):
        pr = build_problem(b)
        got = priced.get(b.target) or {}
        if got.get("problem") == pr and got.get("result") is not None:     # priced on this very problem
            res = got["result"]
        else:
            res = targets.search(pr, top=a.top, time_limit=a.time_limit, fixed=fixed)
        return pr, res, planmod.from_search(pr, res) if res.plans else []
    return switch(args, plans, priced, research)


def start_pricing(a, args, problem, fixed):
    """The best plan of every other target (planner.report.engines), searched beside this one
    (planner.solve.targets.price_start); in text output each also finds what binds its plan, which
    is printed if that target is detailed instead. None with --no-engines."""
    if a.no_engines:
        return None
    # deferred: the search (OR-Tools) and the binding search load for `plan` only
    from planner.solve import targets
    from planner.solve.binding import memory_binding
    limit = min(a.time_limit, 30.0)
    bind = None if a.json else (lambda pr, fastest_s: memory_binding(pr, fastest_s, time_limit=limit))
    others = [t for t in engines.targets() if t != problem.train.target]
    return targets.price_start(problem, time_limit=limit, targets=others, fixed=fixed, given=args.train_values(),
                               top=a.top, bind=bind)


def found_binding(priced, switched):
    """What binds the plan of the target `detail.maybe_switch` switched to, found beside the search that
    priced it (an entry's "binding"), or None: the CLI finds it itself."""
    if not switched:
        return None
    got = priced.get(switched[0].train.target) or {}
    if got.get("problem") == switched[0] and got.get("result") is switched[1]:
        return got.get("binding") or {}
    return None

"""What `plan` checks before and after its search: that a bundle can be written where --out says
(`check_out`), and whether plan 1 is outside published practice or the batch too small (`sanity_warnings`)."""
from __future__ import annotations

from pathlib import Path

from planner import engines


def check_out(a, problem) -> None:
    """--out: a bundle of this precision, into an empty directory (or --force); BundleError otherwise."""
    from planner.bundle.codegen import BundleError    # deferred: with the rest of `plan`'s modules
    out = Path(a.out)
    check = engines.constraints(problem.train.target).precision_error   # the bundle's linears
    why = check(problem.train.precision) if check else None
    if why:
        raise BundleError(why)
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not a.force:
        raise BundleError(f"out: {a.out} exists and is not empty (use --force)")


def sanity_warnings(problem, layout) -> list[str]:
    """One line when the batch is too small for the GPUs (the fix named), one when the plan
    returned first is outside published practice (planner/solve/sanity.py). Warnings only:
    the plan is still the best the cost model finds, so the exit status stays 0."""
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve import sanity
    scale = sanity.scale_warning(problem)
    if scale:                                   # the cause of any other: one line
        return [f"foldplan: {scale}"]
    flags = sanity.layout_flags(problem, layout)
    if not flags:
        return []
    end = (f"no plan inside it is within {sanity.SANE_TOLERANCE:.0%} of the fastest" if set(flags) - {"ep over IB"}
           else "the search places expert groups by cost alone")
    return [f"foldplan: warning: plan 1 is outside published practice ({sanity.describe(problem, layout, flags)}); "
            f"{end}"]

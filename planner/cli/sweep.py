"""`foldplan plan --fix tp=8,pp=16` (fixed degrees, the rest searched) and sweeps
(`--seq 32k,64k,128k`, `--gpus 64,128,256`, `--global-batch 2M,4M`: one plan per point of
their product, a table line each; with --json one plans document per point)."""
from __future__ import annotations

from dataclasses import replace
from itertools import product
from math import prod

from planner.engines import constraints
from planner.layout import CP_KINDS, ORDERS, SHARDINGS
from planner.specs import SpecError

from planner.cli.args import ProblemArgs, read
from planner.layout.strings import KEYS
from planner.layout.foreign import AuditParseError
from planner.layout.strings import fields

SWEEPS = ("gpus", "seq", "global_batch")
FIX_INTS = ("tp", "cp", "dp", "pp", "vpp", "etp", "ep", "edp", "micro_batch", "cp_ulysses", "cp_ring")
FIX_STRS = {"cp_kind": CP_KINDS, "sharding": SHARDINGS, "order": ORDERS}
SCHEMA = "foldplan.sweep/1"


def split(a) -> dict:
    """Comma lists of the swept options of the parsed command line `a` -> {option: [values]};
    `a` keeps the first value of each (so the usual checks read one value; `points` reads every one)."""
    out, given = {}, vars(a)
    for name in SWEEPS:
        v = given.get(name)
        if v is not None and "," in str(v):
            items = [x.strip() for x in str(v).split(",")]
            if not all(items):
                raise SpecError(f"{name}: empty value in the sweep {v!r}")
            if len(items) > 64:
                raise SpecError(f"{name}: a sweep of {len(items)} values (at most 64)")
            out[name] = items
            setattr(a, name, items[0])
    if out and (a.out or a.report):
        raise SpecError(f"{'out' if a.out else 'report'}: one bundle or report per plan, not with a sweep of "
                        f"{', '.join(out)}")
    return out


def points(args: ProblemArgs, sweep: dict) -> list[tuple[dict, ProblemArgs]]:
    """(point, its problem options) per point of the sweep's product, each value read and checked."""
    names = list(sweep)
    return [(dict(zip(names, values)), replace(args, **{n: read(n, v) for n, v in zip(names, values)}))
            for values in product(*(sweep[n] for n in names))]


def pins_only(text: str) -> bool:
    """True when `--fix` names only values the search pins (else the one completion rule makes the plan)."""
    keys = {p.partition("=")[0].strip() for p in text.split(",")}
    return not keys & (set(KEYS) - set(FIX_INTS) - set(FIX_STRS)) or bool(keys - set(KEYS))


def parse_fix(text: str, problem) -> dict:
    """`tp=8,pp=16` -> {"tp": 8, "pp": 16}, each value checked against the problem: one line
    naming the key and the arithmetic that fails (`--fix tp=3: tp(3) does not divide gpus(64)`)."""
    n = problem.cluster.gpus
    try:                                       # the layout-string grammar (docs/layout-strings.md)
        fixed = fields(text, "--fix")
    except AuditParseError as e:
        raise SpecError(f"--fix: {e.what}") from None
    show = lambda ks: ",".join(f"{k}={fixed[k]}" for k in ks)
    for k in ("tp", "cp", "dp", "pp"):
        if k in fixed and n % fixed[k]:
            raise SpecError(f"--fix {k}={fixed[k]}: {k}({fixed[k]}) does not divide gpus({n})")
    gpn = problem.cluster.domain_used
    for k in ("tp", "etp"):            # the search keeps (expert) tensor parallel inside an NVLink domain
        if k in fixed and fixed[k] > gpn:
            raise SpecError(f"--fix {k}={fixed[k]}: {k}({fixed[k]}) exceeds used_per_domain({gpn}); tensor "
                            f"parallel stays inside an NVLink domain")
    dense = [k for k in ("tp", "cp", "dp", "pp") if k in fixed]
    total = prod(fixed[k] for k in dense)
    if len(dense) > 1 and n % total:
        expr = " * ".join(f"{k}({fixed[k]})" for k in dense)
        raise SpecError(f"--fix {show(dense)}: {expr} = {total} does not divide gpus({n})")
    if len(dense) == 4 and total != n:
        raise SpecError(f"--fix {show(dense)}: tp * cp * dp * pp = {total} != gpus({n})")
    ranks = {k: fixed[k] for k in ("tp", "cp", "dp") if k in fixed}
    expert = [k for k in ("etp", "ep", "edp") if k in fixed]
    if len(ranks) == 3:
        stage = prod(ranks.values())
        part = prod(fixed[k] for k in expert) if expert else 1
        if stage % part:
            raise SpecError(f"--fix {show(expert)}: {' * '.join(f'{k}({fixed[k]})' for k in expert)} = {part} "
                            f"does not divide the stage's tp * cp * dp = {stage}")
    # the rule table's degree and fold rules that read only the fixed keys
    degrees = {k: fixed[k] for k in ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "order", "sharding") if k in fixed}
    if "cp_ulysses" in fixed or "cp_ring" in fixed:
        degrees.update({k: fixed[k] for k in ("cp_ulysses", "cp_ring") if k in fixed})
    folds = {k: fixed[k] for k in ("etp", "ep", "edp", "tp", "cp", "dp") if k in fixed}
    engine = constraints(problem.train.target)
    bad = engine.degree_violations(problem, **degrees) + engine.degree_violations(problem, "fold", **folds)
    if bad:
        keys = sorted({k for v in bad for k in fixed if k in v.message} or fixed)
        raise SpecError(f"--fix {show(keys)}: {'; '.join(dict.fromkeys(bad))}")
    return fixed


# --------------------------------------------------------------------------- the sweep table

HEAD = ["degrees", "experts", "CP", "sharding", "recompute", "peak GiB", "step s", "tok/s/GPU", "MFU"]


def row(point: dict, plans, problem, result) -> list[str]:
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import costmodel as cm
    from planner import report
    lead = [str(point[n]) for n in point]
    if not plans:
        info = result.min_memory or {}
        why = f"nothing fits (needs {info['peak_gib']:.1f} GiB, {info['dominant']})" if "peak_gib" in info \
            else f"nothing fits ({info.get('reason', 'no legal layout')})"
        return lead + [why] + [""] * (len(HEAD) - 1)
    p = plans[0]
    L, e = p.layout, p.estimate
    return lead + [report.degrees(L), report.folding(L), report.cp_text(L), L.sharding, report.recompute(L),
                   f"{e.peak_bytes / cm.GiB:.1f}", f"{e.step_time:.3f}", f"{e.tokens_per_s_per_gpu:,.0f}",
                   f"{e.mfu:.1%}"]


ENGINES_HEAD = "other targets: step s (vs this one)"


def engine_cells(point: dict, plans, priced, bands: dict, skipped: bool) -> list[str]:
    """The sweep line's engine cell: each other target's best step and how it compares; `bands`
    gathers each target's error-band line (planner.engines.bands) with the points it holds for."""
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner.report import engines as engine_block
    if skipped:
        return []
    if not plans:
        return [""]
    label = " ".join(f"{k}={v}" for k, v in point.items())
    for target, text in engine_block.band_pairs(plans[0], priced):
        bands.setdefault((target, text), []).append(label)
    cells = []
    for e in engine_block.entries(plans[0], priced):
        if e["detailed"]:
            continue
        cells.append(f"{e['target']} -" if e["plan"] is None else
                     f"{e['target']} {e['plan'][2].step_time:.3f} ({e['slowdown']:+.0%})")
    return ["; ".join(cells)]

"""`foldplan compare A B ...`: plans (plan.json files) and inline layout strings side by side —
memory per stage by term, step time by term, MFU, the rules each breaks (its own problem's,
and which engine could run it), and which wins by how much.

A layout string (docs/layout-strings.md) is completed by the one completion rule
(`planner.solve.complete.layout_from_string`: what it leaves out comes from the search with
its given values pinned), each filled value printed as an ``assumed:`` line, on the problem of
the first plan file given, or of the problem flags when there is none.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

from planner import costmodel as cm
from planner import report
from planner.engines import ENGINES, constraints
from planner.layout import Layout, LayoutError
from planner import plan as planmod

TERMS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")


@dataclass
class Entry:
    name: str
    problem: object
    layout: Optional[Layout] = None
    estimate: Optional[cm.Estimate] = None
    broken: list = field(default_factory=list)       # rules of its problem it breaks
    engines: dict = field(default_factory=dict)      # target -> what keeps it from running there
    error: str = ""                                   # why there is no layout at all
    assumed: tuple = ()                               # what the completion filled (a layout string's)


def is_plan_file(item: str) -> bool:
    return os.path.exists(item) or item.endswith(".json")


def entries(items: list[str], problem_of_flags) -> list[Entry]:
    """Each item as an Entry; a layout string that breaks a rule keeps its message."""
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve.complete import LayoutStringError, layout_from_string
    plans = {i: planmod.load(x, index=0)[0] for i, x in enumerate(items) if is_plan_file(x)}
    base = problem_of_flags() if not plans else plans[min(plans)].problem
    out = []
    for i, item in enumerate(items):
        if i in plans:
            p = plans[i]
            out.append(_entry(item, p.problem, p.layout))
            continue
        try:
            layout, assumed = layout_from_string(item, base, check=False)   # _entry lists the broken rules
        except LayoutStringError as e:          # not a layout at all: refused, naming the item
            raise LayoutStringError(f"{item[:80]}: {str(e).removeprefix('layout: ')}") from None
        except LayoutError as e:
            out.append(Entry(item, base, error=str(e).splitlines()[0]))
            continue
        out.append(_entry(item, base, layout))
        out[-1].assumed = assumed
    return out


def _entry(name, problem, layout) -> Entry:
    e = Entry(name, problem, layout)
    e.broken = [f"{v.rule}: {v}" for v in constraints(problem.train.target).violations(layout, problem)]
    if not e.broken:
        e.estimate = cm.evaluate(problem, layout)
        budget = problem.cluster.memory_budget_gib * cm.GiB
        if e.estimate.peak_bytes > budget:
            e.broken.append(f"memory: peak {e.estimate.peak_bytes / cm.GiB:.1f} GiB > budget "
                            f"{problem.cluster.memory_budget_gib:.1f} GiB on stage {e.estimate.peak_stage}")
    for t in ENGINES:
        e.engines[t] = [str(v) for v in constraints(t).runs_on(layout, problem)]
    return e


def _per_stage(e: Entry, term: str) -> str:
    vals = [getattr(s, term) / cm.GiB if term != "total" else s.total / cm.GiB for s in e.estimate.stages]
    shown = [f"{v:.1f}" for v in vals]
    return shown[0] if len(set(shown)) == 1 else "/".join(shown)


def table(es: list[Entry]) -> tuple[list[str], list[list[str]]]:
    """Rows of what is compared, one column per entry."""
    head = [""] + [f"{chr(65 + i)}: {e.name}" if len(e.name) <= 40 else f"{chr(65 + i)}: ...{e.name[-37:]}"
                   for i, e in enumerate(es)]
    rows: list[list[str]] = []

    def add(label, fn):
        rows.append([label] + [fn(e) if e.layout is not None and (e.estimate or label in LAYOUT_ROWS) else ""
                               for e in es])

    add("degrees", lambda e: report.degrees(e.layout))
    add("experts", lambda e: report.folding(e.layout))
    add("CP", lambda e: report.cp_text(e.layout))
    add("sharding", lambda e: f"{e.layout.sharding} ({e.layout.master})")
    add("layers/stage", lambda e: report.split(e.layout))
    add("recompute", lambda e: report.recompute(e.layout))
    add("micro-batch", lambda e: f"{e.layout.micro_batch} x {e.layout.num_microbatches}")
    for t in TERMS + ("total",):
        add(f"GiB {t} (per stage)", lambda e, t=t: _per_stage(e, t))
    add("time compute s", lambda e: f"{e.estimate.compute:.3f}")
    add("time bubble s", lambda e: f"{e.estimate.bubble:.3f}")
    add("time optimizer s", lambda e: f"{e.estimate.optimizer:.3f}")
    for g in ("tp", "cp", "ep", "pp", "dp", "edp", "shard"):
        add(f"time exposed {g} s", lambda e, g=g: f"{max(0.0, e.estimate.exposed.get(g, 0.0)):.3f}")
    add("step s", lambda e: f"{e.estimate.step_time:.3f}")
    add("tok/s/GPU", lambda e: f"{e.estimate.tokens_per_s_per_gpu:,.0f}")
    add("MFU", lambda e: f"{e.estimate.mfu:.1%}")
    rows.append(["breaks"] + [_short(e.error or ("; ".join(e.broken) if e.broken else "nothing")) for e in es])
    for t in ENGINES:
        rows.append([f"runs on {t}"] + [("yes" if not e.engines.get(t) else _short("no: " + "; ".join(e.engines[t])))
                                         if e.layout is not None else "" for e in es])
    return head, rows


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def notes(es: list[Entry]) -> list[str]:
    """The full text of every rule an entry breaks (the table shows the start of it)."""
    out = []
    for i, e in enumerate(es):
        out += [f"{chr(65 + i)} assumed: {a}" for a in e.assumed]
        for msg in ([e.error] if e.error else e.broken):
            out.append(f"{chr(65 + i)} breaks {msg}")
        for t, why in e.engines.items():
            if why:
                out.append(f"{chr(65 + i)} cannot run on {t}: {'; '.join(why)}")
    return out


LAYOUT_ROWS = ("degrees", "experts", "CP", "sharding", "layers/stage", "recompute", "micro-batch")


def verdict(es: list[Entry]) -> str:
    """Which wins, by how much (among the entries that are legal and fit)."""
    ok = [(i, e) for i, e in enumerate(es) if e.estimate is not None and not e.broken]
    if not ok:
        return "No entry is a legal layout that fits: nothing wins."
    ok.sort(key=lambda ie: ie[1].estimate.step_time)
    i, best = ok[0]
    text = f"{chr(65 + i)} wins: step {best.estimate.step_time:.3f} s, MFU {best.estimate.mfu:.1%}"
    others = [f"{x.estimate.step_time / best.estimate.step_time:.2f}x faster than {chr(65 + j)} "
              f"({x.estimate.step_time:.3f} s)" for j, x in ok[1:]]
    out = [e for e in es if e.estimate is None or e.broken]
    if others:
        text += "; " + ", ".join(others)
    if out:
        text += f"; {len(out)} not ranked (illegal or over budget)"
    return text + "."

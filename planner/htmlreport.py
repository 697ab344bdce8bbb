"""The HTML report: one self-contained page (inline CSS, inline SVG, a few lines of JS for
hover) for a plan search (`foldplan plan --report`) or an audit.

Python computes every coordinate, colour and label here; `templates/report.html.j2` only
loops and substitutes (StrictUndefined, autoescape). Reads plans and estimates only: no
search, no formulas of its own (the Pareto plot evaluates the solver's layouts with
`costmodel.evaluate`, the one source of the numbers).

Sections: the rank map (every GPU a cell, grouped by node, coloured by pipeline stage;
the dense view dp x cp x tp beside the expert view edp x ep x etp of the same ranks),
memory per stage against the budget, the step's time split, the top plans and the Pareto
plot of the evaluated layouts; for an audit, the findings and the audited layout beside
the best plan.
"""
from __future__ import annotations

import math
import os  # noqa: F401  (tests patch htmlreport.os.replace)
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Optional

import jinja2

import planner
from planner import costmodel as cm
from planner import report, safeio
from planner.layout import Layout, RankGrid
from planner.plan import Plan
from planner.specs import Problem

TEMPLATES = Path(planner.__file__).resolve().parent.parent / "templates"
MAX_CELLS = 1024            # rank cells drawn per view; larger worlds show their first stages / nodes

# one hue per pipeline stage (cycled); shades of it mark the replica (dp / edp) index
STAGE_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
                 "#ff9da7", "#bab0ac")
SHADES = (0.0, 0.28, 0.48, 0.64)
MEM_TERMS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")
MEM_COLOURS = {"weights": "#4e79a7", "grads": "#a0cbe8", "optimizer": "#f28e2b", "activations": "#59a14f",
               "logits": "#e15759", "buffers": "#bab0ac"}
TIME_PARTS = ("compute", "bubble", "optimizer") + report.GROUPS      # exposed comm by group: dp edp tp cp ep pp
TIME_COLOURS = {"compute": "#4e79a7", "bubble": "#bab0ac", "optimizer": "#9c755f", "dp": "#f28e2b", "edp": "#ffbe7d", "tp": "#b07aa1",
                "cp": "#59a14f", "ep": "#e15759", "pp": "#76b7b2"}
DENSE_AXES_VIEW = (("dp", "d"), ("cp", "c"), ("tp", "t"))      # outer -> inner, label prefix
EXPERT_AXES_VIEW = (("edp", "ed"), ("ep", "ep"), ("etp", "et"))
HOVER_AXES = ("tp", "cp", "dp", "pp", "ep", "edp", "etp")
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#ef6c00", "info": "#1565c0"}


# --------------------------------------------------------------------------- what is drawn

@dataclass
class Subject:
    """One layout to draw: its problem, layout and estimate (the plan-schema dict: GiB, s)."""
    title: str
    problem: Problem
    layout: Layout
    est: dict


def _est_dict(estimate) -> dict:
    return estimate.to_dict() if hasattr(estimate, "to_dict") else dict(estimate)


def subject_of(plan, title: str) -> Subject:
    """A Plan (or anything with .problem, .layout, .estimate) as a Subject."""
    return Subject(title, plan.problem, plan.layout, _est_dict(plan.estimate))


# --------------------------------------------------------------------------- svg primitives

def _n(x: float) -> float:
    return round(float(x), 1)


def _rect(x, y, w, h, fill, cls="", title="", data=(), stroke="none", rx=0.0) -> dict:
    return {"x": _n(x), "y": _n(y), "w": _n(max(w, 0)), "h": _n(max(h, 0)), "fill": fill, "cls": cls,
            "title": title, "data": list(data), "stroke": stroke, "rx": rx}


def _text(x, y, s, cls="", anchor="start", size=11, fill="#333", weight="normal", rotate=0) -> dict:
    return {"x": _n(x), "y": _n(y), "s": str(s), "cls": cls, "anchor": anchor, "size": size, "fill": fill,
            "weight": weight, "rotate": rotate}


def _line(x1, y1, x2, y2, cls="", stroke="#ccc", width=1.0, dash="none") -> dict:
    return {"x1": _n(x1), "y1": _n(y1), "x2": _n(x2), "y2": _n(y2), "cls": cls, "stroke": stroke, "width": width,
            "dash": dash}


def _circle(cx, cy, r, fill, cls="", title="", stroke="none", width=1.0) -> dict:
    return {"cx": _n(cx), "cy": _n(cy), "r": r, "fill": fill, "cls": cls, "title": title, "stroke": stroke,
            "width": width}


def _group(cls="", title="", rects=(), lines=(), texts=(), circles=(), paths=()) -> dict:
    return {"cls": cls, "title": title, "rects": list(rects), "lines": list(lines), "texts": list(texts),
            "circles": list(circles), "paths": list(paths)}


def _svg(width, height, cls, label, groups) -> dict:
    return {"width": int(math.ceil(width)), "height": int(math.ceil(height)), "cls": cls, "label": label,
            "groups": groups}


def _shade(hex_colour: str, towards_white: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = lambda c: round(c + (255 - c) * towards_white)
    return f"#{mix(r):02x}{mix(g):02x}{mix(b):02x}"


def stage_colour(stage: int) -> str:
    return STAGE_COLOURS[stage % len(STAGE_COLOURS)]


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def _fmt_tick(v: float) -> str:
    return f"{v:g}" if abs(v) >= 1 or v == 0 else f"{v:.2g}"


def ranks_text(ranks) -> str:
    """Members of a group, short: '0-31', '4, 12, 20, 28', '0, 8, ..., 248 (step 8)'."""
    r = list(ranks)
    if len(r) == 1:
        return str(r[0])
    step = r[1] - r[0]
    regular = all(b - a == step for a, b in zip(r, r[1:]))
    if regular and step == 1:
        return f"{r[0]}-{r[-1]}"
    if len(r) <= 6:
        return ", ".join(map(str, r))
    if regular:
        return f"{r[0]}, {r[1]}, ..., {r[-1]} (step {step})"
    return ", ".join(map(str, r[:5])) + f", ... ({len(r)} ranks)"


# --------------------------------------------------------------------------- (1) rank map

def shown_ranks(layout: Layout, gpus_per_node: int, max_cells: int = MAX_CELLS) -> int:
    """How many ranks (0..n-1) the map draws: all up to max_cells; else whole stages, or
    whole nodes of the first stage when one stage alone is larger."""
    if layout.world <= max_cells:
        return layout.world
    if layout.stage_ranks <= max_cells:
        return (max_cells // layout.stage_ranks) * layout.stage_ranks
    return max(gpus_per_node, (max_cells // gpus_per_node) * gpus_per_node)


def _group_table(grid: RankGrid, n: int) -> dict[str, dict[int, Any]]:
    """rank -> Group per axis for ranks 0..n-1, each group computed once."""
    out: dict[str, dict[int, Any]] = {}
    for axis in HOVER_AXES:
        table: dict[int, Any] = {}
        for r in range(n):
            if r not in table:
                g = grid.group(axis, r)
                for m in g.ranks:
                    table[m] = g
        out[axis] = table
    return out


def _cell_title(r, c, node, layout, groups, size, gpn) -> str:
    st = layout.stages[c["pp"]]
    lines = [f"rank {r} · node {node} · stage {c['pp']} (layers {st.layers[0]}-{st.layers[1] - 1})",
             "dense  " + " · ".join(f"{a} {c[a]}/{size[a]}" for a in ("dp", "cp", "tp")),
             "expert " + " · ".join(f"{a} {c[a]}/{size[a]}" for a in ("edp", "ep", "etp"))]
    for axis in HOVER_AXES:
        g = groups[axis][r]
        where = "one node" if g.intra_node else f"{len({m // gpn for m in g.ranks})} nodes"
        lines.append(f"{axis} group ({len(g.ranks)}, {where}): {ranks_text(g.ranks)}")
    return "\n".join(lines)


def rank_map(subject: Subject, max_cells: int = MAX_CELLS, view_width: float = 640) -> dict:
    """The dense and the expert view of the same ranks, one cell per GPU, grouped by node."""
    L, gpn = subject.layout, subject.problem.cluster.gpus_per_node
    grid = RankGrid(L, gpn)
    n = shown_ranks(L, gpn, max_cells)
    groups = _group_table(grid, n)
    labelled = n <= 128
    cw, ch = (50.0, 32.0) if labelled else ((16.0, 16.0) if n <= 512 else (12.0, 12.0))
    gap, pad, head = 3.0, 6.0, 15.0
    per_row = max(1, int((view_width - 2 * pad) // (cw + gap)))
    in_node = min(gpn, per_row)                               # cells per row inside one node box
    node_rows = math.ceil(gpn / in_node)
    box_w, box_h = in_node * (cw + gap) + gap, node_rows * (ch + gap) + gap
    nodes_per_row = max(1, int((view_width - pad) // (box_w + pad)))
    nodes = math.ceil(n / gpn)
    height = pad + math.ceil(nodes / nodes_per_row) * (head + box_h + pad) + pad
    width = pad + nodes_per_row * (box_w + pad)
    size = {"tp": L.tp, "cp": L.cp, "dp": L.dp, "pp": L.pp}
    views = []
    for view, axes in (("dense", DENSE_AXES_VIEW), ("expert", EXPERT_AXES_VIEW)):
        replica_axis = axes[0][0]
        node_groups, cells = [], []
        for k in range(nodes):
            bx = pad + (k % nodes_per_row) * (box_w + pad)
            by = pad + (k // nodes_per_row) * (head + box_h + pad)
            first, last = k * gpn, min(n, (k + 1) * gpn) - 1
            stages = sorted({grid.stage_of(first), grid.stage_of(last)})
            st_text = f"stage {stages[0]}" if len(stages) == 1 else f"stages {stages[0]}-{stages[-1]}"
            node_groups.append(_group("node", rects=[_rect(bx, by + head, box_w, box_h, "#f4f5f7", "node-box",
                                                           stroke="#d0d4da", rx=4)],
                                      texts=[_text(bx + 2, by + head - 4, f"node {k} · {st_text}", "node-label",
                                                   size=10, fill="#555")]))
            for r in range(first, last + 1):
                c = grid.coords(r)
                stg = L.stages[c["pp"]]
                sz = {**size, "etp": stg.etp, "ep": stg.ep, "edp": stg.edp}
                i = r - first
                x = bx + gap + (i % in_node) * (cw + gap)
                y = by + head + gap + (i // in_node) * (ch + gap)
                fill = _shade(stage_colour(c["pp"]), SHADES[c[replica_axis] % len(SHADES)])
                data = [("rank", r)] + [(a, groups[a][r].ranks[0]) for a in HOVER_AXES]
                title = _cell_title(r, c, k, L, groups, sz, gpn)
                texts = []
                if labelled:
                    coords = "".join(f"{p}{c[a]}" for a, p in axes if sz[a] > 1) or "-"
                    texts = [_text(x + cw / 2, y + 12, r, "cell-rank", "middle", 10, "#1b1b1b", "bold"),
                             _text(x + cw / 2, y + 25, coords, "cell-coords", "middle", 8.5, "#1b1b1b")]
                cells.append(_group("cell", rects=[_rect(x, y, cw, ch, fill, f"rank-cell rank-cell-{view}",
                                                         title, data, stroke="#ffffff", rx=2)], texts=texts))
        views.append({"name": view,
                      "heading": ("dense view: dp x cp x tp" if view == "dense" else "expert view: edp x ep x etp"),
                      "degrees": _view_degrees(L, view),
                      "svg": _svg(width, height, f"rank-map rank-map-{view}", f"{view} view of ranks 0-{n - 1}",
                                  node_groups + cells)})
    legend = [{"colour": stage_colour(s.index), "label": f"stage {s.index}: layers {s.layers[0]}-{s.layers[1] - 1}"}
              for s in L.stages[:len(STAGE_COLOURS)]]
    if L.pp > len(STAGE_COLOURS):
        legend.append({"colour": "#ffffff", "label": f"... colours repeat every {len(STAGE_COLOURS)} stages"})
    shades = [{"colour": _shade(stage_colour(0), s), "label": f"replica index {i} (mod {len(SHADES)})"}
              for i, s in enumerate(SHADES)]
    note = ""
    if n < L.world:
        st_last = grid.stage_of(n - 1)
        note = (f"{L.world} GPUs: showing ranks 0-{n - 1} ({math.ceil(n / gpn)} of {math.ceil(L.world / gpn)} nodes, "
                f"stage{'s 0-' + str(st_last) if st_last else ' 0'} of {L.pp}); the other ranks repeat the pattern "
                f"stage by stage.")
    return {"views": views, "legend": legend, "shades": shades, "note": note, "cells": n, "world": L.world,
            "gpus_per_node": gpn, "labelled": labelled, "axes": list(HOVER_AXES)}


def _view_degrees(L: Layout, view: str) -> str:
    if view == "dense":
        return f"dp{L.dp} x cp{L.cp} x tp{L.tp} = {L.stage_ranks} ranks per stage, order {L.order}"
    return "folding " + report.folding(L) + f" = {L.stage_ranks} ranks per stage"


# --------------------------------------------------------------------------- (2) memory per stage

def memory_chart(subject: Subject, y_max: Optional[float] = None, width: float = 640, height: float = 300) -> dict:
    """Stacked bars per stage (GiB), one term a segment, against the GPU's budget line."""
    budget = subject.problem.cluster.memory_budget_gib
    stages = subject.est["memory_gib_by_stage"]
    top = y_max or max([budget] + [s["total"] for s in stages]) * 1.1
    left, right, top_pad, bottom = 52.0, 120.0, 14.0, 40.0
    pw, ph = width - left - right, height - top_pad - bottom
    y = lambda v: top_pad + ph * (1 - v / top)
    ticks = [t for t in _nice_ticks(0, top, 5) if t <= top]
    groups = [_group("axis", lines=[_line(left, y(t), left + pw, y(t), "grid", "#e6e6e6") for t in ticks],
                     texts=[_text(left - 6, y(t) + 4, _fmt_tick(t), "tick", "end", 10, "#666") for t in ticks]
                     + [_text(14, top_pad + ph / 2, "GiB per GPU", "axis-label", "middle", 10, "#666", rotate=-90)])]
    slot = pw / len(stages)
    bw = min(70.0, slot * 0.6)
    for i, s in enumerate(stages):
        x = left + slot * i + (slot - bw) / 2
        base, rects = 0.0, []
        for term in MEM_TERMS:
            v = s[term]
            if v <= 0:
                continue
            rects.append(_rect(x, y(base + v), bw, y(base) - y(base + v), MEM_COLOURS[term], f"mem-seg mem-{term}",
                               f"stage {i} {term}: {v:.2f} GiB"))
            base += v
        lay = subject.layout.stages[i].layers
        title = (f"stage {i} (layers {lay[0]}-{lay[1] - 1}): {s['total']:.2f} of {budget:.1f} GiB "
                 f"({s['total'] / budget:.0%})\n" + "\n".join(f"{t}: {s[t]:.2f} GiB" for t in MEM_TERMS))
        label_every = max(1, math.ceil(len(stages) / 16))
        texts = [_text(x + bw + 3, y(s["total"]) + 10, f"{s['total']:.1f}", "bar-value", "start", 10, "#222",
                       "bold")] if slot - bw >= 28 else []
        if i % label_every == 0:
            texts.append(_text(x + bw / 2, top_pad + ph + 14, f"stage {i}", "bar-label", "middle", 10, "#444"))
            texts.append(_text(x + bw / 2, top_pad + ph + 27, f"L{lay[0]}-{lay[1] - 1}", "bar-label", "middle", 9,
                               "#888"))
        groups.append(_group("mem-bar", title, rects=rects, texts=texts))
    groups.append(_group("budget", rects=[], lines=[_line(left, y(budget), left + pw, y(budget), "budget-line",
                                                          "#c62828", 2, "6 4")],
                         texts=[_text(left + pw + 6, y(budget) + 4, f"budget {budget:.1f} GiB", "budget-label",
                                      size=10, fill="#c62828", weight="bold")]))
    return _svg(width, height, "memory-chart", f"memory per stage of {subject.title}", groups)


# --------------------------------------------------------------------------- (3) time

def time_parts(est: dict) -> list[tuple[str, float]]:
    t = est["time_s"]
    return ([("compute", t["compute"]), ("bubble", t["bubble"]), ("optimizer", t.get("optimizer", 0.0))]
            + [(g, t["exposed_comm"].get(g, 0.0)) for g in report.GROUPS])


def _part_name(part: str) -> str:
    return {"optimizer": "optimizer step"}.get(part, part if part in ("compute", "bubble") else f"exposed {part} comm")


def time_chart(subjects: list[Subject], width: float = 1240) -> dict:
    """One horizontal stacked bar per layout: compute, bubble, exposed comm by group."""
    left, right, row, top_pad = 150.0, 80.0, 30.0, 8.0
    pw = width - left - right
    x_max = max(max(s.est["step_time_s"], sum(v for _, v in time_parts(s.est))) for s in subjects) * 1.02
    x = lambda v: left + pw * v / x_max
    height = top_pad + row * len(subjects) + 28
    groups = []
    ticks = _nice_ticks(0, x_max, 8)
    groups.append(_group("axis", lines=[_line(x(t), top_pad, x(t), top_pad + row * len(subjects), "grid", "#eee")
                                        for t in ticks if t <= x_max],
                         texts=[_text(x(t), height - 12, f"{_fmt_tick(t)} s", "tick", "middle", 10, "#666")
                                for t in ticks if t <= x_max]))
    for i, s in enumerate(subjects):
        y0 = top_pad + i * row + 4
        step = s.est["step_time_s"]
        base, rects = 0.0, []
        for part, v in time_parts(s.est):
            if v <= 0:
                continue
            name = _part_name(part)
            rects.append(_rect(x(base), y0, x(base + v) - x(base), row - 8, TIME_COLOURS[part], f"time-seg time-{part}",
                               f"{s.title}: {name} {v:.3f} s ({v / step:.1%} of the step)"))
            base += v
        title = f"{s.title}: step {step:.3f} s\n" + "\n".join(
            f"{p}: {v:.3f} s" for p, v in time_parts(s.est) if v > 0)
        groups.append(_group("time-bar", title, rects=rects,
                             texts=[_text(left - 8, y0 + (row - 8) / 2 + 4, s.title, "bar-label", "end", 11, "#333"),
                                    _text(x(base) + 6, y0 + (row - 8) / 2 + 4, f"{step:.3f} s", "bar-value",
                                          size=11, fill="#222", weight="bold")]))
    return _svg(width, height, "time-chart", "step time split", groups)


def time_table(est: dict) -> list[dict]:
    step = est["step_time_s"]
    out = []
    for part, v in time_parts(est):
        name = _part_name(part)
        out.append({"colour": TIME_COLOURS[part], "name": name, "seconds": f"{v:.3f}", "share": f"{v / step:.1%}"})
    return out


# --------------------------------------------------------------------------- (4) Pareto plot

def _layout_text(L: Layout) -> str:
    return (f"{report.degrees(L)} · {report.cp_text(L)} CP · experts {report.folding(L)} · "
            f"mb {L.micro_batch} · layers {report.split(L)} · recompute {report.recompute(L)}")


def pareto_chart(problem: Problem, layouts: list[Layout], chosen: Layout, top: list[Layout],
                 width: float = 1200, height: float = 440) -> dict:
    """Step time vs peak memory of every evaluated layout; the frontier joined; the chosen one ringed."""
    pts = []
    for L in layouts:
        e = cm.evaluate(problem, L)
        pts.append((e.peak_bytes / cm.GiB, e.step_time, L))
    budget = problem.cluster.memory_budget_gib
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x_lo, x_hi = min(xs), max(max(xs), budget)
    y_lo, y_hi = min(ys), max(ys)
    xpad, ypad = max((x_hi - x_lo) * 0.06, 0.5), max((y_hi - y_lo) * 0.08, y_hi * 0.005)
    x_lo, x_hi, y_lo, y_hi = x_lo - xpad, x_hi + xpad, y_lo - ypad, y_hi + ypad
    left, right, top_pad, bottom = 64.0, 110.0, 16.0, 46.0
    pw, ph = width - left - right, height - top_pad - bottom
    fx = lambda v: left + pw * (v - x_lo) / (x_hi - x_lo)
    fy = lambda v: top_pad + ph * (1 - (v - y_lo) / (y_hi - y_lo))
    lines, texts = [], []
    for t in _nice_ticks(x_lo, x_hi, 8):
        lines.append(_line(fx(t), top_pad, fx(t), top_pad + ph, "grid", "#eee"))
        texts.append(_text(fx(t), top_pad + ph + 16, _fmt_tick(t), "tick", "middle", 10, "#666"))
    for t in _nice_ticks(y_lo, y_hi, 6):
        lines.append(_line(left, fy(t), left + pw, fy(t), "grid", "#eee"))
        texts.append(_text(left - 6, fy(t) + 4, _fmt_tick(t), "tick", "end", 10, "#666"))
    lines.append(_line(left, top_pad + ph, left + pw, top_pad + ph, "axis-line", "#999"))
    lines.append(_line(left, top_pad, left, top_pad + ph, "axis-line", "#999"))
    texts.append(_text(left + pw / 2, height - 8, "peak memory per GPU (GiB)", "axis-label", "middle", 11, "#444"))
    texts.append(_text(16, top_pad + ph / 2, "step time (s)", "axis-label", "middle", 11, "#444", rotate=-90))
    groups = [_group("axis", lines=lines, texts=texts)]
    # the frontier: no other point is both faster and smaller
    front, best_t = [], math.inf
    for m, t, L in sorted(pts, key=lambda p: (p[0], p[1])):
        if t < best_t:
            front.append((m, t))
            best_t = t
    d = ""
    for i, (m, t) in enumerate(front):
        d += (f"M{_n(fx(m))},{_n(fy(t))}" if i == 0 else f" H{_n(fx(m))} V{_n(fy(t))}")
    groups.append(_group("front", paths=[{"d": d, "cls": "pareto-front", "stroke": "#4e79a7", "width": 1.5,
                                          "dash": "4 3"}] if d else []))
    on_front = set(front)
    circles = []
    for m, t, L in pts:
        is_front = (m, t) in on_front
        circles.append(_circle(fx(m), fy(t), 5 if is_front else 4, "#4e79a7" if is_front else "#a0cbe8",
                               "pareto-pt" + (" on-front" if is_front else ""),
                               f"{_layout_text(L)}\nstep {t:.3f} s · peak {m:.1f} GiB", "#ffffff"))
    groups.append(_group("points", circles=circles))
    marks, mtexts = [], []
    for rank, L in enumerate(top, 1):
        e = cm.evaluate(problem, L)
        m, t = e.peak_bytes / cm.GiB, e.step_time
        if rank == 1:
            marks.append(_circle(fx(m), fy(t), 10, "none", "chosen-mark", f"chosen: {_layout_text(L)}", "#c62828", 2.5))
            mtexts.append(_text(fx(m) + 13, fy(t) + 4, "chosen (#1)", "chosen-label", size=11, fill="#c62828",
                                weight="bold"))
        else:
            marks.append(_circle(fx(m), fy(t), 7, "none", "top-mark", f"#{rank}: {_layout_text(L)}", "#f28e2b", 1.5))
            mtexts.append(_text(fx(m) - 9, fy(t) - 8, f"#{rank}", "top-label", "end", 10, "#b35900"))
    groups.append(_group("marks", circles=marks, texts=mtexts))
    groups.append(_group("budget", lines=[_line(fx(budget), top_pad, fx(budget), top_pad + ph, "budget-line",
                                                "#c62828", 2, "6 4")],
                         texts=[_text(fx(budget) + 5, top_pad + 12, f"budget {budget:.1f} GiB", "budget-label",
                                      size=10, fill="#c62828", weight="bold")]))
    return {"svg": _svg(width, height, "pareto-chart", "step time vs peak memory", groups), "points": len(pts),
            "front": len(front)}


# --------------------------------------------------------------------------- tables

def summary_row(s: Subject) -> list[str]:
    L, e = s.layout, s.est
    peak_stage = max(range(len(e["memory_gib_by_stage"])), key=lambda i: e["memory_gib_by_stage"][i]["total"])
    return [s.title, report.degrees(L), report.folding(L), report.cp_text(L), L.order.removesuffix("-pp"),
            str(L.micro_batch), report.split(L), report.recompute(L),
            f"{e['peak_memory_gib']:.1f} ({peak_stage})", f"{e['step_time_s']:.3f}",
            f"{e['tokens_per_s_per_gpu']:,.0f}", f"{e['mfu']:.1%}"]


SUMMARY_HEAD = ["", "degrees", "experts (per stage)", "CP", "order", "mb", "layers/stage", "recompute",
                "peak GiB (stage)", "step s", "tok/s/GPU", "MFU"]


def _legends() -> dict:
    return {"memory": [{"colour": MEM_COLOURS[t], "label": t} for t in MEM_TERMS],
            "time": [{"colour": TIME_COLOURS[p], "label": _part_name(p)}
                     for p in TIME_PARTS]}


# --------------------------------------------------------------------------- pages

def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                              autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _render(**ctx) -> str:
    return _env().get_template("report.html.j2").render(**ctx)


def _subject_block(s: Subject, max_cells: int, y_max: Optional[float] = None) -> dict:
    try:
        ranks, why_not = rank_map(s, max_cells), ""
    except (ValueError, KeyError, IndexError, ZeroDivisionError) as e:     # a layout that breaks the grid's rules
        ranks, why_not = None, f"no rank map: the layout does not form a rank grid ({str(e).splitlines()[0]})"
    return {"title": s.title, "rank_map": ranks, "rank_map_error": why_not, "memory": memory_chart(s, y_max),
            "time_rows": time_table(s.est)}


def render_plan_report(plans: list[Plan], result=None, max_cells: int = MAX_CELLS) -> str:
    """The page for a plan search: plans best first; result (a SearchResult) adds the Pareto plot."""
    if not plans:
        raise ValueError("no plans to report")
    best = plans[0]
    problem = best.problem
    subjects = [subject_of(p, f"#{i}") for i, p in enumerate(plans, 1)]
    head, body = report.rows(plans)
    pareto = None
    if result is not None and getattr(result, "evaluated", None):
        pareto = pareto_chart(problem, list(result.evaluated), best.layout, [p.layout for p in plans])
    solver = best.solver or {}
    solver_text = ", ".join(f"{k} {solver[k]}" for k in ("status", "tuples", "pruned", "cpsat_calls", "wall_s")
                            if k in solver)
    return _render(kind="plan", page_title=f"foldplan plan: {problem.model.name} on {problem.cluster.gpus} GPUs",
                   header=report.header(problem), why=report.why(plans), solver=solver_text,
                   main=_subject_block(subjects[0], max_cells), best_layout=_layout_text(best.layout),
                   time_svg=time_chart(subjects), table_head=head, table_rows=body, pareto=pareto,
                   legends=_legends(), audit=None, hover_axes=list(HOVER_AXES))


def write_plan_report(plans: list[Plan], result, path) -> Path:
    return write_atomic(render_plan_report(plans, result), path)


def _audit_subjects(audit_json: dict, best_plan, audited) -> tuple[Optional[Subject], Optional[Subject]]:
    problem = None
    if audited is not None:
        problem = audited.problem
    elif audit_json.get("problem"):
        problem = Problem.from_dict(audit_json["problem"])
    elif best_plan is not None:
        problem = best_plan.problem
    a = b = None
    if audited is not None:
        a = subject_of(audited, "audited")
    elif problem is not None and audit_json.get("layout") and audit_json.get("estimate"):
        a = Subject("audited", problem, Layout.from_dict(audit_json["layout"]), dict(audit_json["estimate"]))
    if best_plan is not None:
        b = subject_of(best_plan, "best")
    elif problem is not None and audit_json.get("best"):
        best = audit_json["best"]
        b = Subject("best", problem, Layout.from_dict(best["layout"]), dict(best["estimate"]))
    return a, b


def _from_audit_object(audit, best_plan, audited):
    """An AuditReport (planner.audit) as (its JSON dict, best plan-like, audited plan-like)."""
    if isinstance(audit, dict):
        return audit, best_plan, audited
    doc = audit.to_json()
    problem = getattr(audit, "problem", None)
    if problem is not None:
        if audited is None and getattr(audit, "layout", None) is not None and audit.estimate is not None:
            audited = SimpleNamespace(problem=problem, layout=audit.layout, estimate=audit.estimate)
        if best_plan is None and getattr(audit, "best_layout", None) is not None and audit.best_estimate is not None:
            best_plan = SimpleNamespace(problem=problem, layout=audit.best_layout, estimate=audit.best_estimate)
    return doc, best_plan, audited


def render_audit_report(audit_json: dict, best_plan: Optional[Plan] = None, audited=None,
                        max_cells: int = MAX_CELLS) -> str:
    """The page for an audit (schema foldplan.audit/1): findings, then the audited layout
    beside the best plan (memory, time, rank maps). `audited` and `best_plan` are anything
    with .problem, .layout, .estimate; where absent they come from the audit dict
    ("problem", "layout", "estimate", "best"). An AuditReport object is taken too."""
    audit_json, best_plan, audited = _from_audit_object(audit_json, best_plan, audited)
    a, b = _audit_subjects(audit_json, best_plan, audited)
    findings = []
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in audit_json.get("findings", []):
        sev = f.get("severity", "info")
        counts[sev] = counts.get(sev, 0) + 1
        findings.append({"severity": sev, "colour": SEVERITY_COLOURS.get(sev, "#555"), "rule": f.get("rule", ""),
                         "message": f.get("message", ""), "fix": f.get("fix") or ""})
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: order.get(f["severity"], 3))
    subjects = [s for s in (a, b) if s is not None]
    y_max = None
    if subjects:
        y_max = max([x.problem.cluster.memory_budget_gib for x in subjects]
                    + [m["total"] for x in subjects for m in x.est["memory_gib_by_stage"]]) * 1.1
    blocks = [_subject_block(s, max_cells, y_max) for s in subjects]
    src = audit_json.get("source") or {}
    speedup = audit_json.get("speedup_of_best")
    problem = subjects[0].problem if subjects else None
    audit = {"source": f"{src.get('format', '?')} config {src.get('path', '')}".strip(),
             "assumed": list(src.get("assumed", [])), "findings": findings,
             "counts": ", ".join(f"{v} {k}{'s' if v != 1 else ''}" for k, v in counts.items()),
             "speedup": f"the best plan is {speedup:.2f}x as fast as the audited layout" if speedup else "",
             "blocks": blocks, "table_rows": [summary_row(s) for s in subjects],
             "has_audited": a is not None, "has_best": b is not None}
    return _render(kind="audit", page_title=f"foldplan audit: {src.get('path', 'config')}",
                   header=report.header(problem) if problem else "", why=[], solver="",
                   main=None, best_layout="", time_svg=time_chart(subjects) if subjects else None,
                   table_head=SUMMARY_HEAD, table_rows=[], pareto=None, legends=_legends(), audit=audit,
                   hover_axes=list(HOVER_AXES))


def write_audit_report(audit, path, best_plan: Optional[Plan] = None, audited=None) -> Path:
    """Write the audit page (audit: the foldplan.audit/1 dict or an AuditReport) atomically."""
    return write_atomic(render_audit_report(audit, best_plan, audited), path)


def write_atomic(text: str, path) -> Path:
    """Write the page atomically (planner.safeio): a temp file beside PATH, fsync, rename;
    only a new file or a regular file is replaced, and the directory must exist."""
    return safeio.atomic_write_text(path, text, field="report")

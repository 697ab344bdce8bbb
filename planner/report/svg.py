"""The HTML report's drawing: colours, what is drawn (`Subject`), SVG primitives and the rank map.

Part of `planner.report.html` (which re-exports every name here).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from planner import report
from planner.layout import Layout, RankGrid
from planner.layout.placement import spans
from planner.specs import Problem


TEMPLATES = Path(__file__).resolve().parent / "templates"
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
    lines = [f"rank {r} · node {node} · stage {c['pp']} (layers {spans(layout.rank_layers[c['pp']])})",
             "dense  " + " · ".join(f"{a} {c[a]}/{size[a]}" for a in ("dp", "cp", "tp")),
             "expert " + " · ".join(f"{a} {c[a]}/{size[a]}" for a in ("edp", "ep", "etp"))]
    for axis in HOVER_AXES:
        g = groups[axis][r]
        where = "one domain" if g.intra_node else f"{len({m // gpn for m in g.ranks})} NVLink domains"
        lines.append(f"{axis} group ({len(g.ranks)}, {where}): {ranks_text(g.ranks)}")
    return "\n".join(lines)


def rank_map(subject: Subject, max_cells: int = MAX_CELLS, view_width: float = 640) -> dict:
    """The dense and the expert view of the same ranks, one cell per GPU, grouped by node."""
    L, gpn = subject.layout, subject.problem.cluster.domain_used       # boxes: NVLink domains as ranks are placed
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
    legend = [{"colour": stage_colour(s.index), "label": f"stage {s.index}: layers {spans(L.rank_layers[s.index])}"}
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

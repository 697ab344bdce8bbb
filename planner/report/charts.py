"""The HTML report's charts and tables: memory per stage, the time split, the Pareto plot, the summary.

Part of `planner.report.html` (which re-exports every name here).
"""
from __future__ import annotations

import math
from typing import Optional

from planner import costmodel as cm
from planner import report
from planner.layout import Layout
from planner.layout.placement import spans
from planner.specs import Problem

from planner.report.svg import (MEM_TERMS, MEM_COLOURS, TIME_PARTS, TIME_COLOURS, Subject, _n, _rect, _text,
                                _line, _circle, _group, _svg, _nice_ticks, _fmt_tick)


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
        lay = spans(subject.layout.rank_layers[i])
        title = (f"stage {i} (layers {lay}): {s['total']:.2f} of {budget:.1f} GiB "
                 f"({s['total'] / budget:.0%})\n" + "\n".join(f"{t}: {s[t]:.2f} GiB" for t in MEM_TERMS))
        label_every = max(1, math.ceil(len(stages) / 16))
        texts = [_text(x + bw + 3, y(s["total"]) + 10, f"{s['total']:.1f}", "bar-value", "start", 10, "#222",
                       "bold")] if slot - bw >= 28 else []
        if i % label_every == 0:
            texts.append(_text(x + bw / 2, top_pad + ph + 14, f"stage {i}", "bar-label", "middle", 10, "#444"))
            texts.append(_text(x + bw / 2, top_pad + ph + 27, f"L{lay}", "bar-label", "middle", 9,
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
        v = round(v, 3) + 0.0          # a sub-millisecond part (of either sign) reads 0.000, never -0.000
        out.append({"colour": TIME_COLOURS[part], "name": name, "seconds": f"{v:.3f}", "share": f"{v / step:.1%}"})
    return out


# --------------------------------------------------------------------------- (4) Pareto plot

def _layout_text(L: Layout) -> str:
    return (f"{report.degrees(L)} · {report.cp_text(L)} CP · experts {report.folding(L)} · "
            f"mb {L.micro_batch} · layers {report.split(L)} · recompute {report.recompute(L)}")


# the plot's window: layouts beyond either are counted, not drawn
X_CLIP, Y_CLIP = 2.0, 3.0


def pareto_chart(problem: Problem, layouts: list[Layout], chosen: Layout, top: list[Layout],
                 width: float = 1200, height: float = 440) -> dict:
    """Step time vs peak memory of `layouts` (planner/report/pareto.py) inside the window X_CLIP x the
    budget, Y_CLIP x the chosen step (the rest counted); the frontier joined; the chosen one ringed."""
    budget = problem.cluster.memory_budget_gib
    t_chosen = cm.evaluate(problem, chosen).step_time
    pts, hidden = [], 0
    for L in layouts:
        e = cm.evaluate(problem, L)
        if e.peak_bytes / cm.GiB > X_CLIP * budget or e.step_time > Y_CLIP * t_chosen:
            hidden += 1                  # drawn, they would squeeze the region that decides the plan
            continue
        pts.append((e.peak_bytes / cm.GiB, e.step_time, L))
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
            "front": len(front), "hidden": hidden,
            "clip": f"{X_CLIP:g}x the memory budget or {Y_CLIP:g}x the chosen plan's step time"}


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

"""The HTML report (planner/report/html.py + planner/report/templates/report.html.j2) and the terminal table.

The page is parsed (html.parser for the page, xml.etree for each inline SVG) and its SVG
structure counted against the plan; then it is loaded in a real headless browser
(chromium), screenshotted and checked for console errors. The browser test skips, with
the reason, when chromium is not installed (`apt-get install chromium`).
"""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from planner import costmodel as cm
from planner.report import html as htmlreport
from planner.report import pareto
from planner import report
from planner import plan as planmod
from planner.layout import Layout, check, uniform_stages
from planner.plan import Plan
from planner.specs import make_problem
from planner.solve import search_plans

SVG_NS = "{http://www.w3.org/2000/svg}"
SCREENSHOT_COPY = Path("/tmp/foldplan-report.png")


class Page(HTMLParser):
    """Every start tag, with its classes and the class of the <svg> it sits in."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict, str]] = []
        self._svg: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self._svg.append(a.get("class", ""))
        self.tags.append((tag, a, self._svg[-1] if self._svg else ""))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs), self._svg[-1] if self._svg else ""))

    def handle_endtag(self, tag):
        if tag == "svg" and self._svg:
            self._svg.pop()

    def having(self, cls: str, tag: str | None = None, svg: str | None = None) -> list[dict]:
        return [a for t, a, s in self.tags if cls in a.get("class", "").split()
                and (tag is None or t == tag) and (svg is None or svg in s.split())]


def svgs(text: str) -> list[ET.Element]:
    """Each inline <svg> fragment, parsed as XML (so each must be well-formed)."""
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", text, flags=re.S)]


@pytest.fixture(scope="module")
def default():
    problem = make_problem()                      # mixtral-8x7b, 64 x H100, 128k
    result = search_plans(problem, top=5)
    plans = planmod.from_search(problem, result)
    return SimpleNamespace(problem=problem, result=result, plans=plans,
                           html=htmlreport.render_plan_report(plans, result))


def _audit_doc(default, audited: Plan, best: Plan) -> dict:
    return {"schema": "foldplan.audit/1",
            "source": {"format": "megatron", "path": "train_<mixtral>.sh", "assumed": ["seq from --seq-length"]},
            "problem": default.problem.to_dict(), "layout": audited.layout.to_dict(),
            "estimate": audited.estimate.to_dict(),
            "findings": [{"severity": "warning", "rule": "time.ep_across_nodes",
                          "message": "EP all-to-all crosses nodes <script>alert(1)</script>", "fix": "ep <= 8"},
                         {"severity": "error", "rule": "memory.over_budget", "message": "stage 0 needs 80 GiB",
                          "fix": "recompute 4 layers"},
                         {"severity": "info", "rule": "audit.model_from_preset", "message": "model from preset",
                          "fix": ""}],
            "best": {"layout": best.layout.to_dict(), "estimate": best.estimate.to_dict()},
            "speedup_of_best": audited.estimate.step_time / best.estimate.step_time}


def _worse_plan(default) -> Plan:
    """An evaluated layout other than the chosen one (the 'config someone runs')."""
    best = default.plans[0].layout
    other = next((L for L in default.result.evaluated if L != best), default.plans[-1].layout)
    return Plan(default.problem, other, cm.evaluate(default.problem, other), {})


# --------------------------------------------------------------------------- plan page

def test_rank_cells_one_per_gpu_in_each_view(default):
    page = Page(default.html)
    world = default.problem.cluster.gpus
    dense = page.having("rank-cell-dense", "rect", svg="rank-map-dense")
    expert = page.having("rank-cell-expert", "rect", svg="rank-map-expert")
    assert len(dense) == world == 64
    assert len(expert) == world
    assert sorted(int(a["data-rank"]) for a in dense) == list(range(world))
    # cells grouped by node: one box per node in each view
    assert len(page.having("node-box", "rect", svg="rank-map-dense")) == world // default.problem.cluster.domain_used
    assert "pipeline stage" in default.html and "expert view: edp x ep x etp" in default.html


def test_rank_cells_colour_by_stage_and_name_their_groups(default):
    L = default.plans[0].layout
    grid_stage_ranks = L.stage_ranks
    by_rank = {}
    for svg in svgs(default.html):
        if "rank-map-expert" not in svg.get("class", ""):
            continue
        for rect in svg.iter(f"{SVG_NS}rect"):
            if "rank-cell" in rect.get("class", ""):
                by_rank[int(rect.get("data-rank"))] = rect
    assert len(by_rank) == L.world
    r = L.world - 1
    title = by_rank[r].find(f"{SVG_NS}title").text
    for axis in ("tp", "cp", "dp", "pp", "ep", "edp", "etp"):
        assert f"{axis} group" in title
    assert f"stage {r // grid_stage_ranks}" in title
    # the hover data names the group (its first rank) for each axis, as the RankGrid says
    from planner.layout import RankGrid
    grid = RankGrid(L, default.problem.cluster.domain_used)
    for axis in ("ep", "edp", "cp"):
        assert int(by_rank[r].get(f"data-{axis}")) == grid.group(axis, r).ranks[0]


def test_memory_bars_per_stage_against_budget(default):
    page = Page(default.html)
    pp = default.plans[0].layout.pp
    assert len(page.having("mem-bar", "g", svg="memory-chart")) == pp
    segs = page.having("mem-seg", "rect", svg="memory-chart")
    assert segs and {c for a in segs for c in a["class"].split() if c.startswith("mem-") and c != "mem-seg"} \
        <= {f"mem-{t}" for t in htmlreport.MEM_TERMS}
    assert len(page.having("budget-line", "line", svg="memory-chart")) == 1
    budget = default.problem.cluster.memory_budget_gib
    assert f"budget {budget:.1f} GiB" in default.html


def test_time_split_and_top_plans_table(default):
    page = Page(default.html)
    assert len(page.having("time-bar", "g", svg="time-chart")) == len(default.plans)
    parts = {c.removeprefix("time-") for a in page.having("time-seg", "rect") for c in a["class"].split()
             if c.startswith("time-") and c != "time-seg"}
    assert "compute" in parts and parts <= set(htmlreport.TIME_PARTS)
    rows = [a for t, a, _ in page.tags if t == "tr"]
    assert len(rows) >= len(default.plans) + 1
    assert len(page.having("best", "tr")) == 1


def test_pareto_points_are_the_search_space_sample(default):
    """The plot holds the solved layouts and the stated sample of every enumerated tuple; the page says
    how many are drawn and how many fall outside the window."""
    cl = pareto.cloud(default.problem, default.result)
    assert cl.solved == len(default.result.evaluated) > 3
    assert cl.tuples == default.result.tuples and cl.sampled >= min(pareto.SAMPLE, cl.fitting) * 0.9
    page = Page(default.html)
    drawn = len(page.having("pareto-pt", "circle", svg="pareto-chart"))
    hidden = re.search(r"(\d+) of them, beyond", default.html)
    assert drawn + (int(hidden.group(1)) if hidden else 0) == len(cl.layouts) > cl.solved
    assert f"{len(cl.layouts)} layouts: the {cl.solved} the solver solved" in default.html
    assert len(page.having("chosen-mark", "circle", svg="pareto-chart")) == 1
    assert len(page.having("budget-line", "line", svg="pareto-chart")) == 1
    assert len(page.having("pareto-front", "path", svg="pareto-chart")) == 1


def test_no_sampled_layout_that_fits_beats_the_proven_plan(default):
    """Every realised layout of the sample is a legal layout of the same problem: one that fits the
    budget cannot be faster than the plan the solver proved optimal (an independent path: the sample
    is priced by costmodel.evaluate, the search by its integer tables and CP-SAT)."""
    assert default.result.status == "OPTIMAL"
    # the fastest plan the search proved (plans[0] is the tie-break's, up to TIE_TOLERANCE slower)
    best = default.result.fastest_ns / 1e9 if default.result.fastest_ns else default.plans[0].estimate.step_time
    budget = default.problem.cluster.memory_budget_gib
    pts = pareto.points(default.problem, pareto.cloud(default.problem, default.result).layouts)
    fitting = [t for m, t, _ in pts if m <= budget]
    assert len(fitting) > 20 and min(fitting) >= best * (1 - 1e-3)


def test_header_lines_and_no_negative_zero(default):
    text = default.html
    import html as html_escape
    lines = report.header(default.problem).splitlines()
    assert len(lines) >= 3 and "<br>".join(lines) in html_escape.unescape(text)     # one line each, not run together
    assert not re.search(r"[-\u2212]0\.0+(?![0-9]*[1-9])\b", re.sub(r"<svg\b.*?</svg>", "", text, flags=re.S))


@pytest.fixture(scope="module")
def priced(default):
    from planner.solve import targets
    return targets.price(default.problem, default.plans[0].estimate.step_time, time_limit=20,
                         targets=("megatron", "torchtitan", "olmo-core"))


def test_engine_comparison_section(default, priced):
    from planner.engines import bands
    page_text = htmlreport.render_plan_report(default.plans, default.result, priced=priced)
    page = Page(page_text)
    rows = [a for t, a, _ in page.tags if t == "tr"]
    assert 'id="engines"' in page_text and page_text.count("<b>bundle</b>: " + bands.NONE) == 1
    mg = priced["megatron"]
    assert f"<b>megatron</b>: {bands.describe('megatron', mg['problem'], mg['layout'])}" in page_text
    assert f"{mg['estimate'].step_time:.3f}" in page_text and "olmo-core" in page_text
    assert len(rows) >= 4


def test_self_contained_and_well_formed(default):
    text = default.html
    assert text.lstrip().startswith("<!DOCTYPE html>")
    for tag, attrs, _ in Page(text).tags:
        for key in ("src", "href"):
            assert not re.match(r"\s*(https?:)?//", attrs.get(key, "")), (tag, attrs)
        assert tag not in ("link", "iframe", "img")
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls
    assert "@import" not in text and "url(" not in text
    assert len(svgs(text)) >= 5                   # 2 rank views, memory, time, Pareto: all parse as XML


def test_without_search_record_no_pareto(default):
    text = htmlreport.render_plan_report(default.plans[:1], None)
    page = Page(text)
    assert not page.having("pareto-pt")
    assert len(page.having("rank-cell-dense", "rect")) == 64


def test_large_world_draws_a_readable_part_and_says_so():
    problem = make_problem(gpus=4096)
    stages = uniform_stages(problem.model.layers, 8, fold=(1, 8, 64))
    L = Layout(world=4096, tp=8, cp=16, dp=4, pp=8, order="tp-cp-dp-pp", cp_kind="ring", cp_ulysses=1,
               cp_ring=16, micro_batch=1, num_microbatches=8, stages=stages)
    check(L, problem)
    plan = Plan(problem, L, cm.evaluate(problem, L), {})
    text = htmlreport.render_plan_report([plan], None)
    page = Page(text)
    dense = page.having("rank-cell-dense", "rect")
    assert len(dense) == htmlreport.MAX_CELLS == len(page.having("rank-cell-expert", "rect"))
    assert "4096 GPUs: showing ranks 0-1023" in text
    assert len(page.having("mem-bar", "g")) == 8


# --------------------------------------------------------------------------- audit page

def test_audit_page_findings_and_side_by_side(default):
    worse, best = _worse_plan(default), default.plans[0]
    doc = _audit_doc(default, worse, best)
    for text in (htmlreport.render_audit_report(doc, best, worse),      # objects given
                 htmlreport.render_audit_report(doc, None, None)):      # all from the dict
        page = Page(text)
        findings = page.having("finding", "tr")
        assert len(findings) == 3
        assert findings[0]["class"].split()[-1] == "finding-error"      # errors first
        assert "<script>alert(1)</script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "train_&lt;mixtral&gt;.sh" in text
        assert len(page.having("rank-cell-dense", "rect")) == 2 * 64  # audited and best maps
        assert len(page.having("rank-cell-expert", "rect")) == 2 * 64
        assert len(page.having("mem-bar", "g")) == worse.layout.pp + best.layout.pp
        assert len(page.having("budget-line", "line", svg="memory-chart")) == 2
        assert len(page.having("time-bar", "g")) == 2
        assert "as fast as the audited layout" in text
        assert len(svgs(text)) >= 7


def test_audit_page_without_layout(default):
    doc = {"schema": "foldplan.audit/1", "layout": None, "estimate": None, "best": None, "speedup_of_best": None,
           "findings": [{"severity": "error", "rule": "parse", "message": "no --tensor-model-parallel-size",
                         "fix": "give it"}]}
    text = htmlreport.render_audit_report(doc, None, None)
    page = Page(text)
    assert len(page.having("finding", "tr")) == 1 and not page.having("rank-cell") and not page.having("mem-bar")


def test_write_is_atomic(default, tmp_path, monkeypatch):
    out = tmp_path / "sub" / "audit.html"
    doc = _audit_doc(default, _worse_plan(default), default.plans[0])
    htmlreport.write_audit_report(doc, out)                 # the missing folder is created, as mkdir -p
    first = out.read_text()
    assert "finding-error" in first
    assert sorted(p.name for p in out.parent.iterdir()) == ["audit.html"]

    def boom(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(htmlreport.os, "replace", boom)
    with pytest.raises(OSError):
        htmlreport.write_plan_report(default.plans, default.result, out)
    assert out.read_text() == first                                   # the old page stays whole
    assert sorted(p.name for p in out.parent.iterdir()) == ["audit.html"]  # no temp file left


def test_cli_plan_report(tmp_path, capsys):
    from planner import cli
    out = tmp_path / "report.html"
    assert cli.main(["plan", "--model", "olmoe-1b-7b", "--gpus", "8", "--seq", "8k", "--top", "2",
                     "--report", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "\x1b[" not in stdout and f"report written to {out}" in stdout
    page = Page(out.read_text())
    assert len(page.having("rank-cell-dense", "rect")) == 8 == len(page.having("rank-cell-expert", "rect"))


# --------------------------------------------------------------------------- terminal

class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def _table():
    return ["#", "degrees"], [["1", "tp1 cp32 dp1 pp2"]]


def test_terminal_plain_when_not_a_tty(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    s = io.StringIO()
    report.print_table(*_table(), title="plans", stream=s)
    text = s.getvalue()
    assert "\x1b[" not in text and "┃" not in text and "│" not in text
    assert text.splitlines() == ["plans", "#  degrees", "-  ----------------", "1  tp1 cp32 dp1 pp2"]


def test_terminal_no_color_and_dumb_are_plain(monkeypatch):
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv("TERM", "xterm-256color")
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        s = FakeTTY()
        report.print_table(*_table(), stream=s)
        assert "\x1b[" not in s.getvalue() and "tp1 cp32 dp1 pp2" in s.getvalue()
        assert not report.use_rich(s)


def test_terminal_rich_on_a_tty(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    s = FakeTTY()
    assert report.use_rich(s)
    report.print_table(*_table(), stream=s)
    assert "tp1 cp32 dp1 pp2" in s.getvalue() and ("┃" in s.getvalue() or "│" in s.getvalue())
    monkeypatch.setenv("NO_COLOR", "")                                # no-color.org: empty means unset
    assert report.use_rich(FakeTTY())


# --------------------------------------------------------------------------- real browser

def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _browse(browser: str, page: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0", *args, page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(tmp_path)})


def _console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (apt-get install chromium); "
                                                 "the browser check of the HTML report is skipped")
def test_report_in_headless_chromium(default, priced, tmp_path):
    browser = _chromium()
    worse = _worse_plan(default)
    pages = {"plan": htmlreport.write_plan_report(default.plans, default.result, tmp_path / "report.html",
                                                  priced=priced),
             "audit": htmlreport.write_audit_report(_audit_doc(default, worse, default.plans[0]),
                                                    tmp_path / "audit.html")}
    for name, page in pages.items():
        shot = tmp_path / f"{name}.png"
        run = _browse(browser, page, tmp_path, f"--screenshot={shot}", "--window-size=1400,2000")
        assert shot.exists(), run.stderr[-2000:]
        data = shot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000          # not a blank page
        assert _console_errors(run.stderr) == [], _console_errors(run.stderr)
        dom = _browse(browser, page, tmp_path, "--dump-dom")
        assert _console_errors(dom.stderr) == [], _console_errors(dom.stderr)
        assert 'data-report-ready="1"' in dom.stdout                             # the hover script ran
        assert dom.stdout.count("rank-cell-dense") == (64 if name == "plan" else 128)
        if name == "plan":                        # the engine comparison, every target a row
            assert all(f"<td>{t}</td>" in dom.stdout for t in ("megatron", "torchtitan", "olmo-core"))
        if name == "plan":
            try:
                shutil.copyfile(shot, SCREENSHOT_COPY)
            except OSError:
                pass

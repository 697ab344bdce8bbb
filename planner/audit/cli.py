"""``foldplan audit SOURCE``: read the config, build the problem around it, print the audit.

Called by ``planner.cli`` with its parsed arguments (the problem flags of ``foldplan plan``
plus ``source``, ``--format``, ``--json``, ``--report``). What the config says wins over
the flags' defaults; flags the user gives win over the config (``--gpus``, ``--seq``).
Exit status: 0 no errors, 1 the audit found errors.
"""

from __future__ import annotations

import argparse
import html
import json
import sys

from planner import costmodel as cm

from .audit import TITAN_PRESETS, AuditReport, run_audit
from .detect import load
from .source import ForeignConfig

EXIT_OK, EXIT_FINDINGS = 0, 1


def _load(a) -> ForeignConfig:
    from planner.specs import parse_size
    over: dict = {}
    if a.gpus is not None:
        over["world"] = parse_size(a.gpus, "gpus")
    if a.seq is not None:
        over["seq"] = parse_size(a.seq, "seq")
    cfg = load(a.source, a.format, **over)
    if a.global_batch is not None:
        gb = parse_size(a.global_batch, "global_batch")
        seq = cfg.seq or over.get("seq")
        sequences = gb if gb < 65536 or not seq else gb // seq
        cfg = cfg.replace(global_batch=sequences, assumed=cfg.assumed + (f"global_batch={sequences}: --global-batch",))
    return cfg


def base_problem(a, cfg: ForeignConfig):
    """The problem flags, with the config's GPU count, sequence, batch and model preset as defaults."""
    from planner.cli import build_problem
    from planner.specs import SpecError
    ns = argparse.Namespace(**vars(a))
    ns.model = a.model or TITAN_PRESETS.get(cfg.model_name or "")
    ns.seq = a.seq or (str(cfg.seq) if cfg.seq else None)
    if not a.global_batch and cfg.global_batch and cfg.global_batch < 65536:
        ns.global_batch = str(cfg.global_batch)  # sequences (make_problem reads < 64Ki as sequences)
    elif not a.global_batch and cfg.seq:
        ns.global_batch = str(max(1, 4 * 2**20 // cfg.seq))  # ~4M tokens, a whole number of sequences
    world = cfg.world if a.gpus is None else None
    try:
        return build_problem(ns, gpus_default=world or 64)
    except SpecError:
        if world is None:
            raise
        # the config's GPU count is itself broken (e.g. 6 on 8-GPU nodes): audit_problem reports it
        return build_problem(ns, gpus_default=64)


def run(a) -> int:
    cfg = _load(a)
    problem = base_problem(a, cfg)
    quiet = bool(getattr(a, "json", False))
    report = run_audit(cfg, problem, time_limit=float(getattr(a, "time_limit", None) or 60.0),
                       progress=None if quiet else _progress())
    doc = report.to_json()
    if a.json:
        sys.stdout.write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    else:
        for line in text(report):
            print(line)
    if getattr(a, "report", None):
        write_html(report, a.report)
        if not a.json:
            print(f"report written to {a.report}")
    return EXIT_FINDINGS if report.errors else EXIT_OK


def _progress():
    def show(msg: str) -> None:
        print(f"searching the best plan: {msg}", file=sys.stderr, end="\r" if sys.stderr.isatty() else "\n")
    return show


def _layout_text(L) -> str:
    folds = sorted({s.fold for s in L.stages})
    fold = "; ".join(f"etp{f[0]} ep{f[1]} edp{f[2]}" for f in folds)
    cp = f" ({L.cp_kind})" if L.cp > 1 else ""
    return (f"tp{L.tp} cp{L.cp}{cp} dp{L.dp} pp{L.pp}" + (f" vpp{L.vpp}" if L.vpp > 1 else "")
            + f", experts {fold}, micro-batch {L.micro_batch} x {L.num_microbatches}")


def text(report: AuditReport) -> list[str]:
    cfg = report.cfg
    out = [f"audit of {cfg.path} ({cfg.format})"]
    if report.problem is not None:
        p = report.problem
        out.append(f"  {p.model.name}, {p.cluster.gpus} x {p.cluster.gpu.name}, seq {p.train.seq:,}, "
                   f"global batch {p.train.global_batch} sequences")
    if report.layout is not None:
        out.append(f"  layout: {_layout_text(report.layout)}")
    for a in cfg.assumed:
        out.append(f"  assumed: {a}")
    order = {"error": 0, "warning": 1, "info": 2}
    for f in sorted(report.findings, key=lambda f: order[f.severity]):
        out.append(f"{f.severity.upper():7s} [{f.rule}] {f.message}")
        if f.fix:
            out.append(f"        fix: {f.fix}")
    e = report.estimate
    if e is not None:
        out.append(f"estimate: step {e.step_time:.3f} s, {e.tokens_per_s_per_gpu:,.0f} tokens/s/GPU, "
                   f"MFU {e.mfu:.1%}, peak {e.peak_bytes / cm.GiB:.1f} GiB (stage {e.peak_stage})")
    if report.best_layout is not None:
        b = report.best_estimate
        sp = f", {report.speedup_of_best:.2f}x the config" if report.speedup_of_best else ""
        out.append(f"best plan: {_layout_text(report.best_layout)}: step {b.step_time:.3f} s, "
                   f"MFU {b.mfu:.1%}{sp}")
    sc = report.smallest_change
    if sc:
        what = "makes it legal and fit" if sc["fixes_the_config"] else \
            f"gets {sc['share_of_best_speedup']:.0%} of the best plan's speed-up"
        out.append(f"smallest change: {', '.join(sc['changes'])} -> step {sc['step_time_s']:.3f} s, "
                   f"peak {sc['peak_memory_gib']:.1f} GiB; {what}")
    n_err = len(report.errors)
    out.append(f"{n_err} error(s), {sum(f.severity == 'warning' for f in report.findings)} warning(s)")
    return out


def write_html(report: AuditReport, path: str) -> None:
    """A self-contained HTML page of the audit (planner.htmlreport's, when that module provides one)."""
    try:
        from planner import htmlreport
        writer = getattr(htmlreport, "write_audit_report")
    except (ImportError, AttributeError):
        writer = None
    if writer is not None:
        writer(report, path)  # planner.htmlreport takes the AuditReport itself
        return
    rows = "".join(f"<tr class='{html.escape(f.severity)}'><td>{html.escape(f.severity)}</td>"
                   f"<td><code>{html.escape(f.rule)}</code></td><td>{html.escape(f.message)}</td>"
                   f"<td>{html.escape(f.fix)}</td></tr>" for f in report.findings)
    body = "<br>".join(html.escape(line) for line in text(report))
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>foldplan audit</title><style>"
            "body{font-family:sans-serif;margin:2em}td{border-bottom:1px solid #ddd;padding:4px;vertical-align:top}"
            ".error{background:#fdd}.warning{background:#ffd}</style></head><body>"
            f"<h1>foldplan audit: {html.escape(report.cfg.path)}</h1><p><code>{body}</code></p>"
            f"<table>{rows}</table><h2>JSON</h2><pre>{html.escape(json.dumps(report.to_json(), indent=1, sort_keys=True))}"
            "</pre></body></html>")
    with open(path, "w") as f:
        f.write(page)

"""``foldplan audit SOURCE``: read the config, build the problem around it, print the audit.

``audit_args(namespace, problem)`` reads the audit's own options (added to the parser by
``planner.cli.args.add_audit_flags``) into an ``AuditArgs`` value; ``run(args)`` audits. What
the config says wins over the flags' defaults; flags the user gives win over the config
(``--gpus``, ``--seq``). There is no stand-in model: without the config's own shapes and
without ``--model`` the audit stops (exit 2) and says so; likewise for the sequence length.
Exit status: 0 no errors, 1 the audit found errors, 2 bad input (raised as
``AuditParseError`` / ``SpecError``, printed as one line by ``planner.cli``).
"""

from __future__ import annotations

import html
import json
import re
import sys
from dataclasses import dataclass, replace
from typing import Optional
from pathlib import Path

from planner import costmodel as cm
from planner.cli.args import ProblemArgs
from planner.cli.problem_args import build_problem

from planner.audit.audit import AuditReport, run_audit
from planner.audit.audit_problem import TITAN_PRESETS, config_model, missing_shapes
from planner.audit.detect import load
from planner.layout.foreign import AuditParseError, ForeignConfig
from planner.specs import DEFAULT_GLOBAL_BATCH, batch_sequences, counts_sequences, parse_size
from planner.specs import gpu_names
from planner.specs import SpecError
from planner.layout import strings as layoutstr
from planner.layout.strings import format_layout

EXIT_OK, EXIT_FINDINGS = 0, 1
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class AuditArgs:
    """What `foldplan audit` was asked: the source, how to read it, the problem flags, the output."""
    source: str
    format: str
    problem: ProblemArgs
    env: dict                       # KEY=VAL the script reads
    degrees: dict                   # tp / pp / ep the DeepSpeed launcher sets
    json: bool = False
    report: Optional[str] = None
    best: bool = True               # search the best plan too
    time_limit: float = 60.0
    script_args: tuple = ()         # `audit script.sh -- ARGS...`: the script's positional arguments


def audit_args(ns, problem: ProblemArgs) -> AuditArgs:
    """The audit's options of a parsed command line, each checked."""
    given = vars(ns)
    degrees = {axis: _size(given[axis], axis) for axis in ("tp", "pp", "ep") if given[axis] is not None}
    return AuditArgs(source=ns.source, format=ns.format, problem=problem, env=parse_env(ns.env), degrees=degrees,
                     json=ns.json, report=ns.report, best=not ns.no_best, time_limit=ns.time_limit,
                     script_args=tuple(getattr(ns, "script_args", None) or ()))


def parse_env(items: list[str]) -> dict[str, str]:
    env = {}
    for item in items or ():
        name, eq, value = item.partition("=")
        if not eq or not _ENV_NAME.match(name):
            raise AuditParseError("--env", None, f"expected KEY=VALUE with KEY a shell name, got {item[:60]!r}")
        env[name] = value
    return env


def _size(text, field: str) -> int:
    return parse_size(text, field)


def _load(a: AuditArgs) -> ForeignConfig:
    p = a.problem
    over: dict = {k: v for k, v in (("world", p.gpus), ("seq", p.seq)) if v is not None}
    if a.env:
        over["env"] = a.env
    if a.script_args:
        over["script_args"] = a.script_args
    over.update(a.degrees)
    cfg = load(a.source, a.format, **over)
    if p.global_batch is not None:
        gb = p.global_batch
        seq = cfg.seq or over.get("seq")
        sequences = batch_sequences(gb, seq)
        cfg = cfg.replace(global_batch=sequences, assumed=cfg.assumed + (f"global_batch={sequences}: --global-batch",))
    return cfg


def _all_given(p: ProblemArgs, cfg: ForeignConfig) -> None:
    """Every option the config leaves out and the flags do not give, named at once (one line)."""
    missing = []
    if not p.model and not TITAN_PRESETS.get(cfg.model_name or "") and missing_shapes(cfg):
        missing.append("--model PRESET|config.json|model.yaml (the model it trains)")
    if not (p.seq or cfg.seq):
        missing.append("--seq (the sequence length)")
    if p.gpus is None and cfg.world is None:
        missing.append("--gpus N (how many GPUs)")
    if len(missing) > 1:
        raise AuditParseError(cfg.path, None, f"the config does not give {len(missing)} things the audit needs: "
                                              f"pass {'; '.join(missing)}")


def _model_for(p: ProblemArgs, cfg: ForeignConfig):
    """``--model``, the preset the config names, or the config's own shapes; else stop and say so."""
    if p.model:
        return p.model
    preset = TITAN_PRESETS.get(cfg.model_name or "")
    if preset:
        return preset
    missing = missing_shapes(cfg)
    if not missing:
        return config_model(cfg)
    named = f" (it names {cfg.model_name!r})" if cfg.model_name else ""
    what = "holds no model shapes" if len(missing) == 6 else f"does not give {', '.join(missing)}"
    raise AuditParseError(cfg.path, None, f"the config {what}{named}: pass --model PRESET|config.json|model.yaml "
                                          f"for the model it trains")


# a foldplan plan's training record carries every TrainSpec field into its audit but the
# shape, which base_problem passes on its own
_SHAPE = ("seq", "global_batch_tokens")


def _plan_job(p: ProblemArgs, cfg: ForeignConfig) -> tuple[dict, dict]:
    """For a foldplan plan: the plan's own training record (TrainSpec fields, under the flags)
    and its GPU, node size and budget (ProblemArgs fields), each where no flag gives it: what
    the plan estimated. ({}, {}) for other formats."""
    if cfg.format != "foldplan":
        return {}, {}
    train, cluster = cfg.extra.get("train") or {}, cfg.extra.get("cluster") or {}
    where = {}
    name = cluster.get("gpu")
    if p.gpu is None and isinstance(name, str) and name.endswith((".yaml", ".yml", ".json")):
        # a plan made with a preset file (foldplan calibrate): that file, never a silent default GPU
        if not Path(name).is_file():
            raise AuditParseError(cfg.path, None, f"the plan was made with the GPU preset file {name}, not here: "
                                  f"pass --gpu PATH/{Path(name).name}")
    if p.gpu is None and (name in gpu_names() or str(name).endswith((".yaml", ".yml", ".json"))):
        where["gpu"] = name                                     # the plan's budget only on the plan's GPU
        if p.memory_gib is None and p.memory_fraction is None and cluster.get("memory_budget_gib"):
            where["memory_gib"] = float(cluster["memory_budget_gib"])
        for k in ("gpus_per_node", "gpus_per_domain", "used_per_domain"):     # the plan's placement
            if getattr(p, k) is None and cluster.get(k):
                where[k] = int(cluster[k])
    return {k: v for k, v in train.items() if k not in _SHAPE}, where


def base_problem(p: ProblemArgs, cfg: ForeignConfig):
    """The problem flags laid over the config's GPU count, sequence, batch and model."""
    _all_given(p, cfg)
    model = _model_for(p, cfg)
    seq = p.seq or cfg.seq or None
    if seq is None:
        raise AuditParseError(cfg.path, None, "the config does not give the sequence length: pass --seq")
    if p.global_batch:
        gb = p.global_batch
    elif cfg.global_batch and counts_sequences(cfg.global_batch):
        gb = cfg.global_batch  # sequences (make_problem reads them so)
    else:
        gb = max(1, batch_sequences(parse_size(DEFAULT_GLOBAL_BATCH), seq))  # the default tokens, whole sequences
    train, where = _plan_job(p, cfg)
    world = cfg.world if p.gpus is None else None
    gpus = p.gpus if p.gpus is not None else world
    if gpus is None:
        raise AuditParseError(cfg.path, None, "the config does not say how many GPUs: pass --gpus N")
    if cfg.format != "foldplan" and p.memory_gib is None and p.memory_fraction is None:
        where["memory_fraction"] = 1.0      # a run is judged against the memory it has; the plans' headroom
    laid = replace(p, model=model, seq=seq, global_batch=gb, gpus=gpus, **where)   # (DEFAULT_HEADROOM) is theirs
    try:
        return build_problem(laid, train=train)
    except SpecError:
        if world is None:
            raise
        # the config's GPU count is itself broken (e.g. 6 on 8-GPU nodes): the rules report it
        return build_problem(replace(laid, gpus=8), train=train)


def completed(cfg: ForeignConfig, problem) -> ForeignConfig:
    """A layout string's config completed by the one completion rule (planner.solve.complete), with its
    assumed lines; any other config as read."""
    if cfg.format != "layout":
        return cfg
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve.complete import layout_from_string
    layout, assumed = layout_from_string(cfg.extra["text"], problem, check=False)
    kept = tuple(x for x in cfg.assumed if x.partition("=")[0] not in layoutstr.KEYS)   # the flags' notes
    return layoutstr.config_of(layout, cfg, kept + assumed)


def run(a: AuditArgs) -> int:
    cfg = _load(a)
    problem = base_problem(a.problem, cfg)
    cfg = completed(cfg, problem)
    show = None if a.json or not sys.stderr.isatty() else _progress()      # a terminal only: no residue in logs
    report = run_audit(cfg, problem, search=a.best, time_limit=a.time_limit, progress=show)
    if show is not None:
        print(" " * 78, end="\r", file=sys.stderr, flush=True)
    doc = report.to_json()
    if a.json:
        sys.stdout.write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    else:
        for line in text(report):
            print(line)
    if a.report:
        write_html(report, a.report)
        if not a.json:
            print(f"report written to {a.report}")
    return EXIT_FINDINGS if report.errors else EXIT_OK


def _progress():
    def show(msg: str) -> None:
        print(f"searching the best plan: {msg}"[:78].ljust(78), file=sys.stderr, end="\r", flush=True)
    return show


def _layout_text(L, moe: bool = True) -> str:
    """One line of a layout; a dense model's has no expert folding to show."""
    folds = sorted({s.fold for s in L.stages})
    fold = "; ".join(f"etp{f[0]} ep{f[1]} edp{f[2]}" for f in folds)
    cp = f" ({L.cp_kind})" if L.cp > 1 else ""
    ep = (" " + L.dispatcher + (" + EP overlap" if L.ep_overlap else "") + (" + delayed wgrad" if L.delay_wgrad else "")
          if moe and max(s.ep for s in L.stages) > 1 else "")
    return (f"tp{L.tp} cp{L.cp}{cp} dp{L.dp} pp{L.pp}" + (f" vpp{L.vpp}" if L.vpp > 1 else "")
            + (f", experts {fold}{ep}" if moe else "") + f", micro-batch {L.micro_batch} x {L.num_microbatches}")


def _is_moe(report: AuditReport) -> bool:
    return report.problem is None or report.problem.model.is_moe


def text(report: AuditReport) -> list[str]:
    cfg = report.cfg
    out = [f"audit of {cfg.path} ({cfg.format})"]
    if report.problem is not None:
        p = report.problem
        out.append(f"  {p.model.name}, {p.cluster.gpus} x {p.cluster.gpu.name}, seq {p.train.seq:,}, "
                   f"global batch {p.train.global_batch} sequences, precision {p.train.precision}"
                   + (" (--fp16: priced as bf16, the same bytes and tensor-core rate)"
                      if cfg.extra.get("dtype") == "fp16" and p.train.precision == "bf16" else "")
                   + (" (FP8 parameter all-gather)" if p.train.fp8_param_gather and p.train.precision != "bf16" else ""))
    if report.layout is not None:
        out.append(f"  layout: {_layout_text(report.layout, _is_moe(report))}")
        out.append(f"  as a layout string: {format_layout(report.layout)}")
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
        out.append(f"best plan: {_layout_text(report.best_layout, _is_moe(report))}: step {b.step_time:.3f} s, "
                   f"MFU {b.mfu:.1%}{sp}")
    elif (report.search or {}).get("refused"):
        out.append(f"best plan: none: {report.search['refused']}")
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
    """A self-contained HTML page of the audit (planner.report.html's, when that module provides one)."""
    try:
        # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
        from planner.report import html as htmlreport
        writer = getattr(htmlreport, "write_audit_report")
    except (ImportError, AttributeError):
        writer = None
    if writer is not None:
        writer(report, path)  # planner.report.html takes the AuditReport itself
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

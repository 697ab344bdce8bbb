"""``foldplan audit SOURCE``: read the config, build the problem around it, print the audit.

``add_arguments(parser)`` adds the audit's own options to the ``audit`` sub-command
(those the parser does not have yet); ``run(args)`` is called with the parsed arguments
(the problem flags of ``foldplan plan`` plus ``source`` and these). What the config says
wins over the flags' defaults; flags the user gives win over the config (``--gpus``,
``--seq``). There is no stand-in model: without the config's own shapes and without
``--model`` the audit stops (exit 2) and says so; likewise for the sequence length.
Exit status: 0 no errors, 1 the audit found errors, 2 bad input (raised as
``AuditParseError`` / ``SpecError``, printed as one line by ``planner.cli``).
"""

from __future__ import annotations

import html
import json
import re
import sys

from planner import costmodel as cm

from planner.audit.audit import AuditReport, run_audit
from planner.audit.options import add_arguments  # noqa: F401  (the CLI parser reads it there)
from planner.audit.audit_problem import TITAN_PRESETS, config_model, missing_shapes
from planner.audit.detect import load
from planner.layout.foreign import AuditParseError, ForeignConfig

EXIT_OK, EXIT_FINDINGS = 0, 1
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_env(items: list[str]) -> dict[str, str]:
    env = {}
    for item in items or ():
        name, eq, value = item.partition("=")
        if not eq or not _ENV_NAME.match(name):
            raise AuditParseError("--env", None, f"expected KEY=VALUE with KEY a shell name, got {item[:60]!r}")
        env[name] = value
    return env


def _size(text, field: str) -> int:
    from planner.specs import parse_size
    return parse_size(text, field)


def _load(a) -> ForeignConfig:
    over: dict = {}
    if a.gpus is not None:
        over["world"] = _size(a.gpus, "gpus")
    if a.seq is not None:
        over["seq"] = _size(a.seq, "seq")
    env = parse_env(getattr(a, "env", None))
    if env:
        over["env"] = env
    for axis in ("tp", "pp", "ep"):
        if getattr(a, axis, None) is not None:
            over[axis] = _size(getattr(a, axis), axis)
    cfg = load(a.source, a.format, **over)
    if a.global_batch is not None:
        gb = _size(a.global_batch, "global_batch")
        seq = cfg.seq or over.get("seq")
        sequences = gb if gb < 65536 or not seq else gb // seq
        cfg = cfg.replace(global_batch=sequences, assumed=cfg.assumed + (f"global_batch={sequences}: --global-batch",))
    return cfg


def _model_for(a, cfg: ForeignConfig):
    """``--model``, the preset the config names, or the config's own shapes; else stop and say so."""
    if a.model:
        return a.model
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


def _plan_job(a, cfg: ForeignConfig) -> tuple[dict, dict]:
    """For a foldplan plan: the plan's own training record (TrainSpec fields) and its GPU, node
    size and budget (make_problem's cluster arguments): what the plan estimated, each where no
    flag overrides it. ({}, {}) for other formats."""
    if cfg.format != "foldplan":
        return {}, {}
    from planner.specs import gpu_names
    train, cluster = cfg.extra.get("train") or {}, cfg.extra.get("cluster") or {}
    kw = {k: v for k, v in train.items() if k not in _SHAPE}
    if getattr(a, "attention_kernel", None):
        kw.pop("attention_kernel", None)
    if a.capacity_factor is not None:
        kw.pop("capacity_factor", None)
    where = {}
    if a.gpu is None and cluster.get("gpu") in gpu_names():     # the plan's budget only on the plan's GPU
        where["gpu"] = cluster["gpu"]
        if a.memory_gib is None and a.memory_fraction is None and cluster.get("memory_budget_gib"):
            where["memory_gib"] = float(cluster["memory_budget_gib"])
        if a.gpus_per_node is None and cluster.get("gpus_per_node"):
            where["gpus_per_node"] = int(cluster["gpus_per_node"])
    return kw, where


def base_problem(a, cfg: ForeignConfig):
    """The problem flags, with the config's GPU count, sequence, batch and model as defaults."""
    from planner.specs import DEFAULT_GPU, SpecError, make_problem
    model = _model_for(a, cfg)
    seq = a.seq or (str(cfg.seq) if cfg.seq else None)
    if seq is None:
        raise AuditParseError(cfg.path, None, "the config does not give the sequence length: pass --seq")
    if a.global_batch:
        gb = a.global_batch
    elif cfg.global_batch and cfg.global_batch < 65536:
        gb = str(cfg.global_batch)  # sequences (make_problem reads < 64Ki as sequences)
    else:
        gb = str(max(1, 4 * 2**20 // int(_size(seq, "seq"))))  # ~4M tokens, a whole number of sequences
    kw, where = _plan_job(a, cfg)
    if a.micro_batch:
        kw["micro_batches"] = tuple(_size(x, "micro_batch") for x in a.micro_batch.split(",") if x.strip())
    if a.capacity_factor is not None:
        kw["capacity_factor"] = a.capacity_factor
    if getattr(a, "attention_kernel", None):
        kw["attention_kernel"] = a.attention_kernel
    world = cfg.world if a.gpus is None else None

    def build(gpus: int):
        return make_problem(model=model, gpu=a.gpu or where.get("gpu") or DEFAULT_GPU, gpus=gpus,
                            gpus_per_node=(_size(a.gpus_per_node, "gpus_per_node") if a.gpus_per_node
                                           else where.get("gpus_per_node")),
                            seq=seq, global_batch=gb, memory_gib=a.memory_gib or where.get("memory_gib"),
                            memory_fraction=a.memory_fraction, **kw)

    gpus = _size(a.gpus, "gpus") if a.gpus is not None else world
    if gpus is None:
        raise AuditParseError(cfg.path, None, "the config does not say how many GPUs: pass --gpus N")
    try:
        return build(gpus)
    except SpecError:
        if world is None:
            raise
        return build(8)  # the config's GPU count is itself broken (e.g. 6 on 8-GPU nodes): the rules report it


def run(a) -> int:
    cfg = _load(a)
    problem = base_problem(a, cfg)
    quiet = bool(getattr(a, "json", False))
    limit = float(getattr(a, "time_limit", None) or 60.0)
    if not limit > 0 or limit > 86400:
        raise AuditParseError("--time-limit", None, f"must be in (0, 86400] seconds, got {limit}")
    report = run_audit(cfg, problem, search=not getattr(a, "no_best", False), time_limit=limit,
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


def _layout_text(L, moe: bool = True) -> str:
    """One line of a layout; a dense model's has no expert folding to show."""
    folds = sorted({s.fold for s in L.stages})
    fold = "; ".join(f"etp{f[0]} ep{f[1]} edp{f[2]}" for f in folds)
    cp = f" ({L.cp_kind})" if L.cp > 1 else ""
    return (f"tp{L.tp} cp{L.cp}{cp} dp{L.dp} pp{L.pp}" + (f" vpp{L.vpp}" if L.vpp > 1 else "")
            + (f", experts {fold}" if moe else "") + f", micro-batch {L.micro_batch} x {L.num_microbatches}")


def _is_moe(report: AuditReport) -> bool:
    return report.problem is None or report.problem.model.is_moe


def text(report: AuditReport) -> list[str]:
    cfg = report.cfg
    out = [f"audit of {cfg.path} ({cfg.format})"]
    if report.problem is not None:
        p = report.problem
        out.append(f"  {p.model.name}, {p.cluster.gpus} x {p.cluster.gpu.name}, seq {p.train.seq:,}, "
                   f"global batch {p.train.global_batch} sequences")
    if report.layout is not None:
        out.append(f"  layout: {_layout_text(report.layout, _is_moe(report))}")
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

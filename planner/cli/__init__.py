"""foldplan's command line: argument parsing and dispatch only.

Exit codes: 0 ok; 1 audit found errors; 2 bad input (one-line message, no traceback);
3 nothing fits (plan).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from planner.cli.args import (ALL, PLAN, SEARCH, ProblemArgs, add_audit_flags, add_problem_flags, check_command,
                              problem_args_of)
from planner.cli.problem_args import build_problem

from planner import engines
from planner.safeio import validate
from planner.cli import detail, plan_checks, sweep
from planner.cli.calibrate import add_calibrate_parser, cmd_measured
from planner.engines import export
from planner.layout import LayoutError
from planner.layout.strings import format_layout
from planner.specs import DEFAULT_HEADROOM, SpecError, gpu_names, load_gpu, load_model, model_names, published

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_NOFIT = 0, 1, 2, 3


class _Progress:
    """Prints search progress to stderr once a search has run for more than a second, on a
    terminal only (one line, rewritten in place and cleared at the end; a log or a pipe gets none)."""

    def __init__(self, quiet: bool):
        self.t0, self.shown = time.perf_counter(), False
        self.quiet = quiet or not sys.stderr.isatty()

    def __call__(self, msg: str) -> None:
        if self.quiet or time.perf_counter() - self.t0 < 1.0:
            return
        self.shown = True
        print(f"searching: {msg}"[:78].ljust(78), end="\r", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.shown:
            print(" " * 78, end="\r", file=sys.stderr, flush=True)


def cmd_plan(a, args: ProblemArgs) -> int:
    # deferred: the cost model's tables, the report and the binding search (OR-Tools) load for `plan` only
    from planner import plan as planmod, report
    from planner.report import engines as engine_block
    from planner.solve.binding import memory_binding
    from planner.solve.nofit import why_none
    if a.sweep:
        return _plan_sweep(a, args)
    problem = build_problem(args)
    whole = bool(a.fix) and not sweep.pins_only(a.fix)    # recompute / stages / ...: the completion rule
    fixed = sweep.parse_fix(a.fix, problem) if a.fix and not whole else None
    if a.out:                                   # fail before the search, not after it
        plan_checks.check_out(a, problem)
    pricing = detail.start_pricing(a, args, problem, fixed)
    result = _own_search(a, problem, whole, fixed, pricing)
    if not result.plans:
        if fixed or whole:
            print(f"foldplan: --fix {a.fix}: no {problem.train.target}-runnable layout with these values "
                  f"fits", file=sys.stderr)
        for line in report.nothing_fits(problem, why_none(problem, result, a.time_limit)):
            print(line, file=sys.stderr)
        return EXIT_NOFIT
    plans = planmod.from_search(problem, result)
    priced = None if pricing is None else pricing(plans[0].estimate.step_time)
    switched = None
    if priced is not None:
        switched = detail.maybe_switch(a, args, plans, priced, fixed, whole)   # the default target: a measured one?
    binds = detail.found_binding(priced, switched)
    if switched:
        problem, result, plans, priced, switched = switched
    for line in plan_checks.sanity_warnings(problem, plans[0].layout):
        print(line, file=sys.stderr)
    if a.json:
        sys.stdout.write(planmod.dumps(plans, extra={"engines": engine_block.document(plans[0], priced)}))
    else:
        print(report.header(problem))
        print()
        engine_block.print_block(plans[0], priced)
        if priced is not None:
            print(detail.why_line(problem.train.target, args.target is not None, switched))
        print()
        head, body = report.rows(plans)
        report.print_table(head, body, title=f"The best {len(plans)} {problem.train.target} plans "
                           f"(--target {' | '.join(engines.targets())})")
        print()
        if binds is None:
            binds = memory_binding(problem, result.fastest_ns / 1e9, time_limit=min(a.time_limit, 30.0)) or {}
        for line in report.why(plans, binds=binds, fastest_s=result.fastest_ns / 1e9):
            print(line)
        print(f"\nsolver: {result.status}, {result.tuples} tuples, {result.pruned} pruned by bounds, "
              f"{result.cpsat_calls} CP-SAT calls, {result.wall_s:.2f} s")
    if a.out or a.report:
        # deferred: the bundle's templates (jinja2) and the HTML report load only to write them
        from planner.bundle import codegen
        from planner.report import html as htmlreport
        if a.out:
            path = codegen.render_bundle(plans[0], a.out, force=a.force)
            if not a.json:
                print(f"bundle written to {path}")
            note = codegen.runs_differently(plans[0])
            if note:
                print(f"foldplan: warning: {note}", file=sys.stderr)
        if a.report:
            htmlreport.write_plan_report(plans, result, a.report, priced=priced)
            if not a.json:
                print(f"report written to {a.report}")
    return EXIT_OK


def _own_search(a, problem, whole: bool, fixed, pricing):
    """The detailed target's search (or the completion of a whole --fix layout); the other targets'
    searches (`pricing`) are stopped if it fails or finds nothing."""
    # deferred: the search (OR-Tools) loads for `plan` only
    from planner.solve import targets
    from planner.solve.complete import fixed_result
    prog, result = _Progress(quiet=a.json), None
    try:
        if whole:
            result, assumed = fixed_result(a.fix, problem)
            for line in assumed:
                print(f"assumed: {line}", file=sys.stderr if a.json else sys.stdout)
        else:
            result = targets.search(problem, top=a.top, time_limit=a.time_limit, progress=prog, fixed=fixed)
    finally:                                  # failed or found nothing: the other answers are not wanted
        if pricing is not None and (result is None or not result.plans):
            pricing.cancel()
    prog.done()
    return result


def _plan_sweep(a, args: ProblemArgs) -> int:
    """One best plan per point of the sweep: a table line each, or (--json) a plans document each."""
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import plan as planmod
    from planner import report
    from planner.report import engines as engine_block
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve import targets
    rows, docs, bands = [], [], {}
    for point, b in sweep.points(args, a.sweep):
        problem = build_problem(b)
        fixed = sweep.parse_fix(a.fix, problem) if a.fix else None
        res = targets.search(problem, top=a.top, time_limit=a.time_limit, fixed=fixed)
        plans = planmod.from_search(problem, res) if res.plans else []
        priced = None
        if plans and not a.no_engines:          # the best plan of every other target at this point
            priced = targets.price(problem, plans[0].estimate.step_time, time_limit=min(a.time_limit, 30.0),
                                   targets=[t for t in engines.targets() if t != problem.train.target], fixed=fixed,
                                   given=b.train_values())
        rows.append(sweep.row(point, plans, problem, res) + sweep.engine_cells(point, plans, priced, bands, a.no_engines))
        docs.append({"point": point, "status": res.status,
                     "plans": planmod.document(plans) if plans else None,
                     "engines": planmod._round(engine_block.document(plans[0], priced)) if plans else None})
    if a.json:
        sys.stdout.write(json.dumps({"schema": sweep.SCHEMA, "points": docs}, indent=1, sort_keys=True) + "\n")
    else:
        report.print_table(list(a.sweep) + sweep.HEAD + ([] if a.no_engines else [sweep.ENGINES_HEAD]), rows,
                           title=f"sweep of {', '.join(a.sweep)} (target {args.target or 'bundle'}; best plan per "
                           f"point)")
        if bands:
            print("Known error bands: the cost model against published runs of this kind the engine ran "
                  "(docs/fidelity.md; + = estimate faster than the run):")
            for (target, text), pts in sorted(bands.items(), key=lambda kv: engines.targets().index(kv[0][0])):
                print(f"  {target:10} {text}" + ("" if len(pts) == len(rows) else f" (at {', '.join(pts)})"))
    return EXIT_OK if any(d["plans"] for d in docs) else EXIT_NOFIT


def cmd_models(a, args: ProblemArgs) -> int:
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import costmodel as cm
    out = []
    for name in model_names():
        m = load_model(name)
        pc = cm.param_counts(m)
        pub = published(name)
        out.append({"name": name, "total": pc["total"], "active": pc["active"], "mtp": pc["mtp_with_embeddings"],
                    "published_total": pub.get("total"), "published_active": pub.get("active"),
                    "layers": m.layers, "hidden": m.hidden, "moe": m.is_moe})
    if a.json:
        print(json.dumps(out, indent=1, sort_keys=True))
        return EXIT_OK
    print(f"{'model':18s} {'total':>9s} {'active':>9s} {'published':>17s}  layers hidden")
    for r in out:
        pub = f"{r['published_total'] / 1e9:.1f}B / {r['published_active'] / 1e9:.1f}B"
        print(f"{r['name']:18s} {r['total'] / 1e9:8.2f}B {r['active'] / 1e9:8.2f}B {pub:>17s}  {r['layers']:6d} {r['hidden']:6d}")
    return EXIT_OK


def cmd_gpus(a, args: ProblemArgs) -> int:
    rows = []
    for name in gpu_names():
        g = load_gpu(name)
        rows.append({"name": name, "memory_gib": g.memory_gib, "memory_source": g.memory_source,
                     "context_gib": g.reserve_gib, "allocator_margin": g.allocator_margin,
                     "allocatable_gib": round(g.allocatable_gib, 3),
                     "default_budget_gib": round(g.allocatable_gib * DEFAULT_HEADROOM, 3),
                     "peak_flops": g.peak_flops, "hbm_bw": g.hbm_bw, "intra_node_bw": g.intra_node_bw,
                     "inter_node_bw": g.inter_node_bw, "gpus_per_node": g.gpus_per_node, "gpus_per_domain": g.domain,
                     "arch": g.arch, "source": g.source, "fp8_peak_flops": g.fp8_peak_flops, "mxfp8": g.mxfp8})
    if a.json:
        print(json.dumps({"schema": "foldplan.gpus/1", "gpus": rows}, indent=1, sort_keys=True))
        return EXIT_OK
    w = max(12, *(len(r["name"]) for r in rows))
    fp8 = lambda r: f"{r['fp8_peak_flops'] / 1e12:.0f}" if r["fp8_peak_flops"] else "-"    # dense FP8 TFLOP/s
    print(f"{'gpu':{w}s} {'total GiB':>9s} {'context':>7s} {'margin':>6s} {'allocatable':>11s} {'budget':>6s} "
          f"{'TFLOP/s':>7s} {'FP8':>5s} {'MX':>3s} {'arch':9s} {'node/NVLink':>11s}  memory as reported by")
    for r in rows:
        print(f"{r['name']:{w}s} {r['memory_gib']:9.2f} {r['context_gib']:7.1f} {r['allocator_margin']:6.3f} "
              f"{r['allocatable_gib']:11.1f} {r['default_budget_gib']:6.1f} {r['peak_flops'] / 1e12:7.0f} "
              f"{fp8(r):>5s} {'yes' if r['mxfp8'] else 'no':>3s} "
              f"{load_gpu(r['name']).arch_label:9s} {r['gpus_per_node']:>5d}/{r['gpus_per_domain']:<5d}  "
              f"{r['memory_source']}")
    print(f"budget = allocatable x {DEFAULT_HEADROOM} headroom (--memory-fraction); "
          "plans check the peak of allocated tensors against it")
    return EXIT_OK


def cmd_explain(a, args: ProblemArgs) -> int:
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import plan as planmod
    from planner import report
    if a.plan:
        plans = planmod.load(a.plan, index=a.index)
        report.explain(plans[0].problem, plans[0].layout)
        return EXIT_OK
    problem = build_problem(args)
    if not a.layout:
        raise SpecError("explain: give a plan.json or --layout \"tp=..,cp=..,...\"")
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve.complete import layout_from_string
    layout, assumed = layout_from_string(a.layout, problem)
    for line in assumed:
        print(f"assumed: {line}")
    print(f"layout: {format_layout(layout)}")
    report.explain(problem, layout)
    return EXIT_OK


def cmd_bundle(a, args: ProblemArgs) -> int:
    # deferred: jinja2 and the templates, only for the command that writes them
    from planner.bundle import codegen
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import plan as planmod
    plans = planmod.load(a.plan, index=a.index)       # validated (one-line errors)
    if not plans:
        raise planmod.PlanFileError(f"{a.plan}: no plan at index {a.index}")
    path = codegen.render_bundle(plans[0], a.out, force=a.force)
    print(f"bundle written to {path}")
    note = codegen.runs_differently(plans[0])
    if note:
        print(f"foldplan: warning: {note}", file=sys.stderr)
    return EXIT_OK


def cmd_compare(a, args: ProblemArgs) -> int:
    # deferred: its command's own modules; the command line starts without them
    from planner.cli import compare
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import report
    es = compare.entries(a.items, lambda: build_problem(args))
    head, rows = compare.table(es)
    report.print_table(head, rows)
    for line in compare.notes(es):
        print(line)
    print(compare.verdict(es))
    return EXIT_OK


def cmd_export(a, args: ProblemArgs) -> int:
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import plan as planmod
    plans = planmod.load(a.plan, index=a.index)
    written = export.write(plans[0], a.to, a.out, force=a.force)
    if a.out is None:
        sys.stdout.write(written[0])
    else:
        print(f"written: {', '.join(written)}")
    return EXIT_OK


def cmd_audit(a, args: ProblemArgs) -> int:
    # deferred: its command's own modules; the command line starts without them
    from planner.cli import audit as audit_cli
    if a.measured is not None:                  # a measured step beside the estimate (planner/cli/calibrate.py)
        return cmd_measured(a, args)
    return audit_cli.run(audit_cli.audit_args(a, args))


def parser() -> argparse.ArgumentParser:
    ap = validate.OneLineParser(prog="foldplan", description="Plan, prove and emit the parallel layout of "
                                 "long-context MoE (and dense) training.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="best layouts for a model, cluster and training shape")
    add_problem_flags(p, scopes=(ALL, SEARCH, PLAN))
    p.add_argument("--top", type=int, default=5, help="plans to return (default 5)")
    p.add_argument("--time-limit", type=float, default=60.0, help="search time limit, seconds (default 60)")
    p.add_argument("--json", action="store_true", help="print the plans as JSON (schema foldplan.plans/1)")
    p.add_argument("--out", default=None, help="write the launch bundle (plan.json, code, scripts) to DIR")
    p.add_argument("--force", action="store_true", help="replace an existing non-empty --out DIR")
    p.add_argument("--report", default=None, help="write a self-contained HTML report")
    p.add_argument("--no-engines", action="store_true", help=f"skip the best plans of the other targets "
                   f"({', '.join(engines.targets())}) that the output sets beside this one (one more search each)")
    p.add_argument("--fix", default=None, help="fix degrees and search the rest, e.g. tp=8,pp=16 "
                   "(keys: tp cp dp pp vpp etp ep edp micro_batch cp_kind cp_ulysses cp_ring sharding order)")
    p.set_defaults(fn=cmd_plan)
    gp = sub.add_parser("gpus", help="the GPU presets: memory as the runtime reports it, and the budget")
    gp.add_argument("--json", action="store_true")
    gp.set_defaults(fn=cmd_gpus)
    m = sub.add_parser("models", help="the model presets with total and active parameters")
    m.add_argument("--json", action="store_true")
    m.set_defaults(fn=cmd_models)
    e = sub.add_parser("explain", help="every formula of a plan or layout, symbolic then with numbers")
    e.add_argument("plan", nargs="?", help="a plan.json")
    e.add_argument("--index", type=int, default=0, help="which plan of the file (default 0, the best)")
    e.add_argument("--layout", default=None, help='inline layout, e.g. "tp=1,cp=8,dp=1,pp=8,ep=8,edp=1"')
    add_problem_flags(e)
    e.set_defaults(fn=cmd_explain)
    b = sub.add_parser("bundle", help="render the launch bundle of a plan.json")
    b.add_argument("plan")
    b.add_argument("--out", required=True)
    b.add_argument("--force", action="store_true")
    b.add_argument("--index", type=int, default=0)
    b.set_defaults(fn=cmd_bundle)
    c = sub.add_parser("compare", help="plans and layout strings side by side: memory, time, rules, the winner")
    c.add_argument("items", nargs="+", help='plan.json files and/or layout strings ("tp=2,cp=16,ep=4")')
    add_problem_flags(c)
    c.set_defaults(fn=cmd_compare)
    says = [f"{x.says} (--to {x.name})" for x in engines.exports()]
    x = sub.add_parser("export", help=f"a plan as {', '.join(says[:-1])} or {says[-1]} (what it cannot say: refused)")
    x.add_argument("plan", help="a plan.json")
    x.add_argument("--to", required=True, choices=[x.name for x in engines.exports()])
    x.add_argument("--out", default=None, help="the file to write (Megatron: FILE.sh, and FILE.args beside it); "
                   "default: print it")
    x.add_argument("--force", action="store_true", help="replace files --out would write that exist already")
    x.add_argument("--index", type=int, default=0, help="which plan of the file (default 0, the best)")
    x.set_defaults(fn=cmd_export)
    au = sub.add_parser("audit", help=f"check a layout someone runs ("
                        f"{', '.join(e.says for e in engines.REGISTRY if e.reader)}, foldplan, inline)")
    au.add_argument("source", help="a file, or an inline layout string (`audit script.sh -- ARGS...`: the script's "
                    "positional arguments, $1 ...)")
    add_audit_flags(au)
    add_problem_flags(au, scopes=(ALL,), from_config=True)
    logs = " / ".join(e.says for e in engines.REGISTRY if e.log)
    au.add_argument("--measured", default=None, help=f"the bundle's metrics file or a {logs} log: "
                    "the measured step beside the estimate, term by term")
    au.set_defaults(fn=cmd_audit)
    add_calibrate_parser(sub)
    return ap


# the input errors of modules the CLI imports on demand: one can only be raised once its
# module is loaded, so the modules already in sys.modules are the ones to catch
_ERRORS = (("planner.plan", "PlanFileError"), ("planner.layout.foreign", "AuditParseError"),
           ("planner.engines.errors", "ExportError"), ("planner.bundle.codegen", "BundleError"))


def _loaded_errors() -> tuple:
    return tuple(getattr(sys.modules[m], n) for m, n in _ERRORS if m in sys.modules)


def main(argv=None) -> int:
    validate.quiet_streams()                     # an ASCII terminal: replace, never UnicodeEncodeError
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        script_args = argv[argv.index("--") + 1:] if argv[:1] == ["audit"] and "--" in argv else None
        a = parser().parse_args(argv if script_args is None else argv[:argv.index("--")])
        if script_args is not None:              # `audit script.sh -- ARGS...`: the script's own arguments
            a.script_args = script_args
        if a.fn is cmd_plan:                     # --seq 32k,64k / --gpus 64,128 sweeps (planner/cli/sweep.py)
            a.sweep = sweep.split(a)
        args = problem_args_of(a)                # every value and output path, before any work
        check_command(a)
        return validate.flushed(a.fn(a, args))
    except BrokenPipeError:                      # `foldplan plan | head -1`
        return validate.stdout_closed()
    except Exception as e:
        if not isinstance(e, (SpecError, LayoutError, OSError, validate.InputError, *_loaded_errors())):
            raise
        msg = validate.error_line(e)
        print(f"foldplan: error: {msg}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("foldplan: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

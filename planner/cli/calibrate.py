"""`foldplan calibrate RESULTS --out my-cluster.yaml [--gpu BASE]` and `foldplan audit --measured
METRICS PLAN_OR_CONFIG`: the command-line ends of planner.calibrate."""
from __future__ import annotations

import sys
from pathlib import Path

from planner import safeio


def add_calibrate_parser(sub) -> None:
    c = sub.add_parser("calibrate", help="turn the bundle's microbenchmark results (launch/calibrate.sh) into a "
                       "GPU preset for --gpu")
    c.add_argument("results", help="the JSON-lines file calibrate.py wrote")
    c.add_argument("--out", required=True, help="the preset YAML to write (then: foldplan plan --gpu FILE)")
    c.add_argument("--gpu", default=None, help="the preset whose unmeasured fields are kept (default: the GPU of "
                   "the plan the benchmarks were generated from)")
    c.add_argument("--force", action="store_true", help="replace an existing --out file")
    c.set_defaults(fn=cmd_calibrate)


def cmd_calibrate(a, args) -> int:

    # deferred: its command's own modules; the command line starts without them
    from planner.calibrate.preset import build_preset, read_results, write_preset
    if Path(a.out).exists() and not a.force:
        raise safeio.InputError(f"out: {a.out} exists (use --force)")
    base = a.gpu
    if base is None:
        prov, _ = read_results(a.results)
        base = (prov.get("plan") or {}).get("gpu") if isinstance(prov.get("plan"), dict) else None
        if not isinstance(base, str):
            raise safeio.InputError("gpu: the results do not name the plan's GPU; pass --gpu BASE_PRESET")
    data, notes = build_preset(a.results, base)
    write_preset(data, a.out)
    cal = data["calibration"]
    print(f"calibrated {len(cal['measured'])} field(s) over the {base} preset from {a.results}:")
    for k, v in cal["measured"].items():
        print(f"  {k:28s} {v['value']:<12.4g} {v['fit']}")
    print(f"kept from {base}: {', '.join(cal['kept_from_base'])}")
    for n in notes:
        print(f"note: {n}")
    print(f"written: {a.out} (use: foldplan plan --gpu {a.out} ...)")
    return 0


def _is_plan_file(path: str) -> bool:
    # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
    from planner import plan as planmod
    if not path.endswith(".json"):
        return False
    try:
        doc = safeio.read_json(path, "plan")
    except safeio.InputError:
        return False
    return isinstance(doc, dict) and doc.get("schema") == planmod.SCHEMA


def _estimate(a, args):
    """(problem, estimate dict) of PLAN_OR_CONFIG: a plan.json's own plan (re-estimated on its recorded GPU,
    a calibrated one included), or the audit's estimate of a config (no best-plan search)."""
    if _is_plan_file(a.source):
        # deferred: the cost model's tables (numpy, sympy on a miss), not needed to start the command line
        from planner import plan as planmod
        p = planmod.load(a.source, 0)[0]
        return p.problem, p.estimate.to_dict()
    # deferred: its command's own modules; the command line starts without them
    from planner.audit.audit import run_audit
    from planner.cli.audit import _load, audit_args, base_problem, completed
    aa = audit_args(a, args)
    cfg = _load(aa)
    problem = base_problem(aa.problem, cfg)
    report = run_audit(completed(cfg, problem), problem, search=False, time_limit=aa.time_limit, progress=None)
    if report.estimate is None:
        raise safeio.InputError(f"measured: {a.source} has no estimate to compare with "
                                f"({'; '.join(f.message for f in report.errors) or 'the audit could not price it'})")
    return report.problem, report.estimate.to_dict()


def cmd_measured(a, args) -> int:
    """The estimate of PLAN_OR_CONFIG beside the measured steps."""
    # deferred: its command's own modules; the command line starts without them
    from planner.calibrate.measured import comparison, implausible, read_measured
    pb, est = _estimate(a, args)
    tokens, world = pb.train.global_batch_tokens, pb.cluster.gpus
    m = read_measured(a.measured, world, tokens)
    print(f"measured ({m.source}, {a.measured}) beside the estimate of {a.source} on {world} x {pb.cluster.gpu.name}:")
    for line in comparison(m, est, tokens, world):
        print(line)
    for line in implausible(m, est, pb.cluster.gpu):
        print(f"foldplan: warning: measured {a.measured}: {line}", file=sys.stderr)
    return 0

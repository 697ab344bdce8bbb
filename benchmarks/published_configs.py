"""The published-configurations corpus scored in one command: every config of examples/audit/real
(provenance: examples/audit/real/CORPUS.md; what a person reads from each: expected.toml), audited
without the best-plan search, one row per config:

* read: the audit's reading agrees with what a person reads from the file (expected.toml's layout,
  model and precision; "-" where expected.toml records nothing to compare);
* errors / warnings: the audit's error and warning rule ids;
* false: errors on a config published as run (`verdict = "ran"`): a run that ran is never an error.

    python benchmarks/published_configs.py            # markdown table, exit 1 on a misread or a false error
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.audit.audit import run_audit  # noqa: E402
from planner.audit.detect import load  # noqa: E402
from planner.cli import parser, problem_args_of  # noqa: E402
from planner.cli.audit import base_problem  # noqa: E402
from planner.layout.foreign import AuditParseError  # noqa: E402
from planner.safeio import InputError  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / "examples" / "audit" / "real"
EXPECTED = tomllib.loads((REAL / "expected.toml").read_text())


def argv_of(name: str) -> list[str]:
    """The audit's command line for one corpus config (expected.toml's `args`)."""
    argv = ["audit", str(REAL / name), "--no-best"]
    for k, v in EXPECTED[name].get("args", {}).items():
        if k == "env":
            argv += [x for kv in v.items() for x in ("--env", f"{kv[0]}={kv[1]}")]
        else:
            argv += [f"--{k}", str(v)]
    return argv


def misread(name: str, cfg) -> list[str]:
    """What the audit reads differently from expected.toml (empty: read right)."""
    exp, out = EXPECTED[name], []
    for key, want in exp.get("layout", {}).items():
        got = getattr(cfg, key)
        got = list(got) if isinstance(got, tuple) else got
        if got != want:
            out.append(f"{key}={got!r} (read {want!r})")
    moe = cfg.model.get("moe") or {}
    for key, want in exp.get("model", {}).items():
        got = moe.get(key) if key in ("experts", "top_k", "first_dense_layers") else cfg.model.get(key)
        if got != want:
            out.append(f"model.{key}={got!r} (read {want!r})")
    if "precision" in exp and cfg.extra.get("precision") != exp["precision"]:
        out.append(f"precision={cfg.extra.get('precision')!r} (read {exp['precision']!r})")
    return out


def audit(name: str):
    """(config, report) of one corpus config; report None where the audit needs what the file lacks."""
    args = EXPECTED[name].get("args", {})
    cfg = load(str(REAL / name), gpus=args.get("gpus"), env=args.get("env") or None)
    try:
        problem = base_problem(problem_args_of(parser().parse_args(argv_of(name))), cfg)
    except (InputError, AuditParseError) as e:      # needs what the file lacks (--model, --seq)
        return cfg, str(e).split(': ', 1)[-1]
    return cfg, run_audit(cfg, problem, search=False)


def row(name: str) -> dict:
    cfg, report = audit(name)
    verdict = EXPECTED[name].get("verdict", "")
    bad = misread(name, cfg)
    if isinstance(report, str):
        return {"name": name, "verdict": verdict, "misread": bad, "errors": [], "warnings": [],
                "note": report.splitlines()[0][:90], "false": 0}
    errors = [f.rule for f in report.findings if f.severity == "error"]
    warnings = [f.rule for f in report.findings if f.severity == "warning"]
    peak = f"peak {report.estimate.peak_bytes / 2**30:.1f} GiB" if report.estimate else ""
    return {"name": name, "verdict": verdict, "misread": bad, "errors": errors, "warnings": warnings,
            "note": peak, "false": len(errors) if verdict == "ran" else 0}


def main() -> int:
    rows = [row(n) for n in sorted(EXPECTED)]
    print("| config | published as | read right | errors | warnings | note |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        read = "yes" if not r["misread"] else "NO: " + "; ".join(r["misread"])
        print(f"| {r['name']} | {r['verdict'] or '-'} | {read} | {', '.join(r['errors']) or '-'} | "
              f"{', '.join(r['warnings']) or '-'} | {r['note']} |")
    false = sum(r["false"] for r in rows)
    wrong = sum(bool(r["misread"]) for r in rows)
    print(f"\n{len(rows)} configs: {wrong} misread, {false} false error(s) on configs published as run, "
          f"{sum(len(r['errors']) for r in rows)} error(s) in all")
    return 1 if false or wrong else 0


if __name__ == "__main__":
    sys.exit(main())

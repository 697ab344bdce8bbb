"""The published-configurations corpus scored in one command: every config of examples/audit/real
(provenance: examples/audit/real/CORPUS.md; what a person reads from each: expected.toml), audited
without the best-plan search, one row per config:

* read: the audit's reading agrees with what a person reads from the file (expected.toml's layout,
  model and precision; "-" where expected.toml records nothing to compare);
* errors / warnings: the audit's error and warning rule ids;
* false: errors on a config published as run (`verdict = "ran"`): a run that ran is never an error;
* engine (`--judge`): the Megatron-LM configs (mlm_, ci_, zoo_) handed to megatron-core's own parse_args,
  validate_args, TransformerConfig and initialize_model_parallel (planner/engines/megatron/judge.py): an
  audit error on a config the engine accepts must be a memory verdict (tests/test_audit_engine_errors.py).

    python benchmarks/published_configs.py [--judge]  # markdown table, exit 1 on a misread or a false error
"""
from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.audit.audit import run_audit  # noqa: E402
from planner.audit.detect import load  # noqa: E402
from planner.cli import parser, problem_args_of  # noqa: E402
from planner.cli.audit import base_problem  # noqa: E402
from planner.engines.megatron import read, read_yaml  # noqa: E402
from planner.layout.foreign import AuditParseError  # noqa: E402
from planner.safeio import InputError  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / "examples" / "audit" / "real"
EXPECTED = tomllib.loads((REAL / "expected.toml").read_text())


# what the ModelZoo configs (written for an earlier Megatron) set that megatron-core 0.19.2 refuses for a
# reason that is no layout's: TE's fused cross entropy ("disabled due to stability issues",
# megatron/training/arguments.py:1642-1646); its native implementation is the same loss
DRIFT = {("--cross-entropy-fusion-impl", "te"): "native"}


def megatron_files(path: Path, env: dict, script_args: tuple = ()) -> dict:
    """The judge's case: the argument list, and the environment the config's launcher exports (a launch
    script's own `export` lines; a functional-test / ModelZoo YAML's ENV_VARS)."""
    text = path.read_text()
    whole = {**os.environ, **env}
    launch = text if path.suffix == ".sh" else ""
    if path.suffix == ".yaml":
        argv = read_yaml.argv(text, str(path), whole)
        env_vars = (yaml.safe_load(text) or {}).get("ENV_VARS") or {}
        launch = "".join(f"export {k}={v}\n" for k, v in env_vars.items() if " " not in str(v))
    elif path.suffix == ".args":
        argv = [w for line in text.splitlines() if not line.lstrip().startswith("#") for w in line.split()]
    else:
        argv = read.argv(text, str(path), whole, script_args)
    argv = [DRIFT.get((prev, w), w) for prev, w in zip(["", *argv], argv)]
    return {"config.args": "\n".join(argv), "launch.sh": launch}


def argv_of(name: str) -> list[str]:
    """The audit's command line for one corpus config (expected.toml's `args`)."""
    argv = ["audit", str(REAL / name), "--no-best"]
    for k, v in EXPECTED[name].get("args", {}).items():
        if k == "env":
            argv += [x for kv in v.items() for x in ("--env", f"{kv[0]}={kv[1]}")]
        elif k not in ("script_args", "config"):      # these reach load() directly (read_entry)
            argv += [f"--{k}", str(v)]
    return argv


MOE_KEYS = ("experts", "top_k", "first_dense_layers")      # model fields the audit keeps under model["moe"]


def differences(cfg, exp: dict) -> list[str]:
    """Where the audit's reading `cfg` differs from an expected-values entry `exp` (its `layout`, `model`,
    `precision` and `dtype`): one phrase each, empty when read right. The reader corpus
    (scripts/reader_corpus.py) compares with this too."""
    out = []
    for key, want in exp.get("layout", {}).items():
        got = getattr(cfg, key)
        got = list(got) if isinstance(got, tuple) else got
        if got != want:
            out.append(f"{key} {got!r} (the file: {want!r})")
    moe = cfg.model.get("moe") or {}
    for key, want in exp.get("model", {}).items():
        got = moe.get(key) if key in MOE_KEYS else cfg.model.get(key)
        if got != want:
            out.append(f"model {key} {got!r} (the file: {want!r})")
    for key in ("precision", "dtype"):
        if key in exp and cfg.extra.get(key) != exp[key]:
            out.append(f"{key} {cfg.extra.get(key)!r} (the file: {exp[key]!r})")
    return out


def misread(name: str, cfg) -> list[str]:
    """What the audit reads differently from expected.toml (empty: read right)."""
    return differences(cfg, EXPECTED[name])


def read_entry(name: str, args: dict):
    """The audit's reading of one corpus file under its expected.toml `args`: the GPUs, the environment,
    the script's own arguments (`audit script.sh -- ARGS`) and the config function (`file.py::NAME`)."""
    src = str(REAL / name) + (f"::{args['config']}" if "config" in args else "")
    return load(src, gpus=args.get("gpus"), env=args.get("env") or None, script_args=tuple(args.get("script_args", ())))


def audit(name: str):
    """(config, report) of one corpus config; report None where the audit needs what the file lacks."""
    cfg = read_entry(name, EXPECTED[name].get("args", {}))
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


def engine_verdicts(rows: list[dict]) -> None:
    """Megatron's own verdict on each Megatron-LM config of `rows` (r["engine"]); an audit error that is
    no memory verdict on a config Megatron accepts counts as false."""
    from planner.engines.judge import available, judge
    names = [r["name"] for r in rows if r["name"].startswith(("mlm_", "ci_", "zoo_"))]
    if available("megatron"):
        return
    cases = []
    for n in names:
        args = EXPECTED[n].get("args", {})
        cfg = read_entry(n, args)
        cases.append(({"layout": {"world": args.get("gpus") or cfg.world or 8},
                       "problem": {"cluster": {"gpu": "h100-sxm"}}},
                      megatron_files(REAL / n, args.get("env") or {}, tuple(args.get("script_args", ())))))
    for n, v in zip(names, judge("megatron", cases)):
        r = next(r for r in rows if r["name"] == n)
        r["engine"] = "accepts" if v["accepted"] else "refuses: " + (v["reason"] or "")[:70]
        if v["accepted"]:
            r["false"] = max(r["false"], sum(not e.startswith("memory.") for e in r["errors"]))


def main(argv=None) -> int:
    rows = [row(n) for n in sorted(EXPECTED)]
    if "--judge" in (sys.argv[1:] if argv is None else argv):
        engine_verdicts(rows)
    print("| config | published as | read right | errors | warnings | Megatron | note |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        read = "yes" if not r["misread"] else "NO: " + "; ".join(r["misread"])
        print(f"| {r['name']} | {r['verdict'] or '-'} | {read} | {', '.join(r['errors']) or '-'} | "
              f"{', '.join(r['warnings']) or '-'} | {r.get('engine', '-')} | {r['note']} |")
    false = sum(r["false"] for r in rows)
    wrong = sum(bool(r["misread"]) for r in rows)
    print(f"\n{len(rows)} configs: {wrong} misread, {false} false error(s) (on configs published as run or "
          f"that the engine accepts), "
          f"{sum(len(r['errors']) for r in rows)} error(s) in all")
    return 1 if false or wrong else 0


if __name__ == "__main__":
    sys.exit(main())

"""The real-config corpus (examples/audit/real): each file parses to what a person reads from it.

Expected values are in examples/audit/real/expected.toml, written by reading each file;
nothing there is copied from foldplan's output. Audits run without the best-plan search.
"""

import os
import tomllib
from pathlib import Path

import pytest

from planner.audit.audit import run_audit
from planner.cli.audit import base_problem
from planner.audit.detect import load
from planner.cli import main

REAL = Path(__file__).resolve().parent.parent / "examples" / "audit" / "real"
EXPECTED = tomllib.loads((REAL / "expected.toml").read_text())
FILES = sorted(EXPECTED)


def _load(name):
    args = EXPECTED[name].get("args", {})
    source = str(REAL / name) + (f"::{args['config']}" if "config" in args else "")   # a module's function
    return load(source, gpus=args.get("gpus"), env=args.get("env") or None,
                script_args=tuple(args.get("script_args", ())))


def test_corpus_has_thirty_real_configs_with_provenance():
    configs = [p for p in REAL.iterdir() if p.name not in ("expected.toml", "CORPUS.md") and p.is_file()]
    assert len(configs) >= 30 and sorted(p.name for p in configs) == FILES
    corpus = (REAL / "CORPUS.md").read_text()
    for p in configs:
        assert p.name in corpus
        if p.suffix != ".json":
            assert p.read_text().splitlines()[0].startswith("# source: github.com/")


@pytest.mark.parametrize("name", FILES)
def test_corpus_file_parses_to_what_a_person_reads(name):
    exp = EXPECTED[name]
    cfg = _load(name)
    for key, want in exp.get("layout", {}).items():
        got = getattr(cfg, key)
        got = list(got) if isinstance(got, tuple) else got
        assert got == want, f"{name}: {key} = {got!r}, read {want!r}"
    moe = cfg.model.get("moe") or {}
    for key, want in exp.get("model", {}).items():
        got = moe.get(key) if key in ("experts", "top_k", "first_dense_layers") else cfg.model.get(key)
        assert got == want, f"{name}: model {key} = {got!r}, read {want!r}"
    if "dtype" in exp:                           # --fp16 / --bf16 as written
        assert cfg.extra.get("dtype") == exp["dtype"], f"{name}: dtype {cfg.extra.get('dtype')!r}"
    if "precision" in exp:                       # the FP8 flags, read as the precision
        assert cfg.extra.get("precision") == exp["precision"], f"{name}: precision {cfg.extra.get('precision')!r}"
    named = {e[0].split()[0] for e in cfg.effects}
    for flag in exp.get("unmodelled", []):
        assert flag in named, f"{name}: {flag} not reported as read-but-unmodelled ({sorted(named)})"


RAN = [n for n in FILES if EXPECTED[n].get("verdict") == "ran"]


@pytest.mark.parametrize("name", RAN)
def test_configs_published_as_run_report_no_error(name):
    exp = EXPECTED[name]
    cfg = _load(name)
    argv = ["audit", str(REAL / name), "--no-best"]
    for k, v in exp.get("args", {}).items():
        if k == "env":
            argv += [x for kv in v.items() for x in ("--env", f"{kv[0]}={kv[1]}")]
        elif k not in ("script_args", "config"):
            argv += [f"--{k}", str(v)]
    from planner.cli import parser, problem_args_of
    a = parser().parse_args(argv)
    report = run_audit(cfg, base_problem(problem_args_of(a), cfg), search=False)
    errors = [f"{f.rule}: {f.message}" for f in report.errors]
    assert errors == [], f"{name}: {errors}"
    for flag in exp.get("unmodelled", []):  # a config the tool cannot fully model says which flags
        assert any(u[0].startswith(flag) for u in report.unmodelled), (name, flag, report.unmodelled)
        assert any(f.rule == "audit.unmodelled" and flag in f.message for f in report.findings)


@pytest.mark.parametrize("name", [n for n in FILES if EXPECTED[n].get("verdict") == "needs_model"])
def test_config_without_shapes_exits_2_naming_model(name, capsys):
    args = EXPECTED[name].get("args", {})
    argv = ["audit", str(REAL / name), "--no-best"] + [x for k, v in args.items() if k not in ("env", "config", "script_args")
                                                       for x in (f"--{k}", str(v))]
    argv += [x for kv in args.get("env", {}).items() for x in ("--env", f"{kv[0]}={kv[1]}")]
    argv += ["--", *args["script_args"]] if "script_args" in args else []
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("foldplan: error:") and "--model" in err[0]

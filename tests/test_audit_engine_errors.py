"""The engine decides what is an error: on every config of the audit corpus that an installed engine can
judge, each error-severity finding of the audit is either a memory verdict or the config is one the
engine's own start-up code refuses.

* Megatron-LM (examples/audit/real mlm_*, ci_*, zoo_* and examples/audit/megatron_*): the argument
  list the config hands pretrain_gpt.py (the reader's `argv`) goes through megatron-core's parse_args,
  validate_args, TransformerConfig and initialize_model_parallel on a fake process group of the
  config's world size (planner/engines/megatron/judge.py).
* torchtitan 0.2 TOML (tt_*.toml, the last torchtitan commit with TOML configs): its ConfigManager,
  ParallelDims, the model on the meta device and its pipeline split (planner/engines/torchtitan/judge.py,
  needs .engines/torchtitan-0.2).
Megatron-DeepSpeed and DeepSpeed JSON have no installed engine here, and the OLMo-core script names
a model the audit takes from --model; they are not judged.
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from planner.audit.audit import run_audit
from planner.audit.detect import load
from planner.cli import parser, problem_args_of
from planner.cli.audit import base_problem
from planner.engines.judge import available, judge
from planner.layout.foreign import AuditParseError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from published_configs import megatron_files  # noqa: E402  (the corpus' argument lists, one owner)

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "examples" / "audit" / "real"
EXPECTED = tomllib.loads((REAL / "expected.toml").read_text())
MEGATRON = sorted(n for n in EXPECTED if n.startswith(("mlm_", "ci_", "zoo_")))
EXAMPLES = sorted(p.name for p in (ROOT / "examples" / "audit").glob("megatron_*"))
TITAN = sorted(n for n in EXPECTED if n.startswith("tt_"))
# the GPU counts the examples' own headers name (examples/audit/README.md)
EXAMPLE_GPUS = {"megatron_mixtral_8x7b.sh": 32, "megatron_deepseek_v3.sh": 1024, "megatron_layout_unquoted.args": 16}
# the ablation layout of a 94-layer model: PP32 x VPP3 over 94 layers + the embedding + the loss
ABLATION = {"TP": "2", "PP": "32", "EP": "32", "CP": "1", "LAYERS_PER_VP": "1", "MBS": "1", "GBS": "1024",
            "SEQ_LEN": "4096", "MOE_TOKEN_DISPATCHER": "alltoall", "MOE_GROUPED_GEMM": "true"}


def _case(path: Path, args: dict) -> tuple[list[str], object, list[str]]:
    """(audit argv, the reader's config, the audit's error rule ids) of one config."""
    env = args.get("env") or {}
    argv = ["audit", str(path), "--no-best"] + [x for kv in env.items() for x in ("--env", f"{kv[0]}={kv[1]}")]
    argv += [x for k, v in args.items() if k != "env" for x in (f"--{k}", str(v))]
    cfg = load(str(path), gpus=args.get("gpus"), env=env or None)
    try:
        problem = base_problem(problem_args_of(parser().parse_args(argv)), cfg)
    except AuditParseError:
        return argv, cfg, []                     # the audit stops and asks for --model / --seq: no finding
    report = run_audit(cfg, problem, search=False)
    return argv, cfg, [f.rule for f in report.errors]


def _cases() -> list[tuple[str, Path, dict]]:
    out = [(n, REAL / n, EXPECTED[n].get("args", {})) for n in MEGATRON]
    out += [(n, ROOT / "examples" / "audit" / n, {"gpus": EXAMPLE_GPUS[n]}) for n in EXAMPLES if n in EXAMPLE_GPUS]
    out.append(("zoo_Qwen3-235B-A22B.yaml PP32xVPP3", REAL / "zoo_Qwen3-235B-A22B.yaml",
                {"gpus": 2048, "env": ABLATION}))
    return out


@pytest.fixture(scope="module")
def megatron_verdicts():
    why = available("megatron")
    if why:
        pytest.skip(why)
    rows, cases = [], []
    for name, path, args in _cases():
        _, cfg, errors = _case(path, args)
        world = args.get("gpus") or cfg.world or 8
        rows.append((name, errors))
        cases.append(({"layout": {"world": world}, "problem": {"cluster": {"gpu": "h100-sxm"}}},
                      megatron_files(path, args.get("env") or {})))
    return {name: (errors, v) for (name, errors), v in zip(rows, judge("megatron", cases))}


def _not_the_engines(errors: list[str], verdict: dict) -> list[str]:
    """Audit errors that are neither a memory verdict nor on a config the engine refuses."""
    if not verdict["accepted"]:
        return []
    return [e for e in errors if not e.startswith("memory.")]


def test_megatron_audit_errors_are_megatrons_or_memory(megatron_verdicts):
    bad = {n: (errors, v["reason"]) for n, (errors, v) in megatron_verdicts.items() if _not_the_engines(errors, v)}
    assert not bad, f"audit errors on configs Megatron accepts: {bad}"
    # the judge is a real one: it accepts the published runs and refuses what is broken
    accepted = [n for n, (_, v) in megatron_verdicts.items() if v["accepted"]]
    assert len(accepted) >= 10, {n: v["reason"] for n, (_, v) in megatron_verdicts.items()}


def test_pp32_vpp3_of_94_layers_with_embedding_and_loss_units(megatron_verdicts):
    """96 pipeline units (94 layers + the embedding + the loss) over 32 x 3 virtual stages: Megatron builds
    it, and the audit does not call it an error."""
    errors, verdict = megatron_verdicts["zoo_Qwen3-235B-A22B.yaml PP32xVPP3"]
    assert verdict["accepted"], verdict["reason"]
    assert verdict["parsed"]["vpp"] == 3 and verdict["parsed"]["pp"] == 32
    assert not [e for e in errors if e.startswith("layout.")], errors


def test_without_the_units_the_engine_and_the_audit_both_refuse(tmp_path):
    """The same PP32 x VPP3 without --account-for-*: 94 layers do not split over 32 ranks; Megatron's
    validate_args refuses, and so does the audit."""
    why = available("megatron")
    if why:
        pytest.skip(why)
    text = (REAL / "zoo_Qwen3-235B-A22B.yaml").read_text()
    cut = "\n".join(ln for ln in text.splitlines() if "account-for-" not in ln)
    path = tmp_path / "qwen3_no_units.yaml"
    path.write_text(cut)
    _, cfg, errors = _case(path, {"gpus": 2048, "env": ABLATION})
    verdict, = judge("megatron", [({"layout": {"world": 2048}, "problem": {"cluster": {"gpu": "h100-sxm"}}},
                                   megatron_files(path, ABLATION))])
    assert not verdict["accepted"] and errors, (verdict["reason"], errors)


def test_torchtitan_audit_errors_are_torchtitans_or_memory():
    why = available("torchtitan-0.2")
    if why:
        pytest.skip(why)
    names, cases, errs = [], [], []
    for n in TITAN:
        args = EXPECTED[n].get("args", {})
        _, cfg, errors = _case(REAL / n, args)
        names.append(n)
        errs.append(errors)
        cases.append(({"layout": {"world": args.get("gpus") or cfg.world}, "problem": {"cluster": {"gpu": "h100-sxm"}}},
                      {n: (REAL / n).read_text()}))
    verdicts = judge("torchtitan-0.2", cases)
    bad = {n: (e, v["reason"]) for n, e, v in zip(names, errs, verdicts) if _not_the_engines(e, v)}
    assert not bad, f"audit errors on configs torchtitan accepts: {bad}"
    assert sum(v["accepted"] for v in verdicts) >= 3, [v["reason"] for v in verdicts]

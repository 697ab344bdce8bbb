"""The command line's problem options: one typed value (planner.cli.args.ProblemArgs) whose
flags, help, allowed values and bounds are read from the spec fields, and one builder
(planner.cli.problem_args.build_problem) for plan, explain, compare, sweeps and the audit."""
from __future__ import annotations

import argparse
import typing
from dataclasses import fields
from pathlib import Path

import pytest

from planner import cli
from planner.cli import args as cli_args
from planner.cli.args import ProblemArgs, problem_args_of
from planner.cli.problem_args import build_problem
from planner.layout import RECOMPUTE_MODULES
from planner.safeio import InputError
from planner.safeio import validate
from planner.specs import TrainSpec

ROOT = Path(__file__).resolve().parent.parent
FLAGS = {f.name: f.metadata["flag"] for f in fields(ProblemArgs)}


def _actions(command: str) -> dict:
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a for a in sub.choices[command]._actions}


def _literal_values(spec, name) -> tuple:
    ann = spec.model_fields[name].annotation
    if typing.get_origin(ann) is tuple:
        ann = typing.get_args(ann)[0]
    if typing.get_origin(ann) is typing.Union:        # Optional[Literal[...]]
        ann = next(a for a in typing.get_args(ann) if a is not type(None))
    return typing.get_args(ann)


@pytest.mark.parametrize("name", [n for n, f in FLAGS.items() if f.spec is not None])
def test_help_and_allowed_values_are_the_spec_fields(name):
    flag = FLAGS[name]
    action = _actions("plan")[name]
    assert action.help.startswith(flag.spec.model_fields[flag.field].description.replace("%", "%%"))
    if flag.choices is not None:                      # one value of a Literal
        assert tuple(action.choices) == _literal_values(flag.spec, flag.field)
    if flag.read.__name__ == "_kinds":                # a comma list: every allowed value is in the help
        allowed = RECOMPUTE_MODULES if name == "recompute_modules" else _literal_values(flag.spec, flag.field)
        assert all(v in action.help for v in allowed)
        with pytest.raises(InputError, match=rf"^{name}: unknown bogus \(allowed: {', '.join(allowed)}\)$"):
            problem_args_of(argparse.Namespace(**{name: f"{allowed[0]},bogus"}))


def test_the_audit_has_no_search_flags_and_explain_no_target():
    audit, explain = _actions("audit"), _actions("explain")
    for name, flag in FLAGS.items():
        assert (name in audit) == (flag.scope == cli_args.ALL), name
        assert (name in explain) == (flag.scope != cli_args.PLAN), name


def test_bounds_are_read_from_validate(monkeypatch):
    monkeypatch.setitem(validate.BOUNDS["TrainSpec"], "seq", (1, 4096))
    with pytest.raises(InputError, match=r"^seq: 8k = 8192 exceeds the limit 4096$"):
        problem_args_of(argparse.Namespace(seq="8k"))
    monkeypatch.setitem(validate.BOUNDS["ClusterSpec"], "gpus", (1, 16))
    with pytest.raises(InputError, match=r"^gpus: 32 exceeds the limit 16$"):
        problem_args_of(argparse.Namespace(gpus="32"))


def test_every_train_flag_reaches_the_problem():
    given = ProblemArgs(model="olmoe-1b-7b", gpus=8, seq=8192, global_batch=64, micro_batch=(2,),
                        capacity_factor=1.25, routing="capacity=1.25", balancing="aux-free", cp_kinds=("ring",), recompute=("full",), sharding=("zero3",),
                        master="bf16+fp32", recompute_modules=("layernorm",), max_vpp=2, attention_kernel="fused",
                        precision="fp8-delayed", cp_comm="ag-te", cp_balance="headtail",
                        target="megatron", routing_memory="tail", loss_logits="fused")
    train = given.train_values()
    assert set(train) == {f.field for n, f in FLAGS.items() if f.spec is TrainSpec} - {"seq", "global_batch_tokens"}
    p = build_problem(given)
    for field, value in train.items():
        assert getattr(p.train, field) == (value.split("=")[0] if field == "routing" else value), field
    assert (p.cluster.gpus, p.train.seq, p.train.global_batch) == (8, 8192, 64)


def test_flags_win_over_a_plan_files_record():
    from planner.audit.detect import load
    from planner.cli.audit import base_problem
    cfg = load(str(ROOT / "generated" / "tiny-moe-8cpu" / "plan.json"), "foldplan")
    record = cfg.extra["train"]
    p = base_problem(ProblemArgs(capacity_factor=2.0, micro_batch=(1,)), cfg)
    assert (p.train.capacity_factor, p.train.micro_batches) == (2.0, (1,))
    assert (p.train.master, p.train.kernels, p.train.logit_bytes) == \
        (record["master"], record["kernels"], record["logit_bytes"])


def test_sweep_points_read_each_value():
    from planner.cli import sweep
    base = problem_args_of(argparse.Namespace(model="olmoe-1b-7b", seq="8k", gpus="8"))
    pts = sweep.points(base, {"seq": ["8k", "16k"], "gpus": ["8", "16"]})
    assert [(b.seq, b.gpus) for _, b in pts] == [(8192, 8), (8192, 16), (16384, 8), (16384, 16)]
    assert all(b.model == "olmoe-1b-7b" for _, b in pts)
    with pytest.raises(InputError, match="^seq: expected a positive size"):
        sweep.points(base, {"seq": ["8k", "16q"]})


def test_routing_flag():
    assert problem_args_of(argparse.Namespace(routing="capacity=1.5")).routing == "capacity=1.5"
    with pytest.raises(InputError, match=r"^routing: routing 'capacity=-1'"):
        problem_args_of(argparse.Namespace(routing="capacity=-1"))
    with pytest.raises(InputError, match=r"^routing: routing 'sticky'"):
        problem_args_of(argparse.Namespace(routing="sticky"))
    p = build_problem(ProblemArgs(model="olmoe-1b-7b", gpus=8, seq=4096, global_batch=8, routing="forced"))
    assert (p.train.routing, p.train.capacity_factor) == ("forced", None)

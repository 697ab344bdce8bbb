"""The problem options of the command line as one typed value, read and checked once.

Each field of `ProblemArgs` is one flag. Its row (`_flag`) names the spec field that declares
the value: the flag's help text is that field's `description`, its allowed values are the
field's `Literal` type (or the layout's vocabulary for recompute modules), and its upper bound
is the field's bound in `planner.safeio.validate.BOUNDS`. Nothing here re-types them.

A new TrainSpec knob the user can set is one `_flag` line below (and the field in
`planner/specs/types.py`): `train_values` hands it to `planner.cli.problem_args.build_problem`.
A refusal is one `InputError` line naming the field and the arithmetic; the CLI exits 2.
"""
from __future__ import annotations

import argparse
import os
import re
import typing
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Optional, Union

from planner.layout import RECOMPUTE_MODULES
from planner.safeio import InputError
from planner.safeio import validate as V
from planner.specs import (DEFAULT_GLOBAL_BATCH, DEFAULT_GPU, DEFAULT_GPUS, DEFAULT_HEADROOM, DEFAULT_MODEL,
                           DEFAULT_SEQ, ClusterSpec, ModelSpec, TrainSpec)
from planner.safeio.console import did_you_mean
from planner.specs.kinds import parse_routing
from planner import safeio
from planner.audit.options import formats

# which commands add a flag: every command with problem flags (plan, explain, compare, audit);
# "search": those that search (not the audit, which reads these from the config); "plan": plan only
ALL, SEARCH, PLAN = "all", "search", "plan"


@dataclass(frozen=True)
class Flag:
    """How one problem option is declared on the command line."""
    spec: Optional[type]                # the spec class whose field holds the value (None: make_problem's own)
    field: Optional[str]                # that field
    read: Callable[[str, Any], Any]     # (name, text) -> value; InputError (one line) on a bad one
    form: str                           # how to write it and its default, for --help
    scope: str = ALL
    choices: Optional[tuple] = None     # argparse's choices (a single value from a Literal)
    number: bool = False                # argparse reads a float
    default: str = ""                   # the default, as --help says it (the audit: the config's)
    vocab: Optional[tuple] = None       # the allowed values, where the field's type does not list them

    @property
    def description(self) -> str:
        return self.spec.model_fields[self.field].description if self.spec else ""

    @property
    def allowed(self) -> tuple:
        """The values the spec field's type allows (Literal, or a tuple of a Literal)."""
        if self.vocab is not None:
            return self.vocab
        ann = self.spec.model_fields[self.field].annotation
        while typing.get_origin(ann) is not typing.Literal:
            ann = next(a for a in typing.get_args(ann) if a is not Ellipsis and a is not type(None))
        return typing.get_args(ann)

    def bound(self, default=None):
        """(low, high) of the spec field in validate.BOUNDS."""
        return V.BOUNDS.get(self.spec.__name__, {}).get(self.field, default) if self.spec else default


# --------------------------------------------------------------------------- readers: text -> value

def _text(name: str, v) -> str:
    if not str(v).strip():
        raise InputError(f"{name.replace('_', '-')}: empty value")
    if "\0" in v:
        raise InputError(f"{name}: contains a NUL byte")
    return v


def _gpus(name: str, v) -> int:
    g = str(v).strip()
    if re.fullmatch(r"[+-]?\d+", g) and len(g) <= 30 and int(g) < 1:
        raise InputError(f"{name}: must be a positive integer, got {int(g)}")
    if not re.fullmatch(r"\+?\d+(\.\d+)?\s*[kK]?", g):
        raise InputError(f"{name}: expected an integer, got {str(v)[:40]!r}")
    return _size(name, v)


def _size(name: str, v) -> int:
    return V.size(v, name, _FLAGS[name].bound()[1])


def _integer(name: str, v) -> int:
    return V.integer(v, name, *_FLAGS[name].bound())


def _integers(name: str, v) -> tuple[int, ...]:
    items, most = [x.strip() for x in v.split(",")], V.MAX_LIST[_FLAGS[name].field]
    if not any(items) or len(items) > most:
        raise InputError(f"{name}: expected 1 to {most} sizes like 1,2,4, got {v[:40]!r}")
    return tuple(V.integer(x, name, *_FLAGS[name].bound()) for x in items)


def _real(name: str, v) -> float:
    return V.real(v, name, 0.0, _FLAGS[name].bound()[1])


def _fraction(name: str, v) -> float:
    return V.real(v, name, 0.0, 1.0)


def _kinds(name: str, v) -> tuple[str, ...]:
    allowed = _FLAGS[name].allowed
    _text(name, v)
    items = tuple(x.strip() for x in v.split(",") if x.strip())
    bad = [x for x in items if x not in allowed]
    if bad or not items:
        hint = did_you_mean(bad[0], allowed) if bad else ""
        raise InputError(f"{name}: unknown {', '.join(bad)[:80] or repr(v)}{hint} (allowed: {', '.join(allowed)})")
    return items


def _routing(name: str, v) -> str:
    """forced | dropless | capacity=<f> (planner.specs.kinds.parse_routing)."""
    try:
        kind, cf = parse_routing(_text(name, v))
    except ValueError as e:
        raise InputError(f"{name}: {e}") from None
    if cf is not None and cf > V.BOUNDS["TrainSpec"]["capacity_factor"][1]:
        raise InputError(f"{name}: capacity factor {cf:g} is above {V.BOUNDS['TrainSpec']['capacity_factor'][1]}")
    return kind if cf is None else f"capacity={cf:g}"


def _choice(name: str, v) -> str:
    return v                                     # argparse has checked it against `choices`


def _flag(spec, name, read, form, **kw):
    return field(default=None, metadata={"flag": Flag(spec, name, read, form, **kw)})


def _literal(spec, name, form, scope=ALL):
    return _flag(spec, name, _choice, form, scope=scope, choices=Flag(spec, name, _choice, "").allowed)


# --------------------------------------------------------------------------- the value

@dataclass(frozen=True)
class ProblemArgs:
    """The problem options given on the command line (None: not given; the builder's default
    or, for the audit, the config's value applies). Values are checked and converted."""
    model: Union[str, ModelSpec, None] = _flag(
        None, None, _text, "preset name, HF config.json or foldplan model YAML (default {default})",
        default=DEFAULT_MODEL)
    gpu: Optional[str] = _flag(ClusterSpec, "gpu", _text, f"a GPU preset (default {DEFAULT_GPU}; see foldplan gpus)")
    gpus: Optional[int] = _flag(ClusterSpec, "gpus", _gpus, "(default {default})", default=str(DEFAULT_GPUS))
    gpus_per_node: Optional[int] = _flag(ClusterSpec, "gpus_per_node", _integer, "(default: the GPU preset's)")
    # rack-scale NVLink domains
    gpus_per_domain: Optional[int] = _flag(ClusterSpec, "gpus_per_domain", _integer, "(default: the GPU preset's)")
    used_per_domain: Optional[int] = _flag(ClusterSpec, "used_per_domain", _integer, "(default: the whole domain)")
    seq: Optional[int] = _flag(TrainSpec, "seq", _size, "(default {default})", default=DEFAULT_SEQ)
    global_batch: Optional[int] = _flag(TrainSpec, "global_batch_tokens", _size,
                                        "(below 64Ki: sequences; default {default})", default=f"{DEFAULT_GLOBAL_BATCH} tokens")
    micro_batch: Optional[tuple[int, ...]] = _flag(TrainSpec, "micro_batches", _integers,
                                                   "(comma-separated, e.g. 1 or 1,2,4)")
    memory_fraction: Optional[float] = _flag(
        None, None, _fraction, f"use this fraction of the allocatable memory (GPU memory - reserve) "
                           f"(default {DEFAULT_HEADROOM})", number=True)
    memory_gib: Optional[float] = _flag(ClusterSpec, "memory_budget_gib", _real, "(overrides --memory-fraction)",
                                        number=True)
    capacity_factor: Optional[float] = _flag(TrainSpec, "capacity_factor", _real, "(default dropless)", number=True)
    routing: Optional[str] = _flag(TrainSpec, "routing", _routing, "(forced | dropless | capacity=<f>; default "
                                   "dropless, the audit: the config's)")
    balancing: Optional[str] = _literal(TrainSpec, "balancing", "(default aux-loss; the audit: the config's)")
    routing_memory: Optional[str] = _literal(TrainSpec, "routing_memory", "(default steady)")
    cp_kinds: Optional[tuple[str, ...]] = _flag(TrainSpec, "cp_kinds", _kinds, "(comma-separated from: {allowed}; "
                                                "default all)", scope=SEARCH)
    recompute: Optional[tuple[str, ...]] = _flag(TrainSpec, "recompute", _kinds, "(comma-separated from: {allowed}; "
                                                 "default all)", scope=SEARCH)
    sharding: Optional[tuple[str, ...]] = _flag(TrainSpec, "shardings", _kinds,
                                                "(comma-separated from: {allowed}; default: the target's)",
                                                scope=SEARCH)
    master: Optional[str] = _literal(TrainSpec, "master", "(default: the target's; the bundle's is fp32)", SEARCH)
    loss_logits: Optional[str] = _literal(TrainSpec, "loss_logits", "(default: the target's loss)")
    recompute_modules: Optional[tuple[str, ...]] = _flag(
        TrainSpec, "recompute_modules", _kinds, "(comma-separated from: {allowed}; default: all the target can)",
        scope=SEARCH, vocab=RECOMPUTE_MODULES)
    max_vpp: Optional[int] = _flag(TrainSpec, "max_vpp", _integer, "(default {default})", default="4", scope=SEARCH)
    attention_kernel: Optional[str] = _literal(TrainSpec, "attention_kernel",
                                               "(default: what the target runs on the GPU)")
    precision: Optional[str] = _literal(TrainSpec, "precision", "(default bf16; FP8 recipes need the GPU's FP8 tensor "
                                        "cores, mxfp8 Blackwell's)")
    cp_comm: Optional[str] = _literal(TrainSpec, "cp_comm", "(default: what the target runs)")
    cp_balance: Optional[str] = _literal(TrainSpec, "cp_balance", "(default: what the target runs)")
    target: Optional[str] = _literal(TrainSpec, "target", "(default bundle)", PLAN)

    def train_values(self) -> dict:
        """{TrainSpec field: value} of the TrainSpec flags given (but the shape: seq and global
        batch are make_problem's own arguments, which reads a global batch below 64Ki as sequences)."""
        return {f.metadata["flag"].field: getattr(self, f.name) for f in fields(self)
                if f.metadata["flag"].spec is TrainSpec and f.name not in ("seq", "global_batch")
                and getattr(self, f.name) is not None}


_FLAGS: dict[str, Flag] = {f.name: f.metadata["flag"] for f in fields(ProblemArgs)}


def read(name: str, text) -> Any:
    """One problem option's text -> its value (a sweep reads each of its points with it)."""
    return _FLAGS[name].read(name, text)


def problem_args_of(ns: argparse.Namespace) -> ProblemArgs:
    """The problem options of a parsed command line, each checked (flags a command lacks: None)."""
    given = {k: v for k, v in vars(ns).items() if k in _FLAGS and v is not None}
    if "memory_fraction" in given and "memory_gib" in given:
        raise InputError("memory_fraction: give --memory-fraction or --memory-gib, not both")
    return ProblemArgs(**{k: read(k, v) for k, v in given.items()})


def add_problem_flags(p: argparse.ArgumentParser, scopes: tuple[str, ...] = (ALL, SEARCH),
                      from_config: bool = False) -> None:
    """The problem's flags of one command; scopes (ALL, SEARCH, PLAN) says which; `from_config`:
    the defaults are a config's (the audit)."""
    g = p.add_argument_group("problem")
    for name, f in _FLAGS.items():
        if f.scope not in scopes:
            continue
        allowed = ", ".join(f.allowed) if f.read is _kinds else ""
        form = f.form.format(allowed=allowed, default="the config's" if from_config else f.default)
        text = f"{f.description}{' ' if form.startswith('(') else ': '}{form}" if f.description else form
        p_or_g = p if f.scope == PLAN else g
        p_or_g.add_argument(f"--{name.replace('_', '-')}", default=None, choices=f.choices,
                            type=float if f.number else str, help=text.replace("%", "%%"))


# --------------------------------------------------------------------------- the other values

def check_command(ns: argparse.Namespace) -> None:
    """The values of a command besides its problem: names given, numbers in range, and the
    output paths (before the search, not after it)."""
    v = vars(ns)
    for name in ("layout", "source", "plan", "results", "measured"):
        if v.get(name) is not None:
            _text(name, v[name])
    if v.get("top") is not None:
        V.integer(v["top"], "top", 1, V.MAX_TOP)
    if v.get("time_limit") is not None:
        V.real(v["time_limit"], "time_limit", 0.0, V.MAX_TIME_LIMIT)
    if v.get("index") is not None:
        V.integer(v["index"], "index", 0, 10**6)
    out, report = v.get("out"), v.get("report")
    if out is not None and v.get("cmd") in ("export", "calibrate"):      # a file (and files beside it): export.write
        safeio.check_output_file(out, "out")
    elif out is not None:
        safeio.check_output_dir(out, bool(v.get("force")), "out")
    if report is not None:
        safeio.check_output_file(report, "report")
    if out is not None and report is not None:
        ro, rr = os.path.realpath(out), os.path.realpath(report)
        if rr == ro or rr.startswith(ro.rstrip(os.sep) + os.sep):
            raise InputError(f"report: {report} lies inside the bundle directory {out}, which is replaced")


def add_audit_flags(p: argparse.ArgumentParser) -> None:
    """`foldplan audit`'s own options (its problem flags come from add_problem_flags)."""
    p.add_argument("--format", default="auto", choices=formats(), help="the config's format (default: told from "
                   "the file)")
    p.add_argument("--json", action="store_true", help="print the audit as JSON (schema foldplan.audit/1)")
    p.add_argument("--report", default=None, help="write a self-contained HTML report")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VAL",
                   help="a variable the script reads (SLURM_NNODES=4, TP=8); repeatable; laid over the process "
                        "environment")
    for axis in ("tp", "pp", "ep"):
        p.add_argument(f"--{axis}", default=None, help=f"{axis} degree the DeepSpeed launcher sets (DeepSpeed "
                                                        f"JSON only)")
    p.add_argument("--no-best", action="store_true", help="estimate and findings only: skip the best-plan search")
    p.add_argument("--time-limit", type=float, default=60.0, help="best-plan search time limit, seconds "
                                                                    "(default 60)")

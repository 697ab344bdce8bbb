"""The neutral value every audit parser produces, and the findings the checks emit.

A ``ForeignConfig`` says what a foreign training config (a Megatron-LM launch
script, a torchtitan TOML, a DeepSpeed JSON, an inline layout string or a
foldplan plan) asks for, in foldplan's axis names (``tp, cp, dp, pp, vpp,
etp, ep, edp``, see DESIGN.md "Notation"). A degree is ``None`` when the source
does not say and cannot be derived (e.g. ``dp`` when the world size is unknown).
Defaults the parser filled in are listed in ``assumed``; ``lines`` maps a field
to the source line it came from, so messages can point at it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

# an engine's name (planner.engines.read_formats(): the engines whose reader made it), "foldplan" (a plan)
# or "layout" (a layout string)
Format = str
CpKind = Literal["ring", "ulysses", "hybrid", "allgather"]
Severity = Literal["error", "warning", "info"]

#: The degree fields, in the order DESIGN.md names them.
DEGREES = ("tp", "cp", "dp", "pp", "vpp", "etp", "ep", "edp")


class AuditParseError(ValueError):
    """A config that cannot be read. ``str(err)`` is one line: ``file:line: what``."""

    def __init__(self, path: str, line: int | None, what: str):
        self.path, self.line, self.what = path, line, what
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {what}")


@dataclass(frozen=True)
class ForeignConfig:
    """What one foreign config asks for; ``None`` = the source does not say."""

    format: Format
    path: str  # file path, or "<layout>" for an inline string
    # -- degrees (DESIGN.md notation) --
    tp: int | None = None
    cp: int | None = None
    dp: int | None = None
    pp: int | None = None
    vpp: int | None = None  # virtual stages per pipeline rank (1 = no interleaving)
    etp: int | None = None
    ep: int | None = None
    edp: int | None = None
    cp_kind: CpKind | None = None
    cp_ulysses: int | None = None  # cp == cp_ulysses * cp_ring when both are known
    cp_ring: int | None = None
    world: int | None = None  # GPUs in the job
    # -- batch and sequence --
    micro_batch: int | None = None  # sequences per micro-batch per data-parallel rank
    global_batch: int | None = None  # sequences per optimizer step
    seq: int | None = None  # tokens per sequence
    # -- memory savers --
    recompute: Literal["none", "selective", "full"] | None = None
    recompute_method: str | None = None  # Megatron: "uniform" | "block"
    recompute_num_layers: int | None = None
    sequence_parallel: bool | None = None
    distributed_optimizer: bool | None = None
    zero_stage: int | None = None  # DeepSpeed ZeRO / torchtitan FSDP (3)
    sharding: str | None = None  # "none" | "zero1" | "zero2" | "zero3" (planner.layout SHARDINGS)
    master: str | None = None  # "bf16+fp32" | "fp32" (planner.layout MASTERS)
    recompute_modules: tuple[str, ...] = ()  # Megatron names, applied to the selective layers
    grad_reduce_bytes: int | None = None  # 2 with --grad-reduce-in-bf16
    overlap_grad_reduce: bool | None = None  # Megatron-LM --overlap-grad-reduce (None: the engine always overlaps)
    # -- pipeline --
    pp_schedule: str | None = None
    first_stage_layers: int | None = None
    last_stage_layers: int | None = None
    stages: tuple[dict, ...] = ()  # per-stage records (foldplan plans only)
    stage_layers: tuple[int, ...] = ()  # layers per pipeline rank when the config spells them out
    # -- model hyperparameters found, keyed like docs/plan-schema.md "model" --
    model: dict = field(default_factory=dict)
    model_name: str | None = None  # a preset or flavour name the source mentions
    # -- format-specific facts the rules need (documented by each parser) --
    extra: dict = field(default_factory=dict)
    # -- provenance --
    unknown_flags: tuple[str, ...] = ()  # every setting read but not used, in full
    # settings that change memory or time, read from the config: (flag, "memory"/"time"/both, what it does)
    effects: tuple[tuple[str, str, str], ...] = ()
    lines: dict = field(default_factory=dict)  # field -> 1-based source line
    assumed: tuple[str, ...] = ()

    def replace(self, **changes: Any) -> "ForeignConfig":
        return dataclasses.replace(self, **changes)

    def where(self, *fields: str) -> str:
        """``"train.sh:12"`` for the first of ``fields`` with a known line, else the path."""
        for name in fields:
            if name in self.lines:
                return f"{self.path}:{self.lines[name]}"
        return self.path

    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out["stages"] = [dict(s) for s in self.stages]
        out["unknown_flags"] = list(self.unknown_flags)
        out["effects"] = [list(e) for e in self.effects]
        out["recompute_modules"] = list(self.recompute_modules)
        out["stage_layers"] = list(self.stage_layers)
        out["assumed"] = list(self.assumed)
        return out


@dataclass(frozen=True)
class Finding:
    """One result of a check: the arithmetic in ``message``, a one-line ``fix``."""

    severity: Severity
    rule: str  # stable id, e.g. "megatron.cp_seq_divisible"
    message: str
    fix: str = ""

    def to_dict(self) -> dict:
        return {"severity": self.severity, "rule": self.rule, "message": self.message, "fix": self.fix}


def exact_div(a: int | None, b: int | None) -> int | None:
    """``a / b`` when both are known, positive and it divides exactly; else ``None``."""
    if a is None or b is None or b <= 0 or a % b:
        return None
    return a // b


def product(*xs: int | None) -> int | None:
    """The product of ``xs``, or ``None`` if any is unknown."""
    out = 1
    for x in xs:
        if x is None:
            return None
        out *= x
    return out

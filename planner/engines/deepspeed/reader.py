"""DeepSpeed's JSON configs as `foldplan audit` meets them: which files are its (`claims`: JSON that is no
foldplan plan and no Hugging Face config, planner.audit.detect asks those first), reading one (`load`),
its degrees at another world size. Its JSON may not say tp / pp / cp / ep or the sequence: the command
line's --tp/--pp/--cp/--ep and --seq go to the reader (TAKES_DEGREES)."""
from __future__ import annotations

import planner.engines.deepspeed.read as read
from planner.engines.record import NO, SURE

TAKES_DEGREES = True
with_world = read.with_world


def claims(suffix: str, text: str) -> int:
    return SURE if suffix == ".json" or text.lstrip().startswith("{") else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict):
    return read.parse(text, source, world=world, seq=overrides.pop("seq", None), **degrees)


def no_overlap(cfg) -> tuple[str, str]:
    """(the setting, its fix) when the gradient reduction is not overlapped (zero_optimization.overlap_comm)."""
    what = "zero_optimization.overlap_comm off" if cfg.zero_stage else "ZeRO stage 0 (no overlap)"
    return what, "set zero_optimization.overlap_comm true (ZeRO stage >= 1)"

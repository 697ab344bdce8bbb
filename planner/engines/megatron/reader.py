"""Megatron-LM's configs as `foldplan audit` meets them: which files are its (`claims`), reading one (`load`:
a launch script or argument file, or a YAML config with MODEL_ARGS), its degrees at another world size
(`with_world`), and its training log (`read_log`: megatron/training/training.py's iteration line,
megatron-core 0.19.2 training_log)."""
from __future__ import annotations

import os
import re

import planner.engines.megatron.read as read
import planner.engines.megatron.read_yaml as read_yaml
from planner.engines.record import MAYBE, NO, SURE

SHELL = {".sh", ".bash", ".slurm", ".sbatch", ".args"}
LOG_LINE = "Megatron's 'elapsed time per iteration (ms)'"
_ITERATION = re.compile(r"iteration\s+(\d+)/\s*\d+ \|.*?elapsed time per iteration \(ms\): ([0-9.]+)")

with_world = read.with_world


def claims(suffix: str, text: str) -> int:
    if read_yaml.looks_like(text) or suffix in SHELL:
        return SURE
    return MAYBE if re.search(r"(^|[\s\"'(=])--[A-Za-z]", text) else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict):
    if read_yaml.looks_like(text) and not source.lower().endswith(".sh"):
        flags, sh = read_yaml.read_flags(text, source, dict(os.environ), env)
        return read.parse(text, source, world=world, env=env, flags=flags, sh=sh)
    return read.parse(text, source, world=world, env=env)


def read_log(lines: list[str], world: int, tokens: int) -> dict:
    steps = [(int(x.group(1)), float(x.group(2)) / 1000.0) for ln in lines if (x := _ITERATION.search(ln))]
    return {"steps": steps, "unsplit": "Megatron's iteration line carries the step total only; its per-phase "
                                      "timers (--timing-log-level 1+) are not parsed"}

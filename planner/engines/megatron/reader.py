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
from planner.layout.foreign import exact_div

SHELL = {".sh", ".bash", ".slurm", ".sbatch", ".args"}
LOG_LINE = "Megatron's 'elapsed time per iteration (ms)'"
_ITERATION = re.compile(r"iteration\s+(\d+)/\s*\d+ \|.*?elapsed time per iteration \(ms\): ([0-9.]+)")

with_world = read.with_world


def claims(suffix: str, text: str) -> int:
    if read_yaml.looks_like(text) or suffix in SHELL:
        return SURE
    return MAYBE if re.search(r"(^|[\s\"'(=])--[A-Za-z]", text) else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict, script_args: tuple = ()):
    if read_yaml.looks_like(text) and not source.lower().endswith(".sh"):
        flags, sh = read_yaml.read_flags(text, source, dict(os.environ), env)
        return read.parse(text, source, world=world, env=env, flags=flags, sh=sh)
    return read.parse(text, source, world=world, env=env, script_args=script_args)


def read_log(lines: list[str], world: int, tokens: int) -> dict:
    steps = [(int(x.group(1)), float(x.group(2)) / 1000.0) for ln in lines if (x := _ITERATION.search(ln))]
    return {"steps": steps, "unsplit": "Megatron's iteration line carries the step total only; its per-phase "
                                      "timers (--timing-log-level 1+) are not parsed"}


# --------------------------------------------------------------------------- what the audit asks of the config
# the effect flags (planner/engines/megatron/flags.py EFFECTS) the cost model models, each by the knob the audit
# probes (planner.audit.audit._Probe: "modules", "sharding") or the TrainSpec field that carries it
MODELLED_BY = {"--recompute-modules": "modules", "--use-megatron-fsdp": "sharding",
               "--data-parallel-sharding-strategy": "sharding", "--use-torch-fsdp2": "sharding",
               "--grad-reduce-in-bf16": "grad_reduce_bytes"}
# a script that gives the model's shape without --num-experts runs a dense model
DENSE_WITHOUT_MOE = True
# a launcher that takes the model from elsewhere (ModelZoo's launch scripts) gives no shape at all: the
# start-up rules see the model the audit runs on (--model), the config's own values over it
SHAPE_FROM_PROBLEM = True


def stage_sizes(cfg, layers: int, pp: int):
    """Layers per pipeline stage as Megatron splits them when the config gives the first and / or last
    stage's layers (--decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers): the rest
    evenly over the other stages. None when it gives neither, or the rest does not divide."""
    first, last = cfg.first_stage_layers, cfg.last_stage_layers
    if pp <= 1 or (first is None and last is None):
        return None
    given = [x for x in (first, last) if x is not None]
    mid = exact_div(layers - sum(given), pp - len(given)) if pp > len(given) else None
    if mid is None:
        return None
    return ([first] if first is not None else [mid]) + [mid] * (pp - 2) + ([last] if last is not None else [mid])


def no_overlap(cfg) -> tuple[str, str]:
    """(the setting, its fix) when the gradient reduction is not overlapped (arguments.py: off by default)."""
    return ("no --overlap-grad-reduce",
            "add --overlap-grad-reduce (and --overlap-param-gather with --use-distributed-optimizer)")

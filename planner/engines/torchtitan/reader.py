"""torchtitan's configs as `foldplan audit` meets them: which files are its (`claims`), reading one (`load`:
0.2's job TOML, or a 0.3 config module read from its syntax tree, never run), its degrees at another world
size (`with_world`), and its training log (`read_log`: torchtitan/components/metrics.py, torchtitan 0.3.0,
MetricsProcessor.log)."""
from __future__ import annotations

import re

import planner.engines.torchtitan.read as read
import planner.engines.torchtitan.read.py03 as py03
from planner.engines.record import MAYBE, NO, SURE

LOG_LINE = "torchtitan's 'step: .. tps: ..'"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_STEP = re.compile(r"step:\s*(\d+)\s+loss:.*?memory:\s*([0-9.]+)GiB.*?tps:\s*([0-9,]+)")

with_world = read.with_world
# its configs do not say which attention kernel runs: PyTorch's SDPA picks it by version (the audit says what
# the other kernel would cost, planner.audit.audit._attention_finding)
ATTENTION_UNSAID = True


def claims(suffix: str, text: str) -> int:
    if suffix == ".toml" or suffix == ".py" and py03.looks_like(text):
        return SURE
    return MAYBE if re.search(r"^\s*\[[A-Za-z_.]+\]\s*$", text, re.M) else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict, config: str | None = None):
    if source.lower().endswith(".py"):
        return py03.parse(text, source, world=world, config=config)   # 0.3: a config module, read not run
    return read.parse(text, source, world=world)           # 0.2: a job TOML


def read_log(lines: list[str], world: int, tokens: int) -> dict:
    """The step is the global batch over tps x GPUs; memory is the max reserved."""
    steps, peak = [], None
    for ln in lines:
        if (x := _STEP.search(_ANSI.sub("", ln))):
            t = float(x.group(3).replace(",", ""))
            if t > 0:
                steps.append((int(x.group(1)), tokens / (t * world)))
                peak = max(peak or 0.0, float(x.group(2)))
    return {"steps": steps, "peak_gib": peak,
            "peak_of": "torchtitan's memory: max reserved (allocated x (1 + allocator margin) in the estimate's terms)",
            "unsplit": "torchtitan's step line carries throughput only; the step is the global batch over tps x "
                       "GPUs; no per-phase split"}


def unmodelled(cfg) -> list[tuple[str, str, str]]:
    """(setting, what it changes, why) the estimate does not model: HSDP shards states over dp_shard only."""
    rep, shard = cfg.extra.get("dp_replicate", 1), cfg.extra.get("dp_shard", 1)
    if rep > 1 and shard not in (1, -1, None):
        return [(f"HSDP dp_replicate({rep}) x dp_shard({shard})", "memory",
                 f"states shard over dp_shard({shard}) only; the layout shards over all of dp({rep * shard}), "
                 f"so memory is under-estimated")]
    return []

"""Measured steps beside the estimate: `foldplan audit --measured METRICS PLAN_OR_CONFIG`.

METRICS is one of
  the bundle's metrics file   one JSON line per step (templates/metrics.py; train.py --metrics):
                              step_time_s, tokens, tiny, tokens_per_s, peak_memory_gib, mfu
  an engine's training log     read by the engine's reader (planner/engines/<engine>/reader.py read_log):
                              Megatron-LM's "iteration N/M | ... | elapsed time per iteration (ms): X |",
                              torchtitan's "step: N  loss: ..  memory: XGiB(..%)  tps: N  tflops: ..  mfu: ..%"
The first step is left out (compilation, allocator warm-up) when there are more; the measured step is
the median of the rest. What each source cannot split (compute, exposed communication, bubble) is said.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from planner import engines, safeio

MAX_LOG_BYTES = 256 * 2 ** 20


@dataclass
class Measured:
    source: str                              # bundle, or the engine whose log it is
    steps: list = field(default_factory=list)          # (step, seconds)
    tokens_per_s_gpu: Optional[float] = None
    peak_gib: Optional[float] = None
    peak_of: str = ""
    tiny: bool = False
    unsplit: str = ""

    def step_s(self) -> float:
        times = [t for _, t in self.steps]
        return statistics.median(times[1:] if len(times) > 1 else times)


def _bundle(lines: list[str], name: str, world: int, tokens: int) -> Measured:
    m = Measured("bundle", unsplit="the bundle's metrics carry each step's total only: compute, exposed "
                 "communication, bubble and optimizer cannot be split from them (torch.profiler can)")
    peaks = []
    for i, ln in enumerate(lines, 1):
        try:
            row = json.loads(ln)
        except ValueError as e:
            raise safeio.InputError(f"measured: {name} line {i} is not JSON ({e.msg})") from None
        if not isinstance(row, dict) or "step" not in row:
            raise safeio.InputError(f"measured: {name} line {i} is not a metrics row (no 'step')")
        t = row.get("step_time_s")
        if t is None and isinstance(row.get("tokens_per_s"), (int, float)) and row["tokens_per_s"] > 0:
            t = tokens / row["tokens_per_s"]
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not t > 0:
            raise safeio.InputError(f"measured: {name} line {i}: no positive step_time_s or tokens_per_s")
        m.steps.append((row["step"], float(t)))
        m.tiny = m.tiny or bool(row.get("tiny"))
        if isinstance(row.get("peak_memory_gib"), (int, float)):
            peaks.append(float(row["peak_memory_gib"]))
    m.peak_gib = max(peaks) if peaks else None
    m.peak_of = "the bundle's peak_memory_gib: torch.cuda.max_memory_allocated, the estimate's own quantity"
    if any(_row_device(ln) == "cpu" for ln in lines):
        m.peak_gib, m.peak_of = None, ("a CPU run reports the process's max RSS (interpreter, libraries, "
                                       "buffers), not allocated tensors: not compared")
    return m


def _row_device(line: str):
    row = json.loads(line)
    return row.get("device") if isinstance(row, dict) else None


def _log(lines: list[str], world: int, tokens: int) -> Measured:
    """The first engine whose reader finds its step lines in the log (REGISTRY order)."""
    logs = [(e.name, e.part("reader")) for e in engines.REGISTRY if e.log]
    for name, r in logs:
        found = r.read_log(lines, world, tokens)
        if found["steps"]:
            return Measured(name, **found)
    raise LookupError(" or ".join(r.LOG_LINE for _, r in logs))


def read_measured(path, world: int, tokens: int) -> Measured:
    """The steps of a metrics file or log; one-line InputError when none can be read."""
    text = safeio.read_text_limited(path, "measured", MAX_LOG_BYTES)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    name = Path(path).name
    if not lines:
        raise safeio.InputError(f"measured: {name} is empty")
    if lines[0].lstrip().startswith("{"):
        m = _bundle(lines, name, world, tokens)
    else:
        try:
            m = _log(lines, world, tokens)
        except LookupError as e:
            raise safeio.InputError(f"measured: {name} holds no step line (the bundle's metrics JSON lines, {e})") \
                from None
    if not m.steps:
        raise safeio.InputError(f"measured: {name} holds no step line")
    m.tokens_per_s_gpu = tokens / (m.step_s() * world)
    return m


def comparison(m: Measured, est: dict, tokens: int, world: int) -> list[str]:
    """The table: the estimate's terms, the measured figures where the source has them."""
    ts = est["time_s"]
    comm = sum(v for v in ts["exposed_comm"].values() if v > 0)
    step = m.step_s()
    n = len(m.steps) - 1 if len(m.steps) > 1 else 1
    rows = [("step (s)", est["step_time_s"], step, f"median of {n} step(s)"),
            ("  compute", ts["compute"], None, ""), ("  exposed comm", comm, None, ""),
            ("  bubble", ts["bubble"], None, ""), ("  optimizer", ts["optimizer"], None, ""),
            ("tokens/s/GPU", est["tokens_per_s_per_gpu"], m.tokens_per_s_gpu, f"{tokens:,} tokens / step / {world} GPUs"),
            ("peak memory (GiB)", est["peak_memory_gib"], m.peak_gib, m.peak_of)]
    out = [f"{'term':18s} {'estimate':>10s} {'measured':>10s} {'meas/est':>8s}  note"]
    for name, e, v, note in rows:
        ratio = f"{v / e:8.2f}" if v is not None and e else f"{'-':>8s}"
        vtxt = f"{v:10.4g}" if v is not None else f"{'-':>10s}"
        out.append(f"{name:18s} {e:10.4g} {vtxt} {ratio}  {note}")
    out.append(f"not split: {m.unsplit}")
    if m.tiny:
        out.append("warning: the metrics are of a --tiny run (small dimensions): its step is not the plan's; "
                   "run the bundle without --tiny to compare")
    return out


def implausible(m: Measured, est: dict, gpu) -> list[str]:
    """What the log says that no run of this config on this GPU can have done: an MFU over 100% (the
    estimate's FLOPs per step over the measured step: the log's step is of another batch, world or
    model) and a peak above the device's memory. One line each, naming the figures."""
    out = []
    mfu = est.get("mfu", 0.0) * est["step_time_s"] / m.step_s() if est.get("step_time_s") else 0.0
    if mfu > 1.0:
        out.append(f"the measured step {m.step_s():.4g} s implies an MFU of {mfu:.0%} on {gpu.name} (the estimate's "
                   f"FLOPs per step {est.get('mfu', 0.0):.1%} x {est['step_time_s']:.4g} s): the log is not of this "
                   f"config's global batch, GPU count or model")
    if m.peak_gib is not None and m.peak_gib > gpu.memory_gib:
        out.append(f"the measured peak {m.peak_gib:.4g} GiB exceeds the {gpu.memory_gib:.4g} GiB of one {gpu.name}: "
                   f"the log is of another device, or its memory figure is not per GPU")
    return out


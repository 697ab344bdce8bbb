"""Forced vs dropless vs capacity routing on one layout per model: the throughput
ratio the cost model gives (planner/costmodel/routing.py), as a check against the published statements
(dropless 8-20% slower than forced, more at shorter sequences; capacity factor 1 -> 5 ~23% slower
without forced balance), not a fit. One layout per model: tp1 pp1, the stated EP, ZeRO-1, no
recompute, micro-batch 1, 4M tokens per step; memory is not bound (the ratio of step times is what is
shown).

    python benchmarks/routing_ratios.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import costmodel as cm  # noqa: E402
from planner.layout import Layout, Stage  # noqa: E402
from planner.specs import make_problem  # noqa: E402

CASES = (("mixtral-8x22b", 64, 8), ("qwen3-30b-a3b", 16, 8), ("qwen3-30b-a3b", 32, 16), ("deepseek-v3", 64, 64))
SEQS = (4096, 8192, 16384, 32768, 65536)
TOKENS = 2 ** 22


def step(model: str, gpus: int, ep: int, seq: int, **train) -> float:
    p = make_problem(model=model, gpus=gpus, seq=seq, global_batch=TOKENS, memory_gib=10_000, **train)
    st = (Stage(index=0, layers=(0, p.model.layers), etp=1, ep=ep, edp=gpus // ep),)
    L = Layout(world=gpus, tp=1, cp=1, dp=gpus, pp=1, micro_batch=1, num_microbatches=TOKENS // seq // gpus,
               sharding="zero1",
               master=p.train.master, stages=st)
    return cm.evaluate(p, L).step_time


def rows() -> list[tuple]:
    out = []
    for model, gpus, ep in CASES:
        for seq in SEQS:
            forced = step(model, gpus, ep, seq, routing="forced")
            out.append((model, ep, seq, step(model, gpus, ep, seq) / forced,
                        step(model, gpus, ep, seq, balancing="aux-free") / forced,
                        step(model, gpus, ep, seq, routing="capacity=5") / step(model, gpus, ep, seq,
                                                                               routing="capacity=1")))
    return out


def main() -> None:
    print("| model | EP | seq | dropless / forced (default balancing) | dropless / forced (aux-free) | "
          "capacity 5 / capacity 1 |")
    print("|---|---:|---:|---:|---:|---:|")
    for model, ep, seq, d, af, cap in rows():
        print(f"| {model} | {ep} | {seq} | {d:.3f} | {af:.3f} | {cap:.3f} |")


if __name__ == "__main__":
    main()

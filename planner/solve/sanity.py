"""What published training runs use, as thresholds a plan is held to.

A plan outside them obeys every rule of the cost model and may still be one no
practitioner would run; the search prefers a plan inside them when it costs at most
SANE_TOLERANCE more (planner/solve/tiebreak.py), and a problem that can only give such
plans gets one warning line naming the fix (`scale_warning`).

Thresholds and their sources (shared/REFERENCE.md holds the published layouts):

* tokens per GPU per optimizer step, at least MIN_TOKENS_PER_GPU = 1,024. The published
  runs with the fewest: Llama 3 405B (Dubey et al. 2024, Table 4) 16M tokens on 16,384
  GPUs (TP8 CP16 PP16 at 128k, and TP8 PP16 at 8k) = 1,024; NeMo's long-sequence
  Llama 2 runs (docs/source/performance/performance_long_sequence.md) "one GPU per 1k
  tokens" = 1,024; MT-NLG 530B (Smith et al. 2022) 1,920 x 2,048 tokens on 3,360 GPUs =
  1,170; Narayanan et al. 2021 Table 1, 1T on 3,072 GPUs, 3,072 x 2,048 = 2,048;
  DeepSeek-V3 (report sec. 4.2: 15,360 sequences of 4K on 2,048 H800s) = 30,720. The
  batch, not the layout, decides it: a problem below it is warned, not searched around.
* tokens per CP rank (seq / cp), at least the larger of PUBLISHED_MIN_CP_CHUNK = 8,192
  (Llama 3 405B at 128k with CP16, Table 4: the smallest chunk a published run used;
  NeMo's runs above use 16k..32k) and the length below which a ring step's K/V transfer
  outlasts its attention block (`ring_bound_chunk`, derived from the GPU preset's
  attention curve and its scale-out link, nothing fitted).
* placement: a tensor-parallel group stays inside one NVLink domain (every published
  layout above puts TP inside the 8-GPU node); an expert all-to-all group of at most a
  domain's GPUs stays inside one (DeepSeek-V3 report sec. 3.2 limits each token to 4
  nodes and keeps the rest of its a2a on NVLink; Megatron-LM puts EP innermost after TP
  for the same reason).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from planner.layout import Layout, dense_strides
from planner.layout.grid import RankGrid, locality
from planner.specs import Problem

MIN_TOKENS_PER_GPU = 1024
PUBLISHED_MIN_CP_CHUNK = 8192
# The cost model's own error on published runs is several percent (benchmarks/fidelity*.py:
# dense Megatron rows within a few percent, MoE rows worse); a plan outside published
# practice that the model rates faster by less than that is not reliably faster, so the
# search takes the sane plan when the absurd one is at most this much faster. Resolved at
# the low end of those bands (the source gives a band, not one value).
SANE_TOLERANCE = 0.03


def tokens_per_gpu(problem: Problem) -> float:
    return problem.train.global_batch_tokens / problem.cluster.gpus


def ring_bound_chunk(problem: Problem) -> float:
    """The chunk c (tokens per CP rank) below which one ring step's K/V pass outlasts the
    attention block it hides behind. Per step a rank computes 4 c^2 H d FLOPs at the
    preset's curve eta c / (c + L0) of peak and sends 2 c H_kv d bf16 values (K and V) over
    the scale-out link at B * bus efficiency (both split alike by TP, which cancels):
    4 c H d (c + L0) / (eta peak) >= 4 c H_kv d / (B bus)  <=>  c >= H_kv eta peak / (H B bus) - L0.
    MLA sends full per-head K and V under ring CP: H_kv = H there."""
    g, m = problem.cluster.gpu, problem.model
    eta, half = g.attention_curve(problem.train.attention_kernel)
    kv = m.heads if m.attention == "mla" else m.kv_heads
    return max(0.0, kv / m.heads * eta * g.peak_flops / (g.inter_node_bw * g.bus_efficiency) - half)


def min_cp_chunk(problem: Problem) -> float:
    return max(float(PUBLISHED_MIN_CP_CHUNK), ring_bound_chunk(problem))


def tuple_flags(problem: Problem, tu) -> tuple[str, ...]:
    """What of a degree tuple (planner.solve.space.Degrees, or a Layout) is outside published
    practice: 'cp chunk' (seq / cp below min_cp_chunk), 'tp span' (a TP group leaves its
    NVLink domain)."""
    out = []
    if tu.cp > 1 and problem.train.seq / tu.cp < min_cp_chunk(problem):
        out.append("cp chunk")
    if tu.tp > 1:
        st = dense_strides(tu.order, {"tp": tu.tp, "cp": tu.cp, "dp": tu.dp})
        R = tu.tp * tu.cp * tu.dp
        x = dict(tp=tu.tp, cp=tu.cp, dp=tu.dp, pp=tu.pp, cu=tu.cp_ulysses, cr=tu.cp_ring, etp=1, ep=1, edp=R,
                 s_tp=st["tp"], s_cp=st["cp"], s_dp=st["dp"])
        loc = locality({k: np.array([float(v)]) for k, v in x.items()}, problem.cluster.domain_used)
        if not bool(loc["tp"][0]):
            out.append("tp span")
    return tuple(out)


def layout_flags(problem: Problem, layout: Layout) -> tuple[str, ...]:
    """tuple_flags, and 'ep over IB': a stage's expert group of at most a domain's GPUs
    that leaves its domain."""
    out = list(tuple_flags(problem, layout))
    grid, dom = RankGrid(layout, problem.cluster.domain_used), problem.cluster.domain_used
    if any(1 < s.ep <= dom and not grid.group("ep", s.index * layout.stage_ranks).intra_node
           for s in layout.stages):
        out.append("ep over IB")
    return tuple(out)


def describe(problem: Problem, layout: Layout, flags: tuple[str, ...]) -> str:
    """One clause per flag, with its numbers."""
    parts = []
    if "cp chunk" in flags:
        parts.append(f"CP chunk {problem.train.seq // layout.cp:,} tokens (seq {problem.train.seq:,} / cp "
                     f"{layout.cp}) below {min_cp_chunk(problem):,.0f}")
    if "tp span" in flags:
        parts.append(f"TP group of {layout.tp} leaves its {problem.cluster.domain_used}-GPU NVLink domain")
    if "ep over IB" in flags:
        parts.append("an expert all-to-all group crosses nodes though it fits in one")
    return "; ".join(parts)


def scale_warning(problem: Problem) -> Optional[str]:
    """One line when the batch is too small for the GPUs (every layout is then absurd),
    naming both fixes; None otherwise."""
    tpg = tokens_per_gpu(problem)
    if tpg >= MIN_TOKENS_PER_GPU:
        return None
    n = problem.cluster.gpus
    need = MIN_TOKENS_PER_GPU * n
    fewer = problem.train.global_batch_tokens // MIN_TOKENS_PER_GPU
    return (f"warning: {tpg:,.0f} tokens per GPU per step ({problem.train.global_batch_tokens:,}-token batch / "
            f"{n:,} GPUs); published runs use at least {MIN_TOKENS_PER_GPU:,} (Llama 3 405B: 16M tokens on 16,384 "
            f"GPUs): use --global-batch {_size(need)} or at most --gpus {fewer:,}")


def _size(tokens: int) -> str:
    for unit, k in (("G", 2 ** 30), ("M", 2 ** 20), ("k", 2 ** 10)):
        if tokens % k == 0:
            return f"{tokens // k}{unit}"
    return str(tokens)

"""Layer placement: which transformer layers each pipeline rank and each virtual chunk runs,
which layers each recompute kind takes, and the micro-batches a stage holds in flight.

One rule, read by the cost model, the search, the bundle, every exporter and every reader
(through the `Layout` properties that call these functions):

* **pipeline ranks and chunks.** A layout gives each pipeline rank p a count of layers n_p
  (`Stage.layers` = [first, end) with end - first = n_p). With vpp = 1 rank p runs exactly
  [first, end). With vpp > 1 (interleaved 1F1B) rank p's n_p layers are cut into vpp chunks
  as evenly as they go (`chunk_sizes`), the lighter chunks first, except on the last rank
  (pp > 1), where they come last: the first chunk of rank 0 holds the embedding and the last
  chunk of the last rank the head and loss, as Megatron's own split lightens them
  (--account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split:
  get_num_layers_to_build, transformer_block.py:142-196 at megatron-core 0.19.2, one layer
  fewer in exactly those two chunks). The model's layers are dealt out in virtual-stage
  order k = v * pp + p: virtual stage k takes the next layers. This is Megatron-Core's order
  (pipeline_parallel_layer_layout.py:47-80: entry v * pp + p of
  --pipeline-model-parallel-layout is chunk v of rank p, layer ids flattened in that order)
  and torchtitan's "loop" stage placement (stage k on rank k % pp). Megatron asserts even
  chunks without a layout string (transformer_block.py:169-172), so the exporter spells every
  chunk out in the layout string and Megatron runs what it says.
* **MTP modules** (DeepSeek-V3's multi-token prediction) run after the last decoder layer:
  on the last chunk of the last pipeline rank (pipeline_parallel_layer_layout.py:111-133).
* **recompute.** On each pipeline rank, full recompute takes `recompute_full` of the rank's
  layers, its MoE layers first (they free the most), then dense ones, each kind in layer
  order; selective (module) recompute takes the next `recompute_selective` of the rest in the
  same order (MoE first). The search encodes this rule (planner/solve/stage_model.py).
* **in flight.** The micro-batches of activations a stage holds at its peak (Narayanan et
  al. 2021): 1F1B holds min(pp - p, m); interleaved 1F1B holds
  min(m * vpp, 2 (pp - p - 1) + (vpp - 1) pp + 1) chunks of 1/vpp of the stage (Megatron's
  num_warmup_microbatches + 1, schedules.py get_pp_rank_microbatches).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


def chunk_sizes(n: int, vpp: int, last: bool = False) -> tuple[int, ...]:
    """n layers of one pipeline rank over its vpp virtual chunks, as evenly as they go: the later
    chunks one layer heavier, or on the last of several ranks (`last`) the earlier ones."""
    base, extra = divmod(n, vpp)
    heavy = range(extra) if last else range(vpp - extra, vpp)
    return tuple(base + (1 if v in heavy else 0) for v in range(vpp))


def virtual_stages(counts: Sequence[int], vpp: int) -> tuple[tuple[int, ...], ...]:
    """The layers of each virtual stage k = v * pp + p (k over pp * vpp), given the count of
    layers of each pipeline rank: virtual stage k takes the next layers in that order."""
    pp = len(counts)
    sizes = [chunk_sizes(n, vpp, last=pp > 1 and p == pp - 1) for p, n in enumerate(counts)]
    out, first = [], 0
    for v in range(vpp):
        for p in range(pp):
            out.append(tuple(range(first, first + sizes[p][v])))
            first += sizes[p][v]
    return tuple(out)


def rank_chunks(counts: Sequence[int], vpp: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """[p][v]: the layers of chunk v of pipeline rank p."""
    pp, virtual = len(counts), virtual_stages(counts, vpp)
    return tuple(tuple(virtual[v * pp + p] for v in range(vpp)) for p in range(pp))


def rank_layers(counts: Sequence[int], vpp: int) -> tuple[tuple[int, ...], ...]:
    """[p]: every layer pipeline rank p runs, chunk 0 first (in layer order)."""
    return tuple(tuple(i for c in chunks for i in c) for chunks in rank_chunks(counts, vpp))


def recompute_of(layers: Sequence[int], is_moe: Sequence[bool], full: int, selective: int) -> dict[int, str]:
    """{layer: "full" | "selective" | "none"} for the layers of one pipeline rank: full takes
    `full` of them, MoE layers first (each kind in layer order), selective the next `selective`
    in the same order."""
    order = [i for i in layers if is_moe[i]] + [i for i in layers if not is_moe[i]]
    kinds = {i: "none" for i in layers}
    for i in order[:full]:
        kinds[i] = "full"
    for i in order[full:full + selective]:
        kinds[i] = "selective"
    return kinds


def inflight(pp: int, vpp: int, m: int, stage: int) -> float:
    """Micro-batches of activations stage `stage` holds at its peak, in units of its layers
    (1F1B: min(pp - stage, m); interleaved: in-flight chunks / vpp)."""
    if vpp <= 1:
        return float(min(pp - stage, m))
    return inflight_chunks(pp, vpp, m, stage) / vpp


def inflight_chunks(pp: int, vpp: int, m: int, stage: int) -> int:
    """Model chunks (each 1/vpp of the stage's layers) in flight on stage `stage` at its peak."""
    if vpp <= 1:
        return min(pp - stage, m)
    return min(m * vpp, 2 * (pp - stage - 1) + (vpp - 1) * pp + 1)


@dataclass(frozen=True)
class RankPlacement:
    """What one pipeline rank runs, for a model whose per-layer kinds are known."""
    rank: int
    chunks: tuple[tuple[int, ...], ...]      # layers of each virtual chunk, v = 0 .. vpp-1
    recompute: dict                           # {layer: "full" | "selective" | "none"}
    is_moe: tuple[bool, ...]                  # of `layers`, in order
    mtp: int                                  # MTP modules run here (after its last chunk)

    @property
    def layers(self) -> tuple[int, ...]:
        return tuple(i for c in self.chunks for i in c)

    @property
    def moe(self) -> int:
        return sum(self.is_moe)

    @property
    def dense(self) -> int:
        return len(self.is_moe) - self.moe

    def count(self, kind: str, moe: bool) -> int:
        """Layers of this rank with recompute `kind` that are MoE (`moe`) or dense."""
        return sum(1 for i, f in zip(self.layers, self.is_moe) if self.recompute[i] == kind and f == moe)


@dataclass(frozen=True)
class Placement:
    """The layout's placement for one model: `ranks[p]` for each pipeline rank, and
    `virtual[k]` the layers of virtual stage k = v * pp + p."""
    pp: int
    vpp: int
    ranks: tuple[RankPlacement, ...]

    @property
    def virtual(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.ranks[k % self.pp].chunks[k // self.pp] for k in range(self.pp * self.vpp))


def place(layout, is_moe: Sequence[bool], mtp: int = 0) -> Placement:
    """The placement of `layout` for a model with per-layer kinds `is_moe` and `mtp` MTP modules."""
    counts = [s.num_layers for s in layout.stages]
    if sum(counts) != len(is_moe):
        raise ValueError(f"the stages hold {sum(counts)} layers; the model has {len(is_moe)}")
    ranks = []
    for s, chunks in zip(layout.stages, rank_chunks(counts, layout.vpp)):
        layers = [i for c in chunks for i in c]
        ranks.append(RankPlacement(s.index, chunks, recompute_of(layers, is_moe, s.recompute_full,
                                                                 s.recompute_selective),
                                   tuple(bool(is_moe[i]) for i in layers), mtp if s.index == layout.pp - 1 else 0))
    return Placement(layout.pp, layout.vpp, tuple(ranks))


def range_kinds_hold(is_moe: Sequence[bool], vpp: int) -> int | None:
    """The least layer count of pipeline rank 0 for which, with vpp > 1, every rank's interleaved
    chunks hold as many MoE layers as its range [first, end) (what a search that counts MoE layers
    by range prices): 0 when all layers are of one kind or vpp == 1; vpp * d for a model whose
    first d layers are dense and the rest MoE (rank 0's first chunk then holds the whole dense
    prefix); None for any other mix (no split is safe to count by range)."""
    kinds = [bool(x) for x in is_moe]
    if vpp <= 1 or len(set(kinds)) <= 1:
        return 0
    d = kinds.index(True)
    return vpp * d if all(kinds[d:]) else None


def spans(layers: Sequence[int]) -> str:
    """A rank's layers as runs: "0-3" for a range, "0-1, 4-5" for interleaved chunks."""
    runs: list[list[int]] = []
    for i in layers:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in runs)

"""The one rank grid: strides from the rank order, every group of every rank, node spans.

Global rank r = pp_rank * (tp*cp*dp) + local; `local` decomposes over the dense order
(first axis stride 1); the expert view of a stage decomposes the same `local` as etp
(stride 1), ep, edp. A group of `size` ranks spaced `stride` apart, aligned on the grid,
stays inside a node of `gpn` GPUs iff stride * size <= gpn (`span`, vectorised: the cost
model and the search read node locality only through it).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from planner.layout.values import DENSE_AXES, Layout


def dense_strides(order: str, sizes: dict) -> dict[str, int]:
    """Stride of each dense axis for a rank order ("tp-cp-dp-pp": tp stride 1)."""
    out, acc = {}, 1
    for axis in order.split("-"):
        if axis == "pp":
            continue
        out[axis] = acc
        acc *= sizes[axis]
    return out


def span(stride, size, gpn):
    """(intra-node?, share of a member's peers on other nodes) of grid-aligned groups of
    `size` ranks spaced `stride` apart, vectorised over arrays."""
    stride, size = np.asarray(stride, float), np.asarray(size, float)
    intra = (stride * size <= gpn) | (size <= 1)
    in_node_peers = np.clip(gpn / stride, 1, size) - 1
    off = np.where(size > 1, 1 - in_node_peers / np.maximum(size - 1, 1), 0.0)
    return intra, np.where(intra, 0.0, off)


def dpcp_intra(s_dp, dp, s_cp, cp, gpn):
    """Whether the dense-gradient group (dp x cp) stays inside a node."""
    extent = np.maximum(np.asarray(s_dp, float) * dp, np.asarray(s_cp, float) * cp)
    return (extent <= gpn) | (np.asarray(dp) * np.asarray(cp) <= 1)


@dataclass(frozen=True)
class Group:
    """One process group of one axis: its ranks and whether they share a node."""
    axis: str
    ranks: tuple[int, ...]
    intra_node: bool
    off_node_fraction: float          # share of the group's peers (excluding self) on another node


class RankGrid:
    """Every group of every rank, computed once from (layout, gpus_per_node).

    Dense axes: tp, cp, dp, dp_cp (dense-gradient group), pp; expert axes (per stage):
    etp, ep, edp (expert-gradient group)."""

    def __init__(self, layout: Layout, gpus_per_node: int):
        self.layout = layout
        self.gpn = gpus_per_node
        self.dense_size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
        self.dense_stride = dense_strides(layout.order, self.dense_size)
        self.stage_ranks = layout.stage_ranks

    def stage_of(self, rank: int) -> int:
        return rank // self.stage_ranks

    def expert_strides(self, stage: int) -> tuple[dict, dict]:
        s = self.layout.stages[stage]
        return ({"etp": 1, "ep": s.etp, "edp": s.etp * s.ep}, {"etp": s.etp, "ep": s.ep, "edp": s.edp})

    def coords(self, rank: int) -> dict[str, int]:
        """Dense and expert coordinates of a rank."""
        st, local = divmod(rank, self.stage_ranks)
        c = {"pp": st}
        for a in DENSE_AXES:
            c[a] = (local // self.dense_stride[a]) % self.dense_size[a]
        stride, size = self.expert_strides(st)
        for a in ("etp", "ep", "edp"):
            c[a] = (local // stride[a]) % size[a]
        return c

    def _make(self, axis: str, ranks) -> Group:
        ranks = tuple(sorted(ranks))
        nodes = [r // self.gpn for r in ranks]
        off = sum(1 for n in nodes[1:] if n != nodes[0]) / max(1, len(ranks) - 1)
        return Group(axis, ranks, len(set(nodes)) == 1, off)

    def group(self, axis: str, rank: int) -> Group:
        """The `axis` group that `rank` belongs to."""
        st, local = divmod(rank, self.stage_ranks)
        base = st * self.stage_ranks
        if axis == "pp":
            return self._make("pp", (local + i * self.stage_ranks for i in range(self.layout.pp)))
        c = self.coords(rank)
        if axis in DENSE_AXES or axis == "dp_cp":
            members = ("dp", "cp") if axis == "dp_cp" else (axis,)
            start = local - sum(c[a] * self.dense_stride[a] for a in members)
            offsets = [0]
            for a in members:
                offsets = [o + i * self.dense_stride[a] for o in offsets for i in range(self.dense_size[a])]
            return self._make(axis, (base + start + o for o in offsets))
        stride, size = self.expert_strides(st)
        if axis not in size:
            raise KeyError(f"unknown axis {axis!r}")
        start = local - c[axis] * stride[axis]
        return self._make(axis, (base + start + i * stride[axis] for i in range(size[axis])))

    def groups(self, axis: str, stage: Optional[int] = None) -> list[tuple[int, ...]]:
        """All distinct groups of an axis (optionally of one stage), sorted."""
        ranks = range(self.layout.world) if stage is None else range(
            stage * self.stage_ranks, (stage + 1) * self.stage_ranks)
        return sorted({self.group(axis, r).ranks for r in ranks})

    @cached_property
    def summary(self) -> dict[str, dict]:
        """Per axis (and per stage for expert axes): group size and whether it stays inside
        one node (judged on rank 0 of each stage; the grid is regular)."""
        out = {}
        for axis in ("tp", "cp", "dp", "dp_cp", "pp"):
            g = self.group(axis, 0)
            out[axis] = {"size": len(g.ranks), "intra_node": g.intra_node, "off_node_fraction": g.off_node_fraction}
        for s in self.layout.stages:
            r0 = s.index * self.stage_ranks
            for axis in ("etp", "ep", "edp"):
                g = self.group(axis, r0)
                out[f"{axis}@{s.index}"] = {"size": len(g.ranks), "intra_node": g.intra_node,
                                            "off_node_fraction": g.off_node_fraction}
        return out

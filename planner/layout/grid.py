"""The one rank grid: strides from the rank order, every group of every rank, node spans.

Global rank r = pp_rank * (tp*cp*dp) + local; `local` decomposes over the dense order
(first axis stride 1); CP's Ulysses part is the inner cp_ulysses ranks of a cp group and
its ring part steps over them; the expert view of a stage decomposes the same `local` as
etp (stride 1), ep, edp. `axis_strides` is the one place each axis' stride is derived
(vectorised; `RankGrid` lists the groups from it). A group of `size` ranks spaced
`stride` apart, aligned on the grid, stays inside a node of `gpn` GPUs iff
stride * size <= gpn (`span`).

`locality` is what the cost model reads of the rank order and the node size, and all it
reads: for each group kind it prices, whether the group stays inside a node (and for ep,
the share of peers off the node). Two layouts with the same locality vector cost the
same, which is how the search drops rank orders that differ in nothing it prices.
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


def axis_strides(x: dict) -> dict[str, tuple]:
    """(stride, size) of every one-axis group, from a layout's degrees and dense strides
    (`x`: tp, cp, dp, pp, cu, cr, etp, ep, edp, s_tp, s_cp, s_dp; numbers or arrays)."""
    tp, cp, dp, cu, etp, ep = (x[k] for k in ("tp", "cp", "dp", "cu", "etp", "ep"))
    return {"tp": (x["s_tp"], tp), "cp": (x["s_cp"], cp), "dp": (x["s_dp"], dp),
            "cp_ulysses": (x["s_cp"], cu), "cp_ring": (x["s_cp"] * cu, x["cr"]),
            "pp": (tp * cp * dp, x["pp"]),
            "etp": (1, etp), "ep": (etp, ep), "edp": (etp * ep, x["edp"])}


# The group kinds whose link the cost model prices (dp_cp: the dense-gradient group dp x cp)
LOCALITY = ("tp", "cp_ulysses", "cp_ring", "dp_cp", "pp", "etp", "ep", "edp")


def locality(x: dict, gpn) -> dict[str, np.ndarray]:
    """The locality vector of layouts (vectorised over `x`, as `axis_strides` takes it):
    for each group kind of LOCALITY, whether it stays inside a node of `gpn` GPUs; and
    `ep_off`, the share of an ep member's peers on other nodes."""
    ax = axis_strides(x)
    out = {k: span(*ax[k], gpn)[0] for k in LOCALITY if k != "dp_cp"}
    out["dp_cp"] = dpcp_intra(ax["dp"][0], ax["dp"][1], ax["cp"][0], ax["cp"][1], gpn)
    out["ep_off"] = span(*ax["ep"], gpn)[1]
    return out


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

    Dense axes: tp, cp (and its parts cp_ulysses, cp_ring), dp, dp_cp (dense-gradient
    group), pp; expert axes (per stage): etp, ep, edp (expert-gradient group)."""

    def __init__(self, layout: Layout, gpus_per_node: int):
        self.layout = layout
        self.gpn = gpus_per_node
        self.dense_size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
        self.dense_stride = dense_strides(layout.order, self.dense_size)
        self.stage_ranks = layout.stage_ranks
        self.axes = [axis_strides(self.inputs(s.index)) for s in layout.stages]

    def inputs(self, stage: int) -> dict[str, int]:
        """The degrees and dense strides of one stage (axis_strides' / locality's input)."""
        L, s = self.layout, self.layout.stages[stage]
        st = self.dense_stride
        return dict(tp=L.tp, cp=L.cp, dp=L.dp, pp=L.pp, cu=L.cp_ulysses, cr=L.cp_ring, etp=s.etp, ep=s.ep, edp=s.edp,
                    s_tp=st["tp"], s_cp=st["cp"], s_dp=st["dp"])

    def stage_of(self, rank: int) -> int:
        return rank // self.stage_ranks

    def expert_strides(self, stage: int) -> tuple[dict, dict]:
        ax = self.axes[stage]
        return ({a: ax[a][0] for a in ("etp", "ep", "edp")}, {a: ax[a][1] for a in ("etp", "ep", "edp")})

    def coords(self, rank: int) -> dict[str, int]:
        """Dense and expert coordinates of a rank."""
        st = self.stage_of(rank)
        ax = self.axes[st]
        c = {"pp": st}
        for a in (*DENSE_AXES, "etp", "ep", "edp"):
            stride, size = ax[a]
            c[a] = (rank // stride) % size
        return c

    def _make(self, axis: str, ranks) -> Group:
        ranks = tuple(sorted(ranks))
        nodes = [r // self.gpn for r in ranks]
        off = sum(1 for n in nodes[1:] if n != nodes[0]) / max(1, len(ranks) - 1)
        return Group(axis, ranks, len(set(nodes)) == 1, off)

    def group(self, axis: str, rank: int) -> Group:
        """The `axis` group that `rank` belongs to. A one-axis group is `size` ranks spaced
        `stride` apart (every stride * size divides the ranks of a stage, so the coordinate
        reads the same from the global rank); dp_cp is the product of dp's and cp's."""
        ax = self.axes[self.stage_of(rank)]
        members = ("dp", "cp") if axis == "dp_cp" else (axis,)
        if any(a not in ax for a in members):
            raise KeyError(f"unknown axis {axis!r}")
        start = rank - sum((rank // ax[a][0]) % ax[a][1] * ax[a][0] for a in members)
        offsets = [0]
        for a in members:
            stride, size = ax[a]
            offsets = [o + i * stride for o in offsets for i in range(size)]
        return self._make(axis, (start + o for o in offsets))

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

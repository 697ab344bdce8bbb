"""The one rank grid: strides from the rank order, every group of every rank, node spans.

Each axis' stride and the members of every group are `planner.layout.axes`'s (pure Python,
copied into every launch bundle, whose groups are therefore these): `axis_strides` is the one
place each axis' stride is derived (vectorised), `members` the one place a group is listed;
`RankGrid` lists every group of every rank with them.

Bandwidth is the NVLink domain's: rank r sits in domain r // U, U the GPUs of a domain the
job uses (`domain_of`; 8 on HGX, 72 or 64 of 72 on an NVL72 rack). A domain need not be a
multiple of a stage or of a group's tile, so whether a group spans two domains is decided
exactly from the real placement (`crosses`), never from alignment; every group of a kind
is priced at the worst one (a collective waits for its slowest group).

`locality` is what the cost model reads of the rank order and the domain size, and all it
reads: for each group kind it prices, whether its groups stay inside a domain (and for ep,
the worst member's share of peers off its domain). Two layouts with the same locality
vector cost the same, which is how the search drops rank orders that differ in nothing it
prices.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from planner.layout.axes import axis_strides, dense_strides, members
from planner.layout.values import DENSE_AXES, Layout


def domain_of(rank, per_domain):
    """The NVLink domain of a rank: rank r sits in domain r // per_domain, where per_domain
    is the GPUs of a domain the job uses (ClusterSpec.used_per_domain). The one rule of rank
    placement: RankGrid's groups and the vectorised `crosses` / `ep_worst_share` read it."""
    return np.asarray(rank) // per_domain


def _arr(v):
    return np.asarray(v, float)


def crosses(tile, per_domain, first, ranks):
    """Whether some group of a kind spans two domains, among the ranks [first, first + ranks).

    The groups of one kind tile the ranks in blocks of `tile` consecutive ranks (the stride
    times the size of the group's outermost axis; a block holds interleaved groups, and the
    union of their [lowest, highest] members covers the block), aligned on multiples of
    `tile` (`first` is one: a stage's first rank). A group's lowest and highest members are
    members, so a group spans two domains iff a domain boundary lies strictly inside its
    range, and some group of the block does iff a boundary falls strictly inside the block.
    So: some boundary m * U (U = per_domain) with first < m U < first + ranks and m U not a
    multiple of `tile`. The boundaries are consecutive multiples of U: the first one decides
    when U is a multiple of `tile` (then all share its residue), and two or more of them
    cannot all be multiples of `tile` otherwise. Exact for any U (72, 64, 8), aligned or not.
    Vectorised over arrays."""
    tile, U, first, ranks = _arr(tile), _arr(per_domain), _arr(first), _arr(ranks)
    b1 = (np.floor(first / U) + 1) * U                       # the first boundary above `first`
    end = first + ranks
    some = b1 < end
    return some & ((np.mod(b1, tile) != 0) | ((b1 + U < end) & (np.mod(U, tile) != 0))) & (tile > 1)


def ep_worst_share(stride, size, per_domain, first, ranks):
    """The largest share of a member's peers (excluding itself) on other domains, over the
    groups of one kind (`size` ranks spaced `stride` apart, tiles of stride * size) among
    the ranks [first, first + ranks); 0 where no group crosses (`crosses`).

    A boundary inside a tile cuts it into segments: the first of length a = boundary mod
    tile, the last of length tile - (last boundary mod tile), those between of length U,
    and a first or last segment is never longer than U. Of the `stride` interleaved groups,
    the one with the fewest members in a segment of length L has max(1, floor(L / stride))
    there. So the worst member keeps max(1, floor(min_seg / stride)) - 1 peers in its domain,
    min_seg the shortest first or last segment over the crossing tiles: the smallest nonzero
    residue, and tile minus the largest, of the boundaries in the range mod tile. When U is
    a multiple of the tile nothing crosses; when the tile is a multiple of U, min_seg = U
    (the grid-aligned case); otherwise the residues of the boundaries are enumerated, at most
    one period (tile / gcd(U, tile)) of them, and only for those layouts."""
    stride, size, U, first, ranks = np.broadcast_arrays(_arr(stride), _arr(size), _arr(per_domain), _arr(first),
                                                        _arr(ranks))
    tile = stride * size
    cross = crosses(tile, U, first, ranks) & (size > 1)
    seg = np.where(np.mod(tile, U) == 0, U, np.inf)
    odd = cross & (np.mod(tile, U) != 0)
    if odd.any():
        t, u, f, e = (v[odd] for v in (tile, U, first, first + ranks))
        b = (np.floor(f / u) + 1) * u
        period = t / np.gcd(u.astype(np.int64), t.astype(np.int64))
        n = np.minimum(np.maximum(0, np.ceil((e - b) / u)), period)
        lo, hi = np.full(t.shape, np.inf), np.full(t.shape, -np.inf)
        for k in range(int(n.max(initial=0))):
            r = np.mod(b + k * u, t)
            ok = (k < n) & (r != 0)
            lo, hi = np.where(ok, np.minimum(lo, r), lo), np.where(ok, np.maximum(hi, r), hi)
        seg = seg.copy()
        seg[odd] = np.minimum(lo, t - hi)
    keep = np.minimum(np.maximum(1, np.floor(seg / stride)), size)
    return np.where(cross, 1 - (keep - 1) / np.maximum(size - 1, 1), 0.0)


# The group kinds whose link the cost model prices (dp_cp: the dense-gradient group dp x cp)
LOCALITY = ("tp", "cp_ulysses", "cp_ring", "dp_cp", "pp", "etp", "ep", "edp")


def locality(x: dict, per_domain) -> dict[str, np.ndarray]:
    """The locality vector of layouts (vectorised over `x`, as `axis_strides` takes it):
    for each group kind of LOCALITY, whether every group of that kind stays inside one
    NVLink domain (rank r in domain r // per_domain: `domain_of`), the collective waiting
    for its slowest group; and `ep_off`, the largest share of an ep member's peers on other
    domains. `x` may hold `first` and `ranks`, the ranks judged (a stage: first = s * R,
    ranks = R, R = tp * cp * dp); without them, every stage of the layout (first 0, ranks
    R * pp): a folding at its worst stage, as the search's tables and a plan's estimate
    (costmodel.layout_vector) price it, one rule for both. pp groups run across
    the stages and are always judged over the whole layout."""
    ax = axis_strides(x)
    R = _arr(x["tp"]) * _arr(x["cp"]) * _arr(x["dp"])
    world = R * _arr(x["pp"])
    if world.size and np.all(world == world.flat[0]):
        world = world.flat[0]                    # one world size: keep the per-folding parts small
    first = _arr(x["first"]) if "first" in x else 0.0
    ranks = _arr(x["ranks"]) if "ranks" in x else world
    tile = lambda k: _arr(ax[k][0]) * _arr(ax[k][1])
    out = {k: ~crosses(tile(k), per_domain, first, ranks) | (_arr(ax[k][1]) <= 1)
           for k in LOCALITY if k not in ("dp_cp", "pp")}
    out["pp"] = ~crosses(tile("pp"), per_domain, 0.0, world) | (_arr(x["pp"]) <= 1)
    out["dp_cp"] = dpcp_intra(ax["dp"][0], ax["dp"][1], ax["cp"][0], ax["cp"][1], per_domain, first, ranks)
    out["ep_off"] = ep_worst_share(*ax["ep"], per_domain, first, ranks)
    return out


def dpcp_intra(s_dp, dp, s_cp, cp, per_domain, first=0.0, ranks=None):
    """Whether every dense-gradient group (dp x cp) stays inside a domain: its tile is the
    stride times the size of its outer axis of the two (`crosses`)."""
    dp, cp = _arr(dp), _arr(cp)
    tile = np.where(cp > 1, np.maximum(_arr(s_dp) * np.where(dp > 1, dp, 0), _arr(s_cp) * cp), _arr(s_dp) * dp)
    ranks = tile if ranks is None else ranks
    return ~crosses(tile, per_domain, first, ranks) | (dp * cp <= 1)


@dataclass(frozen=True)
class Group:
    """One process group of one axis: its ranks and whether they share a node."""
    axis: str
    ranks: tuple[int, ...]
    intra_node: bool
    off_node_fraction: float          # share of the group's peers (excluding self) on another node


class RankGrid:
    """Every group of every rank, computed once from (layout, GPUs used per NVLink domain:
    ClusterSpec.used_per_domain); `intra_node` / `off_node_fraction` are per domain.

    Dense axes: tp, cp (and its parts cp_ulysses, cp_ring), dp, dp_cp (dense-gradient
    group), pp; expert axes (per stage): etp, ep, edp (expert-gradient group)."""

    def __init__(self, layout: Layout, per_domain: int):
        self.layout = layout
        self.gpn = per_domain
        self.dense_size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
        self.dense_stride = dense_strides(layout.order, self.dense_size)
        self.stage_ranks = layout.stage_ranks
        self.axes = [axis_strides(self.inputs(s.index)) for s in layout.stages]

    def inputs(self, stage: int) -> dict[str, int]:
        """The degrees, dense strides and ranks of one stage (axis_strides' / locality's input)."""
        L, s = self.layout, self.layout.stages[stage]
        st = self.dense_stride
        return dict(tp=L.tp, cp=L.cp, dp=L.dp, pp=L.pp, cu=L.cp_ulysses, cr=L.cp_ring, etp=s.etp, ep=s.ep, edp=s.edp,
                    s_tp=st["tp"], s_cp=st["cp"], s_dp=st["dp"], first=stage * self.stage_ranks, ranks=self.stage_ranks)

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
        nodes = [int(domain_of(r, self.gpn)) for r in ranks]
        off = sum(1 for n in nodes[1:] if n != nodes[0]) / max(1, len(ranks) - 1)
        return Group(axis, ranks, len(set(nodes)) == 1, off)

    def group(self, axis: str, rank: int) -> Group:
        """The `axis` group that `rank` belongs to (any kind of planner.layout.axes: one
        axis, or dp_cp / stage, which span several)."""
        return self._make(axis, members(self.axes[self.stage_of(rank)], axis, rank))

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

"""Layout: the parallel degrees of a plan, its rank order, and its per-stage split.

The one place that checks every identity (`check`) and the one rank grid that computes
every group (`RankGrid`). Short axis names, as in DESIGN.md:

    tp  tensor parallel         cp  context parallel       dp  data parallel
    pp  pipeline stages         vpp virtual stages/rank
    etp expert tensor parallel  ep  expert model parallel  edp expert data parallel

Identities: world = tp*cp*dp*pp, and per stage tp*cp*dp == etp*ep*edp (folding: the
expert view re-factors the same ranks of the stage).

Rank order: `order` names the dense axes innermost (stride 1) first, pp always last,
e.g. "tp-cp-dp-pp" (Megatron's default tp-cp-ep-dp-pp without ep). The expert view of a
stage factors the same local ranks as etp (stride 1), ep, edp.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import permutations
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.specs import Problem

DENSE_AXES = ("tp", "cp", "dp")
ORDERS = tuple("-".join(p) + "-pp" for p in permutations(DENSE_AXES))


class LayoutError(ValueError):
    """A layout breaks a rule. The message is one line and shows the arithmetic."""


class Stage(BaseModel):
    """One pipeline stage: its layers, its expert folding and its recompute."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    index: int = Field(..., ge=0, description="stage number, 0 = first (holds the embedding)")
    layers: tuple[int, int] = Field(..., description="transformer layers [first, end) of this stage")
    etp: int = Field(1, ge=1, description="tensor-parallel degree inside one expert")
    ep: int = Field(1, ge=1, description="expert-model-parallel degree (ranks that split the experts)")
    edp: int = Field(1, ge=1, description="expert-data-parallel degree (copies of one expert shard)")
    recompute_full: int = Field(0, ge=0, description="layers fully recomputed (MoE layers first)")
    recompute_selective: int = Field(0, ge=0, description="layers with core attention recomputed")

    @property
    def num_layers(self) -> int:
        return self.layers[1] - self.layers[0]

    @property
    def fold(self) -> tuple[int, int, int]:
        return (self.etp, self.ep, self.edp)


class Layout(BaseModel):
    """Degrees, rank order, micro-batching and the per-stage split of one plan."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    world: int = Field(..., ge=1, description="GPUs in the job")
    tp: int = Field(1, ge=1, description="tensor-parallel degree")
    cp: int = Field(1, ge=1, description="context-parallel degree")
    dp: int = Field(1, ge=1, description="data-parallel degree")
    pp: int = Field(1, ge=1, description="pipeline stages")
    vpp: int = Field(1, ge=1, description="virtual pipeline chunks per stage (1 = plain 1F1B)")
    cp_kind: Literal["ring", "ulysses", "hybrid"] = Field("ring", description="how CP splits attention")
    cp_ulysses: int = Field(1, ge=1, description="Ulysses (all-to-all) part of cp")
    cp_ring: int = Field(1, ge=1, description="ring (zig-zag P2P) part of cp")
    order: str = Field("tp-cp-dp-pp", description="dense rank order, innermost first, pp last")
    micro_batch: int = Field(1, ge=1, description="sequences per micro-batch")
    num_microbatches: int = Field(1, ge=1, description="micro-batches per step per pipeline")
    stages: tuple[Stage, ...] = Field(..., description="one entry per pipeline stage")

    @model_validator(mode="after")
    def _shape(self):
        if self.order not in ORDERS:
            raise ValueError(f"order {self.order!r} must be one of {', '.join(ORDERS)}")
        if len(self.stages) != self.pp:
            raise ValueError(f"stages({len(self.stages)}) != pp({self.pp})")
        return self

    @property
    def stage_ranks(self) -> int:
        """Ranks per pipeline stage: tp*cp*dp."""
        return self.tp * self.cp * self.dp

    @property
    def recompute_kinds(self) -> set[str]:
        kinds = set()
        for s in self.stages:
            if s.recompute_full:
                kinds.add("full")
            if s.recompute_selective:
                kinds.add("selective")
        return kinds or {"none"}

    def to_dict(self) -> dict:
        d = self.model_dump(mode="json")
        d["stages"] = [{**s, "layers": list(s["layers"])} for s in d["stages"]]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Layout":
        stages = tuple(Stage(**{**s, "layers": tuple(s["layers"])}) for s in d["stages"])
        return cls(**{**d, "stages": stages})


def cp_split(kind: str, cp: int, ulysses: Optional[int] = None) -> tuple[int, int]:
    """(cp_ulysses, cp_ring) for a CP kind."""
    if kind == "ring":
        return 1, cp
    if kind == "ulysses":
        return cp, 1
    u = ulysses or 1
    return u, cp // u


def uniform_stages(layers: int, pp: int, fold=(1, 1, 1), recompute_full=0) -> tuple[Stage, ...]:
    """Layers split as evenly as possible, earlier stages one layer lighter when uneven
    (the first holds the embedding, the last the head)."""
    base, extra = divmod(layers, pp)
    sizes = [base + (1 if i >= pp - extra else 0) for i in range(pp)]
    out, first = [], 0
    for i, n in enumerate(sizes):
        out.append(Stage(index=i, layers=(first, first + n), etp=fold[0], ep=fold[1], edp=fold[2],
                         recompute_full=min(recompute_full, n) if recompute_full >= 0 else n))
        first += n
    return tuple(out)


# --------------------------------------------------------------------------- rules

def violations(layout: Layout, problem: Problem) -> list[str]:
    """Every rule the layout breaks, each as one line with the arithmetic (empty = legal)."""
    L, m, t = layout, problem.model, problem.train
    out: list[str] = []
    prod = L.tp * L.cp * L.dp * L.pp
    if prod != L.world:
        out.append(f"tp({L.tp}) * cp({L.cp}) * dp({L.dp}) * pp({L.pp}) = {prod} != world({L.world})")
    if L.world != problem.cluster.gpus:
        out.append(f"layout world({L.world}) != cluster gpus({problem.cluster.gpus})")
    if m.heads % L.tp:
        out.append(f"tp({L.tp}) does not divide heads({m.heads})")
    if m.attention == "gqa" and m.kv_heads % L.tp and L.tp % m.kv_heads:
        out.append(f"tp({L.tp}) and kv_heads({m.kv_heads}) must divide one another")
    # context parallel
    if L.cp_ulysses * L.cp_ring != L.cp:
        out.append(f"cp_ulysses({L.cp_ulysses}) * cp_ring({L.cp_ring}) != cp({L.cp})")
    expect = {"ring": (1, L.cp), "ulysses": (L.cp, 1)}.get(L.cp_kind)
    if expect and (L.cp_ulysses, L.cp_ring) != expect:
        out.append(f"cp_kind {L.cp_kind} needs cp_ulysses={expect[0]}, cp_ring={expect[1]} "
                   f"(got {L.cp_ulysses}, {L.cp_ring})")
    if L.cp_kind == "hybrid" and (L.cp_ulysses < 2 or L.cp_ring < 2):
        out.append(f"hybrid CP needs cp_ulysses({L.cp_ulysses}) >= 2 and cp_ring({L.cp_ring}) >= 2")
    if L.cp_ulysses > 1:
        heads_per_tp = m.heads // L.tp if m.heads % L.tp == 0 else m.heads
        if heads_per_tp % L.cp_ulysses:
            out.append(f"Ulysses cp_ulysses({L.cp_ulysses}) does not divide heads/tp({m.heads}/{L.tp}={heads_per_tp})")
    if L.cp_ring > 1 and t.seq % (2 * L.cp_ring):
        out.append(f"zig-zag ring needs 2*cp_ring({2 * L.cp_ring}) | seq({t.seq}): "
                   f"{t.seq} % {2 * L.cp_ring} = {t.seq % (2 * L.cp_ring)}")
    if L.cp > 1 and t.seq % (L.cp * max(1, L.tp if t.sequence_parallel else 1)):
        out.append(f"seq({t.seq}) is not divisible by cp({L.cp})*tp({L.tp})")
    # batch
    per_step = L.dp * L.micro_batch * L.num_microbatches
    if per_step != t.global_batch:
        out.append(f"dp({L.dp}) * micro_batch({L.micro_batch}) * num_microbatches({L.num_microbatches}) "
                   f"= {per_step} != global batch({t.global_batch} sequences)")
    if L.vpp > 1 and L.pp < 2:
        out.append(f"vpp({L.vpp}) > 1 needs pp >= 2 (pp={L.pp})")
    if L.vpp > 1 and L.num_microbatches % L.pp:
        out.append(f"interleaved schedule needs pp({L.pp}) | num_microbatches({L.num_microbatches})")
    # stages
    end = 0
    is_moe = m.moe_layers()
    for s in L.stages:
        tag = f"stage {s.index}"
        if s.layers[0] != end:
            out.append(f"{tag} starts at layer {s.layers[0]}, expected {end} (stages must be contiguous)")
        end = s.layers[1]
        if s.num_layers < max(1, L.vpp):
            out.append(f"{tag} has {s.num_layers} layers, needs >= {max(1, L.vpp)} (one per virtual chunk)")
        fold = s.etp * s.ep * s.edp
        if fold != L.stage_ranks:
            out.append(f"{tag}: folding etp({s.etp}) * ep({s.ep}) * edp({s.edp}) = {fold} "
                       f"!= tp({L.tp}) * cp({L.cp}) * dp({L.dp}) = {L.stage_ranks}")
        if m.moe is not None:
            if m.moe.experts % s.ep:
                out.append(f"{tag}: ep({s.ep}) does not divide experts({m.moe.experts})")
            if m.moe.expert_ffn_hidden % s.etp:
                out.append(f"{tag}: etp({s.etp}) does not divide expert_ffn_hidden({m.moe.expert_ffn_hidden})")
        elif (s.ep, s.etp) != (1, 1):
            out.append(f"{tag}: dense model, but ep({s.ep}) / etp({s.etp}) set")
        if s.recompute_full + s.recompute_selective > s.num_layers:
            out.append(f"{tag}: recompute_full({s.recompute_full}) + recompute_selective({s.recompute_selective}) "
                       f"> layers({s.num_layers})")
        if s.recompute_full and "full" not in t.recompute:
            out.append(f"{tag}: full recompute is not allowed by train.recompute")
        if s.recompute_selective and "selective" not in t.recompute:
            out.append(f"{tag}: selective recompute is not allowed by train.recompute")
        if s.index != L.stages.index(s):
            out.append(f"{tag} is listed at position {L.stages.index(s)}")
    if end != m.layers:
        out.append(f"stages cover layers [0, {end}), model has {m.layers}")
    if L.cp_kind not in t.cp_kinds and L.cp > 1:
        out.append(f"cp_kind {L.cp_kind} is not allowed by train.cp_kinds {list(t.cp_kinds)}")
    return out


def check(layout: Layout, problem: Problem) -> None:
    """Raise LayoutError (one line, every broken rule) unless the layout is legal."""
    bad = violations(layout, problem)
    if bad:
        raise LayoutError("; ".join(bad))


def kv_heads_note(layout: Layout, problem: Problem) -> str:
    """How kv heads are spread: divided over tp*cp_ulysses, or replicated."""
    m = problem.model
    if m.attention != "gqa":
        return "MLA: the compressed KV latent is per token; heads are materialised per rank"
    split = layout.tp * layout.cp_ulysses
    if m.kv_heads % split == 0:
        return f"kv_heads({m.kv_heads}) divided over tp*cp_ulysses({split}): {m.kv_heads // split} per rank"
    return f"kv_heads({m.kv_heads}) < tp*cp_ulysses({split}): each kv head replicated {split // m.kv_heads}x"


# --------------------------------------------------------------------------- rank grid

@dataclass(frozen=True)
class Group:
    """One process group of one axis: its ranks and whether they share a node."""
    axis: str
    ranks: tuple[int, ...]
    intra_node: bool
    # fraction of the group's peers (excluding self) on another node, from rank ranks[0]
    off_node_fraction: float


class RankGrid:
    """Every group of every rank, computed once from (layout, gpus_per_node).

    Dense axes: tp, cp, dp, dp_cp (dense-gradient group), pp; expert axes (per stage):
    etp, ep, edp (expert-gradient group)."""

    def __init__(self, layout: Layout, gpus_per_node: int):
        self.layout = layout
        self.gpn = gpus_per_node
        axes = layout.order.split("-")[:-1]                     # innermost first, without pp
        size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
        stride, s = {}, 1
        for a in axes:
            stride[a] = s
            s *= size[a]
        self.dense_size, self.dense_stride = size, stride
        self.stage_ranks = layout.stage_ranks

    # coordinates ------------------------------------------------------------------
    def stage_of(self, rank: int) -> int:
        return rank // self.stage_ranks

    def coords(self, rank: int) -> dict[str, int]:
        """Dense and expert coordinates of a rank."""
        st, local = divmod(rank, self.stage_ranks)
        c = {"pp": st}
        for a in DENSE_AXES:
            c[a] = (local // self.dense_stride[a]) % self.dense_size[a]
        stage = self.layout.stages[st]
        c["etp"] = local % stage.etp
        c["ep"] = (local // stage.etp) % stage.ep
        c["edp"] = local // (stage.etp * stage.ep)
        return c

    # groups -------------------------------------------------------------------------
    def _make(self, axis: str, ranks) -> Group:
        ranks = tuple(sorted(ranks))
        nodes = [r // self.gpn for r in ranks]
        own = nodes[0]
        off = sum(1 for n in nodes[1:] if n != own) / max(1, len(ranks) - 1)
        return Group(axis, ranks, len(set(nodes)) == 1, off)

    def group(self, axis: str, rank: int) -> Group:
        """The `axis` group that `rank` belongs to."""
        st, local = divmod(rank, self.stage_ranks)
        base = st * self.stage_ranks
        if axis == "pp":
            return self._make("pp", (local + i * self.stage_ranks for i in range(self.layout.pp)))
        if axis in DENSE_AXES or axis == "dp_cp":
            members = ("dp", "cp") if axis == "dp_cp" else (axis,)
            c = self.coords(rank)
            ranks = []
            for loc in range(self.stage_ranks):
                other = {a: (loc // self.dense_stride[a]) % self.dense_size[a] for a in DENSE_AXES}
                if all(other[a] == c[a] for a in DENSE_AXES if a not in members):
                    ranks.append(base + loc)
            return self._make(axis, ranks)
        stage = self.layout.stages[st]
        e_stride = {"etp": 1, "ep": stage.etp, "edp": stage.etp * stage.ep}
        e_size = {"etp": stage.etp, "ep": stage.ep, "edp": stage.edp}
        if axis not in e_size:
            raise KeyError(f"unknown axis {axis!r}")
        c = self.coords(rank)
        start = local - c[axis] * e_stride[axis]
        return self._make(axis, (base + start + i * e_stride[axis] for i in range(e_size[axis])))

    def groups(self, axis: str, stage: Optional[int] = None) -> list[tuple[int, ...]]:
        """All distinct groups of an axis (optionally of one stage), sorted."""
        ranks = range(self.layout.world) if stage is None else range(
            stage * self.stage_ranks, (stage + 1) * self.stage_ranks)
        return sorted({self.group(axis, r).ranks for r in ranks})

    @cached_property
    def summary(self) -> dict[str, dict]:
        """Per axis (and per stage for expert axes): group size, stride, and whether it
        stays inside one node (judged on rank 0 of each stage; the grid is regular)."""
        out = {}
        for axis in ("tp", "cp", "dp", "dp_cp", "pp"):
            g = self.group(axis, 0)
            out[axis] = {"size": len(g.ranks), "intra_node": g.intra_node,
                         "off_node_fraction": g.off_node_fraction}
        for s in self.layout.stages:
            r0 = s.index * self.stage_ranks
            for axis in ("etp", "ep", "edp"):
                g = self.group(axis, r0)
                out[f"{axis}@{s.index}"] = {"size": len(g.ranks), "intra_node": g.intra_node,
                                            "off_node_fraction": g.off_node_fraction}
        return out

"""The layout value: degrees, rank order, sharding, micro-batching and the per-stage split.

Identities (checked in `planner.layout.rules`): world = tp*cp*dp*pp, and per stage
tp*cp*dp == etp*ep*edp (folding: the expert view re-factors the same ranks of the stage).

Rank order: `order` names the dense axes innermost (stride 1) first, pp always last,
e.g. "tp-cp-dp-pp" (Megatron's default tp-cp-ep-dp-pp without ep). The expert view of a
stage factors the same local ranks as etp (stride 1), ep, edp.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator, model_validator

from planner.layout.placement import (Placement, inflight, inflight_chunks, place, rank_chunks, rank_layers,
                                       virtual_stages)
from planner.specs.kinds import (CP_BALANCES, CP_COMMS, CP_KINDS, DENSE_AXES, DISPATCHERS, MASTERS, ORDERS,  # noqa: F401
                                 RECOMPUTE_MODULES, SHARDINGS, cp_kind_of, cp_split)

class LayoutError(ValueError):
    """A layout breaks a rule. The message is one line and shows the arithmetic."""


class Stage(BaseModel):
    """One pipeline stage: its layers, its expert folding and its recompute."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    index: int = Field(..., ge=0, description="stage number, 0 = first (holds the embedding)")
    layers: tuple[int, int] = Field(..., description="transformer layers [first, end) of this stage; with vpp > 1 "
                                                     "its count only: the rank runs `Layout.rank_layers`")
    etp: int = Field(1, ge=1, description="tensor-parallel degree inside one expert")
    ep: int = Field(1, ge=1, description="expert-model-parallel degree (ranks that split the experts)")
    edp: int = Field(1, ge=1, description="expert-data-parallel degree (copies of one expert shard)")
    recompute_full: int = Field(0, ge=0, description="layers fully recomputed (MoE layers first: "
                                                     "planner.layout.placement)")
    recompute_selective: int = Field(0, ge=0, description="layers whose `recompute_modules` are recomputed (the "
                                                          "next ones in the same order)")
    recompute_modules: tuple[str, ...] = Field(
        ("core_attn",), description="modules recomputed in the selective layers (Megatron names; "
                                    "core_attn alone is Megatron's default 'selective')")

    @field_validator("recompute_modules", mode="before")
    @classmethod
    def _modules(cls, v):
        if isinstance(v, str):
            v = tuple(x for x in v.replace(",", "+").split("+") if x)
        v = tuple(v)
        bad = [x for x in v if x not in RECOMPUTE_MODULES]
        if bad:
            raise ValueError(f"recompute_modules: unknown {', '.join(map(str, bad))} "
                             f"(known: {', '.join(RECOMPUTE_MODULES)})")
        if not v:
            raise ValueError("recompute_modules: name at least one module")
        if "op" in v and len(set(v)) > 1:
            raise ValueError(f"recompute_modules: op (torchtitan per-op SAC) replaces the layer's save set; "
                             f"it does not combine with {', '.join(x for x in v if x != 'op')}")
        return tuple(sorted(set(v), key=RECOMPUTE_MODULES.index))

    @property
    def num_layers(self) -> int:
        return self.layers[1] - self.layers[0]

    @property
    def fold(self) -> tuple[int, int, int]:
        return (self.etp, self.ep, self.edp)


class Layout(BaseModel):
    """Degrees, rank order, sharding, micro-batching and the per-stage split of one plan."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    world: int = Field(..., ge=1, description="GPUs in the job")
    tp: int = Field(1, ge=1, description="tensor-parallel degree")
    cp: int = Field(1, ge=1, description="context-parallel degree")
    dp: int = Field(1, ge=1, description="data-parallel degree")
    pp: int = Field(1, ge=1, description="pipeline stages")
    vpp: int = Field(1, ge=1, description="virtual pipeline chunks per stage (1 = plain 1F1B)")
    cp_ulysses: int = Field(1, ge=1, description="Ulysses (all-to-all) part of cp (the split is stored; "
                                                 "the CP kind is derived from it: `cp_kind`)")
    cp_ring: int = Field(1, ge=1, description="ring (zig-zag P2P) part of cp")
    # --- CP as the engine runs it(planner.specs.cp_impl)
    cp_comm: Literal[CP_COMMS] = Field("p2p", description="how the ring part of CP moves K/V: p2p | ag-ring | "
                                                          "ag-te | ag-flex (planner.specs.kinds.CP_COMMS)")
    cp_balance: Literal[CP_BALANCES] = Field("headtail", description="causal load balancing of the ring part: "
                                                                     "headtail (zig-zag) | none")
    # --- end CP as the engine runs it
    order: str = Field("tp-cp-dp-pp", description="dense rank order, innermost first, pp last")
    micro_batch: int = Field(1, ge=1, description="sequences per micro-batch")
    num_microbatches: int = Field(1, ge=1, description="micro-batches per step per pipeline")
    sharding: Literal[SHARDINGS] = Field(
        "zero1", description="data-parallel sharding: none | zero1 (optimizer) | zero2 (+ grads) | zero3 (+ params)")
    master: Literal[MASTERS] = Field(
        "bf16+fp32", description="bf16+fp32: bf16 weights + fp32 master in the optimizer (Megatron); "
                                 "fp32: the sharded fp32 param is the master (FSDP2 mixed precision)")
    stages: tuple[Stage, ...] = Field(..., description="one entry per pipeline stage")
    # EP dispatch and overlap(priced by planner.costmodel.dispatch)
    dispatcher: Literal[DISPATCHERS] = Field(
        "alltoall", description="MoE token dispatcher: alltoall | allgather | deepep | hybridep "
                                "(planner.specs.kinds.DISPATCHER)")
    ep_overlap: bool = Field(False, description="EP dispatch / combine of one micro-batch overlapped with another's "
                                                "compute (Megatron --overlap-moe-expert-parallel-comm)")
    delay_wgrad: bool = Field(False, description="expert weight-gradient GEMMs delayed behind the backward "
                                                 "dispatch (Megatron --delay-wgrad-compute; needs ep_overlap)")

    @model_validator(mode="before")
    @classmethod
    def _cp_split(cls, d):
        """A CP kind given as input becomes the split it names (ring: all ring, ulysses: all
        Ulysses; hybrid needs its split), or is checked against the split given with it."""
        if not isinstance(d, dict) or not isinstance(d.get("cp", 1), int):
            return d
        d = dict(d)
        kind, cp = d.pop("cp_kind", None), d.get("cp", 1)
        if kind is not None and kind not in CP_KINDS:
            raise ValueError(f"cp_kind {kind!r} must be one of {', '.join(CP_KINDS)}")
        cu, cr = d.get("cp_ulysses"), d.get("cp_ring")
        if cu is None and cr is None:
            if kind == "hybrid" and cp > 1:
                raise ValueError(f"cp_kind hybrid needs its split: cp_ulysses * cp_ring = cp({cp})")
            d["cp_ulysses"], d["cp_ring"] = cu, cr = cp_split(kind or "ring", cp)
        if kind is None or cp == 1 or not (isinstance(cu, int) and isinstance(cr, int)):
            return d
        if kind == "hybrid" and (cu < 2 or cr < 2):
            raise ValueError(f"hybrid CP needs cp_ulysses({cu}) >= 2 and cp_ring({cr}) >= 2")
        want = {"ring": (1, cp), "ulysses": (cp, 1)}.get(kind)
        if want and (cu, cr) != want:
            raise ValueError(f"cp_kind {kind} needs cp_ulysses={want[0]}, cp_ring={want[1]} (got {cu}, {cr})")
        return d

    @computed_field
    @property
    def cp_kind(self) -> Literal[CP_KINDS]:
        """How CP splits attention, read from the split: ring, ulysses or hybrid (both parts >= 2)."""
        return cp_kind_of(self.cp_ulysses, self.cp_ring)

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

    # --- placement (planner.layout.placement: the one rule every consumer reads)
    @property
    def layer_counts(self) -> tuple[int, ...]:
        """Layers of each pipeline rank."""
        return tuple(s.num_layers for s in self.stages)

    @property
    def chunk_layers(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """[p][v]: the layers of virtual chunk v of pipeline rank p (vpp = 1: the stage's range)."""
        return rank_chunks(self.layer_counts, self.vpp)

    @property
    def rank_layers(self) -> tuple[tuple[int, ...], ...]:
        """[p]: every layer pipeline rank p runs, chunk 0 first."""
        return rank_layers(self.layer_counts, self.vpp)

    @property
    def virtual_stages(self) -> tuple[tuple[int, ...], ...]:
        """[k]: the layers of virtual stage k = v * pp + p (Megatron's and torchtitan's order)."""
        return virtual_stages(self.layer_counts, self.vpp)

    def inflight(self, stage: int) -> float:
        """Micro-batches of activations stage `stage` holds at its peak, in units of its layers."""
        return inflight(self.pp, self.vpp, self.num_microbatches, stage)

    def inflight_chunks(self, stage: int) -> int:
        """Model chunks (1/vpp of the stage each) in flight on stage `stage` at its peak."""
        return inflight_chunks(self.pp, self.vpp, self.num_microbatches, stage)

    def placement(self, is_moe, mtp: int = 0) -> Placement:
        """Per pipeline rank, for a model with per-layer kinds `is_moe` (ModelSpec.moe_layers()) and
        `mtp` MTP modules: its chunks, each layer's recompute, its MoE / dense counts."""
        return place(self, is_moe, mtp)

    def to_dict(self) -> dict:
        d = self.model_dump(mode="json")
        d["stages"] = [{**s, "layers": list(s["layers"])} for s in d["stages"]]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Layout":
        stages = tuple(Stage(**{**s, "layers": tuple(s["layers"])}) for s in d["stages"])
        return cls(**{**d, "stages": stages})


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

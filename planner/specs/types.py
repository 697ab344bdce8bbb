"""Spec values: the model, the cluster and the training shape, as immutable pydantic values
(`planner.specs` is the module to import: it adds the presets and `make_problem`).

Long, documented names live here; the short axis names (tp, cp, dp, ...) live in
`planner.layout`. Every spec validates itself and fails with one line that names the
field and the arithmetic (`kv_heads(5) does not divide heads(32)`).

Presets are YAML data in `planner/specs/presets/{models,gpus}/`; `load_model` also reads a
Hugging Face `config.json` or a foldplan model YAML from a local file.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, Optional, Union

from pydantic import Field, field_validator, model_serializer, model_validator

from planner.specs.hardware import GPU_RECORDED, ClusterSpec, GPUSpec  # noqa: F401  (re-exported)
from planner.specs.types_base import SpecError, _Spec, build, one_line  # noqa: F401  (re-exported)
from planner.specs.kinds import (ATTENTION_LAYER_KINDS, BALANCINGS, CP_BALANCES, CP_COMMS, CP_KINDS, DISPATCHERS,
                                 FORCED_ROUTINGS, LOGIT_BYTES, LOSS_LOGITS, MASTERS, PRECISIONS, PURE_BF16,
                                 RECOMPUTE_KINDS, RECOMPUTE_MODULES, ROUTING_MEMORY, ROUTINGS, SHARDINGS, TARGETS,
                                 precision_gpu_error, routing_error, routing_fields)

PRESETS = Path(__file__).parent / "presets"
# The main job, which every command plans when not told otherwise (README, DESIGN.md):
DEFAULT_MODEL = "mixtral-8x7b"
DEFAULT_GPU = "h100-sxm"
DEFAULT_GPUS = 64
DEFAULT_SEQ = "128k"
DEFAULT_GLOBAL_BATCH = "4M"          # tokens
# A global batch below 64Ki counts sequences (Megatron's --global-batch-size, e.g. 2520);
# from 64Ki up it counts tokens (e.g. 4M): `batch_tokens` / `batch_sequences` read it.
SEQUENCES_BELOW = 2**16
# Plans keep 5% below the allocatable memory by default (--memory-fraction 0.95): room
# for allocator spikes the model does not see (fragmentation of NCCL and cuBLAS
# workspaces), so a plan is not at the edge a real run falls off.
DEFAULT_HEADROOM = 0.95


# --------------------------------------------------------------------------- sizes

def counts_sequences(global_batch: int) -> bool:
    """Whether a global batch is given in sequences (below 64Ki) rather than tokens."""
    return global_batch < SEQUENCES_BELOW


def batch_tokens(global_batch: int, seq: int) -> int:
    """A global batch in tokens: sequences (below 64Ki) times seq, else as given."""
    return global_batch * seq if counts_sequences(global_batch) else global_batch


def batch_sequences(global_batch: int, seq: int) -> int:
    """A global batch in sequences: as given below 64Ki (or without a seq), else tokens // seq."""
    return global_batch if counts_sequences(global_batch) or not seq else global_batch // seq


_SUFFIX = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: Union[str, int], field: str = "value") -> int:
    """`128k` -> 131072, `1M` -> 1048576, `4096` -> 4096 (binary suffixes, as sequence
    lengths are quoted). Raises SpecError naming `field` on anything else."""
    if isinstance(text, bool) or (isinstance(text, str) and len(text) > 32):
        raise SpecError(f"{field}: expected a positive size like 4096, 128k or 1M, got {str(text)[:40]!r}")
    if isinstance(text, int):
        value = text
    else:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)\s*", str(text), re.ASCII)    # '٨' is no digit here
        if not m:
            raise SpecError(f"{field}: expected a positive size like 4096, 128k or 1M, got {text!r}")
        number = float(m.group(1)) * _SUFFIX[m.group(2).lower()]
        if number != int(number):
            raise SpecError(f"{field}: {text!r} is not a whole number")
        value = int(number)
    if value <= 0:
        raise SpecError(f"{field}: must be positive, got {text!r}")
    return value


# --------------------------------------------------------------------------- model

class MLASpec(_Spec):
    """Multi-head latent attention (DeepSeek-V2/V3)."""
    q_lora_rank: int = Field(0, ge=0, description="rank of the query down-projection (0 = plain q_proj)")
    kv_lora_rank: int = Field(..., gt=0, description="rank of the compressed KV latent")
    qk_rope_head_dim: int = Field(..., gt=0, description="per-head dims carrying RoPE (shared key part)")
    qk_nope_head_dim: int = Field(..., gt=0, description="per-head query/key dims without RoPE")
    v_head_dim: int = Field(..., gt=0, description="per-head value dims")


class MoESpec(_Spec):
    """The routed-expert part of a Mixture-of-Experts model."""
    experts: int = Field(..., gt=0, description="routed experts per MoE layer")
    top_k: int = Field(..., gt=0, description="experts each token is sent to")
    expert_ffn_hidden: int = Field(..., gt=0, description="intermediate width of one routed expert")
    shared_experts: int = Field(0, ge=0, description="always-on shared experts per MoE layer")
    shared_ffn_hidden: int = Field(0, ge=0, description="intermediate width of ONE shared expert")
    first_dense_layers: int = Field(0, ge=0, description="leading layers that use the dense FFN instead")
    layer_freq: Union[int, list[int]] = Field(
        1, description="int N: layer i is MoE iff i >= first_dense_layers and i % N == 0; "
                       "or a 0/1 list with one entry per layer (Megatron --moe-layer-freq)")
    router_score: Literal["softmax", "sigmoid"] = Field("softmax", description="router score function")
    router_bias: bool = Field(False, description="auxiliary-loss-free expert bias (DeepSeek-V3)")

    @model_validator(mode="after")
    def _check(self):
        if self.top_k > self.experts:
            raise ValueError(f"top_k({self.top_k}) exceeds experts({self.experts})")
        if self.shared_experts and not self.shared_ffn_hidden:
            raise ValueError(f"shared_experts({self.shared_experts}) needs shared_ffn_hidden > 0")
        if isinstance(self.layer_freq, int) and self.layer_freq < 1:
            raise ValueError(f"layer_freq({self.layer_freq}) must be >= 1")
        if isinstance(self.layer_freq, list) and any(v not in (0, 1) for v in self.layer_freq):
            raise ValueError("layer_freq list entries must be 0 or 1")
        return self


class ModelSpec(_Spec):
    """A decoder-only transformer, dense or MoE (field names follow the plan schema)."""
    name: str = Field("custom", description="preset or file name, for reports")
    layers: int = Field(..., gt=0, description="transformer layers (excluding MTP modules)")
    hidden: int = Field(..., gt=0, description="model width h")
    heads: int = Field(..., gt=0, description="attention (query) heads a")
    kv_heads: int = Field(..., gt=0, description="key/value heads (GQA groups); = heads for MHA")
    head_dim: int = Field(..., gt=0, description="per-head dim of q/k/v (GQA); for MLA see `mla`")
    vocab: int = Field(..., gt=0, description="vocabulary size V (embedding rows)")
    ffn_hidden: int = Field(0, ge=0, description="dense FFN intermediate width (0 if every layer is MoE)")
    gated: bool = Field(True, description="SwiGLU-style gated FFN (3 matrices) instead of 2")
    tied_embeddings: bool = Field(False, description="output head shares the embedding matrix")
    norm: Literal["rmsnorm", "layernorm"] = Field("rmsnorm", description="norm kind (layernorm has a bias)")
    qk_norm: bool = Field(False, description="per-head RMSNorm on q and k (Qwen3, OLMoE)")
    attention: Literal["gqa", "mla"] = Field("gqa", description="gqa (incl. MHA) or mla (DeepSeek)")
    mla: Optional[MLASpec] = Field(None, description="MLA dimensions when attention == 'mla'")
    moe: Optional[MoESpec] = Field(None, description="routed experts; None for a dense model")
    mtp_layers: int = Field(0, ge=0, description="multi-token-prediction modules (DeepSeek-V3: 1)")
    linear_bias: bool = Field(False, description="biases on attention/FFN linears (GPT-2/3 style)")
    # what each layer's attention sees (planner.specs.kinds.ATTENTION_LAYER_KINDS); the cost model
    # prices each kind by the keys its queries see (planner.costmodel.attention_kinds)
    layer_attention: Optional[tuple[Literal[ATTENTION_LAYER_KINDS], ...]] = Field(None, description=(
        "each layer's attention kind: full, sliding or chunked (None: every layer full causal attention)"))
    attention_window: int = Field(0, ge=0, description="tokens a sliding layer sees, or a chunked layer's chunk")
    attention_sinks: bool = Field(False, description="a learned sink logit per attention head (gpt-oss)")
    sparse_attention_topk: int = Field(0, ge=0, description=(
        "keys per query a sparse-attention indexer keeps (DeepSeek-V3.2 index_topk); 0: dense attention"))
    sparse_indexer_heads: int = Field(0, ge=0, description="the sparse-attention indexer's heads (index_n_heads)")
    sparse_indexer_dim: int = Field(0, ge=0, description="the sparse-attention indexer's head dim (index_head_dim)")

    @model_validator(mode="after")
    def _check(self):
        if self.heads % self.kv_heads:
            raise ValueError(f"kv_heads({self.kv_heads}) does not divide heads({self.heads})")
        if self.attention == "mla" and self.mla is None:
            raise ValueError("attention 'mla' needs the mla dimensions")
        if self.moe is None and self.ffn_hidden == 0:
            raise ValueError("a dense model needs ffn_hidden > 0")
        if self.moe is not None:
            n_dense = sum(1 for moe in self.moe_layers() if not moe)
            if n_dense and self.ffn_hidden == 0:
                raise ValueError(f"{n_dense} dense layers need ffn_hidden > 0")
            if isinstance(self.moe.layer_freq, list) and len(self.moe.layer_freq) != self.layers:
                raise ValueError(f"moe.layer_freq has {len(self.moe.layer_freq)} entries, layers is {self.layers}")
            if self.moe.first_dense_layers > self.layers:
                raise ValueError(f"moe.first_dense_layers({self.moe.first_dense_layers}) exceeds layers({self.layers})")
        if self.layer_attention is not None:
            if len(self.layer_attention) != self.layers:
                raise ValueError(f"layer_attention has {len(self.layer_attention)} entries, layers is {self.layers}")
            if any(k != "full" for k in self.layer_attention) and not self.attention_window:
                raise ValueError("sliding or chunked layers need attention_window > 0")
        if self.sparse_attention_topk and not (self.sparse_indexer_heads and self.sparse_indexer_dim):
            raise ValueError(f"sparse_attention_topk {self.sparse_attention_topk} needs the indexer's "
                             "sparse_indexer_heads and sparse_indexer_dim > 0")
        return self

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        # the per-layer attention fields are written only where they say something: a plan of a
        # model with full attention everywhere reads as it did before they existed
        out = handler(self)
        for key in ("layer_attention", "attention_window", "attention_sinks", "sparse_attention_topk",
                    "sparse_indexer_heads", "sparse_indexer_dim"):
            if isinstance(out, dict) and not out.get(key):
                out.pop(key, None)
        return out

    def moe_layers(self) -> list[bool]:
        """is_moe[i] for each transformer layer i (see docs/plan-schema.md)."""
        if self.moe is None:
            return [False] * self.layers
        freq = self.moe.layer_freq
        if isinstance(freq, list):
            return [bool(v) for v in freq]
        return [i >= self.moe.first_dense_layers and i % freq == 0 for i in range(self.layers)]

    @property
    def is_moe(self) -> bool:
        return self.moe is not None and any(self.moe_layers())


# --------------------------------------------------------------------------- train

RecomputeKind = Literal[RECOMPUTE_KINDS]
CPKind = Literal[CP_KINDS]
ShardingKind = Literal[SHARDINGS]


class TrainSpec(_Spec):
    """The training shape and numerics."""
    seq: int = Field(..., gt=0, description="sequence length S in tokens (accepts 128k, 1M)")
    global_batch_tokens: int = Field(..., gt=0, description="tokens per optimizer step (e.g. 4M)")
    micro_batches: tuple[int, ...] = Field((1, 2, 4), description="micro-batch sizes (sequences) to consider")
    recompute: tuple[RecomputeKind, ...] = Field(RECOMPUTE_KINDS, description="recompute kinds allowed")
    cp_kinds: tuple[CPKind, ...] = Field(CP_KINDS, description="context-parallel kinds allowed")
    capacity_factor: Optional[float] = Field(None, gt=0, description="MoE capacity factor; None = dropless")
    distributed_optimizer: bool = Field(True, description="False: only sharding 'none' (DDP) is considered")
    shardings: tuple[ShardingKind, ...] = Field(("zero1", "zero2", "zero3"), description=(
        "data-parallel sharding kinds the search may choose (none = DDP is never cheaper than zero1 "
        "in this model: as much traffic, more memory)"))
    master: Literal[MASTERS] = Field("bf16+fp32", description=(
        "what is stored per parameter (planner.specs.kinds.MASTERS): bf16+fp32 (bf16 weights + fp32 master and "
        "AdamW states, Megatron), fp32 (FSDP2 mixed precision), bf16 (pure bf16: parameters, gradients, AdamW "
        "states) or bf16+kahan (pure bf16 + a bf16 Kahan buffer)"))
    recompute_modules: tuple[str, ...] = Field(
        ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj"),
        description="Megatron recompute modules the search may choose per stage (those the model has)")
    grad_bytes: int = Field(4, ge=2, le=4, description="bytes per gradient element (Megatron keeps fp32 main grads)")
    grad_reduce_bytes: int = Field(4, ge=2, le=4, description="bytes per element on the wire in gradient "
                                                               "reductions (2 = --grad-reduce-in-bf16)")
    overlap_grad_reduce: bool = Field(True, description=(
        "the per-step gradient reduction runs behind the last micro-batch (Megatron-LM --overlap-grad-reduce, "
        "off by Megatron's default; FSDP2, torchtitan and the bundle always overlap; foldplan's Megatron export "
        "sets it): False exposes the whole reduction after the last backward. The search plans with it on"))
    loss_logits: Optional[Literal[LOSS_LOGITS]] = Field(None, description=(
        "how the loss keeps the logits (planner.specs.kinds.LOSS_LOGITS): vocab-parallel, upcast, chunked or "
        "fused; sets logit_bytes (None: logit_bytes as given, the target's)"))
    routed_output_bytes: float = Field(2.0, ge=0, le=8, description=(
        "bytes per element of each routed row's expert output that the MoE layer keeps for the routing weights' "
        "gradient: 0 where the weights multiply inside the expert activation (Megatron-Core from 0.13, "
        "'Memory efficient token permutation'), 2 where the bf16 output is multiplied after the experts "
        "(OLMo-core's scatter, the bundle), 4 where it is upcast to fp32 first (torchtitan 0.3)"))
    logit_bytes: float = Field(10, ge=0, le=16, description=(
        "bytes per [tokens x vocab/tp] logit element at the loss's peak: 10 for Megatron's vocab-parallel "
        "cross entropy (bf16 logits + fp32 softmax + fp32 grad), 12 for torch eager F.cross_entropy on "
        ".float() logits (torchtitan, the bundle: fp32 log-softmax + its grad + the input grad)"))
    kernels: Literal["fused", "eager"] = Field("fused", description=(
        "elementwise kernels: fused (Megatron-Core / Transformer Engine's kernels, torch.compile) or eager "
        "(torchtitan's modules without torch.compile, and the bundle's own: RMSNorm, RoPE, SwiGLU one kernel "
        "per op; planner.costmodel.formulas)"))
    expert_gemm: Literal["library", "torch"] = Field("library", description=(
        "the routed experts' bf16 grouped GEMM kernel: library (Transformer Engine's grouped linear in "
        "Megatron-Core, the grouped_gemm package in OLMo-core: the GPU's compute_efficiency) or torch "
        "(torch._grouped_mm: torchtitan 0.3 and the bundle; the GPU preset's torch_grouped_mm_efficiency "
        "where one is published)"))
    attention_kernel: Literal["fused", "flash2", "flex"] = Field("fused", description=(
        "the causal attention kernel: fused (the GPU preset's curve: Transformer Engine / cuDNN or "
        "FlashAttention-3 on Hopper, FlashAttention-2 on Ampere), flash2 (FlashAttention-2, what PyTorch's "
        "SDPA ran on Hopper while its cuDNN backend was opt-in: pytorch/pytorch#138522, Oct 2024) or flex "
        "(FlexAttention, torchtitan 0.3's attention for language models: planner.specs.cp_impl)"))
    # --- CP as the engine runs it(planner.specs.cp_impl): the target's rules.py sets it
    cp_comm: Literal[CP_COMMS] = Field("p2p", description="how the ring part of CP moves K/V (kinds.CP_COMMS)")
    cp_balance: Literal[CP_BALANCES] = Field("headtail", description="causal balancing: headtail (zig-zag) | none")
    flash_attention: bool = Field(True, description="fused attention: no S x S scores are stored")
    dropout: bool = Field(False, description="dropout layers present (adds masks to activations)")
    sequence_parallel: bool = Field(True, description="Megatron sequence parallel when tp > 1")
    # --- MoE routing(planner/costmodel/routing.py prices it per layout)
    routing: Literal[ROUTINGS] = Field("dropless", description="MoE routing: forced (benchmark), dropless (the "
                                       "busiest EP rank sets the pace) or capacity=<f> (token drop)")
    forced_routing: Literal[FORCED_ROUTINGS] = Field("random", description=(
        "how forced routing spreads tokens: random (a multinomial draw per rank) or round-robin (exact "
        "balance); the target's defaults set it (planner.specs.kinds.FORCED_ROUTINGS)"))
    balancing: Optional[Literal[BALANCINGS]] = Field(None, description="router balancing (None: aux-free when "
                                                     "the router has an expert bias, else aux-loss)")
    capacity_pad: bool = Field(False, description="pad experts to the capacity (--moe-pad-expert-input-to-capacity)")
    routing_memory: Literal[ROUTING_MEMORY] = Field("steady", description=(
        "the busiest EP rank's rows that dropless MoE memory is budgeted for: steady (the expected busiest rank "
        "under the run's balancing, what the run holds; the 1 - 1e-4 tail is a warning) or tail (that "
        "quantile: headroom for routing bursts)"))
    moe_imbalance: Optional[float] = Field(None, ge=1, description=(
        "dropless busiest EP rank's rows / mean given instead of the skew model (None: the model)"))
    max_vpp: int = Field(4, ge=1, description="largest virtual-pipeline degree to consider")
    # FP8 / MXFP8 precisions(planner.specs.precision has what each recipe runs and stores)
    precision: Literal[PRECISIONS] = Field("bf16", description="the linear layers' GEMM precision: bf16 or an FP8 recipe")
    fp8_param_gather: bool = Field(False, description="FP8 parameter all-gather (Megatron --fp8-param-gather, "
                                   "torchao enable_fsdp_float8_all_gather): 1 byte per linear weight gathered")
    fp8_library: Literal["te", "torchao", "bundle"] = Field("torchao", description="who runs the FP8 linears: te "
                                                            "(Transformer Engine, Megatron-LM), torchao (torchtitan, "
                                                            "OLMo-core) or bundle (foldplan's own bundle, fp8.py)")
    # EP dispatch and overlap: what the target runs, the search picks per layout
    dispatchers: tuple[Literal[DISPATCHERS], ...] = Field(("alltoall",), description=(
        "MoE token dispatchers the search may choose (planner.specs.kinds.DISPATCHER; the target's rules "
        "say which it runs)"))
    ep_overlap: bool = Field(False, description=(
        "the search may overlap EP dispatch / combine with another micro-batch's compute (Megatron's "
        "--overlap-moe-expert-parallel-comm, 1F1B A2A overlap)"))
    target: Literal[TARGETS] = Field("bundle", description=(
        "the engine that runs the plan: bundle (foldplan's own code: any per-stage folding), megatron, "
        "torchtitan or olmo-core (their configs: one expert folding for all stages; "
        "planner/engines/<target>/rules.py has their rules)"))

    @field_validator("seq", "global_batch_tokens", mode="before")
    @classmethod
    def _size(cls, v, info):
        try:
            return parse_size(v, info.field_name)
        except SpecError as e:
            raise ValueError(str(e).split(": ", 1)[1]) from None

    @model_validator(mode="before")
    @classmethod
    def _routing(cls, data):
        if not isinstance(data, dict):
            return data
        data = routing_fields(data)
        if data.get("loss_logits") in LOGIT_BYTES:        # the kind sets the bytes it keeps
            data = {**data, "logit_bytes": LOGIT_BYTES[data["loss_logits"]]}
        if data.get("master") in PURE_BF16:                # pure bf16: the gradients are bf16 too
            data = {**data, "grad_bytes": 2}
        return data

    @model_validator(mode="after")
    def _check(self):
        if routing_error(self.routing, self.capacity_factor):
            raise ValueError(routing_error(self.routing, self.capacity_factor))
        if self.global_batch_tokens % self.seq:
            raise ValueError(f"global_batch_tokens({self.global_batch_tokens}) is not a multiple of seq({self.seq})")
        if not self.micro_batches or min(self.micro_batches) < 1:
            raise ValueError("micro_batches must be positive integers")
        if not self.recompute:
            raise ValueError("recompute must allow at least one kind")
        if not self.cp_kinds:
            raise ValueError("cp_kinds must allow at least one kind")
        if not self.shardings:
            raise ValueError("shardings must allow at least one kind")
        if not self.dispatchers:
            raise ValueError("dispatchers must allow at least one kind")
        bad = [k for k in self.recompute_modules if k not in RECOMPUTE_MODULES]
        if bad:
            raise ValueError(f"recompute_modules: unknown {', '.join(bad)} (known: {', '.join(RECOMPUTE_MODULES)})")
        if "op" in self.recompute_modules and len(self.recompute_modules) > 1:
            raise ValueError("recompute_modules: op (torchtitan per-op SAC) replaces a layer's save set and is "
                             "searched alone, not with " + ", ".join(k for k in self.recompute_modules if k != "op"))
        return self

    @property
    def allowed_shardings(self) -> tuple[str, ...]:
        """What the search considers: `shardings`, or only DDP without a distributed optimizer."""
        return ("none",) if not self.distributed_optimizer else self.shardings

    @property
    def global_batch(self) -> int:
        """Sequences per optimizer step."""
        return self.global_batch_tokens // self.seq


class Problem(_Spec):
    """What the planner is asked: this model, on these GPUs, with this training shape."""
    model: ModelSpec
    cluster: ClusterSpec
    train: TrainSpec

    @model_validator(mode="after")
    def _attention_kernel(self):
        self.cluster.gpu.attention_curve(self.train.attention_kernel)     # a kernel the GPU preset has a curve for
        why = precision_gpu_error(self.train.precision, self.cluster.gpu)  # FP8 tensor cores for an FP8 precision
        if why:
            raise ValueError(why)
        return self

    def to_dict(self) -> dict:
        return {
            "model": self.model.model_dump(mode="json"),
            "cluster": {"gpu": self.cluster.gpu.name, "gpus": self.cluster.gpus,
                        "gpus_per_node": self.cluster.gpus_per_node,
                        "gpus_per_domain": self.cluster.gpus_per_domain, "used_per_domain": self.cluster.used_per_domain,
                        **self.cluster.gpu.model_dump(mode="json", include=set(GPU_RECORDED)),
                        "memory_budget_gib": self.cluster.memory_budget_gib,
                        "budget_of": "peak allocated tensor bytes per GPU (torch.cuda.max_memory_allocated)"},
            "train": self.train.model_dump(mode="json"),
        }

"""The job's vocabularies, each listed once: rank orders, CP kinds and their split, data-parallel
sharding kinds and what each shards, where the fp32 master lives, recompute kinds and modules.

The specs (what the search may choose), the layout (what a plan chose), the cost model, the
bundle's code generator, the exporters and the readers all read these names and values here.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Optional

# --------------------------------------------------------------------------- rank order
DENSE_AXES = ("tp", "cp", "dp")
# the dense axes innermost (stride 1) first, pp always outermost: "tp-cp-dp-pp" is Megatron's
# default tp-cp-ep-dp-pp without ep
ORDERS = tuple("-".join(p) + "-pp" for p in permutations(DENSE_AXES))

# --------------------------------------------------------------------------- engines
# What `--target` takes, for the specs' `target` Literal: "bundle" (foldplan's own code) or an engine. The
# engines themselves are records listed once in planner.engines.REGISTRY (one folder each under
# planner/engines/); the specs validate below that layer, so the target names are named here too and
# planner.engines refuses to import when the two disagree.
TARGETS = ("bundle", "megatron", "torchtitan", "olmo-core")

# --------------------------------------------------------------------------- attention per layer
# What each transformer layer's attention sees (ModelSpec.layer_attention): full causal attention,
# a sliding window of the last `attention_window` tokens (Mistral, gpt-oss), or the tokens of its own
# chunk of `attention_window` (Llama-4's chunked local attention). Linear attention (Gated DeltaNet)
# and Mamba layers are not among them: the Hugging Face reader refuses a model that has them.
ATTENTION_LAYER_KINDS = ("full", "sliding", "chunked")

# --------------------------------------------------------------------------- context parallel
# ring: zig-zag P2P ring attention over all of cp; ulysses: all-to-all over heads over all of cp;
# hybrid: Ulysses inside (cp_ulysses ranks) x ring across (cp_ring ranks), both parts >= 2.
CP_KINDS = ("ring", "ulysses", "hybrid")


# How the ring part of CP (c_r ranks) moves K/V -- the CP implementation an engine runs
# (planner.specs.cp_impl holds what each one overlaps and its sources; the engines' rules.py say
# which ones each engine runs):
# p2p      K/V passed round the ring, each pass overlapped with one block's attention (Megatron / TE
#          --cp-comm-type p2p, torch SDPA CP with rotate "alltoall", OLMo-core zig-zag ring, the bundle)
# ag-ring  torch SDPA CP with rotate "allgather": one all-gather of K/V overlapped with the first
#          block's attention only, and again in backward; dK/dV return by fp32 ring passes
# ag-te    Transformer Engine --cp-comm-type allgather: K/V all-gathered before attention (again in
#          backward) and dK/dV reduce-scattered after it, none of it overlapped
# ag-flex  torch FlexAttention CP (torchtitan 0.3's only CP for language models): K/V all-gathered
#          before attention and kept for backward, dK/dV reduce-scattered, not overlapped
CP_COMMS = ("p2p", "ag-ring", "ag-te", "ag-flex")
# causal load balancing of the ring part: headtail (= Megatron / TE / OLMo-core zig-zag, torch's
# _HeadTailLoadBalancer: rank r holds chunks r and 2c-1-r of 2c) or none (contiguous chunks)
CP_BALANCES = ("headtail", "none")


def cp_kind_of(cp_ulysses: int, cp_ring: int) -> str:
    """The CP kind a split (cp_ulysses x cp_ring) is: the split is what a layout stores."""
    if cp_ulysses > 1 and cp_ring > 1:
        return "hybrid"
    return "ulysses" if cp_ulysses > 1 else "ring"


def cp_split(kind: str, cp: int, ulysses: Optional[int] = None) -> tuple[int, int]:
    """(cp_ulysses, cp_ring) of a CP kind over `cp` ranks (hybrid: `ulysses` ranks of Ulysses)."""
    if kind == "ring":
        return 1, cp
    if kind == "ulysses":
        return cp, 1
    u = ulysses or 1
    return u, cp // u


# --------------------------------------------------------------------------- data-parallel sharding
@dataclass(frozen=True)
class Sharding:
    """What one data-parallel sharding kind shards (ZeRO, Rajbhandari et al. 2020, sec. 5). Dense
    state shards over dp x cp, expert state over edp.

    optimizer  the optimizer state (fp32 master + Adam m, v) is sharded (Megatron's distributed
               optimizer; FSDP2 always shards it)
    grads      gradients are reduce-scattered every micro-batch and kept sharded
    params     parameters are sharded and gathered per micro-batch in forward and again in backward
               (FSDP2's reshard_after_forward=True); without it, gathered parameters are kept from
               forward to backward
    """
    name: str
    stage: int                 # the ZeRO stage: 0 (DDP) .. 3
    optimizer: bool
    grads: bool
    params: bool


SHARDING = {s.name: s for s in (Sharding("none", 0, False, False, False),
                                Sharding("zero1", 1, True, False, False),
                                Sharding("zero2", 2, True, True, False),
                                Sharding("zero3", 3, True, True, True))}
SHARDINGS = tuple(SHARDING)


def sharding_of_stage(stage: int) -> Sharding:
    """The kind of a ZeRO stage (DeepSpeed's zero_optimization.stage, Megatron FSDP's levels)."""
    return next(s for s in SHARDING.values() if s.stage == min(max(stage, 0), 3))


# --------------------------------------------------------------------------- master copy
# What a job stores per parameter, and the optimizer-state bytes of AdamW (OPTIMIZER_BYTES, sharded
# from zero1; planner/costmodel/sharding_terms.py):
# bf16+fp32   persistent bf16 weights beside an fp32 master and fp32 m, v inside the optimizer state
#             (Megatron-LM's distributed optimizer, DeepSpeed): 4 + 4 + 4 = 12
# fp32        the (sharded) parameter itself is fp32 and is the master; bf16 copies exist only while
#             gathered for compute (FSDP2 with MixedPrecisionPolicy(bf16, fp32)); fp32 m, v: 8
# bf16        pure bf16: parameters, gradients and AdamW m, v all in bf16, no fp32 copy (torchtitan
#             training.dtype = "bfloat16", torchtitan/config/configs.py at 0.3.0: "all parameters,
#             gradients, and optimizer states in bfloat16, without an extra copy of fp32 weights"; a
#             model loaded in bf16 under FSDP2 with torch.optim.AdamW, whose states take the parameter's
#             dtype: NeMo AutoModel-style stacks); with or without stochastic rounding (no extra bytes):
#             m, v = 2 + 2 = 4
# bf16+kahan  pure bf16 with Kahan-compensated updates: one more bf16 buffer per parameter (optimi's
#             AdamW(kahan_sum=True)): 2 + 2 + 2 = 6
MASTERS = ("bf16+fp32", "fp32", "bf16", "bf16+kahan")
OPTIMIZER_BYTES = {"bf16+fp32": 12, "fp32": 8, "bf16": 4, "bf16+kahan": 6}
PURE_BF16 = ("bf16", "bf16+kahan")      # gradients are bf16 too (TrainSpec.grad_bytes = 2)

# --------------------------------------------------------------------------- logits at the loss
# How the loss keeps the [tokens x vocab/tp] logits at its peak, in bytes per element (TrainSpec.logit_bytes,
# the b_l of planner/costmodel/formulas.py A_logits):
# vocab-parallel  Megatron's vocab-parallel cross entropy: bf16 logits, the fp32 softmax it saves and the fp32
#                 gradient written over it (megatron/core/tensor_parallel/cross_entropy.py; its fused form,
#                 megatron/core/fusions/fused_cross_entropy.py, saves the same fp32 exp-logits): 2 + 4 + 4 = 10
# upcast          torch F.cross_entropy on .float() logits (torchtitan 0.2, OLMo-core's default loss, the
#                 bundle): the saved fp32 log-softmax, its incoming fp32 grad and the fp32 input grad at once: 12
# fused           a fused cross-entropy kernel that writes the logits' gradient over the bf16 logits in its
#                 forward (Liger Kernel's LigerCrossEntropyLoss): the bf16 logits alone: 2
# chunked         the head and the loss run chunk by chunk of the tokens, each chunk's backward before the next
#                 (torchtitan 0.3's ChunkedLossWrapper, torchtitan/components/loss.py:567 at 0.3.0: "Instead
#                 of materializing the full [B, L, V] logits tensor at once"; Liger's fused linear cross
#                 entropy): no [tokens x vocab] tensor is kept: 0 (a chunk's transient is not counted)
LOSS_LOGITS = ("vocab-parallel", "upcast", "fused", "chunked")
LOGIT_BYTES = {"vocab-parallel": 10.0, "upcast": 12.0, "fused": 2.0, "chunked": 0.0}

# --------------------------------------------------------------------------- recompute
RECOMPUTE_KINDS = ("none", "selective", "full")
# Megatron-LM's --recompute-modules names (megatron/core/transformer/transformer_config.py) plus
# "op": torchtitan's per-op selective AC (selective_ac_option = "op"), which replaces a layer's
# whole save set and so is never combined with another module
RECOMPUTE_MODULES = ("core_attn", "layernorm", "mlp", "moe", "moe_act", "shared_experts", "mla_up_proj", "op")

# --------------------------------------------------------------------------- MoE routing
# How tokens reach experts, as a job runs them:
# forced    benchmark mode: Megatron-LM --moe-router-force-load-balancing (random router logits,
#           megatron/core/transformer/moe/router.py:856 and moe_utils.py:1195, megatron-core 0.19.2),
#           torchtitan's debug.moe_force_load_balance (round robin, torchtitan/models/common/moe.py:225,
#           0.3.0), OLMo-core's MoERouterConfig.uniform_expert_assignment (olmo_core/nn/moe/router.py:93)
# dropless  every routed token is computed (the default of all three engines)
# capacity  token drop: an expert takes at most capacity_factor x its mean share (Megatron-LM
#           --moe-expert-capacity-factor; "capacity=<f>" on the command line)
ROUTINGS = ("forced", "dropless", "capacity")
# How an engine's forced routing spreads the tokens (the engine's DEFAULTS say which): random router logits
# or assignment (Megatron-LM, OLMo-core: each rank's load a multinomial draw) or round robin (torchtitan:
# every expert the same share, exact balance)
FORCED_ROUTINGS = ("random", "round-robin")
# How the router is kept balanced when routing is not forced:
# aux-loss      a GShard / Switch load-balancing loss (Megatron aux_loss / global_aux_loss, OLMo-core's
#               lb_loss_weight)
# seq-aux-loss  the loss computed per sequence (DeepSeek-V2/V3; Megatron seq_aux_loss)
# aux-free      the loss-free per-expert bias of Wang et al. 2024 (arXiv 2408.15664): Megatron
#               --moe-router-enable-expert-bias, torchtitan load_balance_coeff, OLMo-core bias_gamma
# none          no balancing (Megatron's default --moe-aux-loss-coeff 0 without expert bias)
BALANCINGS = ("aux-loss", "seq-aux-loss", "aux-free", "none")
# The busiest EP rank's rows memory is budgeted for (dropless buffers grow with the rows that arrive;
# planner/costmodel/routing.py):
# steady    the expected busiest rank under the run's balancing in steady state (the published
#           steady-state load statistic): what the run holds, the memory verdict
# tail      the 1 - 1e-4 quantile of the busiest rank: headroom for a routing burst (early training
#           before the balancing settles), which the steady verdict reports as a warning
ROUTING_MEMORY = ("steady", "tail")
NO_BALANCING_NOTE = ("balancing none: no published load statistic for an unbalanced router; estimated as "
                     "an auxiliary loss (an optimistic floor)")


def parse_routing(text: str) -> tuple[str, Optional[float]]:
    """("forced" | "dropless" | "capacity", capacity factor or None) of "forced", "dropless" or
    "capacity=<f>"; ValueError (one line) otherwise."""
    t = str(text).strip()
    if t in ("forced", "dropless"):
        return t, None
    if t.startswith("capacity="):
        try:
            cf = float(t.split("=", 1)[1])
        except ValueError:
            cf = float("nan")
        if not cf > 0 or cf == float("inf"):
            raise ValueError(f"routing {t!r}: the capacity factor must be a positive number (capacity=1.25)")
        return "capacity", cf
    raise ValueError(f"routing {t[:40]!r}: expected forced, dropless or capacity=<factor>")


def routing_fields(data: dict) -> dict:
    """TrainSpec's routing fields: routing "capacity=<f>" sets capacity_factor; a capacity factor
    without a routing is capacity."""
    r = data.get("routing")
    if isinstance(r, str) and r.startswith("capacity="):
        kind, cf = parse_routing(r)
        given = data.get("capacity_factor")
        if given is not None and given != cf:
            raise ValueError(f"routing {r} and capacity_factor {given} disagree")
        return {**data, "routing": kind, "capacity_factor": cf}
    if r is None and data.get("capacity_factor") is not None:
        return {**data, "routing": "capacity"}
    return data


def routing_error(routing: str, capacity_factor: Optional[float]) -> Optional[str]:
    """Why a routing and a capacity factor do not go together (None: they do)."""
    if routing == "capacity" and capacity_factor is None:
        return "routing capacity needs a capacity factor (capacity=1.25)"
    if routing == "dropless" and capacity_factor is not None:
        return f"routing dropless and capacity_factor {capacity_factor} disagree (capacity=<f> drops tokens)"
    return None


# --------------------------------------------------------------------------- precision
# The numerics of the linear layers' GEMMs: bf16, or an FP8 recipe (what each one runs, stores and
# costs: planner.specs.precision.RECIPES). fp8-tensorwise: per-tensor current scaling (TE's
# Float8CurrentScaling, torchao's "tensorwise"); fp8-delayed: per-tensor scales from an amax history
# (TE's DelayedScaling, Megatron's default --fp8-recipe); fp8-rowwise: torchao's per-row scales
# ("rowwise", torchtitan's float8 converter); fp8-blockwise: DeepSeek-V3's 1x128 activation /
# 128x128 weight tiles (TE's Float8BlockScaling, --fp8-recipe blockwise); mxfp8: OCP MX, 1x32 blocks
# with e8m0 scales, Blackwell tensor cores only.
PRECISIONS = ("bf16", "fp8-tensorwise", "fp8-delayed", "fp8-rowwise", "fp8-blockwise", "mxfp8")
MX_PRECISIONS = ("mxfp8",)                # on MX (block-scaled) FP8 tensor cores only: Blackwell


def precision_gpu_error(precision: str, gpu) -> Optional[str]:
    """Why `gpu` cannot run `precision` (no FP8 tensor cores; MXFP8 off Blackwell), or None."""
    if precision != "bf16" and (gpu.fp8_peak_flops is None or gpu.fp8_compute_efficiency is None):
        return (f"precision {precision}: gpu {gpu.name!r} has no FP8 tensor cores (its preset sets no fp8_peak_flops); "
                f"use precision bf16")
    if precision in MX_PRECISIONS and not gpu.mxfp8:
        return (f"precision {precision}: gpu {gpu.name!r} has no MX (block-scaled) FP8 tensor cores (Blackwell only); "
                f"use an fp8-* recipe")
    return None


# --------------------------------------------------------------------------- EP dispatchers
@dataclass(frozen=True)
class Dispatcher:
    """How one MoE token dispatcher moves tokens to their experts and back (priced by
    planner.costmodel.dispatch). `sms`: SMs its kernels take from compute while they run beside it;
    `nvl_share` / `rdma_share`: its achieved share of the GPU's achievable NVLink rate (the preset's
    link rate x bus efficiency) and of the NIC's line rate; None: NCCL at the preset's bus efficiency."""
    name: str
    moves: str
    runs: str
    sms: int
    nvl_share: Optional[dict] = None            # {GPU architecture: share}; "hopper" serves an unlisted one
    rdma_share: Optional[float] = None

    def nvl_share_on(self, arch: Optional[str]) -> Optional[float]:
        """The NVLink share on GPUs of `arch`: its own table's where DeepEP publishes one, else Hopper's."""
        if self.nvl_share is None:
            return None
        return self.nvl_share.get(arch, self.nvl_share["hopper"])


# DeepEP README, "Normal kernels with NVLink and RDMA forwarding" (deepseek-ai/DeepEP docs/legacy.md @
# dd758ca, the V1 table; H800 "~160 GB/s NVLink maximum bandwidth", CX7 400 Gb/s ~50 GB/s RDMA; 4,096
# tokens, hidden 7,168, top-8, FP8 dispatch, BF16 combine): NVLink dispatch 153 / combine 158 GB/s
# (EP8): 0.97 of the link's achievable maximum (the H800 preset's 200 GB/s x 0.8 = 160); RDMA 43 / 43
# (EP16), 58 / 57 (EP32), 51 / 50 GB/s (EP64): the mean 50.3 of ~50 (taken as the line rate, share 1).
# The NVLink leg is the link's, not its SMs': on H100 (twice the H800's NVLink) Megatron-LM's MoE-layer
# CI (tests/functional_tests/test_cases/common/moe_perf/baseline.json @ 32f2c9c) measures DeepEP and
# HybridEP 17-19% faster than NCCL's all-to-all on its DeepSeek proxy, which 155 GB/s could not give;
# DeepEP V2's table (README @ dd758ca) reaches 643 GB/s over SM100 NVLink with 24 SMs.
# On Blackwell (SM100) DeepEP's own V2 table (README @ dd758caf, "Performance": 8K tokens, hidden 7168,
# top-8, FP8 dispatch, BF16 combine, EP 8 on one node) gives NVLink dispatch 643 / combine 675 GB/s at
# its fewest SMs (24; 726 / 740 at 64): 0.92 of the B200 / B300 presets' 900 GB/s x 0.8 = 720. No table
# is published for V1 on SM100, for HybridEP, or across the trays of an NVL72 rack (corpus `lacks`).
DEEPEP_NVL_SHARE = {"hopper": (153e9 + 158e9) / 2 / 160e9, "blackwell": (643e9 + 675e9) / 2 / 720e9}
DEEPEP_RDMA_SHARE = min(1.0, (43 + 43 + 58 + 57 + 51 + 50) / 6 / 50)
# What the EP overlap costs the kernels beside it, measured: the Nsight comparison of Megatron-Bridge's
# MoE comm-overlap skill (NVIDIA-NeMo/Megatron-Bridge @ 067f987df03b,
# skills/nemo-mbridge-perf-moe-comm-overlap/SKILL.md: Qwen3-30B-A3B on 16 H100, EP16, HybridEP, rank 0,
# the same run with the overlap off and on). Off, the GPU was active 22.821 s of the step; on, 3.959 s
# of communication ran concurrently with GEMM / attention, which would leave 22.821 - 3.959 = 18.862 s
# if sharing the GPU were free; the run kept 21.221 s. Each second hidden cost 0.596 s more of the
# kernels beside it (SMs, HBM bandwidth and L2 shared; the schedule's own stream waits included). The
# dispatcher's SM share alone (16 of 132 SMs: 0.14) prices a fifth of that.
OVERLAP_CONTENTION = (21.221 - (22.821 - 3.959)) / 3.959
# SMs: DeepEP 20 (DeepSeek-V3's profile, 20 of 132 SMs; megatron/core/transformer/transformer_config.py:
# 931-933, megatron-core 0.19.2: "historical default 20"); HybridEP 16 (torchtitan 0.3.0
# models/common/config_utils.py:382-384: HYBRIDEP_NUM_SMS_DISPATCH / _COMBINE default 16); NCCL's
# all-to-all: one block per channel; NCCL's default of 32 channels on NVLink-switch systems is not
# sourced here, and the all-to-all is taken at DeepEP's 20 (an assumption: the report names it)
DISPATCHER = {d.name: d for d in (
    Dispatcher("alltoall", "each (token, expert) row to the rank of its expert (NCCL all-to-all)",
               "Megatron (alltoall), torchtitan (standard), OLMo-core, the bundle", 20),
    Dispatcher("allgather", "every token's hidden state to every EP rank (all-gather), the outputs back by "
               "reduce-scatter", "Megatron (allgather); no EP overlap", 20),
    Dispatcher("deepep", "each token once per GPU and once per node holding its experts (NVLink + RDMA "
               "forwarding, DeepEP normal kernels)", "Megatron (flex, deepep backend); Hopper and newer", 20,
               DEEPEP_NVL_SHARE, DEEPEP_RDMA_SHARE),
    Dispatcher("hybridep", "as deepep (NVIDIA's HybridEP kernels in DeepEP's hybrid-ep branch; rates taken "
               "as DeepEP's: no published table)", "Megatron (flex, hybridep backend); Hopper and newer", 16,
               DEEPEP_NVL_SHARE, DEEPEP_RDMA_SHARE))}
DISPATCHERS = tuple(DISPATCHER)

"""Megatron-LM's rules, one table: what a plan for `--target megatron` must keep (`target.*`, read
by the search, `compare` and `export`) and what Megatron checks at start-up (`megatron.*`, read
by the audit on a launch script's flags). Each rule once, citing Megatron's own code:
NVIDIA/Megatron-LM megatron/training/arguments.py (validate_args) at d98e8a6,
megatron/core/parallel_state.py, megatron/core/transformer/transformer_config.py.

A start-up rule whose inputs the config does not give (``None``) is skipped, not guessed.
"""
from __future__ import annotations

from typing import Optional

from planner.engines.findings import degrees, divisors, err, moe, up, warn
from planner.engines.megatron import fp8_rules, recompute
from planner.engines.megatron.pplayout import layout_broken as _layout_broken, per_stage as _per_stage
from planner.engines.shared import add_cp_comm, add_dispatch, add_master, add_order, add_recompute, add_uniform_fold
from planner.layout.divisibility import local_heads, seq_divisor, ulysses_divides
from planner.layout.foreign import ForeignConfig, Finding, exact_div, product
from planner.layout.rules import RuleTable

RULES = RuleTable()
rule = RULES.rule

# TrainSpec fields of a Megatron search (the CLI's flags override them): the distributed optimizer
# = zero1, Megatron FSDP optim_grads / optim_grads_params = zero2 / zero3; Transformer Engine's /
# Megatron-Core's fused elementwise kernels; TE's DotProductAttention prefers its cuDNN fused
# attention on Hopper; vocab-parallel cross entropy keeps 10 bytes per logit; the routing weights
# multiply inside the expert activation (moe/experts.py: permuted_probs into weighted_bias_swiglu_impl /
# the GLU path's `intermediate_parallel * permuted_probs`, before fc2) and the tokens are unpermuted
# without them (moe/token_dispatcher.py:884, megatron-core 0.19.2; since Megatron-LM MR !2668, 'Memory
# efficient token permutation', core 0.13.0): no expert output is kept for their gradient; the routed
# experts run Transformer Engine's grouped linear (TEGroupedMLP with --moe-grouped-gemm): expert_gemm library
DEFAULTS = {"expert_gemm": "library", "master": "bf16+fp32", "recompute_modules": recompute.MODULES, "shardings": ("zero1", "zero2", "zero3"),
            "target": "megatron", "kernels": "fused", "attention_kernel": "fused", "logit_bytes": 10,
            "routed_output_bytes": 0.0,
            # Megatron-LM's FP8 linears are Transformer Engine's (planner.specs.precision)
            "fp8_library": "te", "cp_comm": "p2p", "cp_balance": "headtail",
            "dispatchers": ("alltoall", "allgather", "deepep", "hybridep"), "ep_overlap": True}


# --------------------------------------------------------------------------- plan time

add_order(RULES, "megatron")


def cp_seq_broken(seq: int, cp: int) -> bool:
    """arguments.py:1335-1338: with cp > 1, seq_length % (2 * cp) == 0 (every CP kind: the
    sequence is cut into 2 * cp chunks for the causal load balance; no tp factor)"""
    return seq % cp_seq_divisor(cp) != 0


def cp_seq_divisor(cp: int) -> int:
    """What Megatron's seq_length must be a multiple of under context parallel (target.cp_seq)."""
    return seq_divisor(cp, chunks=2, sequence_parallel=False)


@rule("target.cp_seq", "degree", "cp", "Megatron needs seq % (2 * cp) == 0 when cp > 1")
def _(x, pr):
    s, d = pr.train.seq, cp_seq_divisor(x.cp)
    if cp_seq_broken(s, x.cp):
        return f"Megatron needs 2*cp({d}) | seq({s}): {s} % {d} = {s % d}"


add_master(RULES, "megatron", DEFAULTS["master"])
# --cp-comm-type (megatron/training/arguments.py:3054, default p2p; megatron-core 0.19.2): the ring part
# runs TE's p2p ring ("P2P is async and can be overlapped with attention compute") or allgather ("not
# async, and cannot be overlapped"), core/transformer/transformer_config.py:987-995; a2a / a2a+p2p are
# the Ulysses / hybrid splits. TE cuts the sequence into 2 * cp zig-zag chunks (target.cp_seq).
add_cp_comm(RULES, "Megatron", ("p2p", "ag-te"))


@rule("target.cp_window", "layout", "", "Transformer Engine runs sliding-window layers under ring CP only by all-gather")
def _(L, pr):
    # TE's attn_forward_func_with_cp (NVIDIA/TransformerEngine transformer_engine/pytorch/attention/
    # dot_product_attention/context_parallel.py, the 2.x releases): assert not sliding_window_attn or
    # cp_comm_type in ["a2a", "all_gather"] (TE is not installed here, so the line is not pinned)
    n = (pr.model.layer_attention or ()).count("sliding")
    if n and L.cp_ring > 1 and L.cp_comm == "p2p":
        return (f"Megatron (Transformer Engine) runs the model's {n} sliding-window layers under ring CP only "
                f"with cp_comm ag-te (--cp-comm-type allgather), not p2p")


# --------------------------------------------------------------------------- plan time: the engine's start-up checks
# (megatron-core 0.19.2 and the Transformer Engine kernels it calls; read by the search, `compare` and `export`)

def rank_heads(m, tp: int) -> tuple[int, int]:
    """(query heads, key/value heads) on one TP rank, as megatron/core/transformer/attention.py:353-366
    splits them (megatron-core 0.19.2): with fewer kv groups than tp each rank holds one kv head and
    heads / kv_groups query heads; MLA's keys and values have a head per query head."""
    kv = m.heads if m.attention == "mla" else m.kv_heads
    if kv < tp:
        return m.heads // kv, 1
    return local_heads(m.heads, tp), local_heads(kv, tp)


@rule("target.cp_a2a_heads", "degree", "tp cp_ulysses", "a2a (Ulysses) CP needs local q and kv heads divisible by it")
def _(x, pr):
    # Transformer Engine's AttnFuncWithCPAndQKVOA2A.forward (transformer_engine/pytorch/attention/
    # dot_product_attention/context_parallel.py) asserts q.shape[-2] % cp_size == 0 and
    # k.shape[-2] % cp_size == 0 ("The number of attention heads needs to be divisible by CP size!"),
    # cp_size being the a2a group (cp for a2a, the Ulysses part for a2a+p2p); TE is not installed here,
    # so the line is not pinned
    if x.cp_ulysses > 1 and x.tp and pr.model.heads % x.tp == 0:
        q, kv = rank_heads(pr.model, x.tp)
        if not ulysses_divides(x.cp_ulysses, q, kv):
            return (f"a2a CP over {x.cp_ulysses} ranks needs the heads on a TP rank divisible by it: "
                    f"q {q}, kv {kv} (heads {pr.model.heads}, kv groups {pr.model.kv_heads}, tp {x.tp})")


def arch_major(gpu) -> int | None:
    """The major CUDA compute capability of `gpu` (a GPUSpec; None: not a CUDA GPU)."""
    return gpu.compute_capability[0] if gpu.compute_capability else None


@rule("target.fsdp_tp_cp", "degree", "tp cp sharding", "no Megatron FSDP with TP / CP before Blackwell")
def _(L, pr):
    # megatron/training/arguments.py:1412-1424 (megatron-core 0.19.2): with tp or cp > 1 before Blackwell
    # TP / CP want CUDA_DEVICE_MAX_CONNECTIONS=1 while Megatron FSDP needs it unset (arguments.py:1143);
    # Megatron warns to not combine them. foldplan writes Megatron FSDP for zero2 / zero3
    major = arch_major(pr.cluster.gpu)
    if (L.tp > 1 or L.cp > 1) and L.sharding in ("zero2", "zero3") and major is not None and major < 10:
        return (f"Megatron FSDP ({L.sharding}) with tp({L.tp}) / cp({L.cp}) on {pr.cluster.gpu.name} (sm{major}0): "
                f"Megatron warns against it before Blackwell (CUDA_DEVICE_MAX_CONNECTIONS conflict)")


fp8_rules.add(RULES)
narrow = fp8_rules.narrow         # EngineConstraints.narrow: the search's recompute modules under delayed scaling


@rule("target.fp8_param_gather", "degree", "sharding", "--fp8-param-gather needs the distributed optimizer or an FSDP")
def _(L, pr):
    # megatron/training/arguments.py:1060-1062 (megatron-core 0.19.2): fp8_param_gather asserts
    # use_distributed_optimizer or torch FSDP2 or Megatron FSDP
    if pr.train.fp8_param_gather and pr.train.precision != "bf16" and L.sharding == "none":
        return "--fp8-param-gather with sharding none (DDP): Megatron asserts the distributed optimizer or an FSDP"


add_uniform_fold(RULES, "megatron")
add_recompute(RULES, recompute.form)


@rule("target.recompute_layers", "recompute", "", "block recompute takes the layers the plan prices")
def _(L, pr):
    # megatron/core/recompute.py:167-181 (megatron-core 0.19.2): the first N layers of each chunk
    return recompute.block_mismatch(L, pr.model.moe_layers())


# --moe-token-dispatcher-type alltoall | allgather | flex, the flex backend deepep | hybridep
# (transformer_config.py:869, megatron-core 0.19.2); the 1F1B A2A overlap and delayed wgrad
add_dispatch(RULES, "megatron", DEFAULTS["dispatchers"], True)


@rule("target.flex_gpu", "layout", "", "DeepEP / HybridEP kernels need Hopper or newer")
def _(L, pr):
    # deepseek-ai/DeepEP README, Requirements: "Hopper GPUs (may support more architectures or devices
    # later)"; HybridEP ships in the same library. Megatron itself does not check it
    major = arch_major(pr.cluster.gpu)
    if L.dispatcher in ("deepep", "hybridep") and major is not None and major < 9:
        return f"the {L.dispatcher} dispatcher needs Hopper or newer; {pr.cluster.gpu.name} is sm{major}0"


def overlap_broken(L, model) -> Optional[str]:
    """Why Megatron refuses --overlap-moe-expert-parallel-comm / --delay-wgrad-compute for this layout
    (megatron/core/transformer/transformer_config.py, megatron-core 0.19.2), or None."""
    if L.delay_wgrad and not L.ep_overlap:
        return "delay_wgrad needs ep_overlap (transformer_config.py:2750-2752)"
    if not L.ep_overlap:
        return None
    ep = max(s.ep for s in L.stages)
    why = [("ep > 1", ep <= 1, "2680-2682"),
           (f"an alltoall or flex dispatcher, not {L.dispatcher}", L.dispatcher == "allgather", "2683-2686"),
           ("no full recompute", any(s.recompute_full for s in L.stages), "2688-2690"),
           ("no moe in the recompute modules", any(s.recompute_selective and "moe" in s.recompute_modules
                                                   for s in L.stages), "2697-2699"),
           (f"virtual pipeline stages with pp({L.pp}) > 1", L.pp > 1 and L.vpp <= 1, "2674-2678"),
           (f"at most one MTP layer, not {model.mtp_layers}", model.mtp_layers > 1, "2710-2713")]
    bad = [f"{what} (transformer_config.py:{lines})" for what, broken, lines in why if broken]
    return "ep_overlap needs " + "; ".join(bad) if bad else None


@rule("target.ep_overlap_rules", "layout", "", "Megatron's EP A2A overlap: its start-up checks")
def _(L, pr):
    return overlap_broken(L, pr.model)


# --------------------------------------------------------------------------- start-up

@rule("megatron.world_divisible", "startup", "", "world is a multiple of tp * pp * cp")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    if world is not None and world % (tp * pp * cp):
        return err("megatron.world_divisible",
                   f"{c.where('world', 'tp')}: world({world}) is not divisible by "
                   f"tp({tp})*pp({pp})*cp({cp})={tp * pp * cp}",
                   f"use a world size that is a multiple of {tp * pp * cp}, or change tp/pp/cp so "
                   f"their product divides {world}")


@rule("megatron.expert_world_divisible", "startup", "", "world is a multiple of etp * ep * pp")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    if world is not None and world % (etp * ep * pp):
        return err("megatron.expert_world_divisible",
                   f"{c.where('ep', 'world')}: world({world}) is not divisible by "
                   f"etp({etp})*ep({ep})*pp({pp})={etp * ep * pp}",
                   f"pick ep so that etp*ep*pp divides {world} "
                   f"(ep in {[d for d in divisors(world // (etp * pp)) if d <= 256]})"
                   if world % (etp * pp) == 0 else f"make etp*pp divide {world}")


@rule("megatron.cp_seq_divisible", "startup", "", "target.cp_seq, read from a config")
def _(c: ForeignConfig) -> Optional[Finding]:
    cp = c.cp or 1
    d = cp_seq_divisor(cp)
    # ring CP is left to planner.layout's cp.ring_seq, which states the same arithmetic (cp_ring = cp)
    # and which the audit reports once; the other kinds need Megatron's own 2*cp
    if c.cp_kind != "ring" and c.seq is not None and cp_seq_broken(c.seq, cp):
        return err("megatron.cp_seq_divisible",
                   f"{c.where('seq')}: seq_length({c.seq}) is not divisible by 2*cp({cp})={d} "
                   f"(zig-zag context parallel cuts each sequence into 2*cp chunks)",
                   f"set --seq-length {up(c.seq, d)} (next multiple of {d}) or pad the data")


@rule("megatron.ep_without_experts", "startup", "", "ep > 1 needs --num-experts")
def _(c: ForeignConfig) -> Optional[Finding]:
    ep = c.ep or 1
    if ep > 1 and not moe(c).get("experts"):
        return err("megatron.ep_without_experts", f"{c.where('ep')}: ep({ep}) > 1 but --num-experts is not set",
                   "set --num-experts, or drop --expert-model-parallel-size")


@rule("megatron.pp_layers_divisible", "startup", "", "the layers split evenly over the pipeline stages")
def _(c: ForeignConfig) -> Optional[Finding]:
    layers, pp = c.model.get("layers"), c.pp or 1
    if layers is None:
        return None
    layout = c.extra.get("pp_layout")
    if layout:
        # arguments.py:907-917 (megatron-core 0.19.2): with a layout no divisibility check runs (the
        # num_layers % pp checks of lines 951-964 sit in the other branch); the layout is checked
        why = _layout_broken(c, layout, layers)
        return err("megatron.pp_layers_divisible", why, "place every layer once: E first, L last, num_layers "
                   "t entries and mtp_num_layers m entries after them") if why else None
    why, _ = _per_stage(c, layers, pp)
    if why is None:
        return None
    if c.first_stage_layers is not None or c.last_stage_layers is not None:
        fix = "change --decoder-first/last-pipeline-num-layers so the rest divides evenly"
    else:
        counted = layers + int(bool(c.extra.get("account_embedding"))) + int(bool(c.extra.get("account_loss")))
        fix = (f"use pp in {[d for d in divisors(counted) if d <= 64]}, or set "
               f"--decoder-first/last-pipeline-num-layers for an uneven split")
    return err("megatron.pp_layers_divisible", why, fix)


@rule("megatron.vpp_layers_divisible", "startup", "", "a stage's layers split evenly into virtual stages")
def _(c: ForeignConfig) -> Optional[Finding]:
    layers, vpp_layers = c.model.get("layers"), c.extra.get("vpp_layers")
    if layers is None or not vpp_layers:
        return None
    per_stage = _per_stage(c, layers, c.pp or 1)[1]
    if per_stage is not None and per_stage % vpp_layers:
        return err("megatron.vpp_layers_divisible",
                   f"{c.where('vpp_layers')}: layers per pipeline stage {per_stage} is not divisible by "
                   f"num_layers_per_virtual_pipeline_stage({vpp_layers})",
                   f"use a virtual stage size in {divisors(per_stage)}")


def _interleaved(c: ForeignConfig) -> bool:
    """Virtual stages > 1: Megatron derives vpp = layers per stage / --num-layers-per-virtual-pipeline-stage
    and drops a vpp of 1 (no interleaving; megatron/training/arguments.py:936-945, megatron-core 0.19.2)."""
    layers, vpp_layers = c.model.get("layers"), c.extra.get("vpp_layers")
    if layers is None:
        return False
    if vpp_layers:
        per_stage = _per_stage(c, layers, c.pp or 1)[1]
        return per_stage is None or per_stage // vpp_layers > 1
    return (c.vpp or 1) > 1


@rule("megatron.vpp_needs_pp", "startup", "", "the interleaved schedule needs pp >= 2")
def _(c: ForeignConfig) -> Optional[Finding]:
    pp = c.pp or 1
    if _interleaved(c) and pp < 2:
        return err("megatron.vpp_needs_pp",
                   f"{c.where('vpp_layers', 'pp')}: the interleaved schedule needs pipeline parallelism; pp is {pp}",
                   "drop --num-layers-per-virtual-pipeline-stage, or use more pipeline stages")


@rule("megatron.vpp_pp2", "startup", "", "interleaving over pp = 2 needs the p2p overlap")
def _(c: ForeignConfig) -> Optional[Finding]:
    # arguments.py:966-975 (megatron-core 0.19.2): with virtual stages, pp = 2 needs overlap_p2p_comm, which
    # is on unless --no-overlap-p2p-communication (arguments.py:2965); the reader's `overlap_p2p` is False after that switch
    if _interleaved(c) and (c.pp or 1) == 2 and c.extra.get("overlap_p2p") is False:
        return err("megatron.vpp_pp2",
                   f"{c.where('vpp_layers', 'pp')}: interleaving over pp(2) with --no-overlap-p2p-communication: "
                   f"Megatron requires pp > 2 then", "drop --no-overlap-p2p-communication, or use pp > 2")


@rule("megatron.hierarchical_cp", "startup", "", "a2a+p2p CP needs hierarchical sizes multiplying to cp")
def _(c: ForeignConfig) -> Optional[Finding]:
    cp, hier = c.cp or 1, c.extra.get("hierarchical_cp_sizes")
    if c.cp_kind != "hybrid":
        return None
    if not hier:
        return err("megatron.hierarchical_cp",
                   f"{c.where('cp_kind')}: --cp-comm-type a2a+p2p needs --hierarchical-context-parallel-sizes",
                   f"add --hierarchical-context-parallel-sizes A R with A*R = cp({cp})")
    if product(*hier) != cp:
        return err("megatron.hierarchical_cp",
                   f"{c.where('hierarchical_cp_sizes')}: hierarchical context parallel sizes "
                   f"{'*'.join(map(str, hier))}={product(*hier)} != cp({cp})",
                   f"make the sizes multiply to {cp}")


@rule("megatron.sequence_parallel_tp1", "startup", "", "--sequence-parallel is off with tp = 1")
def _(c: ForeignConfig) -> Optional[Finding]:
    if c.sequence_parallel and (c.tp or 1) == 1:
        return warn("megatron.sequence_parallel_tp1",
                    f"{c.where('sequence_parallel')}: --sequence-parallel with tp(1): Megatron turns it off",
                    "drop --sequence-parallel, or use tp > 1")


@rule("megatron.moe_tp_needs_sp", "startup", "", "expert parallelism with tp > 1 needs --sequence-parallel")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, ep = c.tp or 1, c.ep or 1
    if ep > 1 and tp > 1 and not c.sequence_parallel:
        return err("megatron.moe_tp_needs_sp",
                   f"{c.where('ep', 'tp')}: expert parallelism ep({ep}) with tensor parallelism tp({tp}) needs "
                   f"--sequence-parallel (transformer_config.py raises ValueError)",
                   "add --sequence-parallel")


@rule("megatron.moe_layer_freq_length", "startup", "", "--moe-layer-freq lists one entry per layer")
def _(c: ForeignConfig) -> Optional[Finding]:
    freq, layers = moe(c).get("layer_freq"), c.model.get("layers")
    if isinstance(freq, list) and layers is not None and len(freq) != layers:
        return err("megatron.moe_layer_freq_length",
                   f"{c.where('layer_freq')}: --moe-layer-freq lists {len(freq)} layers "
                   f"({len(freq) - sum(freq)} dense + {sum(freq)} MoE) but num_layers is {layers}",
                   f"give one entry per layer: {layers} entries")


def _batch(c: ForeignConfig) -> Optional[tuple[int, int]]:
    """(micro_batch * dp, micro-batches per step) when the config gives all three."""
    if not (c.dp and c.micro_batch and c.global_batch):
        return None
    mb_dp = c.micro_batch * c.dp
    return mb_dp, c.global_batch // mb_dp


@rule("megatron.global_batch_divisible", "startup", "", "global batch is a multiple of micro batch * dp")
def _(c: ForeignConfig) -> Optional[Finding]:
    got = _batch(c)
    if got and c.global_batch % got[0]:
        return err("megatron.global_batch_divisible",
                   f"{c.where('global_batch')}: global_batch_size({c.global_batch}) is not divisible by "
                   f"micro_batch_size({c.micro_batch})*dp({c.dp})={got[0]}",
                   f"use --global-batch-size {up(c.global_batch, got[0])} (next multiple of {got[0]})")


@rule("megatron.microbatches_lt_pp", "startup", "", "at least pp micro-batches per step")
def _(c: ForeignConfig) -> Optional[Finding]:
    got, pp = _batch(c), c.pp or 1
    if got and c.global_batch % got[0] == 0 and pp > 1 and got[1] < pp:
        return warn("megatron.microbatches_lt_pp",
                    f"{c.where('global_batch')}: {got[1]} micro-batches per step = global({c.global_batch}) / "
                    f"(micro({c.micro_batch})*dp({c.dp})) is less than pp({pp}): the pipeline never fills",
                    f"raise --global-batch-size to at least {pp * c.micro_batch * c.dp}")


@rule("megatron.interleaved_microbatches", "startup", "", "interleaving wants pp | micro-batches")
def _(c: ForeignConfig) -> Optional[Finding]:
    got, pp = _batch(c), c.pp or 1
    if got and c.global_batch % got[0] == 0 and pp > 1 and got[1] >= pp and (c.vpp or 1) > 1 and got[1] % pp:
        return warn("megatron.interleaved_microbatches",
                    f"{c.where('global_batch')}: interleaved schedule with {got[1]} micro-batches, not a multiple "
                    f"of pp({pp}) (older Megatron-LM refuses this)",
                    f"use a global batch giving a multiple of {pp} micro-batches")

"""torchtitan's rules, one table: what a plan for `--target torchtitan` must keep (`target.*`, read
by the search, `compare` and `export`) and what torchtitan checks at start-up (`torchtitan.*`, read
by the audit on a job TOML). Each rule once, citing torchtitan's own code at 238fa99:
torchtitan/distributed/parallel_dims.py (ParallelDims._validate), torchtitan/config/job_config.py,
torchtitan/distributed/context_parallel.py, torchtitan/models/llama3/infra/parallelize.py.

A start-up rule whose inputs the config does not give (``None``) is skipped, not guessed.
"""
from __future__ import annotations

from typing import Optional

from planner.engines.findings import degrees, divisors, err, up, warn
from planner.engines.shared import add_cp_comm, add_dispatch, add_master, add_order, add_recompute, add_uniform_fold
from planner.engines.torchtitan import models, recompute
from planner.layout.divisibility import seq_divisor
from planner.layout.foreign import Finding, ForeignConfig
from planner.layout.rules import RuleTable
from planner.specs.kinds import SHARDING

RULES = RuleTable()
rule = RULES.rule

# TrainSpec fields of a torchtitan search (the CLI's flags override them). The stage model searches
# full recompute only: torchtitan has no recompute modules, and its per-op AC (recompute.SAC, every
# layer) is one of the forms planner.solve.targets.realise tries; torch.compile on the model, as the
# exported TOML sets it (fused elementwise kernels); eager F.cross_entropy on .float() logits: 12 bytes
# each. torchtitan 0.3.0 runs language models' attention in FlexAttention (models/common/
# config_utils.py:83-101: "sdpa is no longer supported for language models"; llama3 model_registry
# attn_backend="flex", models/llama3/__init__.py:371) and its CP all-gathers K/V for it
# (distributed/context_parallel/api.py:57-78): planner.specs.cp_impl ag-flex, head-tail balanced
# (config/configs.py:235); its MoE balances by the loss-free expert bias (load_balance_coeff 1e-3,
# models/common/moe.py:369, 0.3.0); its registry configs and foldplan's 0.3 export run the loss as
# ChunkedLossWrapper (lm_head + loss chunk by chunk, components/loss.py:567): loss_logits chunked;
# the combine multiplies the expert output, cast to fp32, by the routing scores
# (models/common/token_dispatcher.py:159 and :617, 0.3.0: `routed_output_RD.to(torch.float32) * ...`):
# the fp32 copy is kept for the scores' gradient, 4 bytes per element; the routed experts run
# torch._grouped_mm (models/common/moe.py:95-120, 0.3.0: w1, w3 and w2 each one grouped GEMM)
DEFAULTS = {"routed_output_bytes": 4.0, "expert_gemm": "torch",
            "master": "fp32", "recompute_modules": (), "shardings": ("zero2", "zero3"), "cp_kinds": ("ring",),
            "target": "torchtitan", "kernels": "fused", "attention_kernel": "flex", "loss_logits": "chunked",
            "cp_comm": "ag-flex", "cp_balance": "headtail", "balancing": "aux-free",
            "fp8_library": "torchao",   # torchtitan's Float8 converters are torchao's
            # debug.moe_force_load_balance routes round robin (models/common/moe.py:225, 0.3.0)
            "forced_routing": "round-robin"}


# --------------------------------------------------------------------------- plan time

add_order(RULES, "torchtitan")

# the linear-layer precisions torchtitan 0.3.0 builds: its Float8LinearConverter has the rowwise recipes only
# and no float8 all-gather (components/quantization/float8.py:57-60: tensorwise is gone), and
# MXFP8LinearConverter; delayed and blockwise scaling are Transformer Engine's (no torchtitan key)
PRECISIONS = ("bf16", "fp8-rowwise", "mxfp8")


def precision_unsupported(train) -> Optional[str]:
    """Why torchtitan 0.3 cannot run the planned precision, or None."""
    if train.precision not in PRECISIONS:
        return (f"precision {train.precision}: 0.3 runs {', '.join(PRECISIONS)} (components/quantization/"
                f"float8.py:57-60 has no tensorwise recipe; delayed and blockwise scaling are Transformer "
                f"Engine's){'; 0.2 ran tensorwise: export --to torchtitan-0.2' if train.precision == 'fp8-tensorwise' else ''}")
    if train.precision != "bf16" and train.fp8_param_gather:
        return f"fp8_param_gather with {train.precision}: 0.3 has no float8 all-gather (float8.py:57-60)"
    return None


@rule("target.model", "degree", "world", "torchtitan builds the model from its registry, at the planned sequence")
def _(x, pr):
    # the 0.3 export starts from the registry's model (models.REGISTRY); decoder.py:163-172 refuses a
    # seq_len above the flavour's RoPE maximum
    why = models.unsupported(pr)
    if why:
        return f"torchtitan 0.3 cannot run it: {why}"


@rule("target.precision", "degree", "world", "torchtitan 0.3 runs the planned precision")
def _(x, pr):
    # (the 0.2 TOML, on request, has its own recipes: export --to torchtitan-0.2 does not keep this rule)
    why = precision_unsupported(pr.train)
    if why:
        return f"torchtitan 0.3 cannot run it: {why}"


@rule("target.tp_kv_heads", "degree", "tp", "tp divides the heads and the kv heads (no kv-head replication)")
def _(x, pr):
    # 0.3.0 models/common/decoder.py:143-158: "tensor_parallel_degree ({tp}) must divide n_kv_heads"
    m = pr.model
    kv = m.kv_heads if m.attention == "gqa" else m.heads
    if x.tp > 1 and (m.heads % x.tp or kv % x.tp):
        return (f"torchtitan 0.3 needs tp({x.tp}) to divide the heads({m.heads}) and the kv heads({kv}) "
                f"(models/common/decoder.py:143-158: no kv-head replication)")


@rule("target.seq", "degree", "cp tp", "seq_len divides over 2 * cp (cp > 1) times tp (sequence parallel)")
def _(x, pr):
    # 0.3.0 trainer.py:306-315: seq_len % ((tp if enable_sequence_parallel else 1) * (2 * cp if cp > 1
    # else 1)); planner.layout's cp.seq_tp asks only cp * tp, the zig-zag halves are torchtitan's
    t = pr.train
    d = seq_divisor(x.cp, x.tp, chunks=2, sequence_parallel=t.sequence_parallel)
    if t.seq % d:
        return f"torchtitan 0.3 needs seq_len({t.seq}) divisible by {d} (2*cp({x.cp}) if cp > 1, times tp({x.tp}) under SP)"


@rule("target.cp_kind", "degree", "cp cp_kind", "torchtitan's context parallel splits the sequence, not heads")
def _(x, pr):
    # 0.3.0 distributed/context_parallel/api.py:57-109: FlexAttention with K/V all-gathered (or SDPA's
    # ring for non-LM models); no Ulysses. The layout's ring kind carries its cp_comm (target.cp_comm)
    if x.cp > 1 and x.cp_kind != "ring":
        return f"torchtitan runs ring context parallel only, not cp_kind {x.cp_kind}"


@rule("target.sharding", "degree", "sharding tp cp pp", "the engine runs this data-parallel sharding")
def _(x, pr):
    # FSDP2 over dp_shard x cp (parallel_dims.py:334 fsdp_enabled = dp_shard or cp): zero2 / zero3 by
    # fsdp_reshard_after_forward never / always, no ZeRO-1; DDP only on a 1-D mesh
    # (models/llama3/infra/parallelize.py:148-151 "DDP has not supported > 1D parallelism")
    if x.sharding != "none" and not SHARDING[x.sharding].grads:       # FSDP2 reduce-scatters gradients
        return "torchtitan has no ZeRO-1 (FSDP2 shards gradients too: zero2 or zero3)"
    if x.sharding == "none" and x.tp * x.cp * x.pp > 1:
        return (f"torchtitan runs DDP (sharding none) on a 1-D mesh only: tp({x.tp}) * cp({x.cp}) * pp({x.pp}) "
                f"= {x.tp * x.cp * x.pp} != 1")


add_master(RULES, "torchtitan", (DEFAULTS["master"], "bf16"))   # configs.py TrainingConfig.dtype (0.3.0)
add_cp_comm(RULES, "torchtitan 0.3", ("ag-flex",), ("headtail", "none"))


def etp_broken(tp: int, ep: int, etp: int) -> bool:
    """A TOML's expert TP as 0.2.2 checks it (parallel_dims.py:58-59 at 238fa99): with ep > 1, "Currently
    we only support ETP=TP or ETP=1" (the start-up rule of a 0.2 config)."""
    return ep > 1 and etp not in (1, tp)


def etp_target_broken(ep: int, etp: int) -> bool:
    """The target (the current release) has no expert TP with ep > 1: torchtitan 0.3.0
    distributed/parallel_dims.py:279, 338-339 put the experts on the sparse mesh (pp, dp_replicate,
    efsdp, ep), efsdp = dp_shard * cp * tp / ep, so EP folds over the TP ranks too and etp = 1."""
    return ep > 1 and etp != 1


@rule("target.etp", "fold", "tp etp ep", "torchtitan 0.3 has no expert TP: etp = 1 with ep > 1")
def _(x, pr):
    if pr.model.moe is None:
        return None
    if etp_target_broken(x.ep, x.etp):
        return f"torchtitan 0.3 has no expert-TP degree: etp({x.etp}) must be 1 when ep({x.ep}) > 1"
    # job_config.py:464: expert_tensor_parallel_degree has no effect when ep = 1, where the
    # experts follow the dense TP; a plan saying otherwise is not what torchtitan runs (a
    # config may set it: torchtitan ignores it, so the start-up rule below does not fire)
    if x.ep == 1 and x.etp != x.tp:
        return f"torchtitan with ep = 1 splits the experts as the dense TP: etp({x.etp}) != tp({x.tp})"


@rule("target.mtp", "degree", "cp pp", "torchtitan runs multi-token prediction without PP or CP")
def _(x, pr):
    # torchtitan 0.3.0 models/deepseek_v3/mtp.py:199-209: "MTP does not support pipeline parallelism
    # yet" / "... context parallelism yet" (0.2.2 has no MTP at all: its export refuses MTP models)
    if pr.model.mtp_layers and (x.pp > 1 or x.cp > 1):
        return (f"torchtitan runs {pr.model.name}'s {pr.model.mtp_layers} MTP module(s) only without PP or CP "
                f"(pp {x.pp}, cp {x.cp})")


@rule("target.attention_layers", "degree", "world", "torchtitan builds no sparse-attention indexer")
def _(x, pr):
    # torchtitan 0.3.0's models (models/deepseek_v3, gpt_oss, ...) have no DeepSeek-V3.2 indexer: the
    # word occurs only in experiments/transformers_modeling_backend
    if pr.model.sparse_attention_topk:
        return (f"torchtitan 0.3 builds no sparse-attention indexer (top-{pr.model.sparse_attention_topk}): "
                f"plan {pr.model.name} for Megatron (--target megatron)")


add_uniform_fold(RULES, "torchtitan")
# torchtitan 0.3.0 has DeepEP / HybridEP dispatchers (models/common/config_utils.py:360-412), chosen by
# the model registry's moe_comm_backend argument (models/qwen3/__init__.py:146), not by a config
# override foldplan's export can write: its plans use the standard all-to-all; no EP overlap
add_dispatch(RULES, "torchtitan", ("alltoall",), False)
add_recompute(RULES, recompute.form)


# --------------------------------------------------------------------------- start-up

@rule("torchtitan.world_product", "startup", "", "dp_replicate * dp_shard * cp * tp * pp = WORLD_SIZE")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    rep, shard = c.extra.get("dp_replicate", 1), c.extra.get("dp_shard", -1)
    if world is None:
        return None
    if shard == -1:
        if world % (rep * cp * tp * pp):
            return err("torchtitan.world_product",
                       f"{c.where('tp', 'pp')}: data_parallel_shard_degree=-1 but WORLD_SIZE({world}) is not divisible "
                       f"by dp_replicate({rep})*cp({cp})*tp({tp})*pp({pp})={rep * cp * tp * pp}",
                       f"make the fixed degrees' product divide {world}")
    elif rep * shard * cp * tp * pp != world:
        return err("torchtitan.world_product",
                   f"{c.where('dp_shard', 'tp')}: dp_replicate({rep}) * dp_shard({shard}) * cp({cp}) * tp({tp}) * "
                   f"pp({pp}) = {rep * shard * cp * tp * pp} != WORLD_SIZE({world})",
                   "set data_parallel_shard_degree = -1 to use the leftover ranks")


@rule("torchtitan.etp_one_or_tp", "startup", "", "target.etp, read from a config")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    if etp_broken(tp, ep, etp):
        return err("torchtitan.etp_one_or_tp",
                   f"{c.where('etp')}: expert_tensor_parallel_degree({etp}) must be 1 or "
                   f"tensor_parallel_degree({tp})",
                   f"set expert_tensor_parallel_degree to 1 or {tp}")


def _ep_region(c: ForeignConfig) -> Optional[tuple]:
    """With ep > 1 and dp_shard given: (ranks EP may use, how they are named, cp*tp part, named)."""
    tp, pp, cp, ep, etp, world = degrees(c)
    shard = c.extra.get("dp_shard", -1)
    if ep <= 1 or shard == -1:
        return None
    region = (shard * cp * tp, f"dp_shard({shard})*cp({cp})*tp({tp})") if etp == 1 \
        else (shard * cp, f"dp_shard({shard})*cp({cp})")
    borrow = (cp * tp, f"cp({cp})*tp({tp})") if etp == 1 else (cp, f"cp({cp})")
    return region, borrow


@rule("torchtitan.ep_divides_region", "startup", "", "ep divides the ranks EP reuses")
def _(c: ForeignConfig) -> Optional[Finding]:
    got = _ep_region(c)
    ep, etp = c.ep or 1, c.etp or 1
    if got and got[0][0] % ep:
        (region, shown), _ = got
        return err("torchtitan.ep_divides_region",
                   f"{c.where('ep')}: ep({ep}) must divide {shown} = {region} (EP reuses those ranks"
                   f"{'; with etp = tp it may not take tp ranks' if etp != 1 else ''})",
                   f"use ep in {[d for d in divisors(region) if d > 1]}")


@rule("torchtitan.ep_borrows_cp", "startup", "", "ep takes all of the cp (and tp) ranks")
def _(c: ForeignConfig) -> Optional[Finding]:
    got = _ep_region(c)
    ep = c.ep or 1
    if got and ep % got[1][0]:
        _, (borrow, bshown) = got
        return warn("torchtitan.ep_borrows_cp",
                    f"{c.where('ep')}: ep({ep}) is not a multiple of {bshown} = {borrow}; torchtitan versions "
                    f"with expert_tensor_parallel_degree require EP to take all of those ranks",
                    f"use ep a multiple of {borrow}")


@rule("torchtitan.seq_divisible", "startup", "", "seq_len divides over 2 * cp * tp (tp without cp)")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, cp = c.tp or 1, c.cp or 1
    sp = c.sequence_parallel is not False
    if c.seq is not None and (cp > 1 or tp > 1):
        d = seq_divisor(cp, tp, chunks=2, sequence_parallel=sp)
        shown = (f"2*cp({cp})" if cp > 1 else "") + ("*" if cp > 1 and sp else "") + (f"tp({tp})" if sp else "")
        if c.seq % d:
            return err("torchtitan.seq_divisible",
                       f"{c.where('seq')}: seq_len({c.seq}) is not divisible by {shown}={d}",
                       f"set seq_len = {up(c.seq, d)}")


@rule("torchtitan.pp_microbatch", "startup", "", "the local batch is a multiple of the pipeline micro-batch")
def _(c: ForeignConfig) -> Optional[Finding]:
    local = c.extra.get("local_batch")
    if (c.pp or 1) > 1 and local and c.micro_batch and local % c.micro_batch:
        return err("torchtitan.pp_microbatch",
                   f"{c.where('micro_batch')}: local_batch_size({local}) is not divisible by "
                   f"pipeline_parallel_microbatch_size({c.micro_batch})",
                   f"use a local batch that is a multiple of {c.micro_batch}")


# --------------------------------------------------------------------------- torchtitan 0.2.2 only

# foldplan models whose torchtitan 0.2.2 flavour runs FlexAttention (models/deepseek_v3/__init__.py:75,
# 100, 127, 154: attn_type="flex"), which 0.2.2's parallelize refuses with CP
# (models/deepseek_v3/infra/parallelize.py:67-72). 0.3.0 runs FlexAttention with CP (K/V all-gathered),
# so this is no target rule: the 0.2 export refuses it. (DeepSeek-V3 with CP is no torchtitan plan in any
# case: target.mtp, its MTP module.)
FLEX_IN_0_2 = frozenset({"deepseek-v3"})


def refused_by_0_2(problem, layout) -> Optional[str]:
    """Why torchtitan 0.2.2 refuses a plan the torchtitan target allows, or None."""
    if problem.model.mtp_layers:
        return (f"torchtitan 0.2.2 has no multi-token prediction (models/deepseek_v3 builds none): "
                f"{problem.model.name}'s {problem.model.mtp_layers} MTP module(s) need 0.3")
    if layout.cp > 1 and problem.model.name in FLEX_IN_0_2:
        return (f"torchtitan 0.2.2 runs {problem.model.name} with FlexAttention, and its context parallel "
                f"supports SDPA only (models/deepseek_v3/infra/parallelize.py:67-72): cp {layout.cp} needs 0.3")
    return None

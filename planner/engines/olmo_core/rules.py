"""OLMo-core's rules, one table: what a plan for `--target olmo-core` must keep (`target.*`, read by
the search, `compare` and `export`) and what OLMo-core checks at start-up (`olmo-core.*`, read by
the audit on a training script). Each rule cites OLMo-core's own code at ai2-olmo-core 3.0.0
(paths relative to site-packages/olmo_core/).

OLMo-core runs a plan on one of two train modules:
  dense models: TransformerTrainModule (train/train_module/transformer/train_module.py) on FSDP2
    (dp_config name "fsdp"), with TP, ring or Ulysses CP and PP; its mesh is build_world_mesh's
    (pp, dp, cp, tp) (distributed/parallel/__init__.py:212-249);
  MoE models: OLMoDDPTrainModule (train/train_module/transformer/ddp_train_module.py), the MoE
    parallel folding: a dense (pp, dp, cp) mesh and a MoE mesh (pp, ep_dp, ep_mp) that re-reads the
    dense dp x cp ranks of each stage as ep_dp x ep_mp (ddp_train_module.py:503-585), on DDP with the
    fused distributed optimizer (fp32 master copies, optim/moe_optimizer.py:483), no tensor
    parallelism (ddp_train_module.py:181-185) and no float8 (ddp_train_module.py:207-208).

A start-up rule whose inputs the config does not give (``None``) is skipped, not guessed.
"""
from __future__ import annotations

from typing import Optional

from planner.engines.findings import degrees, err
from planner.engines.olmo_core import recompute
from planner.engines.shared import add_cp_comm, add_dispatch, add_order, add_recompute, add_uniform_fold
from planner.layout.divisibility import local_heads, ulysses_divides
from planner.layout.foreign import Finding, ForeignConfig
from planner.layout.rules import RuleTable

RULES = RuleTable()
rule = RULES.rule
ENGINE = "OLMo-core"
VERSION = "ai2-olmo-core 3.0.0"

# TrainSpec fields of an OLMo-core search (the CLI's flags override them); `model_defaults` adds
# what depends on the train module the model runs on and on the GPU. Ring (zig-zag) or Ulysses CP
# (TransformerContextParallelConfig.zig_zag / .ulysses, train/train_module/transformer/config.py:296-322);
# torch.compile on (compile_model); its default LM loss casts the logits to fp32 before
# F.cross_entropy (nn/functional/cross_entropy_loss.py: logits.float()): 12 bytes per logit. Its MoE
# scatter weights the bf16 expert output and keeps it for the weights' gradient (ops/moe.py:75-76,
# ScatterOp.forward: save_for_backward(..., x) when the weights need a gradient): 2 bytes per element.
# Its routed experts run the grouped_gemm package's gmm (nn/moe/mlp.py:20-22): expert_gemm library.
DEFAULTS = {"routed_output_bytes": 2.0, "expert_gemm": "library",
            "recompute_modules": (), "cp_kinds": ("ring", "ulysses"), "target": "olmo-core",
            "kernels": "fused", "attention_kernel": "fused", "logit_bytes": 12, "cp_comm": "p2p", "cp_balance": "headtail",
            "fp8_library": "torchao"}   # OLMo-core's float8_config is torchao's


def model_defaults(model, gpu=None) -> dict:
    """Master and sharding of the train module `model` runs on: MoE -> OLMoDDPTrainModule (DDP with
    the distributed optimizer: bf16 weights, fp32 master copies sharded over dp, moe_optimizer.py:483);
    dense -> TransformerTrainModule on FSDP2 (fp32 sharded parameters, bf16 compute: zero3). The
    export runs attention in OLMo-core's flash_2 backend (FlashAttention-2; ring CP through
    ring-flash-attn): costed with `gpu`'s FlashAttention-2 curve where its preset has one."""
    out = {"master": "bf16+fp32", "shardings": ("zero1",)} if model.moe is not None else \
        {"master": "fp32", "shardings": ("zero3",)}
    if gpu is not None and gpu.flash2_attention_efficiency is not None:
        out["attention_kernel"] = "flash2"
    return out


# --------------------------------------------------------------------------- plan time

add_order(RULES, ENGINE)      # build_world_mesh: pp, dp, cp, tp (distributed/parallel/__init__.py:212-249)
# ring CP = the zig_zag strategy: ring_flash_attn.zigzag_ring_flash_attn_func, a p2p ring overlapped with
# FlashAttention-2 blocks (ai2-olmo-core 3.0.0 nn/attention/flash_attn_api.py:324-353; the export writes zig_zag)
add_cp_comm(RULES, "OLMo-core", ("p2p",))


@rule("target.cp_window", "layout", "", "OLMo-core's zig_zag ring CP has no sliding-window attention")
def _(L, pr):
    # dispatch_ring_flash_attn (ai2-olmo-core 3.0.0 nn/attention/flash_attn_api.py:333-337): window_size
    # other than (-1, -1) with the zig_zag strategy raises "SWA is currently not supported"
    n = (pr.model.layer_attention or ()).count("sliding")
    if n and L.cp_ring > 1:
        return f"OLMo-core's zig_zag ring CP does not run the model's {n} sliding-window layers (cp ring part {L.cp_ring})"


def model_unsupported(m) -> Optional[str]:
    """Why OLMo-core (as foldplan exports it) cannot build model `m`, or None. OLMo-core has no
    multi-head latent attention (olmo_core/nn/attention) and no MTP module (nn/transformer); the
    export builds dense models with TransformerConfig.llama_like (RMSNorm, SwiGLU, no biases:
    nn/transformer/config.py:1647) and MoE models with the MoE-v2 builder, every block a
    full-attention MoE block with a softmax router and at most one shared MLP (nn/moe/v2/qwen.py:295)."""
    if m.attention == "mla":
        return "OLMo-core has no multi-head latent attention (MLA)"
    if m.mtp_layers:
        return f"OLMo-core has no multi-token-prediction modules (mtp_layers {m.mtp_layers})"
    if m.linear_bias:
        return "linear biases (the llama_like / MoE-v2 blocks have none)"
    if m.norm != "rmsnorm":
        return f"norm {m.norm} (the llama_like / MoE-v2 blocks use RMSNorm)"
    if not m.gated:
        return "an ungated FFN (the llama_like / MoE-v2 feed-forward is SwiGLU)"
    moe = m.moe
    if moe is None:
        return None
    if moe.first_dense_layers or moe.layer_freq not in (1, [1] * m.layers):
        return "dense layers among the MoE layers (the MoE-v2 builder makes every block an MoE block)"
    if moe.router_score != "softmax" or moe.router_bias:
        return f"router {moe.router_score}{' with expert bias' if moe.router_bias else ''} (the MoE-v2 router is softmax)"
    if moe.shared_experts > 1:
        return f"{moe.shared_experts} shared experts (the MoE-v2 block has one shared MLP)"
    return None


def precision_unsupported(train, moe: bool) -> Optional[str]:
    """Why OLMo-core cannot run the planned precision, or None: its float8_config is torchao's
    (tensorwise, rowwise, MXFP8; the float8 all-gather tensorwise only), and the MoE train module
    has none (ddp_train_module.py:207-208: "Float8 quantization is not implemented")."""
    p = train.precision
    if p == "bf16":
        return None
    if moe:
        return f"precision {p}: its MoE train module (OLMoDDPTrainModule) has no float8 (ddp_train_module.py:207-208)"
    if p not in ("fp8-tensorwise", "fp8-rowwise", "mxfp8"):
        return f"precision {p}: its float8 is torchao's (tensorwise, rowwise, MXFP8)"
    if train.fp8_param_gather and p != "fp8-tensorwise":
        return f"fp8_param_gather with {p}: torchao's float8 all-gather is tensorwise only"
    return None


@rule("target.model", "degree", "world", "OLMo-core builds the model (GQA / MHA, RMSNorm, SwiGLU, no MTP) at the "
      "planned precision")
def _(x, pr):
    why = model_unsupported(pr.model) or precision_unsupported(pr.train, pr.model.moe is not None)
    if why:
        return f"OLMo-core cannot build the model: {why}"


@rule("target.cp_kind", "degree", "cp cp_kind", "OLMo-core's CP is ring or Ulysses, not both")
def _(x, pr):
    # train/train_module/transformer/config.py:287-294: "Only one of ring or ulysses can be specified"
    if x.cp > 1 and x.cp_kind == "hybrid":
        return "OLMo-core runs ring or Ulysses context parallel, not hybrid"


@rule("target.ulysses_kv", "degree", "tp cp_ulysses", "Ulysses' all-to-all splits the local KV heads over cp")
def _(x, pr):
    # distributed/parallel/context_parallel.py:104 all_to_all_cp2hp views k and v as
    # (B, T/CP, CP, H/CP, D): the local KV heads must divide by cp
    kv = pr.model.kv_heads
    local = local_heads(kv, x.tp)
    if not ulysses_divides(x.cp_ulysses, local):
        return f"Ulysses cp({x.cp_ulysses}) does not divide the local KV heads ({kv}/tp{x.tp} = {local})"


@rule("target.moe_tp", "degree", "tp", "OLMo-core's MoE train module has no tensor parallelism")
def _(x, pr):
    # ddp_train_module.py:181-185 "Tensor parallelism is not implemented";
    # distributed/parallel/__init__.py:195-198 "expert parallelism is mutually exclusive with tensor parallism"
    if pr.model.moe is not None and x.tp > 1:
        return f"OLMo-core trains MoE models without tensor parallelism (tp {x.tp})"


@rule("target.sharding", "degree", "sharding master", "the train module's data parallelism and master copy")
def _(x, pr):
    # MoE: ddp_train_module.py:211 dp_config.name must be "ddp", the optimizer shards its fp32 master
    # (zero1); dense: FSDP2 (train/train_module/transformer/common.py:120-135), fp32 sharded parameters
    want = model_defaults(pr.model)
    if x.sharding not in want["shardings"] or x.master != want["master"]:
        kind = "MoE (OLMoDDPTrainModule)" if pr.model.moe is not None else "dense (FSDP2)"
        return (f"OLMo-core runs {kind} models with sharding {want['shardings'][0]} and master {want['master']}, "
                f"not {x.sharding} / {x.master}")


@rule("target.vpp", "degree", "vpp pp", "one pipeline stage per rank (1F1B)")
def _(x, pr):
    # foldplan writes the split as split_points with a single-stage schedule (1F1B,
    # distributed/parallel/pipeline_parallel.py:45); interleaved virtual stages are not exported
    if x.vpp > 1:
        return f"foldplan's OLMo-core export runs one stage per pipeline rank (vpp {x.vpp})"


@rule("target.pp_tied", "degree", "pp", "no pipeline with tied embeddings")
def _(x, pr):
    # train/train_module/transformer/config.py:147-151 NotImplementedError
    if x.pp > 1 and pr.model.tied_embeddings:
        return "OLMo-core has no pipeline parallelism with tied word embeddings"


@rule("target.etp", "fold", "etp", "OLMo-core has no expert tensor parallelism")
def _(x, pr):
    # ExpertParallelConfig has a degree only (distributed/parallel/expert_parallel.py)
    if pr.model.moe is not None and x.etp != 1:
        return f"OLMo-core has no expert tensor parallelism (etp {x.etp})"


@rule("target.ep_fold", "fold", "dp cp ep", "ep divides the folded dp x cp ranks of a stage")
def _(x, pr):
    # ddp_train_module.py:489-496 ep.degree must divide the folded DP x CP world size
    if pr.model.moe is not None and (x.dp * x.cp) % x.ep:
        return f"ep({x.ep}) does not divide dp({x.dp}) * cp({x.cp})"


add_uniform_fold(RULES, ENGINE)
# OLMo-core 3.0.0 moves tokens by all-to-all only (nn/moe/parallel_mlp.py:288-330
# permute_and_all_to_all / reverse_all_to_all); no EP overlap flag
add_dispatch(RULES, ENGINE, ("alltoall",), False)
add_recompute(RULES, recompute.form)


# --------------------------------------------------------------------------- start-up

@rule("olmo-core.world_divisible", "startup", "", "pp, cp and tp divide the world in turn")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    # distributed/parallel/__init__.py:171-189 (and ddp_train_module.py:464-496): each degree
    # must divide what the previous ones leave of the world
    if world is not None and world % (tp * cp * pp):
        return err("olmo-core.world_divisible",
                   f"{c.where('tp', 'cp', 'pp')}: pp({pp}) * cp({cp}) * tp({tp}) = {pp * cp * tp} does not divide "
                   f"the world size ({world})", f"use degrees whose product divides {world}")


@rule("olmo-core.ep_tp", "startup", "", "EP and TP are mutually exclusive")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    if ep > 1 and tp > 1:       # distributed/parallel/__init__.py:195-198
        return err("olmo-core.ep_tp", f"{c.where('ep', 'tp')}: expert parallelism (ep {ep}) is mutually exclusive "
                                      f"with tensor parallelism (tp {tp}) in OLMo-core", "set tp to 1 for MoE")


@rule("olmo-core.ep_fold", "startup", "", "ep divides the folded dp x cp world of a stage")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, cp, ep, etp, world = degrees(c)
    if world is not None and ep > 1 and world % (tp * cp * pp) == 0:
        folded = world // (pp * tp)
        if folded % ep:                  # ddp_train_module.py:489-496
            return err("olmo-core.ep_fold", f"{c.where('ep')}: ep({ep}) does not divide the folded DP x CP "
                                            f"world size ({folded})", "use an ep that divides dp * cp")

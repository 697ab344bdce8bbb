"""What each attention layer kind costs beside full causal attention: the keys each query sees,
averaged over a sequence, and the model's mean over its layers (the symbol k_f of
`planner.costmodel.formulas`, 1 for a model of full causal layers). Sympy-free: the values
module binds k_f from here on the CLI's hot path.

Per query at position i (1-based, itself included), a sequence of S tokens:

    full      i keys                          mean (S + 1) / 2
    sliding   min(i, w) keys (window w)       mean (w (w + 1) / 2 + (S - w) w) / S for S >= w
    chunked   the earlier tokens of its chunk of C, itself included: i - C floor((i - 1) / C)
    sparse    min(i, k): a sparse-attention indexer keeps the top k keys of the causal prefix

The sliding count is OLMo-core's (olmo_core/nn/attention/__init__.py _causal_attention_positions,
ai2-olmo-core 3.0.0, which counts MFU the same way). A fused kernel (FlashAttention's window_size,
cuDNN's sliding window, FlexAttention's block mask) skips the blocks the mask empties, so its work
follows these counts to within one block per query row; unfused attention (a masked softmax over
the whole score matrix) computes all S keys of every kind, and the formulas keep that.

Sparse (DeepSeek Sparse Attention, DeepSeek-V3.2): Megatron-Core runs the top-k attention in MLA's
absorbed (MQA) form (megatron/core/transformer/experimental_attention_variant/dsa.py and
absorbed_mla.py, megatron-core 0.19.2: one shared latent key head of r_kv + d_r dims, values of
r_kv dims), so one (query, key) pair of one head costs 2 (r_kv + d_r + r_kv) FLOPs against
2 (d_n + d_r + d_v) in the dense (MHA-form) layer: the factor `mqa_form` below. The indexer that
picks the keys scores every causal (query, key) pair with its own n_ix heads of d_ix (priced apart
in the formulas, at the attention efficiency: Megatron-Core's reference scoring runs in BF16,
`_compute_index_scores`; DeepSeek's own FP8 kernel is not priced at the FP8 rate), and its
projections run on every TP rank (Megatron-Core builds them parallel_mode="duplicated").

Attention sinks (gpt-oss: one learned logit per head joins each query row's softmax) add one
exponential per row against the row's keys x head dim multiply-adds: priced as zero. Whether a
kernel with sinks (FlashAttention 3's sink support, cuDNN's softmax offset) runs at the efficiency
of one without is not measured in any source found: the same attention efficiency is used.

A model mixes kinds; the stage integers count dense and MoE layers, not attention kinds, so the
formulas take the mean over all layers. That is exact for the step's total (every layer runs once
per micro-batch), and approximate for one pipeline stage whose layers hold a different mix than
the model's (gpt-oss alternates sliding and full layers, so any run of consecutive layers is within
one layer of the mean; Llama-4 has one full layer in four).
"""
from __future__ import annotations

KINDS = ("full", "sliding", "chunked", "sparse")


def keys_seen(kind: str, seq: int, window: int = 0) -> float:
    """Mean over the `seq` queries of the keys one query attends to (itself included)."""
    S = int(seq)
    if S <= 0:
        return 0.0
    if kind not in KINDS:
        raise ValueError(f"attention layer kind {kind!r}: not one of {', '.join(KINDS)}")
    if kind == "full" or window <= 0 or window >= S:         # the window holds the whole prefix
        return (S + 1) / 2
    if kind in ("sliding", "sparse"):
        w = int(window)
        return (w * (w + 1) / 2 + (S - w) * w) / S
    C = int(window)                                            # chunked
    whole, rest = divmod(S, C)
    return (whole * C * (C + 1) / 2 + rest * (rest + 1) / 2) / S


def layer_kinds(model) -> list[tuple[str, int]]:
    """(kind, window) of each transformer layer: the sparse-attention indexer's top-k makes every
    layer 'sparse' (DeepSeek-V3.2 has one in every layer)."""
    if getattr(model, "sparse_attention_topk", 0):
        return [("sparse", model.sparse_attention_topk)] * model.layers
    kinds = model.layer_attention or ("full",) * model.layers
    return [(k, model.attention_window if k != "full" else 0) for k in kinds]


def mqa_form(model) -> float:
    """FLOPs of one (query, key) pair of a sparse layer over those of a dense one: 1 but for MLA
    with an indexer, whose top-k attention runs in the absorbed (MQA) form."""
    ml = model.mla
    if not getattr(model, "sparse_attention_topk", 0) or model.attention != "mla" or ml is None:
        return 1.0
    return (2 * ml.kv_lora_rank + ml.qk_rope_head_dim) / (ml.qk_nope_head_dim + ml.qk_rope_head_dim + ml.v_head_dim)


def attention_factor(model, seq: int) -> float:
    """k_f: the model's mean over its layers of the attention core's work at sequence `seq`, as a
    multiple of full causal attention's ((S + 1) / 2 keys per query): 1.0 for full-only models."""
    full = keys_seen("full", seq)
    if full <= 0:
        return 1.0
    per_layer = [keys_seen(kind, seq, w) * (mqa_form(model) if kind == "sparse" else 1.0)
                 for kind, w in layer_kinds(model)]
    return sum(per_layer) / len(per_layer) / full


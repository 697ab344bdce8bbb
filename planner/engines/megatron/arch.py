"""The planned model as Megatron-LM flags (megatron-core 0.19.2, megatron/training/arguments.py): shape,
attention (GQA / MLA), position embedding and rope base / scaling, norm and eps, FFN, MoE router and
balancing, shared experts, grouped GEMM, MTP.

What foldplan's model spec does not carry (rope base / scaling, norm eps, router coefficients) comes from
the preset's published config (`PUBLISHED`, each from the Hugging Face config.json the preset file names);
for a model outside it the export uses Megatron's defaults and says so in a FILL IN line (`unknown`).
"""
from __future__ import annotations

from planner.engines.megatron.vocab import flag

# preset -> what its config.json says that the model spec does not
#   rope: (rope_theta, scaling) with scaling None | ("llama3", factor) | ("yarn", factor, mscale, mscale_all_dim)
#   eps: rms_norm_eps; aux: router_aux_loss_coef (load balancing "aux_loss"); pre_softmax: softmax over all
#   experts before the top-k without renormalising (norm_topk_prob false)
PUBLISHED = {
    "llama3-8b": dict(rope=(500000, None), eps=1e-5),                        # Meta-Llama-3-8B
    "llama3-70b": dict(rope=(500000, None), eps=1e-5),                       # Meta-Llama-3-70B
    "llama3.1-405b": dict(rope=(500000, ("llama3", 8)), eps=1e-5),           # Llama-3.1-405B rope_scaling llama3 x8
    "mixtral-8x7b": dict(rope=(1000000, None), eps=1e-5, aux=0.02),
    "mixtral-8x22b": dict(rope=(1000000, None), eps=1e-5, aux=0.001),
    "olmoe-1b-7b": dict(rope=(10000, None), eps=1e-5, aux=0.01, z=0.001, pre_softmax=True),
    "qwen3-30b-a3b": dict(rope=(1000000, None), eps=1e-6, aux=0.001),
    "qwen3-235b-a22b": dict(rope=(1000000, None), eps=1e-6, aux=0.001),
    # DeepSeek-V3: YaRN x40 (mscale 1.0 / 1.0; original 4096, beta 32 / 1 are MLATransformerConfig's
    # defaults), group-limited routing 8 groups / top-4 groups, routed_scaling_factor 2.5, aux-loss-free
    # bias balancing plus the sequence-wise loss (alpha 1e-4, technical report section 2.1.2)
    "deepseek-v3": dict(rope=(10000, ("yarn", 40, 1.0, 1.0)), eps=1e-6, aux=1e-4, aux_kind="seq_aux_loss",
                        groups=(8, 4), topk_scale=2.5),
}


def unknown(m) -> bool:
    return m.name not in PUBLISHED


def _position(m, facts) -> list[tuple]:
    base, scaling = facts.get("rope", (10000, None))
    out = [("--position-embedding-type", "rope"), ("--rotary-base", base)]
    if scaling and scaling[0] == "llama3":       # arguments.py: --use-rope-scaling (Llama 3.1 frequency scaling)
        out += [("--use-rope-scaling",), ("--rope-scaling-factor", scaling[1])]
    elif scaling and scaling[0] == "yarn":       # MLA's rope_type defaults to yarn (transformer_config.py:2927)
        out += [("--rope-type", "yarn"), ("--rotary-scaling-factor", scaling[1]), ("--mscale", scaling[2]),
                ("--mscale-all-dim", scaling[3])]
    return out


def _attention(m) -> list[tuple]:
    out = [(flag("layers"), m.layers), ("--hidden-size", m.hidden), ("--num-attention-heads", m.heads),
           ("--kv-channels", m.head_dim)]
    if m.attention == "mla":
        a = m.mla
        out += [("--multi-latent-attention",), ("--q-lora-rank", a.q_lora_rank), ("--kv-lora-rank", a.kv_lora_rank),
                ("--qk-head-dim", a.qk_nope_head_dim), ("--qk-pos-emb-head-dim", a.qk_rope_head_dim),
                ("--v-head-dim", a.v_head_dim)]
    elif m.kv_heads != m.heads:
        out += [("--group-query-attention",), ("--num-query-groups", m.kv_heads)]
    if m.qk_norm:
        out.append(("--qk-layernorm",))
    return out


def _moe(m, facts) -> list[tuple]:
    moe = m.moe
    flags = m.moe_layers()
    # an int when every layer is MoE (no shell-special characters), else the 0/1 list Megatron evaluates
    freq = 1 if all(flags) else "[" + ",".join(str(int(x)) for x in flags) + "]"
    out = [("--num-experts", moe.experts), ("--moe-router-topk", moe.top_k),
           ("--moe-ffn-hidden-size", moe.expert_ffn_hidden), ("--moe-layer-freq", freq),
           ("--moe-router-score-function", moe.router_score), ("--moe-token-dispatcher-type", "alltoall"),
           # the cost model prices the experts as grouped GEMMs; moe_act recompute needs them
           # (transformer_config.py raises "moe_act in recompute_modules is only supported with moe_grouped_gemm")
           ("--moe-grouped-gemm",), ("--moe-router-dtype", "fp32")]
    if moe.shared_experts:
        out.append(("--moe-shared-expert-intermediate-size", moe.shared_experts * moe.shared_ffn_hidden))
    if moe.router_bias:      # aux-loss-free balancing (DeepSeek-V3: bias update speed 1e-3)
        out += [("--moe-router-enable-expert-bias",), ("--moe-router-bias-update-rate", 1e-3)]
    if "groups" in facts:
        out += [("--moe-router-num-groups", facts["groups"][0]), ("--moe-router-group-topk", facts["groups"][1])]
    if "topk_scale" in facts:
        out.append(("--moe-router-topk-scaling-factor", facts["topk_scale"]))
    # softmax over all experts before the top-k: the model's own router (norm_topk_prob false), or a
    # top-1 softmax router, where a softmax over the one chosen score has no gradient
    # (transformer_config.py:2328-2336 refuses top-1 softmax routing without it)
    if facts.get("pre_softmax") or (moe.top_k == 1 and moe.router_score == "softmax"):
        out.append(("--moe-router-pre-softmax",))
    if facts.get("aux"):
        out += [("--moe-router-load-balancing-type", facts.get("aux_kind", "aux_loss")),
                ("--moe-aux-loss-coeff", facts["aux"])]
    elif moe.router_bias:
        out.append(("--moe-router-load-balancing-type", "none"))
    if facts.get("z"):
        out.append(("--moe-z-loss-coeff", facts["z"]))
    return out


def model_flags(m) -> list[tuple]:
    """Every flag that says the planned model to Megatron."""
    facts = PUBLISHED.get(m.name, {})
    out = _attention(m) + _position(m, facts)
    if m.gated:
        out.append(("--swiglu",))
    if not m.tied_embeddings:
        out.append(("--untie-embeddings-and-output-weights",))
    out.append(("--normalization", "RMSNorm" if m.norm == "rmsnorm" else "LayerNorm"))
    if "eps" in facts:
        out.append(("--norm-epsilon", facts["eps"]))
    out.append(("--add-bias-linear",) if m.linear_bias else ("--disable-bias-linear",))
    # the vocabulary as the plan counts it: no tokenizer to pad it to 128 * tp
    out += [("--tokenizer-type", "NullTokenizer"), ("--vocab-size", m.vocab), ("--make-vocab-size-divisible-by", 1)]
    if m.mtp_layers:
        out.append(("--mtp-num-layers", m.mtp_layers))
    if m.moe is None:
        return out + [("--ffn-hidden-size", m.ffn_hidden)]
    return out + [("--ffn-hidden-size", m.ffn_hidden or m.moe.expert_ffn_hidden)] + _moe(m, facts)

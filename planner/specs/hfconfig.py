"""Hugging Face config.json -> ModelSpec (Llama, Mixtral, Qwen2/3-MoE, DeepSeek-V3, OLMoE
key conventions). Every value is checked first (`planner.safeio.validate.hf_config`): integers
are integers, inside the bounds, one line naming the key."""
from __future__ import annotations

from planner.safeio import validate
from planner.specs.types import ModelSpec, MoESpec, SpecError, build


def from_hf_config(cfg: dict, name: str = "hf") -> ModelSpec:
    """Map a Hugging Face config.json (Llama, Mixtral, Qwen2/3-MoE, DeepSeek-V3, OLMoE key
    conventions) onto a ModelSpec."""
    try:
        validate.hf_config(cfg, name)          # integers are integers, inside the bounds; one line
    except validate.InputError as e:
        raise SpecError(str(e)) from None
    def need(key: str):
        if key not in cfg:
            raise SpecError(f"model {name}: config.json lacks {key!r}")
        return cfg[key]

    mtype = str(cfg.get("model_type", "")).lower()
    layers = int(need("num_hidden_layers"))
    hidden = int(need("hidden_size"))
    heads = int(need("num_attention_heads"))
    kv = int(cfg.get("num_key_value_heads") or heads)
    data: dict = dict(
        name=name, layers=layers, hidden=hidden, heads=heads, kv_heads=kv,
        head_dim=int(cfg.get("head_dim") or hidden // heads), vocab=int(need("vocab_size")),
        ffn_hidden=int(cfg.get("intermediate_size") or 0), gated=True,
        tied_embeddings=bool(cfg.get("tie_word_embeddings", False)), norm="rmsnorm",
        qk_norm=mtype in ("qwen3", "qwen3_moe", "olmoe", "olmo2"),
    )
    experts = cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts")
    if experts:
        top_k = cfg.get("num_experts_per_tok") or cfg.get("moe_topk") or need("num_experts_per_tok")
        eff = cfg.get("moe_intermediate_size") or cfg.get("intermediate_size")
        if not eff:
            raise SpecError(f"model {name}: config.json lacks 'moe_intermediate_size' (or 'intermediate_size'), "
                            f"the width of one expert's FFN")
        shared = int(cfg.get("n_shared_experts") or 0)
        shared_ffn = int(cfg.get("moe_intermediate_size") or 0) if shared else 0
        if cfg.get("shared_expert_intermediate_size"):      # Qwen2-MoE: one shared expert of its own width
            shared, shared_ffn = 1, int(cfg["shared_expert_intermediate_size"])
        first_dense = int(cfg.get("first_k_dense_replace") or 0)
        freq = int(cfg.get("moe_layer_freq") or cfg.get("decoder_sparse_step") or 1)
        sparse = cfg.get("mlp_only_layers") or []
        moe: dict = dict(experts=int(experts), top_k=int(top_k), expert_ffn_hidden=int(eff),
                         shared_experts=shared, shared_ffn_hidden=shared_ffn,
                         first_dense_layers=first_dense, layer_freq=freq,
                         router_score="sigmoid" if cfg.get("scoring_func") == "sigmoid" else "softmax",
                         router_bias=cfg.get("topk_method") == "noaux_tc")
        if sparse or (freq > 1 and "decoder_sparse_step" in cfg):
            # Qwen2-MoE convention: layer i is sparse iff i not in mlp_only_layers and (i+1) % step == 0
            moe["layer_freq"] = [int(i not in sparse and (i + 1) % freq == 0) for i in range(layers)]
            moe["first_dense_layers"] = 0
        data["moe"] = moe
        # ffn_hidden is the dense FFN width: keep it only when some layer is dense
        probe = ModelSpec.model_construct(**{**data, "moe": MoESpec.model_construct(**moe)})
        if all(probe.moe_layers()):
            data["ffn_hidden"] = 0
    elif not cfg.get("intermediate_size"):
        raise SpecError(f"model {name}: config.json lacks 'intermediate_size', the FFN width of a dense model")
    if "kv_lora_rank" in cfg and cfg.get("kv_lora_rank"):
        data["attention"] = "mla"
        data["mla"] = dict(q_lora_rank=int(cfg.get("q_lora_rank") or 0), kv_lora_rank=int(cfg["kv_lora_rank"]),
                           qk_rope_head_dim=int(need("qk_rope_head_dim")),
                           qk_nope_head_dim=int(need("qk_nope_head_dim")), v_head_dim=int(need("v_head_dim")))
        data["head_dim"] = int(cfg["qk_nope_head_dim"]) + int(cfg["qk_rope_head_dim"])
        data["kv_heads"] = heads
    data["mtp_layers"] = int(cfg.get("num_nextn_predict_layers") or 0)
    return build(ModelSpec, data, f"model {name}")

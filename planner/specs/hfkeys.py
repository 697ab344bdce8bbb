"""The keys of a Hugging Face config.json, as foldplan's reader (`planner.specs.hfconfig`) sorts
them: read into the ModelSpec, known and without effect on the parameters or the cost of training,
or a layer kind the cost model has no formula for (the reader refuses the model, naming the key).
A key in none of these lists is named in the reader's one warning line ("not understood")."""
from __future__ import annotations

# read into the ModelSpec (planner.specs.hfconfig)
READ = frozenset({
    "num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim", "vocab_size",
    "intermediate_size", "intermediate_size_mlp", "tie_word_embeddings", "model_type",
    # experts and where they sit
    "num_local_experts", "num_experts", "n_routed_experts", "num_experts_per_tok", "experts_per_token", "moe_topk",
    "moe_intermediate_size", "n_shared_experts", "shared_expert_intermediate_size", "first_k_dense_replace",
    "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers", "interleave_moe_layer_step", "moe_layers",
    "scoring_func", "topk_method",
    # attention
    "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "qk_head_dim",
    "attention_bias", "mlp_bias", "use_qk_norm", "qk_layernorm", "layer_types", "sliding_window",
    "use_sliding_window", "max_window_layers", "attention_chunk_size", "no_rope_layers", "no_rope_layer_interval",
    "index_topk", "index_n_heads", "index_head_dim",
    # multi-token prediction
    "num_nextn_predict_layers",
    # a multimodal wrapper: the text model is read, the towers are named
    "text_config",
})

# known, and neither the parameter count nor the cost of a training step depends on them
# (numerics, positions, token ids, inference and serving, the router's training signal)
NO_EFFECT = frozenset({
    "architectures", "auto_map", "_name_or_path", "transformers_version", "torch_dtype", "dtype", "use_cache",
    "initializer_range", "hidden_act", "rms_norm_eps", "layer_norm_eps", "norm_eps", "attention_dropout",
    "hidden_dropout", "rope_theta", "rope_scaling", "rope_parameters", "rope_interleave", "partial_rotary_factor",
    "max_position_embeddings", "initial_context_length", "bos_token_id", "eos_token_id", "pad_token_id",
    "output_router_logits", "router_aux_loss_coef", "router_jitter_noise", "aux_loss_alpha", "seq_aux",
    "norm_topk_prob", "routed_scaling_factor", "n_group", "topk_group", "ep_size", "swiglu_limit",
    "attn_temperature_tuning", "floor_scale", "attn_scale", "pretraining_tp", "quantization_config",
    "for_llm_compressor", "unsloth_fixed", "keys_to_ignore_at_inference", "tokenizer_class",
    "_provenance", "_attn_implementation_autoset",   # foldplan's fixtures: where the file comes from
    # a multimodal wrapper's own ids (the towers are named by the reader)
    "boi_token_index", "eoi_token_index", "image_token_index", "image_token_id", "video_token_id",
    "vision_start_token_id", "vision_end_token_id", "vision_token_id",
})

# layer kinds the cost model has no formula for: their parameters and their cost differ from
# softmax attention's, so a model with them is refused (one line naming the key)
UNPRICED = {
    "full_attention_interval": "linear-attention (Gated DeltaNet) layers between the full-attention ones",
    "linear_num_value_heads": "linear-attention (Gated DeltaNet) layers",
    "linear_num_key_heads": "linear-attention (Gated DeltaNet) layers",
    "linear_key_head_dim": "linear-attention (Gated DeltaNet) layers",
    "linear_value_head_dim": "linear-attention (Gated DeltaNet) layers",
    "linear_conv_kernel_dim": "linear-attention (Gated DeltaNet) layers",
    "layers_block_type": "Mamba layers",
    "hybrid_override_pattern": "Mamba layers",
    "attn_layer_period": "Mamba layers",
    "mamba_d_state": "Mamba layers",
    "ssm_state_size": "Mamba layers",
    "o_lora_rank": "a low-rank attention output projection",
    "compress_ratios": "compressed-attention layers",
}

# per-layer kinds as HF `layer_types` spells them -> planner.specs.kinds.ATTENTION_LAYER_KINDS
LAYER_TYPES = {"full_attention": "full", "sliding_attention": "sliding", "chunked_attention": "chunked"}
UNPRICED_LAYER_TYPES = {"linear_attention": "linear-attention (Gated DeltaNet) layers", "mamba": "Mamba layers",
                        "mamba2": "Mamba layers", "conv": "convolution layers"}

# the configs of a multimodal wrapper that hold a tower the planner does not plan
TOWERS = ("vision_config", "audio_config", "speech_config")

# model types with a per-head RMSNorm on q and k (no config key says so)
QK_NORM_TYPES = ("qwen3", "qwen3_moe", "qwen3_next", "olmoe", "olmo2", "olmo3")
# model types with a learned attention sink per head (no config key says so)
SINK_TYPES = ("gpt_oss",)

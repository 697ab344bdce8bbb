"""Hugging Face config.json -> ModelSpec, read as transformers builds the model: interleaved and
first-k-dense MoE layers, shared experts, a multimodal wrapper's `text_config`, per-layer attention
kinds (sliding, chunked), attention sinks, MLA, a sparse-attention indexer, MTP, biases, QK-norm.

`read_hf_config` returns the spec and its notes: one line naming every key it does not understand,
one per thing the estimate does not price as the model runs it. A layer kind the cost model has no
formula for (linear attention, Mamba) is refused in one line naming the key. Every value is checked
first (`planner.safeio.validate.hf_config`): integers are integers, inside the bounds."""
from __future__ import annotations

from planner.safeio import validate
import planner.specs.hfkeys as hfkeys
from planner.specs.types import ModelSpec, MoESpec, SpecError, build


def from_hf_config(cfg: dict, name: str = "hf") -> ModelSpec:
    """The ModelSpec of a Hugging Face config.json (notes: `read_hf_config`)."""
    return read_hf_config(cfg, name)[0]


def read_hf_config(cfg: dict, name: str = "hf") -> tuple[ModelSpec, list[str]]:
    """(ModelSpec, notes) of a Hugging Face config.json; SpecError in one line naming the key."""
    notes: list[str] = []
    cfg = _text_model(cfg, name, notes)
    try:
        validate.hf_config(cfg, name)          # integers are integers, inside the bounds; one line
    except validate.InputError as e:
        raise SpecError(str(e)) from None
    _refuse_unpriced(cfg, name)

    def need(key: str):
        if cfg.get(key) is None:
            raise SpecError(f"model {name}: config.json lacks {key!r}")
        return cfg[key]

    mtype = str(cfg.get("model_type", "")).lower()
    layers, hidden, heads = int(need("num_hidden_layers")), int(need("hidden_size")), int(need("num_attention_heads"))
    kv = cfg.get("num_key_value_heads", heads)
    if kv is None or int(kv) == 0:
        raise SpecError(f"model {name}: config.json num_key_value_heads is {kv!r}: a model needs at least one "
                        f"key/value head")
    if not cfg.get("head_dim") and hidden % heads:
        raise SpecError(f"model {name}: config.json hidden_size({hidden}) is not divisible by "
                        f"num_attention_heads({heads}) and no head_dim is given")
    data: dict = dict(
        name=name, layers=layers, hidden=hidden, heads=heads, kv_heads=int(kv),
        head_dim=int(cfg.get("head_dim") or hidden // heads), vocab=int(need("vocab_size")),
        ffn_hidden=int(cfg.get("intermediate_size") or 0), gated=True,
        tied_embeddings=bool(cfg.get("tie_word_embeddings", False)), norm="rmsnorm",
        qk_norm=mtype in hfkeys.QK_NORM_TYPES or bool(cfg.get("use_qk_norm") or cfg.get("qk_layernorm")),
        linear_bias=bool(cfg.get("attention_bias") or cfg.get("mlp_bias")),
        attention_sinks=mtype in hfkeys.SINK_TYPES,
    )
    if _experts(cfg):
        _read_moe(cfg, name, data, need)
    elif not cfg.get("intermediate_size"):
        raise SpecError(f"model {name}: config.json lacks 'intermediate_size', the FFN width of a dense model")
    if cfg.get("kv_lora_rank"):
        data["attention"] = "mla"
        data["mla"] = dict(q_lora_rank=int(cfg.get("q_lora_rank") or 0), kv_lora_rank=int(cfg["kv_lora_rank"]),
                           qk_rope_head_dim=int(need("qk_rope_head_dim")),
                           qk_nope_head_dim=int(need("qk_nope_head_dim")), v_head_dim=int(need("v_head_dim")))
        data["head_dim"] = int(cfg["qk_nope_head_dim"]) + int(cfg["qk_rope_head_dim"])
        data["kv_heads"] = heads
    data["mtp_layers"] = int(cfg.get("num_nextn_predict_layers") or 0)
    _read_attention_kinds(cfg, name, data, notes)
    unknown = sorted(k for k in cfg if k not in hfkeys.READ and k not in hfkeys.NO_EFFECT)
    if unknown:
        notes.insert(0, f"config.json keys not understood, ignored: {', '.join(unknown)}")
    return build(ModelSpec, data, f"model {name}"), notes


def _text_model(cfg: dict, name: str, notes: list[str]) -> dict:
    """A multimodal wrapper (Llama-4, Qwen-VL, Kimi-K2.5): its `text_config` is the model planned;
    its towers are named with their approximate size. Anything else: the config itself."""
    text = cfg.get("text_config")
    if not isinstance(text, dict):
        return cfg
    towers = [k for k in hfkeys.TOWERS if isinstance(cfg.get(k), dict)]
    sizes = ", ".join(f"{k} (~{tower_params(cfg[k]) / 1e9:.2f}B parameters)" for k in towers)
    notes.append(f"read text_config (the language model); {sizes or 'its other configs'} not planned")
    outer = [k for k in cfg if k not in ("text_config", *towers) and k not in hfkeys.NO_EFFECT
             and k not in ("model_type", "tie_word_embeddings")]
    if outer:
        notes.append(f"config.json keys not understood beside text_config, ignored: {', '.join(sorted(outer))}")
    inner = dict(text)
    if "tie_word_embeddings" not in inner and "tie_word_embeddings" in cfg:
        inner["tie_word_embeddings"] = cfg["tie_word_embeddings"]
    return inner


def tower_params(tower: dict) -> float:
    """An encoder tower's parameters, approximately: its layers' attention (4 h^2) and MLP (2 h F)."""
    h, layers = tower.get("hidden_size") or 0, tower.get("num_hidden_layers") or 0
    ffn = tower.get("intermediate_size") or 4 * h
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (h, layers, ffn)):
        return 0.0
    return float(layers * (4 * h * h + 2 * h * ffn))


def _refuse_unpriced(cfg: dict, name: str) -> None:
    """A layer kind the cost model has no formula for: one line naming the key."""
    for key, what in hfkeys.UNPRICED.items():
        if cfg.get(key) not in (None, 0, [], ""):
            raise SpecError(f"model {name}: config.json {key}: {what}; foldplan's cost model has no formula for "
                            f"them (their parameters and cost differ from softmax attention's), so it cannot plan "
                            f"this model")
    kinds = cfg.get("layer_types")
    if isinstance(kinds, list):
        for kind, what in hfkeys.UNPRICED_LAYER_TYPES.items():
            n = sum(1 for k in kinds if k == kind)
            if n:
                raise SpecError(f"model {name}: config.json layer_types: {n} of {len(kinds)} layers are {kind!r} "
                                f"({what}); foldplan's cost model has no formula for them, so it cannot plan this model")


def _experts(cfg: dict):
    return cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts")


def _read_moe(cfg: dict, name: str, data: dict, need) -> None:
    """The routed and shared experts, and which layers have them."""
    layers = data["layers"]
    top_k = cfg.get("num_experts_per_tok") or cfg.get("experts_per_token") or cfg.get("moe_topk") \
        or need("num_experts_per_tok")
    eff = cfg.get("moe_intermediate_size") or cfg.get("intermediate_size")
    if not eff:
        raise SpecError(f"model {name}: config.json lacks 'moe_intermediate_size' (or 'intermediate_size'), "
                        f"the width of one expert's FFN")
    shared = int(cfg.get("n_shared_experts") or 0)
    shared_ffn = int(cfg.get("moe_intermediate_size") or 0) if shared else 0
    if cfg.get("shared_expert_intermediate_size"):      # Qwen2-MoE: one shared expert of its own width
        shared, shared_ffn = 1, int(cfg["shared_expert_intermediate_size"])
    moe: dict = dict(experts=int(_experts(cfg)), top_k=int(top_k), expert_ffn_hidden=int(eff),
                     shared_experts=shared, shared_ffn_hidden=shared_ffn,
                     first_dense_layers=int(cfg.get("first_k_dense_replace") or 0),
                     layer_freq=int(cfg.get("moe_layer_freq") or 1),
                     router_score="sigmoid" if cfg.get("scoring_func") == "sigmoid" else "softmax",
                     router_bias=cfg.get("topk_method") == "noaux_tc")
    is_moe = _moe_layer_list(cfg, layers)
    if is_moe is not None:
        moe["layer_freq"], moe["first_dense_layers"] = is_moe, 0
    if "interleave_moe_layer_step" in cfg or "intermediate_size_mlp" in cfg:
        # Llama-4 (transformers Llama4TextMoe / Llama4TextMLP): every MoE layer has one shared expert of
        # the routed width (intermediate_size); a dense layer's MLP is intermediate_size_mlp wide
        moe["shared_experts"], moe["shared_ffn_hidden"] = 1, int(eff)
        data["ffn_hidden"] = int(cfg.get("intermediate_size_mlp") or 0)
    data["moe"] = moe
    # ffn_hidden is the dense FFN width: keep it only when some layer is dense
    probe = ModelSpec.model_construct(**{**data, "moe": MoESpec.model_construct(**moe)})
    if all(probe.moe_layers()):
        data["ffn_hidden"] = 0


def _moe_layer_list(cfg: dict, layers: int):
    """is_moe per layer where the config places the experts by a list or an interleave (None: the
    DeepSeek form, first_k_dense_replace and moe_layer_freq, which MoESpec holds as they are)."""
    if isinstance(cfg.get("moe_layers"), list) and cfg["moe_layers"]:                 # Llama-4, explicit
        chosen = {int(i) for i in cfg["moe_layers"] if isinstance(i, int) and not isinstance(i, bool)}
        return [int(i in chosen) for i in range(layers)]
    if cfg.get("interleave_moe_layer_step"):       # Llama-4: layers step-1, 2*step-1, ... (Llama4TextConfig)
        step = int(cfg["interleave_moe_layer_step"])
        return [int(i % step == step - 1) for i in range(layers)]
    sparse = cfg.get("mlp_only_layers") or []
    step = int(cfg.get("decoder_sparse_step") or 1)
    if sparse or step > 1:
        # Qwen2/3-MoE: layer i is sparse iff i not in mlp_only_layers and (i+1) % decoder_sparse_step == 0
        return [int(i not in sparse and (i + 1) % step == 0) for i in range(layers)]
    return None


def _read_attention_kinds(cfg: dict, name: str, data: dict, notes: list[str]) -> None:
    """Each layer's attention (full, sliding window, chunked), the sinks and the sparse indexer."""
    layers = data["layers"]
    kinds, window = None, 0
    if isinstance(cfg.get("layer_types"), list):
        raw = cfg["layer_types"]
        bad = sorted({str(k) for k in raw if k not in hfkeys.LAYER_TYPES})
        if bad or len(raw) != layers:
            raise SpecError(f"model {name}: config.json layer_types: " + (
                f"{', '.join(bad)} not understood (known: {', '.join(hfkeys.LAYER_TYPES)})" if bad
                else f"{len(raw)} entries for {layers} layers"))
        kinds = [hfkeys.LAYER_TYPES[k] for k in raw]
        window = int(cfg.get("sliding_window") or cfg.get("attention_chunk_size") or 0)
    elif cfg.get("attention_chunk_size"):          # Llama-4: chunked local attention on its RoPE layers
        nope = cfg.get("no_rope_layers") or []
        interval = int(cfg.get("no_rope_layer_interval") or 4)
        uses_rope = nope if len(nope) == layers else [int((i + 1) % interval != 0) for i in range(layers)]
        kinds = ["chunked" if r else "full" for r in uses_rope]
        window = int(cfg["attention_chunk_size"])
    elif cfg.get("sliding_window") and cfg.get("use_sliding_window", True):
        # Mistral: every layer; Qwen2/3 with use_sliding_window: the layers from max_window_layers on
        first = int(cfg.get("max_window_layers") or 0) if "use_sliding_window" in cfg else 0
        kinds = ["sliding" if i >= first else "full" for i in range(layers)]
        window = int(cfg["sliding_window"])
    if kinds and any(k != "full" for k in kinds):
        data["layer_attention"], data["attention_window"] = tuple(kinds), window
        for kind in ("sliding", "chunked"):
            n = kinds.count(kind)
            if n:
                notes.append(f"{n} of {layers} layers are {kind} attention (window {window} tokens): priced by the "
                             f"keys each query sees")
    if data.get("attention_sinks"):
        notes.append("attention sinks (one learned logit per head): priced as zero FLOPs (one term per softmax row)")
    if cfg.get("index_topk"):
        n_heads, dim = int(cfg.get("index_n_heads") or 0), int(cfg.get("index_head_dim") or 0)
        data.update(sparse_attention_topk=int(cfg["index_topk"]), sparse_indexer_heads=n_heads, sparse_indexer_dim=dim)
        notes.append(f"index_topk/index_n_heads/index_head_dim: a sparse-attention indexer ({n_heads} heads of {dim}) "
                     f"keeps {cfg['index_topk']} keys per query: priced as the indexer's causal scoring plus "
                     f"top-{cfg['index_topk']} attention in MLA's absorbed (MQA) form; its parameters are counted")

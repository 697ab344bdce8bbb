"""Model shapes from Megatron-LM flags, named like docs/plan-schema.md "model".

Only what the flags say or imply (Megatron's own defaults: kv heads = heads without
``--group-query-attention``, head dim = hidden / heads, the FFN width 4h or the SwiGLU
8h/3 rounded down to 64, tied embeddings unless untied). The vocabulary comes from
``--vocab-size``, else from a tokenizer whose size is public (``VOCABS``), padded as
Megatron pads it: up to a multiple of ``--make-vocab-size-divisible-by`` (128) x tp.
"""

from __future__ import annotations

import ast

from planner.engines.megatron.flags import Flags
from planner.shell import unresolved
from planner.layout.foreign import AuditParseError

# Tokenizer -> vocabulary size before padding (the tokenizer files' own counts).
VOCABS = {
    "GPT2BPETokenizer": 50257,  # GPT-2 BPE (vocab.json + merges.txt)
    "Llama2Tokenizer": 32000,
    "meta-llama/Meta-Llama-3-8B": 128256, "meta-llama/Meta-Llama-3.1-8B": 128256,
    "meta-llama/Llama-3.1-8B": 128256, "meta-llama/Meta-Llama-3-70B": 128256,
    "deepseek-ai/DeepSeek-V3": 129280, "unsloth/DeepSeek-V3": 129280, "deepseek-ai/DeepSeek-V3-Base": 129280,
    "deepseek-ai/DeepSeek-V2": 102400, "deepseek-ai/DeepSeek-V2-Lite": 102400,
    "Qwen/Qwen3-30B-A3B": 151936, "Qwen/Qwen3-235B-A22B": 151936, "Qwen/Qwen2-57B-A14B": 151936,
    "mistralai/Mixtral-8x7B-v0.1": 32000, "mistralai/Mixtral-8x22B-v0.1": 32768,
    "moonshotai/Kimi-K2-Instruct": 163840, "moonshotai/Kimi-K2-Base": 163840,
}


def _vocab(flags: Flags, tp: int, assumed: list[str]) -> tuple[int | None, str | None]:
    """(vocab, flag it came from): --vocab-size, else --padded-vocab-size, else the tokenizer's size padded."""
    for name in ("vocab-size", "padded-vocab-size"):
        v = flags.int(name)
        if v is not None and v < 1:
            raise AuditParseError(flags.path, flags.line(name), f"--{name} must be >= 1, got {v}: a model needs "
                                                                 f"at least one token")
        if v:
            return v, name
    kind = flags.raw("tokenizer-type")
    values = flags.flags["tokenizer-model"].values if flags.has("tokenizer-model") else []
    model = values[0] if values and not unresolved(values[0]) else None  # a path the script gets as $2: unknown
    if kind is None and flags.has("vocab-file") and flags.has("merge-file"):
        kind = "GPT2BPETokenizer"
    source = model if kind in ("HuggingFaceTokenizer", None) and model else kind
    size = VOCABS.get(source or "")
    if not size:
        return None, None
    multiple = (flags.int("make-vocab-size-divisible-by") or 128) * tp
    padded = -(-size // multiple) * multiple
    assumed.append(f"vocab={padded}: the {source} tokenizer's {size} tokens padded to a multiple of "
                   f"make_vocab_size_divisible_by x tp = {multiple} (Megatron pads the embedding)")
    return padded, "tokenizer-model" if model else "tokenizer-type"


def layer_freq(expr: str) -> int | list[int]:
    """``--moe-layer-freq``: an int, or a list expression such as ``([0]*3+[1]*58)``.

    Evaluated with ``ast``; only list literals of ints, ``+`` and ``*`` by an int
    are allowed, and lists stay under 100 000 entries.
    """
    text = expr.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    node = ast.parse(text, mode="eval").body

    def ev(n: ast.AST) -> int | list[int]:
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.List) and all(isinstance(e, ast.Constant) and type(e.value) is int for e in n.elts):
            return [e.value for e in n.elts]
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Mult)):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add) and type(a) is type(b):
                out = a + b
            elif isinstance(n.op, ast.Mult) and isinstance(a, list) != isinstance(b, list):
                lst, k = (a, b) if isinstance(a, list) else (b, a)
                if k < 0 or len(lst) * k > 100_000:
                    raise ValueError("list too long")
                out = lst * k
            else:
                raise ValueError("unsupported operands")
            if isinstance(out, list) and len(out) > 100_000:
                raise ValueError("list too long")
            return out
        raise ValueError(f"unsupported expression {type(n).__name__}")

    value = ev(node)
    if isinstance(value, list) and any(v not in (0, 1) for v in value):
        raise ValueError("entries must be 0 or 1")
    return value


def model(flags: Flags, layers: int | None, tp: int, path: str, assumed: list[str],
          deepspeed: bool = False) -> tuple[dict, dict]:
    """(model dict, model key -> line) from the flags."""
    out: dict = {}
    lines: dict = {}

    def put(key: str, flag: str | None, value) -> None:
        if value is not None:
            out[key] = value
            if flag and flags.line(flag):
                lines[key] = flags.line(flag)

    put("layers", "num-layers", layers)
    hidden = flags.int("hidden-size")
    put("hidden", "hidden-size", hidden)
    _attention(flags, out, put, assumed)
    gated = flags.has("swiglu")
    if any(flags.has(n) for n in ("num-layers", "hidden-size", "num-attention-heads", "swiglu",
                                  "untie-embeddings-and-output-weights")):
        # Megatron's defaults (GeLU, tied) are the model's only when the script gives the model; a
        # wrapper that takes the model from elsewhere (ModelZoo's launch scripts) says nothing of them
        out["gated"] = gated
        out["tied_embeddings"] = not flags.has("untie-embeddings-and-output-weights")
    if flags.has("add-bias-linear") or deepspeed and not flags.has("disable-bias-linear"):
        out["linear_bias"] = True  # Megatron-DeepSpeed's GPT keeps biases; Megatron-LM's --add-bias-linear
    ffn = flags.int("ffn-hidden-size")
    if ffn is None and hidden:
        ffn = int(4 * hidden * 2 / 3 / 64) * 64 if gated else 4 * hidden
        assumed.append(f"ffn_hidden={ffn}: --ffn-hidden-size not given (Megatron default for "
                       f"{'SwiGLU' if gated else 'GeLU'})")
    vocab, source = _vocab(flags, tp, assumed)
    put("vocab", source, vocab)
    norm = flags.raw("normalization")
    if norm:
        out["norm"] = "rmsnorm" if norm.lower() == "rmsnorm" else "layernorm"
    elif "gated" in out:          # the script gives the model: Megatron's default norm is its norm
        out["norm"] = "layernorm"  # (TransformerConfig.normalization = "LayerNorm", megatron-core 0.19.2:
        # transformer_config.py:249; Megatron-DeepSpeed's --normalization defaults to layernorm too)
    mtp = flags.int("mtp-num-layers")
    if mtp is not None:
        out["mtp_layers"] = mtp
    moe = _moe_ds(flags, ffn, layers, assumed) if deepspeed else _moe(flags, ffn, path, assumed)
    if moe is None:
        put("ffn_hidden", "ffn-hidden-size", ffn)
        return out, lines
    lines["experts"] = flags.line("num-experts")
    if flags.line("moe-layer-freq"):
        lines["layer_freq"] = flags.line("moe-layer-freq")
    out["moe"] = moe
    freq = moe["layer_freq"]
    every_layer_moe = freq == 1 or (isinstance(freq, list) and all(freq))
    # plan-schema: ffn_hidden is the dense FFN width, 0 when every layer is MoE
    out["ffn_hidden"] = 0 if every_layer_moe else ffn
    if not every_layer_moe and flags.has("ffn-hidden-size"):
        lines["ffn_hidden"] = flags.line("ffn-hidden-size")
    return out, lines


def _attention(flags: Flags, out: dict, put, assumed: list[str]) -> None:
    hidden, heads = out.get("hidden"), flags.int("num-attention-heads")
    put("heads", "num-attention-heads", heads)
    if flags.has("group-query-attention"):
        groups = flags.int("num-query-groups")
        if groups is None:
            groups = 1
            assumed.append("kv_heads=1: --group-query-attention without --num-query-groups (Megatron default)")
        put("kv_heads", "num-query-groups", groups)
    elif flags.has("num-key-value-heads"):  # Megatron-DeepSpeed's GQA flag
        put("kv_heads", "num-key-value-heads", flags.int("num-key-value-heads"))
    elif heads is not None:
        out["kv_heads"] = heads
    head_dim = flags.int("kv-channels")
    if head_dim is None and hidden and heads:
        head_dim = hidden // heads
    put("head_dim", "kv-channels", head_dim)
    if flags.has("qk-layernorm"):
        out["qk_norm"] = True
    if flags.has("multi-latent-attention"):
        out["attention"] = "mla"
        out["mla"] = {}
        # megatron-core 0.19.2 arguments.py:3381-3390: the flags and their defaults (q-lora-rank None: a plain
        # q_proj); Pai-Megatron-Patch spells the q/k dims --qk-nope-head-dim / --qk-rope-head-dim
        # (megatron_patch/arguments.py:453-454)
        for key, names, default in (("q_lora_rank", ("q-lora-rank",), 0), ("kv_lora_rank", ("kv-lora-rank",), 32),
                                    ("qk_nope_head_dim", ("qk-head-dim", "qk-nope-head-dim"), 128),
                                    ("qk_rope_head_dim", ("qk-pos-emb-head-dim", "qk-rope-head-dim"), 64),
                                    ("v_head_dim", ("v-head-dim",), 128)):
            got = next((flags.int(n) for n in names if flags.int(n) is not None), None)
            if got is None and key != "q_lora_rank":
                assumed.append(f"mla {key}={default}: --{names[0]} not given (Megatron default)")
            out["mla"][key] = default if got is None else got
        # plan-schema: for MLA the q/k head dim is the nope + rope parts
        out["head_dim"] = out["mla"]["qk_nope_head_dim"] + out["mla"]["qk_rope_head_dim"]


def _moe(flags: Flags, ffn: int | None, path: str, assumed: list[str]) -> dict | None:
    """Megatron-LM's MoE flags (--num-experts, --moe-*)."""
    experts = flags.int("num-experts")
    if experts is None:
        return None
    top_k = flags.int("moe-router-topk")
    if top_k is None:
        top_k = 2
        assumed.append("top_k=2: --moe-router-topk not given (Megatron default)")
    freq_text = flags.raw("moe-layer-freq")
    freq: int | list[int] = 1
    if freq_text is not None:
        try:
            freq = layer_freq(freq_text)
        except (ValueError, SyntaxError, RecursionError, MemoryError) as e:
            raise AuditParseError(path, flags.line("moe-layer-freq"),
                                  f"--moe-layer-freq {freq_text[:60]!r} is not an int or a list expression "
                                  f"({str(e)[:80]})") from None
    first_dense = 0
    if isinstance(freq, list):
        while first_dense < len(freq) and freq[first_dense] == 0:
            first_dense += 1
    shared = flags.int("moe-shared-expert-intermediate-size") or 0
    out = {"experts": experts, "top_k": top_k, "expert_ffn_hidden": flags.int("moe-ffn-hidden-size") or ffn,
           "shared_experts": 1 if shared else 0, "shared_ffn_hidden": shared,
           "first_dense_layers": first_dense, "layer_freq": freq}
    score = flags.raw("moe-router-score-function")
    if score:
        out["router_score"] = score
    if flags.has("moe-router-enable-expert-bias"):
        out["router_bias"] = True
    return out


def _moe_ds(flags: Flags, ffn: int | None, layers: int | None, assumed: list[str]) -> dict | None:
    """Megatron-DeepSpeed's MoE flags: --num-experts (one count, or one per MoE layer), --topk [1],
    --expert-interval [2]: 1-based layer n is MoE iff n % interval == 0 (megatron/model/transformer.py
    get_num_experts_per_layer). Experts are GeLU/SwiGLU MLPs as wide as the dense FFN."""
    counts = flags.ints("num-experts")
    if not counts or max(counts) <= 1:
        return None
    interval = flags.int("expert-interval")
    if interval is None:
        interval = 2
        assumed.append("expert_interval=2: --expert-interval not given (Megatron-DeepSpeed default): "
                       "every second layer is MoE")
    top_k = flags.int("topk")
    if top_k is None:
        top_k = 1
        assumed.append("top_k=1: --topk not given (Megatron-DeepSpeed default)")
    freq: int | list[int] = [1 if (n + 1) % max(interval, 1) == 0 else 0 for n in range(layers or 0)]
    if interval == 1:
        freq = 1
    first_dense = 0 if freq == 1 else next((i for i, v in enumerate(freq) if v), 0)
    return {"experts": max(counts), "top_k": top_k, "expert_ffn_hidden": ffn, "shared_experts": 0,
            "shared_ffn_hidden": 0, "first_dense_layers": first_dense, "layer_freq": freq}

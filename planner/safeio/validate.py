"""Input validation at the edges: command-line values, spec / HF config.json / plan files.

Every value that enters foldplan is checked here (by the pydantic specs, which call
`spec_field_before` / `spec_field_after` for every field, and by planner.cli.args, which reads
each flag with `size` / `integer` / `real` and its spec field's bound): finite, integral where it
must be, and inside the documented bounds below, so that no number can overflow the
CP-SAT model's 64-bit integers or make the search run for ever. A refusal is an
`InputError` with one line that names the field and shows the arithmetic
(`gpus: 18446744073709551616 exceeds the limit 1048576`); the CLI exits 2.

Bounds (generous: 10-100x the largest published training runs):

    world (gpus)          <= 2**20 GPUs          gpus_per_node <= 2**20
    seq                   <= 2**26 tokens        global batch  <= 2**40 tokens per step
    layers                <= 4096                hidden, heads, kv_heads, head_dim, ffn widths <= 2**20
    vocab                 <= 2**24               experts <= 2**16, top_k <= experts
    micro-batch           <= 2**16 sequences     memory per GPU <= 2**20 GiB
    capacity factor       <= 1024                time limit <= 86400 s, --top <= 1000
"""
from __future__ import annotations

import math
import os
import re
import unicodedata
from typing import Any, Optional, Union

import numpy as np

from planner.safeio import InputError

# --------------------------------------------------------------------------- bounds

MAX_GPUS = 2**20
MAX_SEQ = 2**26
MAX_BATCH_TOKENS = 2**40
MAX_LAYERS = 4096
MAX_DIM = 2**20
MAX_VOCAB = 2**24
MAX_EXPERTS = 2**16
MAX_MICRO_BATCH = 2**16
MAX_MEMORY_GIB = 2**20          # 1 PiB: tests use 1e6 GiB as "no limit"
MAX_CAPACITY_FACTOR = 1024.0
MAX_TIME_LIMIT = 86400.0
MAX_TOP = 1000
MAX_NAME = 128
MAX_INT = 2**53          # any other integer field of a spec

# (low, high) per spec field; ints are inclusive, floats too (pydantic's own gt/ge also hold)
BOUNDS: dict[str, dict[str, tuple]] = {
    "ModelSpec": {"layers": (1, MAX_LAYERS), "hidden": (1, MAX_DIM), "heads": (1, MAX_DIM),
                  "kv_heads": (1, MAX_DIM), "head_dim": (1, MAX_DIM), "vocab": (1, MAX_VOCAB),
                  "ffn_hidden": (0, MAX_DIM), "mtp_layers": (0, 64)},
    "MoESpec": {"experts": (1, MAX_EXPERTS), "top_k": (1, MAX_EXPERTS), "expert_ffn_hidden": (1, MAX_DIM),
                "shared_experts": (0, 1024), "shared_ffn_hidden": (0, MAX_DIM),
                "first_dense_layers": (0, MAX_LAYERS), "layer_freq": (1, MAX_LAYERS)},
    "MLASpec": {"q_lora_rank": (0, MAX_DIM), "kv_lora_rank": (1, MAX_DIM), "qk_rope_head_dim": (1, MAX_DIM),
                "qk_nope_head_dim": (1, MAX_DIM), "v_head_dim": (1, MAX_DIM)},
    "GPUSpec": {"memory_gib": (1e-3, MAX_MEMORY_GIB), "peak_flops": (1e9, 1e18), "hbm_bw": (1e6, 1e16),
                "fp8_peak_flops": (1e9, 1e18), "fp8_compute_efficiency": (1e-3, 1.0),
                "intra_node_bw": (1e6, 1e16), "inter_node_bw": (1e6, 1e16), "gpus_per_node": (1, MAX_GPUS),
                "gpus_per_domain": (1, MAX_GPUS), "latency_s": (0.0, 1.0), "hbm_efficiency": (1e-3, 1.0), "compute_efficiency": (1e-3, 1.0),
                "attention_efficiency": (1e-3, 1.0), "bus_efficiency": (1e-3, 1.0),
                "reserve_gib": (0.0, MAX_MEMORY_GIB)},
    "ClusterSpec": {"gpus": (1, MAX_GPUS), "gpus_per_node": (1, MAX_GPUS), "gpus_per_domain": (1, MAX_GPUS),
                    "used_per_domain": (1, MAX_GPUS),
                    "memory_budget_gib": (1e-3, MAX_MEMORY_GIB)},
    "TrainSpec": {"seq": (1, MAX_SEQ), "global_batch_tokens": (1, MAX_BATCH_TOKENS),
                  "micro_batches": (1, MAX_MICRO_BATCH), "capacity_factor": (1e-3, MAX_CAPACITY_FACTOR),
                  "grad_bytes": (1, 8), "moe_imbalance": (1.0, 64.0), "max_vpp": (1, 64)},
}
MAX_LIST = {"micro_batches": 64, "layer_freq": MAX_LAYERS}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _check_number(field: str, v, lo, hi) -> None:
    if isinstance(v, bool):
        raise ValueError(f"expected a number, got {v!r}")
    if isinstance(v, float) and not math.isfinite(v):
        raise ValueError(f"must be finite, got {v}")
    if lo is not None and v < lo:
        raise ValueError(f"{_fmt(v)} is below the limit {_fmt(lo)}")
    if hi is not None and v > hi:
        raise ValueError(f"{_fmt(v)} exceeds the limit {_fmt(hi)}")


def check_name(v: str, field: str = "name") -> str:
    """A display name that ends up in reports and generated scripts: printable, short."""
    m = _CONTROL.search(v)
    if m:
        raise ValueError(f"contains the control character {m.group()!r}; use printable characters only")
    if len(v) > MAX_NAME:
        raise ValueError(f"is {len(v)} characters long, over the limit of {MAX_NAME}")
    return v


def spec_field_before(cls_name: str, field: str, annotation, v):
    """Raw value of a spec field, before pydantic's coercion: no bool where a number goes."""
    ann = str(annotation)
    if isinstance(v, bool) and ("int" in ann or "float" in ann) and "bool" not in ann:
        raise ValueError(f"expected a number, got {v!r}")
    if isinstance(v, (list, tuple)) and len(v) > MAX_LIST.get(field, 4096):
        raise ValueError(f"{len(v)} entries exceed the limit {MAX_LIST.get(field, 4096)}")
    if isinstance(v, str) and len(v) > 4096:
        raise ValueError(f"a string of {len(v)} characters exceeds the limit 4096")
    return v


def spec_field_after(cls_name: str, field: str, v):
    """A spec field after coercion: inside its bound; names printable."""
    lo, hi = BOUNDS.get(cls_name, {}).get(field, (None, None))
    if isinstance(v, str):
        if field == "name":
            check_name(v)
        elif "\0" in v:
            raise ValueError("contains a NUL byte")
        return v
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float)):
        if lo is None and isinstance(v, int):
            lo, hi = -MAX_INT, MAX_INT
        _check_number(field, v, lo, hi)
    elif isinstance(v, (list, tuple)):          # entries: the field's bound, or 0..bound for 0/1 lists
        for x in v:
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                _check_number(field, x, *((min(lo, 0), hi) if lo is not None else (-MAX_INT, MAX_INT)))
    return v


# --------------------------------------------------------------------------- command-line values
# (planner.cli.args reads each flag with these, bounded by BOUNDS)

_SIZE = re.compile(r"\s*(\d{1,20})(?:\.(\d{1,20}))?\s*([kKmMgGtT]?)\s*", re.ASCII)
_SUFFIX = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def size(text, field: str, limit: int) -> int:
    """`128k` -> 131072 (binary suffixes), exactly (no float), within [1, limit]."""
    if text is None:
        raise InputError(f"{field}: missing")
    s = str(text)
    if not s.strip():
        raise InputError(f"{field}: empty; give a size like 4096, 128k or 1M")
    m = _SIZE.fullmatch(s)
    if not m:
        raise InputError(f"{field}: expected a positive size like 4096, 128k or 1M, got {s[:40]!r}")
    whole, frac, suf = m.group(1), m.group(2) or "", m.group(3).lower()
    num = int(whole + frac) * _SUFFIX[suf]
    den = 10 ** len(frac)
    if num % den:
        raise InputError(f"{field}: {s.strip()!r} is not a whole number")
    value = num // den
    if value < 1:
        raise InputError(f"{field}: must be positive, got {s.strip()!r}")
    if value > limit:
        shown = s.strip() if s.strip() == str(value) else f"{s.strip()} = {value}"
        raise InputError(f"{field}: {shown} exceeds the limit {limit}")
    return value


def integer(text, field: str, lo: int, hi: int) -> int:
    s = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", s):          # ASCII digits: int() also reads '٨' and '８'
        raise InputError(f"{field}: expected an integer, got {str(text)[:40]!r}")
    v = int(s)
    if v < lo:
        raise InputError(f"{field}: must be >= {lo}, got {v}")
    if v > hi:
        raise InputError(f"{field}: {v} exceeds the limit {hi}")
    return v


def real(v, field: str, lo: float, hi: float, lo_open: bool = True) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
        raise InputError(f"{field}: must be a finite number, got {v}")
    if (v <= lo if lo_open else v < lo):
        raise InputError(f"{field}: must be {'>' if lo_open else '>='} {_fmt(lo)}, got {_fmt(v)}")
    if v > hi:
        raise InputError(f"{field}: {_fmt(v)} exceeds the limit {_fmt(hi)}")
    return float(v)


# --------------------------------------------------------------------------- HF config.json

# integer keys of the HF conventions foldplan reads, with their bounds
_HF_INTS = {
    "num_hidden_layers": (1, MAX_LAYERS), "hidden_size": (1, MAX_DIM), "num_attention_heads": (1, MAX_DIM),
    "num_key_value_heads": (0, MAX_DIM), "head_dim": (0, MAX_DIM), "vocab_size": (1, MAX_VOCAB),
    "intermediate_size": (0, MAX_DIM), "num_local_experts": (0, MAX_EXPERTS), "num_experts": (0, MAX_EXPERTS),
    "n_routed_experts": (0, MAX_EXPERTS), "num_experts_per_tok": (0, MAX_EXPERTS), "moe_topk": (0, MAX_EXPERTS),
    "moe_intermediate_size": (0, MAX_DIM), "n_shared_experts": (0, 1024),
    "shared_expert_intermediate_size": (0, MAX_DIM), "first_k_dense_replace": (0, MAX_LAYERS),
    "moe_layer_freq": (0, MAX_LAYERS), "decoder_sparse_step": (0, MAX_LAYERS), "kv_lora_rank": (0, MAX_DIM),
    "q_lora_rank": (0, MAX_DIM), "qk_rope_head_dim": (0, MAX_DIM), "qk_nope_head_dim": (0, MAX_DIM),
    "v_head_dim": (0, MAX_DIM), "num_nextn_predict_layers": (0, 64),
    "intermediate_size_mlp": (0, MAX_DIM), "interleave_moe_layer_step": (0, MAX_LAYERS),
    "experts_per_token": (0, MAX_EXPERTS), "attention_chunk_size": (0, 2**40), "sliding_window": (0, 2**40),
    "max_window_layers": (0, MAX_LAYERS), "no_rope_layer_interval": (0, MAX_LAYERS), "index_topk": (0, 2**40),
    "index_n_heads": (0, MAX_DIM), "index_head_dim": (0, MAX_DIM),
}
_HF_BOOLS = ("tie_word_embeddings", "attention_bias", "mlp_bias", "use_qk_norm", "use_sliding_window")
_HF_STRS = ("model_type", "scoring_func", "topk_method")
_HF_INT_LISTS = ("mlp_only_layers", "moe_layers", "no_rope_layers")


def hf_config(cfg: dict, name: str) -> None:
    """The keys of a HF config.json that foldplan reads: integers are integers (not
    3.7, true or "32"), inside the bounds; booleans are booleans; lists are lists."""
    where = f"model {name}: config.json"
    for key in ("num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size"):
        if key in cfg and cfg[key] is None:
            raise InputError(f"{where} {key}: expected an integer, got null")
    for key, (lo, hi) in _HF_INTS.items():
        v = cfg.get(key)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise InputError(f"{where} {key}: expected an integer, got {v!r:.40}")
        if isinstance(v, float) and (not math.isfinite(v) or v != int(v)):
            raise InputError(f"{where} {key}: expected an integer, got {v!r}")
        if v < lo:
            raise InputError(f"{where} {key}: must be >= {lo}, got {v!r}")
        if v > hi:
            raise InputError(f"{where} {key}: {v!r} exceeds the limit {hi}")
    for key in _HF_BOOLS:
        if key in cfg and cfg[key] is not None and not isinstance(cfg[key], bool):
            raise InputError(f"{where} {key}: expected true or false, got {cfg[key]!r:.40}")
    for key in _HF_STRS:
        if key in cfg and cfg[key] is not None and not isinstance(cfg[key], str):
            raise InputError(f"{where} {key}: expected a string, got {cfg[key]!r:.40}")
    for key in _HF_INT_LISTS:
        got = cfg.get(key)
        if got is not None and (not isinstance(got, list) or len(got) > MAX_LAYERS or any(
                isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < MAX_LAYERS for i in got)):
            raise InputError(f"{where} {key}: expected a list of layer numbers, got {got!r:.60}")
    kinds = cfg.get("layer_types")
    if kinds is not None and (not isinstance(kinds, list) or len(kinds) > MAX_LAYERS
                              or any(not isinstance(k, str) for k in kinds)):
        raise InputError(f"{where} layer_types: expected a list of layer kinds (strings), got {kinds!r:.60}")


# --------------------------------------------------------------------------- plan files



def plan_index(index: Optional[int], n: int, where: str) -> None:
    if index is not None and not 0 <= index < n:
        raise InputError(f"index: {where} has {n} plan{'s' if n != 1 else ''} (0..{n - 1}), no plan at index {index}")


# --------------------------------------------------------------------------- solver magnitudes

SOLVER_CAP = 2**62        # CP-SAT's integers are int64; leave a factor 2 of headroom


def solver_safe(problem, tab) -> "Any":
    """Per tuple: True when every integer coefficient of its CP-SAT stage model, times
    the largest multiplier the model applies (layers, micro-batches, foldings), stays
    below 2**62. A tuple that fails could only overflow the solver: it is dropped."""
    if hasattr(tab, "coef"):                       # coef[term][part][row]
        arrays = [a for parts in tab.coef.values() for a in parts.values()]
    else:                                          # one array per named column
        arrays = [v for v in vars(tab).values() if isinstance(v, np.ndarray) and v.dtype.kind in "iu"]
    n_rows = max((sl.stop for sl in tab.rows), default=0)
    if n_rows == 0:                                # no folding survived: nothing to overflow
        return np.ones(len(tab.tuples), bool)
    per_row = np.zeros(n_rows)
    for a in arrays:
        a = np.asarray(a)
        if a.shape[:1] == (n_rows,):
            per_row = np.maximum(per_row, np.abs(a.astype(float)).reshape(n_rows, -1).max(axis=1))
    L = problem.model.layers + 2
    out = np.ones(len(tab.tuples), bool)
    for ti, tu in enumerate(tab.tuples):
        sl = tab.rows[ti]
        if sl.stop == sl.start:
            continue
        nf = sl.stop - sl.start
        mult = float((nf + 3) * L * 4 * (tu.vpp * tu.num_microbatches + tu.pp) * tu.vpp)
        out[ti] = bool(np.isfinite(per_row[sl]).all()) and float(per_row[sl].max()) * mult < SOLVER_CAP
    return out


# --------------------------------------------------------------------------- the command line itself

from planner.safeio.console import OneLineParser, _pyd, error_line, flushed, quiet_streams, stdout_closed  # noqa: E402,F401  (re-exported)

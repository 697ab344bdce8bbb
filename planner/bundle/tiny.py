"""The `--tiny` model of a bundle: the planned layout with small dimensions (`tiny_dims`, what
the bundle's `--tiny` and `--check` run) and its ModelSpec (`tiny_spec`, whose FLOPs per token
the planner counts for the bundle's MFU)."""
from __future__ import annotations

import math

from planner.layout import Layout
from planner.layout.divisibility import local_heads, ulysses_divides
from planner.specs import ModelSpec


def tiny_dims(full: dict, lay: Layout, etp: int = 1) -> dict:
    """Small dimensions with the same layout: heads divisible by tp * cp_ulysses,
    kv heads by tp; hidden 64, head_dim 8, ffn 64, expert ffn 32, vocab 128."""
    tp, U = lay.tp, lay.cp_ulysses
    heads, kv = full["heads"], full["kv_heads"]
    if heads > 16 or not _splits(heads, tp, U) or (kv % tp and tp % kv):
        kv = tp * (U if _splits(full["kv_heads"], tp, U) else 1)
        ratio = min(max(full["heads"] // full["kv_heads"], 1), 4)
        if not ulysses_divides(U, local_heads(kv, tp)):
            ratio = U * math.ceil(ratio / U)
        heads = kv * ratio
    t = dict(full)
    t.update(heads=heads, kv_heads=kv, head_dim=8, hidden=64, vocab=128,
             ffn_hidden=multiple(64, tp) if full["ffn_hidden"] else 0,
             expert_ffn=multiple(32, etp) if full["experts"] else 0, shared_ffn=32 if full["shared_ffn"] else 0)
    t["name"] = full["name"] + " (tiny)"
    return t


def _splits(n: int, tp: int, cp_ulysses: int) -> bool:
    """Whether `n` heads split over tp and then over Ulysses' all-to-all."""
    return n % tp == 0 and ulysses_divides(cp_ulysses, local_heads(n, tp))


def tiny_spec(model: ModelSpec, tiny: dict) -> ModelSpec:
    """The ModelSpec of the `--tiny` model (`tiny_dims`; MLA runs as multi-head attention)."""
    moe = model.moe and model.moe.model_copy(update={"expert_ffn_hidden": tiny["expert_ffn"],
                                                     "shared_experts": int(tiny["shared_ffn"] > 0),
                                                     "shared_ffn_hidden": tiny["shared_ffn"]})
    return model.model_copy(update={k: tiny[k] for k in ("hidden", "heads", "kv_heads", "head_dim", "vocab",
                                                         "ffn_hidden")} | {"attention": "gqa", "mla": None, "moe": moe})


def multiple(x: int, m: int) -> int:
    """The least multiple of m at or above x."""
    return m * math.ceil(x / m)

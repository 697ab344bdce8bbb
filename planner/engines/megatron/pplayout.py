"""Megatron-Core's ``--pipeline-model-parallel-layout`` string -> layers per (virtual) stage.

Grammar (megatron/core/transformer/pipeline_parallel_layer_layout.py, ``parse_str_to_list``):
stages are separated by ``|``; inside a stage ``E`` is the embedding, ``t`` a transformer
layer, ``m`` an MTP module, ``L`` the loss; ``x*n`` repeats one character, ``(...)*n``
repeats a group (which may hold ``|``); commas are cosmetic. The list has pp * vpp
stages; virtual stage ``v`` of pipeline rank ``r`` is entry ``v * pp + r``.

    "Et*3|(tt|)*29,m|L"  ->  [3] + [2] * 29 + [0, 0] transformer layers per stage

The expansion is bounded (``MAX_CHARS``), so ``(t)*99999999`` is refused, not expanded.
"""

from __future__ import annotations

import re
from typing import Optional

from planner.layout.foreign import exact_div

MAX_CHARS = 1_000_000
_GROUP = re.compile(r"\(([^()]+)\)\*(\d+)")
_ONE = re.compile(r"(.)\*(\d+)")


class LayoutStringError(ValueError):
    pass


def _unroll(pattern: re.Pattern, text: str) -> str:
    def rep(m: re.Match) -> str:
        n = int(m.group(2)) if len(m.group(2)) < 9 else MAX_CHARS + 1
        if len(m.group(1)) * n > MAX_CHARS:
            raise LayoutStringError(f"{m.group(0)!r} expands past {MAX_CHARS:,} characters")
        return m.group(1) * n

    out = pattern.sub(rep, text)
    if len(out) > MAX_CHARS:
        raise LayoutStringError(f"expands past {MAX_CHARS:,} characters")
    return out


def parse(text: str, pp: int) -> dict:
    """``{"virtual": [layers per virtual stage], "stages": [layers per pipeline rank], "vpp",
    "embedding_stage", "loss_stage", "mtp"}``; raises LayoutStringError with the reason."""
    s = text.replace(",", "").strip()
    if len(s) > MAX_CHARS:
        raise LayoutStringError("longer than a layout string can be")
    s = _unroll(_GROUP, s)
    s = _unroll(_ONE, s)
    virtual = s.split("|")
    bad = sorted(set(s) - set("EtmL|"))
    if bad:
        raise LayoutStringError(f"unknown layer character(s) {''.join(bad)!r} (known: E t m L)")
    if pp < 1 or len(virtual) % pp:
        raise LayoutStringError(f"{len(virtual)} stages is not a multiple of pp({pp})")
    vpp = len(virtual) // pp
    counts = [v.count("t") for v in virtual]
    stages = [sum(counts[k * pp + r] for k in range(vpp)) for r in range(pp)]

    def owner(ch: str) -> int | None:
        hit = [i for i, v in enumerate(virtual) if ch in v]
        return hit[0] % pp if hit else None

    flat = "".join(virtual[v * pp + r] for v in range(vpp) for r in range(pp))   # Megatron's layer-id order
    return {"virtual": counts, "stages": stages, "vpp": vpp, "embedding_stage": owner("E"),
            "loss_stage": owner("L"), "mtp": s.count("m"), "layers": s.count("t"), "embeddings": s.count("E"),
            "losses": s.count("L"), "first": flat[:1], "last": flat[-1:],
            "decoder_after_mtp": "m" in flat and "t" in flat[flat.index("m"):]}


def empty_virtual_stages(extra: dict, pp: int, vpp: int) -> tuple[int, int] | None:
    """How many virtual stages of the first and of the last pipeline rank Megatron lets hold no decoder
    layer, or None where every one may (a ``--pipeline-model-parallel-layout`` names each virtual stage's
    contents, "E" or "mL" alone included). With ``--account-for-embedding-in-pipeline-split`` /
    ``--account-for-loss-in-pipeline-split`` the embedding / the loss is a pipeline unit: Megatron splits
    layers + units over pp x vpp virtual stages (megatron/training/arguments.py:928-933) and builds one
    layer fewer in the first (last) virtual stage, down to none (megatron/core/transformer/
    transformer_block.py:185-197, get_num_layers_to_build; megatron-core 0.19.2)."""
    if extra.get("pp_layout"):
        return None
    return int(bool(extra.get("account_embedding"))), int(bool(extra.get("account_loss")))


def per_stage(c, layers: int, pp: int) -> tuple[Optional[str], Optional[int]]:
    """Why the pipeline split is not whole (or None), and the layers per stage."""
    first, last = c.first_stage_layers, c.last_stage_layers
    if first is not None or last is not None:
        given = [x for x in (first, last) if x is not None]
        middle_layers, middle_stages = layers - sum(given), pp - len(given)
        shown = " - ".join([f"layers({layers})"] + [f"{n}({x})" for n, x in (("first", first), ("last", last))
                                                    if x is not None])
        bad = pp < 2 or middle_layers < 0 or (middle_stages == 0 and middle_layers) or \
            (middle_stages > 0 and middle_layers % middle_stages)
        why = (f"{c.where('first_stage_layers', 'last_stage_layers')}: uneven pipeline split: {shown} = "
               f"{middle_layers} middle layers over pp({pp}) - {len(given)} = {middle_stages} middle stages "
               f"is not a whole number per stage") if bad else None
        return why, exact_div(middle_layers, middle_stages) if middle_stages > 0 else None
    counted = layers + int(bool(c.extra.get("account_embedding"))) + int(bool(c.extra.get("account_loss")))
    why = None
    if counted % pp:
        extra_terms = "".join(f" + 1 ({n})" for n, k in (("embedding", "account_embedding"),
                                                         ("loss", "account_loss")) if c.extra.get(k))
        why = f"{c.where('layers', 'pp')}: num_layers({layers}){extra_terms} = {counted} is not divisible by pp({pp})"
    return why, exact_div(counted, pp)


def layout_broken(c, layout: dict, layers: int) -> Optional[str]:
    """Why Megatron refuses the --pipeline-model-parallel-layout for this model (None: it accepts it):
    megatron/core/transformer/pipeline_parallel_layer_layout.py:85-115 validate_layer_layout, called
    from transformer_config.py:1984 (megatron-core 0.19.2). The embedding (E) and the loss (L) are
    entries of their own, as are the MTP modules (m): only `t` entries are the model's layers."""
    mtp = c.model.get("mtp_layers") or 0
    where = c.where("stage_layers")
    if layout["first"] != "E" or layout["embeddings"] != 1:
        return f"{where}: the layout must open with the embedding E, once (it has {layout['embeddings']})"
    if layout["last"] != "L" or layout["losses"] != 1:
        return f"{where}: the layout must end with the loss L, once (it has {layout['losses']})"
    if layout["layers"] != layers:
        return f"{where}: the layout places {layout['layers']} transformer layers (t) but num_layers is {layers}"
    if layout["mtp"] != mtp:
        return f"{where}: the layout places {layout['mtp']} MTP module(s) (m) but mtp_num_layers is {mtp}"
    if layout["decoder_after_mtp"]:
        return f"{where}: a transformer layer (t) comes after an MTP module (m); decoder layers go first"
    return None

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

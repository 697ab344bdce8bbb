"""The precision a Megatron-LM script runs (TrainSpec.precision, fp8_param_gather): its FP8 flags.

megatron-core 0.19.2: `--fp8-format e4m3|hybrid` turns FP8 on (TransformerConfig.fp8, argparse name
--fp8-format: megatron/core/transformer/transformer_config.py:566-568); `--fp8-recipe` picks the
scaling, default "delayed" (same file :573-575; choices tensorwise, delayed, mxfp8, blockwise, custom);
`--fp8-param-gather` keeps the compute weights in FP8 and all-gathers them in FP8
(megatron/training/arguments.py:1935-1937; only with the distributed optimizer or an FSDP, :1060-1062).
The format changes no cost here (e4m3 or e5m2 gradients: one byte either way); a "custom" recipe
(a user's quantizer factory) is not modelled and is estimated as bf16 with a note.
"""
from __future__ import annotations

RECIPE = {"delayed": "fp8-delayed", "tensorwise": "fp8-tensorwise", "blockwise": "fp8-blockwise", "mxfp8": "mxfp8"}
FLAGS = ("fp8-format", "fp8-recipe", "fp8-param-gather")


def precision(flags, extra: dict, lines: dict, assumed: list) -> None:
    """Set extra["precision"] / extra["fp8_param_gather"] from the FP8 flags (none given: nothing set)."""
    fmt = flags.raw("fp8-format")
    if fmt is None:
        if flags.has("fp8-recipe") or flags.has("fp8-param-gather"):
            assumed.append("precision=bf16: --fp8-recipe / --fp8-param-gather without --fp8-format (FP8 is off)")
        return
    recipe = flags.raw("fp8-recipe") or "delayed"
    if not flags.has("fp8-recipe"):
        assumed.append("fp8 recipe delayed: --fp8-recipe not given (TransformerConfig.fp8_recipe default)")
    if recipe not in RECIPE:
        assumed.append(f"precision=bf16: --fp8-recipe {recipe} is not modelled (a user quantizer)")
        return
    extra["precision"] = RECIPE[recipe]
    extra["fp8_param_gather"] = flags.has("fp8-param-gather")
    extra["fp8_library"] = "te"                    # Megatron-Core's FP8 linears are Transformer Engine's
    lines["precision"] = flags.line("fp8-format")

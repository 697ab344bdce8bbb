"""Megatron's FP8 rules (megatron-core 0.19.2): the recipes its --fp8-recipe names, and the recompute
modules delayed scaling refuses; added to the engine's table by planner.engines.megatron.rules."""
from __future__ import annotations

# --fp8-recipe's values (transformer/transformer_config.py:573): Transformer Engine's recipes; rowwise
# scaling is torchao's
PRECISIONS = ("bf16", "fp8-delayed", "fp8-tensorwise", "fp8-blockwise", "mxfp8")
# recompute modules Megatron refuses under FP8 delayed scaling (transformer_config.py:1822-1827); under
# the other recipes they need Transformer Engine >= 2.6 (:1828-1833; the export says so)
FP8_DELAYED_NO_RECOMPUTE = ("moe_act", "layernorm")


def narrow(train) -> dict:
    """The TrainSpec updates of a Megatron search: no moe_act / layernorm recompute under delayed scaling."""
    if train.precision == "fp8-delayed" and set(train.recompute_modules) & set(FP8_DELAYED_NO_RECOMPUTE):
        return {"recompute_modules": tuple(m for m in train.recompute_modules if m not in FP8_DELAYED_NO_RECOMPUTE)}
    return {}


def add(table) -> None:
    @table.rule("target.precision", "degree", "world", "Megatron runs the planned precision (its --fp8-recipe values)")
    def _(x, pr):
        if pr.train.precision not in PRECISIONS:
            return (f"Megatron cannot run precision {pr.train.precision}: its --fp8-recipe is delayed, tensorwise, "
                    f"blockwise or mxfp8 (transformer_config.py:573); {pr.train.precision} is torchao's")

    @table.rule("target.fp8_delayed_recompute", "recompute", "",
                "no moe_act / layernorm recompute under FP8 delayed scaling")
    def _(L, pr):
        used = sorted({m for s in L.stages for m in s.recompute_modules if s.recompute_selective} &
                      set(FP8_DELAYED_NO_RECOMPUTE))
        if pr.train.precision == "fp8-delayed" and used:
            return (f"recompute of {' and '.join(used)} under fp8-delayed: Megatron refuses it (transformer_config."
                    f"py:1822-1827, \"Delayed scaling does not support moe_act and layernorm recompute for fp8\")")

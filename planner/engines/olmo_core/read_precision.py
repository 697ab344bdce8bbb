"""The precision an OLMo-core script trains in: its train module's ``float8_config``.

ai2-olmo-core 3.0.0 (olmo_core/float8/__init__.py: Float8Config(ao, ao_recipe, ao_mx, enabled); ao.py:100-103
AOFloat8LinearRecipe tensorwise | rowwise | rowwise_with_gw_hp): torchao's Float8Linear on the blocks' linears;
``ao_recipe`` names the recipe, ``ao`` an AOFloat8LinearConfig (torchao's default: tensorwise dynamic scaling;
its enable_fsdp_float8_all_gather is the FP8 parameter all-gather), ``ao_mx`` an MX config (MXFP8);
none of them: tensorwise (AOFloat8LinearConfig() defaults, __init__.py should_precompute...).
"""
from __future__ import annotations


def precision(f8, Call) -> tuple[dict, list[str]]:
    """({TrainSpec field: value}, notes) of a ``float8_config=`` value (a Call, None or anything else)."""
    out, notes = _precision(f8, Call)
    return ({**out, "fp8_library": "torchao"} if out else out), notes


def _precision(f8, Call) -> tuple[dict, list[str]]:
    if not isinstance(f8, Call) or f8.get("enabled", True) is not True:
        return {}, []
    mx, recipe, ao = f8.get("ao_mx", None), f8.get("ao_recipe", None), f8.get("ao", None)
    if mx is not None:
        return {"precision": "mxfp8", "fp8_param_gather": False}, ["precision=mxfp8: float8_config ao_mx"]
    if isinstance(recipe, str) and "rowwise" in recipe:
        return {"precision": "fp8-rowwise", "fp8_param_gather": False}, [f"precision=fp8-rowwise: ao_recipe {recipe}"]
    gather = isinstance(ao, Call) and ao.get("enable_fsdp_float8_all_gather", False) is True
    return ({"precision": "fp8-tensorwise", "fp8_param_gather": gather},
            ["precision=fp8-tensorwise: float8_config enabled (torchao's tensorwise dynamic scaling)"])

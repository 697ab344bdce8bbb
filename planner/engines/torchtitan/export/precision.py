"""The plan's precision in a torchtitan export (planner.engines.torchtitan.read.precision reads it back).

0.2.2 TOML: ``[model] converters`` "quantize.linear.float8" with ``[quantize.linear.float8]`` recipe_name
(unset: tensorwise; "rowwise") and enable_fsdp_float8_all_gather (tensorwise only: float8.py:64-69
asserts it is off with a recipe name), or "quantize.linear.mx"; a MoE model's experts by
"quantize.grouped_mm.float8" / ".mx" with fqns ["experts"] (job_config.py:756-800). The output head
is filtered (filter_fqns ["output"]), as the cost model keeps it in bf16.
0.3.0 module: ``model_registry(flavor, converters=[Float8LinearConverter.Config(recipe_name="rowwise")])``
(rowwise only: 0.3 has no tensorwise, components/quantization/float8.py:57-58) or
MXFP8LinearConverter.Config(); the experts by Float8GroupedExpertsConverter / MXFP8GroupedExpertsConverter.
Delayed and blockwise scaling are Transformer Engine's: no torchtitan key says them (refused).
"""
from __future__ import annotations

from planner.engines.errors import ExportError


def toml_tables(plan) -> dict:
    """{section: {key: value}} to merge into the 0.2 TOML ({} for bf16)."""
    t, moe = plan.problem.train, plan.problem.model.moe is not None
    if t.precision == "bf16":
        return {}
    if t.precision in ("fp8-tensorwise", "fp8-rowwise"):
        f8 = {"filter_fqns": ["output"]}
        if t.precision == "fp8-rowwise":
            f8["recipe_name"] = "rowwise"
            if t.fp8_param_gather:
                raise ExportError("export --to torchtitan-0.2: fp8_param_gather with fp8-rowwise: torchtitan's "
                                  "float8 all-gather is tensorwise only (components/quantization/float8.py:64-69)")
        else:
            f8["enable_fsdp_float8_all_gather"] = bool(t.fp8_param_gather)
        conv = ["quantize.linear.float8"] + (["quantize.grouped_mm.float8"] if moe else [])
        out = {"quantize.linear.float8": f8}
        if moe:
            out["quantize.grouped_mm.float8"] = {"fqns": ["experts"]}
        return {"model": {"converters": conv}, **out}
    if t.precision == "mxfp8":
        out = {"quantize.linear.mx": {"filter_fqns": ["output"]}}
        if moe:
            out["quantize.grouped_mm.mx"] = {"fqns": ["experts"]}
        return {"model": {"converters": ["quantize.linear.mx"] + (["quantize.grouped_mm.mx"] if moe else [])}, **out}
    raise ExportError(f"export --to torchtitan: precision {t.precision} is Transformer Engine's recipe; torchtitan "
                      f"runs bf16, fp8-tensorwise (0.2), fp8-rowwise or mxfp8")


def v03_converters(plan) -> tuple[str, str]:
    """(import line, `converters=[...]` argument) of the 0.3 module ('' and '' for bf16)."""
    t, moe = plan.problem.train, plan.problem.model.moe is not None
    if t.precision == "bf16":
        return "", ""
    if t.precision == "fp8-rowwise" and not t.fp8_param_gather:
        names = ["Float8LinearConverter"] + (["Float8GroupedExpertsConverter"] if moe else [])
        args = ["Float8LinearConverter.Config(recipe_name='rowwise', filter_fqns=['lm_head'])"]
    elif t.precision == "mxfp8" and not t.fp8_param_gather:
        names = ["MXFP8LinearConverter"] + (["MXFP8GroupedExpertsConverter"] if moe else [])
        args = ["MXFP8LinearConverter.Config(filter_fqns=['lm_head'])"]
    else:
        raise ExportError(f"export --to torchtitan: precision {t.precision}"
                          f"{' with fp8_param_gather' if t.fp8_param_gather else ''}: torchtitan 0.3 runs fp8-rowwise "
                          f"or mxfp8 (its float8 converter has no tensorwise recipe and no float8 all-gather: "
                          f"components/quantization/float8.py:57-60); 0.2 runs tensorwise: --to torchtitan-0.2")
    args += [f"{n}.Config()" for n in names[1:]]
    return f"from torchtitan.components.quantization import {', '.join(names)}", f", converters=[{', '.join(args)}]"

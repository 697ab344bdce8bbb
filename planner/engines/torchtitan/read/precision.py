"""The precision a torchtitan config runs (TrainSpec.precision, fp8_param_gather), from its model
converters: the 0.2 TOML's ``[model] converters`` with the ``[quantize.linear.float8]`` /
``[quantize.linear.mx]`` tables (older TOMLs: ``"float8"`` with a ``[float8]`` table), the 0.3 config
module's ``model_registry(..., converters=[<Converter>.Config(...)])``.

torchtitan 0.2.2 (torchtitan/config/job_config.py:731-800; components/quantization/float8.py:64-100,
238-239; mx.py:171-172): converter "quantize.linear.float8" swaps nn.Linear for torchao's Float8Linear,
per tensor ("tensorwise") when recipe_name is unset, else the recipe named ("rowwise",
"rowwise_with_gw_hp"); enable_fsdp_float8_all_gather applies only without a recipe name and with FSDP
sharding (float8.py:86-89); "quantize.linear.mx" is MXFP8; "quantize.grouped_mm.float8" /
"quantize.grouped_mm.mx" quantize the MoE experts' grouped GEMMs (torchao rowwise / MXFP8).
torchtitan 0.3.0 (torchtitan/components/quantization/float8.py:57-60, 212-255; mx.py:50-60, 149-156):
Float8LinearConverter recipe_name "rowwise" (default) or "rowwise_with_gw_hp" -- tensorwise is gone;
Float8GroupedExpertsConverter (rowwise); MXFP8LinearConverter / MXFP8GroupedExpertsConverter (MXFP8).
"""
from __future__ import annotations

_ROWWISE = {"rowwise": "fp8-rowwise", "rowwise_with_gw_hp": "fp8-rowwise"}


def _linear_float8(table: dict, default: str) -> tuple[str, bool]:
    name = table.get("recipe_name") or default
    return (_ROWWISE.get(name, "fp8-tensorwise"), name == "tensorwise" and bool(table.get("enable_fsdp_float8_all_gather")))


def precision_of(doc: dict, model: dict, assumed: list, sharded: bool) -> tuple[dict, list[str]]:
    """({TrainSpec field: value}, converters not read) of a config's converters; `doc` the whole
    config (its [quantize] / [float8] tables), `sharded`: FSDP shards parameters (dp_shard > 1)."""
    conv = [str(c) for c in (model.get("converters") or [])]
    args = model.get("converter_args") or {}
    q = doc.get("quantize", {}) if isinstance(doc.get("quantize"), dict) else {}
    lin = q.get("linear", {}) if isinstance(q.get("linear"), dict) else {}
    out, left = {}, []
    for c in conv:
        if c in ("float8", "quantize.linear.float8"):                      # 0.2 (and older "float8")
            table = lin.get("float8") or doc.get("float8") or {}
            prec, gather = _linear_float8(table if isinstance(table, dict) else {}, "tensorwise")
            out.update(precision=prec, fp8_param_gather=gather and sharded)
        elif c == "Float8LinearConverter":                                  # 0.3: rowwise by default
            prec, _ = _linear_float8(args.get(c, {}), "rowwise")
            out.update(precision=prec)
        elif c in ("quantize.linear.mx", "mx", "MXFP8LinearConverter", "quantize.grouped_mm.mx",
                   "MXFP8GroupedExpertsConverter"):
            out["precision"] = "mxfp8"
        elif c in ("quantize.grouped_mm.float8", "Float8GroupedExpertsConverter"):
            out.setdefault("precision", "fp8-rowwise")
            if not any(x in conv for x in ("float8", "quantize.linear.float8", "Float8LinearConverter")):
                assumed.append(f"precision=fp8-rowwise: {c} quantizes the experts' grouped GEMMs only; the estimate "
                               f"runs every linear layer in FP8")
        else:
            left.append(c)
    if "precision" in out:
        out["fp8_library"] = "torchao"
        assumed.append(f"precision={out['precision']}: from the model converters ({', '.join(conv)})")
    return out, left

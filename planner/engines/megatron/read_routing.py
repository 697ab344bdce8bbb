"""The MoE routing of a Megatron-LM command line: routing (forced / dropless /
capacity), the capacity factor and its padding, and the balancing kind (planner/specs/kinds.py).

Flags and defaults, megatron-core 0.19.2: --moe-router-force-load-balancing, --moe-expert-capacity-factor,
--moe-pad-expert-input-to-capacity, --moe-token-drop-policy (TransformerConfig fields turned into flags:
megatron/core/transformer/transformer_config.py:812, 888, 892); --moe-router-load-balancing-type
(megatron/training/arguments.py:3365, default aux_loss, nargs +), --moe-aux-loss-coeff (arguments.py:3369,
default 0.0, nargs +: one per type), --moe-router-enable-expert-bias (transformer_config.py:795). A capacity
factor <= 0 means dropless. The token-drop policy (probs / position) picks which tokens drop, not how
many: it does not change the cost.
"""
from __future__ import annotations

from planner.specs.kinds import NO_BALANCING_NOTE

_LB_TYPES = ("aux_loss", "seq_aux_loss", "global_aux_loss", "sinkhorn", "quantile_balancing", "none")
_DROP_POLICIES = ("probs", "position")


def read(ctx, cf_flag: str) -> None:
    """Set ctx.extra's routing, capacity_factor, capacity_pad and balancing from the flags."""
    flags = ctx.flags
    if flags.has(cf_flag) and not flags.has("disable-moe-token-dropping"):
        ctx.extra["capacity_factor"] = flags.float(cf_flag)
    elif ctx.deepspeed and flags.has("num-experts") and not flags.has("disable-moe-token-dropping"):
        ctx.extra["capacity_factor"] = 1.0
        ctx.assumed.append("capacity_factor=1.0: --moe-train-capacity-factor not given (Megatron-DeepSpeed "
                           "drops tokens over capacity 1.0 by default)")
    cf = ctx.extra.get("capacity_factor")
    if cf is not None and cf <= 0:
        ctx.extra.pop("capacity_factor")  # Megatron: a non-positive factor means dropless
        ctx.assumed.append(f"dropless: --{cf_flag} {cf:g} (Megatron-Core sets a negative factor to None, no "
                           f"capacity: transformer_config.py:1660-1662, megatron-core 0.19.2)")
    policy = flags.raw("moe-token-drop-policy")
    if policy is not None and policy not in _DROP_POLICIES:
        raise ctx.fail("moe-token-drop-policy", f"--moe-token-drop-policy {policy!r} is not probs or position")
    if not flags.has("num-experts") or ctx.deepspeed:
        return
    forced = flags.has("moe-router-force-load-balancing")
    ctx.extra["routing"] = "forced" if forced else "capacity" if "capacity_factor" in ctx.extra else "dropless"
    if flags.has("moe-pad-expert-input-to-capacity") and "capacity_factor" in ctx.extra:
        ctx.extra["capacity_pad"] = True
    ctx.extra["balancing"] = _balancing(ctx)
    if ctx.extra["balancing"] == "none" and not forced:
        ctx.assumed.append(NO_BALANCING_NOTE)


def _balancing(ctx) -> str:
    flags = ctx.flags
    types = flags.strings("moe-router-load-balancing-type") or ["aux_loss"]
    bad = [t for t in types if t not in _LB_TYPES]
    if bad:
        raise ctx.fail("moe-router-load-balancing-type", f"--moe-router-load-balancing-type {bad[0]!r} is not one "
                                                         f"of {', '.join(_LB_TYPES)}")
    coeffs = [_coeff(ctx, v) for v in (flags.strings("moe-aux-loss-coeff") or ["0.0"])]
    if len(coeffs) == 1:
        coeffs *= len(types)
    elif len(coeffs) != len(types):
        raise ctx.fail("moe-aux-loss-coeff", f"--moe-aux-loss-coeff gives {len(coeffs)} values for "
                                             f"{len(types)} load-balancing types")
    if flags.has("moe-router-enable-expert-bias") or "quantile_balancing" in types:
        return "aux-free"
    on = {t for t, c in zip(types, coeffs) if c > 0}
    if "seq_aux_loss" in on:
        return "seq-aux-loss"
    if on & {"aux_loss", "global_aux_loss"}:
        return "aux-loss"
    if "sinkhorn" in types:
        ctx.assumed.append("balancing=aux-loss: sinkhorn balancing has no published load statistic here")
        return "aux-loss"
    return "none"


def _coeff(ctx, v: str) -> float:
    try:
        out = float(v)
    except ValueError:
        out = float("nan")
    if not out == out or out < 0 or out == float("inf"):
        raise ctx.fail("moe-aux-loss-coeff", f"--moe-aux-loss-coeff expects non-negative numbers, got {v[:40]!r}")
    return out

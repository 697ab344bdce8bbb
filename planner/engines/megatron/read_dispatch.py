"""The MoE dispatcher and EP overlap a Megatron launch asks for, as the layout's
`dispatcher`, `ep_overlap` and `delay_wgrad` (planner.costmodel.dispatch prices them).

megatron-core 0.19.2: --moe-token-dispatcher-type defaults to allgather (transformer_config.py:862);
flex runs the backend --moe-flex-dispatcher-backend names, deepep by default (:869), or DeepEP when
the deprecated --moe-enable-deepep is given (:1589-1594); ncclep is not modelled (left an effect).
"""
from __future__ import annotations

from planner.engines.megatron.flags import Flags

FLEX_BACKENDS = ("deepep", "hybridep")


def dispatch(flags: Flags) -> dict:
    """{dispatcher, ep_overlap, delay_wgrad} of the flags (the dispatcher omitted for ncclep)."""
    kind = flags.raw("moe-token-dispatcher-type") if flags.has("moe-token-dispatcher-type") else "allgather"
    out = {"ep_overlap": flags.has("overlap-moe-expert-parallel-comm"),
           "delay_wgrad": flags.has("delay-wgrad-compute")}
    if kind == "flex":
        backend = "deepep" if flags.has("moe-enable-deepep") else \
            (flags.raw("moe-flex-dispatcher-backend") if flags.has("moe-flex-dispatcher-backend") else "deepep")
        if backend in FLEX_BACKENDS:
            out["dispatcher"] = backend
    elif kind in ("alltoall", "allgather"):
        out["dispatcher"] = kind
    return out

"""The activation-checkpoint forms torchtitan's [activation_checkpoint] can say, for a layout's
per-stage recompute (read by its `target.recompute` rule, planner.solve.targets.realise and its
exporter). Source: pytorch/torchtitan torchtitan/config/job_config.py:651-656 at 238fa99."""
from __future__ import annotations

from typing import Optional

from planner.engines.shared import no_recompute, with_stages
from planner.layout.values import RECOMPUTE_MODULES

# torchtitan's per-op selective AC, as the audit estimates it (planner/engines/torchtitan/read.py)
SAC = ("op",) if "op" in RECOMPUTE_MODULES else ("core_attn",)


def form(L) -> tuple[Optional[dict], Optional[str]]:
    """torchtitan's [activation_checkpoint] for the layout, or why there is none: mode none; full
    (every block); selective with an integer option k (every k-th block: n // k of a stage's n)
    or "op" (per-op AC, every layer)."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"mode": "none"}, None
    if any(sel):
        if any(full) or any(s.recompute_selective != s.num_layers for s in L.stages):
            return None, "torchtitan's selective AC applies to every layer (op) or to whole blocks (an integer)"
        mods = {s.recompute_modules for s in L.stages}
        if mods != {SAC}:
            shown = " / ".join("+".join(m) for m in sorted(mods))
            return None, f"torchtitan has no recompute modules {shown} (its selective AC is per-op: module op)"
        return {"mode": "selective", "option": "op"}, None
    for k in range(1, max(s.num_layers for s in L.stages) + 1):
        if all(f == s.num_layers // k for f, s in zip(full, L.stages)):
            return ({"mode": "full"} if k == 1 else {"mode": "selective", "option": str(k)}), None
    return None, (f"full recompute of {'/'.join(map(str, full))} layers per stage is not every k-th block "
                  f"of each stage for one k")


def forms(problem, L) -> list:
    """The layout under every AC form torchtitan can say that train.recompute allows (same split
    and folding): none; per-op AC in every layer; every k-th block fully (k = 1: mode full)."""
    allowed, n = set(problem.train.recompute), [s.num_layers for s in L.stages]
    out = [no_recompute(L)] if "none" in allowed else []
    if "selective" in allowed:
        out.append(with_stages(L, [{"recompute_full": 0, "recompute_selective": k, "recompute_modules": SAC}
                                   for k in n]))
    if "full" in allowed:
        for k in range(1, max(n) + 1):
            out.append(with_stages(L, [{"recompute_full": m // k, "recompute_selective": 0} for m in n]))
    return out

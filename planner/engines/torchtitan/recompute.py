"""The activation-checkpoint forms torchtitan can say, for a layout's per-stage recompute (read by its
`target.recompute` rule, planner.solve.targets.realise and its exporters). The target is the current
release: torchtitan 0.3.0 distributed/activation_checkpoint.py:166-215 has FullAC (every block) and
SelectiveAC (per op); 0.2's every-k-th-block option (job_config.py:651-656 at 238fa99) is gone."""
from __future__ import annotations

from typing import Optional

from planner.engines.shared import SAC, no_recompute, per_op_selective, with_stages  # noqa: F401 (SAC: read by callers)



def form(L) -> tuple[Optional[dict], Optional[str]]:
    """torchtitan's activation checkpointing for the layout, or why there is none: mode none; full
    (every block); selective "op" (per-op AC, every layer)."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"mode": "none"}, None
    ok, why = per_op_selective(L, "torchtitan")
    if ok or why:
        return ({"mode": "selective", "option": "op"}, None) if ok else (None, why)
    if all(f == s.num_layers for f, s in zip(full, L.stages)):
        return {"mode": "full"}, None
    return None, (f"full recompute of {'/'.join(map(str, full))} layers per stage is not every block: torchtitan "
                  f"0.3 checkpoints every block (FullAC) or per op (SelectiveAC), not every k-th block")


def forms(problem, L) -> list:
    """The layout under every AC form torchtitan can say that train.recompute allows (same split
    and folding): none; per-op AC in every layer; every block fully."""
    allowed, n = set(problem.train.recompute), [s.num_layers for s in L.stages]
    out = [no_recompute(L)] if "none" in allowed else []
    if "selective" in allowed:
        out.append(with_stages(L, [{"recompute_full": 0, "recompute_selective": k, "recompute_modules": SAC}
                                   for k in n]))
    if "full" in allowed:
        out.append(with_stages(L, [{"recompute_full": m, "recompute_selective": 0} for m in n]))
    return out


def searches(problem) -> list[dict]:
    """Each AC form as a restriction of the search's own recompute choices (TrainSpec updates):
    no recompute; every layer per-op selective; every layer fully. The plans of each need no
    rounding, so the best over the three searches is proven (planner.solve.targets)."""
    allowed = set(problem.train.recompute)
    out = [{"recompute": ("none",)}] if "none" in allowed else []
    if "selective" in allowed:
        out.append({"recompute": ("selective",), "recompute_modules": SAC})
    if "full" in allowed:
        out.append({"recompute": ("full",)})
    return out

"""The per-stage columns of the plan tables (experts, recompute), readable at any depth: a run
of consecutive stages with the same value is one group, ``s0-7 etp1 ep8 edp4 | s8-15 ...``
(the stage groups of the layout-string grammar, planner/layout/strings.py)."""
from __future__ import annotations

_SHORT = {"core_attn": "attn", "layernorm": "ln", "mlp": "mlp", "moe": "moe", "moe_act": "act",
          "shared_experts": "shared", "mla_up_proj": "mla", "op": "op"}


def grouped(values: list[str]) -> str:
    """One value when every stage has it; else ``sA-B value`` per run of equal neighbours."""
    if len(set(values)) <= 1:
        return values[0] if values else ""
    runs: list[list] = []
    for i, v in enumerate(values):
        if runs and runs[-1][2] == v:
            runs[-1][1] = i
        else:
            runs.append([i, i, v])
    return " | ".join((f"s{a}" if a == b else f"s{a}-{b}") + f" {v}" for a, b, v in runs)


def folding(L) -> str:
    return grouped([f"etp{s.etp} ep{s.ep} edp{s.edp}" for s in L.stages])


def stage_recompute(s) -> str:
    """`nF` layers fully recomputed, `nS(mods)` layers running recompute modules, `0` none."""
    bits = []
    if s.recompute_full:
        bits.append(f"{s.recompute_full}F")
    if s.recompute_selective:
        bits.append(f"{s.recompute_selective}S({','.join(_SHORT[k] for k in s.recompute_modules)})")
    return "+".join(bits) or "0"


def recompute(L) -> str:
    parts = [stage_recompute(s) for s in L.stages]
    return "none" if all(p == "0" for p in parts) else grouped(parts)


def split(L) -> str:
    """Layers per stage, a run of equal stages as `NxK`: 4/3/4x13/2."""
    runs: list[list[int]] = []
    for s in L.stages:
        if runs and runs[-1][0] == s.num_layers:
            runs[-1][1] += 1
        else:
            runs.append([s.num_layers, 1])
    return "/".join(f"{n}x{k}" if k > 2 else "/".join([str(n)] * k) for n, k in runs)

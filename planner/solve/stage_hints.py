"""Hints for the CP-SAT stage model (planner.solve.stage_model): a solution to start
from, given as boundaries and per-stage choices, or the even split."""
from __future__ import annotations

from dataclasses import replace


def hint_forms(engine, hint) -> list:
    """The hint, then (Megatron, whose one recompute form a per-stage DP split need
    not keep: stage_model._one_recompute) the same split under each module set it uses, in
    every stage and with no layer fully recomputed, the most used set first. Each is only a
    candidate: the fixed solve checks it against every constraint and the floor. `engine`:
    the target's planner.engines.EngineConstraints."""
    out = [hint]
    if not engine.one_recompute_form or not hint.stages:
        return out
    sets = [mods for _, mods, _ in hint.stages]
    if len(set(sets)) == 1 and not any(r for _, _, r in hint.stages):
        return out                                        # already one form
    for mods in sorted(set(sets), key=lambda m: (-sets.count(m), m)):
        out.append(replace(hint, stages=[(row, mods, 0) for row, _, _ in hint.stages]))
    return out


def hint_even_split(model, bnd, L: int, P: int) -> None:
    """Hint: the even split."""
    base, extra = divmod(L, P)
    acc = 0
    for i in range(1, P):
        acc += base + (1 if i - 1 >= P - extra else 0)
        model.add_hint(bnd[i], acc)


def hint_solution(model, hint, stages, bnd, pm, rows: list[int], is_moe, prefix_moe) -> None:
    """Hint every stage variable from a solution given as boundaries and, per stage, its
    table row, recompute modules and layers fully recomputed (MoE ones first)."""
    P = len(stages)
    for i in range(1, P):
        model.add_hint(bnd[i], hint.bnd[i])
    for i in range(P + 1):
        model.add_hint(pm[i], prefix_moe[hint.bnd[i]])
    pos = {r: f for f, r in enumerate(rows)}
    for i, sv in enumerate(stages):
        row, mods, r = hint.stages[i]
        lo, hi = hint.bnd[i], hint.bnd[i + 1]
        nm = sum(is_moe[lo:hi])
        nd = hi - lo - nm
        fm = min(r, nm)
        fd = r - fm
        chosen = pos.get(row)
        for f in range(len(sv.y)):
            on = f == chosen
            model.add_hint(sv.y[f], on)
            model.add_hint(sv.nmf[f], nm if on else 0)
            model.add_hint(sv.fm[f], fm if on else 0)
            model.add_hint(sv.z[f], on and nm > 0)
        model.add_hint(sv.fd, fd)
        model.add_hint(sv.has_moe, nm > 0)
        for k, var in sv.on.items():
            model.add_hint(var, k in mods)
        for k, var in sv.dk.items():
            model.add_hint(var, nd - fd if k in mods else 0)
        for k, var in sv.mk.items():
            model.add_hint(var, nm - fm if k in mods else 0)

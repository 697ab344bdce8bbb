"""The smallest change: the config with one or two knobs changed, each re-checked and re-estimated.

Knobs: a pair of dense degrees traded by a prime factor, ep, vpp, recompute, micro-batch,
CP kind. The answer is the fewest changes that get most (``MOST``) of the best plan's
speed-up, or, when the config does not fit or is illegal, the fewest that make it legal
and fit.
"""

from __future__ import annotations

import itertools
from typing import Optional

from planner import costmodel as cm
from planner.layout import LayoutError, violations
from planner.specs import Problem

from planner.audit.audit_problem import current_knobs, to_layout
from planner.layout.foreign import ForeignConfig

MOST = 0.8  # "most of the speed-up": the share a smallest change must reach
MAX_CANDIDATES = 400


def prime_factors(n: int) -> list[int]:
    """The distinct primes of ``n`` by trial division (O(sqrt n), not O(n))."""
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def _changes(base: dict, knobs: dict) -> list[str]:
    return [f"{k} {base[k]}->{knobs[k]}" for k in base if knobs.get(k, base[k]) != base[k]]


def neighbours(cfg: ForeignConfig, problem: Problem) -> list[dict]:
    """Knob settings one or two changes away from the config (a traded pair of dense degrees counts two)."""
    base = current_knobs(cfg)
    n = problem.cluster.gpus
    primes = prime_factors(n) if 0 < n <= 2**40 else []
    singles: list[dict] = []
    moe = problem.model.moe
    if moe is not None:
        singles += [{"ep": e} for e in range(1, min(moe.experts, 4096) + 1) if moe.experts % e == 0 and e != base["ep"]]
    singles += [{"vpp": v} for v in (1, 2, 3, 4) if v != base["vpp"]]
    singles += [{"recompute": r} for r in problem.train.recompute if r != base["recompute"]]
    singles += [{"micro_batch": m} for m in problem.train.micro_batches if m != base["micro_batch"]]
    if base["cp"] > 1:
        singles += [{"cp_kind": k} for k in problem.train.cp_kinds if k != base["cp_kind"]]
    trades: list[dict] = []
    for x, y in itertools.permutations(("tp", "cp", "dp", "pp"), 2):
        if base[x] is None or base[y] is None:        # a degree the config leaves undefined (world % tp*pp*cp)
            continue
        for p in primes:
            if base[y] % p == 0:
                trades.append({x: base[x] * p, y: base[y] // p})
    out = [*singles, *trades]
    out += [{**a, **b} for a, b in itertools.combinations(singles, 2) if not set(a) & set(b)]
    return out[:MAX_CANDIDATES]


def smallest_change(cfg: ForeignConfig, problem: Problem, est: Optional[cm.Estimate],
                    best_time: Optional[float]) -> Optional[dict]:
    """The fewest knob changes that reach most of the best plan's speed-up (or, if the config does not
    fit, that make it fit), each candidate re-checked by the layout rules and re-estimated."""
    budget = problem.cluster.memory_budget_gib * cm.GiB
    base = current_knobs(cfg)
    fits_now = est is not None and est.peak_bytes <= budget
    t0 = est.step_time if est is not None else None
    found = []
    for change in neighbours(cfg, problem):
        try:
            layout = to_layout(cfg, problem, **change)
        except (LayoutError, ValueError, ArithmeticError):
            continue
        if violations(layout, problem):
            continue
        e = cm.evaluate(problem, layout)
        if e.peak_bytes > budget:
            continue
        knobs = {**base, **change}
        diff = _changes(base, knobs)
        found.append((len(diff), e.step_time, diff, layout, e))
    if not found:
        return None
    found.sort(key=lambda r: (r[0], r[1]))
    gain = None
    pick = None
    if fits_now and t0 and best_time and t0 > best_time:
        for r in found:
            share = (t0 - r[1]) / (t0 - best_time)
            if share >= MOST:
                pick, gain = r, share
                break
        if pick is None:  # none reaches "most": the fastest one- or two-change option
            pick = min(found, key=lambda r: (r[1], r[0]))
            gain = (t0 - pick[1]) / (t0 - best_time)
            if gain <= 0:
                return None
    elif not fits_now:  # illegal or over budget: the fewest changes that give a legal layout that fits
        pick = min(found, key=lambda r: (r[0], r[1]))
    else:
        return None
    n, t, diff, layout, e = pick
    return {"changes": diff, "layout": layout.to_dict(), "step_time_s": t, "peak_memory_gib": e.peak_bytes / cm.GiB,
            "speedup": (t0 / t) if t0 else None, "share_of_best_speedup": gain,
            "fixes_the_config": not fits_now}



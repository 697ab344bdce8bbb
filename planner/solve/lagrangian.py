"""The Lagrangian floor of a tuple's bottleneck: its memory budget relaxed with a price
per byte (see `lagrangian`); the search refines the fluid bounds (planner.solve.bounds)
with it on each block of fresh tuples."""
from __future__ import annotations

import numpy as np

from planner import costmodel as cm
from planner.solve.space import Tables
from planner.solve.stagedp import Block


def lagrangian(problem, tab: Tables, tis) -> np.ndarray:
    """A floor of the bottleneck of each tuple in `tis`, the Lagrangian relaxation of its
    memory budget: P * t_max >= the sum of the stages' micro-batch times, and for any
    lam >= 0 and any split that fits,

        sum of layer times >= sum over layers of min over options (time + lam * memory)
                              - lam * (the stages' memory room, summed),

    each layer free to take any folding of the tuple and any recompute option (nothing, a
    module set, full), its memory counted at the fewest in-flight chunks of any stage. It
    couples what the fluid bound above takes apart: a folding's time and its memory. The
    best lam is sought on a log grid, then on a finer one around each tuple's best."""
    tis = np.asarray(tis, int)
    out = np.zeros(len(tis))
    lens = np.array([tab.rows[t].stop - tab.rows[t].start for t in tis])
    if not lens.sum():
        return out
    tis, keep = tis[lens > 0], np.flatnonzero(lens > 0)
    lens = lens[lens > 0]
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    rows = np.concatenate([np.arange(tab.rows[t].start, tab.rows[t].stop) for t in tis])
    blk = Block(problem, tab, rows)
    d = blk.floats()
    budget = problem.cluster.memory_budget_gib * cm.GiB
    is_moe = problem.model.moe_layers()
    counts = {"d": len(is_moe) - sum(is_moe), "m": sum(is_moe)}
    tus = [tab.tuples[t] for t in tis]
    ks = [[cm.chunks(tu.pp, tu.vpp, tu.num_microbatches, i) for i in range(tu.pp)] for tu in tus]
    per_row = lambda vals: np.repeat(np.asarray(vals, float), lens)
    P, V = per_row([tu.pp for tu in tus]), per_row([tu.vpp for tu in tus])
    k_min, k_sum = per_row([min(k) for k in ks]), per_row([sum(k) for k in ks])
    k_first, k_last = per_row([k[0] for k in ks]), per_row([k[-1] for k in ks])
    mem, act, busy = d["mem"], d["act"], d["busy"]
    neg = lambda x: np.minimum(0.0, x)
    # the stages' room (V-scaled, as the stage model's budget), at most: a MoE stage's extra
    # taken only where it frees memory
    room = (P * V * budget - V * (P * (mem["const"] + neg(mem["h_m"])) + mem["e_f"] + mem["e_l"])
            - k_sum * (act["const"] + neg(act["h_m"])) - k_first * act["e_f"] - k_last * act["e_l"])
    room = np.maximum.reduceat(room, starts)
    extra = np.minimum.reduceat(P * (busy["const"] + neg(busy["h_m"])) + busy["e_f"] + busy["e_l"], starts)
    opts = []
    for kind, n in counts.items():
        parts = blk.option_parts(kind, "full" in problem.train.recompute) if n else None
        if parts is None:
            if n:
                return out                          # an option lowers the time: no floor from it
            continue
        tm = lambda q: (busy[q], V * mem[q] + k_min * act[q])
        opts.append((n, tm(f"L_{kind}"), [tm(q) for q in parts[0]], parts[1] and tm(parts[1])))

    def value(lam):                                 # lam per tuple
        lr = np.repeat(lam, lens)
        lb = extra - lam * room
        for n, (t0, m0), mods, full in opts:
            # a module set's time and memory are its modules' sums: its least t + lam * m
            # takes each module whose own is negative
            keep = t0 + lr * m0
            least = keep + sum((np.minimum(0.0, t + lr * m) for t, m in mods), np.zeros_like(keep))
            if full:
                least = np.minimum(least, keep + full[0] + lr * full[1])
            lb = lb + n * np.minimum.reduceat(least, starts)
        return lb

    grid = np.geomspace(1e-6, 1.0, LAG_GRID)
    vals = np.stack([value(np.full(len(tis), g)) for g in grid])          # (grid, tuple)
    j = vals.argmax(0)
    best = vals.max(0)
    lo, hi = grid[np.maximum(j - 1, 0)], grid[np.minimum(j + 1, len(grid) - 1)]
    for f in np.linspace(0.0, 1.0, LAG_GRID)[1:-1]:
        best = np.maximum(best, value(lo * (hi / lo) ** f))
    pp = np.array([tu.pp for tu in tus], float)
    out[keep] = np.maximum(0.0, best / pp)
    return out


LAG_GRID = 13                      # lam values per pass (two passes: a log grid, then around its best)

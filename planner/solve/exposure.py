"""A floor of the bottleneck and the exposed gradient reduction together, W * t_max + V * d_max
(W = V*M + P - 1, planner.costmodel.step), from the relaxed DP of planner/solve/dpbound.py.

The relaxed DP bounds t_max alone, and the fluid bound d_max alone; where a reduction is exposed
(a dense or expert gradient group across the slow link) a split that hides it pays in the
bottleneck, and the sum of the two separate floors falls far below the objective (576 GB200
GPUs, pp 9: 12%, so every tuple went on to the exact DP). Every stage i has t_max >= t_i >=
busy_i and d_max >= e_i, its reduction beyond its window, so

    W * t_max + V * d_max  >=  max_i (W * busy_i + V * e_i)

and stage i's W * busy_i + V * e_i is one more per-stage sum, linear in the stage integers: the
relaxed DP bounds its least over every split, folding and recompute (LP) as it bounds busy_i.
e_i is taken below its value: the reduction less the compute window, less the most the
recompute modules that free no memory could add to the window (Block.window). A stage whose
options the relaxation cannot take (an option lowering that sum) gives no floor (-inf), not the
exact enumeration, whose candidate points assume a time that grows with recompute.
"""
from __future__ import annotations

import numpy as np

from planner.costmodel import step
from planner.solve.dpbound import floors
from planner.solve.stagedp import Block


class _Joint(Block):
    """A Block whose stage time (every piece of step.PACE) is W * busy + V * excess, W and V
    per row's tuple, the excess less the window-only modules' take-off per layer."""
    exact_fallback = False

    def __init__(self, problem, tab, rows, every_module: bool = False):
        super().__init__(problem, tab, rows, every_module)
        tix = tab.row_tuple()[np.asarray(rows)]
        uniq, inv = np.unique(tix, return_inverse=True)
        tus = [tab.tuples[t] for t in uniq]
        W = np.array([step.bottleneck_weight(tu.num_microbatches, tu.pp, tu.vpp) for tu in tus], np.int64)[inv]
        V = np.array([tu.vpp for tu in tus], np.int64)[inv]
        busy, exc = self.per["busy"], self.per["exc"]
        take = {"L_m": self.window["m"], "L_d": self.window["d"]}
        joint = {q: W * busy[q] + V * (exc[q] - take.get(q, 0)) for q in busy}
        self.per.update({p: joint for p in step.PACE})


def joint_floors(problem, tab, tis) -> np.ndarray:
    """Per tuple of `tis`: a floor of the stage model's W * t_max + V * d_max (0 where none)."""
    got, _ = floors(problem, tab, tis, relaxed=True, block=_Joint)
    return np.maximum(0.0, got)


def with_joint(tu, fl: dict, joint: float) -> int:
    """The objective floor (V * step, integer ns) of integer floors `fl` of the three maxima
    (t, d, o) and a real floor `joint` of W * t_max + V * d_max, V * o_max added to it (an
    infinite one, where nothing fits, is left to the t floor)."""
    joint = int(np.ceil(joint - 1e-6)) if np.isfinite(joint) else 0
    return max(step.scaled_step(fl["t"], fl["d"], fl["o"], tu.num_microbatches, tu.pp, tu.vpp),
               joint + tu.vpp * fl["o"])

"""The pipeline step rule, written once.

    step = (M + (P-1)/V) * max_i t_i  +  max_i max(0, r_i - w_i)  +  max_i o_i

t_i is stage i's micro-batch time (compute and exposed collectives, or its zero2/zero3
traffic when that is longer), r_i its gradient reduction, w_i the compute window of its
last micro-batch that hides the reduction (Megatron --overlap-grad-reduce; zero when
overlap is off), o_i its optimizer step. The bottleneck stage paces the pipeline: M
micro-batches plus the bubble, (P-1)/V of one (Narayanan et al. 2021, interleaved 1F1B);
the reduction beyond its window is exposed; every stage then steps its optimizer at once.

The pieces every encoding takes from here: `bubble_factor` (M + (P-1)/V, the bottleneck's
multiplier), `bottleneck_weight` (the same times V, a whole number: the solver works in
V * step so that the bubble stays an integer), and which three maxima are added
(`scaled_step`, `step_floor`). `step_time` is the rule itself, which `evaluate` and the
brute force call; the CP-SAT stage model minimises `scaled_step` of its three maxima, the
bounds and DP floors bound it from below (tests/test_step_rule.py holds each to this).

A stage's own pieces, t_i, r_i, w_i and o_i, are written once too: `STAGE_TIME` names the
per-stage sums of the cost model (formulas.STAGE) each piece adds up, and `stage_time`
reads them in any encoding's form: `evaluate` and the brute force as numbers, the stage
model as CP-SAT linear expressions, the bounds and the DP floors as coefficient sums. A
new time term is one sympy sum in formulas.STAGE and one entry here (in a piece of
`STAGE_TIME`, or a new piece named in `PACE` when it runs beside the micro-batch).
"""
from __future__ import annotations

from planner.costmodel.names import COMM_TERMS

# The pieces of stage i's time, each a signed sum of the cost model's per-stage sums:
STAGE_TIME: dict[str, dict[str, int]] = {
    # one micro-batch's compute and exposed collectives (recompute adds here)
    "busy": {"work": 1, **{c: 1 for c in COMM_TERMS}},
    # one micro-batch's zero2/zero3 traffic, which runs beside it
    "shard": {"shard_mb": 1},
    # the step's gradient reductions, dense and expert, r_i
    "reduction": {"dp_step": 1, "edp_step": 1},
    # the compute of the last micro-batch that hides the reduction, w_i (with overlap)
    "window": {"work": 1},
    # the optimizer step over the stage's local shard, o_i
    "opt": {"opt_step": 1},
}
# t_i, the stage's micro-batch time, is the largest of these pieces (each runs beside the
# others; the first is the micro-batch's own work, which recompute lengthens)
PACE = ("busy", "shard")


class StageTime:
    """One stage's time in an encoding's form: each piece of `STAGE_TIME` read, on first
    use, by `read(weights)` ({per-stage sum: sign} -> a number, an array, a CP-SAT linear
    expression, a dict of coefficient parts, as the encoding keeps them). An empty sum (the
    window without overlap) is a plain 0, never read."""

    def __init__(self, read, overlap: bool = True):
        self._read, self.overlap, self._got = read, overlap, {}

    def weights(self, piece: str) -> dict[str, int]:
        """The signed per-stage sums of a piece (`excess`: the reduction less the window)."""
        if piece == "excess":
            out = dict(STAGE_TIME["reduction"])
            for k, c in self.weights("window").items():
                out[k] = out.get(k, 0) - c
            return {k: c for k, c in out.items() if c}
        if piece == "window" and not self.overlap:
            return {}                     # no overlap: nothing hides the reduction
        return STAGE_TIME[piece]

    def piece(self, name: str):
        """A piece by name (any of `STAGE_TIME`, or `excess`), read once."""
        if name not in self._got:
            w = self.weights(name)
            self._got[name] = self._read(w) if w else 0
        return self._got[name]

    busy = property(lambda self: self.piece("busy"))
    shard = property(lambda self: self.piece("shard"))
    reduction = property(lambda self: self.piece("reduction"))
    window = property(lambda self: self.piece("window"))
    opt = property(lambda self: self.piece("opt"))
    # r_i - w_i, the reduction beyond its window, read as one sum
    excess = property(lambda self: self.piece("excess"))

    @property
    def paced(self) -> tuple:
        """The pieces of `PACE`: t_i is at least each of them."""
        return tuple(self.piece(p) for p in PACE)

    def micro_batch(self, maximum=max):
        """t_i = the largest of the paced pieces (`maximum`: max, np.maximum, ...)."""
        out = self.paced[0]
        for x in self.paced[1:]:
            out = maximum(out, x)
        return out


def stage_time(read, overlap: bool = True) -> StageTime:
    """Stage i's time, t_i = max(PACE pieces), r_i, w_i, o_i and r_i - w_i, with each
    piece read by `read` ({per-stage sum: sign} -> the encoding's value of that sum);
    `overlap`: whether the last micro-batch's compute hides the gradient reduction."""
    return StageTime(read, overlap)


RULE = "(m + (p-1)/v) * bottleneck stage + exposed gradient reduction + optimizer step"


def bubble_factor(m, pp, vpp):
    """Micro-batch times of the bottleneck stage in one step: m + (p-1)/v."""
    return m + (pp - 1) / vpp


def bottleneck_weight(m, pp, vpp):
    """v * bubble_factor = v*m + p - 1: the bottleneck's weight in v * step (whole numbers
    stay whole: CP-SAT's objective and the integer floors use it)."""
    return vpp * m + pp - 1


def bubble(pp, vpp, t_max):
    """The pipeline bubble: (p-1)/v of the bottleneck's micro-batch time."""
    return (pp - 1) / vpp * t_max


def scaled_step(t_max, exposed, opt, m, pp, vpp):
    """v * step from the three maxima (bottleneck time, exposed reduction, optimizer step):
    plain arithmetic, so it takes numbers, numpy arrays and CP-SAT linear expressions alike."""
    return bottleneck_weight(m, pp, vpp) * t_max + vpp * exposed + vpp * opt


def step_floor(t_max, exposed, opt, m, pp, vpp):
    """The step time of the three maxima (or a floor of it from floors of them: the rule is
    monotone in each)."""
    return bottleneck_weight(m, pp, vpp) * t_max / vpp + exposed + opt


def step_time(m: int, pp: int, vpp: int, t_stage, window, reduction, opt) -> tuple[float, float, int]:
    """(step seconds, exposed gradient reduction, index of the worst-exposing stage) of
    per-stage micro-batch times, reduction windows, reductions and optimizer steps."""
    excess = [max(0.0, float(r) - float(w)) for r, w in zip(reduction, window)]
    worst = max(range(len(excess)), key=excess.__getitem__)
    return bubble_factor(m, pp, vpp) * float(max(t_stage)) + excess[worst] + float(max(opt)), excess[worst], worst


def with_numbers(m: int, pp: int, vpp: int, t_max: float, exposed: float, opt: float, step: float) -> str:
    """The rule with a layout's numbers in it (explain's line)."""
    return f"({m} + ({pp}-1)/{vpp}) * {t_max:.4f} + {exposed:.4f} + {opt:.4f} = {step:.4f}"

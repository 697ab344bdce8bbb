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
"""
from __future__ import annotations

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

"""The layouts of the report's Pareto plot: every layout the stage model solved, and a stated sample
of the search's whole space (planner.solve.space.Space: every degree tuple it enumerated), each
realised as whole layouts and priced by costmodel.evaluate, the one source of the numbers.

The search bounds every tuple but builds a whole layout (split, folding, recompute) only for the
few it hands to CP-SAT; the rest are realised here, after the search, so the search runs no
slower. The sample: up to SAMPLE tuples that pass the memory bound, evenly spaced over the
enumeration order (all of them when there are fewer), each with an even split of the layers over
its stages, its first expert folding on every stage, and each recompute kind the job allows
(none; selective of Megatron's default module; full), so one tuple gives up to three points.
Layouts the layout rules refuse are left out, and counted.
"""
from __future__ import annotations

from dataclasses import dataclass

from planner import costmodel as cm
from planner.layout import Layout, Stage, check
from planner.layout.rules import layout_of

# tuples realised for the plot: about 2 s of costmodel.evaluate (3.5 ms a layout, three recompute
# kinds) on one core; the page says how many of how many
SAMPLE = 200


@dataclass
class Cloud:
    layouts: list            # every layout plotted: the solved ones first
    solved: int              # how many of them the stage model solved
    sampled: int             # tuples realised
    tuples: int              # tuples enumerated
    fitting: int             # ... that passed the memory bound
    refused: int             # realised layouts the layout rules refuse (not plotted)

    def caption(self) -> str:
        if not self.sampled:
            return f"the {self.solved} layouts the solver solved (CP-SAT)"
        every = "every one" if self.sampled == self.fitting else f"a sample of {self.sampled}, evenly spaced in " \
            f"enumeration order,"
        return (f"{len(self.layouts)} layouts: the {self.solved} the solver solved (CP-SAT), and {every} of the "
                f"{self.fitting} degree tuples" + (f" (of {self.tuples} enumerated)" if self.tuples != self.fitting else "")
                + " that pass the memory bound, each "
                f"with an even split, its first expert folding and each recompute kind allowed"
                + (f" ({self.refused} such layouts break a layout rule and are not shown)" if self.refused else ""))


def _split(layers: int, pp: int, vpp: int) -> list[tuple[int, int]]:
    """Layers over pp stages as evenly as chunks of vpp allow (earlier stages take the extra)."""
    chunks, extra = divmod(layers // vpp, pp)
    sizes = [(chunks + (i < extra)) * vpp for i in range(pp)]
    sizes[-1] += layers - sum(sizes)
    bounds, at = [], 0
    for n in sizes:
        bounds.append((at, at + n))
        at += n
    return bounds


def realise(problem, tu, fold, recompute: str) -> Layout:
    stages = []
    for i, (a, b) in enumerate(_split(problem.model.layers, tu.pp, tu.vpp)):
        n = b - a
        stages.append(Stage(index=i, layers=(a, b), etp=fold[0], ep=fold[1], edp=fold[2],
                            recompute_full=n if recompute == "full" else 0,
                            recompute_selective=n if recompute == "selective" else 0))
    return layout_of(tu, problem, stages)


def cloud(problem, result, sample: int = SAMPLE) -> Cloud:
    """The solved layouts, and `sample` tuples of result.space realised (see the module docstring)."""
    solved = list(getattr(result, "evaluated", None) or [])
    space = getattr(result, "space", None)
    if space is None:
        return Cloud(solved, len(solved), 0, 0, 0, 0)
    fit = [i for i, ok in enumerate(space.fits) if ok]
    step = max(1, -(-len(fit) // sample))
    picked = fit[::step]
    kinds = [k for k in ("none", "selective", "full") if k in problem.train.recompute]
    out, refused = [], 0
    for i in picked:
        if not space.folds[i]:
            continue
        for kind in kinds:
            try:
                L = realise(problem, space.tuples[i], space.folds[i][0], kind)
                check(L, problem)
            except ValueError:
                refused += 1
                continue
            out.append(L)
    return Cloud(solved + out, len(solved), len(picked), len(space.tuples), len(fit), refused)


def points(problem, layouts: list[Layout]) -> list[tuple[float, float, Layout]]:
    """(peak GiB, step s, layout) of each layout."""
    out = []
    for L in layouts:
        e = cm.evaluate(problem, L)
        out.append((e.peak_bytes / cm.GiB, e.step_time, L))
    return out

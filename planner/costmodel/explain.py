"""`explain`: each formula symbolic, then with the layout's numbers, then its value; and
the per-stage sums (`formulas.STAGE`) the same way, for one stage."""
from __future__ import annotations

import numpy as np
import sympy as sp
from sympy.printing.str import StrPrinter

import planner.costmodel.compile as cc
import planner.costmodel.formulas as fm
from planner.costmodel.formula_table import FORMULAS
from planner.costmodel.symbols import STAGE_INTS
from planner.costmodel.assemble import stage_ints
from planner.costmodel.values import layout_values, layout_vector, model_values

_FLAGS = {"is_mla", "has_qlora", "qk_norm", "ln_bias", "lin_bias", "router_bias", "tied", "flash", "drop", "eager",
          "z_1", "z_2", "z_3", "mu", "u_1", "k_mtp", "is_moe_model", "e_f", "e_l", "h_m",
          "q_p2p", "q_agr", "n_ag", "q_sv", "c_b",          # the CP implementation (cost_model.cp_terms)
          "n_ix", "d_ix"}                                   # a sparse-attention indexer (0 without one)
_GROUPS = {"P": "parameters", "G": "parameters per GPU", "B": "memory", "A": "memory", "F": "compute",
           "T": "time", "X": "communication", "M": "compute", "S": "memory"}


# the symbolic text of a formula too long to read whole is shown as its first SHOWN characters
SHOWN = 600
_CUT = "\x00"


class _Prefix(StrPrinter):
    """sympy's str printer (terms in their stored order: sorting them costs seconds on the GEMM
    wave terms) that stops printing once the leaves printed so far exceed SHOWN characters: the
    text before its first cut mark is then the exact start of the whole print, as long as the
    printer visits sub-expressions in the order it writes them (tests/test_explain_speed.py)."""

    def __init__(self):
        super().__init__({"order": "none"})
        self.leaf_chars = 0

    def _print(self, expr, **kw):
        if self.leaf_chars > SHOWN:
            return _CUT
        out = super()._print(expr, **kw)
        if not getattr(expr, "args", ()):
            self.leaf_chars += len(out)
        return out


def text(expr: sp.Expr) -> str:
    """The first SHOWN characters of `expr` as sympy prints it (unsorted terms), with " ..." when cut."""
    out = _Prefix().doprint(expr)
    cut = _CUT in out or len(out) > SHOWN
    return out.split(_CUT)[0][:SHOWN] + (" ..." if cut else "")


def _shown(expr: sp.Expr, subs: dict) -> tuple[str, str]:
    """(symbolic, with numbers): terms that vanish for this model and layout (flags that
    are 0, stage integers that are 0) dropped first, numbers substituted, not evaluated."""
    if expr.has(sp.ceiling):          # the GEMM wave terms: sympy cannot print them with numbers in time
        return text(expr), "(shape-quantised GEMM terms: the value is below)"
    flags = {s: subs[s] for s in expr.free_symbols if s.name in _FLAGS or s in STAGE_INTS}
    reduced = expr.xreplace({s: v for s, v in flags.items() if v == 0 or s.name in _FLAGS})
    with sp.evaluate(False):
        with_numbers = sp.sstr(reduced.xreplace({s: subs[s] for s in reduced.free_symbols}), order="none")
    return sp.sstr(reduced, order="none"), with_numbers


def explain_terms(problem, layout, stage: int = 0) -> list[tuple[str, str, str, str, float]]:
    """(group, name, symbolic, with numbers, value) for each formula and per-stage sum."""
    vals = {**model_values(problem), **layout_values(problem, layout_vector(layout)), **stage_ints(problem, layout)}
    vals = {k: float(np.broadcast_to(v, (layout.pp,))[stage]) for k, v in vals.items()}
    subs = {}
    for e, _ in (*FORMULAS.values(), *fm.STAGE.values()):
        for s in e.free_symbols:
            x = vals[s.name]
            subs[s] = sp.Integer(int(x)) if float(x).is_integer() else sp.Float(x, 4)
    values = cc.formulas(vals)
    rows = []
    for name, (expr, doc) in FORMULAS.items():
        try:
            symbolic, numbers = _shown(expr, subs)
        except RecursionError:            # the shape-dependent GEMM terms nest deeply
            symbolic, numbers = text(expr), "(too deep to print with numbers; value below)"
        rows.append((_GROUPS.get(name[0], "other"), f"{name}: {doc}", symbolic, numbers, float(values[name])))
    sums = cc.stage(vals)
    for name, (expr, doc) in fm.STAGE.items():
        try:
            symbolic, numbers = _shown(expr, subs)
        except RecursionError:            # sympy compares the deepest sums recursively
            symbolic, numbers = text(expr), "(too deep to print with numbers; value below)"
        group = "stage memory" if name in fm.MEMORY_TERMS else "stage time"
        rows.append((group, f"{name}: {doc}", symbolic, numbers, float(sums[name])))
    return rows

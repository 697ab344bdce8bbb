"""explain prints the GEMM wave formulas (hundreds of thousands of characters) as their first
SHOWN characters without printing them whole: the shortened print must be exactly the start
of sympy's own whole print, for every formula of the table."""
import sympy as sp

import planner.costmodel.formulas as fm
from planner.costmodel.explain import SHOWN, text
from planner.costmodel.formula_table import FORMULAS


def test_shortened_print_is_the_start_of_the_whole_print():
    long = 0
    for name, (expr, _) in (*FORMULAS.items(), *fm.STAGE.items()):
        whole = sp.sstr(expr, order="none")
        long += len(whole) > SHOWN
        assert text(expr) == whole[:SHOWN] + (" ..." if len(whole) > SHOWN else ""), name
    assert long >= 5          # the GEMM wave terms are among them: the cut is exercised

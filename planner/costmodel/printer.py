"""The numpy source of a group of sympy expressions: what `compile` caches and ships
(its text is part of the tables' key, with the formulas')."""
from __future__ import annotations


def _symbols(exprs) -> list:
    return sorted({s for e in exprs for s in e.free_symbols}, key=lambda s: s.name)


def generate(make) -> str:
    """The numpy source of the expressions `make()` returns as a dict (sympy: ~30 s each)."""
    # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
    import sympy as sp
    from sympy.printing.lambdarepr import NumPyPrinter
    printer = NumPyPrinter({"fully_qualified_modules": False, "inline": True,
                            "allow_unknown_functions": True, "user_functions": {}})
    exprs = make()
    args = _symbols(exprs.values())
    # common subexpressions once (the per-stage sums share most of their terms)
    shared, reduced = sp.cse(list(exprs.values()), symbols=sp.numbered_symbols("_x"), optimizations="basic")
    lines = [f"    {sym} = {printer.doprint(e)}" for sym, e in shared]
    body = ",\n        ".join(printer.doprint(e) for e in reduced)
    return ("# generated from the cost model's formulas by planner/costmodel/printer.py; do not edit\n"
            f"_NAMES = {list(exprs)!r}\n_ARGS = {[s.name for s in args]!r}\n"
            f"def _fn({', '.join(s.name for s in args)}):\n" + "\n".join(lines)
            + f"\n    return [\n        {body}]\n")

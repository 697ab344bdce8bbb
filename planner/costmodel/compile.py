"""Compilation of the formulas into numeric functions (numpy, vectorised).

Two compilations of the same expressions, on purpose kept apart:

* `formulas(values)` and `stage(values)` evaluate the per-layer formulas and the
  per-stage sums directly, with the stage integers as arguments (what `evaluate`, the
  brute-force reference and `explain` read);
* `coefficients(values)` evaluates, for every per-stage sum, its constant part and its
  coefficient on each stage integer (sympy differentiates the sums, which are linear in
  the stage integers: checked here), over the rows of candidate layouts — what the CP-SAT
  stage model and the search bounds read.

A slip in the second shows up as a solver / brute-force disagreement. Printing sympy to
numpy is slow (~1 s) and building the formulas takes ~1.5 s, so the generated source is
cached on disk, keyed by the formulas' source text; on a cache hit neither sympy nor the
formulas are imported (the CLI's hot path).
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache, reduce
from pathlib import Path

import numpy as np

_HERE = Path(__file__).parent
_KEY_FILES = ("formulas.py", "dispatch.py", "symbols.py", "formula_table.py", "names.py", "printer.py", "cp_terms.py", "sharding_terms.py")
SHIPPED = _HERE / "compiled"              # the tables of the committed formulas

_NUMPY = {k: getattr(np, k) for k in ("amax", "amin", "ceil", "floor", "maximum", "minimum", "sqrt", "select", "less", "greater",
                                      "equal", "inf", "nan", "where")}


@lru_cache(maxsize=1)
def _source_key() -> bytes:
    """The formulas' source text: the tables are a function of it alone (the generated code
    needs only numpy, whichever sympy version printed it)."""
    return b"".join((_HERE / f).read_bytes() for f in _KEY_FILES)


def table_path(name: str, where: Path = SHIPPED) -> Path:
    """The file of table `name` for the present formulas under `where`."""
    return where / f"{name}-{hashlib.sha256(_source_key() + name.encode()).hexdigest()[:16]}.py"


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def _build(name: str, make):
    """(names, argument names, numpy function) of the expressions `make()` returns as a
    dict: the table shipped with the package for the present formulas
    (scripts/regenerate_compiled.py writes them), else the user's cache, else generated
    now and cached (`make` is not called on a hit)."""
    path = table_path(name)
    if not path.exists():
        path = table_path(name, Path(os.environ.get("FOLDPLAN_CACHE", Path.home() / ".cache" / "foldplan")))
    src = path.read_text() if path.exists() else None
    if src is None:
        # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
        from planner.costmodel.printer import generate
        src = generate(make)
        try:
            write_atomic(path, src)
        except OSError:
            pass
    namespace = {"numpy": np, "reduce": reduce, **_NUMPY}
    exec(compile(src, str(path), "exec"), namespace)
    return namespace["_NAMES"], namespace["_ARGS"], namespace["_fn"]


class _Compiled:
    """names, argument symbols and the numpy function of one group of expressions."""

    def __init__(self, name: str, make):
        self.names, self.args, self.fn = _build(name, make)

    def __call__(self, values: dict) -> dict[str, np.ndarray]:
        args = []
        for s in self.args:
            if s not in values:
                raise KeyError(f"cost model: no value for symbol {s}")
            args.append(values[s])
        out = self.fn(*args)
        shape = np.broadcast_shapes(*[np.shape(x) for x in args]) if args else ()
        res = {}
        for n, o in zip(self.names, out):          # read-only, each of the inputs' broadcast shape
            a = np.asarray(o, float)
            if a.shape == shape:
                a = a.view()
            elif a.ndim == 0:                      # a constant: a zero-stride view (np.broadcast_to is slow)
                a = np.ndarray(shape, float, buffer=a.reshape(1), strides=(0,) * len(shape))
            else:
                a = np.broadcast_to(a, shape)
            a.flags.writeable = False
            res[n] = a
        return res


def _fm():
    # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
    import planner.costmodel.formulas as fm
    return fm


def _formula_exprs() -> dict:
    # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
    import planner.costmodel.formula_table as ft
    return {k: e for k, (e, _) in ft.FORMULAS.items()}


def _stage_exprs() -> dict:
    return {k: e for k, (e, _) in _fm().STAGE.items()}


def _linear_parts() -> dict:
    """{"<term>:const": expr, "<term>:<int>": coefficient} for every per-stage sum."""
    # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
    import sympy as sp
    from planner.costmodel.symbols import STAGE_INTS
    fm = _fm()
    out = {}
    zero = {q: 0 for q in STAGE_INTS}
    for term, (expr, _) in fm.STAGE.items():
        out[f"{term}:const"] = expr.xreplace(zero)
        for q in STAGE_INTS:
            coef = sp.diff(expr, q)
            if coef.has(*STAGE_INTS):
                raise ValueError(f"cost model: stage term {term} is not linear in {q}")
            out[f"{term}:{q.name}"] = coef
    return out


MAKERS = {"formulas": _formula_exprs, "stage": _stage_exprs, "coefficients": _linear_parts}


@lru_cache(maxsize=None)
def _compiled(name: str) -> _Compiled:
    return _Compiled(name, MAKERS[name])


def write_shipped() -> list[Path]:
    """Generate the tables of the present formulas into SHIPPED (stale ones removed)."""
    keep = [table_path(n) for n in MAKERS]
    for old in SHIPPED.glob("*.py"):
        if old not in keep:
            old.unlink()
    for name, path in zip(MAKERS, keep):
        if not path.exists():
            # deferred: sympy (~1.5 s) loads only when the compiled tables are rebuilt
            from planner.costmodel.printer import generate
            write_atomic(path, generate(MAKERS[name]))
    return keep


def formulas(values: dict) -> dict[str, np.ndarray]:
    """Every formula of the `FORMULAS` table at the given symbol values (scalars or arrays)."""
    return _compiled("formulas")(values)


def stage(values: dict) -> dict[str, np.ndarray]:
    """Every per-stage sum at the given symbol values, stage integers included."""
    return _compiled("stage")(values)


def coefficients(values: dict) -> dict[str, dict[str, np.ndarray]]:
    """{term: {"const": array, "<stage int>": array}} over the rows of `values`."""
    raw = _compiled("coefficients")(values)
    out: dict[str, dict[str, np.ndarray]] = {}
    for key, arr in raw.items():
        term, part = key.split(":")
        out.setdefault(term, {})[part] = arr
    return out


def stage_symbols() -> list[str]:
    """Names of the symbols the per-stage sums read, stage integers included."""
    return list(_compiled("stage").args)

"""The coefficient tables the search reads: integer coefficients of the per-stage sums over
(tuple, folding) rows (`Tables`), a part that is one number per tuple kept once per tuple
(`PerTuple`). Built by `planner.solve.space.tables`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np


class PerTuple:
    """A coefficient that is one number per tuple (every folding of the tuple has it: a
    dense layer's terms, the tuple's own constants), kept as `per[t]` (int64) rather than
    one number per row: at 10^6 rows that is most of the tables' memory, and on this
    project's machines fresh memory costs ~2.5 s per GiB to touch. `Tables.col` reads it
    by rows."""
    __slots__ = ("per",)

    def __init__(self, per: np.ndarray):
        self.per = per


@dataclass
class Tables:
    """Integer coefficients (bytes / nanoseconds) of the per-stage sums over (tuple, fold)
    rows: `coef[term][part]`, part "const" or a stage integer's name, an array over rows
    or a PerTuple; read either by rows with `col` (or summed with `split_sum`). Index a
    tuple's rows with `rows[t]` (a slice)."""
    tuples: list                    # of planner.solve.space.Degrees
    folds: list[list[tuple[int, int, int]]]
    rows: list[slice]
    coef: dict[str, dict[str, "np.ndarray | PerTuple"]]

    def __post_init__(self):
        self.starts = np.array([r.start for r in self.rows], np.int64)
        self.lens = np.array([r.stop - r.start for r in self.rows], np.int64)
        self.n_rows = int(self.rows[-1].stop) if self.rows else 0

    def col(self, term: str, part: str, rows=None) -> np.ndarray:
        """`coef[term][part]` over `rows` (default every row; a slice or row indices)."""
        a = self.coef[term][part]
        if isinstance(a, PerTuple):
            return self._spread(a.per, rows)
        if rows is None:
            return a
        return a[rows] if isinstance(rows, slice) else a[np.asarray(rows)]

    def values(self, term: str, part: str, rows=None) -> np.ndarray:
        """The values `coef[term][part]` takes on `rows` (every row by default), in any order
        and as often as any: what a test for any nonzero / negative entry reads."""
        a = self.coef[term][part]
        if isinstance(a, PerTuple) and rows is None:
            return a.per[self.lens > 0]
        return self.col(term, part, rows)

    def row_tuple(self) -> np.ndarray:
        """Each row's tuple index (int32; made on first need, then kept)."""
        if "_tix" not in self.__dict__:
            self._tix = np.repeat(np.arange(len(self.lens), dtype=np.int32), self.lens)
        return self._tix

    def _spread(self, per: np.ndarray, rows) -> np.ndarray:
        """Per-tuple values `per` as a fresh array over `rows`."""
        if rows is None:
            return np.repeat(per, self.lens)
        return per[self.row_tuple()[rows if isinstance(rows, slice) else np.asarray(rows)]]

    def split_sum(self, terms, part: str, rows=None) -> tuple[int, Optional[np.ndarray]]:
        """The sum of `terms`' coefficient `part` over `rows` (default: every row), split
        into the parts that are one number for every row (the broadcast columns), summed
        as one int, and the sum of the others (a fresh int64 array; None when there is none).
        `terms`: names, or {name: sign} (a signed sum, as planner.costmodel.step writes one)."""
        const, acc, per = 0, None, None
        for t, sign in (terms.items() if isinstance(terms, dict) else ((t, 1) for t in terms)):
            a = self.coef[t][part]
            if isinstance(a, PerTuple):
                x = a.per if sign == 1 else sign * a.per
                per = x.copy() if per is None else np.add(per, x, out=per)
            elif a.strides and a.strides[0] == 0:
                const += sign * int(a[0]) if a.size else 0
            else:
                x = a if rows is None else a[rows]
                x = x if sign == 1 else sign * x
                if acc is None:
                    acc = x.copy() if x is a or isinstance(rows, slice) else x
                else:
                    acc += x
        if per is not None:
            spread = self._spread(per, rows)
            acc = spread if acc is None else np.add(acc, spread, out=acc)
        return const, acc

    def sub(self, terms: dict[str, int], rows: list[int]) -> dict[str, list[int]]:
        """{part: [coefficient of each row in `rows`]} of the sum of `terms` (name: sign),
        as Python ints (memoised: the stage model reads each for every stage)."""
        key = (tuple(terms.items()), tuple(rows))
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            first = self.coef[next(iter(terms))]
            memo[key] = {q: sum(sign * self.col(t, q, rows) for t, sign in terms.items()).tolist() for q in first}
        return memo[key]

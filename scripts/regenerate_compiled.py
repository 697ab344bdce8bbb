#!/usr/bin/env python3
"""Write the cost model's compiled tables for the present formulas into
planner/costmodel/compiled/ (stale ones removed), so a fresh install plans without
generating them (sympy: ~80 s on 2 cores). tests/test_compiled_tables.py fails while the
committed tables are not those of the committed formulas.

    python scripts/regenerate_compiled.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from planner.costmodel import compile as cc  # noqa: E402

if __name__ == "__main__":
    for path in cc.write_shipped():
        print(path.relative_to(Path(cc.__file__).resolve().parents[2]))

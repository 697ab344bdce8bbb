"""The cost model's compiled tables ship with the package (planner/costmodel/compiled/),
so a fresh install plans without sympy generating them; planning on them never imports
sympy (the CLI's hot path)."""
import subprocess
import sys
from pathlib import Path

from planner.costmodel import compile as cc

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_tables_are_those_of_the_committed_formulas():
    want = {cc.table_path(n) for n in cc.MAKERS}
    missing = sorted(p.name for p in want if not p.exists())
    assert not missing, f"stale compiled tables: run python scripts/regenerate_compiled.py ({missing})"
    stale = sorted(p.name for p in cc.SHIPPED.glob("*.py") if p not in want)
    assert not stale, f"tables of old formulas left in {cc.SHIPPED}: {stale}"


def test_planning_reads_the_tables_without_sympy(tmp_path):
    code = ("import sys\n"
            "from planner.cli import main\n"
            "rc = main(['plan', '--gpus', '8', '--seq', '8k', '--model', 'llama3-8b', '--no-engines', '--json'])\n"
            "assert rc == 0, rc\n"
            "assert 'sympy' not in sys.modules, 'sympy imported on the planning path'\n")
    env = {"FOLDPLAN_CACHE": str(tmp_path / "empty-cache"), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert not (tmp_path / "empty-cache").exists()          # nothing generated: the shipped tables served

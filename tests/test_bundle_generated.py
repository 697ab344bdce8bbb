"""The example bundles in generated/ are exactly what codegen renders from examples/plans/."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("regenerate_generated", ROOT / "scripts" / "regenerate_generated.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)


@pytest.mark.skipif(not regen.plan_files(), reason="examples/plans/ has no plan files")
def test_generated_bundles_are_in_sync():
    bad = regen.differences()
    assert not bad, f"generated/ out of date for {bad}: run python scripts/regenerate_generated.py"

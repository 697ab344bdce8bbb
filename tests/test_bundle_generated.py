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


@pytest.mark.parametrize("args_file", regen.arg_files(), ids=lambda p: p.stem)
def test_example_plans_are_what_the_planner_chooses_now(args_file):
    # the committed plan files are foldplan's own answer for their arguments (timing aside)
    committed = regen.without_timing(__import__("json").loads(args_file.with_suffix(".json").read_text()))
    assert regen.without_timing(regen.plan_now(args_file)) == committed, \
        "examples/plans out of date: run python scripts/regenerate_generated.py --replan"


def test_generated_cpu_bundle_runs_and_matches_its_reference(tmp_path):
    # generated/tiny-moe-8cpu is a world-8 plan: run its own CPU launcher with --check
    import os
    import shutil
    import subprocess
    if shutil.which("torchrun") is None:
        pytest.skip("torchrun not on PATH")
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "generated" / "tiny-moe-8cpu", bundle)
    r = subprocess.run(["bash", "launch/local_cpu.sh", "--check"], cwd=bundle, capture_output=True, text=True,
                       timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "CHECK PASS" in r.stdout + r.stderr

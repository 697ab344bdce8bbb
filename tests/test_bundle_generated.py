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
    # generated/tiny-moe-8cpu is a world-8 plan: run its own CPU launcher with --check, with the
    # torchrun of the running interpreter's environment
    import os
    import shutil
    import subprocess
    import sys
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "generated" / "tiny-moe-8cpu", bundle)
    env = {**os.environ, "OMP_NUM_THREADS": "1",
           "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    r = subprocess.run(["bash", "launch/local_cpu.sh", "--check"], cwd=bundle, capture_output=True, text=True,
                       timeout=600, env=env)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    assert "check_fit: fits" in out and "CHECK PASS" in out and "check: step 1" in out


def test_check_that_cannot_fit_says_so_before_starting(tmp_path):
    # the default 64-process bundle on a machine that (as far as check_fit knows) has 1 GiB free
    import os
    import shutil
    import subprocess
    import sys
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "generated" / "default-64gpu-128k", bundle)
    probe = "import check_fit; check_fit.available_bytes = lambda: 2 ** 30; raise SystemExit(check_fit.main())"
    r = subprocess.run([sys.executable, "-c", probe], cwd=bundle, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 1, r.stdout + r.stderr
    assert "does not fit: 64 processes x" in r.stderr and "1.0 GiB available" in r.stderr
    # the reduced layout keeps every parallel kind of the plan: hybrid CP and experts ep x edp
    assert "every parallel kind" in r.stderr and "ulysses 2 x ring 2" in r.stderr, r.stderr

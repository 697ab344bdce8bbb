"""The example plans and bundles, held to properties rather than frozen bytes: every bundle in
generated/ is what codegen renders from its committed plan in examples/plans/; every example
plan satisfies the layout rules, carries the cost model's estimate of its own layout, and is an
optimal plan for its own arguments (examples/plans/<stem>.args) within the solver's gap."""
import importlib.util
import json
import math
from pathlib import Path

import pytest

from planner import costmodel as cm
from planner import plan as planmod
from planner.bundle.codegen import render_bundle
from planner.layout import check

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("regenerate_generated", ROOT / "scripts" / "regenerate_generated.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)


def test_generated_holds_the_bundles_of_the_example_plans():
    have = sorted(p.name for p in regen.GENERATED.iterdir() if p.is_dir())
    assert regen.plan_files() and have == sorted(f.stem for f in regen.plan_files())


@pytest.mark.parametrize("plan_file", regen.plan_files(), ids=lambda p: p.stem)
def test_generated_bundle_is_the_render_of_its_plan(plan_file, tmp_path):
    # a property of the renderer: the committed plan, rendered now, reproduces the directory
    fresh = regen.tree(render_bundle(regen.best_plan(plan_file), tmp_path / plan_file.stem))
    have = regen.tree(regen.GENERATED / plan_file.stem)
    assert sorted(have) == sorted(fresh), f"files differ: {sorted(set(have) ^ set(fresh))}"
    stale = [k for k in fresh if have[k] != fresh[k]]
    assert not stale, f"generated/{plan_file.stem} out of date in {stale}: run python scripts/regenerate_generated.py"


# ---------------------------------------------------------------- the example plans are optimal plans

# How far the solver's optimum may sit from `evaluate` of the same layout: the stage model
# works in integer nanoseconds (tests/test_solver.py holds the search to the brute force
# with the same tolerance), and plan files keep 6 significant digits.
GAP_REL, GAP_ABS_S = 1e-5, 1e-6


def close(a, b) -> bool:
    """a == b up to the plan file's rounding (6 significant digits), recursively."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=GAP_REL, abs_tol=1e-12)
    return a == b


@pytest.mark.parametrize("plan_file", regen.plan_files(), ids=lambda p: p.stem)
def test_example_plans_satisfy_the_rules_and_carry_the_cost_models_estimate(plan_file):
    doc = json.loads(plan_file.read_text())
    plans = planmod.load(str(plan_file))           # every entry validated and re-estimated
    assert len(plans) == len(doc["plans"]) >= 1
    steps = []
    for i, (p, stored) in enumerate(zip(plans, doc["plans"])):
        check(p.layout, p.problem)                 # the rule table (raises LayoutError)
        fresh = planmod.document([planmod.Plan(p.problem, p.layout, cm.evaluate(p.problem, p.layout), {})])
        assert close(stored["estimate"], fresh["plans"][0]["estimate"]), \
            f"plans[{i}]: the stored estimate is not the cost model's evaluate of its layout"
        steps.append(p.estimate.step_time)
    # plan 1 is the tie-break's (planner/solve/tiebreak.py: within its window of the fastest), the rest fastest first
    from planner.solve.sanity import SANE_TOLERANCE
    from planner.solve.tiebreak import TIE_TOLERANCE
    assert steps[1:] == sorted(steps[1:]), f"plans after the first are not fastest first: {steps}"
    assert steps[0] <= min(steps) * (1 + SANE_TOLERANCE) * (1 + TIE_TOLERANCE), steps


@pytest.mark.parametrize("args_file", regen.arg_files(), ids=lambda p: p.stem)
def test_example_plan_is_optimal_for_its_own_arguments(args_file, tmp_path):
    example = planmod.load(str(args_file.with_suffix(".json")), index=0)[0]
    now = tmp_path / "now.json"
    now.write_text(json.dumps(regen.plan_now(args_file)))     # `foldplan plan ARGS --json`, from the repo root
    best = planmod.load(str(now), index=0)[0]
    assert close(best.problem.to_dict(), example.problem.to_dict()), "the example was planned for other inputs"
    assert best.solver.get("status") == "OPTIMAL" == example.solver.get("status")
    ex, opt = example.estimate.step_time, best.estimate.step_time
    tol = GAP_REL * opt + GAP_ABS_S
    assert ex >= opt - tol, f"the example ({ex:.6g} s) beats the proven optimum ({opt:.6g} s): the solver missed it"
    assert opt >= ex - tol, f"the optimum ({opt:.6g} s) beats the example ({ex:.6g} s): the example is not optimal"


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


@pytest.mark.full_matrix
def test_generated_cpu_bundle_resumes_exactly(tmp_path):
    # generated/tiny-moe-8cpu through its own launcher (8 processes): 4 straight steps, then 2 steps
    # + stop + --resume to 4; the resumed steps' lines equal the straight run's but for the time.
    # (generated/default-64gpu-128k needs 64 processes; its reduced 16-rank layout resumes exactly under
    # benchmarks/resume_reduced.py, about 9 minutes on 2 cores, too long for the suite; its kinds - tp,
    # hybrid CP, softmax MoE - resume in test_bundle_runtime_train)
    import os
    import re
    import shutil
    import subprocess
    import sys
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "generated" / "tiny-moe-8cpu", bundle)
    env = {**os.environ, "OMP_NUM_THREADS": "1",
           "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    env.pop("PYTHONWARNINGS", None)

    def launch(*args):
        r = subprocess.run(["bash", "launch/local_cpu.sh", "--steps", "4", *args], cwd=bundle, capture_output=True,
                           text=True, timeout=900, env=env)
        assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
        assert "Warning" not in r.stderr, r.stderr[-3000:]
        return [re.sub(r" [0-9.]+ s$", "", line) for line in r.stdout.splitlines() if line.startswith("step ")]

    straight = launch()
    first = launch("--stop-after", "2", "--ckpt", str(tmp_path / "ck"), "--save-every", "2")
    resumed = launch("--ckpt", str(tmp_path / "ck"), "--resume")
    assert len(straight) == 4 and first == straight[:2] and resumed == straight[2:], (straight, first, resumed)

"""--check (CPU, gloo, world 4) through runtime paths the matrix in
test_bundle_check.py does not choose: pipeline stages that send 1/tp of the
rows (pp 2 x tp 2), and the shardings other than the default zero1."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402

pytest.importorskip("torch")
from planner.codegen import render_bundle  # noqa: E402

TORCHRUN = shutil.which("torchrun") or str(Path(sys.executable).parent / "torchrun")
pytestmark = pytest.mark.skipif(not Path(TORCHRUN).exists(), reason="torchrun not found")


def _modules(p, modules):
    """The same plan with every stage recomputing `modules` on its selective layers."""
    stages = tuple(st.model_copy(update={"recompute_modules": tuple(modules)}) for st in p.layout.stages)
    p.layout = p.layout.model_copy(update={"stages": stages})
    return p


CASES = {
    "pp2_tp2_scatter_gather": plan(pp=2, tp=2, num_microbatches=2),
    "dp2_cp2_zero3_selective_modules": _modules(plan(dp=2, cp=2, folds=[(1, 2, 2)], sharding="zero3",
                                                     num_microbatches=2, recompute=[(0, 4)]),
                                                ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts")),
    "pp2_dp2_zero2": plan(pp=2, dp=2, num_microbatches=2, sharding="zero2"),
    "dp4_none": plan(dp=4, folds=[(1, 4, 1)], sharding="none", num_microbatches=2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_check_passes(name, tmp_path):
    bundle = render_bundle(CASES[name], tmp_path / "b")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    p = subprocess.run([TORCHRUN, "--standalone", "--nproc-per-node=4", "train.py", "--check", "--device", "cpu"],
                       cwd=bundle, env=env, capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and "CHECK PASS" in out, out[-3000:]

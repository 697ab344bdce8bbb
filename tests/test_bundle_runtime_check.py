"""--check (CPU, gloo, world 4) through runtime paths the matrix in
test_bundle_check.py does not choose: pipeline stages that send 1/tp of the
rows (pp 2 x tp 2, the sequence-parallel shard), and the shardings other than
the default zero1; and how often FSDP2 gathers with pp > 1 (zero2: once per step)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402

pytest.importorskip("torch")
from planner.bundle.codegen import render_bundle  # noqa: E402

TORCHRUN = shutil.which("torchrun") or str(Path(sys.executable).parent / "torchrun")
pytestmark = pytest.mark.skipif(not Path(TORCHRUN).exists(), reason="torchrun not found")


def _modules(p, modules):
    """The same plan with every stage recomputing `modules` on its selective layers."""
    stages = tuple(st.model_copy(update={"recompute_modules": tuple(modules)}) for st in p.layout.stages)
    p.layout = p.layout.model_copy(update={"stages": stages})
    return p


CASES = {
    "pp2_tp2_sequence_parallel": plan(pp=2, tp=2, num_microbatches=2),
    "dp2_cp2_zero3_selective_modules": _modules(plan(dp=2, cp=2, folds=[(1, 2, 2)], sharding="zero3",
                                                     num_microbatches=2, recompute=[(0, 4)]),
                                                ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts")),
    "pp2_dp2_zero2": plan(pp=2, dp=2, num_microbatches=2, sharding="zero2"),
    # layernorm recompute with sequence parallel: fused with the QKV / MLP / router GEMMs
    # (tp2 cp2), and inside a recomputed MoE block (tp2 dp2, zero3)
    "tp2_cp2_layernorm_fused": _modules(plan(tp=2, cp=2, folds=[(1, 2, 2)], num_microbatches=2,
                                             recompute=[(0, 4)]), ("layernorm",)),
    "tp2_dp2_zero3_layernorm_moe_block": _modules(plan(tp=2, dp=2, folds=[(1, 2, 2)], sharding="zero3",
                                                       num_microbatches=2, recompute=[(0, 4)]),
                                                  ("core_attn", "layernorm", "mlp", "moe")),
    "dp4_none": plan(dp=4, folds=[(1, 4, 1)], sharding="none", num_microbatches=2),
}


# three in the default run (sequence parallel across stages, selective modules under zero3, layernorm fused
# with the GEMMs); the rest in the full matrix (pytest -m full_matrix)
DEFAULT = ("pp2_tp2_sequence_parallel", "dp2_cp2_zero3_selective_modules", "tp2_cp2_layernorm_fused")


@pytest.mark.parametrize("name", [n if n in DEFAULT else pytest.param(n, marks=pytest.mark.full_matrix) for n in CASES])
def test_check_passes(name, tmp_path):
    bundle = render_bundle(CASES[name], tmp_path / "b")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    p = subprocess.run([TORCHRUN, "--standalone", "--nproc-per-node=4", "train.py", "--check", "--device", "cpu"],
                       cwd=bundle, env=env, capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and "CHECK PASS" in out, out[-3000:]


# Counts FSDP2's real all-gathers (an unshard of a group that is neither gathered nor
# being gathered) per param group, printed at exit by ranks 0 and 3.
_COUNT_GATHERS = '''
import atexit, collections, os
from torch.distributed.fsdp._fully_shard import _fsdp_param_group as g
_n = collections.Counter()
_unshard = g.FSDPParamGroup.unshard
def unshard(self, async_op=False):
    if self._all_gather_result is None and not self.is_unsharded:
        _n[id(self)] += 1
    return _unshard(self, async_op)
g.FSDPParamGroup.unshard = unshard
def _report():        # one file per rank: the ranks' stdout lines can interleave in the pipe
    if os.environ.get("RANK") in ("0", "3"):
        with open(os.path.join(os.environ["GATHER_DIR"], "rank" + os.environ["RANK"]), "w") as f:
            f.write(f"{len(_n)} {sum(_n.values())}")
atexit.register(_report)
'''


@pytest.mark.parametrize("sharding, per_microbatch", [pytest.param("zero2", False, marks=pytest.mark.full_matrix),
                                                     ("zero3", True)])
def test_pp_gathers_as_costed(sharding, per_microbatch, tmp_path):
    """pp > 1: zero2 gathers each FSDP2 unit once per step (the cost model's one gather per
    step), zero3 again in every micro-batch (--check runs 2 steps of 4 micro-batches)."""
    bundle = render_bundle(plan(tp=2, pp=2, num_microbatches=4, folds=[(1, 2, 1), (1, 2, 1)], sharding=sharding),
                           tmp_path / "b")
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(_COUNT_GATHERS)
    (tmp_path / "gathers").mkdir()
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore", PYTHONPATH=str(tmp_path / "hook"),
               GATHER_DIR=str(tmp_path / "gathers"))
    p = subprocess.run([TORCHRUN, "--standalone", "--nproc-per-node=4", "train.py", "--check", "--device", "cpu"],
                       cwd=bundle, env=env, capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and "CHECK PASS" in out, out[-3000:]
    counts = [tuple(map(int, f.read_text().split())) for f in sorted((tmp_path / "gathers").iterdir())]
    assert len(counts) == 2, out[-2000:]
    for units, gathers in counts:
        if per_microbatch:
            assert gathers > 2 * units * 2          # more than one per unit per step (2 steps)
        else:
            assert gathers == units * 2             # exactly one per unit per step

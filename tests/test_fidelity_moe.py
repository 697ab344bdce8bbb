"""Step-time estimates against published MoE runs (benchmarks/fidelity_moe.py): the MoE
Parallel Folding paper's Tables 3 and 4 (Megatron-Core, H100) and Megatron-LM's MoE-layer
CI timings; and the long-context trend (MFU falls with sequence length at fixed tokens)."""
import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

from planner.specs import make_problem
from planner.solve.search import search_plans

_spec = importlib.util.spec_from_file_location(
    "fidelity_moe", Path(__file__).resolve().parent.parent / "benchmarks" / "fidelity_moe.py")
fidelity_moe = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("fidelity_moe", fidelity_moe)
_spec.loader.exec_module(fidelity_moe)


@pytest.fixture(scope="module")
def rows():
    return fidelity_moe.run_all(time_limit=10)


def test_folding_rows_median_error_within_6_percent(rows):
    assert all(r.mfu_est == r.mfu_est for r in rows), fidelity_moe.table(rows)     # every row has a plan
    assert statistics.median(abs(r.rel_error) for r in rows) <= 0.06, fidelity_moe.table(rows)


def test_folding_beats_the_mcore_mapping_where_the_paper_measured_both(rows):
    pairs = {}
    for r in rows:
        pairs.setdefault((r.run.source, r.run.model.name, r.run.gpus, r.run.global_batch), {})[r.run.mapping] = r
    both = [p for p in pairs.values() if len(p) == 2]
    assert len(both) == 3 + 4                    # Table 3: three models; Table 4: Mixtral at four GPU counts
    for p in both:
        assert p["folding"].run.mfu > p["mcore"].run.mfu          # what the paper measured ...
        assert p["folding"].mfu_est > p["mcore"].mfu_est, fidelity_moe.table(rows)   # ... the model says too


def test_fine_grained_g8t8_sits_well_below_the_coarse_model(rows):
    pick = lambda name: next(r for r in rows if r.run.source == "F25-T3" and r.run.model.name == name
                             and r.run.mapping == "folding")
    fine, coarse = pick("mixtral-8x22b-g8t8"), pick("mixtral-8x22b")
    assert fine.run.mfu / coarse.run.mfu < 0.7                   # measured: 28.8% vs 49.3%
    assert fine.mfu_est / coarse.mfu_est < 0.8, fidelity_moe.table(rows)


# the DeepSeek proxy (expert width 2,048: K 2,048 for the down projection) is a known miss: the isolated
# layer's GEMMs run near the measured matmul ceiling of an H100 (792 TFLOP/s, 0.80 of peak: the MAMF
# table of stas00/ml-engineering, compute/accelerator/README.md), above the compute_efficiency (0.70)
# that GEMMs reach in training runs, and the epilogue slows its short K loop further (docs/fidelity.md)
_CI_MISS = pytest.mark.xfail(strict=True, reason="DeepSeek proxy: 36-47% slow (docs/fidelity.md, known misses)")
CI_CASES = [pytest.param(name, disp, marks=[_CI_MISS] if name == "deepseek_proxy" else [])
            for name, (_, runs) in sorted(fidelity_moe.CI.items()) for disp in runs]


@pytest.mark.parametrize("name, dispatcher", CI_CASES)
def test_megatron_moe_layer_ci_timing_within_30_percent(name, dispatcher):
    est, measured = fidelity_moe.ci_layer_ms(name, dispatcher)
    assert est == pytest.approx(measured, rel=0.30)


def test_megatron_moe_layer_ci_dispatcher_order():
    # the fine-grained proxy (4 local experts, top-8): DeepEP and HybridEP send a token once per GPU
    # and skip the sort by local expert, measured 17-19% faster than the all-to-all; the model agrees
    a2a = fidelity_moe.ci_layer_ms("deepseek_proxy", "alltoall")
    for disp in ("deepep", "hybridep"):
        est, meas = fidelity_moe.ci_layer_ms("deepseek_proxy", disp)
        assert meas < 0.85 * a2a[1] and est < 0.9 * a2a[0], (disp, est, meas, a2a)


@pytest.mark.full_matrix
def test_mfu_falls_with_sequence_length_at_fixed_tokens():
    # Mixtral-8x7B on 64 H100, 4M tokens per step, the best plan at each length: attention's
    # share of the FLOPs grows with S and runs below the GEMMs' efficiency, and CP adds traffic
    mfu = []
    for seq in ("4k", "16k", "64k", "128k"):
        res = search_plans(make_problem(model="mixtral-8x7b", gpus=64, seq=seq, global_batch="4M"), top=1, time_limit=30)
        mfu.append(res.plans[0].estimate.mfu)
    assert all(a > b for a, b in zip(mfu, mfu[1:])), mfu


def test_torchtitan_fsdp_rows_and_the_compile_speed_up():
    # torchtitan's Llama 3.1 8B FSDP rows on their own GPU (HBM2e 2.4 TB/s, 500 W) through the
    # audit's reader: eager (no torch.compile) and compiled; eager costs what the measured
    # torch.compile speed-up says it does, within 15%, and no row is more than 35% off
    rows = fidelity_moe.torchtitan_rows()
    for n in (8, 128):
        (k0, e0, p0), (k1, e1, p1) = [(r[2], r[3], r[4]) for r in rows if r[0] == n]
        assert (k0, k1) == ("eager", "fused")
        assert e1 / e0 == pytest.approx(p1 / p0, rel=0.15)
    assert all(abs(est / pub - 1) < 0.35 for *_, est, pub in rows)

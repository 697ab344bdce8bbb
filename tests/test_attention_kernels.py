"""The attention kernels' curves in the GPU presets, held against the published per-shape
throughput they come from, and TrainSpec.attention_kernel through the planner, CLI and audit.

Published: FlashAttention-3 paper (Shah et al. 2024, arXiv 2407.08608) Figs. 5 and 6, H100 80GB
SXM5, BF16, head dim 128, sequence 512..16k at 16k tokens per batch: causal forward and backward
TFLOP/s of FlashAttention-2 and cuDNN.
"""
import subprocess
import sys
from pathlib import Path

import pytest

from planner import costmodel as cm
from planner.specs import SpecError, load_gpu, make_problem
from planner.solve import search_plans

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = (512, 1024, 2048, 4096, 8192, 16384)
PAPER = {  # kernel -> (forward, backward) TFLOP/s at LENGTHS
    "flash2": ((191, 260, 298, 319, 333, 335), (214, 260, 291, 310, 318, 322)),
    "fused": ((315, 410, 484, 518, 529, 539), (305, 408, 465, 499, 518, 516)),     # cuDNN
}


def _measured_efficiency(fwd: float, bwd: float, peak: float = 989e12) -> float:
    # the cost model counts attention as forward + 2 x forward FLOPs; the paper's backward
    # counts 2.5 x forward (the recomputed QK^T): time = F / fwd + 2.5 F / bwd
    return 3 / (1 / fwd + 2.5 / bwd) / (peak / 1e12)


@pytest.mark.parametrize("gpu", ["h100-sxm", "h200", "h100-hbm2e-500w"])
@pytest.mark.parametrize("kernel", sorted(PAPER))
def test_hopper_attention_curves_match_the_published_kernels(gpu, kernel):
    # each curve within 6% of the paper at every length (cuDNN's worst: -5.3% at 1k; FA2's: +1.3% at 512)
    eta, half = load_gpu(gpu).attention_curve(kernel)
    fwd, bwd = PAPER[kernel]
    for L, f, b in zip(LENGTHS, fwd, bwd):
        assert eta * L / (L + half) == pytest.approx(_measured_efficiency(f, b), rel=0.06), (kernel, L)


def test_flash2_is_slower_and_costs_more_at_longer_blocks():
    # FA2 runs at ~0.62 of cuDNN on Hopper: the step grows, and by more where attention is a
    # larger share of the FLOPs (32k vs 4k tokens per sequence), same layout
    grow = []
    for seq in (4096, 32768):
        p = make_problem(model="llama3-8b", gpus=8, seq=seq, global_batch=64)
        best = search_plans(p, top=1, time_limit=20).plans[0]
        p2 = p.model_copy(update={"train": p.train.model_copy(update={"attention_kernel": "flash2"})})
        grow.append(cm.evaluate(p2, best.layout).step_time / best.estimate.step_time)
    assert 1.0 < grow[0] < grow[1], grow


def test_a_gpu_without_a_flash2_curve_is_refused_in_one_line():
    with pytest.raises(SpecError, match=r"attention_kernel: gpu 'b200' has no flash2 curve"):
        make_problem(gpu="b200", gpus=8, seq=4096, global_batch=8, attention_kernel="flash2")
    r = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "--gpu", "b200", "--gpus", "8", "--seq", "4k",
                        "--global-batch", "8", "--attention-kernel", "flash2"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert [x for x in r.stderr.splitlines() if x.strip()] == [
        "foldplan: error: problem: attention_kernel: gpu 'b200' has no flash2 curve (its preset sets no "
        "flash2_attention_efficiency); use attention_kernel fused"]


def test_torchtitan_audit_says_which_attention_it_assumed(tmp_path):
    from planner.audit.audit import run_audit
    from planner.audit.detect import load
    cfg = load(str(ROOT / "examples" / "audit" / "real" / "tt_llama3_8b.toml"))
    got = {}
    for kernel in ("fused", "flash2"):
        p = make_problem(model="llama3-8b", gpus=8, seq=8192, global_batch=8, attention_kernel=kernel)
        r = run_audit(cfg, p, search=False)
        (f,) = [f for f in r.findings if f.rule == "audit.attention_kernel"]
        got[kernel] = r.estimate.step_time, f
    (t_fused, f_fused), (t_fa2, f_fa2) = got["fused"], got["flash2"]
    assert t_fa2 > t_fused
    # each names the other kernel's step, as the other estimate computes it
    assert f"with FlashAttention-2 the step is {t_fa2:.3f} s" in f_fused.message
    assert f"the step is {t_fused:.3f} s" in f_fa2.message and "--attention-kernel fused" in f_fa2.fix
    # a Megatron script runs Transformer Engine's attention (cuDNN on Hopper): no such note
    meg = load(str(ROOT / "examples" / "audit" / "megatron_mixtral_8x7b.sh"))
    r = run_audit(meg, make_problem(gpus=64, seq=4096, global_batch=64), search=False)
    assert not [f for f in r.findings if f.rule == "audit.attention_kernel"]


def test_bundle_target_costs_the_kernel_the_bundle_runs():
    # the bundle's attention is PyTorch's flash kernel (FlashAttention-2, cp/kernels.py and
    # cp/attention.py): its plans take the preset's FA2 curve; the engines keep cuDNN; a GPU
    # without an FA2 curve keeps its fused one, and the plan's header says the step may be optimistic
    import argparse

    from planner.cli import args, problem_args
    from planner import report
    from planner.engines.bundle.rules import attention_kernel
    ns = lambda **kw: argparse.Namespace(**{**dict(model=None, gpu=None, gpus="8", gpus_per_node=None, seq="4k",
                                                   global_batch="8", micro_batch=None, memory_fraction=None,
                                                   memory_gib=None, cp_kinds=None, recompute=None,
                                                   capacity_factor=None, sharding=None, master=None,
                                                   recompute_modules=None, attention_kernel=None,
                                                   cp_comm=None, cp_balance=None, target=None), **kw})
    h100 = problem_args.build_problem(args.problem_args_of(ns()))
    # the bundle runs cuDNN's attention on Hopper / Blackwell: the preset's fused (cuDNN) curve
    assert h100.train.attention_kernel == "fused" and "cuDNN" in report.header(h100)
    assert problem_args.build_problem(args.problem_args_of(ns(target="megatron"))).train.attention_kernel == "fused"
    # torchtitan 0.3 runs language models in FlexAttention (models/common/config_utils.py:83-101)
    assert problem_args.build_problem(args.problem_args_of(ns(target="torchtitan"))).train.attention_kernel == "flex"
    assert problem_args.build_problem(args.problem_args_of(ns(attention_kernel="fused"))).train.attention_kernel == "fused"
    b200 = problem_args.build_problem(args.problem_args_of(ns(gpu="b200")))
    assert b200.train.attention_kernel == "fused"
    assert "has no curve for" not in report.header(b200)
    assert attention_kernel(load_gpu("a100-80g")) == "flash2"
    # a preset of no cuDNN architecture and no FlashAttention-2 curve: costed fused, and the header says so
    mi = load_gpu("a100-80g").model_copy(update={"flash2_attention_efficiency": None})
    assert attention_kernel(mi) == "fused"
    odd = h100.model_copy(update={"cluster": h100.cluster.model_copy(update={"gpu": mi}),
                                  "train": h100.train.model_copy(update={"attention_kernel": "fused"})})
    assert "the bundle runs FlashAttention-2, which the a100-80g preset has no curve for" in report.header(odd)


def test_rendering_a_plan_estimated_for_other_kernels_says_so(tmp_path):
    # a bundle runs its compiled blocks and the GPU's attention kernel: rendering a plan the cost model priced
    # for another engine's kernels warns (the step will not be the plan's); the bundle's own does not
    from planner.bundle import codegen
    from planner import plan as planmod
    own = planmod.load(str(ROOT / "generated" / "default-64gpu-128k" / "plan.json"))[0]
    assert codegen.runs_differently(own) is None
    from planner.engines import constraints
    from planner.solve import targets
    p = make_problem(model="llama3-8b", gpus=8, seq=4096, global_batch=8, **constraints("megatron").train_defaults())
    res = targets.search(p, top=1, time_limit=20)
    meg = planmod.from_search(p, res)[0]
    note = codegen.runs_differently(meg)
    assert note.startswith("the plan was estimated with target megatron;")   # the same kernels now
    assert f"{meg.estimate.step_time:.3f} s" in note

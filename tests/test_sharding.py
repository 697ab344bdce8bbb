"""Data-parallel sharding and recompute modules against outside numbers: bytes per
parameter of ZeRO (Rajbhandari et al. 2020, sec. 5) and the engines' variants, GPU memory
as the runtime reports it (shared/REFERENCE.md), and the solver choosing among them."""
import json

import pytest

from planner import costmodel as cm
from planner.cli import main
from planner.layout import Layout, uniform_stages
from planner.specs import load_gpu, load_model, make_problem

LLAMA = load_model("llama3-8b")
KIND = {"none": 0, "zero1": 1, "zero2": 2, "zero3": 3}


def bytes_per_param(kind: str, n: int, grad_bytes: int, master: str = "bf16+fp32") -> float:
    z = KIND[kind]
    vals = cm.unit_values(LLAMA, Z_d=n, Z_e=n, b_g=grad_bytes, z_1=float(z >= 1), z_2=float(z >= 2),
                          z_3=float(z >= 3), **{k: float(v[0]) for k, v in cm.sharding_values(kind, master).items()
                                                if k in ("mu", "b_o")})
    return float(cm.evaluate_formulas(vals)["Bpp_dense"])


@pytest.mark.parametrize("n", [1, 8, 64, 1024])
def test_zero_paper_bytes_per_parameter(n):
    # ZeRO sec. 5, mixed precision Adam, K = 12, 2-byte gradients: (2 + 2 + K), 4 + K/N,
    # 2 + (2 + K)/N, (2 + 2 + K)/N
    assert bytes_per_param("none", n, 2) == pytest.approx(16)
    assert bytes_per_param("zero1", n, 2) == pytest.approx(4 + 12 / n)
    assert bytes_per_param("zero2", n, 2) == pytest.approx(2 + 14 / n)
    assert bytes_per_param("zero3", n, 2) == pytest.approx(16 / n)


@pytest.mark.parametrize("n", [1, 8, 64])
def test_pure_bf16_bytes_per_parameter(n):
    # pure bf16 (torchtitan training.dtype = "bfloat16": "all parameters, gradients, and optimizer states in
    # bfloat16, without an extra copy of fp32 weights"): bf16 param 2 + bf16 grad 2 + AdamW m, v 2 + 2;
    # Kahan summation adds one bf16 compensation buffer (2)
    assert bytes_per_param("zero3", n, 2, "bf16") == pytest.approx((2 + 2 + 2 + 2) / n)
    assert bytes_per_param("zero3", n, 2, "bf16+kahan") == pytest.approx((2 + 2 + 2 + 2 + 2) / n)
    assert bytes_per_param("none", n, 2, "bf16") == pytest.approx(8)
    assert bytes_per_param("zero1", n, 2, "bf16") == pytest.approx(4 + 4 / n)


def test_pure_bf16_master_sets_bf16_grads_and_prices_less_than_fp32_master():
    kw = dict(model="llama3-8b", gpus=8, seq=8192, global_batch=16)
    pure, mixed = make_problem(master="bf16", **kw), make_problem(master="fp32", **kw)
    assert pure.train.grad_bytes == 2 and mixed.train.grad_bytes == 4
    L = lambda m: Layout(world=8, dp=8, micro_batch=1, num_microbatches=2, sharding="zero3", master=m,
                         stages=uniform_stages(32, 1, fold=(1, 1, 8), recompute_full=32))
    n = cm.param_counts(pure)["total"]
    state = lambda p, m: sum(getattr(cm.evaluate(p, L(m)).stages[0], k) for k in ("weights", "grads", "optimizer"))
    # FSDP2 zero3 over 8: pure bf16 holds 8 / 8 bytes per parameter, the fp32 master 16 / 8 (+ nothing gathered)
    assert state(pure, "bf16") == pytest.approx(n * 8 / 8, rel=1e-6)
    assert state(mixed, "fp32") == pytest.approx(n * 16 / 8, rel=1e-6)


@pytest.mark.parametrize("n", [1, 2, 8, 64])
def test_engine_variants(n):
    # Megatron's distributed optimizer keeps fp32 main grads: 6 + 12/d (18 without it)
    assert bytes_per_param("zero1", n, 4) == pytest.approx(6 + 12 / n)
    assert bytes_per_param("none", n, 4) == pytest.approx(18)
    # FSDP2 full shard with MixedPrecisionPolicy(bf16, fp32): fp32 sharded param (the
    # master) + fp32 sharded grad + Adam m, v: 16/N; without resharding after forward the
    # gathered bf16 copy (2 bytes) stays from forward to backward
    assert bytes_per_param("zero3", n, 4, "fp32") == pytest.approx(16 / n)
    assert bytes_per_param("zero2", n, 4, "fp32") == pytest.approx(2 + 16 / n)
    # zero1 as the bundle runs it: sharded fp32 master + bf16 copy, full fp32 grads, m, v sharded
    assert bytes_per_param("zero1", n, 4, "fp32") == pytest.approx(4 / n + 2 + 4 + 8 / n)


def test_gpu_memory_as_the_runtime_reports_it():
    # nvidia-smi totals (REFERENCE.md): 81559 MiB (H100), 143771 MiB (H200), 183359 MiB (B200)
    assert load_gpu("h100-sxm").memory_gib == pytest.approx(81559 / 1024, abs=0.01)
    assert load_gpu("h200").memory_gib == pytest.approx(143771 / 1024, abs=0.01)
    assert load_gpu("b200").memory_gib == pytest.approx(183359 / 1024, abs=0.01)
    g = load_gpu("h100-sxm")
    # the budget is below the total by the context and the allocator margin, then headroom
    p = make_problem(gpus=8)
    assert p.cluster.memory_budget_gib == pytest.approx((g.memory_gib - g.reserve_gib) / (1 + g.allocator_margin) * 0.95)
    assert p.cluster.memory_budget_gib > 74.5 - 5.0           # more than round 1's 69.5 GiB


def test_gpus_command_json(capsys):
    assert main(["gpus", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "foldplan.gpus/1"
    names = {g["name"] for g in doc["gpus"]}
    assert {"h100-sxm", "h200", "a100-80g", "b200", "gb200-nvl72", "mi300x"} <= names
    for g in doc["gpus"]:
        assert g["allocatable_gib"] < g["memory_gib"] and g["memory_source"]


def _default_plan():
    from planner.solve import search_plans
    p = make_problem(gpus=64, seq="128k")
    return p, search_plans(p, top=1).plans[0]


def test_solver_picks_a_sharded_kind_and_a_module_and_says_why():
    # Mixtral-8x7B at 128k on 64 H100: with zero1's full weights and grads the best layout
    # does not fit; the solver shards further and recomputes modules, not whole layers
    from planner import plan as planmod
    from planner import report
    p, best = _default_plan()
    L = best.layout
    assert L.sharding in ("zero2", "zero3")
    zero1 = cm.evaluate(p, L.model_copy(update={"sharding": "zero1"}))
    assert zero1.peak_bytes > p.cluster.memory_budget_gib * cm.GiB
    assert any(s.recompute_selective and s.recompute_full == 0 for s in L.stages)
    assert all(m != "core_attn" for s in L.stages for m in s.recompute_modules if s.recompute_selective)
    no_modules = cm.evaluate(p, L.model_copy(update={"stages": tuple(
        s.model_copy(update={"recompute_selective": 0}) for s in L.stages)}))
    assert no_modules.peak_bytes > p.cluster.memory_budget_gib * cm.GiB      # the module is what makes it fit
    lines = report.why(planmod.from_search(p, type("R", (), {"plans": [best], "status": "OPTIMAL", "wall_s": 0,
                                                             "tuples": 0, "pruned": 0, "cpsat_calls": 0})()))
    assert any(line.startswith(f"Sharding {L.sharding}") and "zero1" in line and "does not fit" in line
               for line in lines)


def test_recompute_modules_free_what_megatron_says():
    # layernorm frees the two norm outputs (2 x 2sbh/t_s); moe_act the expert activation
    # (2 bytes x rows x F_e / etp); each costs far less time than recomputing the layer
    p = make_problem(gpus=8, seq=4096, global_batch=8)
    st = uniform_stages(32, 1, (1, 8, 1))
    base = Layout(world=8, dp=8, num_microbatches=1, stages=st)
    full = cm.evaluate(p, base.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_full": 32})
                                                                   for s in st)}))
    ln = cm.evaluate(p, base.model_copy(update={"stages": tuple(s.model_copy(update={
        "recompute_selective": 32, "recompute_modules": ("layernorm",)}) for s in st)}))
    none = cm.evaluate(p, base)
    tokens, h = 4096, 4096
    assert none.stages[0].activations - ln.stages[0].activations == pytest.approx(32 * 2 * 2 * tokens * h, rel=1e-9)
    assert ln.step_time - none.step_time < 0.1 * (full.step_time - none.step_time)

"""The bundle at precision fp8-tensorwise: `--check` passes (every FP8 GEMM against the check's
own quantise-then-matmul, which linears ran FP8) and fails on the bugs it is there for.

The plan folds tensor parallelism into the experts (tp2, etp2): the attention, the dense MLP,
the shared and the routed experts all hold tensor-parallel shards, so a scale taken from a
shard instead of the whole tensor shows; selective recompute runs the norms again inside the
FP8 column-parallel GEMMs and the expert activation inside the FP8 down projection.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402
from test_bundle_check import run_check, summary  # noqa: E402
from test_bundle_mutations import _patch, expect_fail  # noqa: E402
from test_bundle_runtime_check import _modules  # noqa: E402

pytest.importorskip("torch")
from planner.bundle.codegen import BundleError, render_bundle  # noqa: E402

FP8 = dict(tp=2, folds=[(2, 1, 1)], precision="fp8-tensorwise")


def recompute_plan():
    """FP8 with the norms recomputed inside the column-parallel GEMMs (and the router's), the
    expert activation inside the down projection, and the shared experts, on every layer."""
    return _modules(plan(**FP8, recompute=[(0, 4)]), ("core_attn", "layernorm", "moe_act", "shared_experts"))


def _pass(bundle, world, extra=()):
    rc, out = run_check(bundle, world, "fsdp2", extra=extra)
    assert rc == 0 and "CHECK PASS" in out, summary(out) or out[-3000:]
    assert "every FP8 GEMM" in out and "after 2 steps" in out
    warned = [line for line in out.splitlines() if "Warning" in line]
    assert not warned, warned[:4]
    return out


def test_fp8_check_passes_compiled(tmp_path):
    """Step 0 eager (the recompute probe), step 1 through the compiled amax / cast regions."""
    p = recompute_plan()
    _pass(render_bundle(p, tmp_path / "bundle"), p.layout.world)


@pytest.mark.full_matrix
def test_fp8_check_passes_eager(tmp_path):
    p = plan(**FP8)
    _pass(render_bundle(p, tmp_path / "bundle"), p.layout.world, ("--no-compile",))


def test_fp8_path_with_exact_casts_equals_the_reference(tmp_path):
    """The FP8 code path (its scales, transposes, per-expert splits, the GEMMs' operands and the
    gradients they return) with the casts made exact: no rounding to fp8 and a float32 product
    in place of _scaled_mm. The scales then cancel, and the run must pass the full --check
    against the fp32 reference: loss, every gradient, every parameter after AdamW."""
    p = recompute_plan()
    bundle = render_bundle(p, tmp_path / "bundle")
    for fmax, dtype in (("448.0", "E4M3"), ("57344.0", "E5M2")):
        _patch(bundle / "fp8.py", f"return (t.float() * scale).clamp(-{fmax}, {fmax}).to({dtype})",
               "return t.float() * scale")
    _patch(bundle / "fp8.py", """return torch._scaled_mm(a.contiguous(), b.t().contiguous().t(),
                            scale_a=inv_a, scale_b=inv_b, out_dtype=out_dtype)""",
           "return ((a.float() @ b.float()) * (inv_a * inv_b)).to(out_dtype)")
    _patch(bundle / "check.py", "self.fp8 = Fp8Calls() if fp8.gemms().fp8 else None", "self.fp8 = None")
    rc, out = run_check(bundle, p.layout.world, "fsdp2")
    assert rc == 0 and "CHECK PASS" in out and "loss, gradients, parameters" in out, summary(out) or out[-3000:]


@pytest.mark.parametrize("name", ["tp_amax_not_reduced", "wo_left_in_bf16"])
def test_fp8_check_catches(name, tmp_path):
    p = plan(**FP8)
    bundle = render_bundle(p, tmp_path / "bundle")
    if name == "tp_amax_not_reduced":         # each shard scaled by its own amax
        _patch(bundle / "fp8.py", "if group is not None and dist.is_initialized() and dist.get_world_size(group) > 1:",
               "if False:")
        expect_fail(bundle, p.layout.world, why="differs from the quantise-then-matmul reference")
    else:                                     # one linear not converted
        _patch(bundle / "model.py", "out = linear(o.reshape(B, s, self.h * self.d), self.wo, m.tp_group, self.tags[3])",
               "out = o.reshape(B, s, self.h * self.d) @ self.wo.t()")
        expect_fail(bundle, p.layout.world, why="not run in FP8 ['layers.0.attn.wo'")


@pytest.mark.full_matrix
@pytest.mark.parametrize("name", ["gradient_cast_e4m3", "router_in_fp8"])
def test_fp8_check_catches_full_matrix(name, tmp_path):
    p = plan(**FP8) if name == "gradient_cast_e4m3" else recompute_plan()   # the router's fused norm
    bundle = render_bundle(p, tmp_path / "bundle")
    if name == "gradient_cast_e4m3":          # the output gradient in the forward's format
        _patch(bundle / "fp8.py", "gq = quantise(g, E5M2, group)", "gq = quantise(g, E4M3, group)")
        expect_fail(bundle, p.layout.world, why="FP8 dgrad GEMM")
    else:
        _patch(bundle / "moe/layer.py", "with_y=True, gm=PLAIN)", "with_y=True)")
        expect_fail(bundle, p.layout.world, why="should not [None]")


def test_unbuilt_fp8_recipe_is_refused_before_writing(tmp_path):
    p = plan(precision="fp8-delayed")
    with pytest.raises(BundleError, match="precision: the bundle builds bf16 and fp8-tensorwise linears, not fp8-delayed"):
        render_bundle(p, tmp_path / "bundle")
    assert not (tmp_path / "bundle").exists()

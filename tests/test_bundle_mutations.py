"""Injected bugs that `--check` must catch (CPU, gloo, 1-2 ranks, tiny dims).

Each test renders a small plan, patches one bug into the rendered code and expects
`CHECK FAIL`: the bugs an earlier check let through (its reference shared the
bundle's blocks.py, ran one step from a zero router bias at micro-batch 1 and did
not compare the running program with plan.json), plus the older cases (zig-zag
placement; expert-gradient reduction, 4 ranks, `full_matrix`). A patch whose target text is gone fails
the test, so the list cannot silently go stale. The CUDA flash branch ignoring
`causal` cannot run on a CPU: tests/test_bundle_kernels.py shows it with a stub.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import MODEL, model, plan  # noqa: E402
from test_bundle_check import run_check, summary  # noqa: E402

pytest.importorskip("torch")
from planner.bundle.codegen import render_bundle  # noqa: E402


def _patch(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text, f"mutation target not found in {path.name}: {old!r}"
    path.write_text(text.replace(old, new))


def expect_fail(bundle: Path, world: int, dp: str = "fsdp2", why: str = ""):
    rc, out = run_check(bundle, world, dp)
    assert rc != 0 and "CHECK FAIL" in out, out[-3000:]
    if why:
        assert why in out, summary(out)
    return out


ONE = dict()                                   # world 1: the math alone, no parallelism
SOFTMAX = dict(model=model(moe={**MODEL["moe"], "router_score": "softmax", "router_bias": False}))
MUTATIONS = {
    # name: (plan kwargs, file, old, new, text the failure must show)
    "router_bias_update_sign_flipped": (ONE, "blocks.py", "torch.sign(counts.float().mean() - counts.float())",
                                        "torch.sign(counts.float() - counts.float().mean())", "router bias"),
    "routing_with_minus_bias": (ONE, "blocks.py", "scores.detach() + bias", "scores.detach() - bias", "differs"),
    "rope_sign": (ONE, "blocks.py", "x1 * c - x2 * s, x2 * c + x1 * s", "x1 * c + x2 * s, x2 * c - x1 * s",
                  "differs"),
    "sigmoid_top_k_not_renormalised": (ONE, "blocks.py", "w = w / w.sum(-1, keepdim=True)", "w = w", "differs"),
    "zero_grad_removed": (ONE, "train.py", "opt.zero_grad(set_to_none=True)", "pass", "of step 1 differs"),
    "full_recompute_dropped": (dict(recompute=[(2, 0)]), "model.py", 'if self.recompute == "full":', "if False:",
                               "recompute:"),
    "selective_recompute_dropped": (dict(recompute=[(0, 2)]), "model.py", 'selective="core_attn" in sel',
                                    "selective=False", "recompute:"),
    # micro-batch 2 (TINY_TRAIN): the all-to-all's [U, B, s] -> [B, U*s] order matters only when B > 1
    "ulysses_dim_order": (dict(cp=2, cp_kind="ulysses"), "cp/ulysses.py",
                          "recv.permute(1, 0, 2, 3, 4).reshape(B, U * s, h // U, d)",
                          "recv.reshape(B, U * s, h // U, d)", "differs"),
    # softmax router: the load-balancing loss's gradient missing, or computed over the wrong rows
    "aux_loss_dropped": (SOFTMAX, "moe/layer.py", "aux = self.aux_coef * aux_loss(", "aux = 0 * aux_loss(",
                         "differs"),
    "aux_loss_probabilities_not_averaged": (SOFTMAX, "moe/layer.py", "scores.float().mean(0)",
                                            "scores.float().sum(0)", "differs"),
    # sequence parallel: the norms' (and head's) partial gradients not summed over tp
    "sp_norm_grads_not_summed_over_tp": (dict(tp=2, folds=[(1, 2, 1)]), "dataparallel.py",
                                         "if m.tp_partial and p.grad is not None] if mesh.tp_size > 1 else []",
                                         "if False]", "differs"),
    # contiguous chunks instead of zig-zag: the ring's block masks are wrong
    "ring_without_zigzag": (dict(cp=2, cp_kind="ring"), "cp/layout.py",
                            "for c in zigzag_chunks(ring_rank, ring_size)]",
                            "for c in (2 * ring_rank, 2 * ring_rank + 1)]", "differs"),
}


# world-1 mutations of the math run in the full matrix with the rest (pytest -m full_matrix); the default run
# keeps those that need the parallel layout or the plan
MATH_ONLY = ("rope_sign", "routing_with_minus_bias", "sigmoid_top_k_not_renormalised", "zero_grad_removed",
             "aux_loss_probabilities_not_averaged")


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.full_matrix) if n in MATH_ONLY else n
                                  for n in MUTATIONS])
def test_check_catches(name, tmp_path):
    kw, rel, old, new, why = MUTATIONS[name]
    p = plan(**kw)
    bundle = render_bundle(p, tmp_path / "bundle")
    _patch(bundle / rel, old, new)
    expect_fail(bundle, p.layout.world, why=why)


def test_check_catches_a_layer_moved_across_a_stage_boundary(tmp_path):
    """The math is unchanged (every layer still runs, in order): only the comparison with
    plan.json sees that stage 1 now runs layer 1, which the plan puts on stage 0."""
    p = plan(pp=2, split=[2, 2], num_microbatches=2)
    bundle = render_bundle(p, tmp_path / "bundle")
    with open(bundle / "layout.py", "a") as f:
        f.write("\nfor _key in ('layers', 'is_moe', 'recompute'):\n"
                "    STAGES[1][_key].insert(0, STAGES[0][_key].pop())\n")
    expect_fail(bundle, 2, why="plan.json says")


@pytest.mark.full_matrix
@pytest.mark.parametrize("dp", ["fsdp2", "allreduce"])
def test_check_fails_without_edp_reduction(tmp_path, dp):
    """Expert gradients not summed over edp (edp=2): FAIL, with either engine."""
    bundle = render_bundle(plan(dp=2, cp=2, folds=[(1, 2, 2)]), tmp_path / "bundle")
    if dp == "fsdp2":   # experts left in their layer's FSDP unit: summed over dp x cp instead
        _patch(bundle / "model.py", 'units.append((layer.moe.experts, f"edp{layer.moe.stage}"))', "pass")
    else:
        _patch(bundle / "dataparallel.py", "grads = [p.grad for p, m in pm if m.reduce == kind]",
               'grads = [p.grad for p, m in pm if m.reduce == kind and not kind.startswith("edp")]')
    expect_fail(bundle, 4, dp)

"""What each routed row keeps of its expert output for the routing weights' gradient
(TrainSpec.routed_output_bytes, the b_y of planner/costmodel/formulas.py A_moe), measured on the
engines' own code: the tensors autograd saves while their combine runs on CPU, counted by bytes
per element of the [rows, hidden] expert output, against what each engine's rules set."""
from __future__ import annotations

import ast
import inspect

import pytest
import torch

from planner.engines import constraints

R, D, T, K = 24, 16, 6, 4          # routed rows (T tokens x top-K), hidden


def saved_bytes_per_row_element(fn) -> float:
    """Bytes autograd keeps, per element of a [R, D] tensor, in floating [R, D] tensors while `fn` runs."""
    kept = {}

    def pack(t):
        if t.is_floating_point() and t.numel() == R * D:
            kept[(t.untyped_storage().data_ptr(), t.dtype)] = t.numel() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(kept.values()) / (R * D)


def _routing():
    torch.manual_seed(0)
    ids = torch.stack([torch.randperm(8)[:K] for _ in range(T)])          # [T, K] distinct experts per token
    scores = torch.rand(T, K, requires_grad=True)
    return ids, scores


def test_megatron_keeps_no_expert_output_for_the_routing_weights():
    """megatron-core 0.19.2: the experts take the permuted probs (they multiply them inside the activation)
    and the all-to-all dispatcher unpermutes without them; its unpermute keeps the expert output only
    when it is handed the probs (the pre-0.13 form, which the MoE Parallel Folding rows keep)."""
    from megatron.core.transformer.moe import experts, moe_utils, token_dispatcher
    assert "permuted_probs" in inspect.signature(experts.TEGroupedMLP.forward).parameters
    calls = [n for n in ast.walk(ast.parse(inspect.getsource(token_dispatcher))) if isinstance(n, ast.Call)
             and getattr(n.func, "id", getattr(n.func, "attr", "")) == "unpermute"]
    assert len(calls) >= 3                         # the all-gather, all-to-all and flex (DeepEP / HybridEP) combines
    assert all(len(c.args) <= 3 and "probs" not in {k.arg for k in c.keywords} for c in calls)
    ids, scores = _routing()
    routing_map = torch.zeros(T, 8, dtype=torch.bool).scatter_(1, ids, True)
    probs = torch.zeros(T, 8).scatter(1, ids, scores)
    tokens = torch.randn(T, D, dtype=torch.bfloat16)
    permuted, _, sorted_indices, *_ = moe_utils.permute(tokens, routing_map, num_out_tokens=R)
    y = (permuted.float() * 1.5).to(torch.bfloat16).requires_grad_()      # the experts' bf16 output, [R, D]
    assert y.shape == (R, D)
    without = saved_bytes_per_row_element(lambda: moe_utils.unpermute(y, sorted_indices, tokens.shape))
    with_probs = saved_bytes_per_row_element(
        lambda: moe_utils.unpermute(y, sorted_indices, tokens.shape, probs=probs, routing_map=routing_map))
    assert without == constraints("megatron").train_defaults()["routed_output_bytes"] == 0.0
    assert with_probs == 2.0                       # the pre-0.13 form: the bf16 output kept


def test_torchtitan_keeps_an_fp32_copy_of_the_expert_output():
    """torchtitan 0.3's combine multiplies the expert output, cast to fp32, by the scores: the fp32 copy is kept."""
    from torchtitan.models.common.token_dispatcher import LocalTokenDispatcher
    ids, scores = _routing()
    disp = LocalTokenDispatcher(LocalTokenDispatcher.Config(num_experts=8, top_k=K))
    x = torch.randn(T, D, dtype=torch.bfloat16)
    counts = torch.bincount(ids.flatten(), minlength=8)
    routed_in, _, meta = disp.dispatch(x, scores, ids, counts)
    y = (routed_in.float() * 1.5).to(torch.bfloat16).requires_grad_()
    assert y.shape == (R, D)
    got = saved_bytes_per_row_element(lambda: disp.combine(y, meta, x))
    assert got == constraints("torchtitan").train_defaults()["routed_output_bytes"] == 4.0


def test_the_bundle_keeps_its_bf16_expert_output():
    """The bundle's combine (planner/bundle/templates/moe/dispatch.py) weights the bf16 expert rows, run here
    with one expert rank: the bf16 output is kept for the weights' gradient, 2 bytes per element."""
    import importlib
    import sys
    from pathlib import Path
    from types import SimpleNamespace
    templates = str(Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates")
    sys.path.insert(0, templates)
    try:
        dispatch = importlib.import_module("moe.dispatch")
    finally:
        sys.path.remove(templates)
    ids, scores = _routing()
    t = torch.randn(T, D, dtype=torch.bfloat16, requires_grad=True)
    ex = SimpleNamespace(ep_size=1, etp_size=1)
    got = saved_bytes_per_row_element(lambda: dispatch.dispatch_combine(t, scores, ids, lambda x, rows: x * 1.5, 8, ex))
    assert got == constraints("bundle").train_defaults()["routed_output_bytes"] == 2.0


def test_olmo_core_keeps_its_bf16_expert_output():
    """OLMo-core's scatter runs its CUDA kernels (no CPU run here): ScatterOp.forward saves the expert output x
    whenever the weights need a gradient (olmo_core/ops/moe.py, ai2-olmo-core 3.0.0), read from its source."""
    from olmo_core.ops import moe
    src = inspect.getsource(moe.ScatterOp.forward)
    assert "maybe_x = [x] if ctx.needs_input_grad[3] else []" in src and "*maybe_x" in src
    assert constraints("olmo-core").train_defaults()["routed_output_bytes"] == 2.0

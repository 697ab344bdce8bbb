"""The MoE row copies the cost model counts are the ones the bundle makes.

formulas.M_perm: the permutation before the dispatch and the unpermutation after the
combine, and formulas.M_sort -- where a rank holds more than one expert -- the sort of the
received rows by local expert and its inverse (Megatron-Core's "permutation 2"), which the
bundle's all-to-all makes (the cost model prices it with the all-to-all dispatchers). The bundle's
moe/dispatch.py is run in one process (ep = etp = 1, no collective) under a dispatch mode
that counts the kernels writing a [rows, H] copy of the routed rows (gathers by index)
or scattering them back to tokens (index_add); the count with one local expert and with
several must be the model's.
"""
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

import planner.costmodel.compile as cc  # noqa: E402
from planner.costmodel.values import layout_values, model_values  # noqa: E402
from planner.specs import ModelSpec, make_problem  # noqa: E402

BUNDLE = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates"
COPY_OPS = {"index.Tensor", "index_select.default", "index_add.default", "index_add_.default", "gather.default"}


class RowCopies(TorchDispatchMode):
    """Counts the kernels that write `rows` rows of width `width` by index (or scatter them)."""

    def __init__(self, rows: int, width: int):
        super().__init__()
        self.rows, self.width, self.count = rows, width, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = func.__name__                                   # e.g. "index.Tensor"
        src = args[-1] if name.startswith("index_add") else out   # index_add_(self, dim, index, source)
        if name in COPY_OPS and tuple(src.shape) == (self.rows, self.width):
            self.count += 1
        return out


def bundle_copies(experts: int, top_k: int, tokens: int = 16, hidden: int = 8) -> int:
    sys.path.insert(0, str(BUNDLE))
    try:
        from moe.dispatch import dispatch_combine
    finally:
        sys.path.remove(str(BUNDLE))
    g = torch.Generator().manual_seed(0)
    t = torch.randn(tokens, hidden, generator=g)
    sel = torch.stack([torch.randperm(experts, generator=g)[:top_k] for _ in range(tokens)])
    w = torch.rand(tokens, top_k, generator=g)
    ex = SimpleNamespace(ep_size=1, etp_size=1, ep_group=None, etp_group=None, etp_rank=0)
    with RowCopies(tokens * top_k, hidden) as mode:
        out = dispatch_combine(t, w, sel, lambda x, per_expert: x * 2.0, experts, ex)
    # the identity-like experts make the result checkable: sum_k w * 2 t
    assert torch.allclose(out, 2 * t * w.sum(1, keepdim=True), atol=1e-6)
    return mode.count


def model_copies(experts: int, top_k: int, ep: int = 1) -> float:
    """M_perm + M_sort in units of one row copy (reads and writes 2h bytes per routed row)."""
    m = ModelSpec(name="copies", layers=1, hidden=4096, heads=32, kv_heads=8, head_dim=128, vocab=32000,
                  moe=dict(experts=experts, top_k=top_k, expert_ffn_hidden=1024))
    p = make_problem(model=m, gpus=8, seq=4096, global_batch=8, moe_imbalance=1.0)
    x = {k: np.array([v], float) for k, v in dict(
        tp=1, cp=1, dp=8, pp=1, vpp=1, etp=1, ep=ep, edp=8 // ep, cu=1, cr=1, micro_batch=1, num_microbatches=1,
        sharding=1, master=0, s_tp=1, s_cp=1, s_dp=1).items()}
    f = cc.formulas({**model_values(p), **layout_values(p, x)})
    rows = 4096 * top_k
    return float(np.asarray(f["M_perm"] + f["M_sort"]).ravel()[0]) / (rows * 4 * 4096)


@pytest.mark.parametrize("experts, top_k, ep, local", [(1, 1, 1, 1), (8, 2, 8, 1), (4, 2, 1, 4), (8, 2, 2, 4)])
def test_row_copies_of_the_model_are_the_bundles(experts, top_k, ep, local):
    # the bundle's count depends on the local experts only (E / ep): run it with `local` experts on one rank
    made = bundle_copies(local, min(top_k, local))
    assert made == (2 if local == 1 else 4)
    assert model_copies(experts, top_k, ep) == pytest.approx(made)

"""cp/kernels.py passes `causal` to the CUDA flash kernels (no GPU needed).

The CUDA branch cannot run on a CPU, so `--check` cannot see it ignore `causal`.
A stub stands in for the device tensors and for torch.ops.aten: the selector must
call the CUDA flash forward and backward with the `causal` it was given, for True
and False; the same test run on a copy of kernels.py whose CUDA branch hard-codes
`causal` must fail.
"""
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
KERNELS = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates" / "cp" / "kernels.py"


class FakeCuda:
    """Enough of a CUDA tensor for the selector: device, dtype, to(), contiguous()."""
    device = SimpleNamespace(type="cuda")
    dtype = torch.float32

    def to(self, *_):
        return self

    def contiguous(self):
        return self


def load(source: str):
    spec = importlib.util.spec_from_loader("kernels_under_test", loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, str(KERNELS), "exec"), module.__dict__)
    return module


def causal_seen(kernels) -> list:
    """(what the selector was asked, what the CUDA kernels got), forward and backward."""
    calls = []

    def fwd(q, k, v, dropout, causal, return_debug, scale=None):
        calls.append(("forward", causal))
        return (FakeCuda(),) * 9

    def bwd(*args, scale=None):
        calls.append(("backward", args[-3]))        # (..., dropout_p, is_causal, seed, offset)
        return FakeCuda(), FakeCuda(), FakeCuda()

    kernels.aten = SimpleNamespace(_scaled_dot_product_flash_attention=fwd,
                                   _scaled_dot_product_flash_attention_backward=bwd)
    seen = []
    for causal in (True, False):
        calls.clear()
        q = FakeCuda()
        _, lse, aux = kernels.attn_forward(q, q, q, causal, 0.125)
        kernels.attn_backward(q, q, q, q, q, lse, causal, 0.125, aux)
        seen.append((causal, [c for _, c in calls]))
    return seen


def test_cuda_flash_branch_passes_causal():
    for asked, got in causal_seen(load(KERNELS.read_text())):
        assert got == [asked, asked], (asked, got)


@pytest.mark.parametrize("old,new", [
    ("q16, k16, v16, 0.0, causal, False, scale=scale", "q16, k16, v16, 0.0, True, False, scale=scale"),
    ("0.0, causal, seed, offset, scale=scale", "0.0, True, seed, offset, scale=scale"),
])
def test_a_cuda_branch_ignoring_causal_is_caught(old, new):
    source = KERNELS.read_text()
    assert old in source, f"mutation target not found in kernels.py: {old!r}"
    seen = causal_seen(load(source.replace(old, new)))
    assert any(got != [asked, asked] for asked, got in seen), seen

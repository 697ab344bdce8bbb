"""cp/kernels.py calls the CUDA kernel of the GPU with `causal` and the lse as it wants it (no GPU needed).

The CUDA branches cannot run on a CPU, so `--check` cannot see them. A stub stands in for the
device tensors, the device's compute capability and torch.ops.aten: on Ampere (8.0) the
selector must call FlashAttention-2, on Hopper (9.0) cuDNN's attention with
compute_log_sumexp, both forward and backward with the `causal` it was given (True and
False); cuDNN's lse [B, h, L, 1] reaches the ring as [B, h, L] and its backward as
[B, h, L, 1]. Copies of kernels.py with a branch hard-coding `causal`, dropping the lse
unsqueeze or choosing the kernel by the wrong capability must fail.
"""
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
KERNELS = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates" / "cp" / "kernels.py"


class FakeCuda:
    """Enough of a CUDA tensor for the selector: device, dtype, to(), contiguous(), and the
    trailing unit dim of cuDNN's lse ([B, h, L, 1]) tracked through squeeze / unsqueeze."""
    device = SimpleNamespace(type="cuda")
    dtype = torch.float32

    def __init__(self, unit_dim=False):
        self.unit_dim = unit_dim

    def to(self, *_):
        return self

    def contiguous(self):
        return self

    def squeeze(self, dim):
        assert dim == -1 and self.unit_dim, "squeeze(-1) of a tensor without a trailing unit dim"
        return FakeCuda(False)

    def unsqueeze(self, dim):
        assert dim == -1 and not self.unit_dim
        return FakeCuda(True)


def load(source: str, capability):
    spec = importlib.util.spec_from_loader("kernels_under_test", loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, str(KERNELS), "exec"), module.__dict__)
    module._capability = lambda device: capability
    return module


def causal_seen(kernels) -> list:
    """(what the selector was asked, [which kernel, what it got as causal, lse as the kernel
    wants it] for forward and backward)."""
    calls = []

    def flash_fwd(q, k, v, dropout, causal, return_debug, scale=None):
        calls.append(("flash2", causal, True))
        return (FakeCuda(),) * 9

    def flash_bwd(*args, scale=None):      # (dout, q, k, v, out, lse, cq, ck, mq, mk, dropout, causal, seed, offset)
        calls.append(("flash2", args[-3], not args[5].unit_dim))
        return FakeCuda(), FakeCuda(), FakeCuda()

    def cudnn_fwd(q, k, v, bias, lse, dropout, causal, debug, scale=None):
        calls.append(("cudnn", causal, lse is True and bias is None))
        return (FakeCuda(), FakeCuda(True)) + (FakeCuda(),) * 7

    def cudnn_bwd(*args, scale=None):      # (dout, q, k, v, out, lse, seed, offset, bias, cq, ck, mq, mk, dropout, causal)
        calls.append(("cudnn", args[-1], args[5].unit_dim))
        return FakeCuda(), FakeCuda(), FakeCuda()

    kernels.aten = SimpleNamespace(_scaled_dot_product_flash_attention=flash_fwd,
                                   _scaled_dot_product_flash_attention_backward=flash_bwd,
                                   _scaled_dot_product_cudnn_attention=cudnn_fwd,
                                   _scaled_dot_product_cudnn_attention_backward=cudnn_bwd)
    seen = []
    for causal in (True, False):
        calls.clear()
        q = FakeCuda()
        _, lse, aux = kernels.attn_forward(q, q, q, causal, 0.125)
        assert not lse.unit_dim, "the ring merges an lse of [B, h, L]"
        kernels.attn_backward(q, q, q, q, q, lse, causal, 0.125, aux)
        seen.append((causal, calls[:]))
    return seen


GPUS = {"flash2": (8, 0), "cudnn": (9, 0)}     # Ampere runs FlashAttention-2, Hopper cuDNN


@pytest.mark.parametrize("kernel", sorted(GPUS))
def test_cuda_branch_passes_causal_and_lse(kernel):
    for asked, got in causal_seen(load(KERNELS.read_text(), GPUS[kernel])):
        assert got == [(kernel, asked, True), (kernel, asked, True)], (asked, got)


@pytest.mark.parametrize("kernel,old,new", [
    ("flash2", "q16, k16, v16, 0.0, causal, False, scale=scale", "q16, k16, v16, 0.0, True, False, scale=scale"),
    ("flash2", "0.0, causal, seed, offset, scale=scale", "0.0, True, seed, offset, scale=scale"),
    ("cudnn", "q16, k16, v16, None, True, 0.0, causal,", "q16, k16, v16, None, True, 0.0, True,"),
    ("cudnn", "mq, mk, 0.0, causal, scale=scale", "mq, mk, 0.0, True, scale=scale"),
    ("cudnn", "lse.unsqueeze(-1).contiguous()", "lse.contiguous()"),
    ("cudnn", "CUDNN_MIN_CAPABILITY = (9, 0)", "CUDNN_MIN_CAPABILITY = (10, 0)"),
])
def test_a_cuda_branch_that_is_wrong_is_caught(kernel, old, new):
    source = KERNELS.read_text()
    assert old in source, f"mutation target not found in kernels.py: {old!r}"
    try:
        seen = causal_seen(load(source.replace(old, new), GPUS[kernel]))
    except AssertionError:
        return                                # the lse shape check itself caught it
    assert any(got != [(kernel, asked, True)] * 2 for asked, got in seen), seen

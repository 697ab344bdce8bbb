"""The local experts of one rank (SwiGLU), as one grouped GEMM per projection.

x: [m, H] rows grouped by local expert (rows[e] of them for expert e);
w1, w3: [El, F, H]; w2: [El, H, F] (F = expert FFN width / etp).
torch._grouped_mm runs where the device has it (CPU; CUDA sm90+ in bf16) and
the row strides are 16-byte aligned; otherwise a loop of plain matmuls.
Every expert gets a gradient (zero when it received no rows).
"""
import torch
from torch.utils.checkpoint import checkpoint

from blocks import swiglu


def _aligned(*ts):
    return all(t.shape[-1] * t.element_size() % 16 == 0 for t in ts)


def grouped_ok(x, w1, w2) -> bool:
    if not hasattr(torch, "_grouped_mm") or not _aligned(x, w1, w2):
        return False
    from torch._subclasses.fake_tensor import FakeTensor
    if isinstance(x, FakeTensor):              # --dry-run: the fake kernel takes bf16 only
        return x.dtype == torch.bfloat16
    if x.device.type == "cuda":
        return x.dtype == torch.bfloat16 and torch.cuda.get_device_capability(x.device) >= (9, 0)
    return x.device.type == "cpu"


def local_experts(x, rows, w1, w3, w2, recompute_act: bool = False):
    """rows: list[int] (host) rows per local expert. Returns [m, H]."""
    act = (lambda a, b: checkpoint(swiglu, a, b, use_reentrant=False)) if recompute_act else swiglu
    if sum(rows) and grouped_ok(x, w1, w2):
        offs = torch.tensor(rows, dtype=torch.int32).cumsum(0, dtype=torch.int32).to(x.device, non_blocking=True)
        h = act(torch._grouped_mm(x, w1.transpose(1, 2), offs=offs),
                torch._grouped_mm(x, w3.transpose(1, 2), offs=offs))           # [m, F]
        return torch._grouped_mm(h, w2.transpose(1, 2), offs=offs)            # [m, H]
    outs = [act(xe @ w1[e].t(), xe @ w3[e].t()) @ w2[e].t() for e, xe in enumerate(torch.split(x, rows))]
    return torch.cat(outs)

"""The local experts of one rank (SwiGLU), as one grouped GEMM per projection.

x: [m, H] rows grouped by local expert (rows[e] of them for expert e);
w1, w3: [El, F, H]; w2: [El, H, F] (F = expert FFN width / etp).
torch._grouped_mm runs where the device has it (CPU; CUDA sm90+ in bf16) and
the row strides are 16-byte aligned; otherwise a loop of plain matmuls.
Every expert gets a gradient (zero when it received no rows).

moe_act recompute (Megatron's --recompute-modules moe_act): the activation
output h = silu(a) * b [m, F], the down projection's input, is not kept; the
backward recomputes it from a and b (which the activation's own backward keeps
anyway), so the layer saves 2F bytes less per bf16 row (the cost model's
moe_act term) for one more elementwise pass, without repeating the down GEMM.
"""
import torch
import torch.nn.functional as F

import fused


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
    return x.device.type == "cpu" and x.dtype in (torch.float32, torch.bfloat16, torch.float16)


class _Grouped:
    """Per-expert products of rows grouped by expert: grouped GEMMs, or a loop."""

    def __init__(self, rows, device, grouped: bool):
        self.rows, self.grouped = rows, grouped
        self.offs = torch.tensor(rows, dtype=torch.int32).cumsum(0, dtype=torch.int32).to(
            device, non_blocking=True) if grouped else None

    def mm(self, x, w):
        """[m, K] rows x w [El, N, K] -> [m, N]: each row times its expert's w.t()."""
        if self.grouped:
            return torch._grouped_mm(x, w.transpose(1, 2), offs=self.offs)
        return torch.cat([xe @ w[e].t() for e, xe in enumerate(torch.split(x, self.rows))])

    def mm_back(self, g, w):
        """[m, N] x w [El, N, K] -> [m, K] (the input gradient of mm)."""
        if self.grouped:
            return torch._grouped_mm(g, w, offs=self.offs)
        return torch.cat([ge @ w[e] for e, ge in enumerate(torch.split(g, self.rows))])

    def weight_grad(self, g, x):
        """sum over each expert's rows of g.t() @ x: [m, N], [m, K] -> [El, N, K]."""
        if self.grouped:
            return torch._grouped_mm(g.t(), x, offs=self.offs)
        return torch.stack([ge.t() @ xe for ge, xe in zip(torch.split(g, self.rows), torch.split(x, self.rows))])


class _ActDown(torch.autograd.Function):
    """y = down(silu(a) * b) per expert, keeping a, b and w2 but not silu(a) * b."""

    @staticmethod
    def forward(ctx, a, b, w2, gm):
        ctx.gm = gm
        ctx.save_for_backward(a, b, w2)
        return gm.mm(F.silu(a) * b, w2)                         # [m, H]

    @staticmethod
    def backward(ctx, g):
        a, b, w2 = ctx.saved_tensors
        gm, sig = ctx.gm, torch.sigmoid(a)
        h = F.silu(a) * b                                       # the activation output again [m, F]
        dw2 = gm.weight_grad(g, h)
        del h
        dh = gm.mm_back(g, w2)                                  # [m, F]
        gs = dh * sig                                           # SwiGLU backward, as blocks._SwiGLU
        return gs * b * (1 + a * (1 - sig)), gs * a, dw2, None


def local_experts(x, rows, w1, w3, w2, recompute_act: bool = False):
    """rows: list[int] (host) rows per local expert. Returns [m, H]."""
    gm = _Grouped(rows, x.device, bool(sum(rows)) and grouped_ok(x, w1, w2))
    a, b = gm.mm(x, w1), gm.mm(x, w3)                           # [m, F] each
    if recompute_act:
        return _ActDown.apply(a, b, w2, gm)
    return gm.mm(fused.expert_swiglu(a, b), w2)                              # [m, H]

"""The local experts of one rank (SwiGLU), as one grouped GEMM per projection.

x: [m, H] rows grouped by local expert (rows[e] of them for expert e);
w1, w3: [El, F, H]; w2: [El, H, F] (F = expert FFN width / etp).
torch._grouped_mm runs where the device has it (CPU; CUDA sm90+ in bf16) and
the row strides are 16-byte aligned; otherwise a loop of plain matmuls.
Every expert gets a gradient (zero when it received no rows).
At an FP8 precision (fp8.py) each expert's three GEMMs run in FP8 with its own tensorwise
scales (one per expert weight, one per expert's rows), the amax reduced over the etp group
(the weight slices and the down projection's input are split there; the rows are the same on
every etp rank): a loop of torch._scaled_mm, one per expert.

moe_act recompute (Megatron's --recompute-modules moe_act): the activation
output h = silu(a) * b [m, F], the down projection's input, is not kept; the
backward recomputes it from a and b (which the activation's own backward keeps
anyway), so the layer saves 2F bytes less per bf16 row (the cost model's
moe_act term) for one more elementwise pass, without repeating the down GEMM.
"""
import torch
import torch.nn.functional as F

import fp8 as fp8_ops
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
    """Per-expert products of rows grouped by expert: grouped GEMMs, a loop, or (fp8: the FP8
    GEMMs of fp8.py, amax over `group`) a loop of FP8 GEMMs with per-expert scales."""

    def __init__(self, rows, device, grouped: bool, fp8_gemms=None, group=None):
        self.rows, self.grouped, self.fp8, self.group = rows, grouped, fp8_gemms, group
        self.offs = torch.tensor(rows, dtype=torch.int32).cumsum(0, dtype=torch.int32).to(
            device, non_blocking=True) if grouped else None

    def mm(self, x, w, tag=None):
        """[m, K] rows x w [El, N, K] -> [m, N]: each row times its expert's w.t()."""
        if self.fp8 is not None:
            return _Fp8Experts.apply(x, w, self, tag)
        if self.grouped:
            return torch._grouped_mm(x, w.transpose(1, 2), offs=self.offs)
        return torch.cat([xe @ w[e].t() for e, xe in enumerate(torch.split(x, self.rows))])

    def input_grad(self, g, w):
        """[m, N] x w [El, N, K] -> [m, K] (the input gradient of mm, model dtype)."""
        if self.grouped:
            return torch._grouped_mm(g, w, offs=self.offs)
        return torch.cat([ge @ w[e] for e, ge in enumerate(torch.split(g, self.rows))])

    def weight_grad(self, g, x):
        """sum over each expert's rows of g.t() @ x: [m, N], [m, K] -> [El, N, K] (model dtype)."""
        if self.grouped:
            return torch._grouped_mm(g.t(), x, offs=self.offs)
        return torch.stack([ge.t() @ xe for ge, xe in zip(torch.split(g, self.rows), torch.split(x, self.rows))])

    def fp8_forward(self, x, w, tag):
        f, q = self.fp8, fp8_ops
        xq, wq = q.quantise_rows(x, self.rows, q.E4M3, self.group), q.quantise_stack(w, q.E4M3, self.group)
        return torch.cat([f.mm("fprop", tag, xe, xq[e], w[e].t(), q.transposed(wq[e]), self.group, x.dtype)
                          for e, xe in enumerate(torch.split(x, self.rows))])

    def fp8_backward(self, g, x, w, tag):
        """The gradients of the FP8 mm: g [m, N] -> (d x [m, K], d w [El, N, K])."""
        f, q, grp = self.fp8, fp8_ops, self.group
        gq = q.quantise_rows(g, self.rows, q.E5M2, grp)           # once, for both GEMMs
        wq, xq = q.quantise_stack(w, q.E4M3, grp), q.quantise_rows(x, self.rows, q.E4M3, grp)
        gs, xs = torch.split(g, self.rows), torch.split(x, self.rows)
        dx = torch.cat([f.mm("dgrad", tag, ge, gq[e], w[e], wq[e], grp, g.dtype) for e, ge in enumerate(gs)])
        dw = torch.stack([f.mm("wgrad", tag, ge.t(), q.transposed(gq[e]), xe, xq[e], grp, x.dtype)
                          for e, (ge, xe) in enumerate(zip(gs, xs))])
        return dx, dw


class _Fp8Experts(torch.autograd.Function):
    """mm through the FP8 GEMMs: saves the high-precision rows and weights (fp8.py)."""

    @staticmethod
    def forward(ctx, x, w, gm, tag):
        ctx.save_for_backward(x, w)
        ctx.gm, ctx.tag = gm, tag
        return gm.fp8_forward(x, w, tag)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return (*ctx.gm.fp8_backward(g, x, w, ctx.tag), None, None)


class _ActDown(torch.autograd.Function):
    """y = down(silu(a) * b) per expert, keeping a, b and w2 but not silu(a) * b."""

    @staticmethod
    def forward(ctx, a, b, w2, gm, tag):
        ctx.gm, ctx.tag = gm, tag
        ctx.save_for_backward(a, b, w2)
        return gm.mm(F.silu(a) * b, w2, tag)                    # [m, H]

    @staticmethod
    def backward(ctx, g):
        a, b, w2 = ctx.saved_tensors
        gm, sig = ctx.gm, torch.sigmoid(a)
        h = F.silu(a) * b                                       # the activation output again [m, F]
        if gm.fp8 is None:            # h freed before the input gradient is allocated
            dw2 = gm.weight_grad(g, h)
            del h
            dh = gm.input_grad(g, w2)                           # [m, F]
        else:
            dh, dw2 = gm.fp8_backward(g, h, w2, ctx.tag)
            del h
        gs = dh * sig                                           # SwiGLU backward, as blocks._SwiGLU
        return gs * b * (1 + a * (1 - sig)), gs * a, dw2, None, None


def local_experts(x, rows, w1, w3, w2, recompute_act: bool = False, group=None, tags=(None, None, None)):
    """rows: list[int] (host) rows per local expert. Returns [m, H]. group: the etp group
    (FP8 amax); tags: the weights' names (--check)."""
    g = fp8_ops.gemms()
    if g.fp8:
        gm = _Grouped(rows, x.device, False, g, group)          # one amax and one cast per operand
    else:
        gm = _Grouped(rows, x.device, bool(sum(rows)) and grouped_ok(x, w1, w2))
    a, b = gm.mm(x, w1, tags[0]), gm.mm(x, w3, tags[1])       # [m, F] each
    if recompute_act:
        return _ActDown.apply(a, b, w2, gm, tags[2])
    return gm.mm(fused.expert_swiglu(a, b), w2, tags[2])                     # [m, H]

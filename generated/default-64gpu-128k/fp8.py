"""FP8 linear layers with tensorwise (per-tensor) dynamic scaling, through torch._scaled_mm.

The recipe is the one torchao's float8 training calls "tensorwise" (torchao/float8/
float8_utils.py: tensor_to_amax, amax_to_scale, to_fp8_saturated; torchao is not installed
here, so no line is pinned), written here in our own code:

  * scale = finfo(fp8).max / max(amax, EPS), computed in float64 and kept in float32;
    q = clamp(t * scale, -max, max) cast to the fp8 dtype (saturating, round to nearest);
  * forward: y = x @ w.T with x and w in e4m3 (3 mantissa bits, finite max 448);
  * backward: grad_y in e5m2 (2 mantissa bits, max 57344, the wider range gradients need),
    dgrad = grad_y(e5m2) @ w(e4m3) and wgrad = grad_y(e5m2).T @ x(e4m3), the same fp8 copies
    of x and w the forward made (a tensorwise scale is one number, so a re-cast in backward
    would give the same bits);
  * _scaled_mm takes the inverse scales and returns out = (a_q @ b_q) / (s_a * s_b) in the
    requested dtype, accumulated in fp32.

Scales are taken from what each rank holds: the rank's own tokens (its micro-batch, its
sequence shard) and, for a weight sharded over tensor parallelism, the whole weight. Every
amax is reduced (MAX) over the group passed in, normally the tensor-parallel group: a
sharded weight, a row-parallel input or a column-parallel output gradient then gets the
scale the unsharded tensor would get, as torchao's DTensor path does (tensor_to_amax with
reduce_amax); for a tensor every TP rank holds whole, the reduction changes nothing.

Only the precision "fp8-tensorwise" is built; `linear_for` refuses the other FP8 recipes
in one line.
"""
import torch
import torch.distributed as dist

E4M3 = torch.float8_e4m3fn
E5M2 = torch.float8_e5m2
# Lower bound on amax before dividing: torchao/float8/float8_utils.py EPS = 1e-12.
EPS = 1e-12
BUILT = "fp8-tensorwise"


def amax(t, group=None):
    """max |t| as a float32 scalar, reduced (MAX) over `group` when one is given."""
    a = t.detach().abs().max().float()
    if group is not None and dist.is_initialized() and dist.get_world_size(group) > 1:
        dist.all_reduce(a, op=dist.ReduceOp.MAX, group=group)
    return a


def quantise(t, dtype, group=None):
    """(t in fp8, inverse scale) with the tensorwise scale of t's amax over `group`."""
    fmax = torch.finfo(dtype).max
    scale = (fmax / torch.clamp(amax(t, group).double(), min=EPS)).float()
    q = (t.float() * scale).clamp(-fmax, fmax).to(dtype)
    return q, scale.reciprocal()


def _mm(a, b, inv_a, inv_b, out_dtype):
    """a @ b from fp8 operands; a row-major and b column-major, as cuBLASLt FP8 requires."""
    return torch._scaled_mm(a.contiguous(), b.t().contiguous().t(),
                            scale_a=inv_a, scale_b=inv_b, out_dtype=out_dtype)


class Fp8Linear(torch.autograd.Function):
    """y = x @ w.T with all three GEMMs (fprop, dgrad, wgrad) in FP8, tensorwise scales."""

    @staticmethod
    def forward(ctx, x, w, group=None):
        x2 = x.reshape(-1, x.shape[-1])
        xq, xs = quantise(x2, E4M3, group)
        wq, ws = quantise(w, E4M3, group)
        y = _mm(xq, wq.t(), xs, ws, x.dtype)
        ctx.save_for_backward(xq, xs, wq, ws)
        ctx.group, ctx.x_shape, ctx.x_dtype, ctx.w_dtype = group, x.shape, x.dtype, w.dtype
        return y.reshape(*x.shape[:-1], w.shape[0])

    @staticmethod
    def backward(ctx, gy):
        xq, xs, wq, ws = ctx.saved_tensors
        g2 = gy.reshape(-1, gy.shape[-1])
        gq, gs = quantise(g2, E5M2, ctx.group)
        dx = dw = None
        if ctx.needs_input_grad[0]:
            dx = _mm(gq, wq, gs, ws, ctx.x_dtype).reshape(ctx.x_shape)
        if ctx.needs_input_grad[1]:
            dw = _mm(gq.t(), xq, gs, xs, ctx.w_dtype)
        return dx, dw, None


def fp8_linear(x, w, group=None):
    return Fp8Linear.apply(x, w, group)


def plain_linear(x, w, group=None):
    return x @ w.t()


def linear_for(precision):
    """The linear function for a plan's precision; one line naming the field otherwise."""
    if precision == BUILT:
        return fp8_linear
    if precision.startswith("fp8") or precision.startswith("mxfp8"):
        raise SystemExit(f"precision: {precision} linears are not built in the bundle; "
                         f"only {BUILT} (and bf16) run")
    return plain_linear

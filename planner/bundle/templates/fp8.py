"""The GEMMs of every linear layer at the plan's precision: bf16 (plain matmuls) or FP8 with
tensorwise (per-tensor) dynamic scaling through torch._scaled_mm (layout.TRAIN["precision"]).

The FP8 recipe is the one torchao's float8 training calls "tensorwise" (torchao/float8/
float8_utils.py: tensor_to_amax, amax_to_scale, to_fp8_saturated; torchao is not installed
here, so no line is pinned), written here in our own code:

  * scale = finfo(fp8).max / max(amax, EPS), computed in float64 and kept in float32;
    q = clamp(t * scale, -max, max) cast to the fp8 dtype (saturating, round to nearest);
  * fprop: y = x @ w.T with x and w in e4m3 (3 mantissa bits, finite max 448);
  * dgrad = dy @ w and wgrad = dy.T @ x with dy in e5m2 (2 mantissa bits, max 57344, the
    wider range gradients need) and x, w in e4m3;
  * _scaled_mm takes the inverse scales and returns out = (a_q @ b_q) / (s_a * s_b) in the
    requested dtype, accumulated in fp32.

As torchao's Float8Linear does, a linear saves its high-precision input and weight for
backward and casts them again there (a tensorwise scale is one number, so the re-cast gives
the bits the forward used): saved activations stay bf16, the cost model's s_8 = 2 outside
Transformer Engine. Each linear casts its own input (three casts of one gathered input for
q, k and v: the cost model's s_x), and the tensor-parallel all-gathers move bf16.

Scales are taken from what each rank holds: its own tokens (its micro-batch, its sequence
shard, the rows its experts received) and, for a weight sharded over tensor parallelism, the
whole weight. Every amax is reduced (MAX) over the group the caller passes, the tensor-
parallel group (the expert-tensor-parallel group for experts): a sharded weight, a row-
parallel input or a column-parallel output gradient then gets the scale the unsharded tensor
would get, as torchao's DTensor path does (tensor_to_amax with reduce_amax); for a tensor
every rank of the group holds whole, the reduction changes nothing. The amax and the cast are
compiled regions (fused.py) when compilation is on.

Which linears run FP8 (planner/specs/precision.py, the same set in the three engines): attention
q, k, v and output, the dense MLP, the shared and the routed experts; the router, the embedding
and the output head stay in the model's dtype. Only "fp8-tensorwise" is built; `configure`
refuses the other FP8 recipes in one line. Under --check every FP8 GEMM is recorded (RECORD)
and compared by check_fp8.py with its own quantise-then-matmul.
"""
from dataclasses import dataclass

import torch
import torch.distributed as dist

import fused

E4M3 = torch.float8_e4m3fn
E5M2 = torch.float8_e5m2
# Lower bound on amax before dividing: torchao/float8/float8_utils.py EPS = 1e-12.
EPS = 1e-12
BUILT = "fp8-tensorwise"
RECORD = None        # --check: a list, every FP8 GEMM appended as a Call (check_fp8.py)


@dataclass
class Call:
    """One FP8 GEMM as it ran: out = a @ b from high-precision a [m, K] and b [K, N], each cast to
    fp8 with its amax reduced over `group`; tag: the weight's full name; kind: fprop | dgrad |
    wgrad (which fixes the formats: check_fp8.py does not read them from here)."""
    kind: str
    tag: str
    a: torch.Tensor
    b: torch.Tensor
    group: object
    out: torch.Tensor


def _local_amax(t):
    return t.abs().amax().float()


def _cast_e4m3(t, scale):
    return (t.float() * scale).clamp(-448.0, 448.0).to(E4M3)


def _cast_e5m2(t, scale):
    return (t.float() * scale).clamp(-57344.0, 57344.0).to(E5M2)


# one graph for every size (dynamic), a few more where dynamo specialises sizes 0 / 1 or a view's
# base, or the scale is per expert; one code object per fp8 dtype (configure raises dynamo's
# recompile limit for them)
_amax_region = fused.Region(_local_amax, dynamic=True)
_cast_regions = {E4M3: fused.Region(_cast_e4m3, dynamic=True), E5M2: fused.Region(_cast_e5m2, dynamic=True)}
RECOMPILES = 64


def _flat(t):
    """(t or its transpose as a contiguous tensor, flattened; whether it is the transpose)."""
    if t.dim() == 2 and not t.is_contiguous() and t.t().is_contiguous():
        return t.t().reshape(-1), True
    return t.contiguous().view(-1), False


def _reduced(a, group):
    """a (amaxes) reduced (MAX) over `group`, in place; every rank of the group calls it."""
    if group is not None and dist.is_initialized() and dist.get_world_size(group) > 1:
        dist.all_reduce(a, op=dist.ReduceOp.MAX, group=group)
    return a


def _scale(a, dtype):
    """finfo(dtype).max / max(amax, EPS), in float64, kept in float32 (torchao's amax_to_scale)."""
    return (torch.finfo(dtype).max / torch.clamp(a.double(), min=EPS)).float()


def amax(t, group=None):
    """max |t| as a float32 scalar (0 for an empty t), reduced (MAX) over `group` when one is given."""
    flat = _flat(t.detach())[0]
    a = _amax_region(flat) if flat.numel() else flat.new_zeros((), dtype=torch.float32)
    return _reduced(a, group)


def quantise(t, dtype, group=None):
    """(t in fp8, inverse scale) with the tensorwise scale of t's amax over `group`."""
    flat, transposed = _flat(t.detach())
    scale = _scale(amax(flat, group), dtype)
    q = _cast_regions[dtype](flat, scale) if flat.numel() else flat.to(dtype)
    q = q.view(t.t().shape).t() if transposed else q.view(t.shape)
    return q, scale.reciprocal()


def quantise_rows(t, rows, dtype, group=None):
    """Rows grouped by expert (rows[e] of them for expert e), each expert's rows with their own
    tensorwise scale, in one amax pass and one cast over all of them (the bits per-expert
    `quantise` calls would give). [(fp8 rows, inverse scale)] per expert."""
    t = t.detach()
    seg = torch.repeat_interleave(torch.arange(len(rows), device=t.device), torch.tensor(rows, device=t.device),
                                  output_size=t.shape[0])        # known on the host (fake tensors too)
    a = torch.zeros(len(rows), dtype=torch.float32, device=t.device)
    if t.numel():
        a.scatter_reduce_(0, seg, t.abs().amax(1).float(), "amax")
    scale = _scale(_reduced(a, group), dtype)
    q = _cast_regions[dtype](t, scale[seg].unsqueeze(1)) if t.numel() else t.to(dtype)
    return list(zip(torch.split(q, rows), scale.reciprocal().unbind(0)))


def quantise_stack(w, dtype, group=None):
    """Stacked expert weights [El, N, K], one tensorwise scale per expert: [(fp8 w[e], inverse scale)]."""
    w = w.detach()
    a = _reduced(w.abs().amax(dim=(1, 2)).float(), group)
    scale = _scale(a, dtype)
    q = _cast_regions[dtype](w, scale.view(-1, 1, 1))
    return list(zip(q.unbind(0), scale.reciprocal().unbind(0)))


def transposed(qs):
    """The transpose of a quantised operand (fp8 tensor, inverse scale)."""
    return qs[0].t(), qs[1]


def _mm(a, b, inv_a, inv_b, out_dtype):
    """a @ b from fp8 operands; a row-major and b column-major, as cuBLASLt FP8 requires."""
    return torch._scaled_mm(a.contiguous(), b.t().contiguous().t(),
                            scale_a=inv_a, scale_b=inv_b, out_dtype=out_dtype)


class Gemms:
    """The GEMMs of y = x @ w.t() for x [m, K], w [N, K], in the model's dtype: the forward and,
    in backward, dx = dy @ w and dw = dy.t() @ x. `group` and `tag` only matter to the FP8 ones."""
    fp8 = False

    def fprop(self, x, w, group=None, tag=None):
        return x @ w.t()

    def backward(self, g, x, w, need_dx=True, need_dw=True, group=None, tag=None):
        return (g @ w if need_dx else None), (g.t() @ x if need_dw else None)


class Fp8Gemms(Gemms):
    """The same GEMMs in FP8, tensorwise scales (module doc): the output gradient is cast once for
    both backward GEMMs, x and w cast again there. Every rank of `group` holds operands of the
    same shape and calls in the same order (the amax all-reduces)."""
    fp8 = True

    @staticmethod
    def mm(kind, tag, a, qa, b, qb, group, out_dtype):
        """a [m, K] @ b [K, N] from their quantised copies qa, qb (fp8, inverse scale); under
        --check recorded with the high-precision a and b (kind: fprop | dgrad | wgrad)."""
        if a.numel() == 0 or b.numel() == 0:       # an expert that received no rows
            out = a.new_zeros((a.shape[0], b.shape[1]), dtype=out_dtype)
        else:
            out = _mm(qa[0], qb[0], qa[1], qb[1], out_dtype)
        if RECORD is not None:
            RECORD.append(Call(kind, tag, a.detach().clone(), b.detach().clone(), group, out.detach().clone()))
        return out

    def fprop(self, x, w, group=None, tag=None):
        return self.mm("fprop", tag, x, quantise(x, E4M3, group), w.t(), transposed(quantise(w, E4M3, group)),
                       group, x.dtype)

    def backward(self, g, x, w, need_dx=True, need_dw=True, group=None, tag=None):
        gq = quantise(g, E5M2, group)
        dx = self.mm("dgrad", tag, g, gq, w, quantise(w, E4M3, group), group, g.dtype) if need_dx else None
        dw = self.mm("wgrad", tag, g.t(), transposed(gq), x, quantise(x, E4M3, group), group, x.dtype) \
            if need_dw else None
        return dx, dw


PLAIN, FP8 = Gemms(), Fp8Gemms()
_CURRENT = [PLAIN]


def configure(precision: str):
    """The linears' GEMMs for a plan's precision; one line naming the field for one not built."""
    if precision == BUILT:
        _CURRENT[0] = FP8
        torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, RECOMPILES)
    elif precision == "bf16":
        _CURRENT[0] = PLAIN
    else:
        raise SystemExit(f"precision: {precision} linears are not built in the bundle; only {BUILT} and bf16 run")


def gemms() -> Gemms:
    """The GEMMs of the linear layers that run at the plan's precision (configure)."""
    return _CURRENT[0]


class _Linear(torch.autograd.Function):
    """y = x @ w.t() through `gm`'s three GEMMs; saves the high-precision x and w."""

    @staticmethod
    def forward(ctx, x, w, gm, group, tag):
        ctx.save_for_backward(x, w)
        ctx.gm, ctx.group, ctx.tag = gm, group, tag
        if x.dim() == 2:          # no reshape: a module's output must not be a view (FSDP2's hooks)
            return gm.fprop(x, w, group, tag)
        return gm.fprop(x.reshape(-1, x.shape[-1]), w, group, tag).view(*x.shape[:-1], w.shape[0])

    @staticmethod
    def backward(ctx, gy):
        x, w = ctx.saved_tensors
        dx, dw = ctx.gm.backward(gy.reshape(-1, gy.shape[-1]), x.reshape(-1, x.shape[-1]), w,
                                 ctx.needs_input_grad[0], ctx.needs_input_grad[1], ctx.group, ctx.tag)
        return (None if dx is None else dx.view(x.shape)), dw, None, None, None


def linear(x, w, group=None, tag=None, gm=None):
    """x [..., K] @ w.t() (w [N, K]) at the plan's precision (or through `gm`)."""
    gm = gm or gemms()
    if not gm.fp8:
        return x @ w.t()
    return _Linear.apply(x, w, gm, group, tag)


def fp8_linear(x, w, group=None):
    """The FP8 linear whatever the plan's precision (tests)."""
    return _Linear.apply(x, w, FP8, group, None)

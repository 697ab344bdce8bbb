"""Differentiable collectives (forward op, backward = its adjoint).

Tensor parallel with sequence parallelism (between blocks each tp rank holds
1/tp of the sequence: all-gather before a column-parallel GEMM, reduce-scatter
after a row-parallel one), the column-parallel GEMMs at the plan's precision
(fp8.py), and the uneven all-to-all / gathers used by MoE dispatch/combine. Each is a small torch.autograd.Function.
"""
import torch
import torch.distributed as dist

from fp8 import gemms, linear

# torch >= 2.13 names the flat-tensor collectives *_single and warns (FutureWarning) on the old
# names, which older releases (layout.MIN_TORCH) have alone: the one this torch has
_ALL_GATHER = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
_REDUCE_SCATTER = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor


def _gather_seq(x, group, size):
    """All-gather x [B, n, ...] along dim 1 (the sequence): [B, size * n, ...], rank order."""
    out = x.new_empty((size * x.shape[0],) + tuple(x.shape[1:]))     # [size * B, n, ...]
    _ALL_GATHER(out, x.contiguous(), group=group)
    out = out.view((size,) + tuple(x.shape)).transpose(0, 1)         # [B, size, n, ...]
    return out.reshape((x.shape[0], size * x.shape[1]) + tuple(x.shape[2:]))


def _reduce_scatter_seq(y, group, size):
    """Sum y [B, size * n, ...] over the group, keep this rank's n rows of dim 1."""
    B, n = y.shape[0], y.shape[1] // size
    parts = y.reshape((B, size, n) + tuple(y.shape[2:])).transpose(0, 1).reshape((size * B, n) + tuple(y.shape[2:]))
    out = y.new_empty((B, n) + tuple(y.shape[2:]))
    _REDUCE_SCATTER(out, parts, group=group)
    return out


def _column_backward(grads, ws, full, gm, group, tags):
    """Gradients of y_i = full @ w_i.t() through the GEMMs `gm` (fp8.py): (d full, [d w_i])."""
    flat = full.reshape(-1, full.shape[-1])
    dfull, dws = None, []
    for g, w, tag in zip(grads, ws, tags):
        if g is None:
            dws.append(None)
            continue
        d, dw = gm.backward(g.reshape(-1, g.shape[-1]), flat, w, True, True, group, tag)
        dws.append(dw)                                            # [out_i, H]
        d = d.view(full.shape)
        dfull = d if dfull is None else dfull + d
    return (torch.zeros_like(full) if dfull is None else dfull), dws


def _column_forward(full, ws, gm, group, tags):
    """[full @ w_i.t()] through the GEMMs `gm`; full [B, s, H]."""
    flat = full.reshape(-1, full.shape[-1])
    return tuple(gm.fprop(flat, w, group, tag).view(*full.shape[:-1], w.shape[0]) for w, tag in zip(ws, tags))


class _ColumnParallelSP(torch.autograd.Function):
    """Sequence parallel + column-parallel linears (Megatron's all-gather before the
    column-parallel GEMM; Korthikanti et al. 2022 sec. 4.2.2): y_i = gather(x) @ w_i.t().
    Saves only the sequence shard x [B, s/tp, H] (gathered again in backward), so the
    gathered input [B, s, H] is a transient buffer, not an activation."""

    @staticmethod
    def forward(ctx, x, group, size, gm, tags, *ws):
        ctx.group, ctx.size, ctx.gm, ctx.tags = group, size, gm, tags
        ctx.save_for_backward(x, *ws)
        full = _gather_seq(x, group, size)                    # [B, s, H]
        return _column_forward(full, ws, gm, group, tags)     # [B, s, out_i] each

    @staticmethod
    def backward(ctx, *grads):
        x, *ws = ctx.saved_tensors
        full = _gather_seq(x, ctx.group, ctx.size)            # again: the forward's buffer was freed
        dfull, dws = _column_backward(grads, ws, full, ctx.gm, ctx.group, ctx.tags)
        return (_reduce_scatter_seq(dfull, ctx.group, ctx.size), None, None, None, None, *dws)


class _NormColumnParallel(torch.autograd.Function):
    """Layernorm recompute (Megatron's --recompute-modules layernorm) fused with the
    column-parallel GEMMs that read the norm: y = norm(x, nw); [gather(y) @ w_i.t()],
    and y itself when `with_y` (for consumers that save nothing, e.g. MoE dispatch).
    Saves only the norm input x (the residual stream); the norm output is recomputed
    in backward, so it is kept by no one."""

    @staticmethod
    def forward(ctx, x, nw, norm_fn, with_y, group, size, gm, tags, *ws):
        ctx.norm_fn, ctx.with_y, ctx.group, ctx.size, ctx.gm, ctx.tags = norm_fn, with_y, group, size, gm, tags
        ctx.save_for_backward(x, nw, *ws)
        y = norm_fn(x, nw)
        full = y if size == 1 else _gather_seq(y, group, size)
        outs = _column_forward(full, ws, gm, group, tags)
        return ((full,) + outs) if with_y else outs

    @staticmethod
    def backward(ctx, *grads):
        x, nw, *ws = ctx.saved_tensors
        with torch.enable_grad():                             # the norm again, with its own graph
            xd, nwd = x.detach().requires_grad_(), nw.detach().requires_grad_()
            y = ctx.norm_fn(xd, nwd)
        full = y.detach() if ctx.size == 1 else _gather_seq(y.detach(), ctx.group, ctx.size)
        gy = None
        if ctx.with_y:
            gy, grads = grads[0], grads[1:]
        dfull, dws = _column_backward(grads, ws, full, ctx.gm, ctx.group, ctx.tags)
        if gy is not None:
            dfull = dfull + gy
        dy = dfull if ctx.size == 1 else _reduce_scatter_seq(dfull, ctx.group, ctx.size)
        dx, dnw = torch.autograd.grad(y, (xd, nwd), dy)
        return (dx, dnw, None, None, None, None, None, None, *dws)


class _ReduceScatterSeq(torch.autograd.Function):
    """Row-parallel output: forward reduce-scatter of partial sums along the sequence
    (dim 1), backward all-gather."""

    @staticmethod
    def forward(ctx, y, group, size):
        ctx.group, ctx.size = group, size
        return _reduce_scatter_seq(y, group, size)

    @staticmethod
    def backward(ctx, grad):
        return _gather_seq(grad, ctx.group, ctx.size), None, None


def column_parallel(x, ws, group, size, tags=None):
    """x [B, n, H] (tp > 1: this rank's 1/tp of the sequence) -> [x_full @ w.t() for w in ws],
    x_full [B, size * n, H] the whole local sequence; the GEMMs at the plan's precision
    (fp8.py; tags: the weights' names, for --check)."""
    tags = tags or (None,) * len(ws)
    if size == 1:
        return [linear(x, w, group, tag) for w, tag in zip(ws, tags)]
    return list(_ColumnParallelSP.apply(x, group, size, gemms(), tags, *ws))


def norm_column_parallel(x, nw, norm_fn, ws, group, size, with_y=False, tags=None, gm=None):
    """column_parallel(norm_fn(x, nw), ws) that keeps only x (layernorm recompute);
    with_y: [y_full] + the products. gm: the GEMMs (default: the plan's precision; the
    router passes fp8.PLAIN)."""
    tags = tags or (None,) * len(ws)
    return list(_NormColumnParallel.apply(x, nw, norm_fn, with_y, group, size, gm or gemms(), tags, *ws))


def reduce_scatter_seq(y, group, size):
    """Partial sums y [B, s, H] of a row-parallel GEMM -> the sum's rows of this rank [B, s/tp, H]."""
    return y if size == 1 else _ReduceScatterSeq.apply(y, group, size)


class _AllToAll(torch.autograd.Function):
    """Uneven all-to-all of rows: send in_splits[j] rows to rank j of the group,
    receive out_splits[j] rows from it. Backward: the same with splits swapped."""

    @staticmethod
    def forward(ctx, x, group, in_splits, out_splits):
        ctx.group, ctx.in_splits, ctx.out_splits = group, in_splits, out_splits
        return all_to_all_rows(x, group, in_splits, out_splits)

    @staticmethod
    def backward(ctx, grad):
        return all_to_all_rows(grad, ctx.group, ctx.out_splits, ctx.in_splits), None, None, None


def all_to_all_rows(x, group, in_splits, out_splits):
    # x: [sum(in_splits), ...] -> [sum(out_splits), ...]
    out = x.new_empty((sum(out_splits),) + tuple(x.shape[1:]))
    dist.all_to_all_single(out, x.contiguous(), output_split_sizes=list(out_splits),
                           input_split_sizes=list(in_splits), group=group)
    return out


def all_to_all(x, group, in_splits, out_splits):
    return _AllToAll.apply(x, group, in_splits, out_splits)


def _gather_padded(x, group, sizes):
    """All-gather rows of uneven counts (sizes[j] rows on rank j): pad, gather, trim."""
    pad = max(sizes)
    buf = x.new_zeros((pad,) + tuple(x.shape[1:]))
    buf[:x.shape[0]] = x
    parts = [torch.empty_like(buf) for _ in sizes]
    dist.all_gather(parts, buf, group=group)
    return torch.cat([p[:n] for p, n in zip(parts, sizes)])


def _sum_and_take(y, group, sizes, rank):
    """Sum y [sum(sizes), ...] over the group, keep this rank's rows."""
    y = y.contiguous().clone()
    dist.all_reduce(y, group=group)
    start = sum(sizes[:rank])
    return y[start:start + sizes[rank]]


class _GatherUneven(torch.autograd.Function):
    """Forward: all-gather uneven rows. Backward: sum over the group, keep mine."""

    @staticmethod
    def forward(ctx, x, group, sizes, rank):
        ctx.group, ctx.sizes, ctx.rank = group, sizes, rank
        return _gather_padded(x, group, sizes)

    @staticmethod
    def backward(ctx, grad):
        return _sum_and_take(grad, ctx.group, ctx.sizes, ctx.rank), None, None, None


class _ReduceScatterUneven(torch.autograd.Function):
    """Forward: sum partial results over the group, keep mine. Backward: all-gather."""

    @staticmethod
    def forward(ctx, y, group, sizes, rank):
        ctx.group, ctx.sizes = group, sizes
        return _sum_and_take(y, group, sizes, rank)

    @staticmethod
    def backward(ctx, grad):
        return _gather_padded(grad.contiguous(), ctx.group, ctx.sizes), None, None, None


def gather_uneven(x, group, sizes, rank):
    return _GatherUneven.apply(x, group, sizes, rank)


def reduce_scatter_uneven(y, group, sizes, rank):
    return _ReduceScatterUneven.apply(y, group, sizes, rank)

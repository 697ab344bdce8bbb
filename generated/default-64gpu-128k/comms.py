"""Differentiable collectives (forward op, backward = its adjoint).

Tensor parallel (Megatron's f/g pair) and the uneven all-to-all used by MoE
dispatch/combine. Each is a small torch.autograd.Function.
"""
import torch
import torch.distributed as dist


class _CopyToGroup(torch.autograd.Function):
    """Forward: identity. Backward: all-reduce (the input is used on every rank)."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        dist.all_reduce(grad, group=ctx.group)
        return grad, None


class _ReduceFromGroup(torch.autograd.Function):
    """Forward: all-reduce of partial sums. Backward: identity."""

    @staticmethod
    def forward(ctx, x, group):
        x = x.contiguous()
        dist.all_reduce(x, group=group)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class _ScatterRows(torch.autograd.Function):
    """Forward: keep this rank's 1/n of the rows (dim 0). Backward: all-gather."""

    @staticmethod
    def forward(ctx, x, group, rank, size):
        ctx.group, ctx.size = group, size
        n = x.shape[0] // size
        return x[rank * n:(rank + 1) * n].contiguous()

    @staticmethod
    def backward(ctx, grad):
        return _all_gather_rows(grad, ctx.group, ctx.size), None, None, None


class _GatherRows(torch.autograd.Function):
    """Forward: all-gather rows (dim 0). Backward: keep this rank's rows."""

    @staticmethod
    def forward(ctx, x, group, rank, size):
        ctx.rank, ctx.n = rank, x.shape[0]
        return _all_gather_rows(x, group, size)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.rank * ctx.n:(ctx.rank + 1) * ctx.n].contiguous(), None, None, None


def _all_gather_rows(x, group, size):
    parts = [torch.empty_like(x) for _ in range(size)]
    dist.all_gather(parts, x.contiguous(), group=group)
    return torch.cat(parts, dim=0)


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


def copy_to_group(x, group, size):
    return x if size == 1 else _CopyToGroup.apply(x, group)


def reduce_from_group(x, group, size):
    return x if size == 1 else _ReduceFromGroup.apply(x, group)


def scatter_rows(x, group, rank, size):
    return x if size == 1 else _ScatterRows.apply(x, group, rank, size)


def gather_rows(x, group, rank, size):
    return x if size == 1 else _GatherRows.apply(x, group, rank, size)


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

"""Ulysses all-to-all: trade sequence shards for head shards and back.

[B, s, h, d] (s = S_local/U rows, all heads) <-> [B, U*s, h/U, d] (all rows, h/U heads)
"""
import torch
import torch.distributed as dist


def _seq_to_heads(x, group, U):
    B, s, h, d = x.shape
    send = x.reshape(B, s, U, h // U, d).permute(2, 0, 1, 3, 4).contiguous()  # [U(dst), B, s, h/U, d]
    recv = torch.empty_like(send)                                             # [U(src), B, s, h/U, d]
    dist.all_to_all_single(recv, send, group=group)
    return recv.permute(1, 0, 2, 3, 4).reshape(B, U * s, h // U, d)


def _heads_to_seq(y, group, U):
    B, S, hu, d = y.shape
    send = y.reshape(B, U, S // U, hu, d).permute(1, 0, 2, 3, 4).contiguous()  # [U(dst), B, s, h/U, d]
    recv = torch.empty_like(send)                                             # [U(src head group), ...]
    dist.all_to_all_single(recv, send, group=group)
    return recv.permute(1, 2, 0, 3, 4).reshape(B, S // U, U * hu, d)


class SeqToHeads(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group, U):
        ctx.group, ctx.U = group, U
        return _seq_to_heads(x, group, U)

    @staticmethod
    def backward(ctx, grad):
        return _heads_to_seq(grad.contiguous(), ctx.group, ctx.U), None, None


class HeadsToSeq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y, group, U):
        ctx.group, ctx.U = group, U
        return _heads_to_seq(y, group, U)

    @staticmethod
    def backward(ctx, grad):
        return _seq_to_heads(grad.contiguous(), ctx.group, ctx.U), None, None

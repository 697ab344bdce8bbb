"""Zig-zag ring attention (causal), forward and backward.

Ring rank r holds query/key/value rows of chunks (r, 2R-1-r) (see cp/layout.py),
each `half` rows long. At ring step j it holds the K/V of rank src = r - j:
  j == 0      : its own K/V -> causal block over all 2*half rows;
  src < r     : both of its chunks come after chunk src -> all rows attend to
                the first half of the K/V (chunk src), no mask;
  src > r     : only the second half of its rows (chunk 2R-1-r) sees any of
                that K/V, and sees all of it, no mask.
K/V travel around the ring with batched isend/irecv while the block computes;
block outputs are merged with their log-sum-exp (online softmax). Backward
recomputes nothing: each block's gradient uses the final out/lse, and dK/dV
accumulators travel the ring behind the K/V until they come home. Hops per
layer: K/V size - 1 forward, size - 1 backward, dK/dV size - 1 (as costed).
"""
import torch

from cp.kernels import attn_backward, attn_forward
from cp.ring_comms import ring_exchange, wait


def _expand(t, g):
    # [B, hk, L, d] -> [B, hk*g, L, d]: kv head j serves query heads j*g .. j*g+g-1
    return t if g == 1 else t.repeat_interleave(g, dim=1)


def _fold(t, g):
    # [B, hk*g, L, d] -> [B, hk, L, d]: sum the gradients of the query heads of one kv head
    if g == 1:
        return t
    B, h, L, d = t.shape
    return t.view(B, h // g, g, L, d).sum(2)


def _merge(out, lse, o, l):
    # out: [B, h, L, d] fp32, lse: [B, h, L] fp32
    new = torch.logaddexp(lse, l)
    out = out * torch.exp(lse - new).unsqueeze(-1) + o.float() * torch.exp(l - new).unsqueeze(-1)
    return out, new


class RingAttention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, k, v, ring, scale):
        # q: [B, h, 2*half, d]; k, v: [B, hk, 2*half, d]
        # ring: (group, rank, size, send_rank, recv_rank)
        group, rank, size, send_rank, recv_rank = ring
        g, half = q.shape[1] // k.shape[1], q.shape[2] // 2
        kv = torch.stack([k, v]).contiguous()            # [2, B, hk, 2*half, d]
        out = lse = None
        auxes = []
        for step in range(size):
            if step < size - 1:
                reqs, kv_next = ring_exchange(kv, send_rank, recv_rank, group, tag=0)
            src = (rank - step) % size
            kk, vv = _expand(kv[0], g), _expand(kv[1], g)
            if step == 0:
                o, l, aux = attn_forward(q, kk, vv, True, scale)
                out, lse = o.float(), l.float()
            elif src < rank:
                o, l, aux = attn_forward(q, kk[:, :, :half], vv[:, :, :half], False, scale)
                out, lse = _merge(out, lse, o, l)
            else:
                o, l, aux = attn_forward(q[:, :, half:].contiguous(), kk, vv, False, scale)
                o2, l2 = _merge(out[:, :, half:], lse[:, :, half:], o, l)
                out = torch.cat([out[:, :, :half], o2], dim=2)
                lse = torch.cat([lse[:, :, :half], l2], dim=2)
            auxes.append(aux)
            if step < size - 1:
                wait(reqs)
                kv = kv_next
        out = out.to(q.dtype)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.ring, ctx.scale, ctx.auxes = ring, scale, auxes
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, lse = ctx.saved_tensors
        group, rank, size, send_rank, recv_rank = ctx.ring
        g, half = q.shape[1] // k.shape[1], q.shape[2] // 2
        dout = dout.contiguous()
        dq = torch.zeros_like(q, dtype=torch.float32)
        kv = torch.stack([k, v]).contiguous()
        own = acc_reqs = None
        for step in range(size):
            if step < size - 1:
                kv_reqs, kv_next = ring_exchange(kv, send_rank, recv_rank, group, tag=0)
            src = (rank - step) % size
            kk, vv = _expand(kv[0], g), _expand(kv[1], g)
            dkv = torch.zeros_like(kv, dtype=torch.float32)  # [2, B, hk, 2*half, d]
            aux = ctx.auxes[step]
            if step == 0:
                dq_, dk_, dv_ = attn_backward(dout, q, kk, vv, out, lse, True, ctx.scale, aux)
                dq += dq_
                dkv[0] += _fold(dk_, g)
                dkv[1] += _fold(dv_, g)
            elif src < rank:
                dq_, dk_, dv_ = attn_backward(dout, q, kk[:, :, :half].contiguous(), vv[:, :, :half].contiguous(),
                                              out, lse, False, ctx.scale, aux)
                dq += dq_
                dkv[0, :, :, :half] += _fold(dk_, g)
                dkv[1, :, :, :half] += _fold(dv_, g)
            else:
                dq_, dk_, dv_ = attn_backward(dout[:, :, half:], q[:, :, half:].contiguous(), kk, vv,
                                              out[:, :, half:], lse[:, :, half:], False, ctx.scale, aux)
                dq[:, :, half:] += dq_
                dkv[0] += _fold(dk_, g)
                dkv[1] += _fold(dv_, g)
            # dK/dV of rank src's K/V: the owner keeps its own part (step 0); the
            # others' parts travel with the K/V's path, each rank adding its own, and
            # reach the owner after size - 1 hops (as many as the K/V made).
            if step == 0:
                own = dkv
            else:
                if step > 1:
                    wait(acc_reqs)
                    dkv = acc_recv + dkv
                acc_reqs, acc_recv = ring_exchange(dkv, send_rank, recv_rank, group, tag=1)
            if step < size - 1:
                wait(kv_reqs)
                kv = kv_next
        wait(acc_reqs)
        own = own + acc_recv
        dk, dv = own[0].to(k.dtype), own[1].to(v.dtype)
        return dq.to(q.dtype), dk, dv, None, None


def ring_attention(q, k, v, ring, scale):
    return RingAttention.apply(q, k, v, ring, scale)

"""Causal attention over a context-parallel sequence: Ulysses inside, ring across.

cp == cp_ulysses (U) * cp_ring (R). q: [B, s, h, d], k/v: [B, s, hk, d] with
s = S/cp local rows (in the order of cp/layout.py). Returns [B, s, h, d].
"""
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from cp.kernels import kind
import documents
from cp.ring import ring_attention
from cp.ulysses import HeadsToSeq, SeqToHeads


def local_causal_attention(q, k, v, scale):
    # q: [B, h, S, d], k/v: [B, hk, S, d]
    g = q.shape[1] // k.shape[1]
    if g > 1:
        k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    doc = documents.current()
    if doc is not None:
        # --doc-mask: causal within each document (documents.py), S whole and in order here
        # (no ring: train.doc_mask_refusal); SDPA with a boolean mask, which the flash kernel
        # does not take: the memory-efficient or math kernel runs instead
        return F.scaled_dot_product_attention(q, k, v, attn_mask=documents.attention_mask(doc.to(q.device)),
                                              scale=scale)
    if q.device.type == "cuda":
        # the kernel the ring's blocks run (cp/kernels.py: cuDNN on Hopper / Blackwell, FlashAttention-2
        # before), in bf16: the kernel the plan costed (planner/engines/bundle/rules.py), whatever SDPA
        # would pick
        dt = q.dtype
        backend = SDPBackend.CUDNN_ATTENTION if kind(q.device) == "cudnn" else SDPBackend.FLASH_ATTENTION
        with sdpa_kernel(backend):
            o = F.scaled_dot_product_attention(*(t.to(torch.bfloat16) for t in (q, k, v)), is_causal=True,
                                               scale=scale)
        return o.to(dt)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)


def context_attention(q, k, v, mesh, scale):
    U, R = mesh.cp_uly_size, mesh.cp_ring_size
    if U > 1:
        if k.shape[2] % U:
            # kv heads do not divide by U: replicate them to one per query head
            g = q.shape[2] // k.shape[2]
            k, v = k.repeat_interleave(g, dim=2), v.repeat_interleave(g, dim=2)
        q, k, v = (SeqToHeads.apply(t, mesh.cp_uly_group, U) for t in (q, k, v))  # [B, S/R, h/U, d]
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))                               # [B, h, L, d]
    if R > 1:
        ring = (mesh.cp_ring_group, mesh.cp_ring_rank, R, mesh.cp_send_rank, mesh.cp_recv_rank)
        o = ring_attention(q.contiguous(), k.contiguous(), v.contiguous(), ring, scale)
    else:
        o = local_causal_attention(q, k, v, scale)
    o = o.transpose(1, 2)                                                          # [B, L, h, d]
    if U > 1:
        o = HeadsToSeq.apply(o.contiguous(), mesh.cp_uly_group, U)                  # [B, s, h, d]
    return o

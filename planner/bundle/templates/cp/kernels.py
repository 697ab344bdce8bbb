"""The device's SDPA kernel that also returns the log-sum-exp, forward and backward.

q, k, v: [B, h, L, d] with the same number of heads (GQA kv heads are expanded
by the caller). out: [B, h, L, d]; lse: [B, h, L] (fp32).
CPU: aten._scaled_dot_product_flash_attention_for_cpu (fp32 is fine).
CUDA: aten._scaled_dot_product_flash_attention (needs bf16/fp16: inputs are cast
to bf16 and results cast back).
"""
import torch

aten = torch.ops.aten


def attn_forward(q, k, v, causal: bool, scale: float):
    """Returns (out, lse, aux); aux is what the CUDA backward needs (None on CPU)."""
    if q.device.type == "cuda":
        dt = q.dtype
        q16, k16, v16 = (t.to(torch.bfloat16) for t in (q, k, v))
        out, lse, cq, ck, mq, mk, seed, offset, _ = aten._scaled_dot_product_flash_attention(
            q16, k16, v16, 0.0, causal, False, scale=scale)
        return out.to(dt), lse, (cq, ck, mq, mk, seed, offset)
    out, lse = aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, causal, scale=scale)
    return out, lse, None


def attn_backward(dout, q, k, v, out, lse, causal: bool, scale: float, aux):
    """Gradients of one block given the *final* out and lse of these query rows:
    the block's softmax is exp(s - lse_final), so per-block gradients add up."""
    if q.device.type == "cuda":
        dt = q.dtype
        cq, ck, mq, mk, seed, offset = aux
        b16 = [t.to(torch.bfloat16).contiguous() for t in (dout, q, k, v, out)]
        dq, dk, dv = aten._scaled_dot_product_flash_attention_backward(
            *b16, lse.contiguous(), cq, ck, mq, mk, 0.0, causal, seed, offset, scale=scale)
        return dq.to(dt), dk.to(dt), dv.to(dt)
    return aten._scaled_dot_product_flash_attention_for_cpu_backward(
        dout.contiguous(), q, k, v, out.contiguous(), lse.contiguous(), 0.0, causal, scale=scale)

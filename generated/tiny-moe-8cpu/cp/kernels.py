"""The device's SDPA kernel that also returns the log-sum-exp, forward and backward.

q, k, v: [B, h, L, d] with the same number of heads (GQA kv heads are expanded
by the caller). out: [B, h, L, d]; lse: [B, h, L] (fp32).
CPU: aten._scaled_dot_product_flash_attention_for_cpu (fp32 is fine).
CUDA (inputs cast to bf16, results cast back):
  Hopper / Blackwell (compute capability >= 9.0): cuDNN's fused attention,
    aten._scaled_dot_product_cudnn_attention with compute_log_sumexp=True; its lse is
    [B, h, L, 1] (torch 2.13 _meta_registrations.py, meta__scaled_dot_product_cudnn_attention),
    squeezed here and unsqueezed again for its backward, as torch's own ring attention
    does (torch/distributed/tensor/experimental/_context_parallel/_attention.py, _should_lse_squeeze).
  older GPUs: FlashAttention-2, aten._scaled_dot_product_flash_attention.
`kind(device)` names the kernel a device runs (local attention in cp/attention.py pins the
same SDPA backend), the kernel the planner costs (planner/engines/bundle/rules.py).
"""
import torch

aten = torch.ops.aten

CUDNN_MIN_CAPABILITY = (9, 0)   # Hopper; cuDNN's SDPA backend is the fast path there (cuDNN 9 release notes)


def _capability(device):
    return torch.cuda.get_device_capability(device)


def kind(device) -> str:
    """"cudnn", "flash2" (CUDA before Hopper) or "cpu"."""
    if device.type != "cuda":
        return "cpu"
    return "cudnn" if _capability(device) >= CUDNN_MIN_CAPABILITY else "flash2"


def attn_forward(q, k, v, causal: bool, scale: float):
    """Returns (out, lse, aux); aux is what the CUDA backward needs (None on CPU)."""
    which = kind(q.device)
    if which == "cpu":
        out, lse = aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, causal, scale=scale)
        return out, lse, None
    dt = q.dtype
    q16, k16, v16 = (t.to(torch.bfloat16) for t in (q, k, v))
    if which == "cudnn":
        out, lse, cq, ck, mq, mk, seed, offset, _ = aten._scaled_dot_product_cudnn_attention(
            q16, k16, v16, None, True, 0.0, causal, False, scale=scale)
        return out.to(dt), lse.squeeze(-1), ("cudnn", cq, ck, mq, mk, seed, offset)
    out, lse, cq, ck, mq, mk, seed, offset, _ = aten._scaled_dot_product_flash_attention(
        q16, k16, v16, 0.0, causal, False, scale=scale)
    return out.to(dt), lse, ("flash2", cq, ck, mq, mk, seed, offset)


def attn_backward(dout, q, k, v, out, lse, causal: bool, scale: float, aux):
    """Gradients of one block given the *final* out and lse of these query rows:
    the block's softmax is exp(s - lse_final), so per-block gradients add up."""
    if aux is None:
        return aten._scaled_dot_product_flash_attention_for_cpu_backward(
            dout.contiguous(), q, k, v, out.contiguous(), lse.contiguous(), 0.0, causal, scale=scale)
    dt = q.dtype
    which, cq, ck, mq, mk, seed, offset = aux
    b16 = [t.to(torch.bfloat16).contiguous() for t in (dout, q, k, v, out)]
    if which == "cudnn":
        dq, dk, dv = aten._scaled_dot_product_cudnn_attention_backward(
            *b16, lse.unsqueeze(-1).contiguous(), seed, offset, None, cq, ck, mq, mk, 0.0, causal, scale=scale)
    else:
        dq, dk, dv = aten._scaled_dot_product_flash_attention_backward(
            *b16, lse.contiguous(), cq, ck, mq, mk, 0.0, causal, seed, offset, scale=scale)
    return dq.to(dt), dk.to(dt), dv.to(dt)

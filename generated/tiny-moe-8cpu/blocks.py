"""Plain math shared by the parallel model and the single-process reference:
parameter init (deterministic by name), norms, RoPE, FFN, routing."""
import zlib

import torch
import torch.nn.functional as F


def init_tensor(name: str, shape, seed: int, rows=None) -> torch.Tensor:
    """The initial value of parameter `name` (full shape), the same on every rank.
    Norm weights start at 1, everything else N(0, 0.02). Stacked experts
    [E, ., .] draw each expert from its own generator, so `rows=(first, n)`
    builds only experts first..first+n-1 without making the others."""
    if name.endswith("norm"):
        return torch.ones(shape)
    if len(shape) == 3:
        first, n = rows if rows is not None else (0, shape[0])
        return torch.stack([_randn(f"{name}[{e}]", shape[1:], seed) for e in range(first, first + n)])
    return _randn(name, shape, seed)


def _randn(name, shape, seed):
    g = torch.Generator().manual_seed(seed * 1_000_003 + zlib.crc32(name.encode()))
    return torch.randn(shape, generator=g) * 0.02


def _wide(t):
    """t in at least fp32 (bf16/fp16 -> fp32; fp32/fp64 unchanged)."""
    return t.to(torch.promote_types(t.dtype, torch.float32))


class _RMSNorm(torch.autograd.Function):
    """y = x * rsqrt(mean(x^2) + eps) * w, saving only x and the fp32 rstd [.., 1]
    (what a fused kernel keeps): 2h bytes per bf16 token, not the fp32 copies."""

    @staticmethod
    def forward(ctx, x, w, eps):
        x32 = _wide(x)
        r = torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, w, r)
        return (x32 * r).to(x.dtype) * w

    @staticmethod
    def backward(ctx, g):
        x, w, r = ctx.saved_tensors
        x32, gw = _wide(x), _wide(g) * _wide(w)
        dx = r * gw - x32 * r.pow(3) * (gw * x32).mean(-1, keepdim=True)
        dw = (_wide(g) * x32 * r).flatten(0, -2).sum(0)
        return dx.to(x.dtype), dw.to(w.dtype), None


class _SwiGLU(torch.autograd.Function):
    """silu(a) * b, saving a and b only (silu recomputed in backward), as
    Megatron's fused bias-SwiGLU does: 4F bytes per bf16 row, not 6F."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return F.silu(a) * b

    @staticmethod
    def backward(ctx, g):
        # in the input dtype, as Megatron's fused swiglu_back: no fp32 [rows, F] temporaries
        a, b = ctx.saved_tensors
        sig = torch.sigmoid(a)
        gs = g * sig
        return gs * b * (1 + a * (1 - sig)), gs * a


def swiglu(a, b):
    return _SwiGLU.apply(a, b)


def norm(x, weight, kind: str, eps: float = 1e-6):
    if kind == "layernorm":
        return F.layer_norm(x, (x.shape[-1],), weight, None, eps)
    return _RMSNorm.apply(x, weight, eps)


def rope_tables(positions, head_dim: int, theta: float = 10000.0):
    """cos/sin [len(positions), head_dim/2] for the given global positions."""
    inv = 1.0 / theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    ang = positions.to(torch.float64)[:, None] * inv[None, :]
    return torch.cos(ang).float(), torch.sin(ang).float()


def apply_rope(x, cos, sin):
    # x: [B, s, h, d]; cos/sin: [s, d/2], or [B, s, d/2] per row (documents.py), rotate-half
    # convention, computed in x's dtype
    d2 = x.shape[-1] // 2
    x1, x2 = x[..., :d2], x[..., d2:]
    if cos.dim() == 2:
        cos, sin = cos[None], sin[None]
    c, s = cos[:, :, None, :].to(x.dtype), sin[:, :, None, :].to(x.dtype)
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


def ffn(x, w1, w3, w2, gated: bool):
    # x: [n, H]; w1/w3: [F, H]; w2: [H, F]  (SwiGLU when gated, else GELU)
    h = swiglu(x @ w1.t(), x @ w3.t()) if gated else F.gelu(x @ w1.t())
    return h @ w2.t()


def route(t, router_w, bias, top_k: int, score: str, with_scores: bool = False, logits=None):
    """Top-k routing of tokens t [n, H] -> (weights [n, k], experts [n, k]).
    The aux-loss-free bias [E] only shifts the selection, not the weights
    (DeepSeek-V3, sec. 2.1.2); sigmoid scores are renormalised over the top-k.
    logits: t @ router_w.t() when the caller computed it already (fused with a norm)."""
    logits = (t @ router_w.t() if logits is None else logits).float()   # [n, E], in t's dtype
    scores = torch.sigmoid(logits) if score == "sigmoid" else torch.softmax(logits, dim=-1)
    sel = torch.topk(scores.detach() + bias, top_k, dim=-1).indices
    w = scores.gather(1, sel)
    if score == "sigmoid":
        w = w / w.sum(-1, keepdim=True)
    return (w.to(t.dtype), sel, scores) if with_scores else (w.to(t.dtype), sel)


def capacity_keep(sel, experts: int, capacity_factor):
    """Mask [n, k] of the assignments kept when each expert takes at most
    ceil(cf * n * k / E) of these tokens, first come first served (token order)."""
    if capacity_factor is None:
        return None
    n, k = sel.shape
    cap = int(-(-capacity_factor * n * k // experts))
    flat = sel.flatten()[:, None]
    onehot = torch.zeros(n * k, experts, dtype=torch.int64, device=sel.device).scatter_(1, flat, 1)  # [n*k, E]
    pos = (onehot.cumsum(0) * onehot).sum(-1) - 1               # place in its expert's queue
    return (pos < cap).view(n, k)


def update_router_bias(bias, counts, rate: float = 1e-3):
    """Aux-loss-free balancing: raise the bias of under-loaded experts."""
    bias += rate * torch.sign(counts.float().mean() - counts.float())

"""Activation bytes measured in torch (saved_tensors_hooks) vs the cost model's formula.

Two tiny layers, run in bf16 on CPU: a GPT-style block (LayerNorm, unfused softmax
attention, dropout, GeLU MLP: Korthikanti's setting, flash=0, dropout=1) and a modern
block (RMSNorm, GQA, a fused SwiGLU that saves only its input as Megatron's does,
scores materialised). The hook counts every tensor autograd saves, once per storage,
parameters excluded."""
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils.checkpoint import checkpoint  # noqa: E402

from planner import costmodel as cm  # noqa: E402
from planner.specs import ModelSpec, make_problem  # noqa: E402


class _SwiGLU(torch.autograd.Function):
    """silu(g) * u saving only [g, u] (Megatron's bias_swiglu does the same)."""

    @staticmethod
    def forward(ctx, gu):
        ctx.save_for_backward(gu)
        g, u = gu.chunk(2, dim=-1)
        return F.silu(g) * u

    @staticmethod
    def backward(ctx, grad):
        (gu,) = ctx.saved_tensors
        g, u = gu.float().chunk(2, dim=-1)
        sg = torch.sigmoid(g)
        dg = grad.float() * u * sg * (1 + g * (1 - sg))
        du = grad.float() * F.silu(g)
        return torch.cat([dg, du], dim=-1).to(gu.dtype)


class _Dropout(torch.autograd.Function):
    """Dropout saving a 1-byte mask, as the CUDA kernel does (CPU torch keeps a bf16 one)."""

    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand_like(x, dtype=torch.float32) >= p
        ctx.save_for_backward(mask)
        ctx.scale = 1 / (1 - p)
        return x * mask * ctx.scale

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask * ctx.scale, None


def dropout(x, p):
    return _Dropout.apply(x, p) if p > 0 else x


class _RMSNorm(torch.autograd.Function):
    """RMSNorm saving its bf16 input and fp32 rstd, as fused kernels (Apex, TE) do."""

    @staticmethod
    def forward(ctx, x, w, eps):
        rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, w, rstd)
        return (x.float() * rstd).to(x.dtype) * w

    @staticmethod
    def backward(ctx, grad):
        x, w, rstd = ctx.saved_tensors
        xf, gf = x.float(), grad.float() * w.float()
        xhat = xf * rstd
        dx = rstd * (gf - xhat * (gf * xhat).mean(-1, keepdim=True))
        dw = (grad.float() * xhat).reshape(-1, x.shape[-1]).sum(0)
        return dx.to(x.dtype), dw.to(w.dtype), None


class FusedRMSNorm(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(h))

    def forward(self, x):
        return _RMSNorm.apply(x, self.weight, 1e-6)


class Block(nn.Module):
    def __init__(self, h, a, g, dh, ffn, modern):
        super().__init__()
        self.a, self.g, self.dh, self.modern = a, g, dh, modern
        Norm = FusedRMSNorm if modern else nn.LayerNorm
        self.n1, self.n2 = Norm(h), Norm(h)
        self.qkv = nn.Linear(h, (a + 2 * g) * dh, bias=not modern)
        self.o = nn.Linear(a * dh, h, bias=not modern)
        self.fc1 = nn.Linear(h, 2 * ffn if modern else ffn, bias=not modern)
        self.fc2 = nn.Linear(ffn, h, bias=not modern)
        self.p = 0.0 if modern else 0.1

    def forward(self, x):                                   # x: [s, b, h]
        s, b, _ = x.shape
        q, k, v = self.qkv(self.n1(x)).split([self.a * self.dh, self.g * self.dh, self.g * self.dh], -1)
        # GQA without repeating K/V: the a/g query heads of a group share rows
        r = self.a // self.g
        q = q.reshape(s, b, self.g, r, self.dh).permute(1, 2, 3, 0, 4).reshape(b * self.g, r * s, self.dh)
        k = k.reshape(s, b, self.g, self.dh).permute(1, 2, 0, 3).reshape(b * self.g, s, self.dh)
        v = v.reshape(s, b, self.g, self.dh).permute(1, 2, 0, 3).reshape(b * self.g, s, self.dh)
        scores = torch.baddbmm(torch.zeros(1, dtype=q.dtype), q, k.transpose(1, 2), beta=0.0,
                               alpha=1 / math.sqrt(self.dh))                     # (b g, r s, s)
        probs = dropout(torch.softmax(scores, -1), self.p)
        ctx = torch.bmm(probs, v).reshape(b, self.g, r, s, self.dh).permute(3, 0, 1, 2, 4)
        ctx = ctx.reshape(s, b, self.a * self.dh)
        x = x + dropout(self.o(ctx), self.p)
        y = self.n2(x)
        y = self.fc2(_SwiGLU.apply(self.fc1(y)) if self.modern else F.gelu(self.fc1(y)))
        return x + dropout(y, self.p)


def saved_bytes(fn, params):
    seen = {}
    pids = {p.untyped_storage().data_ptr() for p in params}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in pids:
            seen[st.data_ptr()] = st.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    return sum(seen.values()), out


@pytest.mark.parametrize("modern", [False, True], ids=["gpt", "gqa-swiglu"])
@pytest.mark.parametrize("recompute", ["none", "full"])
def test_measured_activations_match_formula(modern, recompute):
    torch.manual_seed(0)
    s, b, h, a = 256, 2, 256, 8
    g = 2 if modern else a
    dh, ffn = h // a, (688 if modern else 4 * h)
    blk = Block(h, a, g, dh, ffn, modern).to(torch.bfloat16).train()
    x = torch.randn(s, b, h, dtype=torch.bfloat16, requires_grad=True)
    x_in = x * 1.0                                          # a non-leaf input, as inside a network
    if recompute == "full":
        fn = lambda: checkpoint(blk, x_in, use_reentrant=False)
    else:
        fn = lambda: blk(x_in)
    measured, out = saved_bytes(fn, list(blk.parameters()))
    out.float().sum().backward()

    spec = ModelSpec(name="tiny", layers=1, hidden=h, heads=a, kv_heads=g, head_dim=dh, vocab=256, ffn_hidden=ffn,
                     gated=modern, norm="rmsnorm" if modern else "layernorm", linear_bias=not modern)
    p = make_problem(model=spec, gpus=1, gpus_per_node=1, seq=s, global_batch=b, memory_gib=100,
                     flash_attention=False, dropout=not modern)
    one = np.ones(1)
    x1 = dict(tp=one, cp=one, dp=one, pp=one, vpp=one, etp=one, ep=one, edp=one, cu=one, cr=one,
              micro_batch=one * b, num_microbatches=one, s_tp=one, s_cp=one, s_dp=one)
    lt = cm.layer_terms(p, x1)
    formula = float(lt.a_full[0] if recompute == "full" else lt.a_dense[0])
    assert measured == pytest.approx(formula, rel=0.10), (measured, formula)


@pytest.mark.parametrize("rows", [[96, 0, 160, 64], [80, 80, 80, 80]])
def test_bundle_moe_act_recompute_frees_the_cost_models_bytes(rows):
    """The bundle's local experts (planner/bundle/templates/moe/experts.py, grouped GEMM) in bf16:
    saved bytes without and with moe_act recompute differ by the cost model's moe_act
    term (MODULE_TERMS["moe"]["moe_act"]) for these rows; outputs and gradients agree."""
    import importlib
    import sys
    from pathlib import Path

    from planner.costmodel import formulas as fm

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates"))
    try:
        experts = importlib.import_module("moe.experts")
    finally:
        sys.path.pop(0)
    torch.manual_seed(0)
    m, H, F_ = sum(rows), 64, 96
    x = torch.randn(m, H, dtype=torch.bfloat16) * 1.0
    w1, w3 = ((torch.randn(len(rows), F_, H) * 0.1).bfloat16().requires_grad_() for _ in range(2))
    w2 = (torch.randn(len(rows), H, F_) * 0.1).bfloat16().requires_grad_()
    x = x.requires_grad_()
    res = {}
    for rc in (False, True):
        nbytes, y = saved_bytes(lambda: experts.local_experts(x * 1.0, rows, w1, w3, w2, rc), [w1, w3, w2])
        res[rc] = nbytes, y, torch.autograd.grad(y.float().square().sum(), (x, w1, w3, w2))
    freed = res[False][0] - res[True][0]
    # m rows on this rank: n_tok * K * t_e / t_s * imb_mem = m with n_tok = m, the rest 1
    term = fm.MODULE_TERMS["moe"]["moe_act"][0].subs(
        {fm.S: m, fm.c: 1, fm.b: 1, fm.K: 1, fm.te: 1, fm.t: 1, fm.Fe: F_, fm.imbm: 1})
    term = term.subs({s: 1 for s in term.free_symbols})   # t_s (tp if sequence parallel) = 1
    assert freed == float(term)
    torch.testing.assert_close(res[True][1], res[False][1])
    for a, b in zip(res[True][2], res[False][2]):
        torch.testing.assert_close(a, b)


def _bundle_module(name):
    import importlib
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


@pytest.mark.parametrize("kind", ["rmsnorm", "layernorm"])
def test_bundle_layernorm_recompute_frees_the_cost_models_bytes(kind):
    """The bundle's input norm feeding the QKV GEMMs (tp = 1) in bf16: with layernorm
    recompute (comms.norm_column_parallel) it saves the cost model's layernorm term
    (MODULE_TERMS[.]["layernorm"], the layer's two norms) / 2 less (the norm output; before,
    the QKV GEMM kept it and nothing was freed); same gradients."""
    from planner.costmodel import formulas as fm

    comms, blocks = _bundle_module("comms"), _bundle_module("blocks")
    B, s, H = 2, 64, 128
    res = {}
    for dtype in (torch.bfloat16, torch.float32):       # bytes in bf16, gradients compared in fp32
        torch.manual_seed(0)
        x = torch.randn(B, s, H).to(dtype).requires_grad_()
        nw = (1 + 0.1 * torch.randn(H)).to(dtype).requires_grad_()
        ws = [(torch.randn(n, H) * 0.05).to(dtype).requires_grad_() for n in (H, H // 4, H // 4)]
        fn = lambda v, w: blocks.norm(v, w, kind)
        runs = {
            False: lambda: comms.column_parallel(fn(x * 1.0, nw), ws, None, 1),
            True: lambda: comms.norm_column_parallel(x * 1.0, nw, fn, ws, None, 1),
        }
        for rc, run in runs.items():
            nbytes, outs = saved_bytes(run, [nw, *ws])
            res[dtype, rc] = nbytes, torch.autograd.grad(sum((o.float() ** 2).sum() for o in outs), (x, nw, *ws))
    term = fm.MODULE_TERMS["dense"]["layernorm"][0].subs({fm.S: s, fm.c: 1, fm.b: B, fm.h: H})
    term = term.subs({q: 1 for q in term.free_symbols})   # t_s = 1
    freed = res[torch.bfloat16, False][0] - res[torch.bfloat16, True][0]
    # + the norm's fp32 statistics (rstd, and mean for LayerNorm: <= 8 bytes per token),
    # which the cost model leaves out (4 / 2h of the term)
    assert 0 <= freed - float(term) / 2 <= 8 * B * s
    for a, b in zip(res[torch.float32, True][1], res[torch.float32, False][1]):
        torch.testing.assert_close(a, b)

"""The bundle's MoE pieces in one process (no process group): grouped GEMM equals
the per-expert loop, dispatch syncs with the host once, the aux loss reaches
the router, the fused-style RMSNorm / SwiGLU match autograd."""
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
BUNDLE = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates"
sys.path.insert(0, str(BUNDLE))
import blocks  # noqa: E402
from moe import dispatch, experts, layer  # noqa: E402


def _experts(El=3, H=16, Fe=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(s, generator=g).requires_grad_()
            for s in ((El, Fe, H), (El, Fe, H), (El, H, Fe))]


@pytest.mark.parametrize("rows", [[5, 0, 7], [0, 0, 4], [3, 3, 3]])
def test_grouped_gemm_equals_loop(rows, monkeypatch):
    w = _experts()
    x = torch.randn(sum(rows), 16, requires_grad=True)
    assert experts.grouped_ok(x, w[0], w[2])
    y = experts.local_experts(x, rows, *w)
    g = torch.randn_like(y)
    grads = torch.autograd.grad(y, [x, *w], g)
    monkeypatch.setattr(experts, "grouped_ok", lambda *a: False)         # the plain path
    y2 = experts.local_experts(x, rows, *w)
    grads2 = torch.autograd.grad(y2, [x, *w], g)
    torch.testing.assert_close(y, y2)
    for a, b in zip(grads, grads2):
        torch.testing.assert_close(a, b)
    assert all(gw.shape == p.shape for gw, p in zip(grads[1:], w))          # every expert has a gradient


def test_dispatch_one_host_sync(monkeypatch):
    calls = []
    for name in ("tolist", "item", "__bool__", "__int__"):
        orig = getattr(torch.Tensor, name)

        def spy(self, *a, _orig=orig, _name=name):
            calls.append(_name)
            return _orig(self, *a)
        monkeypatch.setattr(torch.Tensor, name, spy)
    E, n, k, H = 6, 10, 2, 16
    ex = SimpleNamespace(ep_size=1, etp_size=1, ep_group=None, etp_group=None, etp_rank=0)
    t = torch.randn(n, H)
    sel = torch.randint(0, E, (n, k))
    sel[0, 1] = -1                                                      # one dropped assignment
    w = torch.rand(n, k)
    w1, w3, w2 = _experts(El=E)
    y = dispatch.dispatch_combine(t, w, sel, lambda x, r: experts.local_experts(x, r, w1, w3, w2), E, ex)
    assert calls == ["tolist"], calls
    # the same sum, expert by expert
    want = torch.zeros_like(t)
    for i in range(n):
        for j in range(k):
            e = int(sel[i, j])
            if e >= 0:
                want[i] += w[i, j] * blocks.ffn(t[i:i + 1], w1[e], w3[e], w2[e], True)[0]
    torch.testing.assert_close(y, want, rtol=1e-4, atol=1e-5)


def test_aux_loss_reaches_the_router():
    E, n, k = 4, 32, 2
    logits_w = torch.randn(E, 8, requires_grad=True)
    t = torch.randn(n, 8)
    w, sel, scores = blocks.route(t, logits_w, torch.zeros(E), k, "softmax", with_scores=True)
    y = torch.randn(n, 8, requires_grad=True)
    aux = 0.01 * layer.aux_loss(scores, sel, E)
    out = layer.AuxLoss.apply(y, aux)
    torch.testing.assert_close(out, y)                                  # forward: unchanged
    out.sum().backward()
    assert logits_w.grad is not None and logits_w.grad.abs().sum() > 0
    # perfectly balanced routing: the loss is 1 * coefficient (E * sum_e (1/E)(1/E) * E)
    sc = torch.full((n, E), 1.0 / E)
    bal = torch.arange(n * k).remainder(E).view(n, k)
    assert float(layer.aux_loss(sc, bal, E)) == pytest.approx(1.0)


def test_fused_norm_and_swiglu_gradcheck():
    x = torch.randn(2, 3, 8, dtype=torch.float64, requires_grad=True)
    wt = torch.randn(8, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: blocks.norm(a, b, "rmsnorm"), (x, wt))
    a, b = (torch.randn(4, 6, dtype=torch.float64, requires_grad=True) for _ in range(2))
    assert torch.autograd.gradcheck(blocks.swiglu, (a, b))

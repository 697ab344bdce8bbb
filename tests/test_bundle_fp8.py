"""templates/fp8.py: the tensorwise FP8 linear against a quantise-then-matmul reference written here.

The reference takes the per-tensor amax, scales to the fp8 format's finite max, casts (e4m3
for x and w, e5m2 for the output gradient), dequantises and multiplies in fp32. The FP8
linear must match it to fp32 rounding (forward, dgrad, wgrad), and the fp32 linear within
the bound the fp8 formats give: e4m3 has 3 mantissa bits (unit roundoff 2^-4, smallest
subnormal 2^-9), e5m2 has 2 (unit roundoff 2^-3, smallest subnormal 2^-16), so a value of
scaled magnitude |v| is stored within u|v| + sub/2 of itself.
"""
import importlib.util
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
FP8 = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates" / "fp8.py"
FP32_U = 2.0 ** -24                        # fp32 unit roundoff
FORMATS = {                                # dtype: (finite max, unit roundoff, smallest subnormal)
    torch.float8_e4m3fn: (448.0, 2.0 ** -4, 2.0 ** -9),
    torch.float8_e5m2: (57344.0, 2.0 ** -3, 2.0 ** -16),
}


def load():
    """The bundle's fp8.py, imported from the templates (it imports fused.py beside it)."""
    import sys
    if str(FP8.parent) not in sys.path:
        sys.path.insert(0, str(FP8.parent))
    spec = importlib.util.spec_from_file_location("bundle_fp8", FP8)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ref_quant(t, dtype):
    """(dequantised t, per-element bound on |t - dequantised|) for a per-tensor amax cast."""
    fmax, u, sub = FORMATS[dtype]
    scale = fmax / t.abs().max().item()
    dq = (t * scale).to(dtype).to(torch.float32) / scale
    return dq, u * t.abs() + sub / 2 / scale


def mm_bound(a, b):
    """fp32 accumulation error bound of a @ b (K products summed): ~K u |a| @ |b|, plus the
    scale multiplication, with a factor 2 for the inverse-scale roundings."""
    return 2 * (a.shape[1] + 2) * FP32_U * (a.abs() @ b.abs())


def data(seed=0, n=24, k=40, m=16):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, k, generator=g) * torch.logspace(-3, 1, k)     # spread of magnitudes
    w = torch.randn(m, k, generator=g) * 0.05
    gy = torch.randn(n, m, generator=g) * 1e-3
    return x, w, gy


def run(mod, x, w, gy, group=None):
    x, w = x.clone().requires_grad_(), w.clone().requires_grad_()
    y = mod.fp8_linear(x, w, group)
    y.backward(gy)
    return y.detach(), x.grad, w.grad


def test_matches_quantise_then_matmul_reference():
    mod = load()
    x, w, gy = data()
    y, dx, dw = run(mod, x, w, gy)
    xd, _ = ref_quant(x, torch.float8_e4m3fn)
    wd, _ = ref_quant(w, torch.float8_e4m3fn)
    gd, _ = ref_quant(gy, torch.float8_e5m2)
    for got, a, b in ((y, xd, wd.t()), (dx, gd, wd), (dw, gd.t(), xd)):
        want = a @ b
        assert ((got - want).abs() <= mm_bound(a, b)).all(), (got - want).abs().max()


def test_gradient_is_cast_to_e5m2_not_e4m3():
    """The reference with the output gradient in e4m3 must not match: the test above sees
    which format the backward used."""
    mod = load()
    x, w, gy = data(1)
    _, dx, _ = run(mod, x, w, gy)
    wd, _ = ref_quant(w, torch.float8_e4m3fn)
    g4, _ = ref_quant(gy, torch.float8_e4m3fn)
    assert ((dx - g4 @ wd).abs() > mm_bound(g4, wd)).any()


def test_within_fp8_bound_of_fp32_linear():
    mod = load()
    x, w, gy = data(2)
    y, dx, dw = run(mod, x, w, gy)
    xd, ex = ref_quant(x, torch.float8_e4m3fn)
    wd, ew = ref_quant(w, torch.float8_e4m3fn)
    gd, eg = ref_quant(gy, torch.float8_e5m2)
    cases = ((y, x, w.t(), ex, ew.t()), (dx, gy, w, eg, ew), (dw, gy.t(), x, eg.t(), ex))
    for got, a, b, ea, eb in cases:
        bound = ea @ b.abs() + a.abs() @ eb + ea @ eb + 2 * mm_bound(a, b)
        err = (got - a @ b).abs()
        assert (err <= bound).all(), (err - bound).max()
        assert err.max() > 1e-3 * bound.max()          # FP8 really ran: not an fp32 matmul


def test_bf16_operands_and_zero_tensors():
    """bf16 in, bf16 out: the reference product rounded once to bf16 (unit roundoff 2^-8),
    so each element is within 2^-8 |want| + the fp32 bound of it. An all-zero output
    gradient (amax 0, scale clamped by EPS) gives zero gradients, not NaN."""
    mod = load()
    x, w, gy = data(4)
    y, dx, dw = run(mod, x.bfloat16(), w, gy.bfloat16())
    assert y.dtype == dx.dtype == torch.bfloat16 and dw.dtype == torch.float32
    xd, _ = ref_quant(x.bfloat16().float(), torch.float8_e4m3fn)
    wd, _ = ref_quant(w, torch.float8_e4m3fn)
    want = xd @ wd.t()
    assert ((y.float() - want).abs() <= 2.0 ** -8 * want.abs() + mm_bound(xd, wd.t())).all()
    _, dx0, dw0 = run(mod, x, w, torch.zeros_like(gy))
    assert torch.equal(dx0, torch.zeros_like(x)) and torch.equal(dw0, torch.zeros_like(w))


def test_other_fp8_recipes_refused_in_one_line():
    mod = load()
    mod.configure("fp8-tensorwise")
    assert mod.gemms().fp8
    mod.configure("bf16")
    assert not mod.gemms().fp8
    for name in ("fp8-delayed", "fp8-rowwise", "fp8-blockwise", "mxfp8"):
        with pytest.raises(SystemExit) as e:
            mod.configure(name)
        assert str(e.value).startswith("precision: ") and "\n" not in str(e.value)


def _tp_worker(rank, port, out):
    import torch.distributed as dist
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=2)
    mod = load()
    x, w, gy = data(3, m=16)
    w = w * torch.tensor([1.0] * 8 + [30.0] * 8)[:, None]          # shards of unlike amax
    rows = slice(8 * rank, 8 * rank + 8)                             # column parallel: w's rows
    y, dx, dw = run(mod, x, w[rows], gy[:, rows], dist.group.WORLD)
    dist.all_reduce(dx)                                              # column parallel dgrad sum
    torch.save((y, dx, dw), f"{out}/{rank}.pt")
    dist.destroy_process_group()


def test_tp_sharded_weight_uses_the_whole_weights_scale(tmp_path):
    """2 gloo ranks, a column-parallel weight split by rows with amax 30x apart: with the amax
    reduced over the group, each rank's output columns, its weight-gradient rows and the summed
    input gradient equal the unsharded FP8 linear's to fp32 rounding."""
    import socket
    import torch.multiprocessing as mp
    mod = load()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_tp_worker, args=(port, str(tmp_path)), nprocs=2)
    x, w, gy = data(3, m=16)
    w = w * torch.tensor([1.0] * 8 + [30.0] * 8)[:, None]
    y, dx, dw = run(mod, x, w, gy)
    parts = [torch.load(tmp_path / f"{r}.pt") for r in range(2)]
    xd, _ = ref_quant(x, torch.float8_e4m3fn)
    wd, _ = ref_quant(w, torch.float8_e4m3fn)
    gd, _ = ref_quant(gy, torch.float8_e5m2)
    got = (torch.cat([p[0] for p in parts], 1), parts[0][1], torch.cat([p[2] for p in parts], 0))
    for g, want, bound in zip(got, (y, dx, dw), (mm_bound(xd, wd.t()), mm_bound(gd, wd), mm_bound(gd.t(), xd))):
        assert ((g - want).abs() <= 2 * bound).all(), ((g - want).abs() / bound).max()


def test_per_expert_scales_in_one_pass_equal_per_expert_casts():
    """quantise_rows / quantise_stack (one amax and one cast over every expert) give each expert
    the bits a cast of its own rows / weight alone gives, an expert with no rows included."""
    mod = load()
    g = torch.Generator().manual_seed(5)
    rows = [3, 0, 7, 1]
    x = torch.randn(sum(rows), 16, generator=g) * torch.tensor([1.0, 5.0, 0.01, 30.0]).repeat_interleave(
        torch.tensor(rows), output_size=sum(rows))[:, None]
    w = torch.randn(len(rows), 8, 16, generator=g) * torch.tensor([0.1, 2.0, 0.03, 1.0])[:, None, None]
    for dtype in (mod.E4M3, mod.E5M2):
        for (q, inv), xe in zip(mod.quantise_rows(x, rows, dtype), torch.split(x, rows)):
            if xe.numel():
                q1, inv1 = mod.quantise(xe, dtype)
                assert torch.equal(q.view(torch.uint8), q1.view(torch.uint8)) and torch.equal(inv, inv1)
            else:
                assert q.numel() == 0
        for (q, inv), we in zip(mod.quantise_stack(w, dtype), w):
            q1, inv1 = mod.quantise(we, dtype)
            assert torch.equal(q.view(torch.uint8), q1.view(torch.uint8)) and torch.equal(inv, inv1)

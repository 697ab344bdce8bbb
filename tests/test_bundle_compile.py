"""The bundle's regional torch.compile (templates/fused.py), on CPU with inductor.

* in one process: every region compiles whole (fullgraph) and gives the eager values and
  gradients; the routed experts' region takes any row count with one graph; a region that
  cannot compile fails instead of running eagerly; with compilation off nothing compiles.
* one 4-rank `--check` compiled (ring CP x PP, full and selective recompute, MoE, FSDP2): its
  step 0 runs eagerly under the recompute probe, step 1 compiled, both compared with the
  single-process reference. The other bundle tests launch eagerly (tests/conftest.py).
Compiling costs CPU time: these tests are few and small.
"""
import importlib
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402
from test_bundle_check import TORCHRUN, _env, summary  # noqa: E402

from planner.bundle.codegen import render_bundle  # noqa: E402

TEMPLATES = Path(__file__).resolve().parent.parent / "planner" / "bundle" / "templates"


@pytest.fixture
def fused():
    """templates/fused.py (and the blocks.py it wraps), compilation on; dynamo re-enabled in this
    process (conftest.py disables it for the launched bundles)."""
    sys.path.insert(0, str(TEMPLATES))
    saved = {k: sys.modules.pop(k) for k in ("blocks", "fused") if k in sys.modules}
    try:
        mod = importlib.import_module("fused")
        with torch._dynamo.config.patch(disable=False):
            torch._dynamo.reset()
            mod.enable(True)
            yield mod
            mod.enable(False)
    finally:
        sys.path.remove(str(TEMPLATES))
        for k in ("blocks", "fused"):
            sys.modules.pop(k, None)
        sys.modules.update(saved)
        torch._dynamo.reset()


def _grads(fn, *xs):
    xs = [x.detach().clone().requires_grad_() for x in xs]
    outs = fn(*xs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    g = torch.Generator().manual_seed(1)
    loss = sum((o * torch.randn(o.shape, generator=g)).sum() for o in outs)
    loss.backward()
    return [o.detach() for o in outs] + [x.grad for x in xs]


def _graphs():
    return torch._dynamo.utils.counters["stats"]["unique_graphs"]


def test_regions_compile_whole_and_match_eager(fused, tmp_path, monkeypatch):
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "cache"))
    g = torch.Generator().manual_seed(0)
    r = lambda *s: torch.randn(*s, generator=g)
    B, s, h, hk, d = 2, 8, 4, 2, 8
    cos, sin = r(s, d // 2), r(s, d // 2)
    cases = [
        ("norm", fused.norm, (r(B, s, 16), r(16) + 1), ("rmsnorm",)),
        ("qk_rope", fused.qk_rope, (r(B, s, h, d), r(B, s, hk, d), cos, sin, r(d) + 1, r(d) + 1), ()),
        ("swiglu", fused.swiglu, (r(s, 32), r(s, 32)), ()),
    ]
    for name, region, xs, consts in cases:
        before = _graphs()
        fn = lambda *t, region=region, consts=consts: region(*t, *consts)
        got = _grads(fn, *xs)
        want = _grads(lambda *t, region=region, consts=consts: region.fn(*t, *consts), *xs)
        assert region.compiled is not None and _graphs() > before, f"{name}: nothing compiled"
        for a, b in zip(got, want):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6, msg=f"{name}: compiled differs from eager")
    # the routed experts: a new row count every step, one dynamic graph
    before = _graphs()
    for rows in (5, 9, 12):
        a, b = r(rows, 32), r(rows, 32)
        for x, y in zip(_grads(fused.expert_swiglu, a, b), _grads(fused.expert_swiglu.fn, a, b)):
            torch.testing.assert_close(x, y, rtol=1e-5, atol=1e-6)
    assert _graphs() - before == 1, "the experts' region recompiled for a new row count"


def test_a_region_that_cannot_compile_fails_and_off_means_eager(fused):
    def breaks(x):
        torch._dynamo.graph_break()
        return x * 2
    with pytest.raises(Exception, match="graph_break|graph break|Graph break"):
        fused.Region(breaks)(torch.ones(3))
    fused.enable(False)                       # train.py --no-compile
    region = fused.Region(breaks)
    assert torch.equal(region(torch.ones(3)), torch.full((3,), 2.0)) and region.compiled is None


@pytest.mark.full_matrix
def test_check_passes_compiled_cp_pp_recompute_moe(tmp_path):
    import subprocess
    b = render_bundle(plan(cp=2, pp=2, recompute=[(1, 0), (0, 1)]), tmp_path / "b")
    # compiled, into the bundle's own cache (whatever an earlier test left in the environment)
    env = {k: v for k, v in _env().items() if k not in ("TORCH_COMPILE_DISABLE", "TORCHINDUCTOR_CACHE_DIR")}
    p = subprocess.run([*TORCHRUN, "--standalone", "--nproc-per-node=4", "train.py", "--check", "--device", "cpu"],
                       cwd=b, env=env, capture_output=True, text=True, timeout=900)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and "CHECK PASS" in out, summary(out)
    cache = b / ".compile-cache"
    assert cache.is_dir() and any(cache.rglob("*.py")), "the run compiled nothing (no inductor output)"

"""Regional torch.compile: the local math of every block compiled, its communication left eager.

torchtitan compiles each TransformerBlock whole with fullgraph=True (torchtitan 0.3.0
distributed/compile.py:69-70, apply_compile). This bundle's blocks call their collectives by
hand (comms.py: tensor-parallel gathers and reduce-scatters inside autograd Functions, the
ring's P2P exchange, the MoE all-to-all with data-dependent splits) and FSDP2's hooks run
around them; dynamo breaks the graph at each of those (measured: a whole-layer compile of the
tiny MoE plan graph-broke in FSDP2's _fsdp_common.py and moe/dispatch.py and cost ~5x the
eager CPU time). So the regions compiled here are the pieces of every block that lie between
two communications and that eager PyTorch runs one kernel per op:

  norm       RMSNorm / LayerNorm of the residual stream (each layer's two, the final one, and
             the one layernorm recompute runs again inside comms.norm_column_parallel)
  qk_rope    the per-head q/k norm and the rotate-half RoPE of q and k
  swiglu     silu(a) * b of the dense MLP, the shared expert and the routed experts

each with fullgraph=True (a region that does not compile fails the run instead of falling
back quietly). The attention core, the GEMMs, the collectives and the MoE routing / dispatch
stay eager: the attention core is already one fused kernel (cp/kernels.py), the GEMMs are
library calls either way, and the routing and dispatch have data-dependent shapes around
collectives. The routed experts' row count changes every step: their region is compiled with
dynamic shapes from the start (one graph for every row count).

`enable(True)` turns compilation on (train.py, unless --no-compile); the dry run and the
--check reference never compile. Under --check, step 0 runs eagerly (the recompute probe is a
TorchDispatchMode, which torch.compile does not trace) and step 1 compiled, both compared. The compiled code is cached across runs in
TORCHINDUCTOR_CACHE_DIR (default: .compile-cache beside this file) so a second launch skips
most of the compile time.
"""
import os

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode

import blocks

_ON = [False]


def enable(on: bool):
    """Compile the regions (True) or run them eagerly (False)."""
    _ON[0] = bool(on)
    if on:
        os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR",
                              os.path.join(os.path.dirname(os.path.abspath(__file__)), ".compile-cache"))


def enabled() -> bool:
    return _ON[0]


class Region:
    """fn, run through torch.compile(fullgraph=True) while compilation is on (compiled on first use)."""

    def __init__(self, fn, dynamic=None):
        self.fn, self.dynamic, self.compiled = fn, dynamic, None

    def __call__(self, *args):
        # under a TorchDispatchMode (--check's recompute probe, check_plan.RecomputeProbe, on
        # step 0) torch.compile refuses to trace ("non-infra torch dispatch mode present"): eager
        # TORCH_COMPILE_DISABLE=1 (torch._dynamo.config.disable): torch's own switch, eager too
        if not _ON[0] or _get_current_dispatch_mode() is not None or torch._dynamo.config.disable:
            return self.fn(*args)
        if self.compiled is None:
            self.compiled = torch.compile(self.fn, fullgraph=True, dynamic=self.dynamic)
        return self.compiled(*args)


def _qk_rope(q, k, cos, sin, q_norm, k_norm):
    # q: [B, s, h, d], k: [B, s, hk, d]; q_norm / k_norm: [d] or None (no qk norm)
    if q_norm is not None:
        q, k = blocks.norm(q, q_norm, "rmsnorm"), blocks.norm(k, k_norm, "rmsnorm")
    return blocks.apply_rope(q, cos, sin), blocks.apply_rope(k, cos, sin)


norm = Region(blocks.norm)
qk_rope = Region(_qk_rope)
swiglu = Region(blocks.swiglu)
expert_swiglu = Region(blocks.swiglu, dynamic=True)

"""foldplan's own bundle (planner/bundle) as a target: it runs every layout the planner's rule table
allows (per-stage folding, any rank order, per-stage recompute); its table's one rule of its own is
its dispatcher (all-to-all, no EP overlap); what it fixes besides are its search defaults and the
attention kernel it runs."""
from __future__ import annotations

from planner.engines.shared import add_cp_comm, add_dispatch
from planner.layout.rules import RuleTable

RULES = RuleTable()
# the bundle's moe/dispatch.py moves tokens by all-to-all; it overlaps no EP communication
add_dispatch(RULES, "bundle", ("alltoall",), False)

# the modules the bundle's own recompute frees, each checked against the cost model's term by
# its --dry-run (moe_act keeps the gate/up outputs and recomputes the activation in backward)
MODULES = ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj")

# the bundle's own modules are eager PyTorch, one kernel per op (bundle/templates/blocks.py: RMSNorm
# in fp32, rotate-half RoPE, SwiGLU; GQA's repeat_interleave; no torch.compile); eager
# F.cross_entropy on .float() logits keeps 12 bytes per logit
DEFAULTS = {"master": "fp32", "recompute_modules": MODULES, "target": "bundle", "kernels": "eager",
            "logit_bytes": 12, "cp_comm": "p2p", "cp_balance": "headtail"}

# the bundle's ring (templates/cp/attention.py, cp/layout.py): K/V passed round the ring beside each
# block's attention, on 2 * cp_ring zig-zag chunks
add_cp_comm(RULES, "the bundle", ("p2p",))


def attention_kernel(gpu) -> str:
    """The attention kernel the bundle runs on ``gpu``: PyTorch's flash kernel, FlashAttention-2, in
    the ring's blocks (bundle/templates/cp/kernels.py: aten._scaled_dot_product_flash_attention) and
    in local attention (cp/attention.py pins SDPA's flash backend on CUDA). Costed with the preset's
    FlashAttention-2 curve where it has one; a preset without one (no published FA2 figures for
    that GPU) is costed with its fused curve, and the plan says so (report.header)."""
    return "flash2" if gpu.flash2_attention_efficiency is not None else "fused"

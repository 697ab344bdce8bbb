"""foldplan's own bundle (planner/bundle) as a target: it runs every layout the planner's rule table
allows (per-stage folding, any rank order, per-stage recompute); its table's one rule of its own is
its dispatcher (all-to-all, no EP overlap); what it fixes besides are its search defaults and the
attention kernel it runs."""
from __future__ import annotations

from planner.engines.shared import add_cp_comm, add_dispatch
from planner.layout.rules import RuleTable
from planner.specs.domains import CUDNN_ATTENTION_ARCHS

RULES = RuleTable()
rule = RULES.rule
# the bundle's moe/dispatch.py moves tokens by all-to-all; it overlaps no EP communication
add_dispatch(RULES, "bundle", ("alltoall",), False)

# the modules the bundle's own recompute frees, each checked against the cost model's term by
# its --dry-run (moe_act keeps the gate/up outputs and recomputes the activation in backward)
MODULES = ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj")

# the bundle compiles every block's local math by default (bundle/templates/fused.py: regional
# torch.compile of the norms, q/k norm + RoPE and the SwiGLU activations of the dense MLP, the
# shared and the routed experts; train.py --no-compile runs them eagerly, one kernel per op, and
# is slower than the plan): the cost model's fused elementwise kernels (formulas.py, eager = 0).
# Two eager copies stay that the fused setting does not price: GQA's repeat_interleave of K/V
# (cp/attention.py, 2 g d_h read + 2 a d_h written per token where kv heads < heads) and the
# attention output's transpose before the wo GEMM (a d_v per token, read and written); eager
# F.cross_entropy on .float() logits (train.py loss_fn, not compiled) keeps 12 bytes per logit; the
# combine multiplies the bf16 expert rows by their weights (moe/dispatch.py, dispatch_combine's last
# line), which autograd keeps: 2 bytes per routed-output element; the experts run torch._grouped_mm
# on GPUs that have it (moe/experts.py)
DEFAULTS = {"routed_output_bytes": 2.0, "expert_gemm": "torch",
            "master": "fp32", "recompute_modules": MODULES, "target": "bundle", "kernels": "fused",
            "logit_bytes": 12, "cp_comm": "p2p", "cp_balance": "headtail", "fp8_library": "bundle"}

# the linear layers' precisions the bundle builds (bundle/templates/fp8.py: torchao's tensorwise
# recipe in our own code, each linear casting its own input, bf16 tensor-parallel all-gathers)
PRECISIONS = ("bf16", "fp8-tensorwise")


def precision_error(precision: str):
    """One line when the bundle does not build `precision`'s linears, else None."""
    if precision in PRECISIONS:
        return None
    return (f"precision: the bundle builds {' and '.join(PRECISIONS)} linears, not {precision}; plan "
            f"{precision} for an engine (--target megatron | torchtitan | olmo-core)")

# the bundle's ring (templates/cp/attention.py, cp/layout.py): K/V passed round the ring beside each
# block's attention, on 2 * cp_ring zig-zag chunks
add_cp_comm(RULES, "the bundle", ("p2p",))


def model_defaults(model, gpu=None) -> dict:
    """The attention kernel the bundle runs on `gpu` (its search prices that one)."""
    return {} if gpu is None else {"attention_kernel": attention_kernel(gpu)}


def attention_caveat(gpu, kernel: str):
    """Where the bundle runs FlashAttention-2 (no cuDNN attention on this architecture) but `gpu`'s preset has
    no curve for it, so the step is priced with the fused curve: one line saying so, else None."""
    if kernel == "fused" and gpu.flash2_attention_efficiency is None and gpu.arch not in CUDNN_ATTENTION_ARCHS:
        return (f"the bundle runs FlashAttention-2, which the {gpu.name} preset has no curve for: the step may "
                f"be optimistic")
    return None


@rule("target.attention_layers", "degree", "world", "the bundle builds full causal attention in every layer")
def _(x, pr):
    # bundle/templates/cp/attention.py and blocks.py: causal SDPA over the whole (or ring-passed)
    # sequence, no window, chunk or indexer; the cost model prices those kinds as the engines run them
    m = pr.model
    n = sum(k != "full" for k in (m.layer_attention or ()))
    if n or m.sparse_attention_topk:
        what = (f"{n} sliding / chunked layers" if n else
                f"sparse-attention indexer (top-{m.sparse_attention_topk})")
        return (f"the bundle builds full causal attention in every layer, not the model's {what}; "
                f"plan for an engine (--target megatron | torchtitan)")


def attention_kernel(gpu) -> str:
    """The attention kernel the bundle runs on ``gpu``, in the ring's blocks (bundle/templates/
    cp/kernels.py) and in local attention (cp/attention.py pins the same SDPA backend): cuDNN's fused
    attention on Hopper / Blackwell (aten._scaled_dot_product_cudnn_attention), costed with the
    preset's fused curve; FlashAttention-2 before (aten._scaled_dot_product_flash_attention), costed
    with the preset's FlashAttention-2 curve where it has one; a preset without one (no published FA2
    figures for that GPU) is costed with its fused curve, and the plan says so (report.header)."""
    if gpu.arch in CUDNN_ATTENTION_ARCHS:
        return "fused"
    return "flash2" if gpu.flash2_attention_efficiency is not None else "fused"

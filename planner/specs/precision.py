"""What each precision (planner.specs.kinds.PRECISIONS) runs in FP8, what it adds and what it stores.

One `Recipe` per precision, read by the cost model's values (planner.costmodel.values), the readers
and the exporters. Which GEMMs run in FP8, per engine (the same set in the three):
  * the linear layers' fprop, dgrad and wgrad GEMMs: attention q/k/v (MLA's down- and
    up-projections) and output projections, the FFN and the routed and shared experts. Megatron-Core:
    every TE linear under the fp8 autocast (megatron/core/fp8_utils.py, get_fp8_context),
    `fp8_wgrad` True by default (megatron/core/transformer/transformer_config.py:609 in 0.19.2);
    torchtitan 0.3: Float8LinearConverter swaps every Linear whose dims divide by 16 and that its
    filter does not name (torchtitan/components/quantization/float8.py:139-161), the grouped experts
    through Float8GroupedExpertsConverter (same file :212-255); OLMo-core: torchao's Float8Linear on
    the blocks' linears (olmo_core/float8/ao.py).
  * in BF16 everywhere: the attention core (Megatron's fp8_dot_product_attention is off by default,
    transformer_config.py:618), the router (Megatron's TopKRouter is a torch matmul, not a TE
    linear; torchtitan's gate has E columns, below its 16-multiple filter for E < 16 and named in
    its MoE configs' filter_fqns), the embedding (a gather) and the output head (Megatron's
    output_layer is a tensor_parallel ColumnParallelLinear: FP8 only with fp8_output_proj under
    mxfp8, transformer_config.py:612; torchtitan's configs filter "output").

Bytes per element of the quantize / cast / transpose kernels (HBM read + write of one tensor that
enters an FP8 GEMM: bf16 read = 2, each fp8 copy written = 1; scale bytes per element: fp32 per
128 elements = 4/128, e8m0 per 32 = 1/32):
  * delayed (TE): one fused cast-transpose kernel reads bf16 once and writes the row-major copy for
    fprop / dgrad and the transposed copy the Hopper FP8 GEMM needs for wgrad (cuBLASLt FP8 takes
    only the TN layout), the amax taken in the same pass for the next step's scale: 2 + 1 + 1 = 4.
  * tensorwise (current scaling): the scale must be known before the cast, so the amax is a
    separate full read first (TE's Float8CurrentScaling: compute_amax, then cast-transpose;
    torchao's tensorwise: tensor_to_scale then to_fp8): 2 + 4 = 6.
  * rowwise (torchao): each operand is scaled along the GEMM's contraction axis, which differs
    between fprop / dgrad / wgrad, so every tensor is cast twice from bf16 (the input x along rows
    for fprop and along tokens for wgrad; dy along rows for dgrad, along tokens for wgrad; the
    weight along each axis for fprop and dgrad), each cast a read + write with its per-row amax in
    the same pass: 2 x (2 + 1) = 6, and the bf16 input, not an fp8 copy, is saved for backward.
  * blockwise (1x128 / 128x128) and mxfp8 (1x32): the amax is per block, fused with the cast; a
    row-wise and a column-wise copy (different block directions), each with its scales:
    2 + 2 x (1 + s) where s = 4/128 (fp32 per 128) or 1/32 (e8m0 per 32).
What is stored in FP8: Transformer Engine saves the linear layers' inputs as the fp8 copy wgrad
needs (1 byte instead of 2); torchao's Float8Linear saves its bf16 input and weight and casts them
again in backward (torchao/float8/float8_linear.py, matmul_with_hp_or_float8_args: save_for_backward
of the high-precision tensors), so under torchao the saved inputs stay bf16 (torchtitan's own
measurement agrees: 77.0 -> 76.8 GiB with Float8, benchmarks/llama3_h100_202412_torchtitan.md Table 1);
Transformer Engine caches the fp8 weight and its transpose /
column copy beside the bf16 weight across micro-batches (2 bytes per linear weight element,
quantized once per step: the first micro-batch), torchao casts the weight every forward and keeps
no copy. FP8 parameter all-gather (Megatron --fp8-param-gather, torchtitan / torchao
enable_fsdp_float8_all_gather): the gathered compute weight is the fp8 copy, so the parameter
all-gather moves 1 byte per linear weight element instead of 2.
Not counted: the amax reductions' collectives (Transformer Engine reduces every amax of a step in one
fused all-reduce of a few KiB, torchao per tensor across the TP / FSDP group: latency, not bandwidth),
and casts outside the linear layers (DeepEP's FP8 dispatch; FP8 attention, off by default).
"""
from __future__ import annotations

from dataclasses import dataclass

from planner.specs.kinds import MX_PRECISIONS, PRECISIONS

SCALE_FP32_128 = 4 / 128        # one fp32 scale per 128 elements (DeepSeek-V3 sec. 3.3.2: 1x128 / 128x128 tiles)
SCALE_E8M0_32 = 1 / 32          # one e8m0 scale per 32 elements (OCP Microscaling Formats v1.0, sec. 5)


@dataclass(frozen=True)
class Recipe:
    """One precision: what its linear GEMMs run in and what its FP8 casts cost and keep."""
    name: str
    fp8: bool                   # the linear layers' GEMMs run in FP8 (fprop, dgrad and wgrad)
    blackwell_only: bool        # needs the MX tensor cores (sm_100)
    quant_bytes: float          # HBM bytes per element of every tensor cast for an FP8 GEMM (module doc)
    saved_input_bytes: float    # bytes per saved linear-input element (bf16: 2)
    weight_cache_bytes: float   # Transformer Engine's cached fp8 weight copies per linear weight element
    wgrad_ratio: float          # wgrad GEMM rate / fprop GEMM rate (1: the same kernel family)
    doc: str


_TE, _AO = "Transformer Engine", "torchao"
RECIPES = {r.name: r for r in (
    Recipe("bf16", False, False, 0.0, 2.0, 0.0, 1.0, "bf16 GEMMs"),
    Recipe("fp8-tensorwise", True, False, 6.0, 1.0, 2.0, 1.0,
           "per-tensor current scaling: an amax pass, then one cast-transpose"),
    Recipe("fp8-delayed", True, False, 4.0, 1.0, 2.0, 1.0,
           "per-tensor delayed scaling: one cast-transpose with the amax fused"),
    Recipe("fp8-rowwise", True, False, 6.0, 2.0, 0.0, 1.0,
           "torchao rowwise: each tensor cast twice from bf16 along two axes; bf16 inputs saved"),
    # DeepSeek-V3's own profile (shared/REFERENCE.md): FP8 wgrad 490-560 TFLOP/s against fprop ~980
    # and dgrad ~1,005 on the same H800 rank: 525 / 990 = 0.53 (DeepGEMM's k-grouped wgrad kernels)
    Recipe("fp8-blockwise", True, False, 2 + 2 * (1 + SCALE_FP32_128), 1.0, 2.0, 525 / 990,
           "DeepSeek-V3 1x128 / 128x128 tiles: row- and column-wise copies with fp32 tile scales"),
    Recipe("mxfp8", True, True, 2 + 2 * (1 + SCALE_E8M0_32), 1.0 + SCALE_E8M0_32, 2.0, 1.0,
           "OCP MXFP8, 1x32 blocks with e8m0 scales: row- and column-wise copies (Blackwell)"),
)}
assert tuple(RECIPES) == PRECISIONS and all(RECIPES[k].blackwell_only for k in MX_PRECISIONS)


def recipe(name: str) -> Recipe:
    return RECIPES[name]


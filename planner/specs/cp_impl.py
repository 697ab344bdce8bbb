"""Context parallelism as each engine runs it: what the K/V traffic of each CP implementation
(`planner.specs.kinds.CP_COMMS`) overlaps, the attention kernel torchtitan 0.3's CP calls, and the
causal load of each balancing scheme (`CP_BALANCES`). The cost model binds these values
(`planner.costmodel.values`); the formulas are `planner.costmodel.cp_terms`.

Sources, read at the pinned versions in this repository's venv:
* torch 2.13 torch/distributed/tensor/experimental/_context_parallel/_attention.py
  - _AllToAllRotater (253-270): permute_tensor to the next rank, waited at the next ring step:
    each pass hides behind one block's attention (p2p);
  - _AllGatherRotater (273-300): one all_gather_single at the first exchange, waited at step 1,
    so it hides only behind the first (diagonal) block; _templated_ring_attention_backward
    (488-655) re-gathers K/V the same way and returns dK/dV with an ALL_TO_ALL rotater (520) in
    the accumulation dtype, fp32 when _cp_options.convert_to_f32 (75, default True) (ag-ring);
  - _cp_custom_ops.py flex_cp_allgather (8-20) waits on both all-gathers before FlexAttention
    runs; its backward (37-51) waits on two reduce-scatters; the gathered K/V are the inputs
    flex_attention saves for its backward (ag-flex);
  - _is_causal_behavior (83-100): without load balancing a rank skips the blocks from later
    ranks, so the last rank runs every block: the ring is paced by it (balance none).
* torchtitan 0.3.0 distributed/context_parallel/api.py:57-78 (FlexAttention: K/V all-gathered
  by flex_cp_allgather), models/common/config_utils.py:83-101 (language models run flex,
  flex_flash or varlen; "sdpa is no longer supported for language models"),
  models/llama3/model.py:75-81 (varlen refuses CP): so 0.3's CP is ag-flex;
  config/configs.py:235 (context_parallel_load_balancer default "headtail").
* Transformer Engine AttnFuncWithCPAndKVAllGather (transformer_engine/pytorch/attention/
  dot_product_attention/context_parallel.py, NVIDIA/TransformerEngine; TE is not installed here,
  read from its public source, no pinned line): gather_along_first_dim of k and v before the
  attention loop, again in backward, reduce_scatter_along_first_dim of dK/dV after it (ag-te).
* OLMo-core 3.0.0 nn/attention/flash_attn_api.py:324-353: the zig_zag strategy calls
  ring_flash_attn.zigzag_ring_flash_attn_func (p2p, FlashAttention-2 kernel per block).
* FlexAttention's kernel: Dong et al. 2024, "Flex Attention: A Programming Model for Generating
  Optimized Attention Kernels" (arXiv 2412.05496), abstract: on H100 its forward averages 85% of
  FlashAttention-3 and its backward 76%. Applied to the GPU preset's fused curve (FlashAttention-3
  / cuDNN on Hopper), weighted by the FLOPs of forward (1) and backward (2). What the paper leaves
  open, resolved here: the ratio's dependence on block length (taken as constant: the preset's
  half block is kept) and other GPUs (the H100 ratio for every preset; on A100 the paper reports
  90% / 85% of FlashAttention-2).
"""
from __future__ import annotations

FLEX_FWD_OF_FUSED = 0.85     # arXiv 2412.05496, abstract (H100, forward, vs FlashAttention-3)
FLEX_BWD_OF_FUSED = 0.76     # the same, backward
# one efficiency over forward + backward: time = F / 0.85 + 2 F / 0.76 against 3 F at the fused rate
FLEX_OF_FUSED = 3 / (1 / FLEX_FWD_OF_FUSED + 2 / FLEX_BWD_OF_FUSED)

# per CP implementation, the symbols the cost model reads (planner.costmodel.cp_terms):
#   q_p2p  ring passes, each behind one block (1 for p2p)
#   q_agr  all-gather behind the first block, fp32 dK/dV ring passes (1 for ag-ring)
#   n_ag   exposed all-gathers / reduce-scatters of the whole K/V per layer, forward + backward
#          (ag-te: forward gather, backward gather + reduce-scatter; ag-flex: gather, reduce-scatter)
#   q_sv   the gathered K/V is saved for backward (activation memory)
CP_TERMS = {
    "p2p": dict(q_p2p=1, q_agr=0, n_ag=0, q_sv=0),
    "ag-ring": dict(q_p2p=0, q_agr=1, n_ag=0, q_sv=0),
    "ag-te": dict(q_p2p=0, q_agr=0, n_ag=3, q_sv=0),
    "ag-flex": dict(q_p2p=0, q_agr=0, n_ag=2, q_sv=1),
}
# (its keys are planner.specs.kinds.CP_COMMS, in order: tests/test_cp_impl.py; this module imports
# nothing of foldplan, so that GPUSpec can read FLEX_OF_FUSED)
# the causal load of the balancing schemes (the keys of planner.specs.kinds.CP_BALANCES)
_BALANCED = {"headtail": True, "none": False}


def causal_share(balance: str, rank: int, c: int) -> float:
    """Rank `rank`'s share of the causal triangle (S^2/2 query-key pairs) when the sequence is cut
    over `c` CP ranks: headtail gives rank r chunks r and 2c-1-r of 2c (each chunk k of 2c carries
    (2k+1)/(4c^2) of the triangle: ((k+1)^2 - k^2) / (2c)^2), none gives it chunk r of c
    ((2r+1)/c^2)."""
    if balance not in _BALANCED:
        raise ValueError(f"cp_balance {balance!r} must be one of {', '.join(_BALANCED)}")
    if not _BALANCED[balance]:
        return (2 * rank + 1) / c ** 2
    return ((2 * rank + 1) + (2 * (2 * c - 1 - rank) + 1)) / (4 * c ** 2)


def causal_imbalance(balance: str, c: int) -> float:
    """The slowest rank's causal attention over the mean (1 / c): headtail 1, none (2c - 1) / c."""
    return max(causal_share(balance, r, c) for r in range(c)) * c

"""EP dispatch and combine as the dispatchers run them, and the part a schedule hides.

Written in sympy; `planner.costmodel.formulas` hands in its per-layer terms (`ep_terms`) and prices a
MoE layer's EP communication with what comes back. Per MoE layer per micro-batch,
seconds. Four ops move tokens per layer and micro-batch: dispatch and combine forward, and their
backward (combine-backward is a dispatch, dispatch-backward a combine): each one `x_*` below.

Dispatchers (planner.specs.kinds.DISPATCHERS; one flag each, d_a2a / d_ag / d_dep / d_hep, 1 when
the layout may use it; the search binds every dispatcher its target runs and takes the cheapest per
layout -- exact per degree tuple: the dispatcher changes no memory term of the model):

* alltoall (Megatron's AllToAll dispatcher, torchtitan's and OLMo-core's all-to-all): every
  (token, expert) row leaves its rank once per expert on another rank (`formulas.X_ep`, NCCL at the
  preset's bus efficiency, the intra- and inter-node shares of the EP peers priced apart).
* allgather (Megatron's AllGather dispatcher, token_dispatcher.py MoEAllGatherTokenDispatcher): every
  token is all-gathered over the EP group in forward and the expert output reduce-scattered back (and
  the reverse in backward): (M_e - 1) tokens' hidden states per token, whatever top-k; a ring that
  leaves the node runs at the inter-node link.
* deepep / hybridep (Megatron's flex dispatcher; DeepEP's normal kernels and NVIDIA's HybridEP):
  a token goes once to each GPU that holds one of its experts (not once per expert), and once to
  each other node (RDMA to the peer of the same local index, forwarded over NVLink): with experts
  spread evenly and top-k uniform, a token reaches 1 - (1 - 1/n)^K of n places. The RDMA and NVLink
  legs are pipelined: an op takes the slower of the two. Their rates: DeepEP's README (normal kernels,
  H800 with ~160 GB/s NVLink and CX7 400 Gb/s ~50 GB/s RDMA, DeepSeek-V3 shape, after the 2025-04-22
  update): intranode EP8 dispatch 153 / combine 158 GB/s; internode EP16 43 / 43, EP32 58 / 57, EP64
  51 / 50 GB/s. The NVLink leg runs at the link, not at the kernels' SMs: 153-158 of the H800's ~160
  GB/s achievable, 0.97 of the preset's link rate x bus efficiency; on H100 (twice the NVLink, the
  same SMs) Megatron's MoE-layer CI measures DeepEP and HybridEP 17-19% faster than the all-to-all on
  its fine-grained proxy (benchmarks/fidelity_moe.py), which the H800's 155 GB/s could not give.
  RDMA at the mean, 50.3 of 50 GB/s, i.e. the NIC's line rate (the ratio, capped at 1, times the
  preset's inter-node rate). Per op, each peer message adds one hop latency (alpha) on each leg. HybridEP
  publishes no bandwidth table: its rates are taken as DeepEP's (the same transport: NVLink copies
  and RDMA through the same NIC); what is assumed is said in `planner.specs.kinds.DISPATCHERS`.

Overlap (o_ep = 1: Megatron's 1F1B A2A overlap, --overlap-moe-expert-parallel-comm). One layer's
forward of micro-batch i+1 runs beside its backward of micro-batch i on two streams
(megatron/core/models/common/model_chunk_schedule_plan.py:231-233, megatron-core 0.19.2):

    comm stream:    combine_bwd      | dispatch_fwd -> dispatch_bwd   | combine_fwd
    compute stream: pre_dispatch_fwd | mlp_bwd -> mlp_bwd_dw -> mlp_fwd | pre_dispatch_bwd

so each op hides behind one window: the forward attention (+ router), the expert backward, the
expert forward, the attention backward; an op longer than its window is exposed by the difference.
--delay-wgrad-compute (mlp_bwd_dw) moves the expert weight-gradient GEMMs from the window of
dispatch_fwd to that of dispatch_bwd: the same compute across two windows of equal communication,
so the window model prices it the same (its benefit, a shorter critical path into the next layer's
backward, is not modelled; the flag is read and written, not priced). While an op hides, the kernels
beside it share the GPU with it: its SMs (N_sm - n of N_sm left to the compute: DeepSeek-V3's profile
gives 20 of 132 SMs to DeepEP), and HBM bandwidth and L2 as well. Each hidden second costs the
larger of n / (N_sm - n) and the measured cost of Megatron's overlap (planner.specs.kinds.
OVERLAP_CONTENTION: 0.596 s per second hidden, from a published Nsight comparison of one run with the
overlap off and on). NCCL's all-to-all takes its channels' SMs too (n_a2a; the SM counts:
planner.specs.kinds.DISPATCHER).
Without the overlap the dispatcher's SMs idle the compute only while it runs, which the exposed
time already counts.
"""
from __future__ import annotations

import sympy as sp

from planner.costmodel.symbols import K, Me, Nsm, W_in, W_out, alpha, f_off, h, imb, ts

# flags: the dispatchers the layout may use (1/0), overlap on, and the SMs each dispatcher takes
d_a2a, d_ag, d_dep, d_hep, o_ep = sp.symbols("d_a2a d_ag d_dep d_hep o_ep", nonnegative=True)
n_a2a, n_dep, n_hep = sp.symbols("n_sm_a2a n_sm_dep n_sm_hep", nonnegative=True)
W_nvl_x, W_rdma_x = sp.symbols("W_nvl_x W_rdma_x", positive=True)   # DeepEP-class achieved rates
rho_ov = sp.Symbol("rho_ov", nonnegative=True)    # seconds the overlap costs per second hidden (kinds.OVERLAP_CONTENTION)
_UNUSED = 1e6                                                          # seconds: a dispatcher not allowed

peers_node = 1 + (1 - f_off) * (Me - 1)                      # EP members on one node (this one included)
nodes = Me / peers_node                                      # nodes the EP group spans
reach = lambda n: (n - 1) * (1 - (1 - 1 / n) ** K)          # other places (of n) a token's top-k reach


def op_times(x_a2a, n_tok):
    """(all-to-all, all-gather, DeepEP-class) seconds of one op, given formulas' all-to-all op."""
    tok = n_tok / ts                                         # tokens entering one rank's MoE block
    off = sp.ceiling(f_off)                                  # 1 when the group leaves the node
    x_ag = 2 * tok * h * (Me - 1) * (off / W_out + (1 - off) / W_in) + (Me - 1) * alpha
    x_dep = (sp.Max(2 * h * tok * imb * reach(Me) / W_nvl_x, 2 * h * tok * imb * reach(nodes) / W_rdma_x,
                    evaluate=False)
             + (nodes + peers_node - 2) * alpha)
    return x_a2a, x_ag, x_dep


def ep_terms(x_a2a, n_tok, c_attn, c_mlp, t_sort=0):
    """(seconds of EP communication per MoE layer per micro-batch as it runs; the same without the
    overlap; a fully recomputed layer's repeated forward): the cheapest dispatcher the flags allow.
    `t_sort`: the forward time of the row sorts by local expert that the all-to-all dispatcher makes
    and the others do not (formulas.M_sort); forward + backward it costs 2 t_sort (a row copy's
    backward is the inverse copy), charged to the all-to-all choice on the compute stream."""
    windows = (c_attn, 2 * c_mlp, c_mlp, 2 * c_attn)

    def exposed(x, n_sm, can_overlap):
        hidden = sum(sp.Min(x, w, evaluate=False) for w in windows)
        over = 4 * x - hidden + hidden * sp.Max(n_sm / (Nsm - n_sm), rho_ov, evaluate=False)
        o = o_ep if can_overlap else 0
        return (1 - o) * 4 * x + o * over

    xa, xg, xd = op_times(x_a2a, n_tok)
    # the all-gather dispatcher runs no overlap (transformer_config.py:2683-2686, megatron-core 0.19.2)
    choices = ((d_a2a, xa, n_a2a, True, 1), (d_ag, xg, n_a2a, False, 0), (d_dep, xd, n_dep, True, 0),
               (d_hep, xd, n_hep, True, 0))
    run = sp.Min(*(exposed(x, n, ov) + 2 * s * t_sort + (1 - f) * _UNUSED for f, x, n, ov, s in choices),
                 evaluate=False)
    plain = sp.Min(*(4 * x + 2 * s * t_sort + (1 - f) * _UNUSED for f, x, n, ov, s in choices), evaluate=False)
    # full recompute repeats the forward's two ops, never overlapped (Megatron refuses the overlap with
    # full recompute: transformer_config.py:2688-2690), and the forward's sorts
    rc = sp.Min(*(2 * x + s * t_sort + (1 - f) * _UNUSED for f, x, n, ov, s in choices), evaluate=False)
    return run, plain, rc

"""The cost model's formulas: every one written once, in sympy.

Notation (the scaling-book way: short symbols defined once; DESIGN.md's axis names)

    model   h hidden, a heads, g kv heads, d_h head dim, V vocab, F dense FFN width,
            n_m matrices per FFN (3 gated / 2 plain), E experts, K top-k, F_e expert width,
            E_s shared experts of width F_s; MLA: r_q, r_kv latent ranks, d_r rope dims,
            d_n nope dims, d_v value dims
    shape   S sequence, b micro-batch, m micro-batches per step
    layout  t tp, c cp, d dp, p pp, v vpp, t_e etp, M_e ep, D_e edp, c_u / c_r the Ulysses
            and ring parts of c, t_s = t under sequence parallel else 1, t_g = min(t, g)
    sharding z_1, z_2, z_3: the sharding is at least zero1 / zero2 / zero3 (0 or 1);
            mu = 1 when the sharded parameter is the fp32 master (FSDP2), 0 when bf16
            weights sit beside an fp32 master (Megatron); Z_d = d*c and Z_e = D_e the
            dense and expert shard degrees; b_g gradient bytes, b_r reduce bytes
    cluster Pk peak FLOP/s, eta GEMM efficiency, eta_a attention efficiency, W_x bandwidth
            of the links group x spans (bytes/s, one direction), alpha hop latency,
            W_hbm achieved HBM bandwidth of memory-bound (elementwise) kernels
    stage   the integers one pipeline stage is described by (`STAGE_INTS`): n_d dense and
            n_m MoE layers, f_d / f_m of them fully recomputed, r_d_<mod> / r_m_<mod> dense
            / MoE layers with module <mod> recomputed, e_f / e_l first / last stage, h_m
            the stage holds a MoE layer; u_1 = 1 when p == 1

Sources: activation memory from Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
Transformer Models", sec. 4: sbh(34 + 5as/h) per layer, with the TP / SP / selective / full variants)
generalised term by term to GQA, SwiGLU, MoE and fused attention; sharded bytes per parameter from ZeRO
(Rajbhandari et al. 2020, sec. 5) with the engines' variants (Megatron's fp32 main grads: 6 + 12/d; FSDP2's
fp32 sharded master); FLOPs as 6 N per token plus the causal attention term (Kaplan et al. 2020); pipeline in-
flight micro-batches and the interleaved bubble from Narayanan et al. 2021; recompute modules as Megatron-LM
names them (--recompute-modules).

Everything is per GPU: bytes and seconds. Per-layer formulas first, then the per-stage sums (`STAGE`), which
are linear in the stage integers; `planner.costmodel.compile` turns both into numeric functions and into the
solver's coefficients.
"""
from __future__ import annotations

import sympy as sp

from planner.costmodel.names import COMM_TERMS, DENSE_MODULES, MEMORY_TERMS, MOE_MODULES
from planner.costmodel.symbols import (a, a8, alpha, b, bg, bl, br, by, c, cr, cu, d_ix, dh, dn, dr, drop, dv, E, eager,
    ef, el, Es, eta, eta_a, eta_g, F, f8, f_off, fd_, Fe, flash, fmo_, Fs, g, g8_mb, g8_step, h, hm, imb, imbm, K, k_f,
    La0, lb, lin_gemms, lin_sum, lnb, Me, mla, n_ix, nd_, nm, nmo_, Pk, q8, qkn, qlora, r_d, r_m, rb, rkv, rq, S,
    s8, sx, t, T_gemm, T_mm, T_mm8, te, tg, tied, ts, u1, V, v, w8_bytes, W_cr, W_cu, W_dpcp, W_edp, W_etp,
    W_hbm, W_in, W_out, W_pp, W_tp, z2, z3, Zd, Ze)
from planner.costmodel.cp_terms import (balance as cp_balance, recompute_exposed as cp_recompute_exposed,  # noqa: E501
                                        ring_exposed as cp_ring_exposed, saved_kv as cp_saved_kv,
                                        transient_kv as cp_transient_kv)
from planner.costmodel.dispatch import ep_terms

# --------------------------------------------------------------------------- per layer
T_ew = lambda nbytes: nbytes / W_hbm              # memory-bound (elementwise) kernels: bytes over achieved HBM

s_loc = S / c                       # tokens of one sequence on one rank
n_tok = s_loc * b                   # tokens per micro-batch on one CP rank
dq = (1 - mla) * dh + mla * (dn + dr)       # query/key dim per head
dvv = (1 - mla) * dh + mla * dv             # value dim per head
norm_p = h * (1 + lnb)                      # params of one norm (RMSNorm h, LayerNorm 2h)

# parameters (elements)
P_q = (1 - mla) * h * a * dh + mla * (qlora * (h * rq + rq + rq * a * (dn + dr)) + (1 - qlora) * h * a * (dn + dr))
P_kv = (1 - mla) * 2 * h * g * dh + mla * (h * (rkv + dr) + rkv + rkv * a * (dn + dv))
P_o = a * dvv * h
P_idx = (qlora * rq + (1 - qlora) * h) * n_ix * d_ix + h * (d_ix + n_ix) + 2 * d_ix
P_attn = P_q + P_kv + P_o + qkn * 2 * dh + lb * (a * dq + 2 * g * dh + h) + P_idx
P_mlp = nm * h * F + lb * ((nm - 1) * F + h)
P_experts = E * nm * h * Fe
P_shared = Es * nm * h * Fs
P_router = h * E + rb * E
P_embed = V * h
P_head = (1 - tied) * V * h
P_mtp = 2 * norm_p + 2 * h * h + norm_p    # MTP glue: two input norms, eh_proj, head norm

# per-GPU parameters of one layer (elements)
G_dense_attn = (P_q + P_o) / t + P_kv * ((1 - mla) / tg + mla / t) + 2 * norm_p + P_idx   # indexer: TP-duplicated
G_dense_mlp = P_mlp / t
G_moe_dense = P_router + P_shared / t        # router replicated, shared experts TP-split
G_experts = P_experts / (Me * te)

# activations per layer per micro-batch (bytes): Korthikanti et al. 2022 sec. 4.1, term by
# term: norms' inputs 2sbh each, QKV input 2sbh, Q/K/V 2sb*dims, score softmax 2as^2b
# (+ mask as^2b + dropout out 2as^2b), the out-projection input, dropout masks sbh, FFN
# inputs and intermediates
A_scores = (1 - flash) * (2 + 3 * drop) * a * s_loc * s_loc * b / t
# this rank's K and V (bytes), what the ring part of CP moves
kv_bytes = (1 - mla) * 2 * n_tok * 2 * g * dh / tg + mla * 2 * n_tok * a * (dn + dr + dv) / t
A_attn = cp_saved_kv(cr, kv_bytes) + n_tok * (2 * h / ts + 2 * h / ts     # (+ gathered K/V) LN1 input, QKV input
                  - (2 - s8) * h / ts                          # (an FP8 recipe saves the QKV input in fp8)
                  + 2 * a * dq / t                             # Q
                  + (1 - mla) * 4 * g * dh / tg                # K, V (GQA)
                  + mla * (2 * rq * qlora + 2 * (rkv + dr) + 2 * a * (dn + dr) / t + 2 * a * dv / t)
                  + s8 * a * dvv / t                           # out-proj input (= fused attention output)
                  + flash * 4 * a / t                          # fp32 log-sum-exp
                  + drop * h / ts) + A_scores                  # dropout mask
A_mlp = n_tok * (2 * h / ts + s8 * h / ts + 2 * (nm - 1) * F / t + s8 * F / t + drop * h / ts)   # fc1, fc2 inputs: s_8
R_rows = n_tok * K * te / ts * imbm                            # expert rows on one rank
A_moe = (n_tok * (2 * h / ts + 2 * h / ts + 4 * E / ts + 2 * Es * nm * Fs / t + drop * h / ts)
         + R_rows * (s8 * h + 2 * (nm - 1) * Fe / te + s8 * Fe / te + by * h))   # b_y: TrainSpec.routed_output_bytes
A_full = 2 * n_tok * h / ts                                    # full recompute keeps the layer input
# logits at the loss's peak: b_l bytes per element of the [tokens, V/t] logits (Megatron's
# vocab-parallel cross entropy: bf16 logits, fp32 softmax, fp32 grad = 10; torch eager
# F.cross_entropy on .float() logits, as torchtitan and the bundle run it: the saved fp32
# log-softmax, its incoming fp32 grad and the fp32 input grad at once = 12)
A_logits = n_tok * V / t * bl
B_moe = 2 * R_rows * h * 2                                     # dispatch send + receive
# backward of one layer: the gradients of its FFN intermediates (fc1 / gate-up outputs and
# the activation output) exist beside the saved activations while its FFN backward runs
Tr_dense = n_tok * 2 * nm * F / t
Tr_moe = R_rows * 2 * nm * Fe / te + n_tok * 2 * Es * nm * Fs / t
B_cp = (1 - mla) * 2 * 2 * n_tok * 2 * g * dh / tg + mla * 2 * 2 * n_tok * a * (dn + dr + dv) / t
B_tp = 2 * S / c * b * h                                       # sequence-parallel all-gather

# FLOPs per micro-batch on one rank (forward; training = 3x): 2 FLOPs per multiply-add;
# causal attention: each query sees k_f S/2 keys with fused (flash) attention, which skips the masked
# blocks; unfused attention (Megatron's FusedScaleMaskSoftmax) computes all S; + the indexer's scores
Fl_attn_mm = 2 * n_tok * (P_q + P_kv + P_o) / t
Fl_attn_core = (flash * k_f + 2 * (1 - flash)) * n_tok * S * a * (dq + dvv) / t + n_tok * S * n_ix * d_ix
Fl_mlp = 2 * n_tok * nm * h * F / t
Fl_shared = 2 * n_tok * Es * nm * h * Fs / t
Fl_moe = 2 * n_tok * (h * E / ts + K / ts * imb * nm * h * Fe) + Fl_shared
Fl_head = 2 * n_tok * h * V / t
Fl_mla_up = mla * 2 * n_tok * (qlora * rq * a * (dn + dr) + rkv * a * (dn + dv)) / t
# the weight GEMMs of one layer (forward; backward's dgrad / wgrad taken at the forward shape); L_x
# the linear layers' (bf16 forward, FP8 forward, FP8 backward, cast elements) (symbols.lin_gemms)
_qkv_n = (P_q + P_kv) / h / t
# torchao (s_x = 1): q, k, v (and w1, w3) are separate linears, each FP8 GEMM its own shape and each
# casting the shared input x again (torchtitan models/llama3/model.py wq / wk / wv; float8 TP's
# PrepareFloat8ModuleInput casts once instead: s_x = 0 there, planner.costmodel.values)
_sep, _Lqkv = sx * (1 - mla), lin_gemms(2 * n_tok * (P_q + P_kv) / t, n_tok, _qkv_n, h)
_Lq, _Lk = lin_gemms(2 * n_tok * h * a * dh / t, n_tok, a * dh / t, h), lin_gemms(2 * n_tok * h * g * dh / tg, n_tok, g * dh / tg, h)
L_attn = lin_sum((_Lqkv[0], *((1 - _sep) * x + _sep * (y + 2 * z) for x, y, z in zip(_Lqkv[1:], _Lq[1:], _Lk[1:]))),
                 lin_gemms(2 * n_tok * P_o / t, n_tok, h, a * dvv / t))
L_mlp = lin_sum(lin_gemms(2 * n_tok * (nm - 1) * h * F / t, n_tok, (nm - 1) * F / t, h),
                lin_gemms(2 * n_tok * h * F / t, n_tok, h, F / t), (0, 0, 0, sx * (nm - 2) * n_tok * h, 0))
T_attn_mm, T_mlp_mm = L_attn[0], L_mlp[0]
_rows_x = n_tok * K * te / ts * imb * Me / sp.Max(1, E)       # rows per local expert (busiest rank)
_g_x = E / Me                                                  # local experts
L_exp = lin_sum(lin_gemms(2 * n_tok * K / ts * imb * (nm - 1) * h * Fe, _rows_x, (nm - 1) * Fe / te, h, _g_x, eta_g),  # eta_g:
                lin_gemms(2 * n_tok * K / ts * imb * h * Fe, _rows_x, h, Fe / te, _g_x, eta_g), (0, 0, 0, sx * (nm - 2) * _rows_x * _g_x * h, 0))  # TrainSpec.expert_gemm
L_shared = tuple(Es * x for x in lin_sum(lin_gemms(2 * n_tok * (nm - 1) * h * Fs / t, n_tok, (nm - 1) * Es * Fs / t, h),
                                         lin_gemms(2 * n_tok * h * Fs / t, n_tok, h, Es * Fs / t)))
T_exp_mm, T_shared_mm = L_exp[0], L_shared[0]
T_router_mm = T_gemm(2 * n_tok * h * E / ts, n_tok / ts, E, h)
T_moe_mm = T_router_mm + T_exp_mm + T_shared_mm
L_moe = lin_sum(L_exp, L_shared)                               # the router's GEMM stays bf16 in every engine
# the linear GEMMs at the job's precision, forward + backward (fb) or forward (f), with their FP8
# casts (q_8 HBM bytes per element cast: planner.specs.precision): bf16 keeps its exact expression
mm_fb = lambda bf, L: (1 - f8) * bf + f8 * (L[1] + L[2] + T_ew(q8 * (L[3] + L[4])))
mm_f = lambda bf, L: (1 - f8) * bf + f8 * (L[1] + T_ew(q8 * L[3]))
T_moe_f = mm_f(T_moe_mm, L_moe) + f8 * T_router_mm
# fused attention by block length: one ring step (or the Ulysses-gathered sequence) runs
# causal attention over L = S / c_r tokens at eta_a * L / (L + L_a0)
L_blk = S / cr
# at the pace of the slowest ring rank's share of the causal triangle (cp_terms.balance)
T_core = (Fl_attn_core / (Pk * (flash * eta_a * L_blk / (L_blk + La0) + (1 - flash) * eta))
          * cp_balance(cr) + T_mm(2 * n_tok * P_idx))               # + the indexer's projections

# memory-bound (elementwise) kernels: HBM bytes read + written per micro-batch, forward,
# one layer. Megatron's fused kernels: LayerNorm reads x, writes y (4h per token);
# bias-dropout-add reads the projection output and the residual, writes the sum (6h) and
# the dropout mask (h); bias-activation reads the nm-1 FFN inputs of width F and writes F
# (2 nm F); unfused attention: scale-mask-softmax reads and writes the scores (4 a S),
# dropout reads them, writes them and the mask (5 a S). Backward moves twice the forward.
# eager = 1: torchtitan's modules without torch.compile (torchtitan/models/llama model.py
# and norms.py, Dec 2024), each op its own kernel reading its inputs and writing its output
# at the dtype it computes in: RMSNorm x.float() (2 + 4), pow (4 + 4), mean (4), x * rsqrt
# (4 + 4), type_as (4 + 2), * weight (2 + 2) = 36 bytes per element, not 4; RoPE through
# complex numbers on q and k: .float() (2 + 4), the complex product (4 + 4), type_as (4 + 2)
# = 20 bytes per element (fused RoPE is not counted here); repeat_kv's expand + reshape
# copies k and v to every query head (reads 2 g d_h, writes 2 a d_h each); the attention
# output's transpose().contiguous() (4 a d_v); F.silu (2 + 2) and the gate product (4 + 2)
# = 10 F, not 2 nm F = 6 F (a plain GELU FFN: 4 F both ways: 4 nm - 8 more). The bundle's own
# modules (templates/bundle/blocks.py, no torch.compile) move the same bytes op by op, but for
# its rotate-half RoPE: 18 bytes per element (halves' products, sums, cat), counted as 20.
B_norm = 4 + 32 * eager                                        # bytes per element of one norm
B_act = lambda width: (2 * nm + eager * (4 * nm - 8)) * width  # the activation of an FFN of this width
M_eager_attn = eager * n_tok * ((1 - mla) * (20 * (a + g) * dh + 4 * (a + g) * dh * sp.Min(1, a - g)) / t
                                + mla * 20 * (a * dr / t + dr) + 4 * a * dvv / t)
M_scores = (1 - flash) * (4 + 5 * drop) * a * s_loc * s_loc * b / t
M_norms = n_tok * 2 * B_norm * h / ts                          # the layer's two norms
M_ew_attn = n_tok * (B_norm * h + 6 * h + drop * h) / ts + M_scores + M_eager_attn
M_ew_mlp = n_tok * ((B_norm * h + 6 * h + drop * h) / ts + B_act(F) / t)
M_act_e = R_rows * B_act(Fe) / te                              # expert activation kernels
# the router: fp32 logits written by its GEMM, read and written by the score function,
# read by top-k and by the auxiliary / z-loss (5 passes of 4 bytes per token per expert)
M_router = n_tok / ts * 5 * 4 * E
# row copies: the permutation before the dispatch and the unpermutation after the combine (each
# reads and writes 2h bytes per row), whatever the dispatcher. Where a rank holds more than one
# expert, the all-to-all dispatchers sort the received rows by local expert and back: two more
# copies of every row (M_sort: Megatron-Core's alltoall dispatcher's sort_chunks_by_idxs, or a
# transpose under drop-and-pad; torchtitan's EP permute indices; the bundle's moe/dispatch.py),
# priced with that dispatcher (planner.costmodel.dispatch). The all-gather and DeepEP / HybridEP
# dispatchers permute straight into local-expert order (token_dispatcher.py: the local routing map).
many_local = sp.Max(0, sp.Min(1, E / Me - 1))                 # 1 when E / M_e > 1
M_perm = R_rows * 4 * 2 * h
M_sort = R_rows * 4 * 2 * h * many_local
M_ew_moe = (n_tok * ((B_norm * h + 6 * h + drop * h) / ts + Es * B_act(Fs) / t)
            + M_act_e + M_perm + M_router)                     # + row copies, router
# the MoE block's memory-bound kernels, forward + backward: a row copy's backward is the
# inverse copy (the same bytes once), every other kernel's backward moves twice its forward
T_ew_moe = 3 * T_ew(M_ew_moe) - T_ew(M_perm)

# time per layer per micro-batch (forward + backward = 3 forward passes)
L_dense = lin_sum(L_attn, L_mlp)
T_dense = mm_fb(3 * (T_attn_mm + T_mlp_mm), L_dense) + 3 * T_core + 3 * T_ew(M_ew_attn + M_ew_mlp)
T_moe = (mm_fb(3 * (T_attn_mm + T_moe_mm), lin_sum(L_attn, L_moe)) + f8 * 3 * T_router_mm + 3 * T_core
         + 3 * T_ew(M_ew_attn) + T_ew_moe)
# full recompute: one more forward
T_rc_dense = mm_f(T_attn_mm + T_mlp_mm, L_dense) + T_core + T_ew(M_ew_attn + M_ew_mlp)
T_rc_moe = mm_f(T_attn_mm + T_moe_mm, lin_sum(L_attn, L_moe)) + f8 * T_router_mm + T_core + T_ew(M_ew_attn + M_ew_moe)
T_head = 3 * T_gemm(Fl_head, n_tok, V / t, h) + 3 * T_ew(n_tok * V / t * 10)   # + the loss kernels' HBM traffic

# communication per layer per micro-batch (seconds)
coll = lambda n, nbytes, bw: (n - 1) / n * nbytes / bw + (n - 1) * alpha
# TP + SP: all-gather and reduce-scatter around attention and FFN, forward and backward
# a_8: float8 TP all-gathers the block input forward and dy backward in fp8, 1 byte of 2 (values.py)
X_tp_attn = 4 * coll(t, 2 * n_tok * h, W_tp) - a8 * 2 * (t - 1) / t * n_tok * h / W_tp
X_tp_mlp = 4 * coll(t, 2 * n_tok * h, W_tp) - a8 * 2 * (t - 1) / t * n_tok * h / W_tp
X_etp = 4 * coll(te, 2 * R_rows * h, W_etp)
# ring CP as the engine runs it (cp_terms.ring_exposed): p2p passes each hide only behind their own
# ring step's attention (zig-zag makes the c_r steps equal: T_core / c_r of forward each, twice
# the bytes and the compute in backward); the all-gather implementations hide less or nothing
X_ring = 3 * (cr - 1) * (kv_bytes / W_cr + alpha)
X_ring_exposed = cp_ring_exposed(cr, kv_bytes, W_cr, alpha, T_core / cr)
X_ring_rc = cp_recompute_exposed(cr, kv_bytes, W_cr, alpha)
# Ulysses: all-to-all of q, k, v in and o out, forward and backward
qkvo_bytes = 2 * n_tok * (2 * a * dq / t + (1 - mla) * 2 * g * dh / tg + mla * 2 * a * dv / t)
X_ulysses = 2 * coll(cu, qkvo_bytes, W_cu)
# EP: dispatch + combine all-to-all, forward and backward; intra- and inter-node shares
ep_bytes = 2 * n_tok * K / ts * h * imb * (Me - 1) / Me
X_ep = 4 * (sp.Max((1 - f_off) * ep_bytes / W_in, f_off * ep_bytes / W_out) + (Me - 1) * alpha)
# PP: activations forward, gradients backward, per micro-batch per stage boundary, once
# per model chunk (Narayanan et al. 2021 sec. 2.2); each TP rank sends 1/t of the tensor
X_pp = 2 * v * (2 * n_tok * h / t / W_pp + alpha)
# full recompute repeats the forward pass's collectives (half of the forward + backward)
X_rc_dense = (X_tp_attn + X_tp_mlp + X_ulysses) / 2
X_rc_moe = (X_tp_attn + X_etp + X_ulysses + X_ep) / 2
# EP communication as the dispatchers run it and the part the schedule hides (planner.costmodel.dispatch):
# the windows are one micro-batch's forward attention (+ norms) and MoE block; backward twice. They
# take the GEMMs at their FLOP time (T_mm, no wave quantisation or roofline: a window's length, not
# the step's, and it keeps the compiled tables small)
c_attn = T_mm(Fl_attn_mm) + T_core + T_ew(M_ew_attn)
c_mlp = T_mm(Fl_moe) + T_ew(M_ew_moe)
X_ep_run, X_ep_plain, X_ep_rc = ep_terms(X_ep / 4, n_tok, c_attn, c_mlp, T_ew(M_sort))

# --------------------------------------------------------------------------- recompute modules
# Per module: (activation bytes freed per layer per micro-batch, extra compute time, extra
# collective time). `moe` recomputes the whole MoE block (subsumes moe_act, shared_experts).
ATTN_MODULES = {
    "core_attn": (A_scores, T_core + T_ew(M_scores), 0),
    "layernorm": (n_tok * 2 * 2 * h / ts, T_ew(M_norms), 0),
    "mla_up_proj": (mla * n_tok * (2 * a * (dn + dr) / t + 2 * a * dv / t), T_mm8(Fl_mla_up), 0),
}

# torchtitan's per-op selective AC (`selective_ac_option = "op"`; torchtitan
# models/llama3/infra/parallelize.py `_save_list` and `_custom_policy`, Dec 2024): inside
# each checkpointed block it keeps the block input, the outputs of the attention kernel
# (SDPA output + fp32 log-sum-exp) and of every second aten.mm in call order (the 1st,
# 3rd, ...); everything else (norms, RoPE, activations, the other matmuls, the routed
# experts' grouped GEMMs, which are not aten.mm) is recomputed in backward. Each matmul
# below is (output bytes per token, forward FLOPs per micro-batch), in call order.
def _alt(mms, odd=0):
    """(bytes saved, FLOPs recomputed) of matmuls `mms` when every second one is saved,
    the first saved unless `odd` (0/1) matmuls came before in the block."""
    keep = lambda i: (1 - odd) if i % 2 == 0 else odd
    return (sum(o * keep(i) for i, (o, _) in enumerate(mms)),
            sum(fl * (1 - keep(i)) for i, (_, fl) in enumerate(mms)))

_mm = lambda out, k, n: (out, 2 * n_tok * k * n)               # (out bytes/token, FLOPs of k x n per token)
_gqa_mms = [_mm(2 * a * dh / t, h, a * dh / t), _mm(2 * g * dh / tg, h, g * dh / tg),
            _mm(2 * g * dh / tg, h, g * dh / tg), _mm(2 * h / ts, a * dh / t, h)]
_mla_mms = [_mm(2 * a * (dn + dr) / t, h, a * (dn + dr) / t), _mm(2 * (rkv + dr), h, rkv + dr),
            _mm(2 * a * (dn + dv) / t, rkv, a * (dn + dv) / t), _mm(2 * h / ts, a * dv / t, h)]
_mlaq_mms = [_mm(2 * rq, h, rq), _mm(2 * a * (dn + dr) / t, rq, a * (dn + dr) / t), *_mla_mms[1:]]
_odd = mla * qlora                                             # MLA with a q down-projection: 5 matmuls
_mixa = lambda i: ((1 - mla) * _alt(_gqa_mms)[i] + mla * (1 - qlora) * _alt(_mla_mms)[i]
                   + _odd * _alt(_mlaq_mms)[i])
op_attn = (_mixa(0), _mixa(1))
# the FFN's matmuls follow the attention's, so their parity depends on how many came first;
# a gated FFN is w1, w3, w2 and a plain one fc1, fc2 (the two mixed by n_m)
_alt2 = lambda mms: tuple(_alt(mms, 0)[i] * (1 - _odd) + _alt(mms, 1)[i] * _odd for i in (0, 1))
_mix = lambda a3, a2: tuple(a3[i] * (nm - 2) + a2[i] * (3 - nm) for i in (0, 1))
_w13, _w2 = _mm(2 * F / t, h, F / t), _mm(2 * h / ts, F / t, h)
op_mlp = _mix(_alt2([_w13, _w13, _w2]), _alt2([_w13, _w2]))
# a MoE block: the router matmul, then the shared experts as one FFN of width E_s F_s; the
# routed experts' grouped GEMMs are not aten.mm: never saved, always recomputed
_rt, _s13, _s2 = _mm(2 * E / ts, h, E / ts), _mm(2 * Es * Fs / t, h, Es * Fs / t), _mm(2 * h / ts, Es * Fs / t, h)
op_moe = _mix(_alt2([_rt, _s13, _s13, _s2]), _alt2([_rt, _s13, _s2]))
op_keep_attn = n_tok * (2 * h / ts + op_attn[0] + 2 * a * dvv / t + flash * 4 * a / t)   # input, mms, SDPA out + lse
OP_TERMS = {
    # (bytes freed, extra compute, extra collectives) of op-SAC in a dense / MoE layer
    "dense": (A_attn + A_mlp - op_keep_attn - n_tok * op_mlp[0],
              T_mm8(op_attn[1] + op_mlp[1]) + T_ew(M_ew_attn + M_ew_mlp), (X_tp_attn + X_tp_mlp) / 4),
    "moe": (A_attn + A_moe - op_keep_attn - n_tok * op_moe[0],
            T_mm8(op_attn[1] + op_moe[1]) + mm_f(T_exp_mm, L_exp) + T_ew(M_ew_attn + M_ew_moe),
            (X_tp_attn + X_etp) / 4 + X_ep / 2),
}

MODULE_TERMS = {
    "dense": {**ATTN_MODULES, "op": OP_TERMS["dense"],
              "mlp": (n_tok * (2 * nm * F / t + drop * h / ts), mm_f(T_mlp_mm, L_mlp) + T_ew(n_tok * B_act(F) / t),
                      X_tp_mlp / 4)},
    "moe": {**ATTN_MODULES, "op": OP_TERMS["moe"],
            "moe": (A_moe - n_tok * (2 * h / ts + 2 * h / ts + drop * h / ts),
                    T_moe_f + T_ew(M_ew_moe - n_tok * ((B_norm + 6) * h + drop * h) / ts), X_ep / 2 + X_etp / 2),
            "moe_act": (R_rows * 2 * Fe / te, T_ew(M_act_e), 0),
            "shared_experts": (n_tok * 2 * Es * nm * Fs / t, mm_f(T_shared_mm, L_shared) + T_ew(n_tok * Es * B_act(Fs) / t),
                               0)},
}

# --------------------------------------------------------------------------- sharding (sharding_terms.py)
from planner.costmodel.sharding_terms import T_opt, X_mb, X_step, bytes_g, bytes_o, bytes_w  # noqa: E402,F401

# --------------------------------------------------------------------------- one stage
# per-GPU parameter elements of a stage: dense-sharded (over d*c) and expert (over D_e)
head_last = ((1 - tied) + tied * (1 - u1)) * V * h / t          # a tied head is shared only when p == 1
mtp_dense = G_dense_attn + P_mtp + G_moe_dense                   # MTP modules follow the model's layers
k_mtp = sp.Symbol("k_mtp", nonnegative=True)                     # MTP modules (DeepSeek-V3: 1)
is_moe_model = sp.Symbol("is_moe_model", nonnegative=True)
st_pd = (nd_ * (G_dense_attn + G_dense_mlp) + nmo_ * (G_dense_attn + G_moe_dense) + ef * P_embed / t
         + el * (head_last + norm_p + k_mtp * (G_dense_attn + P_mtp + is_moe_model * G_moe_dense
                                               + (1 - is_moe_model) * G_dense_mlp)))
st_pe = nmo_ * G_experts + el * k_mtp * is_moe_model * G_experts
layer_params = (1 - hm) * (G_dense_attn + G_dense_mlp) + hm * (G_dense_attn + G_moe_dense + G_experts)

# What a stage holds at its peak besides the in-flight activations, filed as torch's memory
# tracker files it (FSDPMemTracker; the bundle's --dry-run measures it, issue 12):
# * buffers: the sharded engine's -- a layer's gradient reduce-scatter buffer (b_g per
#   element from zero2), under zero3 the gathered bf16 layer and its prefetch (2 x 2 bytes);
# * transient: the running layer's TP all-gather, ring K/V double buffer, MoE dispatch
#   buffers and FFN backward transient (the tracker's activations and temporaries).
# The last stage peaks at the loss, where no layer runs: zero3 holds one gathered layer and
# the gathered head (+ the embedding, FSDP2's root unit, when p == 1); FSDP2 keeps each
# root's last reduce-scatter input until its next one, and each of a pp rank's v chunks is
# a root: the head unit's, and each other chunk's first layer unit's (a MoE layer's router,
# experts and shared experts are units of their own). Its layer is of the model's kind (a
# MoE model's dense layers come first), so the sums stay linear in the stage integers.
shard_buffers = lambda params: z2 * (bg + 4 * z3) * params
layer_transient = lambda moe: (B_tp * sp.Min(1, t - 1) + cp_transient_kv(cr, kv_bytes) + moe * B_moe
                               + moe * Tr_moe + (1 - moe) * Tr_dense)
model_layer = ((1 - is_moe_model) * (G_dense_attn + G_dense_mlp)
               + is_moe_model * (G_dense_attn + G_moe_dense + G_experts))
head_unit = head_last + u1 * P_embed / t
layer_unit = (1 - is_moe_model) * (G_dense_attn + G_dense_mlp) + is_moe_model * G_dense_attn
last_buffers = z3 * 2 * (model_layer + head_unit) + z2 * bg * (head_unit + (v - 1) * layer_unit)

sel_save = (sum(r_d[k] * MODULE_TERMS["dense"][k][0] for k in DENSE_MODULES)
            + sum(r_m[k] * MODULE_TERMS["moe"][k][0] for k in MOE_MODULES))
sel_work = (sum(r_d[k] * MODULE_TERMS["dense"][k][1] for k in DENSE_MODULES)
            + sum(r_m[k] * MODULE_TERMS["moe"][k][1] for k in MOE_MODULES))
sel_comm = (sum(r_d[k] * MODULE_TERMS["dense"][k][2] for k in DENSE_MODULES)
            + sum(r_m[k] * MODULE_TERMS["moe"][k][2] for k in MOE_MODULES))
act_dense, act_moe = A_attn + A_mlp, A_attn + A_moe
mtp_acts = k_mtp * (is_moe_model * act_moe + (1 - is_moe_model) * act_dense + A_logits)
mtp_time = k_mtp * (is_moe_model * T_moe + (1 - is_moe_model) * T_dense + T_head)
has_pp = 1 - u1
# the stage's linear weights per GPU (dense-sharded, expert): their FP8 copies (symbols.w8_bytes, g8_step)
lin_attn = (P_q + P_o) / t + P_kv * ((1 - mla) / tg + mla / t)
lin_d, lin_e = nd_ * (lin_attn + G_dense_mlp) + nmo_ * (lin_attn + P_shared / t), nmo_ * G_experts
# a tied embedding split over the first and last stage (p > 1): Megatron all-reduces its
# gradient between the two every step (the embedding group), b_r bytes per element each way
X_tied = (ef + el) * tied * has_pp * (2 * br * V * h / t / W_pp + alpha)

STAGE: dict[str, tuple[sp.Expr, str]] = {
    # memory (bytes): persistent terms, and the activations of one in-flight micro-batch
    "weights": (st_pd * bytes_w(Zd) + st_pe * bytes_w(Ze) + f8 * (lin_d + lin_e) * w8_bytes,
                "weights of the stage's shard (+ FP8 weight copies)"),
    "grads": (st_pd * bytes_g(Zd) + st_pe * bytes_g(Ze), "gradients"),
    "optimizer": (st_pd * bytes_o(Zd) + st_pe * bytes_o(Ze), "optimizer state (+ fp32 master)"),
    "act_mb": ((nd_ - fd_) * act_dense + (nmo_ - fmo_) * act_moe + (fd_ + fmo_) * A_full - sel_save,
               "activations of one micro-batch through the stage's layers"),
    "logits": (el * (A_logits + mtp_acts), "logits + loss (and MTP) on the last stage"),
    "buffers": (shard_buffers(layer_params) + el * (last_buffers - shard_buffers(model_layer)),
                "the sharded engine's buffers: a layer's gradient buffer (+ gathered copy and prefetch under "
                "zero3); on the last stage (peak at the loss) the gathered layer and head units"),
    "transient": (layer_transient(hm) - el * layer_transient(is_moe_model),
                  "the running layer's TP / ring CP / MoE dispatch buffers and backward transient (none on "
                  "the last stage, which peaks at the loss)"),
    # time per micro-batch (seconds)
    "work": (nd_ * T_dense + nmo_ * T_moe + fd_ * T_rc_dense + fmo_ * T_rc_moe + sel_work + el * (T_head + mtp_time),
             "compute of one micro-batch, forward + backward + recompute"),
    "comm_tp": (nd_ * (X_tp_attn + X_tp_mlp) + nmo_ * (X_tp_attn + X_etp)
                + fd_ * (X_tp_attn + X_tp_mlp) / 2 + fmo_ * (X_tp_attn + X_etp) / 2
                + el * k_mtp * (X_tp_attn + is_moe_model * X_etp + (1 - is_moe_model) * X_tp_mlp),
                "TP / ETP collectives (exposed)"),
    "comm_cp": ((nd_ + nmo_ + el * k_mtp) * (X_ring_exposed + X_ulysses) + (fd_ + fmo_) * (X_ulysses / 2 + X_ring_rc),
                "CP passes not hidden by attention, and Ulysses all-to-alls"),
    # a fully recomputed MoE layer runs no EP overlap (Megatron refuses the overlap with full
    # recompute, transformer_config.py:2688-2690): its ops are priced exposed, and repeated
    "comm_ep": ((nmo_ - fmo_ + el * k_mtp * is_moe_model) * X_ep_run + fmo_ * (X_ep_plain + X_ep_rc) + sel_comm,
                "EP dispatch / combine not hidden (and recomputed modules' collectives)"),
    "comm_pp": (has_pp * X_pp, "pipeline send / receive"),
    "shard_mb": (st_pd * X_mb(Zd, W_dpcp) + st_pe * X_mb(Ze, W_edp) - lin_d * g8_mb(Zd, W_dpcp) - lin_e * g8_mb(Ze, W_edp),
                 "zero2/zero3 per-micro-batch gathers and reduce-scatters (overlap compute)"),
    # time per step (seconds)
    "dp_step": (st_pd * X_step(Zd, W_dpcp) + X_tied - lin_d * g8_step(Zd, W_dpcp), "dense gradient reduction per step (overlaps the last backward)"),
    "edp_step": (st_pe * X_step(Ze, W_edp) - lin_e * g8_step(Ze, W_edp), "expert gradient reduction per step"),
    "opt_step": (st_pd * T_opt(Zd) + st_pe * T_opt(Ze), "optimizer step over the local shard"),
}
assert all(k in STAGE for k in (*MEMORY_TERMS, *COMM_TERMS))

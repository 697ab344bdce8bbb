"""The cost model: every formula written once, in sympy, then lambdified.

Notation (the scaling-book way: short symbols defined once)

    model   h hidden, a heads, g kv heads, d_h head dim, V vocab, F dense FFN width,
            n_m matrices per FFN (3 gated / 2 plain), E experts, K top-k, F_e expert width,
            E_s shared experts of width F_s; MLA: r_q, r_kv latent ranks, d_r rope dims,
            d_n nope dims, d_v value dims
    shape   S sequence, b micro-batch, m micro-batches per step
    layout  t tp, c cp, d dp, p pp, v vpp, t_e etp, M_e ep, D_e edp, c_u / c_r the Ulysses
            and ring parts of c, t_s = t under sequence parallel else 1, t_g = min(t, g)
    cluster C peak FLOP/s, eta GEMM efficiency, eta_a attention efficiency,
            W_x bandwidth of the links group x spans (bytes/s, one direction), alpha hop latency,
            W_hbm achieved HBM bandwidth of memory-bound (elementwise) kernels

Sources: activation memory from Korthikanti et al. 2022 ("Reducing Activation
Recomputation in Large Transformer Models", sec. 4: sbh(34 + 5as/h) per layer, with the
TP / SP / selective / full variants) generalised term by term to GQA, SwiGLU, MoE and
fused attention; optimizer bytes from Megatron-LM's distributed optimizer (bf16 params,
fp32 grads: 6 + 12/d bytes per parameter); FLOPs as 6 N per token plus the causal
attention term (Kaplan et al. 2020, Chinchilla appendix F); pipeline in-flight
micro-batches and the interleaved bubble from Narayanan et al. 2021.

Everything is per GPU. Bytes and seconds. `evaluate(problem, layout)` assembles the per-
layer quantities into per-stage memory and the step time; the solver reads the same
per-layer quantities (`layer_terms`), so there is no second copy of any formula.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

import numpy as np
import sympy as sp

from planner.layout import Layout, RankGrid
from planner.specs import Problem

GiB = 2**30

# --------------------------------------------------------------------------- symbols

h, a, g, dh, V, F, nm, E, K, Fe, Es, Fs = sp.symbols("h a g d_h V F n_m E K F_e E_s F_s", positive=True)
rq, rkv, dr, dn, dv = sp.symbols("r_q r_kv d_r d_n d_v", nonnegative=True)
mla, qlora, qkn, lnb, lb, rb, tied = sp.symbols("is_mla has_qlora qk_norm ln_bias lin_bias router_bias tied",
                                                nonnegative=True)
S, b, m = sp.symbols("S b m", positive=True)
t, c, d, p, v, te, Me, De, cu, cr, ts, tg = sp.symbols("t c d p v t_e M_e D_e c_u c_r t_s t_g", positive=True)
flash, drop, imb, imbm = sp.symbols("flash drop imb imb_mem", nonnegative=True)
bg, zd, ze = sp.symbols("b_g Z_d Z_e", positive=True)          # grad bytes; optimizer shard degrees
C, eta, eta_a, alpha, W_hbm = sp.symbols("C eta eta_a alpha W_hbm", positive=True)
W_tp, W_cu, W_cr, W_dpcp, W_edp, W_etp, W_pp, W_in, W_out = sp.symbols(
    "W_tp W_cu W_cr W_dpcp W_edp W_etp W_pp W_ein W_eout", positive=True)
f_off = sp.symbols("f_off", nonnegative=True)                   # share of EP peers on another node

SYMBOL_DOC = {
    "h": "hidden", "a": "heads", "g": "kv heads", "d_h": "head dim", "V": "vocab", "F": "dense FFN width",
    "n_m": "matrices per FFN", "E": "experts", "K": "top-k", "F_e": "expert FFN width",
    "E_s": "shared experts", "F_s": "shared expert width", "S": "sequence", "b": "micro-batch",
    "t": "tp", "c": "cp", "d": "dp", "p": "pp", "v": "vpp", "t_e": "etp", "M_e": "ep", "D_e": "edp",
    "c_u": "cp Ulysses part", "c_r": "cp ring part", "t_s": "tp if sequence parallel else 1",
    "t_g": "min(tp, kv heads)", "C": "peak FLOP/s", "eta": "GEMM efficiency",
    "eta_a": "attention efficiency", "imb": "MoE busiest/mean load",
    "W_hbm": "achieved HBM bandwidth (elementwise kernels)",
}

# --------------------------------------------------------------------------- formulas

s_loc = S / c                       # tokens of one sequence on one rank
n_tok = s_loc * b                   # tokens per micro-batch on one CP rank
dq = (1 - mla) * dh + mla * (dn + dr)       # query/key dim per head
dvv = (1 - mla) * dh + mla * dv             # value dim per head
norm_p = h * (1 + lnb)                      # params of one norm (RMSNorm h, LayerNorm 2h)

# parameters (elements) ----------------------------------------------------------------
P_q = (1 - mla) * h * a * dh + mla * (qlora * (h * rq + rq + rq * a * (dn + dr)) + (1 - qlora) * h * a * (dn + dr))
P_kv = (1 - mla) * 2 * h * g * dh + mla * (h * (rkv + dr) + rkv + rkv * a * (dn + dv))
P_o = a * dvv * h
P_attn = P_q + P_kv + P_o + qkn * 2 * dh + lb * (a * dq + 2 * g * dh + h)
P_mlp = nm * h * F + lb * ((nm - 1) * F + h)
P_experts = E * nm * h * Fe
P_shared = Es * nm * h * Fs
P_router = h * E + rb * E
P_embed = V * h
P_head = (1 - tied) * V * h
P_mtp = 2 * norm_p + 2 * h * h + norm_p    # MTP glue: two input norms, eh_proj, head norm

# per-GPU parameters of one layer (elements) ------------------------------------------
G_dense_attn = (P_q + P_o) / t + P_kv * ((1 - mla) / tg + mla / t) + 2 * norm_p
G_dense_mlp = P_mlp / t
G_moe_dense = P_router + P_shared / t        # router replicated, shared experts TP-split
G_experts = P_experts / (Me * te)

# bytes per parameter: bf16 weight, b_g-byte main grad, fp32 master + Adam m, v (12 bytes)
# sharded over Z ranks (Megatron distributed optimizer: 6 + 12/d)
B_w, B_g = sp.Integer(2), bg
B_opt_dense = 12 / zd
B_opt_expert = 12 / ze

# activations per layer per micro-batch (bytes) -----------------------------------------
# Korthikanti et al. 2022 sec. 4.1, term by term: norms' inputs 2sbh each, QKV input
# 2sbh, Q/K/V 2sb*dims, score softmax 2as^2b (+ mask as^2b + dropout out 2as^2b), the
# out-projection input, dropout masks sbh, FFN inputs and intermediates.
A_scores = (1 - flash) * (2 + 3 * drop) * a * s_loc * s_loc * b / t
A_attn = n_tok * (2 * h / ts + 2 * h / ts                      # LN1 input, QKV input
                  + 2 * a * dq / t                             # Q
                  + (1 - mla) * 4 * g * dh / tg                # K, V (GQA)
                  + mla * (2 * rq * qlora + 2 * (rkv + dr) + 2 * a * (dn + dr) / t + 2 * a * dv / t)
                  + 2 * a * dvv / t                            # out-proj input (= fused attention output)
                  + flash * 4 * a / t                          # fp32 log-sum-exp
                  + drop * h / ts) + A_scores                  # dropout mask
A_mlp = n_tok * (2 * h / ts + 2 * h / ts + 2 * nm * F / t + drop * h / ts)
R_rows = n_tok * K * te / ts * imbm                            # expert rows on one rank
A_moe = (n_tok * (2 * h / ts + 2 * h / ts + 4 * E / ts + 2 * Es * nm * Fs / t + drop * h / ts)
         + R_rows * (2 * h + 2 * nm * Fe / te + 2 * h))
A_full = 2 * n_tok * h / ts                                    # full recompute keeps the layer input
A_logits = n_tok * V / t * (2 + 4 + 4)                         # bf16 logits, fp32 upcast, fp32 grad
B_moe = 2 * R_rows * h * 2                                     # dispatch send + receive
B_cp = (1 - mla) * 2 * 2 * n_tok * 2 * g * dh / tg + mla * 2 * 2 * n_tok * a * (dn + dr + dv) / t
B_tp = 2 * S / c * b * h                                       # sequence-parallel all-gather

# FLOPs per micro-batch on one rank (forward; training = 3x) -------------------------
# matmuls: 2 FLOPs per multiply-add per token; causal attention: each query sees S/2 keys
# with fused (flash) attention, which skips the masked blocks; unfused attention (two
# batched GEMMs around a masked softmax, Megatron's FusedScaleMaskSoftmax) computes all S
Fl_attn_mm = 2 * n_tok * (P_q + P_kv + P_o) / t
Fl_attn_core = (2 - flash) * n_tok * S * a * (dq + dvv) / t
Fl_mlp = 2 * n_tok * nm * h * F / t
Fl_moe = 2 * n_tok * (h * E / ts + Es * nm * h * Fs / t + K / ts * imb * nm * h * Fe)
Fl_head = 2 * n_tok * h * V / t
T_mm = lambda flops: flops / (C * eta)
# fused attention runs at its own efficiency; unfused attention is two batched GEMMs
T_core = Fl_attn_core / (C * (flash * eta_a + (1 - flash) * eta))

# memory-bound (elementwise) kernels: HBM bytes read + written per micro-batch, forward,
# one layer, 2-byte activations. Megatron's fused kernels: LayerNorm reads x, writes y
# (4h per token); bias-dropout-add reads the projection output and the residual, writes
# the sum (6h) and the dropout mask (h); bias-activation reads the nm-1 FFN inputs of
# width F and writes F (2 nm F); unfused attention: scale-mask-softmax reads and writes
# the scores (4 a S), attention dropout reads them, writes them and the mask (5 a S).
# Backward reads the output grad and the saved input and writes the input grad: twice
# the forward traffic, so a training pass moves 3x (the same 3x as the GEMM FLOPs).
M_scores = (1 - flash) * (4 + 5 * drop) * a * s_loc * s_loc * b / t
M_ew_attn = n_tok * (4 * h + 6 * h + drop * h) / ts + M_scores
M_ew_mlp = n_tok * ((4 * h + 6 * h + drop * h) / ts + 2 * nm * F / t)
M_ew_moe = (n_tok * ((4 * h + 6 * h + drop * h) / ts + 2 * Es * nm * Fs / t)
            + R_rows * (2 * nm * Fe / te + 4 * 2 * h))                # + permute / unpermute copies
T_ew = lambda nbytes: nbytes / W_hbm

# time per layer per micro-batch (forward + backward = 3 forward passes) ---------------
T_dense = 3 * T_mm(Fl_attn_mm + Fl_mlp) + 3 * T_core + 3 * T_ew(M_ew_attn + M_ew_mlp)
T_moe = 3 * T_mm(Fl_attn_mm + Fl_moe) + 3 * T_core + 3 * T_ew(M_ew_attn + M_ew_moe)
# full recompute: one more forward; selective: core attention (+ its softmax, dropout) again
T_rc_dense = T_mm(Fl_attn_mm + Fl_mlp) + T_core + T_ew(M_ew_attn + M_ew_mlp)
T_rc_moe = T_mm(Fl_attn_mm + Fl_moe) + T_core + T_ew(M_ew_attn + M_ew_moe)
T_rc_sel = T_core + T_ew(M_scores)
# output head GEMM, and the loss: the logits' bytes (A_logits) written forward, read and
# written backward
T_head = 3 * T_mm(Fl_head) + 3 * T_ew(A_logits)

# communication per layer per micro-batch (seconds) -----------------------------------
coll = lambda n, nbytes, bw: (n - 1) / n * nbytes / bw + (n - 1) * alpha
# TP + SP: all-gather and reduce-scatter around attention and FFN, forward and backward
X_tp_attn = 4 * coll(t, 2 * n_tok * h, W_tp)
X_tp_mlp = 4 * coll(t, 2 * n_tok * h, W_tp)
X_etp = 4 * coll(te, 2 * R_rows * h, W_etp)
# ring CP: c_r - 1 K/V passes forward, K/V + dK/dV backward; overlapped with attention
kv_bytes = (1 - mla) * 2 * n_tok * 2 * g * dh / tg + mla * 2 * n_tok * a * (dn + dr + dv) / t
X_ring = 3 * (cr - 1) * (kv_bytes / W_cr + alpha)
X_ring_exposed = sp.Max(0, X_ring - 3 * T_core)
# Ulysses: all-to-all of q, k, v in and o out, forward and backward
qkvo_bytes = 2 * n_tok * (2 * a * dq / t + (1 - mla) * 2 * g * dh / tg + mla * 2 * a * dv / t)
X_ulysses = 2 * coll(cu, qkvo_bytes, W_cu)
# EP: dispatch + combine all-to-all, forward and backward; intra- and inter-node shares
ep_bytes = 2 * n_tok * K / ts * h * imb * (Me - 1) / Me
X_ep = 4 * (sp.Max((1 - f_off) * ep_bytes / W_in, f_off * ep_bytes / W_out) + (Me - 1) * alpha)
# PP: activations forward, gradients backward, per micro-batch per stage boundary, once
# per model chunk (v chunks per stage under the interleaved schedule, Narayanan et al.
# 2021 sec. 2.2); each TP rank sends 1/t of the tensor (its sequence-parallel shard, or
# Megatron's scatter-gather of the replicated tensor, then an NVLink all-gather)
X_pp = 2 * v * (2 * n_tok * h / t / W_pp + alpha)
# DP / EDP per step: reduce-scatter grads + all-gather params (distributed optimizer)
X_dp_per_param = (d * c - 1) / (d * c) * (bg + 2) / W_dpcp
X_edp_per_param = (De - 1) / De * (bg + 2) / W_edp
# optimizer step (Adam over this rank's shard of the fp32 states), HBM-bound: read the
# grad (b_g), read + write master, m, v (3 x 8), write the bf16 param (2), per element
T_opt_dense = (bg + 24 + 2) / zd / W_hbm
T_opt_expert = (bg + 24 + 2) / ze / W_hbm
# full recompute repeats the forward pass's collectives (half of the forward + backward)
X_rc_dense = (X_tp_attn + X_tp_mlp + X_ulysses) / 2
X_rc_moe = (X_tp_attn + X_etp + X_ulysses + X_ep) / 2

FORMULAS: dict[str, tuple[sp.Expr, str]] = {
    # name: (expression, what it is)
    "P_attn": (P_attn, "attention parameters of one layer"),
    "P_mlp": (P_mlp, "dense FFN parameters of one layer"),
    "P_experts": (P_experts, "routed expert parameters of one MoE layer"),
    "P_shared": (P_shared, "shared expert parameters of one MoE layer"),
    "P_router": (P_router, "router parameters of one MoE layer"),
    "P_embed": (P_embed, "embedding"),
    "P_head": (P_head, "output head (0 if tied)"),
    "P_norm": (norm_p, "one norm"),
    "P_mtp": (P_mtp, "MTP glue (norms + eh_proj) beyond its transformer layer"),
    "G_dense_attn": (G_dense_attn, "attention params per GPU, one layer"),
    "G_dense_mlp": (G_dense_mlp, "dense FFN params per GPU, one layer"),
    "G_moe_dense": (G_moe_dense, "router + shared expert params per GPU, one MoE layer"),
    "G_experts": (G_experts, "routed expert params per GPU, one MoE layer"),
    "Bpp_dense": (B_w + B_g + B_opt_dense, "bytes per dense parameter (weight + grad + optimizer shard)"),
    "Bpp_expert": (B_w + B_g + B_opt_expert, "bytes per expert parameter"),
    "A_attn": (A_attn, "attention activations, one layer, one micro-batch"),
    "A_scores": (A_scores, "attention score activations (unfused attention only)"),
    "A_mlp": (A_mlp, "dense FFN activations, one layer, one micro-batch"),
    "A_moe": (A_moe, "MoE FFN activations, one layer, one micro-batch"),
    "A_full": (A_full, "activations of a fully recomputed layer"),
    "A_logits": (A_logits, "logits + loss on the last stage, one micro-batch"),
    "B_moe": (B_moe, "MoE dispatch buffers"),
    "B_cp": (B_cp, "ring CP double buffers for K/V"),
    "B_tp": (B_tp, "sequence-parallel all-gather buffer"),
    "Fl_attn_mm": (Fl_attn_mm, "attention projection FLOPs, forward, one micro-batch"),
    "Fl_attn_core": (Fl_attn_core, "causal attention core FLOPs, forward"),
    "Fl_mlp": (Fl_mlp, "dense FFN FLOPs, forward"),
    "Fl_moe": (Fl_moe, "router + shared + routed expert FLOPs, forward"),
    "Fl_head": (Fl_head, "output head FLOPs, forward"),
    "M_ew_attn": (M_ew_attn, "elementwise HBM traffic of the attention block, forward"),
    "M_ew_mlp": (M_ew_mlp, "elementwise HBM traffic of the dense FFN block, forward"),
    "M_ew_moe": (M_ew_moe, "elementwise HBM traffic of the MoE block, forward"),
    "M_scores": (M_scores, "softmax + dropout HBM traffic of unfused attention, forward"),
    "T_dense": (T_dense, "compute time of a dense layer, forward + backward"),
    "T_moe": (T_moe, "compute time of a MoE layer, forward + backward"),
    "T_rc_dense": (T_rc_dense, "extra time of fully recomputing a dense layer"),
    "T_rc_moe": (T_rc_moe, "extra time of fully recomputing a MoE layer"),
    "T_rc_sel": (T_rc_sel, "extra time of selective (core attention) recompute"),
    "T_head": (T_head, "output head compute, forward + backward"),
    "X_tp_attn": (X_tp_attn, "TP collectives of the attention block"),
    "X_tp_mlp": (X_tp_mlp, "TP collectives of the dense FFN block"),
    "X_etp": (X_etp, "expert-TP collectives of a MoE block"),
    "X_ring": (X_ring, "ring CP K/V passes"),
    "X_ring_exposed": (X_ring_exposed, "ring CP time not hidden behind attention compute"),
    "X_ulysses": (X_ulysses, "Ulysses all-to-alls"),
    "X_ep": (X_ep, "EP dispatch/combine all-to-alls"),
    "X_pp": (X_pp, "pipeline send/recv per micro-batch (all chunks of a stage)"),
    "X_rc_dense": (X_rc_dense, "collectives repeated by fully recomputing a dense layer"),
    "X_rc_moe": (X_rc_moe, "collectives repeated by fully recomputing a MoE layer"),
    "X_dp_per_param": (X_dp_per_param, "DP grad reduce-scatter + param all-gather, per dense param"),
    "X_edp_per_param": (X_edp_per_param, "EDP grad reduce-scatter + param all-gather, per expert param"),
    "T_opt_dense": (T_opt_dense, "optimizer step per dense param (HBM-bound Adam on the local shard)"),
    "T_opt_expert": (T_opt_expert, "optimizer step per expert param"),
}

_ALL_SYMBOLS = sorted({s for e, _ in FORMULAS.values() for s in e.free_symbols}, key=lambda s: s.name)


@lru_cache(maxsize=1)
def _compiled():
    """The lambdified formulas. Printing them is slow (~0.7 s), so the generated numpy
    source is cached on disk, keyed by this file's content."""
    import hashlib
    import os
    from pathlib import Path
    names = list(FORMULAS)
    key = hashlib.sha256(Path(__file__).read_bytes() + sp.__version__.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("FOLDPLAN_CACHE", Path.home() / ".cache" / "foldplan")) / f"costmodel-{key}.py"
    src = None
    if cache.exists():
        src = cache.read_text()
    if src is None:
        from sympy.printing.lambdarepr import NumPyPrinter
        args = [s.name for s in _ALL_SYMBOLS]
        printer = NumPyPrinter({"fully_qualified_modules": False, "inline": True,
                                "allow_unknown_functions": True, "user_functions": {}})
        body = ",\n        ".join(printer.doprint(FORMULAS[n][0]) for n in names)
        src = f"def _formulas({', '.join(args)}):\n    return [\n        {body}]\n"
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(src)
            os.replace(tmp, cache)
        except OSError:
            pass
    from functools import reduce
    namespace = {"numpy": np, "reduce": reduce, **{k: getattr(np, k) for k in ("amax", "amin", "maximum", "minimum", "sqrt", "select",
                                                            "less", "greater", "equal", "inf", "nan", "where")}}
    exec(compile(src, str(cache), "exec"), namespace)
    return names, namespace["_formulas"]


# --------------------------------------------------------------------------- values

def model_values(problem: Problem) -> dict[str, float]:
    """Symbol values that depend only on the problem."""
    mo, tr, gpu = problem.model, problem.train, problem.cluster.gpu
    moe, ml = mo.moe, mo.mla
    vals = dict(
        h=mo.hidden, a=mo.heads, g=mo.kv_heads, d_h=mo.head_dim, V=mo.vocab, F=mo.ffn_hidden or 0,
        n_m=3 if mo.gated else 2, E=moe.experts if moe else 0, K=moe.top_k if moe else 0,
        F_e=moe.expert_ffn_hidden if moe else 0, E_s=moe.shared_experts if moe else 0,
        F_s=moe.shared_ffn_hidden if moe else 0,
        r_q=(ml.q_lora_rank if ml else 0), r_kv=(ml.kv_lora_rank if ml else 0),
        d_r=(ml.qk_rope_head_dim if ml else 0), d_n=(ml.qk_nope_head_dim if ml else 0),
        d_v=(ml.v_head_dim if ml else 0), is_mla=int(mo.attention == "mla"),
        has_qlora=int(bool(ml and ml.q_lora_rank)), qk_norm=int(mo.qk_norm),
        ln_bias=int(mo.norm == "layernorm"), lin_bias=int(mo.linear_bias),
        router_bias=int(bool(moe and moe.router_bias)), tied=int(mo.tied_embeddings),
        S=tr.seq, flash=int(tr.flash_attention), drop=int(tr.dropout), b_g=tr.grad_bytes,
        C=gpu.peak_flops, eta=gpu.compute_efficiency, eta_a=gpu.attention_efficiency, alpha=gpu.latency_s,
        W_hbm=gpu.hbm_bw * gpu.hbm_efficiency,
    )
    cf = tr.capacity_factor
    vals["imb"] = min(tr.moe_imbalance, cf) if cf else tr.moe_imbalance
    vals["imb_mem"] = cf if cf else tr.moe_imbalance
    return vals


def _span(stride, size, gpn):
    """(intra-node?, share of peers off-node) of groups with this stride and size, vectorised,
    for groups aligned on the rank grid (every size a divisor of its neighbours' blocks)."""
    stride, size = np.asarray(stride, float), np.asarray(size, float)
    intra = stride * size <= gpn
    in_node_peers = np.clip(gpn / stride, 1, size) - 1
    off = np.where(size > 1, 1 - in_node_peers / np.maximum(size - 1, 1), 0.0)
    return intra, np.where(intra, 0.0, off)


def layout_values(problem: Problem, x: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Symbol values of candidate layouts (vectorised). `x` holds arrays tp, cp, dp, pp,
    vpp, etp, ep, edp, cu, cr, micro_batch, num_microbatches and the dense strides
    s_tp, s_cp, s_dp (from the rank order)."""
    tr, gpu = problem.train, problem.cluster.gpu
    gpn = problem.cluster.gpus_per_node
    f = lambda k: np.asarray(x[k], float)
    tp, cp, dp, pp = f("tp"), f("cp"), f("dp"), f("pp")
    etp, ep, edp = f("etp"), f("ep"), f("edp")
    cu_, cr_ = f("cu"), f("cr")
    bw = lambda intra: np.where(intra, gpu.intra_node_bw, gpu.inter_node_bw) * gpu.bus_efficiency
    sr = tp * cp * dp
    i_tp, _ = _span(f("s_tp"), tp, gpn)
    i_cu, _ = _span(f("s_cp"), cu_, gpn)
    i_cr, _ = _span(f("s_cp") * cu_, cr_, gpn)
    extent_dpcp = np.maximum(f("s_dp") * dp, f("s_cp") * cp)
    i_dpcp = extent_dpcp <= gpn
    i_etp, _ = _span(np.ones_like(etp), etp, gpn)
    i_ep, off_ep = _span(etp, ep, gpn)
    i_edp, _ = _span(etp * ep, edp, gpn)
    i_pp, _ = _span(sr, pp, gpn)
    zdense = dp * cp if tr.distributed_optimizer else np.ones_like(dp)
    zexp = edp if tr.distributed_optimizer else np.ones_like(edp)
    tsp = np.where((tp > 1) & tr.sequence_parallel, tp, 1.0)
    return dict(t=tp, c=cp, d=dp, p=pp, v=f("vpp"), t_e=etp, M_e=ep, D_e=edp, c_u=cu_, c_r=cr_,
                t_s=tsp, t_g=np.minimum(tp, problem.model.kv_heads), b=f("micro_batch"), m=f("num_microbatches"),
                Z_d=zdense, Z_e=zexp, W_tp=bw(i_tp), W_cu=bw(i_cu), W_cr=bw(i_cr), W_dpcp=bw(i_dpcp),
                W_edp=bw(i_edp), W_etp=bw(i_etp), W_pp=bw(i_pp), W_ein=gpu.intra_node_bw * gpu.bus_efficiency,
                W_eout=gpu.inter_node_bw * gpu.bus_efficiency, f_off=off_ep)


def evaluate_formulas(values: dict) -> dict[str, np.ndarray]:
    """Every formula at the given symbol values (scalars or arrays)."""
    names, fn = _compiled()
    args = []
    for s in _ALL_SYMBOLS:
        if s.name not in values:
            raise KeyError(f"cost model: no value for symbol {s.name}")
        args.append(values[s.name])
    out = fn(*args)
    shape = np.broadcast(*[np.asarray(x) for x in args]).shape
    return {n: np.broadcast_to(np.asarray(o, float), shape) for n, o in zip(names, out)}


# --------------------------------------------------------------------------- params

def param_counts(problem_or_model) -> dict[str, float]:
    """Exact parameter counts: total, active (per token), and the MTP module."""
    model = getattr(problem_or_model, "model", problem_or_model)
    vals = _model_only_values(model)
    r = evaluate_formulas({**vals, **_unit_layout()})
    is_moe = model.moe_layers()
    n_moe = sum(is_moe)
    n_dense = model.layers - n_moe
    norm = float(r["P_norm"])
    layer_common = float(r["P_attn"]) + 2 * norm
    moe_layer_shared = float(r["P_router"]) + float(r["P_shared"])
    experts = float(r["P_experts"])
    per_expert = experts / model.moe.experts if model.moe else 0.0
    dense_layer = layer_common + float(r["P_mlp"])
    moe_layer = layer_common + moe_layer_shared + experts
    emb, head = float(r["P_embed"]), float(r["P_head"])
    total = n_dense * dense_layer + n_moe * moe_layer + emb + head + norm
    active = total - n_moe * per_expert * ((model.moe.experts - model.moe.top_k) if model.moe else 0)
    mtp_layer = moe_layer if n_moe else dense_layer
    mtp = model.mtp_layers * (mtp_layer + float(r["P_mtp"]))
    return {"total": total, "active": active, "mtp": mtp, "mtp_with_embeddings": mtp + model.mtp_layers * (emb + head),
            "embedding": emb, "head": head, "dense_layer": dense_layer, "moe_layer": moe_layer,
            "experts_per_layer": experts}


def _model_only_values(model) -> dict:
    class _Fake:
        pass
    from planner.specs import TrainSpec
    fake = _Fake()
    fake.model = model
    fake.train = TrainSpec(seq=4096, global_batch_tokens=4096)
    fake.cluster = _Fake()
    fake.cluster.gpu = _Fake()
    for k, val in dict(peak_flops=1.0, compute_efficiency=1.0, attention_efficiency=1.0, latency_s=0.0,
                       hbm_bw=1.0, hbm_efficiency=1.0).items():
        setattr(fake.cluster.gpu, k, val)
    return model_values(fake)


def _unit_layout() -> dict:
    one = 1.0
    return dict(t=one, c=one, d=one, p=one, v=one, t_e=one, M_e=one, D_e=one, c_u=one, c_r=one, t_s=one,
                t_g=one, b=one, m=one, Z_d=one, Z_e=one, W_tp=one, W_cu=one, W_cr=one, W_dpcp=one, W_edp=one,
                W_etp=one, W_pp=one, W_ein=one, W_eout=one, f_off=0.0)


def training_flops(model, tokens: float, seq: int = 0) -> float:
    """6 * active params * tokens (+ causal attention if seq > 0), the usual estimate."""
    pc = param_counts(model)
    attn = 0.0
    if seq:
        vals = _model_only_values(model)
        dqk = (vals["d_n"] + vals["d_r"]) if vals["is_mla"] else vals["d_h"]
        dvv_ = vals["d_v"] if vals["is_mla"] else vals["d_h"]
        attn = 3 * model.layers * seq * model.heads * (dqk + dvv_)
    return 6 * pc["active"] * tokens + attn * tokens


# --------------------------------------------------------------------------- per-layer terms

@dataclass
class LayerTerms:
    """Per-layer and per-stage-extra costs of candidate layouts (arrays over candidates).

    Memory in bytes per GPU; time in seconds per micro-batch unless said per step."""
    w_dense: np.ndarray          # weights+grads+optimizer of one dense layer
    w_moe: np.ndarray            # ... of one MoE layer
    a_dense: np.ndarray          # activations of one dense layer, one micro-batch, no recompute
    a_moe: np.ndarray
    a_full: np.ndarray           # ... of a fully recomputed layer
    a_sel_saving: np.ndarray     # saved per layer by selective recompute
    t_dense: np.ndarray          # compute + exposed per-layer comm, fwd+bwd
    t_moe: np.ndarray
    rc_dense: np.ndarray         # extra time of full recompute (incl. the repeated forward collectives)
    rc_moe: np.ndarray
    rc_sel: np.ndarray
    w_first: np.ndarray          # embedding (first stage)
    w_last: np.ndarray           # head + final norm (+ MTP) on the last stage
    a_last: np.ndarray           # logits + loss (+ MTP layer) on the last stage
    t_first: np.ndarray
    t_last: np.ndarray           # head (+ MTP) time
    buf_dense: np.ndarray        # transient buffers of a stage with only dense layers
    buf_moe: np.ndarray          # ... with MoE layers
    dp_dense: np.ndarray         # DP comm per step per dense-layer (seconds)
    dp_moe_dense: np.ndarray     # DP comm per step for the dense part of a MoE layer
    edp_moe: np.ndarray          # EDP comm per step per MoE layer
    dp_first: np.ndarray
    dp_last: np.ndarray
    pp_time: np.ndarray          # p2p per micro-batch
    comm: dict = field(default_factory=dict)   # per-layer exposed comm by group (for reports)
    raw: dict = field(default_factory=dict)
    o_dense: np.ndarray = None   # optimizer-step time per step of one dense layer's params
    o_moe: np.ndarray = None
    o_first: np.ndarray = None
    o_last: np.ndarray = None
    p_first: np.ndarray = None   # parameter elements per GPU of the first-stage extras (dense-sharded)
    p_last_dense: np.ndarray = None
    p_last_expert: np.ndarray = None


def layer_terms(problem: Problem, x: dict[str, np.ndarray]) -> LayerTerms:
    vals = {**model_values(problem), **layout_values(problem, x)}
    r = evaluate_formulas(vals)
    mo = problem.model
    bpd, bpe = r["Bpp_dense"], r["Bpp_expert"]
    w_attn = r["G_dense_attn"] * bpd
    w_dense = w_attn + r["G_dense_mlp"] * bpd
    w_moe = w_attn + r["G_moe_dense"] * bpd + r["G_experts"] * bpe
    a_dense = r["A_attn"] + r["A_mlp"]
    a_moe = r["A_attn"] + r["A_moe"]
    attn_comm = r["X_tp_attn"] + r["X_ring_exposed"] + r["X_ulysses"]
    t_dense = r["T_dense"] + attn_comm + r["X_tp_mlp"]
    t_moe = r["T_moe"] + attn_comm + r["X_ep"] + r["X_etp"]
    tp = np.asarray(x["tp"], float)
    # stage extras (elements per GPU): embedding on the first stage; final norm + head
    # (a second copy of a tied embedding when pp > 1) + MTP modules on the last
    k = mo.mtp_layers
    p_first = r["P_embed"] / tp
    head = (r["P_embed"] if mo.tied_embeddings else r["P_head"]) / tp
    p_last_d = head + r["P_norm"] + k * (r["G_dense_attn"] + r["P_mtp"]
                                         + (r["G_moe_dense"] if mo.is_moe else r["G_dense_mlp"]))
    p_last_e = k * r["G_experts"] * mo.is_moe
    if mo.tied_embeddings:                          # pp == 1: the one stage holds one copy
        p_last_d_pp1 = p_last_d - head
    else:
        p_last_d_pp1 = p_last_d
    mtp_a = k * ((a_moe if mo.is_moe else a_dense) + r["A_logits"])
    mtp_t = k * ((t_moe if mo.is_moe else t_dense) + r["T_head"])
    dpp, edpp = r["X_dp_per_param"], r["X_edp_per_param"]
    w_last = p_last_d * bpd + p_last_e * bpe
    w_last_pp1 = p_last_d_pp1 * bpd + p_last_e * bpe
    use_pp1 = np.asarray(x["pp"]) == 1
    buf = r["B_tp"] * (tp > 1) + r["B_cp"] * (np.asarray(x["cr"]) > 1)
    return LayerTerms(
        w_dense=w_dense, w_moe=w_moe, a_dense=a_dense, a_moe=a_moe, a_full=r["A_full"],
        a_sel_saving=r["A_scores"], t_dense=t_dense, t_moe=t_moe, rc_dense=r["T_rc_dense"] + r["X_rc_dense"],
        rc_moe=r["T_rc_moe"] + r["X_rc_moe"], rc_sel=r["T_rc_sel"], w_first=p_first * bpd,
        w_last=np.where(use_pp1, w_last_pp1, w_last),
        a_last=r["A_logits"] + mtp_a, t_first=np.zeros_like(t_dense), t_last=r["T_head"] + mtp_t,
        buf_dense=buf, buf_moe=buf + r["B_moe"],
        dp_dense=(r["G_dense_attn"] + r["G_dense_mlp"]) * dpp,
        dp_moe_dense=(r["G_dense_attn"] + r["G_moe_dense"]) * dpp, edp_moe=r["G_experts"] * edpp,
        dp_first=p_first * dpp, dp_last=np.where(use_pp1, p_last_d_pp1, p_last_d) * dpp + p_last_e * edpp,
        o_dense=(r["G_dense_attn"] + r["G_dense_mlp"]) * r["T_opt_dense"],
        o_moe=(r["G_dense_attn"] + r["G_moe_dense"]) * r["T_opt_dense"] + r["G_experts"] * r["T_opt_expert"],
        o_first=p_first * r["T_opt_dense"],
        o_last=np.where(use_pp1, p_last_d_pp1, p_last_d) * r["T_opt_dense"] + p_last_e * r["T_opt_expert"],
        pp_time=r["X_pp"] * (np.asarray(x["pp"]) > 1),
        comm={"tp_dense": r["X_tp_attn"] + r["X_tp_mlp"], "tp_moe": r["X_tp_attn"] + r["X_etp"],
              "cp": r["X_ring_exposed"] + r["X_ulysses"], "ep": r["X_ep"]},
        raw=r,
        p_first=p_first, p_last_dense=np.where(use_pp1, p_last_d_pp1, p_last_d), p_last_expert=p_last_e,
    )


def inflight(pp: int, vpp: int, m: int, stage: int) -> float:
    """Micro-batches of activations a stage holds at its peak, in units of its layers
    (Narayanan et al. 2021: 1F1B holds p - i; interleaved holds 2(p-i-1) + (v-1)p + 1
    chunks of 1/v of the stage)."""
    if vpp <= 1:
        return float(min(pp - stage, m))
    chunks = min(m * vpp, 2 * (pp - stage - 1) + (vpp - 1) * pp + 1)
    return chunks / vpp


# --------------------------------------------------------------------------- assembly

def layout_vector(layout: Layout) -> dict[str, np.ndarray]:
    """The solver/cost-model input of one layout, per stage (arrays of length pp)."""
    axes = layout.order.split("-")[:-1]
    size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
    stride, s = {}, 1
    for ax in axes:
        stride[ax] = s
        s *= size[ax]
    n = layout.pp
    arr = lambda val: np.full(n, float(val))
    return dict(tp=arr(layout.tp), cp=arr(layout.cp), dp=arr(layout.dp), pp=arr(layout.pp), vpp=arr(layout.vpp),
                etp=np.array([st.etp for st in layout.stages], float), ep=np.array([st.ep for st in layout.stages], float),
                edp=np.array([st.edp for st in layout.stages], float), cu=arr(layout.cp_ulysses), cr=arr(layout.cp_ring),
                micro_batch=arr(layout.micro_batch), num_microbatches=arr(layout.num_microbatches),
                s_tp=arr(stride["tp"]), s_cp=arr(stride["cp"]), s_dp=arr(stride["dp"]))


@dataclass
class StageEstimate:
    index: int
    weights: float
    grads: float
    optimizer: float
    activations: float
    logits: float
    buffers: float
    time: float                     # per micro-batch, fwd+bwd incl. per-layer exposed comm
    comm: dict                      # per micro-batch exposed comm by group
    dp_comm: float                  # per step
    edp_comm: float
    overlap_window: float
    optimizer_step: float = 0.0     # per step: Adam over this stage's local shard

    @property
    def total(self) -> float:
        return self.weights + self.grads + self.optimizer + self.activations + self.logits + self.buffers


@dataclass
class Estimate:
    stages: list[StageEstimate]
    step_time: float
    compute: float
    bubble: float
    exposed: dict
    tokens_per_s_per_gpu: float
    flops_per_gpu: float
    mfu: float
    reserve_bytes: float
    optimizer: float = 0.0                 # the optimizer step (the slowest stage's)

    @property
    def peak_bytes(self) -> float:
        return max(s.total for s in self.stages)

    @property
    def peak_stage(self) -> int:
        return max(self.stages, key=lambda s: s.total).index

    def to_dict(self) -> dict:
        return {
            "step_time_s": self.step_time, "tokens_per_s_per_gpu": self.tokens_per_s_per_gpu,
            "tflops_per_gpu": self.flops_per_gpu / 1e12, "mfu": self.mfu,
            "peak_memory_gib": self.peak_bytes / GiB,
            "memory_gib_by_stage": [
                {"weights": s.weights / GiB, "grads": s.grads / GiB, "optimizer": s.optimizer / GiB,
                 "activations": s.activations / GiB, "logits": s.logits / GiB, "buffers": s.buffers / GiB,
                 "total": s.total / GiB} for s in self.stages],
            "time_s": {"compute": self.compute, "bubble": self.bubble, "optimizer": self.optimizer,
                       "exposed_comm": dict(self.exposed)},
        }


def stage_counts(problem: Problem, layout: Layout):
    """(dense layers, MoE layers, fully recomputed dense, fully recomputed MoE) per stage,
    with the rule: full recompute takes a stage's MoE layers first."""
    is_moe = problem.model.moe_layers()
    out = []
    for s in layout.stages:
        flags = is_moe[s.layers[0]:s.layers[1]]
        nm_, nd = sum(flags), len(flags) - sum(flags)
        fm = min(s.recompute_full, nm_)
        fd = s.recompute_full - fm
        out.append((nd, nm_, fd, fm))
    return out


def evaluate(problem: Problem, layout: Layout) -> Estimate:
    """Memory per stage and step time of one layout (assumed legal: see layout.check)."""
    x = layout_vector(layout)
    lt = layer_terms(problem, x)
    r = lt.raw
    pp, vpp, mb = layout.pp, layout.vpp, layout.num_microbatches
    stages = []
    for i, (nd, nmo, fd, fm) in enumerate(stage_counts(problem, layout)):
        st = layout.stages[i]
        sel = st.recompute_selective
        bpd, bpe = r["Bpp_dense"][i], r["Bpp_expert"][i]
        # parameters (elements) of this stage, dense and expert
        pd = nd * (r["G_dense_attn"][i] + r["G_dense_mlp"][i]) + nmo * (r["G_dense_attn"][i] + r["G_moe_dense"][i])
        pe = nmo * r["G_experts"][i]
        logits = 0.0
        if i == 0:
            pd += lt.p_first[i]
        if i == pp - 1:
            pd += lt.p_last_dense[i]
            pe += lt.p_last_expert[i]
            logits = lt.a_last[i]
        weights = 2 * (pd + pe)
        grads = problem.train.grad_bytes * (pd + pe)
        optimizer = (bpd - 2 - problem.train.grad_bytes) * pd + (bpe - 2 - problem.train.grad_bytes) * pe
        per_mb = ((nd - fd) * lt.a_dense[i] + (nmo - fm) * lt.a_moe[i] + (fd + fm) * lt.a_full[i]
                  - sel * lt.a_sel_saving[i])
        acts = inflight(pp, vpp, mb, i) * per_mb
        bufs = lt.buf_moe[i] if nmo else lt.buf_dense[i]
        time = (nd * lt.t_dense[i] + nmo * lt.t_moe[i] + fd * lt.rc_dense[i] + fm * lt.rc_moe[i]
                + sel * lt.rc_sel[i] + lt.pp_time[i]
                + (lt.t_last[i] if i == pp - 1 else 0.0))
        comm = {"tp": nd * lt.comm["tp_dense"][i] + nmo * lt.comm["tp_moe"][i],
                "cp": (nd + nmo) * lt.comm["cp"][i], "ep": nmo * lt.comm["ep"][i], "pp": lt.pp_time[i]}
        # the DP overlap window is the stage's work as the solvers count it: everything
        # but the per-layer and p2p comm (the recompute's repeated collectives included)
        compute_mb = time - sum(comm.values())
        # full recompute repeats the forward half of a layer's collectives (X_rc_*): report them
        comm["tp"] += fd / 2 * lt.comm["tp_dense"][i] + fm / 2 * lt.comm["tp_moe"][i]
        comm["cp"] += (fd + fm) / 2 * r["X_ulysses"][i]
        comm["ep"] += fm / 2 * lt.comm["ep"][i]
        dpc = pd * r["X_dp_per_param"][i]
        edpc = pe * r["X_edp_per_param"][i]
        opt = pd * r["T_opt_dense"][i] + pe * r["T_opt_expert"][i]
        stages.append(StageEstimate(i, weights, grads, optimizer, acts, logits, bufs, time, comm, dpc, edpc,
                                    overlap_window=compute_mb, optimizer_step=opt))
    t_max = max(s.time for s in stages)
    bott = max(stages, key=lambda s: s.time)
    # DP/EDP: overlapped with the backward of the last micro-batch (Megatron --overlap-grad-reduce)
    exp_dp_total = max(max(0.0, s.dp_comm + s.edp_comm - s.overlap_window) for s in stages)
    worst = max(stages, key=lambda s: max(0.0, s.dp_comm + s.edp_comm - s.overlap_window))
    share = worst.dp_comm / (worst.dp_comm + worst.edp_comm) if worst.dp_comm + worst.edp_comm else 0.0
    opt_step = max(s.optimizer_step for s in stages)        # every stage steps at once, after the reduction
    step = (mb + (pp - 1) / vpp) * t_max + exp_dp_total + opt_step
    bubble = (pp - 1) / vpp * t_max
    exposed = {"dp": exp_dp_total * share, "edp": exp_dp_total * (1 - share)}
    for k in ("tp", "cp", "ep", "pp"):
        exposed[k] = mb * bott.comm[k]
    compute = mb * (t_max - sum(bott.comm.values()))
    tokens = problem.train.global_batch_tokens
    model_flops = training_flops(problem.model, tokens, problem.train.seq)
    n = layout.world
    fl = model_flops / step / n
    return Estimate(stages=stages, step_time=step, compute=compute, bubble=bubble, exposed=exposed, optimizer=opt_step,
                    tokens_per_s_per_gpu=tokens / step / n, flops_per_gpu=fl,
                    mfu=fl / problem.cluster.gpu.peak_flops, reserve_bytes=problem.cluster.gpu.reserve_gib * GiB)


def fits(problem: Problem, est: Estimate) -> bool:
    return est.peak_bytes <= problem.cluster.memory_budget_gib * GiB


# --------------------------------------------------------------------------- explain

_FLAGS = {"is_mla", "has_qlora", "qk_norm", "ln_bias", "lin_bias", "router_bias", "tied", "flash", "drop"}


def explain_terms(problem: Problem, layout: Layout, stage: int = 0) -> list[tuple[str, str, str, str, float]]:
    """(group, name, symbolic, with numbers, value) for each formula, for one stage."""
    x = layout_vector(layout)
    vals = {**model_values(problem),
            **{k: float(np.broadcast_to(v, (layout.pp,))[stage]) for k, v in layout_values(problem, x).items()}}
    rows = []
    groups = {"P": "parameters", "G": "parameters per GPU", "B": "memory", "A": "memory", "F": "compute",
              "T": "time", "X": "communication"}
    subs = {}
    for sym in _ALL_SYMBOLS:
        v = float(vals[sym.name])
        subs[sym] = sp.Integer(int(v)) if v.is_integer() else sp.Float(v, 4)
    values = evaluate_formulas(vals)
    for name, (expr, doc) in FORMULAS.items():
        value = float(values[name])
        symbolic = sp.sstr(expr)
        # drop terms that vanish for this model (e.g. MLA terms of a GQA model), then show
        # the same expression with numbers substituted but not evaluated
        flags = {s_: subs[s_] for s_ in expr.free_symbols if s_.name in _FLAGS}
        reduced = expr.xreplace(flags) if flags else expr
        symbolic = sp.sstr(reduced)
        with sp.evaluate(False):
            with_numbers = sp.sstr(reduced.xreplace({s_: subs[s_] for s_ in reduced.free_symbols}))
        rows.append((groups.get(name[0], "other"), f"{name}: {doc}", symbolic, with_numbers, value))
    return rows

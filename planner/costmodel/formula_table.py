"""The table `explain` prints and `compile.formulas()` evaluates: named per-layer formulas
of planner.costmodel.formulas (symbolic there, once), each with one line of meaning."""
from __future__ import annotations

import sympy as sp

from planner.costmodel.formulas import *  # noqa: F401,F403  (the formulas' public names)
from planner.costmodel.formulas import MODULE_TERMS, T_ew_moe, T_moe_mm, X_mb, X_step, T_opt, bytes_g, bytes_o, bytes_w  # noqa: F401
from planner.costmodel.formulas import L_exp, M_sort, T_exp_mm, T_router_mm, T_shared_mm  # noqa: F401

FORMULAS: dict[str, tuple[sp.Expr, str]] = {
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
    "Bpp_dense": (bytes_w(Zd) + bytes_g(Zd) + bytes_o(Zd), "bytes per dense parameter (weight + grad + optimizer)"),
    "Bpp_expert": (bytes_w(Ze) + bytes_g(Ze) + bytes_o(Ze), "bytes per expert parameter"),
    "A_attn": (A_attn, "attention activations, one layer, one micro-batch"),
    "A_scores": (A_scores, "attention score activations (unfused attention only)"),
    "A_mlp": (A_mlp, "dense FFN activations, one layer, one micro-batch"),
    "A_moe": (A_moe, "MoE FFN activations, one layer, one micro-batch"),
    "A_full": (A_full, "activations of a fully recomputed layer"),
    "A_logits": (A_logits, "logits + loss on the last stage, one micro-batch"),
    "B_moe": (B_moe, "MoE dispatch buffers"),
    "B_cp": (B_cp, "ring CP double buffers for K/V"),
    "B_tp": (B_tp, "sequence-parallel all-gather buffer"),
    "Tr_dense": (Tr_dense, "backward transient of a dense layer (FFN intermediate grads)"),
    "Tr_moe": (Tr_moe, "backward transient of a MoE layer (expert intermediate grads)"),
    "Fl_attn_mm": (Fl_attn_mm, "attention projection FLOPs, forward, one micro-batch"),
    "Fl_attn_core": (Fl_attn_core, "causal attention core FLOPs, forward"),
    "Fl_mlp": (Fl_mlp, "dense FFN FLOPs, forward"),
    "Fl_moe": (Fl_moe, "router + shared + routed expert FLOPs, forward"),
    "Fl_head": (Fl_head, "output head FLOPs, forward"),
    "M_ew_attn": (M_ew_attn, "elementwise HBM traffic of the attention block, forward"),
    "M_ew_mlp": (M_ew_mlp, "elementwise HBM traffic of the dense FFN block, forward"),
    "M_ew_moe": (M_ew_moe, "elementwise HBM traffic of the MoE block, forward"),
    "M_perm": (M_perm, "MoE row copies (permute before the dispatch, unpermute after the combine), forward"),
    "M_sort": (M_sort, "MoE row sorts by local expert and back (the all-to-all dispatchers), forward"),
    "M_scores": (M_scores, "softmax + dropout HBM traffic of unfused attention, forward"),
    "T_dense": (T_dense, "compute time of a dense layer, forward + backward"),
    "T_moe": (T_moe, "compute time of a MoE layer, forward + backward"),
    "T_rc_dense": (T_rc_dense, "extra time of fully recomputing a dense layer"),
    "T_rc_moe": (T_rc_moe, "extra time of fully recomputing a MoE layer"),
    "T_head": (T_head, "output head compute, forward + backward"),
    "T_moe_block": (3 * T_moe_mm + T_ew_moe, "compute of a MoE block alone (router, experts, "
                                                             "permutation), forward + backward"),
    # the MoE layer kernel by kernel, forward + backward per micro-batch (each a part of T_moe; the
    # DeepSeek-V3 profile's kernels: tests/test_kernels.py)
    "Tk_router": (3 * T_router_mm + 3 * T_ew(M_router), "router: its bf16 GEMM and the fp32 score / top-k / "
                                                        "aux-loss passes, forward + backward"),
    "Tk_perm": (2 * T_ew(M_perm), "permute and unpermute row copies, forward + backward"),
    "Tk_sort": (2 * T_ew(M_sort), "row sorts by local expert (all-to-all dispatchers), forward + backward"),
    "Tk_experts": ((1 - f8) * 3 * T_exp_mm + f8 * (L_exp[1] + L_exp[2]),
                   "routed experts' grouped GEMMs at the job's precision (casts apart), forward + backward"),
    "Tk_experts_fd": ((1 - f8) * 2 * T_exp_mm + f8 * 2 * L_exp[1],
                      "routed experts' grouped GEMMs, forward + input-gradient (dgrad) only"),
    "Tk_expert_act": (3 * T_ew(M_act_e), "routed experts' activation kernels, forward + backward"),
    "Tk_shared": ((1 - f8) * 3 * T_shared_mm + f8 * (L_shared[1] + L_shared[2]),
                  "shared experts' GEMMs at the job's precision, forward + backward"),
    "Tk_attn_core": (3 * T_core, "the attention kernel (fused: FlashAttention / cuDNN), forward + backward"),
    "X_tp_attn": (X_tp_attn, "TP collectives of the attention block"),
    "X_tp_mlp": (X_tp_mlp, "TP collectives of the dense FFN block"),
    "X_etp": (X_etp, "expert-TP collectives of a MoE block"),
    "X_ring": (X_ring, "ring CP K/V passes"),
    "X_ring_exposed": (X_ring_exposed, "ring CP time not hidden behind attention compute (as the engine runs "
                                       "CP: planner.specs.cp_impl)"),
    "X_ring_rc": (X_ring_rc, "ring CP collectives a full recompute repeats exposed (all-gather CP)"),
    "T_core": (T_core, "causal attention kernel time, forward, at the slowest ring rank's causal share"),
    "X_ulysses": (X_ulysses, "Ulysses all-to-alls"),
    "X_ep": (X_ep, "EP dispatch/combine all-to-alls"),
    "X_ep_run": (X_ep_run, "EP dispatch/combine as the layout's dispatcher runs it, less what its overlap hides"),
    "X_pp": (X_pp, "pipeline send/recv per micro-batch (all chunks of a stage)"),
    "X_rc_dense": (X_rc_dense, "collectives repeated by fully recomputing a dense layer"),
    "X_rc_moe": (X_rc_moe, "collectives repeated by fully recomputing a MoE layer"),
    "X_dp_per_param": (X_step(Zd, W_dpcp), "DP traffic per step, per dense param"),
    "X_edp_per_param": (X_step(Ze, W_edp), "EDP traffic per step, per expert param"),
    "X_dp_mb_per_param": (X_mb(Zd, W_dpcp), "zero2/3 DP traffic per micro-batch, per dense param"),
    "T_opt_dense": (T_opt(Zd), "optimizer step per dense param (HBM-bound Adam on the local shard)"),
    "T_opt_expert": (T_opt(Ze), "optimizer step per expert param"),
    **{f"S_{kind}_{k}": (v[0], f"activations freed by recomputing {k} in a {kind} layer")
       for kind, mods in MODULE_TERMS.items() for k, v in mods.items()},
    **{f"T_{kind}_{k}": (v[1] + v[2], f"extra time of recomputing {k} in a {kind} layer")
       for kind, mods in MODULE_TERMS.items() for k, v in mods.items()},
}

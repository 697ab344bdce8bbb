"""Symbol values: what the problem and candidate layouts bind the formulas' symbols to.

`model_values(problem)` binds the model, the training shape and the GPU's constants;
`layout_values(problem, x)` binds candidate layouts given as arrays (vectorised: one
entry per candidate row), with each group's bandwidth chosen by whether the group stays
inside an NVLink domain (the locality vector, `planner.layout.grid.locality`). `param_counts` and `training_flops` read the
same formulas with a unit layout.
"""
from __future__ import annotations

import numpy as np

import planner.costmodel.compile as cc
from planner.layout import SHARDINGS, dense_strides
from planner.specs.kinds import SHARDING
from planner.layout.grid import locality


def _model_part(model) -> dict[str, float]:
    moe, ml = model.moe, model.mla
    return dict(
        h=model.hidden, a=model.heads, g=model.kv_heads, d_h=model.head_dim, V=model.vocab, F=model.ffn_hidden or 0,
        n_m=3 if model.gated else 2, E=moe.experts if moe else 0, K=moe.top_k if moe else 0,
        F_e=moe.expert_ffn_hidden if moe else 0, E_s=moe.shared_experts if moe else 0,
        F_s=moe.shared_ffn_hidden if moe else 0,
        r_q=(ml.q_lora_rank if ml else 0), r_kv=(ml.kv_lora_rank if ml else 0),
        d_r=(ml.qk_rope_head_dim if ml else 0), d_n=(ml.qk_nope_head_dim if ml else 0),
        d_v=(ml.v_head_dim if ml else 0), is_mla=int(model.attention == "mla"),
        has_qlora=int(bool(ml and ml.q_lora_rank)), qk_norm=int(model.qk_norm),
        ln_bias=int(model.norm == "layernorm"), lin_bias=int(model.linear_bias),
        router_bias=int(bool(moe and moe.router_bias)), tied=int(model.tied_embeddings),
        k_mtp=model.mtp_layers, is_moe_model=int(model.is_moe))


def model_values(problem) -> dict[str, float]:
    """Symbol values that depend only on the problem."""
    tr, gpu = problem.train, problem.cluster.gpu
    vals = _model_part(problem.model)
    eta_a, half_block = gpu.attention_curve(tr.attention_kernel)
    vals.update(S=tr.seq, flash=int(tr.flash_attention), drop=int(tr.dropout), eager=int(tr.kernels == "eager"), b_g=tr.grad_bytes, b_l=tr.logit_bytes,
                b_r=tr.grad_reduce_bytes, Pk=gpu.peak_flops, eta=gpu.compute_efficiency,
                eta_a=eta_a, alpha=gpu.latency_s, W_hbm=gpu.hbm_bw * gpu.hbm_efficiency,
                N_sm=gpu.sm_count, T_m=gpu.gemm_tile[0], T_n=gpu.gemm_tile[1], L_a0=half_block)
    cf = tr.capacity_factor
    vals["imb"] = min(tr.moe_imbalance, cf) if cf else tr.moe_imbalance
    vals["imb_mem"] = cf if cf else tr.moe_imbalance
    return vals


# what each sharding kind (in SHARDINGS' order) shards: z_1 the optimizer state, z_2 the gradients,
# z_3 the parameters (planner.specs.kinds.Sharding)
_SHARDS = np.array([[s.optimizer, s.grads, s.params] for s in SHARDING.values()], float)


def sharding_values(kind, master) -> dict[str, np.ndarray]:
    """z_1, z_2, z_3 and mu of sharding kinds (arrays of kind indices into SHARDINGS, or names)."""
    k = np.asarray([SHARDINGS.index(x) for x in np.atleast_1d(kind)] if np.asarray(kind).dtype.kind in "US"
                   else kind, float)
    mu = np.asarray([x == "fp32" for x in np.atleast_1d(master)] if np.asarray(master).dtype.kind in "US"
                    else master, float)
    ki = k.astype(int)
    return {"z_1": _SHARDS[ki, 0], "z_2": _SHARDS[ki, 1], "z_3": _SHARDS[ki, 2], "mu": mu}


def layout_values(problem, x: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Symbol values of candidate layouts (vectorised). `x` holds arrays tp, cp, dp, pp,
    vpp, etp, ep, edp, cu, cr, micro_batch, num_microbatches, sharding (index into
    SHARDINGS), master (1 = fp32) and the dense strides s_tp, s_cp, s_dp."""
    tr, gpu = problem.train, problem.cluster.gpu
    per_domain = problem.cluster.domain_used            # rank r in NVLink domain r // per_domain
    f = lambda k: np.asarray(x[k], float)
    tp, cp, dp, pp = f("tp"), f("cp"), f("dp"), f("pp")
    etp, ep, edp, cu_, cr_ = f("etp"), f("ep"), f("edp"), f("cu"), f("cr")
    bw = lambda intra: np.where(intra, gpu.intra_node_bw, gpu.inter_node_bw) * gpu.bus_efficiency
    # the rank order and the domain size reach the cost model only through the locality vector;
    # without `first` / `ranks` (the search's rows and layout_vector alike) a folding is judged at
    # its worst stage of the layout (`locality`)
    loc = locality({k: f(k) for k in ("tp", "cp", "dp", "pp", "cu", "cr", "etp", "ep", "edp", "s_tp", "s_cp", "s_dp",
                                      "first", "ranks") if k in x}, per_domain)
    tsp = np.where((tp > 1) & tr.sequence_parallel, tp, 1.0)
    return dict(t=tp, c=cp, d=dp, p=pp, v=f("vpp"), t_e=etp, M_e=ep, D_e=edp, c_u=cu_, c_r=cr_,
                t_s=tsp, t_g=np.minimum(tp, problem.model.kv_heads), b=f("micro_batch"), m=f("num_microbatches"),
                Z_d=dp * cp, Z_e=edp, u_1=(pp == 1).astype(float),
                W_tp=bw(loc["tp"]), W_cu=bw(loc["cp_ulysses"]), W_cr=bw(loc["cp_ring"]), W_dpcp=bw(loc["dp_cp"]),
                W_edp=bw(loc["edp"]), W_etp=bw(loc["etp"]), W_pp=bw(loc["pp"]), W_ein=gpu.intra_node_bw * gpu.bus_efficiency,
                W_eout=gpu.inter_node_bw * gpu.bus_efficiency, f_off=loc["ep_off"],
                **sharding_values(x["sharding"], x["master"]))


def layout_vector(layout) -> dict[str, np.ndarray]:
    """The cost-model input of one layout, per stage (arrays of length pp). One owner of the
    step time: each stage's groups are judged as the search's tables judge a (tuple, folding)
    row, at the worst stage of the layout for the stage's folding (no `first` / `ranks`:
    planner.layout.grid.locality over every rank), so the plan's estimate is the objective the
    solver minimised; a stage priced by its own ranks would need that in the search too."""
    stride = dense_strides(layout.order, {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp})
    n = layout.pp
    arr = lambda val: np.full(n, float(val))
    per = lambda key: np.array([getattr(st, key) for st in layout.stages], float)
    return dict(tp=arr(layout.tp), cp=arr(layout.cp), dp=arr(layout.dp), pp=arr(layout.pp), vpp=arr(layout.vpp),
                etp=per("etp"), ep=per("ep"), edp=per("edp"), cu=arr(layout.cp_ulysses), cr=arr(layout.cp_ring),
                micro_batch=arr(layout.micro_batch), num_microbatches=arr(layout.num_microbatches),
                sharding=arr(SHARDINGS.index(layout.sharding)), master=arr(layout.master == "fp32"),
                s_tp=arr(stride["tp"]), s_cp=arr(stride["cp"]), s_dp=arr(stride["dp"]))


# --------------------------------------------------------------------------- params

_UNIT = dict(t=1.0, c=1.0, d=1.0, p=1.0, v=1.0, t_e=1.0, M_e=1.0, D_e=1.0, c_u=1.0, c_r=1.0, t_s=1.0, t_g=1.0,
             b=1.0, m=1.0, Z_d=1.0, Z_e=1.0, u_1=1.0, z_1=1.0, z_2=0.0, z_3=0.0, mu=0.0, W_tp=1.0, W_cu=1.0,
             W_cr=1.0, W_dpcp=1.0, W_edp=1.0, W_etp=1.0, W_pp=1.0, W_ein=1.0, W_eout=1.0, f_off=0.0,
             S=4096, flash=1, drop=0, eager=0, b_g=4, b_r=4, b_l=10, N_sm=1, T_m=1, T_n=1, L_a0=0.0, Pk=1.0, eta=1.0, eta_a=1.0, alpha=0.0, W_hbm=1.0,
             imb=1.0, imb_mem=1.0)


def unit_values(model, **over) -> dict:
    """Symbol values of `model` on one GPU with unit constants (parameter counts, tests)."""
    return {**_UNIT, **_model_part(model), **over}


def param_counts(problem_or_model) -> dict[str, float]:
    """Exact parameter counts: total, active (per token), and the MTP module."""
    model = getattr(problem_or_model, "model", problem_or_model)
    r = {k: float(v) for k, v in cc.formulas(unit_values(model)).items()}
    n_moe = sum(model.moe_layers())
    n_dense = model.layers - n_moe
    norm = r["P_norm"]
    layer_common = r["P_attn"] + 2 * norm
    experts = r["P_experts"]
    per_expert = experts / model.moe.experts if model.moe else 0.0
    dense_layer = layer_common + r["P_mlp"]
    moe_layer = layer_common + r["P_router"] + r["P_shared"] + experts
    emb, head = r["P_embed"], r["P_head"]
    total = n_dense * dense_layer + n_moe * moe_layer + emb + head + norm
    active = total - n_moe * per_expert * ((model.moe.experts - model.moe.top_k) if model.moe else 0)
    mtp = model.mtp_layers * ((moe_layer if n_moe else dense_layer) + r["P_mtp"])
    return {"total": total, "active": active, "mtp": mtp, "mtp_with_embeddings": mtp + model.mtp_layers * (emb + head),
            "embedding": emb, "head": head, "dense_layer": dense_layer, "moe_layer": moe_layer,
            "experts_per_layer": experts}


def training_flops(model, tokens: float, seq: int = 0) -> float:
    """6 * active params * tokens (+ causal attention if seq > 0), the usual estimate."""
    attn = 0.0
    if seq:
        mla = model.mla
        dqk = (mla.qk_nope_head_dim + mla.qk_rope_head_dim) if mla else model.head_dim
        dvv = mla.v_head_dim if mla else model.head_dim
        attn = 3 * model.layers * seq * model.heads * (dqk + dvv)
    return 6 * param_counts(model)["active"] * tokens + attn * tokens

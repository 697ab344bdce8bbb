"""Symbol values: what the problem and candidate layouts bind the formulas' symbols to.

`model_values(problem)` binds the model, the training shape and the GPU's constants;
`layout_values(problem, x)` binds candidate layouts given as arrays (vectorised: one
entry per candidate row), with each group's bandwidth chosen by whether the group stays
inside an NVLink domain (the locality vector, `planner.layout.grid.locality`). `param_counts` and `training_flops` read the
same formulas with a unit layout.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import planner.costmodel.compile as cc
import planner.costmodel.routing as routing
from planner.layout import SHARDINGS, dense_strides
from planner.costmodel.attention_kinds import attention_factor
from planner.specs.cp_impl import CP_TERMS
from planner.specs.kinds import CP_BALANCES, CP_COMMS, DISPATCHER, DISPATCHERS, MASTERS, OPTIMIZER_BYTES, OVERLAP_CONTENTION, SHARDING
from planner.specs.precision import recipe
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
        k_mtp=model.mtp_layers, is_moe_model=int(model.is_moe),
        n_ix=model.sparse_indexer_heads, d_ix=model.sparse_indexer_dim)


def model_values(problem) -> dict[str, float]:
    """Symbol values that depend only on the problem."""
    tr, gpu = problem.train, problem.cluster.gpu
    vals = _model_part(problem.model)
    eta_a, half_block = gpu.attention_curve(tr.attention_kernel)
    vals.update(k_f=attention_factor(problem.model, tr.seq), S=tr.seq, flash=int(tr.flash_attention), drop=int(tr.dropout), eager=int(tr.kernels == "eager"), b_g=tr.grad_bytes, b_l=tr.logit_bytes, b_y=tr.routed_output_bytes,
                b_r=tr.grad_reduce_bytes, Pk=gpu.peak_flops, eta=gpu.compute_efficiency,
                eta_g=gpu.expert_gemm_efficiency(tr.expert_gemm),
                eta_a=eta_a, alpha=gpu.latency_s, W_hbm=gpu.hbm_bw * gpu.hbm_efficiency,
                N_sm=gpu.sm_count, T_m=gpu.gemm_tile[0], T_n=gpu.gemm_tile[1], L_a0=half_block,
                u_ep=1.0 / (gpu.hbm_bw * gpu.hbm_efficiency) if gpu.gemm_epilogue else 0.0)
    # the dispatchers' constants (planner.specs.kinds.DISPATCHER: DeepEP's README rates, SMs per kernel)
    dep = DISPATCHER["deepep"]
    vals.update(W_nvl_x=gpu.intra_node_bw * gpu.bus_efficiency * dep.nvl_share_on(gpu.arch),
                W_rdma_x=gpu.inter_node_bw * dep.rdma_share, n_sm_a2a=DISPATCHER["alltoall"].sms,
                n_sm_dep=dep.sms, n_sm_hep=DISPATCHER["hybridep"].sms, rho_ov=OVERLAP_CONTENTION)
    vals.update(precision_values(tr, gpu))
    return vals     # imb / imb_mem depend on the layout: layout_values (planner.costmodel.routing)


def precision_values(train, gpu) -> dict[str, float]:
    """The FP8 symbols of the job's precision (planner.specs.precision; f_8 = 0 for bf16). n_wq, the
    weight casts per micro-batch, is 1 here; layout_values divides it by the micro-batches per step
    where Transformer Engine caches its fp8 weights (quantized on a step's first micro-batch:
    megatron/core/extensions/transformer_engine.py:1082-1088, is_first_microbatch, megatron-core 0.19.2);
    s_x and a_8 (torchao's per-linear casts, float8 TP) are set per layout there."""
    r, te = recipe(train.precision), train.fp8_library == "te"
    return dict(f_8=float(r.fp8), Pk_8=gpu.fp8_peak_flops or gpu.peak_flops,
                eta_8=gpu.fp8_compute_efficiency or gpu.compute_efficiency, w_8=r.wgrad_ratio, q_8=r.quant_bytes,
                s_8=r.saved_input_bytes if te else 2.0, c_8=r.weight_cache_bytes * te,
                g_8=float(r.fp8 and train.fp8_param_gather), n_wq=1.0, s_x=float(not te), a_8=0.0)


# what each sharding kind (in SHARDINGS' order) shards: z_1 the optimizer state, z_2 the gradients,
# z_3 the parameters (planner.specs.kinds.Sharding)
_SHARDS = np.array([[s.optimizer, s.grads, s.params] for s in SHARDING.values()], float)


_OPT_BYTES = np.array([OPTIMIZER_BYTES[m] for m in MASTERS], float)


def sharding_values(kind, master) -> dict[str, np.ndarray]:
    """z_1, z_2, z_3, mu and b_o of sharding kinds and master kinds (arrays of indices into SHARDINGS and
    MASTERS, or names)."""
    k = np.asarray([SHARDINGS.index(x) for x in np.atleast_1d(kind)] if np.asarray(kind).dtype.kind in "US"
                   else kind, float)
    m = np.asarray([MASTERS.index(x) for x in np.atleast_1d(master)] if np.asarray(master).dtype.kind in "US"
                   else master, float).astype(int)
    ki = k.astype(int)
    return {"z_1": _SHARDS[ki, 0], "z_2": _SHARDS[ki, 1], "z_3": _SHARDS[ki, 2],
            "mu": (m == MASTERS.index("fp32")).astype(float), "b_o": _OPT_BYTES[m]}


_CP_ROWS = np.array([[CP_TERMS[k][s] for s in ("q_p2p", "q_agr", "n_ag", "q_sv")] for k in CP_COMMS], float)


def cp_values(problem, x: dict) -> dict[str, np.ndarray]:
    """The CP implementation's symbols (planner.specs.cp_impl.CP_TERMS, cost_model.cp_terms): from
    `x`'s cp_comm / cp_balance (indices into CP_COMMS / CP_BALANCES) when a layout gives them, else
    what the problem plans with (TrainSpec.cp_comm / cp_balance, which a target sets)."""
    comm = np.asarray(x.get("cp_comm", CP_COMMS.index(problem.train.cp_comm)), float).astype(int)
    bal = np.asarray(x.get("cp_balance", CP_BALANCES.index(problem.train.cp_balance)), float)
    rows = _CP_ROWS[comm]
    return {"q_p2p": rows[..., 0], "q_agr": rows[..., 1], "n_ag": rows[..., 2], "q_sv": rows[..., 3],
            "c_b": (bal == CP_BALANCES.index("none")).astype(float)}


def expert_rows(problem, x: dict) -> np.ndarray:
    """R_rows at imbalance 1: the token-expert rows one EP rank receives per micro-batch on average
    (S / c tokens x micro-batch x top-k x etp / the sequence-parallel split), per candidate layout."""
    tr, moe = problem.train, problem.model.moe
    f = lambda k: np.asarray(x[k], float)
    tsp = np.where((f("tp") > 1) & tr.sequence_parallel, f("tp"), 1.0)
    return tr.seq / f("cp") * f("micro_batch") * (moe.top_k if moe else 0) * f("etp") / tsp


def layout_values(problem, x: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Symbol values of candidate layouts (vectorised). `x` holds arrays tp, cp, dp, pp,
    vpp, etp, ep, edp, cu, cr, micro_batch, num_microbatches, sharding (index into
    SHARDINGS), master (index into MASTERS) and the dense strides s_tp, s_cp, s_dp."""
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
    moe = problem.model.moe
    imb, imb_mem = routing.imbalance(tr, moe, expert_rows(problem, x), ep)
    te = tr.fp8_library == "te"
    n_wq = 1.0 / f("num_microbatches") if te else np.ones_like(tp)
    # torchtitan's float8 tensorwise with TP (torchtitan models/llama3/infra/parallelize.py:83-86, 192-202 at
    # 238fa99): PrepareFloat8ModuleInput casts a block's input once and all-gathers it in fp8, and
    # Float8RowwiseParallel casts dy to fp8 before its backward all-gather (torchao/float8/
    # float8_tensor_parallel.py, _prepare_output_fn: _NoopFwToFloat8BwDynamic after the redistribute);
    # other torchao runs, and the bundle (its fp8.py gathers bf16 and casts each linear's input), cast
    # each linear's input (s_x)
    a_8 = np.where((tp > 1) & (tr.fp8_library == "torchao") & (tr.precision == "fp8-tensorwise"), 1.0, 0.0)
    ep_run = dispatch_values(problem, x, ep, pp, f("vpp"))
    return dict(imb=imb, imb_mem=imb_mem, t=tp, c=cp, d=dp, p=pp, v=f("vpp"), t_e=etp, M_e=ep, D_e=edp, c_u=cu_, c_r=cr_,
                t_s=tsp, t_g=np.minimum(tp, problem.model.kv_heads), b=f("micro_batch"), m=f("num_microbatches"),
                Z_d=dp * cp, Z_e=edp, u_1=(pp == 1).astype(float),
                W_tp=bw(loc["tp"]), W_cu=bw(loc["cp_ulysses"]), W_cr=bw(loc["cp_ring"]), W_dpcp=bw(loc["dp_cp"]),
                W_edp=bw(loc["edp"]), W_etp=bw(loc["etp"]), W_pp=bw(loc["pp"]), W_ein=gpu.intra_node_bw * gpu.bus_efficiency,
                W_eout=gpu.inter_node_bw * gpu.bus_efficiency, f_off=loc["ep_off"], n_wq=n_wq, a_8=a_8, s_x=(1.0 - a_8) * (not te),
                **sharding_values(x["sharding"], x["master"]), **cp_values(problem, x), **ep_run)


_FLAGS = dict(zip(DISPATCHERS, ("d_a2a", "d_ag", "d_dep", "d_hep")))


def dispatch_values(problem, x, ep, pp, vpp) -> dict[str, np.ndarray]:
    """The dispatcher flags and the overlap of layouts: a layout's own (`x["dispatcher"]`, an index
    into DISPATCHERS, and `x["ep_overlap"]`), else, for the search's rows, every dispatcher the target
    runs (the formulas take the cheapest) and the overlap where the target can run it: ep > 1, and a
    pipeline only with virtual stages (megatron/core/transformer/transformer_config.py:2674-2682,
    megatron-core 0.19.2)."""
    tr = problem.train
    if "dispatcher" in x:
        kind = np.asarray(x["dispatcher"], float)
        out = {flag: (kind == i).astype(float) for i, flag in enumerate(_FLAGS.values())}
        out["o_ep"] = np.asarray(x["ep_overlap"], float) * (ep > 1)
        return out
    ones = np.ones_like(ep)
    out = {flag: ones * float(name in tr.dispatchers) for name, flag in _FLAGS.items()}
    out["o_ep"] = (float(tr.ep_overlap) * (ep > 1) * ((pp == 1) | (vpp > 1))).astype(float)
    return out


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
                sharding=arr(SHARDINGS.index(layout.sharding)), master=arr(MASTERS.index(layout.master)),
                s_tp=arr(stride["tp"]), s_cp=arr(stride["cp"]), s_dp=arr(stride["dp"]),
                cp_comm=arr(CP_COMMS.index(layout.cp_comm)), cp_balance=arr(CP_BALANCES.index(layout.cp_balance)),
                dispatcher=arr(DISPATCHERS.index(layout.dispatcher)), ep_overlap=arr(layout.ep_overlap))


# --------------------------------------------------------------------------- params

_UNIT = dict(t=1.0, c=1.0, d=1.0, p=1.0, v=1.0, t_e=1.0, M_e=1.0, D_e=1.0, c_u=1.0, c_r=1.0, t_s=1.0, t_g=1.0,
             b=1.0, m=1.0, Z_d=1.0, Z_e=1.0, u_1=1.0, z_1=1.0, z_2=0.0, z_3=0.0, mu=0.0, b_o=12.0, W_tp=1.0, W_cu=1.0,
             W_cr=1.0, W_dpcp=1.0, W_edp=1.0, W_etp=1.0, W_pp=1.0, W_ein=1.0, W_eout=1.0, f_off=0.0,
             k_f=1.0, S=4096, flash=1, drop=0, eager=0, b_g=4, b_r=4, b_l=10, b_y=2.0, N_sm=1, T_m=1, T_n=1, L_a0=0.0, Pk=1.0, eta=1.0, eta_g=1.0, eta_a=1.0, alpha=0.0, W_hbm=1.0, u_ep=0.0,
             imb=1.0, imb_mem=1.0, f_8=0.0, Pk_8=1.0, eta_8=1.0, w_8=1.0, q_8=0.0, s_8=2.0, c_8=0.0, g_8=0.0, n_wq=1.0, s_x=0.0, a_8=0.0,
             q_p2p=1.0, q_agr=0.0, n_ag=0.0, q_sv=0.0, c_b=0.0,
             d_a2a=1.0, d_ag=0.0, d_dep=0.0, d_hep=0.0, o_ep=0.0, n_sm_a2a=0.0,
             n_sm_dep=0.0, n_sm_hep=0.0, W_nvl_x=1.0, W_rdma_x=1.0, rho_ov=0.0)


def unit_values(model, **over) -> dict:
    """Symbol values of `model` on one GPU with unit constants (parameter counts, tests)."""
    return {**_UNIT, **_model_part(model), **over}


def param_counts(problem_or_model) -> dict[str, float]:
    """Exact parameter counts: total, active (per token), and the MTP module."""
    model = getattr(problem_or_model, "model", problem_or_model)
    try:
        return dict(_param_counts(model))
    except TypeError:                 # a model with an unhashable field: counted afresh
        return _param_counts.__wrapped__(model)


@lru_cache(maxsize=64)
def _param_counts(model) -> dict[str, float]:
    # a function of the (frozen, hashable) model alone: every estimate reads it (its MFU), and the
    # plan's engine pricing estimates hundreds of layouts of one model
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


def flops_per_token(model, seq: int = 0) -> float:
    """Model FLOPs of one training token, the numerator of every MFU foldplan states (the
    plan's, and the bundle's, which codegen writes from here): 6 * active params (forward 2,
    backward 4) + causal attention if seq > 0, 3 * L * S * a * (d_qk + d_v) * k_f (the layer kinds' mean
    work beside full causal attention, planner.costmodel.attention_kinds) + a sparse-attention
    indexer's causal scores, 3 * L * S * n_ix * d_ix."""
    attn = 0.0
    if seq:
        mla = model.mla
        dqk = (mla.qk_nope_head_dim + mla.qk_rope_head_dim) if mla else model.head_dim
        dvv = mla.v_head_dim if mla else model.head_dim
        attn = 3 * model.layers * seq * (model.heads * (dqk + dvv) * attention_factor(model, seq)
                                         + model.sparse_indexer_heads * model.sparse_indexer_dim)
    return 6 * param_counts(model)["active"] + attn


def training_flops(model, tokens: float, seq: int = 0) -> float:
    """Model FLOPs of `tokens` training tokens (`flops_per_token` each), the usual estimate."""
    return flops_per_token(model, seq) * tokens

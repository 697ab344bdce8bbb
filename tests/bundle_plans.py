"""Small, valid plan documents (docs/plan-schema.md) for the bundle tests.

The model: 4 layers, hidden 64, 8 heads / 4 kv heads (GQA), 8 experts top-2,
vocab 128; layer 0 dense (first_dense_layers=1), layers 1..3 MoE.
"""
import copy

MODEL = {
    "name": "tiny-moe", "layers": 4, "hidden": 64, "heads": 8, "kv_heads": 4, "head_dim": 8,
    "vocab": 128, "ffn_hidden": 128, "gated": True, "tied_embeddings": False, "norm": "rmsnorm",
    "qk_norm": True, "attention": "gqa", "mla": None, "mtp_layers": 0,
    "moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": 32, "shared_experts": 1,
            "shared_ffn_hidden": 32, "first_dense_layers": 1, "layer_freq": 1,
            "router_score": "sigmoid", "router_bias": True},
}

CLUSTER = {"gpu": "cpu", "gpus": 8, "gpus_per_node": 8, "memory_gib": 80, "peak_flops": 1e15,
           "intra_node_bw": 4.5e11, "inter_node_bw": 5e10, "latency_s": 5e-6,
           "compute_efficiency": 0.5, "reserve_gib": 2}


def plan(*, tp=1, cp=1, dp=1, pp=1, vpp=1, cp_kind="ring", cp_ulysses=None, cp_ring=None,
         order="tp-cp-dp-pp", split=None, folds=None, recompute=None, model=None,
         seq=64, micro_batch=1, num_microbatches=None, capacity_factor=None) -> dict:
    """One PLAN. split: layers per stage; folds: (etp, ep, edp) per stage
    (default: all experts spread, ep = largest divisor of 8 within the stage);
    recompute: (full, selective) per stage."""
    m = copy.deepcopy(model or MODEL)
    world = tp * cp * dp * pp
    local = tp * cp * dp
    n = pp                      # one entry per pp rank (vpp chunks each)
    split = split or [m["layers"] // n] * n
    if cp_ulysses is None:
        cp_ulysses = cp if cp_kind == "ulysses" else 1
    if cp_ring is None:
        cp_ring = cp // cp_ulysses
    if folds is None:
        ep = max(d for d in range(1, local + 1) if local % d == 0 and 8 % d == 0)
        folds = [(1, ep, local // ep)] * n
    recompute = recompute or [(0, 0)] * n
    stages, first = [], 0
    for s in range(n):
        etp, ep, edp = folds[s]
        stages.append({"index": s, "layers": [first, first + split[s]], "etp": etp, "ep": ep, "edp": edp,
                       "recompute_full": recompute[s][0], "recompute_selective": recompute[s][1]})
        first += split[s]
    mem = [{"weights": 1.0, "grads": 1.0, "optimizer": 2.0, "activations": 3.5, "logits": 0.5,
            "buffers": 0.25, "total": 8.25 + s} for s in range(n)]
    return {
        "problem": {"model": m, "cluster": dict(CLUSTER, gpus=world),
                    "train": {"seq": seq, "global_batch_tokens": seq * dp * micro_batch,
                              "micro_batches": num_microbatches or max(pp, 1), "recompute": "auto",
                              "cp_kinds": [cp_kind], "capacity_factor": capacity_factor}},
        "layout": {"world": world, "tp": tp, "cp": cp, "dp": dp, "pp": pp, "vpp": vpp,
                   "cp_kind": cp_kind, "cp_ulysses": cp_ulysses, "cp_ring": cp_ring, "order": order,
                   "micro_batch": micro_batch, "num_microbatches": num_microbatches or max(pp, 1),
                   "stages": stages},
        "estimate": {"step_time_s": 1.5, "tokens_per_s_per_gpu": 1000.0, "tflops_per_gpu": 100.0,
                     "mfu": 0.4, "peak_memory_gib": max(x["total"] for x in mem),
                     "memory_gib_by_stage": mem,
                     "time_s": {"compute": 1.0, "bubble": 0.2,
                                "exposed_comm": {"dp": 0.1, "edp": 0.05, "tp": 0.0, "cp": 0.1, "ep": 0.05, "pp": 0.0}}},
        "solver": {"status": "OPTIMAL", "wall_s": 0.1, "tuples": 10, "pruned": 5, "cpsat_calls": 2},
    }


def doc(*plans) -> dict:
    return {"schema": "foldplan.plans/1", "plans": list(plans)}

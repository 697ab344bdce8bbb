"""Small, legal plans (planner.plan.Plan) for the bundle tests.

The model: 4 layers, hidden 64, 8 heads / 4 kv heads (GQA), 8 experts top-2,
vocab 128; layer 0 dense (first_dense_layers=1), layers 1..3 MoE.
"""
import copy

from planner import costmodel as cm
from planner.layout import Layout, Stage, check
from planner.plan import Plan
from planner.specs import ModelSpec, make_problem

MODEL = {
    "name": "tiny-moe", "layers": 4, "hidden": 64, "heads": 8, "kv_heads": 4, "head_dim": 8,
    "vocab": 128, "ffn_hidden": 128, "gated": True, "tied_embeddings": False, "norm": "rmsnorm",
    "qk_norm": True, "attention": "gqa", "mla": None, "mtp_layers": 0,
    "moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": 32, "shared_experts": 1,
            "shared_ffn_hidden": 32, "first_dense_layers": 1, "layer_freq": 1,
            "router_score": "sigmoid", "router_bias": True},
}


def plan(*, tp=1, cp=1, dp=1, pp=1, vpp=1, cp_kind="ring", cp_ulysses=None, cp_ring=None,
         order="tp-cp-dp-pp", split=None, folds=None, recompute=None, model=None,
         seq=64, micro_batch=1, num_microbatches=None, capacity_factor=None, sharding="zero1", **train) -> Plan:
    """One legal Plan. split: layers per stage; folds: (etp, ep, edp) per stage
    (default: all experts spread, ep = largest divisor of the experts within the stage);
    recompute: (full, selective) per stage; train: more TrainSpec fields. The estimate is the
    cost model's."""
    m = ModelSpec(**copy.deepcopy(model or MODEL))
    world, local = tp * cp * dp * pp, tp * cp * dp
    split = split or [m.layers // pp] * pp
    if cp_ulysses is None:
        cp_ulysses = cp if cp_kind == "ulysses" else (1 if cp_kind == "ring" else 2)
    cp_ring = cp_ring or cp // cp_ulysses
    experts = m.moe.experts if m.moe else 1
    if folds is None:
        ep = max(d for d in range(1, local + 1) if local % d == 0 and experts % d == 0)
        folds = [(1, ep, local // ep)] * pp
    recompute = recompute or [(0, 0)] * pp
    nmb = num_microbatches or pp
    stages, first = [], 0
    for s in range(pp):
        etp, ep, edp = folds[s]
        stages.append(Stage(index=s, layers=(first, first + split[s]), etp=etp, ep=ep, edp=edp,
                            recompute_full=recompute[s][0], recompute_selective=recompute[s][1]))
        first += split[s]
    layout = Layout(world=world, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp, cp_kind=cp_kind, cp_ulysses=cp_ulysses,
                    cp_ring=cp_ring, order=order, micro_batch=micro_batch, num_microbatches=nmb,
                    sharding=sharding, stages=tuple(stages))
    problem = make_problem(model=m, gpu="h100-sxm", gpus=world, gpus_per_node=min(world, 8), seq=seq,
                           global_batch=dp * micro_batch * nmb, capacity_factor=capacity_factor,
                           cp_kinds=(cp_kind,), **train)
    check(layout, problem)
    return Plan(problem, layout, cm.evaluate(problem, layout), {"status": "OPTIMAL"})


def model(**changes) -> dict:
    """MODEL with some fields changed (moe=None for a dense model)."""
    m = copy.deepcopy(MODEL)
    m.update(changes)
    return m

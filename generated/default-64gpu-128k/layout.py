"""Every number of the plan this bundle runs, and its rank grid.

Generated from plan.json (plans[0]) by foldplan's codegen; do not edit the
numbers by hand, re-render instead. The runtime modules read only these names.
The process groups are not listed: they are computed below, once, from the
degrees, the rank order and the per-stage expert folding (picotron's one grid).
"""

from axes import DENSE_KINDS, EXPERT_KINDS, axis_strides, coordinate, dense_strides, groups


# The model as planned (full size).
MODEL = {'name': 'mixtral-8x7b', 'layers': 32, 'hidden': 4096, 'heads': 32, 'kv_heads': 8, 'head_dim': 128,
 'vocab': 32000, 'ffn_hidden': 0, 'gated': True, 'tied_embeddings': False, 'norm': 'rmsnorm', 'qk_norm': False,
 'attention': 'gqa',
 'is_moe': [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True,
  True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True],
 'experts': 8, 'top_k': 2, 'expert_ffn': 14336, 'shared_ffn': 0, 'router_score': 'softmax',
 'router_bias': False}

# The same model for `--tiny` / `--check`: same degrees, layers per stage and
# experts; hidden, ffn, vocab and seq shrunk (2*cp | seq, tp*cp_ulysses | heads).
TINY = {'name': 'mixtral-8x7b (tiny)', 'layers': 32, 'hidden': 64, 'heads': 32, 'kv_heads': 8, 'head_dim': 8,
 'vocab': 128, 'ffn_hidden': 0, 'gated': True, 'tied_embeddings': False, 'norm': 'rmsnorm', 'qk_norm': False,
 'attention': 'gqa',
 'is_moe': [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True,
  True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True],
 'experts': 8, 'top_k': 2, 'expert_ffn': 32, 'shared_ffn': 0, 'router_score': 'softmax', 'router_bias': False}

# Training shape: seq, micro_batch, num_microbatches, capacity_factor (None = dropless), and the
# linear layers' precision (bf16 or fp8-tensorwise: fp8.py).
TRAIN = {'seq': 131072, 'micro_batch': 1, 'num_microbatches': 16, 'capacity_factor': None, 'precision': 'bf16'}
TINY_TRAIN = {'seq': 64, 'micro_batch': 2, 'num_microbatches': 2, 'capacity_factor': None, 'precision': 'bf16'}

# Model FLOPs per training token, the numerator of MFU: the planner's count
# (planner.costmodel.values.flops_per_token: 6 x active parameters + causal attention)
# of MODEL at TRAIN's seq and of TINY at TINY_TRAIN's.
FLOPS_PER_TOKEN = {'model': 180358766592.0, 'tiny': 13590912.0}

# Degrees. world == tp * cp * dp * pp; cp == cp_ulysses * cp_ring. order: the dense
# axes innermost (stride 1) first, pp last. sharding: none | zero1 | zero2 | zero3
# (dense state over dp x cp, expert state over edp); master: bf16+fp32 | fp32.
LAYOUT = {'world': 64, 'tp': 2, 'cp': 16, 'dp': 2, 'pp': 1, 'vpp': 1, 'cp_kind': 'hybrid', 'cp_ulysses': 4,
 'cp_ring': 4, 'order': 'tp-cp-dp-pp', 'sharding': 'zero2', 'master': 'fp32',
 'shards': {'optimizer': True, 'grads': True, 'params': False}}

# One entry per pipeline stage s (virtual stages when vpp > 1; stage s runs on
# pp rank s % pp). layers: the transformer layers of the stage, in order;
# is_moe[i] / recompute[i] belong to layers[i] ("full", "selective" or "none");
# recompute_modules: what "selective" recomputes (Megatron's module names);
# etp * ep * edp == tp * cp * dp: the expert view of the same ranks.
STAGES = [{'index': 0, 'pp_rank': 0,
   'layers': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27, 28, 29, 30, 31],
   'is_moe': [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True,
    True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True],
   'recompute': ['selective', 'selective', 'selective', 'selective', 'selective', 'selective', 'selective',
    'selective', 'selective', 'selective', 'selective', 'selective', 'selective', 'selective',
    'selective', 'selective', 'selective', 'selective', 'selective', 'selective', 'selective',
    'selective', 'selective', 'selective', 'selective', 'selective', 'selective', 'selective',
    'selective', 'selective', 'selective', 'selective'],
   'recompute_modules': ['moe_act'], 'etp': 2, 'ep': 2, 'edp': 16}]

# The smallest layout with every parallel kind of this plan, for a `--check` that
# does not fit one machine (check_fit.py).
CHECK_WORLD = {'world': 16, 'tp': 2, 'cp': 4, 'cp_ulysses': 2, 'cp_ring': 2, 'dp': 2, 'pp': 1, 'folds': [[2, 2, 4]]}

# Oldest torch release this bundle supports.
MIN_TORCH = [2, 8]

# ---------------------------------------------------------------- the rank grid
# Global rank r = pp_rank * STAGE_RANKS + local; `local` decomposes over the dense
# order (first axis stride 1); cp = cp_ring (outer) x cp_ulysses (inner, stride 1
# inside cp); the expert view of a stage decomposes the same `local` as etp
# (stride 1), ep, edp. Strides and groups are axes.py's: the planner's own functions
# (planner/layout/axes.py, copied here by codegen).
STAGE_RANKS = LAYOUT["tp"] * LAYOUT["cp"] * LAYOUT["dp"]
STRIDE = dense_strides(LAYOUT["order"], LAYOUT)


def _axes(st):
    """(stride, size) of every axis with stage st's expert folding."""
    L = LAYOUT
    return axis_strides(dict(tp=L["tp"], cp=L["cp"], dp=L["dp"], pp=L["pp"], cu=L["cp_ulysses"], cr=L["cp_ring"],
                             etp=st["etp"], ep=st["ep"], edp=st["edp"], s_tp=STRIDE["tp"], s_cp=STRIDE["cp"],
                             s_dp=STRIDE["dp"]))


AXES = {st["index"]: _axes(st) for st in STAGES}        # per stage; the dense axes are the same in all
DENSE = AXES[STAGES[0]["index"]]


def coords(rank: int) -> dict:
    """Dense coordinates of a rank, and its expert coordinates in each of its stages."""
    c = {a: coordinate(DENSE, a, rank) for a in ("pp", "tp", "cp", "dp", "cp_ring", "cp_ulysses")}
    c["experts"] = {}
    for st in STAGES:
        if st["pp_rank"] == c["pp"]:
            ax = AXES[st["index"]]
            c["experts"][st["index"]] = {**{a: coordinate(ax, a, rank) for a in EXPERT_KINDS},
                                         "etp_size": st["etp"], "ep_size": st["ep"], "edp_size": st["edp"]}
    return c


RANKS = [coords(r) for r in range(LAYOUT["world"])]


def _expert_groups(st):
    ranks = range(st["pp_rank"] * STAGE_RANKS, (st["pp_rank"] + 1) * STAGE_RANKS)
    return {kind: groups(AXES[st["index"]], kind, ranks) for kind in EXPERT_KINDS}


def _dense_grid():
    """[pp][dp][cp][tp] -> global rank: the DeviceMesh (pp, dp, cp, tp)."""
    (s_pp, pp), (s_dp, dp), (s_cp, cp), (s_tp, tp) = (DENSE[a] for a in ("pp", "dp", "cp", "tp"))
    return [[[[p * s_pp + d * s_dp + c * s_cp + t * s_tp for t in range(tp)] for c in range(cp)] for d in range(dp)]
            for p in range(pp)]


def _expert_grid():
    """[pp][edp][ep][etp] -> global rank when every stage folds the same way, else None."""
    if len({(st["etp"], st["ep"], st["edp"]) for st in STAGES}) != 1:
        return None
    ax = AXES[STAGES[0]["index"]]
    (s_pp, pp), (s_edp, edp), (s_ep, ep), (s_etp, etp) = (ax[a] for a in ("pp", "edp", "ep", "etp"))
    return [[[[p * s_pp + d * s_edp + e * s_ep + t * s_etp for t in range(etp)] for e in range(ep)]
             for d in range(edp)] for p in range(pp)]


# Process groups as lists of global ranks, every group of the job (new_group is
# collective: every rank creates all of them, in this order, and keeps its own).
# Per-stage expert groups are keyed by stage index.
# dp_cp: dense gradients reduce here; stage: every rank of a pipeline stage.
GROUPS = {
    **{kind: groups(DENSE, kind, range(LAYOUT["world"])) for kind in DENSE_KINDS},
    # tied embedding with pp > 1: the first and the last stage's copies
    "embed": ([[r, r + (LAYOUT["pp"] - 1) * STAGE_RANKS] for r in range(STAGE_RANKS)]
              if MODEL["tied_embeddings"] and LAYOUT["pp"] > 1 else []),
    "experts": {st["index"]: _expert_groups(st) for st in STAGES},
    "dense_grid": _dense_grid(),
    "expert_grid": _expert_grid(),
}

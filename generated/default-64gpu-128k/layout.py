"""Every number of the plan this bundle runs, and its rank grid.

Generated from plan.json (plans[0]) by foldplan's codegen; do not edit the
numbers by hand, re-render instead. The runtime modules read only these names.
The process groups are not listed: they are computed below, once, from the
degrees, the rank order and the per-stage expert folding (picotron's one grid).
"""

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
   'recompute_modules': ['layernorm', 'moe_act'], 'etp': 2, 'ep': 2, 'edp': 16}]

# The smallest layout with every parallel kind of this plan, for a `--check` that
# does not fit one machine (check_fit.py).
CHECK_WORLD = {'world': 16, 'tp': 2, 'cp': 4, 'cp_ulysses': 2, 'cp_ring': 2, 'dp': 2, 'pp': 1, 'folds': [[2, 2, 4]]}

# Oldest torch release this bundle supports.
MIN_TORCH = [2, 8]

# ---------------------------------------------------------------- the rank grid
# Global rank r = pp_rank * STAGE_RANKS + local; `local` decomposes over the dense
# order (first axis stride 1); cp = cp_ring (outer) x cp_ulysses (inner, stride 1
# inside cp); the expert view of a stage decomposes the same `local` as etp
# (stride 1), ep, edp.
STAGE_RANKS = LAYOUT["tp"] * LAYOUT["cp"] * LAYOUT["dp"]


def _strides():
    out, acc = {}, 1
    for axis in LAYOUT["order"].split("-")[:-1]:
        out[axis], acc = acc, acc * LAYOUT[axis]
    return out


STRIDE = _strides()


def coords(rank: int) -> dict:
    """Dense coordinates of a rank, and its expert coordinates in each of its stages."""
    pp, local = divmod(rank, STAGE_RANKS)
    c = {"pp": pp, **{a: local // STRIDE[a] % LAYOUT[a] for a in ("tp", "cp", "dp")}}
    c["cp_ring"], c["cp_ulysses"] = divmod(c["cp"], LAYOUT["cp_ulysses"])
    c["experts"] = {}
    for st in STAGES:
        if st["pp_rank"] == pp:
            etp, ep = st["etp"], st["ep"]
            c["experts"][st["index"]] = {"etp": local % etp, "ep": local // etp % ep, "edp": local // (etp * ep),
                                         "etp_size": etp, "ep_size": ep, "edp_size": st["edp"]}
    return c


RANKS = [coords(r) for r in range(LAYOUT["world"])]


def _groups(same, ranks=range(LAYOUT["world"])):
    """Groups of the ranks whose coordinates `same(c)` agree, each sorted (a rank's
    index in its group is its coordinate on the group's axis), in a fixed order."""
    out = {}
    for r in ranks:
        out.setdefault(same(RANKS[r]), []).append(r)
    return sorted(out.values())


def _expert_groups(st):
    ranks = range(st["pp_rank"] * STAGE_RANKS, (st["pp_rank"] + 1) * STAGE_RANKS)
    e = lambda c: c["experts"][st["index"]]             # noqa: E731
    return {"etp": _groups(lambda c: (e(c)["ep"], e(c)["edp"]), ranks),
            "ep": _groups(lambda c: (e(c)["etp"], e(c)["edp"]), ranks),
            "edp": _groups(lambda c: (e(c)["etp"], e(c)["ep"]), ranks)}


def _dense_grid():
    """[pp][dp][cp][tp] -> global rank: the DeviceMesh (pp, dp, cp, tp)."""
    L = LAYOUT
    return [[[[p * STAGE_RANKS + d * STRIDE["dp"] + c * STRIDE["cp"] + t * STRIDE["tp"] for t in range(L["tp"])]
              for c in range(L["cp"])] for d in range(L["dp"])] for p in range(L["pp"])]


def _expert_grid():
    """[pp][edp][ep][etp] -> global rank when every stage folds the same way, else None."""
    folds = {(st["etp"], st["ep"], st["edp"]) for st in STAGES}
    if len(folds) != 1:
        return None
    (etp, ep, edp), = folds
    return [[[[p * STAGE_RANKS + t + etp * (e + ep * d) for t in range(etp)] for e in range(ep)]
             for d in range(edp)] for p in range(LAYOUT["pp"])]


# Process groups as lists of global ranks, every group of the job (new_group is
# collective: every rank creates all of them, in this order, and keeps its own).
# Per-stage expert groups are keyed by stage index.
GROUPS = {
    "tp": _groups(lambda c: (c["pp"], c["dp"], c["cp"])),
    "cp": _groups(lambda c: (c["pp"], c["dp"], c["tp"])),
    "cp_ulysses": _groups(lambda c: (c["pp"], c["dp"], c["tp"], c["cp_ring"])),
    "cp_ring": _groups(lambda c: (c["pp"], c["dp"], c["tp"], c["cp_ulysses"])),
    "dp": _groups(lambda c: (c["pp"], c["cp"], c["tp"])),
    "dp_cp": _groups(lambda c: (c["pp"], c["tp"])),          # dense gradients reduce here
    "stage": _groups(lambda c: c["pp"]),
    "pp": _groups(lambda c: (c["dp"], c["cp"], c["tp"])),
    # tied embedding with pp > 1: the first and the last stage's copies
    "embed": ([[r, r + (LAYOUT["pp"] - 1) * STAGE_RANKS] for r in range(STAGE_RANKS)]
              if MODEL["tied_embeddings"] and LAYOUT["pp"] > 1 else []),
    "experts": {st["index"]: _expert_groups(st) for st in STAGES},
    "dense_grid": _dense_grid(),
    "expert_grid": _expert_grid(),
}

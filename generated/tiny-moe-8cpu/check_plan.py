"""--check: the program that runs is the one plan.json describes.

`plan_mismatches` re-derives, from plan.json alone (not from layout.py), what
this rank must run: its (virtual) stages, their layers, each layer's recompute
and modules, each stage's expert folding and the size of every process group,
and compares them with the modules and groups that were actually built.

`RecomputeProbe` observes recompute instead of trusting flags: a dispatch mode
counts the attention kernels and FFN activations that run in forward, per
layer, and those that run again inside backward (recompute). A layer fully
recomputed runs both again; core_attn (selective) runs the attention again.
"""
import json
import os
from collections import Counter, defaultdict

import torch
import torch.distributed as dist
from torch.utils._python_dispatch import TorchDispatchMode

PLAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan.json")


def moe_flags(model: dict) -> list:
    """is_moe[i] per layer, from the plan's model (docs/plan-schema.md)."""
    moe, n = model.get("moe"), model["layers"]
    if not moe:
        return [False] * n
    freq = moe.get("layer_freq", 1)
    if isinstance(freq, list):
        return [bool(f) for f in freq]
    return [i >= (moe.get("first_dense_layers") or 0) and i % freq == 0 for i in range(n)]


def planned_stages(plan: dict) -> dict:
    """stage index -> {pp_rank, layers, recompute {layer: kind}, modules, fold (etp, ep, edp)}, by
    the planner's placement rule (planner/layout/placement.py; tests/test_placement.py holds this
    copy to it): vpp > 1 cuts pp rank p's layers into vpp chunks as evenly as they go, the later
    chunks one heavier (on the last of several ranks the earlier ones), and deals the model's
    layers out in virtual-stage order v * pp + p; full
    recompute takes a rank's MoE layers first, then dense ones, and selective the next layers in
    the same order."""
    L = plan["layout"]
    pp, vpp, is_moe = L["pp"], L.get("vpp", 1), moe_flags(plan["problem"]["model"])
    counts = [s["layers"][1] - s["layers"][0] for s in L["stages"]]
    chunks, nxt = {}, 0
    for v in range(vpp):
        for p in range(pp):
            extra = counts[p] % vpp
            heavy = v < extra if pp > 1 and p == pp - 1 else v >= vpp - extra
            n = counts[p] // vpp + (1 if heavy else 0)
            chunks[v * pp + p], nxt = list(range(nxt, nxt + n)), nxt + n
    out = {}
    for p, st in enumerate(L["stages"]):
        mine = [i for v in range(vpp) for i in chunks[v * pp + p]]
        order = [i for i in mine if is_moe[i]] + [i for i in mine if not is_moe[i]]
        n_full, n_sel = st.get("recompute_full", 0), st.get("recompute_selective", 0)
        full, sel = set(order[:n_full]), set(order[n_full:n_full + n_sel])
        kind = {i: "full" if i in full else "selective" if i in sel else "none" for i in mine}
        for v in range(vpp):
            out[v * pp + p] = {"pp_rank": p, "layers": chunks[v * pp + p], "recompute": kind,
                               "modules": set(st.get("recompute_modules", ["core_attn"])),
                               "fold": (st.get("etp", 1), st.get("ep", 1), st.get("edp", 1))}
    return out


def plan_mismatches(stages, mesh, path=PLAN) -> list:
    """Lines saying where this rank's running program differs from plan.json (empty: none)."""
    with open(path) as f:
        plan = json.load(f)["plans"][0]
    L, want, bad = plan["layout"], planned_stages(plan), []
    for axis in ("tp", "cp", "dp", "pp"):
        size = dist.get_world_size(getattr(mesh, f"{axis}_group"))
        if size != L[axis] or getattr(mesh, f"{axis}_size") != L[axis]:
            bad.append(f"{axis} group has {size} ranks, plan.json says {axis}={L[axis]}")
    mine = sorted(s for s, w in want.items() if w["pp_rank"] == mesh.pp_rank)
    if list(mesh.stage_indices) != mine:
        bad.append(f"runs stages {list(mesh.stage_indices)}, plan.json gives pp rank {mesh.pp_rank} stages {mine}")
    for s, model in zip(mesh.stage_indices, stages):
        w = want.get(s)
        if w is None:
            continue
        layers = [int(k) for k in model.layers.keys()]
        if layers != w["layers"]:
            bad.append(f"stage {s} runs layers {layers}, plan.json says {w['layers']}")
        for i, layer in zip(layers, model.layers.values()):
            kind = w["recompute"].get(i, "none")
            modules = w["modules"] if kind == "selective" else set()
            if layer.recompute != kind or set(getattr(layer, "modules", ())) != modules:
                bad.append(f"layer {i} recomputes {layer.recompute} {sorted(getattr(layer, 'modules', ()))}, "
                           f"plan.json says {kind} {sorted(modules)}")
        for moe in model.moe_layers():
            ex = moe.ex
            got = tuple(dist.get_world_size(g) for g in (ex.etp_group, ex.ep_group, ex.edp_group))
            if got != w["fold"] or (ex.etp_size, ex.ep_size, ex.edp_size) != w["fold"]:
                bad.append(f"stage {s} folds experts etp x ep x edp = {got}, plan.json says {w['fold']}")
                break
    return bad


def _kind(func) -> str:
    name = func._schema.name
    if "scaled_dot_product" in name and "backward" not in name:
        return "attn"
    return "act" if name in ("aten::silu", "aten::gelu") else ""


class RecomputeProbe(TorchDispatchMode):
    """Counts attention kernels and FFN activations: in forward per layer, and in backward."""

    def __init__(self, stages):
        super().__init__()
        self.layers = {}                                 # layer index -> Layer module
        for st in stages:
            self.layers.update({int(i): layer for i, layer in st.layers.items()})
        self.current, self.forward, self.backward = None, defaultdict(Counter), Counter()
        self.hooks = []
        for i, layer in self.layers.items():
            self.hooks.append(layer.register_forward_pre_hook(lambda *_, i=i: setattr(self, "current", i)))
            self.hooks.append(layer.register_forward_hook(lambda *_: setattr(self, "current", None)))

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kind = _kind(func)
        if kind:
            if torch._C._current_graph_task_id() != -1:      # inside backward: a recompute
                self.backward[kind] += 1
            elif self.current is not None:
                self.forward[self.current][kind] += 1
        return func(*args, **(kwargs or {}))

    def __exit__(self, *exc):
        for h in self.hooks:
            h.remove()
        return super().__exit__(*exc)

    def mismatches(self, mesh) -> list:
        """Observed recompute vs the layers' planned recompute (layer.recompute / .modules)."""
        want, exact_act = Counter(), True
        for i, layer in self.layers.items():
            kind, modules = layer.recompute, set(getattr(layer, "modules", ()))
            if kind == "full" or (kind == "selective" and "core_attn" in modules):
                want["attn"] += self.forward[i]["attn"]
            if kind == "full" or (kind == "selective" and modules & {"mlp", "moe"}):
                want["act"] += self.forward[i]["act"]
            exact_act &= not (kind == "selective" and modules & {"moe_act", "shared_experts"})
        bad = []
        for kind in ("attn", "act") if exact_act else ("attn",):
            if self.backward[kind] != want[kind]:
                bad.append(f"recompute: {self.backward[kind]} {kind} kernels ran again in backward, "
                           f"the planned recompute of this rank's layers runs {want[kind]}")
        return bad

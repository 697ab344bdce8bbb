"""Engine targets: what the search may choose when the plan runs on foldplan's bundle,
Megatron-LM or torchtitan, and the search that keeps to it.

The rules of each engine live in planner.layout's rule table (ids `target.*`, keyed on
`problem.train.target`, each citing the engine's own validation code), so the audit, the
search and `export` read one definition. This module adds what is not a rule:

* the search defaults of each target (`train_defaults`): the master copy, the sharding
  kinds, the CP kinds and the recompute modules its flags can set;
* `search`: planner.solve.search with the target's rank order fixed (both engines lay ranks out
  tp-cp-dp-pp), its fold rules as the fold filter, and the uniform expert folding (the
  stage model and the brute force read `train.target`). Megatron's one recompute form for
  the model (one granularity, one module list, one --recompute-num-layers) is a constraint
  of the stage model too, so its plans come back proven. torchtitan's AC modes are not:
  each returned plan's per-stage recompute is rounded to the nearest form its flags can
  say (`realise`), choosing, on the same split and folding, the fastest form that fits.

What `realise` returns is proven optimal only when the solver's own best plan needed no
rounding: otherwise the status says FEASIBLE (the rounding is a step after the proof).
"""
from __future__ import annotations

import dataclasses
from itertools import combinations
from typing import Callable, Optional

from planner import costmodel as cm
from planner.layout import RULES, Layout, Violation, degree_violations
from planner.layout.engine_recompute import megatron_block_counts, megatron_block_full
from planner.layout.rules import TITAN_SAC, megatron_recompute, torchtitan_recompute
from planner.specs.types import TrainSpec

TARGETS = ("bundle", "megatron", "torchtitan")
ENGINE_ORDER = "tp-cp-dp-pp"
# the modules the bundle's own recompute frees, each checked against the cost model's term by
# its --dry-run (moe_act keeps the gate/up outputs and recomputes the activation in backward)
BUNDLE_MODULES = ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj")
# Megatron-LM's --recompute-modules (megatron/core/transformer/transformer_config.py); "moe"
# (the whole MoE layer) is left to full recompute, as the search does for every target
MEGATRON_MODULES = ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj")
# how many solver plans `search` rounds before it ranks them (one per degree tuple)
WIDEN = 12


def train_defaults(target: str) -> dict:
    """TrainSpec fields of a target's search (the CLI's flags override them)."""
    out = _defaults(target)
    # the loss peak: Megatron's vocab-parallel cross entropy keeps 10 bytes per logit, eager
    # F.cross_entropy on .float() logits (torchtitan, the bundle) 12 (TrainSpec.logit_bytes)
    if "logit_bytes" in TrainSpec.model_fields:
        out["logit_bytes"] = 10 if target == "megatron" else 12
    return out


def _defaults(target: str) -> dict:
    if target == "megatron":
        # distributed optimizer = zero1; Megatron FSDP optim_grads / optim_grads_params = zero2 / zero3
        # Transformer Engine's / Megatron-Core's fused elementwise kernels
        # Transformer Engine's DotProductAttention prefers its cuDNN fused attention on Hopper
        return {"master": "bf16+fp32", "recompute_modules": MEGATRON_MODULES,
                "shardings": ("zero1", "zero2", "zero3"), "target": "megatron", "kernels": "fused",
                "attention_kernel": "fused"}
    if target == "torchtitan":
        # the stage model searches full recompute only: torchtitan has no modules, and its per-op
        # AC (TITAN_SAC, every layer) is one of the forms `realise` tries
        # (and torch.compile on the model, as the exported TOML sets it: fused elementwise kernels)
        # (its SDPA wrapper puts cuDNN attention first: torchtitan/models/attention.py, 2025-26)
        return {"master": "fp32", "recompute_modules": (), "shardings": ("zero2", "zero3"),
                "cp_kinds": ("ring",), "target": "torchtitan", "kernels": "fused", "attention_kernel": "fused"}
    # the bundle's own modules are eager PyTorch, one kernel per op (templates/bundle/blocks.py: RMSNorm
    # in fp32, rotate-half RoPE, SwiGLU; GQA's repeat_interleave; no torch.compile)
    return {"master": "fp32", "recompute_modules": BUNDLE_MODULES, "target": "bundle", "kernels": "eager"}


def bundle_attention_kernel(gpu) -> str:
    """The attention kernel the bundle runs on ``gpu``: PyTorch's flash kernel, FlashAttention-2, in
    the ring's blocks (templates/bundle/cp/kernels.py: aten._scaled_dot_product_flash_attention) and
    in local attention (cp/attention.py pins SDPA's flash backend on CUDA). Costed with the preset's
    FlashAttention-2 curve where it has one; a preset without one (no published FA2 figures for
    that GPU) is costed with its fused curve, and the plan says so (report.header)."""
    return "flash2" if gpu.flash2_attention_efficiency is not None else "fused"


def engine(problem) -> str:
    return getattr(problem.train, "target", "bundle")


def fold_filter(problem) -> Optional[Callable]:
    """The target's fold rules as planner.solve.search's fold filter (None for the bundle)."""
    if engine(problem) == "bundle":
        return None
    seen: dict = {}                          # the fold rules read only these six degrees

    def keep(tu, f) -> bool:
        key = (tu.tp, tu.cp, tu.dp, *f)
        if key not in seen:
            seen[key] = not degree_violations(problem, "fold", tp=tu.tp, cp=tu.cp, dp=tu.dp,
                                              etp=f[0], ep=f[1], edp=f[2])
        return seen[key]
    keep.tuple_key = lambda tu: (tu.tp, tu.cp, tu.dp)      # planner.solve.space.tables: one fold list per value
    return keep


def violations(layout: Layout, problem) -> list[Violation]:
    """Every rule the layout breaks, the target's recompute form included."""
    from planner.layout import violations as layout_violations
    out = layout_violations(layout, problem)
    for r in RULES.values():
        if r.scope == "target":
            msg = r.check(layout, problem)
            if msg:
                out.append(Violation(r.id, msg))
    return out


def runs_on(layout: Layout, problem, target: str) -> list[Violation]:
    """What keeps `target` from running `layout` (the same problem, read for that engine)."""
    pr = problem.model_copy(update={"train": problem.train.model_copy(update={"target": target})})
    return [v for v in violations(layout, pr) if v.rule.startswith("target.")]


# --------------------------------------------------------------------------- recompute forms

def _with(layout: Layout, per_stage) -> Layout:
    stages = tuple(s.model_copy(update=u) for s, u in zip(layout.stages, per_stage))
    return layout.model_copy(update={"stages": stages})


def recompute_forms(problem, layout: Layout) -> list[Layout]:
    """The layout under every recompute the target's flags can say (same split and folding)."""
    allowed, L = set(problem.train.recompute), layout
    n = [s.num_layers for s in L.stages]
    out = []
    if "none" in allowed:
        out.append(_with(L, [{"recompute_full": 0, "recompute_selective": 0}] * L.pp))
    if "selective" in allowed:
        if engine(problem) == "megatron":
            mods = [k for k in problem.train.recompute_modules if k in MEGATRON_MODULES and _has(problem, k)]
            sets = [c for r in range(1, len(mods) + 1) for c in combinations(mods, r)]
        else:
            sets = [TITAN_SAC]
        for mset in sets:
            out.append(_with(L, [{"recompute_full": 0, "recompute_selective": k, "recompute_modules": mset}
                                 for k in n]))
    if "full" in allowed:
        if engine(problem) == "megatron":
            for k in megatron_block_counts(max(n), L.vpp):      # --recompute-method block --recompute-num-layers k
                out.append(_with(L, [{"recompute_full": megatron_block_full(m, k, L.vpp), "recompute_selective": 0}
                                     for m in n]))
        else:
            for k in range(1, max(n) + 1):     # every k-th block (k = 1: mode full)
                out.append(_with(L, [{"recompute_full": m // k, "recompute_selective": 0} for m in n]))
    return out


def _has(problem, module: str) -> bool:
    m = problem.model
    return {"core_attn": True, "layernorm": True, "mlp": not all(m.moe_layers()), "moe_act": m.is_moe,
            "shared_experts": bool(m.moe and m.moe.shared_experts), "mla_up_proj": m.attention == "mla"}.get(module,
                                                                                                          False)


def recompute_form(problem, layout: Layout) -> tuple[Optional[dict], Optional[str]]:
    """The engine's recompute settings for the layout, or why it has none."""
    if engine(problem) == "megatron":
        return megatron_recompute(layout)
    if engine(problem) == "torchtitan":
        return torchtitan_recompute(layout)
    return {}, None


def realise(problem, layout: Layout) -> Optional[tuple[Layout, cm.Estimate]]:
    """The fastest layout the target can run with this layout's split and folding (its own
    recompute when the engine can say it), and its estimate; None when no form fits."""
    budget = problem.cluster.memory_budget_gib * cm.GiB
    if recompute_form(problem, layout)[1] is None:
        return layout, cm.evaluate(problem, layout)
    best = None
    for cand in recompute_forms(problem, layout):
        if recompute_form(problem, cand)[1] is not None:
            continue
        est = cm.evaluate(problem, cand)
        if est.peak_bytes <= budget and (best is None or est.step_time < best[1].step_time):
            best = (cand, est)
    return best


# --------------------------------------------------------------------------- the search

def search(problem, *, top: int = 5, time_limit: float = 60.0, progress=None, fixed: Optional[dict] = None):
    """planner.solve.search within what `problem.train.target` can run (see the module docstring)."""
    from planner.solve import search as solve
    from planner.solve.search import Candidate
    if engine(problem) == "bundle":
        return solve(problem, top=top, time_limit=time_limit, progress=progress, fixed=fixed)
    fixed = dict(fixed or {})
    fixed.setdefault("order", ENGINE_ORDER)
    # the stage model keeps to Megatron's one recompute form itself; torchtitan's per-op AC is
    # not in it, so `realise` tries it on the WIDEN best plans
    wide = max(top, WIDEN) if engine(problem) == "torchtitan" else top
    res = solve(problem, top=wide, time_limit=time_limit, progress=progress, fixed=fixed,
                fold_filter=fold_filter(problem))
    plans = []
    for c in res.plans:
        got = realise(problem, c.layout)
        if got is None:
            continue
        L, est = got
        status = c.status if L == c.layout else "FEASIBLE"
        plans.append(Candidate(L, est, est.step_time * 1e9, status))
    plans.sort(key=lambda c: c.estimate.step_time)
    proven = res.status == "OPTIMAL" and plans and res.plans and plans[0].layout == res.plans[0].layout
    status = res.status if proven or not plans else "FEASIBLE"
    return dataclasses.replace(res, plans=plans[:top], status=status)


def price(problem, best_time: float, *, time_limit: float = 30.0) -> dict:
    """For a bundle plan: the best plan Megatron and torchtitan could each run on the same
    problem, and how much slower it is (the price of per-stage folding and their flags)."""
    out = {}
    for target in ("megatron", "torchtitan"):
        over = {k: v for k, v in train_defaults(target).items()}
        train = problem.train.model_copy(update=over)
        pr = problem.model_copy(update={"train": type(problem.train)(**train.model_dump())})
        res = search(pr, top=1, time_limit=time_limit)
        if not res.plans:
            out[target] = None
            continue
        c = res.plans[0]
        out[target] = {"layout": c.layout, "estimate": c.estimate, "status": res.status,
                       "slowdown": c.estimate.step_time / best_time - 1, "kernels": pr.train.kernels,
                       "attention": pr.train.attention_kernel}
    return out

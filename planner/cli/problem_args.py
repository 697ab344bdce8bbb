"""Command-line values -> Problem: the one place the CLI's problem options are read
(`foldplan plan`, `explain`; the audit lays its config's values over the same)."""
from __future__ import annotations

from planner.specs import DEFAULT_GPU, DEFAULT_MODEL, SpecError, make_problem



def _int(text, field):
    try:
        return int(text)
    except (TypeError, ValueError):
        raise SpecError(f"{field}: expected an integer, got {text!r}") from None


def _csv(text, field, allowed=None):
    items = tuple(x.strip() for x in text.split(",") if x.strip())
    if allowed:
        bad = [x for x in items if x not in allowed]
        if bad:
            raise SpecError(f"{field}: unknown {', '.join(bad)} (allowed: {', '.join(allowed)})")
    return items


def build_problem(a, gpus_default=64):
    """The Problem of parsed CLI arguments `a` (one-line SpecError on a bad value)."""
    from planner.engines import constraints
    # the target's search defaults (DEFAULTS in planner/engines/<target>/rules.py): master,
    # sharding, CP and recompute modules its engine can set; the flags below override them
    target = getattr(a, "target", None) or "bundle"
    kw = constraints(target).train_defaults()
    if a.micro_batch:
        kw["micro_batches"] = tuple(_int(x, "micro_batch") for x in _csv(a.micro_batch, "micro_batch"))
    if a.cp_kinds:
        kw["cp_kinds"] = _csv(a.cp_kinds, "cp_kinds", ("ring", "ulysses", "hybrid"))
    if a.recompute:
        kw["recompute"] = _csv(a.recompute, "recompute", ("none", "selective", "full"))
    if a.capacity_factor is not None:
        kw["capacity_factor"] = a.capacity_factor
    # the default target is foldplan's own bundle, which runs FSDP2 mixed precision: the
    # fp32 sharded parameter is the master (planner.layout.values.MASTERS) ...
    if getattr(a, "master", None):
        kw["master"] = a.master
    # ... its loss is eager F.cross_entropy on .float() logits (TrainSpec.logit_bytes) ...
    if getattr(a, "target", "bundle") in (None, "bundle", "torchtitan"):
        kw["logit_bytes"] = 12
    # ... and the modules whose memory the bundle really frees (planner.engines.bundle.rules.MODULES: each measured
    # by --dry-run against the cost model's term; moe_act keeps the gate/up outputs and
    # recomputes the activation in backward, -0.7% of the plan's activations at full size)
    if getattr(a, "attention_kernel", None):
        kw["attention_kernel"] = a.attention_kernel
    elif target == "bundle":          # what the bundle's attention runs on this GPU
        from planner.engines.bundle.rules import attention_kernel
        from planner.specs import load_gpu
        kw["attention_kernel"] = attention_kernel(load_gpu(a.gpu or DEFAULT_GPU))
    if getattr(a, "sharding", None):
        kw["shardings"] = _csv(a.sharding, "sharding", ("none", "zero1", "zero2", "zero3"))
    if getattr(a, "recompute_modules", None):
        from planner.layout import RECOMPUTE_MODULES
        kw["recompute_modules"] = _csv(a.recompute_modules, "recompute_modules", RECOMPUTE_MODULES)
    return make_problem(model=a.model or DEFAULT_MODEL, gpu=a.gpu or DEFAULT_GPU,
                        gpus=_int(a.gpus, "gpus") if a.gpus is not None else gpus_default,
                        gpus_per_node=_int(a.gpus_per_node, "gpus_per_node") if a.gpus_per_node else None,
                        seq=a.seq or "128k", global_batch=a.global_batch or "4M",
                        memory_gib=a.memory_gib, memory_fraction=a.memory_fraction, **kw)

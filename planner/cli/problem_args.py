"""ProblemArgs -> Problem: the one builder of the CLI's problem (`foldplan plan`, `explain`,
`compare`, the points of a sweep, and `audit`, which lays its config's values over the flags)."""
from __future__ import annotations

from typing import Optional

from planner.cli.args import ProblemArgs
from planner.engines import constraints
from planner.specs import (DEFAULT_GLOBAL_BATCH, DEFAULT_GPU, DEFAULT_GPUS, DEFAULT_MODEL, DEFAULT_SEQ, Problem,
                           TrainSpec, load_gpu, load_model, make_problem)


def target_defaults(args: ProblemArgs) -> dict:
    """The TrainSpec values of the target's search (planner/engines/<target>/rules.py): master, sharding,
    CP kinds, recompute modules, kernels and loss bytes its engine runs; those that depend on the model and
    GPU (the bundle's attention kernel on this GPU, OLMo-core's train module) too."""
    eng = constraints(args.target or TrainSpec.model_fields["target"].default)
    model = gpu = None
    if eng.model_defaults is not None:
        model = args.model if not isinstance(args.model, (str, type(None))) else load_model(args.model or DEFAULT_MODEL)
        gpu = load_gpu(args.gpu or DEFAULT_GPU)
    return eng.train_defaults(model, gpu)


def build_problem(args: ProblemArgs, train: Optional[dict] = None) -> Problem:
    """The Problem of the command line's values (one-line SpecError on a bad combination).
    `train`: the TrainSpec values under the flags (the audit: a plan file's own record);
    default: the target's search defaults. The flags given win over both."""
    kw = target_defaults(args) if train is None else dict(train)
    given = args.train_values()
    kw.update(given)
    if given.get("routing") in ("forced", "dropless") and "capacity_factor" not in given:
        kw["capacity_factor"] = None                 # the flag's routing replaces the config's capacity
    elif "capacity_factor" in given and "routing" not in given:
        kw["routing"] = "capacity"
    return make_problem(model=args.model or DEFAULT_MODEL, gpu=args.gpu or DEFAULT_GPU,
                        gpus=args.gpus if args.gpus is not None else DEFAULT_GPUS, gpus_per_node=args.gpus_per_node,
                        gpus_per_domain=args.gpus_per_domain, used_per_domain=args.used_per_domain,
                        seq=args.seq or DEFAULT_SEQ, global_batch=args.global_batch or DEFAULT_GLOBAL_BATCH,
                        memory_gib=args.memory_gib, memory_fraction=args.memory_fraction, **kw)

"""Specs: the model, the cluster and the training shape, as immutable pydantic values
(`planner.specs.types`), their presets (`planner.specs.catalog`), Hugging Face import
(`planner.specs.hfconfig`), and `make_problem`, the one constructor the CLI, the audit and the
tests use. Import from here.

Every spec validates itself and fails with one line that names the field and the
arithmetic (`kv_heads(5) does not divide heads(32)`).
"""
from __future__ import annotations

from typing import Optional, Union

from planner.specs.catalog import (budget_note, gpu_names, load_gpu, load_model, model_names,  # noqa: F401
                                   problem_from_dict, published)
from planner.specs.hfconfig import from_hf_config  # noqa: F401
from planner.specs.types import (DEFAULT_GLOBAL_BATCH, DEFAULT_GPU, DEFAULT_GPUS, DEFAULT_HEADROOM,  # noqa: F401
                                 DEFAULT_MODEL, DEFAULT_SEQ, PRESETS, ClusterSpec, GPUSpec, MLASpec, ModelSpec,
                                 MoESpec, Problem, SpecError, TrainSpec, batch_sequences, batch_tokens, build,
                                 counts_sequences, one_line, parse_size)


def make_problem(*, model: Union[str, ModelSpec] = DEFAULT_MODEL, gpu: str = DEFAULT_GPU,
                 gpus: int = DEFAULT_GPUS, gpus_per_node: Optional[int] = None, gpus_per_domain: Optional[int] = None,
                 used_per_domain: Optional[int] = None, seq: Union[str, int] = DEFAULT_SEQ,
                 global_batch: Union[str, int] = DEFAULT_GLOBAL_BATCH, micro_batches=None, memory_gib: Optional[float] = None,
                 memory_fraction: Optional[float] = None, **train) -> Problem:
    """The one constructor the CLI, the audit and the tests use. Raises SpecError (one line)."""
    m = model if isinstance(model, ModelSpec) else load_model(model)
    g = load_gpu(gpu)
    if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 1:
        raise SpecError(f"gpus: must be a positive integer, got {gpus!r}")
    gpn = gpus_per_node or g.gpus_per_node
    usable = g.allocatable_gib
    if memory_gib is not None:
        if memory_gib <= 0:
            raise SpecError(f"memory_gib: must be positive, got {memory_gib}")
        budget = float(memory_gib)
    else:
        frac = DEFAULT_HEADROOM if memory_fraction is None else memory_fraction
        if not 0 < frac <= 1:
            raise SpecError(f"memory_fraction: must be in (0, 1], got {frac}")
        budget = usable * frac
        if budget < 1e-3:           # the budget's floor (planner.safeio.validate BOUNDS memory_budget_gib)
            raise SpecError(f"memory_fraction: {frac:g} x allocatable {usable:.1f} GiB = {budget:.3g} GiB, below the "
                            f"0.001 GiB a budget may be (a fraction like 0.9)")
    seq_v = parse_size(seq, "seq")
    gb = parse_size(global_batch, "global_batch")
    tdata = dict(seq=seq_v, global_batch_tokens=batch_tokens(gb, seq_v), **train)
    if micro_batches:
        tdata["micro_batches"] = tuple(micro_batches)
    t = build(TrainSpec, tdata, "train")
    c = build(ClusterSpec, dict(gpu=g, gpus=gpus, gpus_per_node=gpn, gpus_per_domain=gpus_per_domain,
                                used_per_domain=used_per_domain, memory_budget_gib=budget), "cluster")
    return build(Problem, dict(model=m, cluster=c, train=t), "problem")

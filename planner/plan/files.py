"""Plan files: every entry of a plan file's `plans` list checked field by field, named with its path.

It validates against the spec classes (`planner.specs`), so it is not imported by `planner.safeio.validate`,
which `planner.specs` itself imports.
"""
from __future__ import annotations

import json

import functools
import math

from pydantic import ValidationError

from planner.safeio import InputError
from planner.safeio.validate import MAX_GPUS
from planner.safeio.console import _pyd
from planner.specs import make_problem
from planner.layout import Layout
from planner.specs import ClusterSpec, GPUSpec, ModelSpec, TrainSpec, gpu_names, load_gpu


_PLAN_KEYS = {"problem", "layout", "estimate", "solver"}
_PROBLEM_KEYS = {"model", "cluster", "train"}
_CLUSTER_KEYS = {"gpu", "gpus", "gpus_per_node", "memory_gib", "memory_budget_gib", "peak_flops", "hbm_bw",
                 "hbm_efficiency", "intra_node_bw", "inter_node_bw", "latency_s", "compute_efficiency",
                 "attention_efficiency", "bus_efficiency", "reserve_gib"}


@functools.lru_cache(maxsize=1)
def _written_cluster_keys() -> frozenset:
    return frozenset(make_problem(gpus=8, seq=4096, global_batch=8).to_dict()["cluster"])


def _keys(d, allowed: set, where: str) -> dict:
    if not isinstance(d, dict):
        raise InputError(f"{where}: expected an object, got {type(d).__name__}")
    unknown = sorted(str(k) for k in d if k not in allowed)
    if unknown:
        raise InputError(f"{where}.{unknown[0]}: unknown key (known: {', '.join(sorted(allowed))})")
    return d


_LAYOUT_BOOLS = ("ep_overlap", "delay_wgrad")     # the layout's EP overlap switches


def _ints_bounded(obj, where: str, hi: int = MAX_GPUS) -> None:
    """Every integer in a layout document is a count of GPUs, layers or micro-batches."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            _ints_bounded(v, f"{where}.{k}", hi)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _ints_bounded(v, f"{where}[{i}]", hi)
    elif isinstance(obj, bool):
        if where.rsplit(".", 1)[-1] in _LAYOUT_BOOLS:
            return
        raise InputError(f"{where}: expected a number, got {str(obj).lower()}")
    elif isinstance(obj, float) and not math.isfinite(obj):
        raise InputError(f"{where}: must be finite, got {obj}")
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool) and abs(obj) > hi:
        raise InputError(f"{where}: {obj} exceeds the limit {hi}")


_SOLVER_STATUS = ("OPTIMAL", "FEASIBLE")


def _solver(rec, where: str) -> None:
    """The solver record a plan carries: an object, its status one of _SOLVER_STATUS, its counts numbers."""
    if rec is None:
        return
    if not isinstance(rec, dict):
        raise InputError(f"{where}: expected an object, got {type(rec).__name__}")
    if "status" in rec and rec["status"] not in _SOLVER_STATUS:
        raise InputError(f"{where}.status: expected one of {', '.join(_SOLVER_STATUS)}, got {str(rec['status'])[:40]!r}")
    for k, v in rec.items():
        if k != "status" and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1e15):
            raise InputError(f"{where}.{k}: expected a number from 0, got {json.dumps(v)[:40]}")


def plan_entry(p, where: str) -> None:
    """One entry of a plan file's `plans` list, checked field by field with its path, so
    that the error names `plans[0].problem.cluster.peak_flops` and the value."""

    _keys(p, _PLAN_KEYS, where)
    for k in ("problem", "layout"):
        if k not in p:
            raise InputError(f"{where}: lacks {k!r}")
    prob = _keys(p["problem"], _PROBLEM_KEYS, f"{where}.problem")
    for k in sorted(_PROBLEM_KEYS):
        if k not in prob:
            raise InputError(f"{where}.problem: lacks {k!r}")
    allowed = _CLUSTER_KEYS | _written_cluster_keys()          # what Problem.to_dict writes, as it grows
    c = _keys(prob["cluster"], allowed, f"{where}.problem.cluster")
    for k in ("gpu", "gpus", "gpus_per_node", "memory_budget_gib"):
        if k not in c:
            raise InputError(f"{where}.problem.cluster: lacks {k!r}")
    known = isinstance(c["gpu"], str) and c["gpu"] in gpu_names()
    # a GPU of a preset file (--gpu my-cluster.yaml, as foldplan calibrate writes): whole in the plan file
    calibrated = (isinstance(c["gpu"], str) and c["gpu"].endswith((".yaml", ".yml", ".json"))
                  and all(k in c for k, f in GPUSpec.model_fields.items() if f.is_required() and k != "name"))
    if not (known or calibrated):
        raise InputError(f"{where}.problem.cluster.gpu: unknown GPU {c['gpu']!r:.40} (known: {', '.join(gpu_names())})")
    try:
        model = ModelSpec.model_validate(prob["model"])
    except ValidationError as e:
        raise InputError(_pyd(e, f"{where}.problem.model")) from None
    del model
    try:
        TrainSpec.model_validate(prob["train"])
    except ValidationError as e:
        raise InputError(_pyd(e, f"{where}.problem.train")) from None
    gpu_fields = {k: v for k, v in c.items() if k in GPUSpec.model_fields and k != "gpu"}
    try:
        gpu = GPUSpec.model_validate({**(load_gpu(c["gpu"]).model_dump() if known else {"name": c["gpu"]}),
                                      **gpu_fields})
    except ValidationError as e:
        raise InputError(_pyd(e, f"{where}.problem.cluster")) from None
    try:
        ClusterSpec.model_validate({"gpu": gpu, "gpus": c["gpus"], "gpus_per_node": c["gpus_per_node"],
                                    "gpus_per_domain": c.get("gpus_per_domain"),
                                    "used_per_domain": c.get("used_per_domain"),
                                    "memory_budget_gib": c["memory_budget_gib"]})
    except ValidationError as e:
        raise InputError(_pyd(e, f"{where}.problem.cluster")) from None
    lay = p["layout"]
    if not isinstance(lay, dict):
        raise InputError(f"{where}.layout: expected an object, got {type(lay).__name__}")
    _ints_bounded(lay, f"{where}.layout")
    stages = lay.get("stages")
    if not isinstance(stages, list) or not all(isinstance(s, dict) for s in stages):
        raise InputError(f"{where}.layout.stages: expected a list of objects")
    for i, st in enumerate(stages):        # JSON integers, not strings or floats pydantic would coerce
        span = st.get("layers")
        if not isinstance(span, list) or len(span) != 2 or not all(type(x) is int for x in span):
            raise InputError(f"{where}.layout.stages.{i}.layers: expected [first, end] as two integers, "
                             f"got {json.dumps(span)[:60] if span is not None else 'nothing'}")
    _solver(p.get("solver"), f"{where}.solver")
    try:
        Layout.model_validate({**lay, "stages": stages})
    except ValidationError as e:
        raise InputError(_pyd(e, f"{where}.layout")) from None

"""torchtitan's job-TOML vocabulary for what a layout says, one table read by the reader
(planner/engines/torchtitan/read.py) and written by the exporter (export.py): each
[parallelism] key with the layout field it carries and torchtitan's default, and the
value tables for the FSDP reshard policy and the CP rotate method. Keys and defaults follow
pytorch/torchtitan torchtitan/config/job_config.py at 238fa99."""
from __future__ import annotations

# [parallelism] key -> (the field it carries, or None for a setting with no field; default)
PARALLELISM = {
    "data_parallel_replicate_degree": ("dp_replicate", 1),
    "data_parallel_shard_degree": ("dp_shard", -1),              # -1: the leftover ranks
    "tensor_parallel_degree": ("tp", 1),
    "context_parallel_degree": ("cp", 1),
    "context_parallel_rotate_method": ("cp_kind", "allgather"),
    "pipeline_parallel_degree": ("pp", 1),
    "pipeline_parallel_schedule": (None, "1F1B"),
    "pipeline_parallel_microbatch_size": ("micro_batch", 1),
    "expert_parallel_degree": ("ep", 1),
    "expert_tensor_parallel_degree": ("etp", 1),
    "fsdp_reshard_after_forward": ("sharding", "default"),
    "module_fqns_per_model_part": (None, None),                  # a list of lists, not a degree
}
DEFAULTS = {k: default for k, (_, default) in PARALLELISM.items()}
_KEY = {fld: k for k, (fld, _) in PARALLELISM.items() if fld}

# fsdp_reshard_after_forward: "always" reshards parameters after forward (zero3), "never" keeps
# them gathered until backward (zero2), "default" is always except with pipeline parallelism
RESHARD = {"always": "zero3", "never": "zero2"}
RESHARD_VALUES = ("default", *RESHARD)

# context_parallel_rotate_method: alltoall passes KV shards round a ring (the planner's ring kind);
# allgather gathers them (read, never planned)
ROTATE = {"alltoall": "ring", "allgather": "allgather"}


def key(field: str) -> str:
    """The [parallelism] key that carries `field`."""
    return _KEY[field]


def reshard(sharding: str) -> str:
    """fsdp_reshard_after_forward of a zero2 / zero3 plan."""
    return next(k for k, v in RESHARD.items() if v == sharding)


def rotate(cp_kind: str) -> str:
    """context_parallel_rotate_method of a planned CP kind."""
    return next(k for k, v in ROTATE.items() if v == cp_kind)

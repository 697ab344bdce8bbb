"""The GPU count a Megatron launch script says: torchrun's --nnodes x --nproc-per-node, else WORLD_SIZE
(or NUM_GPUS ...), else a node count x GPUs per node, from the script's variables."""
from __future__ import annotations

from planner.engines.megatron.flags import Flags
from planner.shell import unresolved

_NODES = ("NNODES", "NUM_NODES", "N_NODES", "NNODE", "NODES", "SLURM_NNODES", "SLURM_JOB_NUM_NODES", "NUM_NODE")
_PER_NODE = ("GPUS_PER_NODE", "NPROC_PER_NODE", "NGPUS_PER_NODE", "NUM_GPUS_PER_NODE", "GPU_PER_NODE",
             "NGPU_PER_NODE", "SLURM_GPUS_ON_NODE", "NUM_GPUS_PERNODE", "GPUS")
_WORLD_LIMIT = 2**24


def world(sh, flags: Flags) -> tuple[int | None, int | None, str | None]:
    """GPUs in the job: torchrun's --nnodes x --nproc-per-node, else WORLD_SIZE, else NNODES x GPUS_PER_NODE."""

    def as_int(text: str | None) -> int | None:
        if text is None or unresolved(text):
            return None
        text = text.split(":")[-1]  # elastic "1:4" -> the maximum
        return int(text) if text.isdigit() and 0 < len(text) < 9 and 0 < int(text) <= _WORLD_LIMIT else None

    def var(name: str) -> tuple[int | None, int]:
        v = sh.vars.get(name) if sh is not None else None
        if v is None and sh is not None:        # `NNODES=4 torchrun ...`: a launch's own prefix
            prefixed = [env[name] for env in getattr(sh, "command_env", ()) if name in env]
            return (as_int(prefixed[-1]), 0) if prefixed else (None, 0)
        if v is None or isinstance(v.value, list):
            return None, 0
        return as_int(v.value), v.line

    if flags.has("nproc-per-node"):
        per = flags.flags["nproc-per-node"]
        per_node = as_int(per.values[0] if per.values else None)
        nodes_flag = flags.flags.get("nnodes")
        nodes = as_int(nodes_flag.values[0] if nodes_flag and nodes_flag.values else None) \
            if nodes_flag else 1
        if per_node and nodes:
            return per_node * nodes, per.line, "torchrun --nnodes x --nproc-per-node"
    for total in ("WORLD_SIZE", "NUM_GPUS", "N_GPUS", "TOTAL_GPUS"):
        world, line = var(total)
        if world:
            return world, line, total
    for n in _NODES:
        nodes, nline = var(n)
        if nodes is None:
            continue
        for g in _PER_NODE:
            per_node, _ = var(g)
            if per_node:
                return nodes * per_node, nline, f"{n} x {g}"
    return None, None, None

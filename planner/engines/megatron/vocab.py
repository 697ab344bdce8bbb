"""Megatron-LM's flag vocabulary for what a layout says, one table read by the reader
(planner/engines/megatron/read.py) and written by the exporter (export.py): each flag with the
layout / training field it carries and Megatron's default. Flag names and defaults follow
NVIDIA/Megatron-LM megatron/training/arguments.py at d98e8a6."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Flag:
    name: str                      # the flag without its dashes
    field: str                     # the Layout / TrainSpec field it carries
    default: Optional[int]         # Megatron's value when the flag is absent (None: no default)


# integer flags, each one field (etp's default is tp: arguments.py sets it when absent)
INTS = {f.field: f for f in (
    Flag("tensor-model-parallel-size", "tp", 1),
    Flag("pipeline-model-parallel-size", "pp", 1),
    Flag("context-parallel-size", "cp", 1),
    Flag("expert-model-parallel-size", "ep", 1),
    Flag("expert-tensor-parallel-size", "etp", None),
    Flag("micro-batch-size", "micro_batch", 1),
    Flag("seq-length", "seq", None),
    Flag("global-batch-size", "global_batch", None),
    Flag("num-layers", "layers", None),
)}

# --cp-comm-type <-> cp_kind (transformer_config.py cp_comm_type; allgather is read, never planned)
CP_COMM_TYPE = {"p2p": "ring", "a2a": "ulysses", "allgather": "allgather", "a2a+p2p": "hybrid"}
CP_COMM_DEFAULT = "p2p"

# --data-parallel-sharding-strategy of Megatron FSDP (--use-megatron-fsdp) <-> sharding; the
# exporter writes zero1 as --use-distributed-optimizer instead, and Megatron FSDP for zero2 / zero3
FSDP_STRATEGY = {"no_shard": "none", "optim": "zero1", "optim_grads": "zero2", "optim_grads_params": "zero3"}
FSDP_WRITTEN = ("zero2", "zero3")


def flag(field: str) -> str:
    """The flag, with its dashes, that carries `field`."""
    return "--" + INTS[field].name


def cp_comm_type(kind: str) -> str:
    """The --cp-comm-type value of a planned CP kind."""
    return next(k for k, v in CP_COMM_TYPE.items() if v == kind)


def fsdp_strategy(sharding: str) -> Optional[str]:
    """The Megatron FSDP strategy the exporter writes for `sharding` (None: not Megatron FSDP)."""
    return next(k for k, v in FSDP_STRATEGY.items() if v == sharding) if sharding in FSDP_WRITTEN else None


# switches (flags without a value), by what each says
SWITCHES = {"sequence_parallel": "sequence-parallel", "zero1": "use-distributed-optimizer",
            "megatron_fsdp": "use-megatron-fsdp", "grad_reduce_bf16": "grad-reduce-in-bf16",
            "overlap_grad_reduce": "overlap-grad-reduce", "overlap_param_gather": "overlap-param-gather",
            "overlap_p2p": "overlap-p2p-comm", "ep_overlap": "overlap-moe-expert-parallel-comm",
            "delay_wgrad": "delay-wgrad-compute"}
# the MoE dispatcher <-> --moe-token-dispatcher-type and the flex backend (transformer_config.py:862-869,
# megatron-core 0.19.2); read back by read_dispatch.py
DISPATCHER_FLAG = "moe-token-dispatcher-type"
FLEX_BACKEND_FLAG = "moe-flex-dispatcher-backend"
DISPATCHER_TYPE = {"alltoall": ("alltoall", None), "allgather": ("allgather", None), "deepep": ("flex", "deepep"),
                   "hybridep": ("flex", "hybridep")}
# valued flags that are not one integer field
CP_COMM_FLAG = "cp-comm-type"
HIERARCHICAL_CP_FLAG = "hierarchical-context-parallel-sizes"      # Ulysses part, ring part
FSDP_STRATEGY_FLAG = "data-parallel-sharding-strategy"
CAPACITY_FACTOR_FLAG = "moe-expert-capacity-factor"
PP_LAYOUT_FLAG = "pipeline-model-parallel-layout"
# the recompute flags, keyed as recompute.form returns Megatron's form
RECOMPUTE = {"granularity": "recompute-granularity", "method": "recompute-method",
             "num_layers": "recompute-num-layers", "modules": "recompute-modules"}

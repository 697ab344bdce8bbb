"""Checkpoints with torch.distributed.checkpoint (DCP): every rank writes its own
shards (FSDP2 DTensors), one directory per step, DIR/step-<k>/.

State: per stage model and its AdamW (get_model_state_dict /
get_optimizer_state_dict: sharded, keyed by fully qualified names, so a
checkpoint can be loaded under another layout by DCP's resharding), the MoE
router biases (buffers of the model state), and the step count. The LR
schedule and the data order are functions of the step, so nothing else is needed.
"""
import os

import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import (get_model_state_dict, get_optimizer_state_dict,
                                                     set_model_state_dict, set_optimizer_state_dict)


def _state(stages, indices, opts):
    state = {}
    for st, s, opt in zip(stages, indices, opts):
        state[f"model{s}"] = get_model_state_dict(st)
        state[f"optim{s}"] = get_optimizer_state_dict(st, opt)
    return state


def save(root, step: int, stages, indices, opts):
    path = os.path.join(root, f"step-{step}")
    state = _state(stages, indices, opts)
    state["train"] = {"step": step}
    dcp.save(state, checkpoint_id=path)
    if dist.get_rank() == 0:
        with open(os.path.join(root, "latest"), "w") as f:
            f.write(f"step-{step}\n")
    dist.barrier()
    return path


def latest(root):
    try:
        with open(os.path.join(root, "latest")) as f:
            return os.path.join(root, f.read().strip())
    except FileNotFoundError:
        return None


def load(path, stages, indices, opts) -> int:
    """Load `path` into the models and optimizers; returns the step it was saved after."""
    state = _state(stages, indices, opts)
    state["train"] = {"step": 0}
    dcp.load(state, checkpoint_id=path)
    for st, s, opt in zip(stages, indices, opts):
        set_model_state_dict(st, state[f"model{s}"])
        set_optimizer_state_dict(st, opt, state[f"optim{s}"])
    return int(state["train"]["step"])

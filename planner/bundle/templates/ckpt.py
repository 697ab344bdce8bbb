"""Checkpoints with torch.distributed.checkpoint (DCP): every rank writes its own
shards (FSDP2 DTensors), one directory per step, DIR/step-<k>/.

State: per stage model and its AdamW (get_model_state_dict /
get_optimizer_state_dict), the MoE router biases (buffers of the model state)
and the step count. The LR schedule and the data order are functions of the
step, so nothing else is needed.

Keys: a parameter's FSDP2 DTensor covers only this rank's tp / ep / etp slice
(dataparallel.param_meta `slices`), under the same name on every slice; DCP
would take those for shards of one tensor and keep one. Each key therefore
carries its slice, e.g. "layers.1.moe.experts.w1[0:4+4]" (dim 0, rows 4..7), so
every slice is saved; a checkpoint loads into the same layout.
"""
import os

import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import (get_model_state_dict, get_optimizer_state_dict,
                                                     set_model_state_dict, set_optimizer_state_dict)


def _tags(metas):
    """fqn -> fqn + its slice, for the sliced parameters of one stage."""
    return {fqn: fqn + "".join(f"[{d}:{s}+{n}]" for d, s, n in m.slices)
            for fqn, m in metas.items() if m.slices}


def _rename(sd, names):
    return {names.get(k, k): v for k, v in sd.items()}


def _rename_optim(osd, names):
    out = {"state": _rename(osd["state"], names)}
    out["param_groups"] = [dict(g, params=[names.get(p, p) for p in g["params"]]) for g in osd["param_groups"]]
    return out


def _state(stages, indices, opts, metas):
    state = {}
    for st, s, opt, meta in zip(stages, indices, opts, metas):
        tags = _tags(meta)
        state[f"model{s}"] = _rename(get_model_state_dict(st), tags)
        state[f"optim{s}"] = _rename_optim(get_optimizer_state_dict(st, opt), tags)
    return state


def save(root, step: int, stages, indices, opts, metas):
    path = os.path.join(root, f"step-{step}")
    state = _state(stages, indices, opts, metas)
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


def load(path, stages, indices, opts, metas) -> int:
    """Load `path` into the models and optimizers; returns the step it was saved after."""
    state = _state(stages, indices, opts, metas)
    state["train"] = {"step": 0}
    dcp.load(state, checkpoint_id=path)
    for st, s, opt, meta in zip(stages, indices, opts, metas):
        back = {v: k for k, v in _tags(meta).items()}
        set_model_state_dict(st, _rename(state[f"model{s}"], back))
        set_optimizer_state_dict(st, opt, _rename_optim(state[f"optim{s}"], back))
    return int(state["train"]["step"])

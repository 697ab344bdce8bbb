"""Checkpoints with torch.distributed.checkpoint (DCP): every rank writes its own
shards (FSDP2 DTensors), one directory per step, DIR/step-<k>/.

State: per stage model and its AdamW (get_model_state_dict /
get_optimizer_state_dict, AdamW's step count included), the MoE router biases
(buffers of the model state), the step count, and the run's trajectory
(train.py's `trajectory`: the LR schedule's --steps / --warmup / --lr / --min-lr,
--clip, --seed, --aux-loss-coef, --dtype, --dp and the data file's digest). The
learning rate of step t, the data of step t and the synthetic tokens of step t
are functions of t and of those values only, and no other randomness enters a
step (no dropout; routing is deterministic), so the model, its optimizer, the
router biases and t are the whole state. The trajectory is what makes a resumed
run the straight run: the same t under another --steps has another learning
rate, so --resume compares it with the one saved (train.resume).

Keys: a parameter's FSDP2 DTensor covers only this rank's tp / ep / etp slice
(dataparallel.param_meta `slices`), under the same name on every slice; DCP
would take those for shards of one tensor and keep one. Each key therefore
carries its slice, e.g. "layers.1.moe.experts.w1[0:4+4]" (dim 0, rows 4..7), so
every slice is saved; a checkpoint loads into the same layout.
"""
import json
import os
import sys

import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import (get_model_state_dict, get_optimizer_state_dict,
                                                     set_model_state_dict, set_optimizer_state_dict)


TRAJECTORY_FILE = "trajectory.json"    # next to DCP's shards in DIR/step-<k>/


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


def save(root, step: int, stages, indices, opts, metas, trajectory: dict):
    path = os.path.join(root, f"step-{step}")
    state = _state(stages, indices, opts, metas)
    state["train"] = {"step": step}
    dcp.save(state, checkpoint_id=path)
    if dist.get_rank() == 0:     # the trajectory, then the pointer: `latest` names only a whole checkpoint
        with open(os.path.join(path, TRAJECTORY_FILE), "w") as f:
            json.dump(trajectory, f, indent=1, sort_keys=True)
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


def saved_trajectory(path) -> dict:
    """The trajectory a checkpoint was written under (train.trajectory); {} for one without."""
    try:
        with open(os.path.join(path, TRAJECTORY_FILE)) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


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


# ---------------------------------------------------------------- exact resume (train.py --resume)
# What a step computes besides the model and optimizer state: its learning rate (the
# schedule), its tokens (seed or data file), clipping, the balancing coefficient and the
# arithmetic. A checkpoint records these (ckpt.save) and --resume refuses other values,
# which would not continue the same run (e.g. --steps 2, then --resume --steps 4: step 1
# ran at the learning rate of a 2-step cosine, 5.5e-4 instead of 8.7e-4 at --lr 1e-3; an
# interruption of a 4-step run is --steps 4 --stop-after 2).
FIELDS = ("steps", "warmup", "lr", "min_lr", "clip", "seed", "aux_loss_coef", "dtype", "dp", "doc_mask", "eod")


def trajectory(args) -> dict:
    out = {k: getattr(args, k, None) for k in FIELDS}
    if args.data:
        from data import digest
        out["data"] = digest(args.data)
    return out


def resume_path(args):
    """--resume: the latest checkpoint of --ckpt, after its trajectory is compared with this
    run's (before any process group or model exists: a refusal is one line, at once)."""
    path = latest(args.ckpt) if args.ckpt else None
    if path is None:
        sys.exit(f"--resume: no checkpoint in {args.ckpt!r}")
    saved, now = saved_trajectory(path), trajectory(args)
    changed = [f"--{k.replace('_', '-')} {saved.get(k)!r} -> {now.get(k)!r}" for k in sorted(set(saved) | set(now))
               if saved.get(k) != now.get(k)]
    if changed and not args.reschedule:
        sys.exit(f"--resume: {path} was written by a run with other settings ({'; '.join(changed)}): resuming "
                 f"would not continue that run; pass the same values (an interruption is --stop-after K), "
                 f"or --reschedule to continue under the new ones")
    return path

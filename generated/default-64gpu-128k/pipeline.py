"""One training step's forward/backward over the micro-batches.

pp == 1: a plain loop (forward, loss, backward per micro-batch).
pp > 1: torch.distributed.pipelining, PipelineStage per (virtual) stage and
Schedule1F1B (ScheduleInterleaved1F1B when vpp > 1). Stage shapes are given up
front (static mode), so no metadata forward runs through our collectives;
activations travel in the compute dtype (bf16 unless --dtype float32).

Data-parallel knobs per micro-batch: dataparallel.microbatch_knobs (pp == 1).
With pp > 1 the schedule drives an FSDP2 stage itself (none / zero1: no sync and
no reshard until the last micro-batch); for zero2 / zero3 the stage is wrapped
in a plain module, so that FSDP2's own hooks reduce-scatter after every
micro-batch's backward. zero2 keeps the gathered bf16 copy across the step
(set_reshard_after_backward(False), resharded after the schedule's last
backward): one all-gather per step, as the cost model counts; zero3 reshards
after every forward and backward (two gathers per micro-batch).
"""
import torch
import torch.nn as nn

import documents
from dataparallel import microbatch_knobs
from model import sp_rows


class _PerMicrobatchSync(nn.Module):
    """Hides the FSDP2 root from the schedule (zero2/zero3 with pp > 1)."""

    def __init__(self, stage):
        super().__init__()
        self.stage = stage

    def forward(self, x):
        return self.stage(x)


def reshard(stages):
    """Free every FSDP2 unit's gathered copy (zero2 with pp > 1: after the step's last backward)."""
    from torch.distributed.fsdp import FSDPModule
    for model in stages:
        for mod in model.modules():
            if isinstance(mod, FSDPModule):
                mod.reshard()


def _meta(shape, device, dtype=torch.float32, grad=True):
    return (torch.empty(shape, device=device, dtype=dtype, requires_grad=grad),)


def forward_backward(stages, mesh, layout, cfg, nmb, tokens, targets, loss_fn, dtype=torch.float32, docs=None):
    """stages: this rank's StageModel(s) (several when vpp > 1).
    tokens/targets: [nmb * mb, s] this rank's rows (all micro-batches).
    docs: --doc-mask (pp == 1 only), the document ids [nmb * mb, S] of the whole rows (documents.py),
    set for each micro-batch's forward and backward.
    Returns the summed loss of the micro-batches on the last stage (with tp > 1 over
    this tp rank's rows only: sum it over the stage group), else None."""
    pp, vpp = layout["pp"], layout["vpp"]
    targets = sp_rows(targets, mesh)      # the last stage's logits are this tp rank's rows
    if pp == 1:
        total = 0.0
        doc_chunks = docs.chunk(nmb) if docs is not None else [None] * nmb
        for i, (tok, tgt, doc) in enumerate(zip(tokens.chunk(nmb), targets.chunk(nmb), doc_chunks)):
            microbatch_knobs(stages, layout["shards"], i, nmb)
            documents.set_current(doc)
            x = tok
            for stage in stages:          # vpp > 1 with pp == 1: the stages in order
                x = stage(x)
            loss = loss_fn(x, tgt)
            loss.backward()
            documents.set_current(None)
            total += loss.detach()
        return total
    # imported here: torch.distributed.pipelining takes ~2 s to import
    from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleInterleaved1F1B

    mb, s = tokens.shape[0] // nmb, tokens.shape[1]
    H, V, dev = cfg["hidden"], cfg["vocab"], mesh.device
    n_stages = pp * vpp
    sent = (mb, s // mesh.tp_size, H)     # between stages each tp rank sends 1/tp of the rows (model.py)
    pipe_stages = []
    for model, index in zip(stages, mesh.stage_indices):
        first, last = index == 0, index == n_stages - 1
        inp = _meta((mb, s), dev, torch.long, grad=False) if first else _meta(sent, dev, dtype)
        out = _meta((mb, s // mesh.tp_size, V), dev, dtype) if last else _meta(sent, dev, dtype)
        if layout["shards"]["grads"]:                    # zero2 / zero3
            model = _PerMicrobatchSync(model)
        pipe_stages.append(PipelineStage(
            model, index, n_stages, dev, input_args=inp, output_args=out,
            output_grads=None if last else _meta(sent, dev, dtype),
            input_grads=None if first else _meta(sent, dev, dtype),
            group=mesh.pp_group))
    if vpp == 1:
        schedule = Schedule1F1B(pipe_stages[0], nmb, loss_fn=loss_fn, scale_grads=False)
    else:
        schedule = ScheduleInterleaved1F1B(pipe_stages, nmb, loss_fn=loss_fn, scale_grads=False)
    losses = []
    args = (tokens,) if mesh.is_first_stage else ()
    kwargs = {"target": targets, "losses": losses} if mesh.is_last_stage else {}
    if layout["shards"]["grads"] and not layout["shards"]["params"]:    # zero2: gather once per step, reduce-scatter every micro-batch
        for model in stages:
            model.set_requires_gradient_sync(True)
            model.set_reshard_after_backward(False)
    schedule.step(*args, **kwargs)
    if layout["shards"]["grads"] and not layout["shards"]["params"]:
        reshard(stages)
    return sum(l.detach() for l in losses) if mesh.is_last_stage else None

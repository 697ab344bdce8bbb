"""Train the planned model for a few steps on synthetic tokens.

  torchrun --nproc-per-node=WORLD train.py [--tiny] [--check] [--steps N] [--device cpu|cuda]

--tiny   same layout (degrees, layers per stage, experts), small dimensions.
--check  (implies --tiny) also runs the same step in one process without any
         parallelism and compares loss, every gradient and every parameter
         after one optimizer step; prints PASS/FAIL, exits 1 on FAIL.
"""
import argparse
import os
import sys

import torch

import layout

if tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2]) < tuple(layout.MIN_TORCH):
    sys.exit(f"this bundle needs torch >= {'.'.join(map(str, layout.MIN_TORCH))}, found {torch.__version__}")

import torch.distributed as dist                     # noqa: E402
import torch.nn.functional as F                      # noqa: E402

from blocks import update_router_bias                # noqa: E402
from dataparallel import (allreduce_gradients, finish_gradients, param_meta,  # noqa: E402
                          params_with_meta, shard_fsdp2)
from cp.layout import local_token_index              # noqa: E402
from mesh import Mesh, check_device_meshes, device_meshes  # noqa: E402
from model import StageModel                         # noqa: E402
from pipeline import forward_backward                # noqa: E402

RTOL, ATOL = 1e-4, 1e-6
LR, BETAS, WD, EPS = 1e-3, (0.9, 0.95), 0.1, 1e-8
# --check: Adam's first step is ~lr * g / (|g| + eps), i.e. lr * sign(g) for
# |g| >> eps, which turns fp32 rounding noise in near-zero gradient elements
# into O(lr) parameter differences: d(update)/dg <= lr / eps. With eps = 1e-4
# a gradient difference at the gradient tolerance stays within the parameter one.
CHECK_EPS = 1e-4


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--dp", choices=("fsdp2", "allreduce"), default="fsdp2",
                    help="data-parallel engine: FSDP2 fully_shard per group, or flat all-reduces")
    return ap.parse_args()


def synthetic_batch(cfg, train, seed):
    """Token ids [dp * nmb * mb, seq + 1], the same on every rank (seeded)."""
    L = layout.LAYOUT
    rows = L["dp"] * train["num_microbatches"] * train["micro_batch"]
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, cfg["vocab"], (rows, train["seq"] + 1), generator=g)


def update_biases(stages, mesh):
    moes = [m for s in stages for m in s.moe_layers()]
    if not moes:
        return
    counts = torch.stack([m.counts for m in moes])
    dist.all_reduce(counts, group=mesh.stage_group)  # global tokens per expert
    for m, c in zip(moes, counts):
        if m.cfg["router_bias"]:
            update_router_bias(m.bias, c)
        m.counts.zero_()


def main():
    args = parse_args()
    tiny = args.tiny or args.check
    backend = "nccl" if args.device == "cuda" else "gloo"
    if args.device == "cuda":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    L = layout.LAYOUT
    if world != L["world"]:
        sys.exit(f"the plan needs world = tp({L['tp']}) * cp({L['cp']}) * dp({L['dp']}) * pp({L['pp']})"
                 f" = {L['world']} processes, torchrun started {world}")
    device = torch.device(args.device, torch.cuda.current_device()) if args.device == "cuda" \
        else torch.device("cpu")
    cfg = dict(layout.TINY if tiny else layout.MODEL)
    train = layout.TINY_TRAIN if tiny else layout.TRAIN
    cfg["capacity_factor"] = train["capacity_factor"]

    mesh = Mesh(rank, device)
    if args.check:
        check_device_meshes(mesh, *device_meshes(args.device, mesh))
    positions = local_token_index(train["seq"], mesh.cp_ring_rank, mesh.cp_ring_size,
                                  mesh.cp_uly_rank, mesh.cp_uly_size)   # [S/cp] global positions
    n_stages = len(layout.STAGES)
    # built on the CPU from seeded generators (each rank only its own shards);
    # FSDP2 then moves just the dp shard of every parameter to the device
    stages = [StageModel(cfg, layout.STAGES[s], mesh, positions, args.seed, s == 0, s == n_stages - 1)
              for s in mesh.stage_indices]
    metas = param_meta(stages)
    if args.dp == "fsdp2":
        shard_fsdp2(stages, mesh, args.device)
    stages = [st.to(device) for st in stages]
    pm = params_with_meta(stages, metas)
    params = [p for p, _ in pm]
    eps = CHECK_EPS if args.check else EPS
    # foreach=False: FSDP2's DTensor parameters live on several meshes
    opt = torch.optim.AdamW(params, lr=LR, betas=BETAS, weight_decay=WD, eps=eps, foreach=False)
    global_tokens = L["dp"] * train["num_microbatches"] * train["micro_batch"] * train["seq"]

    def loss_fn(logits, targets):   # summed CE / all tokens of the step (dp, cp, micro-batches)
        return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten(), reduction="sum") / global_tokens

    rows = train["num_microbatches"] * train["micro_batch"]
    for step in range(args.steps):
        data = synthetic_batch(cfg, train, args.seed + step)
        mine = data[mesh.dp_rank * rows:(mesh.dp_rank + 1) * rows]
        tokens, targets = mine[:, :-1][:, positions].to(device), mine[:, 1:][:, positions].to(device)
        opt.zero_grad(set_to_none=True)
        loss = forward_backward(stages, mesh, L, cfg, train["num_microbatches"], tokens, targets, loss_fn)
        if args.dp == "allreduce":
            allreduce_gradients(pm, mesh)
        finish_gradients(pm, mesh, cfg["tied_embeddings"])
        if args.check and step == 0:
            from check import Checker
            checker = Checker(cfg, train, args.seed, data, mesh, (RTOL, ATOL), (LR, BETAS, WD, eps))
            checker.compare_loss(loss)
            checker.compare_grads(pm)
        opt.step()
        update_biases(stages, mesh)
        if args.check and step == 0:
            checker.compare_params(pm, [m for s in stages for m in s.moe_layers()])
        # the loss lives on the last stage; sum it over dp x cp there and report
        total = torch.zeros((), device=device)
        if loss is not None:
            total = loss.detach().float().clone()
            dist.all_reduce(total, group=mesh.dp_cp_group)
        dist.all_reduce(total, op=dist.ReduceOp.MAX)
        if rank == 0:
            print(f"step {step}: loss {total.item():.6f}", flush=True)
    ok = checker.report() if args.check else True
    dist.destroy_process_group()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

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
    return ap.parse_args()


def synthetic_batch(cfg, train, seed):
    """Token ids [dp * nmb * mb, seq + 1], the same on every rank (seeded)."""
    L = layout.LAYOUT
    rows = L["dp"] * train["num_microbatches"] * train["micro_batch"]
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, cfg["vocab"], (rows, train["seq"] + 1), generator=g)


def reduce_gradients(params, mesh):
    """Dense grads: sum over dp x cp; router/shared/qk-norm: over the stage;
    experts: over edp. One flat all-reduce per group."""
    groups = {"dp_cp": mesh.dp_cp_group, "stage": mesh.stage_group}
    groups.update({f"edp{s}": ex.edp_group for s, ex in mesh.experts.items()})
    for p in params:
        if p.grad is None:             # e.g. an expert that got no tokens
            p.grad = torch.zeros_like(p)
    for kind, group in groups.items():
        grads = [p.grad for p in params if p.reduce == kind]
        if grads and dist.get_world_size(group) > 1:
            flat = torch.cat([g.reshape(-1) for g in grads])
            dist.all_reduce(flat, group=group)
            for g, new in zip(grads, flat.split([g.numel() for g in grads])):
                g.copy_(new.view_as(g))
    for p in params:
        if getattr(p, "kv_replicated", False):
            # tp ranks sharing a kv head hold partial grads: sum them through a
            # buffer of all kv heads in which each rank fills its own head's rows
            (_, start, n), = p.slices
            buf = p.grad.new_zeros((p.full_rows,) + tuple(p.grad.shape[1:]))
            buf[start:start + n] = p.grad
            dist.all_reduce(buf, group=mesh.tp_group)
            p.grad.copy_(buf[start:start + n])
    tied = [p for p in params if p.full_name == "embed"]
    if layout.MODEL["tied_embeddings"] and mesh.pp_size > 1 and tied:
        for p in tied:                 # first stage's embedding + last stage's head copy
            dist.all_reduce(p.grad, group=mesh.embed_group)


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
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    L = layout.LAYOUT
    if world != L["world"]:
        sys.exit(f"the plan needs world = tp({L['tp']}) * cp({L['cp']}) * dp({L['dp']}) * pp({L['pp']})"
                 f" = {L['world']} processes, torchrun started {world}")
    if args.device == "cuda":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
    device = torch.device(args.device)
    cfg = dict(layout.TINY if tiny else layout.MODEL)
    train = layout.TINY_TRAIN if tiny else layout.TRAIN
    cfg["capacity_factor"] = train["capacity_factor"]

    mesh = Mesh(rank, device)
    if args.check:
        check_device_meshes(mesh, *device_meshes(args.device))
    positions = local_token_index(train["seq"], mesh.cp_ring_rank, mesh.cp_ring_size,
                                  mesh.cp_uly_rank, mesh.cp_uly_size)   # [S/cp] global positions
    n_stages = len(layout.STAGES)
    stages = [StageModel(cfg, layout.STAGES[s], mesh, positions, args.seed, s == 0, s == n_stages - 1).to(device)
              for s in mesh.stage_indices]
    params = [p for s in stages for p in s.parameters()]
    eps = CHECK_EPS if args.check else EPS
    opt = torch.optim.AdamW(params, lr=LR, betas=BETAS, weight_decay=WD, eps=eps)
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
        reduce_gradients(params, mesh)
        if args.check and step == 0:
            from check import Checker
            checker = Checker(cfg, train, args.seed, data, mesh, (RTOL, ATOL), (LR, BETAS, WD, eps))
            checker.compare_loss(loss)
            checker.compare_grads(params)
        opt.step()
        update_biases(stages, mesh)
        if args.check and step == 0:
            checker.compare_params(params, [m for s in stages for m in s.moe_layers()])
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

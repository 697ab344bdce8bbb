"""Train the planned model: the plan's layout, precision, sharding and recompute.

  torchrun --nproc-per-node=WORLD train.py [--tiny] [--check] [--steps N] [--data FILE]
           [--metrics FILE] [--ckpt DIR --save-every K [--resume]] [--device cpu|cuda]
  python train.py --dry-run [--rank R] [--json]      (one rank, full size, no GPU; see dryrun.py)

--tiny   same layout (degrees, layers per stage, experts), small dimensions.
--check  (implies --tiny, float32, 2 steps) also runs the same steps in one
         process without any parallelism (reference.py) and compares loss, every
         gradient and every parameter after each optimizer step, and the running
         stages, folding and recompute with plan.json (check.py); PASS/FAIL, exit 1 on FAIL.
--data   a token file (data.py: 16-byte header with the EOD id, uint16/uint32 ids,
         memory-mapped; tools/convert.py writes one); every id is checked against the
         vocabulary before the run. Without it, seeded synthetic tokens.
--doc-mask  packed documents (documents.py): positions restart and attention stays
         within each EOD-ended document, no loss across a boundary (pp 1, no ring CP).
LR: linear warm-up over --warmup steps to --lr, cosine decay to --min-lr at --steps.
Gradients clipped to --clip by the global norm over every mesh (0: no clipping).
"""
import argparse
import math
import os
import sys
import time
from datetime import timedelta

import torch

import layout

if tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2]) < tuple(layout.MIN_TORCH):
    sys.exit(f"this bundle needs torch >= {'.'.join(map(str, layout.MIN_TORCH))}, found {torch.__version__}")

import torch.distributed as dist                     # noqa: E402
import torch.nn.functional as F                      # noqa: E402

import fp8                                           # noqa: E402
import fused                                         # noqa: E402
from blocks import update_router_bias                # noqa: E402
from build import DTYPES, build                      # noqa: E402
from dataparallel import (allreduce_gradients, clip_gradients, finish_gradients, global_grad_norm,  # noqa: E402
                          params_with_meta)
from init import materialize                          # noqa: E402
from mesh import Mesh, check_device_meshes, device_meshes  # noqa: E402
from metrics import MetricsFile, peak_memory_gib  # noqa: E402
from moe.layer import MoE                             # noqa: E402
from pipeline import forward_backward                # noqa: E402

RTOL, ATOL = 1e-4, 1e-6
IGNORE = -100            # a target without loss (F.cross_entropy's ignore_index)
LR, BETAS, WD, EPS = 1e-3, (0.9, 0.95), 0.1, 1e-8
# --check: Adam's first step is ~lr * g / (|g| + eps), i.e. lr * sign(g) for
# |g| >> eps, which turns fp32 rounding noise in near-zero gradient elements
# into O(lr) parameter differences: d(update)/dg <= lr / eps. With eps = 1e-4 that
# factor is 10 at lr 1e-3, and check.py widens the parameters' atol by it
# (check.adamw_sensitivity): a gradient within its tolerance gives a parameter within its.
CHECK_EPS = 1e-4


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--steps", type=int, default=None, help="optimizer steps (default 1; 2 in --check)")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--dtype", choices=tuple(DTYPES), default=None,
                    help="compute dtype (master weights and grads stay fp32); default bfloat16 on cuda and "
                         "in --dry-run, float32 on cpu and always in --check")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--dp", choices=("fsdp2", "allreduce"), default="fsdp2",
                    help="data-parallel engine: FSDP2 fully_shard per group (the plan's sharding), "
                         "or flat all-reduces (fp32, replicated)")
    ap.add_argument("--data", help="token file (data.py format); default: seeded synthetic tokens")
    # -------- packed documents (documents.py)
    ap.add_argument("--doc-mask", action="store_true",
                    help="packed documents: RoPE positions restart at each document, attention and loss stay "
                         "within it (the EOD id from the --data header or --eod)")
    ap.add_argument("--eod", type=int, default=None,
                    help="end-of-document token id (default: the one in the --data header)")
    ap.add_argument("--lr", type=float, default=LR)
    ap.add_argument("--min-lr", type=float, default=None, help="end of the cosine decay (default lr / 10)")
    ap.add_argument("--warmup", type=int, default=0, help="linear warm-up steps")
    ap.add_argument("--clip", type=float, default=None, help="max global grad norm (default 1.0; 0 in --check)")
    ap.add_argument("--aux-loss-coef", type=float, default=None,
                    help="softmax routers: load-balancing loss coefficient (default 0.01; --check compares it "
                         "with the reference's own balancing loss)")
    ap.add_argument("--metrics", help="append one JSON line per step to this file (rank 0)")
    ap.add_argument("--ckpt", help="checkpoint directory (torch.distributed.checkpoint)")
    ap.add_argument("--save-every", type=int, default=0, help="save every K steps (and after the last)")
    ap.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --ckpt")
    ap.add_argument("--reschedule", action="store_true",
                    help="--resume under settings other than the checkpoint's (--steps, --lr, --data, ...); "
                         "without it such a resume is refused, since it is not the same run")
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop after this many steps of the --steps schedule (an interruption; resume later)")
    ap.add_argument("--timeout-min", type=float, default=float(os.environ.get("FOLDPLAN_PG_TIMEOUT_MIN", 10)),
                    help="collective timeout in minutes (NCCL watchdog)")
    ap.add_argument("--no-compile", action="store_true",
                    help="run every block eagerly (default: each block's local math through torch.compile, fused.py)")
    ap.add_argument("--preflight", action="store_true",
                    help="only check --data, --doc-mask and --resume, in this one process (the launchers run it "
                         "before torchrun)")
    ap.add_argument("--dry-run", action="store_true", help="trace one rank at full size (dryrun.py)")
    ap.add_argument("--rank", type=int, default=0, help="--dry-run: the rank to trace")
    ap.add_argument("--json", action="store_true", help="--dry-run: print JSON")
    ap.add_argument("--microbatches", type=int, default=None, help="--dry-run: micro-batches to trace")
    args = ap.parse_args(argv)
    if args.dtype is None:
        args.dtype = "bfloat16" if (args.device == "cuda" or args.dry_run) and not args.check else "float32"
    if args.steps is None:
        args.steps = 2 if args.check else 1
    if args.clip is None:
        args.clip = 0.0 if args.check else 1.0
    if args.aux_loss_coef is None:
        args.aux_loss_coef = 0.01
    if args.min_lr is None:
        args.min_lr = args.lr / 10
    return args


def lr_at(step: int, args) -> float:
    """Linear warm-up to args.lr, then cosine decay to args.min_lr at args.steps."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    span = max(args.steps - args.warmup, 1)
    t = min((step - args.warmup) / span, 1.0)
    return args.min_lr + 0.5 * (args.lr - args.min_lr) * (1 + math.cos(math.pi * t))


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


def start(args):
    """The process group and this rank's device; exits when torchrun started another world."""
    backend = "nccl" if args.device == "cuda" else "gloo"
    if args.device == "cuda":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
    dist.init_process_group(backend, timeout=timedelta(minutes=args.timeout_min))
    world = dist.get_world_size()
    L = layout.LAYOUT
    if world != L["world"]:
        sys.exit(f"the plan needs world = tp({L['tp']}) * cp({L['cp']}) * dp({L['dp']}) * pp({L['pp']})"
                 f" = {L['world']} processes, torchrun started {world}")
    return torch.device(args.device, torch.cuda.current_device()) if args.device == "cuda" \
        else torch.device("cpu")


def resume(path, stages, mesh, opts, metas) -> int:
    """Load the checkpoint `path`; the first step to run."""
    import ckpt
    start_step = ckpt.load(path, stages, mesh.stage_indices, opts, metas)
    if dist.get_rank() == 0:
        print(f"resumed from {path} (after step {start_step - 1})", flush=True)
    return start_step


class Run:
    """One training run's state: the model of this rank, its optimizers and the step's inputs."""

    def __init__(self, args):
        self.args = args
        tiny = args.tiny or args.check
        self.dtype = DTYPES[args.dtype]
        self.device = start(args)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        L = self.L = layout.LAYOUT
        self.cfg = cfg = dict(layout.TINY if tiny else layout.MODEL)
        self.train = train = layout.TINY_TRAIN if tiny else layout.TRAIN
        cfg["capacity_factor"] = train["capacity_factor"]
        nmb, mb, self.seq = train["num_microbatches"], train["micro_batch"], train["seq"]
        MoE.aux_coef = args.aux_loss_coef
        MoE.groups_per_step = L["dp"] * L["cp"] * L["tp"] * nmb
        self.mesh = mesh = Mesh(self.rank, self.device)
        fused.enable(not args.no_compile)                  # regional torch.compile (fused.py)
        fp8.configure(train["precision"])                     # the linears' GEMMs (fp8.py)
        if args.check:
            check_device_meshes(mesh, *device_meshes(args.device, mesh))
        self.stages, self.metas, self.positions = build(cfg, train, mesh, args, self.dtype)
        materialize(self.stages, self.metas, self.device)
        self.pm = params_with_meta(self.stages, self.metas)
        self.eps = CHECK_EPS if args.check else EPS
        # one AdamW per stage (checkpoint state keyed per stage); foreach=False:
        # FSDP2's DTensor parameters live on several meshes
        self.opts = [torch.optim.AdamW(st.parameters(), lr=args.lr, betas=BETAS, weight_decay=WD, eps=self.eps,
                                       foreach=False) for st in self.stages]
        self.global_tokens = self.loss_tokens = L["dp"] * nmb * mb * self.seq
        self.rows = nmb * mb
        self.tokens_file = self.metrics = self.checker = None

    def open_files(self, tokens_file=None):
        """The token file (--data, opened and checked by data_refusal) and the metrics file
        (--metrics, rank 0); after a resume."""
        self.tokens_file = tokens_file
        self.eod = self.args.eod if tokens_file is None else tokens_file.eod
        self.metrics = MetricsFile(self.args.metrics if self.rank == 0 else None)
        self.flops = layout.FLOPS_PER_TOKEN["tiny" if self.args.tiny or self.args.check else "model"]
        self.peak_flops = layout.PEAK_FLOPS if hasattr(layout, "PEAK_FLOPS") else _plan_peak_flops()

    def loss_fn(self, logits, targets):   # summed CE / all loss tokens of the step (dp, cp, micro-batches)
        return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten(), reduction="sum",
                               ignore_index=IGNORE) / self.loss_tokens

    def documents(self, mine):
        """--doc-mask: (document ids [rows, S] of my rows, targets with IGNORE where the input is
        EOD); self.loss_tokens = the step's targets left, over every dp rank's rows."""
        import documents
        inputs, targets = mine[:, :-1], mine[:, 1:].clone()
        targets[inputs == self.eod] = IGNORE
        count = (targets != IGNORE).sum().to(self.device, torch.float64)
        dist.all_reduce(count, group=self.mesh.stage_group)      # each dp rank's rows on cp * tp ranks
        self.loss_tokens = max(count.item() / (self.L["cp"] * self.L["tp"]), 1.0)
        return documents.document_ids(inputs, self.eod), targets

    def batch(self, step):
        """(data, mine), token ids [rows, seq + 1]: mine is this dp rank's rows; data is every dp
        rank's rows (what --check's reference runs), except from a --data file outside --check,
        where only this rank's rows are read."""
        args, L, mesh, rows = self.args, self.L, self.mesh, self.rows
        if self.tokens_file is not None:     # the whole step's rows for --check, else only mine
            data = self.tokens_file.batch(step, L["dp"] * rows, self.seq) if args.check else \
                self.tokens_file.batch(step, L["dp"] * rows, self.seq, mesh.dp_rank * rows, rows)
            mine = data[mesh.dp_rank * rows:(mesh.dp_rank + 1) * rows] if args.check else data
        else:
            data = synthetic_batch(self.cfg, self.train, args.seed + step)
            mine = data[mesh.dp_rank * rows:(mesh.dp_rank + 1) * rows]
        return data, mine

    def step(self, step):
        """One optimizer step: forward and backward of every micro-batch, gradients finished,
        clipped, applied; the router biases updated; the summed loss and the gradient norm."""
        args, mesh, pm = self.args, self.mesh, self.pm
        lr = lr_at(step, args)
        for opt in self.opts:
            for g in opt.param_groups:
                g["lr"] = lr
        data, mine = self.batch(step)
        positions = self.positions
        docs, inputs, targets = None, mine[:, :-1], mine[:, 1:]
        if args.doc_mask:          # documents.py: no loss where the input is EOD; count the loss tokens
            docs, targets = self.documents(mine)
        tokens, targets = inputs[:, positions].to(self.device), targets[:, positions].to(self.device)
        for opt in self.opts:
            opt.zero_grad(set_to_none=True)
        loss = forward_backward(self.stages, mesh, self.L, self.cfg, self.train["num_microbatches"], tokens,
                                targets, self.loss_fn, self.dtype, docs)
        if args.dp == "allreduce":
            allreduce_gradients(pm, mesh)
        finish_gradients(pm, mesh, self.cfg["tied_embeddings"])
        if self.checker is not None:
            self.checker.after_backward(data, loss, pm)
        grad_norm = global_grad_norm(pm, mesh, self.cfg["tied_embeddings"])
        if args.clip > 0:
            clip_gradients(pm, grad_norm, args.clip)
        for opt in self.opts:
            opt.step()
        update_biases(self.stages, mesh)
        if self.checker is not None:
            self.checker.after_step(lr, pm, [m for s in self.stages for m in s.moe_layers()])
        # the loss lives on the last stage; sum it over dp x cp x tp there and report
        total = torch.zeros((), device=self.device)
        if loss is not None:
            total = loss.detach().float().clone()
            dist.all_reduce(total, group=mesh.stage_group)
        dist.all_reduce(total, op=dist.ReduceOp.MAX)
        return total, grad_norm, lr

    def record(self, step, total, grad_norm, lr, dt):
        """Rank 0: the step's line on stdout and in --metrics."""
        if self.rank != 0:
            return
        print(f"step {step}: loss {total.item():.6f} grad_norm {grad_norm.item():.4f} lr {lr:.3e} "
              f"{dt:.2f} s", flush=True)
        tps = self.global_tokens / dt
        self.metrics.write(step=step, loss=total.item(), tokens_per_s=tps,
                           mfu=tps * self.flops / (self.world * self.peak_flops) if self.peak_flops else None,
                           peak_memory_gib=peak_memory_gib(self.device), grad_norm=grad_norm.item(), lr=lr,
                           step_time_s=dt, tokens=self.global_tokens, tiny=bool(self.args.tiny),   # audit --measured
                           device=self.device.type)


def main():
    args = parse_args()
    if args.dry_run and args.preflight:
        return 0
    if args.dry_run:
        from dryrun import main as dry_main
        return dry_main(args)
    if args.dp == "allreduce" and DTYPES[args.dtype] != torch.float32:
        sys.exit("--dp allreduce runs float32 only (use --dtype float32)")
    from ckpt import resume_path
    from data import data_refusal
    tokens_file = data_refusal(args, layout)
    path = resume_path(args) if args.resume else None
    if args.preflight:
        return 0
    run = Run(args)
    first = resume(path, run.stages, run.mesh, run.opts, run.metas) if args.resume else 0
    run.open_files(tokens_file)
    if args.check:      # before step 0: the plan, the initial weights, a non-zero router bias
        from check import Checker
        run.checker = Checker(run.cfg, run.train, args.seed, run.mesh, (RTOL, ATOL), (BETAS, WD, run.eps),
                              args.aux_loss_coef)
        run.checker.start(run.stages, run.pm)
        run.checker.eod = run.eod if args.doc_mask else None
    end = args.steps if args.stop_after is None else min(args.steps, args.stop_after)
    for step in range(first, end):
        t0 = time.perf_counter()
        total, grad_norm, lr = run.step(step)
        run.record(step, total, grad_norm, lr, time.perf_counter() - t0)
        if args.ckpt and args.save_every and ((step + 1) % args.save_every == 0 or step + 1 == end):
            import ckpt
            ckpt.save(args.ckpt, step + 1, run.stages, run.mesh.stage_indices, run.opts, run.metas,
                      ckpt.trajectory(args))
    ok = run.checker.report() if run.checker is not None else True
    # every rank past its last collective before any group is torn down, and main's frame
    # (the meshes, stages and optimizers that hold the groups) released before the
    # interpreter finalizes: a gloo group destroyed during finalization aborts the process
    # ("terminate called without an active exception", 1 run in ~7 of pp2 x dp2 on CPU)
    dist.barrier()
    dist.destroy_process_group()
    verdict = os.environ.get("FOLDPLAN_CHECK_VERDICT")
    if run.checker is not None and verdict:
        # launch/local_cpu.sh reads the verdict and exits 1 on FAIL itself: every rank exits 0,
        # so torchrun adds no failure report per rank under the check's own summary
        if run.mesh.rank == 0:
            with open(verdict, "w") as f:
                f.write("PASS\n" if ok else "FAIL\n")
        return 0
    return 0 if ok else 1


def _plan_peak_flops():
    """Peak FLOP/s per GPU from the bundle's plan.json (problem.cluster.peak_flops), if any."""
    import json
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan.json")) as f:
            doc = json.load(f)
        plan = doc["plans"][0] if "plans" in doc else doc
        return float(plan["problem"]["cluster"]["peak_flops"])
    except (OSError, KeyError, ValueError, TypeError, IndexError):
        return None


if __name__ == "__main__":
    code = main()
    import gc
    gc.collect()
    sys.exit(code)

"""Microbenchmarks of this plan's kernels and collectives on the nodes it will run on.

  torchrun --nproc-per-node=G [--nnodes ...] calibrate.py [--tiny] [--device cpu|cuda]
           [--out calibration.jsonl] [--iters N] [--max-mib M]
  (launch/calibrate.sh does this with the plan's nodes and GPUs per node)

Measures, at the shapes layout.py records (the full model, or --tiny's):
  gemm          the dense projections of one micro-batch per rank (QKV, attention out, MLP up/down; / tp)
  grouped_gemm  the local experts' up and down projections (moe/experts.py's grouped GEMM, or its loop)
  memory        elementwise add over large operands (the achieved memory bandwidth)
  attention     causal SDPA forward + backward at the block lengths the CP kind runs, and a ladder below
  collective    every collective the plan runs, in the plan's own groups (or, on another world size,
                consecutive ranks of the same group size), at the plan's message size and a ladder of
                smaller ones; an intra-node and (on several nodes) an inter-node group of every rank;
                all-to-all by peers (groups of 2, 4, .. ranks)
Times: the median over --iters runs after warm-up; a collective's time is the slowest rank's.
Writes one JSON line per measurement (rank 0), the first line the provenance (host, torch, device,
date, world size); `foldplan calibrate FILE --out my-cluster.yaml` turns the file into a GPU preset.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

import layout

SMALLEST_BYTES = 4096            # the ladder of message sizes starts here and doubles up to the plan's size
LADDER_STEPS = 6                 # at most this many sizes below the plan's, per collective
CPU_MAX_BLOCK = 4096             # longest attention block a CPU run times (its time grows as L^2)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiny", action="store_true", help="the --tiny model's shapes (layout.TINY)")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", default="calibration.jsonl", help="results file (JSON lines, written by rank 0)")
    ap.add_argument("--iters", type=int, default=10, help="timed runs per measurement (after 2 warm-up runs)")
    ap.add_argument("--max-mib", type=float, default=512.0, help="largest message or operand, MiB (caps the plan's)")
    return ap.parse_args()


class Bench:
    def __init__(self, args):
        self.args = args
        self.cuda = args.device == "cuda"
        if self.cuda:                                  # the rank's GPU before NCCL starts (no all-on-GPU-0)
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
            self.device = torch.device("cuda", torch.cuda.current_device())
            dist.init_process_group("nccl", device_id=self.device)
        else:
            self.device = torch.device("cpu")
            dist.init_process_group("gloo")
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        self.local_world = int(os.environ.get("LOCAL_WORLD_SIZE", self.world))
        self.dtype = torch.bfloat16 if self.cuda else torch.float32
        self.cap = int(args.max_mib * 2 ** 20)
        self.rows = []

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize()

    def timed(self, fn, group_max=True) -> float:
        """Median seconds of fn() over --iters runs; the slowest rank's median when group_max."""
        for _ in range(2):
            fn()
        self.sync()
        ts = []
        for _ in range(self.args.iters):
            t0 = time.perf_counter()
            fn()
            self.sync()
            ts.append(time.perf_counter() - t0)
        t = torch.tensor([statistics.median(ts)], dtype=torch.float64, device=self.device)
        if group_max:
            dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return float(t.item())

    def emit(self, **row):
        self.rows.append(row)

    def write(self):
        if self.rank != 0:
            return
        tmp = self.args.out + ".tmp"
        with open(tmp, "w") as f:
            for row in [provenance(self)] + self.rows:
                f.write(json.dumps(row) + "\n")
        os.replace(tmp, self.args.out)          # never a half-written results file
        print(f"calibrate: {len(self.rows)} measurements written to {self.args.out}")


def provenance(b) -> dict:
    dev = torch.cuda.get_device_name(b.device) if b.cuda else (platform.processor() or platform.machine())
    mem = torch.cuda.get_device_properties(b.device).total_memory / 2 ** 30 if b.cuda else None
    return {"kind": "provenance", "host": platform.node(), "torch": torch.__version__, "device": dev,
            "device_type": b.device.type, "memory_gib": mem, "backend": dist.get_backend(),
            "nccl": ".".join(map(str, torch.cuda.nccl.version())) if b.cuda else None,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "world_size": b.world, "local_world_size": b.local_world, "nodes": -(-b.world // b.local_world),
            "dtype": str(b.dtype).replace("torch.", ""), "iters": b.args.iters, "tiny": b.args.tiny,
            "plan": {"model": layout.MODEL["name"], "world": layout.LAYOUT["world"], "gpu": plan_gpu(),
                     "degrees": {k: layout.LAYOUT[k] for k in ("tp", "cp", "dp", "pp", "cp_ulysses", "cp_ring")}}}


def plan_gpu():
    """The GPU preset the plan was made for (plan.json beside this file): `foldplan calibrate`'s default base."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan.json")) as f:
            return json.load(f)["plans"][0]["problem"]["cluster"]["gpu"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def shapes(tiny: bool) -> dict:
    """The per-rank shapes of one micro-batch of this plan."""
    m, tr, lay = (layout.TINY, layout.TINY_TRAIN, layout.LAYOUT) if tiny else (layout.MODEL, layout.TRAIN, layout.LAYOUT)
    tp, cp, cu = lay["tp"], lay["cp"], lay["cp_ulysses"]
    tokens = tr["micro_batch"] * tr["seq"] // cp
    st = layout.STAGES[0]
    return {"m": m, "tokens": tokens, "tp": tp, "cp": cp, "cu": cu, "cr": lay["cp_ring"], "seq": tr["seq"],
            "mb": tr["micro_batch"], "etp": st["etp"], "ep": st["ep"], "edp": st["edp"]}


def bench_gemms(b, s):
    m, T, tp = s["m"], s["tokens"], s["tp"]
    H, d = m["hidden"], m["head_dim"]
    qkv = (m["heads"] + 2 * m["kv_heads"]) * d // tp
    ffn = m["ffn_hidden"] // tp
    cases = {"qkv": (T, H, qkv), "attn_out": (T, m["heads"] * d // tp, H),
             "mlp_up": (T, H, (2 if m["gated"] else 1) * ffn), "mlp_down": (T, ffn, H)}
    for name, (M, K, N) in cases.items():
        if min(M, K, N) < 1:                       # a projection this model lacks (no dense MLP)
            continue
        if max(M * K, K * N, M * N) * 2 > b.cap:
            b.emit(kind="skipped", what=f"gemm {name} {M}x{K}x{N}", why=f"an operand over --max-mib {b.args.max_mib}")
            continue
        x = torch.randn(M, K, device=b.device, dtype=b.dtype)
        w = torch.randn(K, N, device=b.device, dtype=b.dtype)
        t = b.timed(lambda: x @ w, group_max=False)
        b.emit(kind="gemm", name=name, m=M, k=K, n=N, flops=2.0 * M * K * N, time_s=t)


def bench_grouped(b, s):
    m = s["m"]
    if not any(m["is_moe"]) or not m["experts"]:
        return
    from moe.experts import _Grouped, grouped_ok
    local = m["experts"] // s["ep"]
    ffn = m["expert_ffn"] // s["etp"]
    rows_each = max(1, s["tokens"] * m["top_k"] * s["ep"] // m["experts"])   # balanced routing
    H = m["hidden"]
    x = torch.randn(local * rows_each, H, device=b.device, dtype=b.dtype)
    for name, (K, N) in {"expert_up": (H, 2 * ffn), "expert_down": (ffn, H)}.items():
        xi = x if K == H else torch.randn(local * rows_each, K, device=b.device, dtype=b.dtype)
        w = torch.randn(local, N, K, device=b.device, dtype=b.dtype)
        gm = _Grouped([rows_each] * local, b.device, grouped_ok(xi, w, w.transpose(1, 2)))
        t = b.timed(lambda: gm.mm(xi, w), group_max=False)
        b.emit(kind="grouped_gemm", name=name, experts=local, rows=rows_each, k=K, n=N, grouped=gm.grouped,
               flops=2.0 * local * rows_each * K * N, time_s=t)


def bench_memory(b):
    """Elementwise z = x + y (2 reads, 1 write) over operands of 1/16, 1/4 and all of --max-mib / 4: the
    achieved memory bandwidth the cost model's elementwise terms use (GPUSpec.hbm_bw x hbm_efficiency)."""
    for frac in (16, 4, 1):
        numel = max(1024, b.cap // 4 // frac // torch.tensor([], dtype=b.dtype).element_size())
        x, y = (torch.randn(numel, device=b.device, dtype=b.dtype) for _ in range(2))
        z = torch.empty_like(x)
        t = b.timed(lambda: torch.add(x, y, out=z), group_max=False)
        b.emit(kind="memory", op="add", bytes=3 * numel * x.element_size(), time_s=t)


def attention_blocks(s) -> list:
    """Block lengths the CP kind runs: Ulysses' seq / ring (a full local sequence after its all-to-all),
    the ring's seq / cp chunks (halves under head-tail balancing); and a ladder down to 128."""
    seq, cr = s["seq"], s["cr"]
    plan = {seq // cr, seq // s["cp"], max(1, seq // (2 * s["cp"]))}
    ladder, L = set(), max(plan)
    while L >= 128 and len(ladder) < LADDER_STEPS:
        ladder.add(L)
        L //= 2
    return sorted(x for x in plan | ladder if x >= 8)


def bench_attention(b, s):
    m = s["m"]
    heads = max(1, m["heads"] // (s["tp"] * s["cu"]))
    d = m["head_dim"]
    for L in attention_blocks(s):
        if s["mb"] * heads * L * d * 2 * 4 > b.cap or (not b.cuda and L > CPU_MAX_BLOCK):
            b.emit(kind="skipped", what=f"attention block {L}",
                   why=f"over --max-mib {b.args.max_mib}" if b.cuda or L <= CPU_MAX_BLOCK else
                   f"a CPU run times blocks up to {CPU_MAX_BLOCK} tokens (quadratic time)")
            continue
        q, k, v = (torch.randn(s["mb"], heads, L, d, device=b.device, dtype=b.dtype, requires_grad=True)
                   for _ in range(3))

        def step():
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            o.sum().backward()
        t = b.timed(step, group_max=False)
        # causal forward 2 L^2 h d (half of QK^T and PV); forward + backward counted as 3 x forward,
        # the convention of layout.FLOPS_PER_TOKEN (the planner's flops_per_token) and the cost model's attention term
        b.emit(kind="attention", block=L, heads=heads, head_dim=d, batch=s["mb"], causal=True,
               flops=3 * 2.0 * s["mb"] * L * L * heads * d, time_s=t)


def _dense_coords(rank: int) -> dict:
    c = layout.coords(rank)
    out = {a: c[a] for a in ("pp", "tp", "dp", "cp_ring", "cp_ulysses")}
    if c["experts"]:
        e = next(iter(c["experts"].values()))
        out.update(etp=e["etp"], ep=e["ep"], edp=e["edp"])
    return out


def partition(b, axis: str, size: int) -> list:
    """The rank groups of one axis: the plan's own (this world is the plan's) or consecutive ranks."""
    if b.world == layout.LAYOUT["world"]:
        dense = axis in ("pp", "tp", "dp", "cp_ring", "cp_ulysses")
        keys = ("pp", "tp", "dp", "cp_ring", "cp_ulysses") if dense else ("pp", "etp", "ep", "edp")
        groups = {}
        for r in range(b.world):
            c = _dense_coords(r)
            groups.setdefault(tuple(c[k] for k in keys if k != axis), []).append(r)
        return sorted(groups.values())
    if b.world % size:
        return []
    return [list(range(i, i + size)) for i in range(0, b.world, size)]


def plan_messages(s, sharding: str) -> list:
    """(axis, op, group size, bytes of the plan's message in bf16) of every collective the plan runs."""
    m, T, tp, ep = s["m"], s["tokens"], s["tp"], s["ep"]
    H, d, h, hk = m["hidden"], m["head_dim"], m["heads"], m["kv_heads"]
    act = T * H * 2
    per_layer = H * (h + 2 * hk) * d + h * d * H + (3 if m["gated"] else 2) * H * m["ffn_hidden"]
    dense = (m["layers"] // layout.LAYOUT["pp"] * per_layer + m["vocab"] * H) * 2 // tp
    experts = m["experts"] // ep * 3 * H * m["expert_ffn"] // s["etp"] * 2 if m["experts"] else 0
    dp_ops = ("all_reduce",) if sharding == "none" else ("reduce_scatter", "all_gather")
    out = [("tp", op, tp, act) for op in ("all_gather", "reduce_scatter")]
    out += [("cp_ulysses", "all_to_all", s["cu"], T * (h + 2 * hk) * d * 2 // tp),
            ("cp_ring", "p2p", s["cr"], T * 2 * hk * d * 2 // tp),
            ("pp", "p2p", layout.LAYOUT["pp"], act)]
    out += [("dp", op, layout.LAYOUT["dp"], dense) for op in dp_ops]
    if m["experts"]:
        out += [("ep", "all_to_all", ep, T * m["top_k"] * H * 2), ("etp", "all_gather", s["etp"], act)]
        out += [("edp", op, s["edp"], experts) for op in dp_ops]
    return [x for x in out if x[2] > 1 and x[3] > 0]


def ladder(top: int, cap: int, unit: int) -> list:
    top = max(unit, min(top, cap) // unit * unit)
    sizes = [top]
    while len(sizes) <= LADDER_STEPS and sizes[-1] // 2 >= SMALLEST_BYTES:
        sizes.append(max(unit, sizes[-1] // 2 // unit * unit))
    return sorted(set(sizes))


def run_op(b, op: str, ranks: list, group, nbytes: int):
    """One collective of nbytes (the cost model's message: all-gather's gathered output, the others' input)."""
    n, el = len(ranks), torch.tensor([], dtype=b.dtype).element_size()
    numel = max(n, nbytes // el // n * n)
    x = torch.ones(numel, device=b.device, dtype=b.dtype)
    if op == "all_reduce":
        return lambda: dist.all_reduce(x, group=group)
    if op == "all_gather":
        part = x[: numel // n].clone()
        gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor   # torch's newer name
        return lambda: gather(x, part, group=group)
    if op == "reduce_scatter":
        out = torch.empty(numel // n, device=b.device, dtype=b.dtype)
        scatter = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
        return lambda: scatter(out, x, group=group)
    if op == "all_to_all":
        out = torch.empty_like(x)
        return lambda: dist.all_to_all_single(out, x, group=group)
    i = ranks.index(b.rank)                       # p2p: each rank sends to the next of its group, receives the previous
    recv = torch.empty_like(x)

    def p2p():
        ops = [dist.P2POp(dist.isend, x, ranks[(i + 1) % n], group), dist.P2POp(dist.irecv, recv, ranks[i - 1], group)]
        for w in dist.batch_isend_irecv(ops):
            w.wait()
    return p2p


def bench_groups(b, axis: str, op: str, groups: list, top: int):
    """One op in every group of a partition at once (as training runs them), at a ladder of sizes."""
    handles = [dist.new_group(g) for g in groups]        # every rank creates every group, in order
    mine = [(g, h) for g, h in zip(groups, handles) if b.rank in g]
    if not mine:
        return
    ranks, group = mine[0]
    nodes = {r // b.local_world for r in ranks}
    for nbytes in ladder(top, b.cap, SMALLEST_BYTES):
        t = b.timed(run_op(b, op, ranks, group, nbytes))
        b.emit(kind="collective", op=op, axis=axis, group_size=len(ranks),
               span="intra" if len(nodes) == 1 else "inter", bytes=nbytes, time_s=t)


def bench_collectives(b, s):
    msgs = plan_messages(s, layout.LAYOUT["sharding"])
    for axis, op, size, nbytes in msgs:
        groups = partition(b, axis, size)
        if not groups:
            b.emit(kind="skipped", what=f"{op} over {axis} ({size} ranks)",
                   why=f"world {b.world} is not a multiple of the group size {size}")
            continue
        bench_groups(b, axis, op, groups, nbytes)
    top = max((x[3] for x in msgs), default=2 ** 20)
    lw, nodes = b.local_world, -(-b.world // b.local_world)
    if lw > 1 and b.world % lw == 0:              # every rank of one node, and one rank per node
        for op in ("all_reduce", "all_to_all"):
            bench_groups(b, "node", op, [list(range(i, i + lw)) for i in range(0, b.world, lw)], top)
    if nodes > 1 and b.world % lw == 0:
        for op in ("all_reduce", "all_to_all"):
            bench_groups(b, "across_nodes", op, [list(range(j, b.world, lw)) for j in range(lw)], top)
    p = 2                                          # all-to-all by peers
    while p <= b.world:
        if b.world % p == 0:
            bench_groups(b, f"a2a_peers_{p}", "all_to_all", [list(range(i, i + p)) for i in range(0, b.world, p)], top)
        p *= 2


def main():
    args = parse_args()
    b = Bench(args)
    s = shapes(args.tiny)
    torch.manual_seed(0)
    bench_gemms(b, s)
    bench_grouped(b, s)
    bench_memory(b)
    bench_attention(b, s)
    bench_collectives(b, s)
    b.write()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

"""--dry-run: one rank's full-size program, traced without a GPU and without peers.

  python train.py --dry-run [--rank R] [--json] [--microbatches N]

A fake process group (torch's "fake" backend: collectives return at once) and
FakeTensorMode (tensors with shapes, dtypes and no storage) run rank R's real
code path: meta build, FSDP2 sharding with the plan's knobs, to_empty, forward
and backward of the micro-batches that are in flight at once on this rank,
then the AdamW step. torch's FSDPMemTracker sorts every live byte into
parameters (sharded fp32 master / gathered bf16 copy), gradients (sharded /
unsharded), optimizer state, activations and temporaries, and keeps the peak.

Micro-batches traced: pp == 1: the first and the last (the first leaves the
accumulated state zero1 keeps, the last reduces it); pp > 1: the forwards
1F1B has in flight on this pp rank before its first backward (pp - pp_rank;
interleaved: (vpp - 1) * pp + 2 * (pp - 1 - pp_rank) + 1 chunks, Megatron's
warm-up), then their backwards, each followed by one steady-state forward
(activations back at their maximum) until every model chunk of this rank has
run a backward: vpp == 1 one, interleaved (vpp - 1) * pp + 1, so that the
gradients of the whole stage exist at the steady state's peak, as they do in
a real step. MoE routing is taken as perfectly balanced (the values are not
known when tracing).

Terms, filed as the cost model files them: "activations" = the tracker's
Activation + Temp + Inputs (in-flight activations, the loss's logits, the
running layer's transients); "buffers" = Buffer + All Gather + Reduce Scatter
and zero3's gathered bf16 copy of the units in use (weights = the fp32 master shard). Printed beside the plan's estimate
for this rank's stage (plan.json estimate.memory_gib_by_stage[pp_rank]).
"""
import json
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

import fp8
import layout
from build import DTYPES, build
from dataparallel import microbatch_knobs
from mesh import Mesh
from moe.layer import MoE

GIB = 2 ** 30
TERMS = ("weights", "grads", "optimizer", "activations", "peak")


def find_plan():
    """The plan of plan.json this bundle was rendered from (matched on the layout)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan.json")
    with open(path) as f:
        doc = json.load(f)
    plans = doc.get("plans", [doc]) if isinstance(doc, dict) else doc
    L = layout.LAYOUT
    for p in plans:
        lay = p.get("layout", {})
        if all(lay.get(k) == L[k] for k in ("tp", "cp", "dp", "pp", "cp_ulysses", "cp_ring")) and \
                (lay.get("vpp") or 1) == L["vpp"] and lay.get("sharding", L["sharding"]) == L["sharding"] and \
                [(s.get("etp"), s.get("ep"), s.get("edp")) for s in lay.get("stages", [])] == \
                [(s["etp"], s["ep"], s["edp"]) for s in layout.STAGES if s["index"] < L["pp"]]:
            return p
    return plans[0] if plans else {}


def schedule(mesh, nmb: int, limit=None):
    """([[(stage position on this rank, micro-batch)]] groups of forwards in flight, in order;
    [the steady state's next forward] (pp > 1))."""
    L = layout.LAYOUT
    pp, vpp, r = L["pp"], L["vpp"], mesh.pp_rank
    n_local = len(mesh.stage_indices)
    if pp == 1:
        mbs = sorted({0, nmb - 1}) if limit is None else list(range(min(limit, nmb)))
        return [[(v, m) for v in range(n_local)] for m in mbs], []      # one group per micro-batch
    if vpp == 1:
        inflight = min(nmb, pp - r)
    else:
        inflight = min(nmb * vpp, (vpp - 1) * pp + 2 * (pp - 1 - r) + 1)
    order = [(v, m) for start in range(0, nmb, pp) for v in range(n_local)
             for m in range(start, min(start + pp, nmb))]
    n = inflight if limit is None else min(limit, inflight)
    # steady forwards, one after each backward, until the last chunk's first backward
    # (backwards run oldest first: chunk v's first entry is at (v * min(pp, nmb)) in `order`)
    k = 1 if n_local == 1 else (n_local - 1) * min(pp, nmb) + 1
    return [order[:n]], order[n:n + k]


def _track_accumulated_grads(tracker):
    """FSDP2 keeps the fp32 gradient accumulated across micro-batches without sync
    (zero1, none) in FSDPParam.unsharded_accumulated_grad, which FSDPMemTracker
    would file as temporary memory: file it as an unsharded gradient."""
    from torch.distributed._tools.fsdp2_mem_tracker import _FSDPRefType
    from torch.distributed.fsdp._fully_shard._fsdp_param import FSDPParam

    orig = FSDPParam.to_accumulated_grad_if_needed

    def patched(self):
        orig(self)
        if self.unsharded_accumulated_grad is not None:
            tracker._update_and_maybe_create_winfos(self.unsharded_accumulated_grad, _FSDPRefType.UNSHARDED_GRAD)
    FSDPParam.to_accumulated_grad_if_needed = patched


def trace(args):
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.distributed._tools.fsdp2_mem_tracker import FSDPMemTracker
    from torch.testing._internal.distributed.fake_pg import FakeStore

    L = layout.LAYOUT
    dist.init_process_group("fake", rank=args.rank, world_size=L["world"], store=FakeStore())
    device = torch.device("cpu")
    dtype = DTYPES[args.dtype]
    cfg = dict(layout.MODEL)
    tr = layout.TRAIN
    cfg["capacity_factor"] = tr["capacity_factor"]
    nmb, mb, seq, H, V = tr["num_microbatches"], tr["micro_batch"], tr["seq"], cfg["hidden"], cfg["vocab"]
    MoE.aux_coef, MoE.groups_per_step = args.aux_loss_coef, L["dp"] * L["cp"] * L["tp"] * nmb
    mesh = Mesh(args.rank, device)
    fp8.configure(tr["precision"])                       # the linears' GEMMs as the run's (fp8.py)
    n_stages = len(layout.STAGES)
    stages, metas, positions = build(cfg, tr, mesh, args, dtype)     # meta + FSDP2, no storage
    with FakeTensorMode(allow_non_fake_inputs=True):
        for st in stages:
            st.to_empty(device=device)
            st.init_buffers()
        params = [p for st in stages for p in st.parameters()]
        opt = torch.optim.AdamW(params, lr=1e-4, foreach=False)
        for p in params:                    # steady state: Adam's m and v exist before the step
            p.grad = torch.zeros_like(p)
        opt.step()
        opt.zero_grad(set_to_none=True)
        tracker = FSDPMemTracker(stages[0], opt)
        _track_accumulated_grads(tracker)
        tracker._root_mod = nn.ModuleList(stages)      # every stage of this rank (vpp > 1)
        s = len(positions)
        groups, steady = schedule(mesh, nmb, args.microbatches)
        flat = [x for g in groups for x in g] + steady

        def run_forward(v, m):
            index = mesh.stage_indices[v]
            first, last = index == 0, index == n_stages - 1
            x = torch.randint(0, V, (mb, s)) if first else \
                torch.randn(mb, s // mesh.tp_size, H, dtype=dtype, requires_grad=True)   # sequence parallel
            # FSDPMemTracker refuses a root called twice; forget this root's per-module
            # stats (the peak is global; the other chunks' stats stay for their backward)
            tracker.memory_tracking.pop(stages[v], None)
            y = stages[v](x)
            if last:
                y = F.cross_entropy(y.float().flatten(0, 1), torch.randint(0, V, (y.shape[0] * y.shape[1],)))
            return y, last

        with tracker:
            for g_i, group in enumerate(groups):
                outs = []
                for v, m in group:                       # forwards in flight
                    outs.append(run_forward(v, m))
                j = 0
                while outs:                              # their backwards, oldest first
                    y, last = outs.pop(0)
                    done = sum(len(gg) for gg in groups[:g_i]) + j
                    microbatch_knobs(stages, L["shards"], done, len(flat))
                    y.backward() if last else y.backward(torch.randn_like(y))
                    del y
                    j += 1
                    if steady:                           # 1F1B: one forward after each backward
                        outs.append(run_forward(*steady.pop(0)))
                del outs
            opt.step()
        peak = next(iter(tracker.get_tracker_snapshot("peak").values()), {})
    return peak, len(flat)


def measured_terms(peak: dict, shards: dict) -> dict:
    g = {k: v / GIB for k, v in peak.items()}
    gathered = g.get("Unsharded Param", 0)
    z3 = shards["params"]           # zero3: its gathered copy is a sharding buffer (the cost model's filing)
    return {
        "weights": g.get("Sharded Param", 0) + (0 if z3 else gathered),
        "grads": g.get("Sharded Grad", 0) + g.get("Unsharded Grad", 0),
        "optimizer": g.get("OptState", 0),
        "activations": g.get("Activation", 0) + g.get("Temp", 0) + g.get("Inputs", 0),
        "buffers": g.get("Buffer", 0) + g.get("All Gather", 0) + g.get("Reduce Scatter", 0) + (gathered if z3 else 0),
        "peak": g.get("Total", 0),
    }


def main(args):
    t0 = time.perf_counter()
    peak, traced = trace(args)
    L = layout.LAYOUT
    pp_rank = layout.RANKS[args.rank]["pp"]
    stage = [s["index"] for s in layout.STAGES if s["pp_rank"] == pp_rank]
    mem = (find_plan().get("estimate") or {}).get("memory_gib_by_stage") or []
    est = dict(mem[pp_rank]) if pp_rank < len(mem) else {}
    if est:
        est["activations+logits"] = est.get("activations", 0) + est.get("logits", 0)
        est["peak"] = est.get("total")
    meas = measured_terms(peak, L["shards"])
    out = {"rank": args.rank, "stage": pp_rank, "stages": stage, "sharding": L["sharding"],
           "dtype": args.dtype, "microbatches_traced": traced,
           "measured_gib": {k: round(v, 4) for k, v in meas.items()},
           "estimated_gib": {k: (round(v, 4) if isinstance(v, (int, float)) else v) for k, v in est.items()},
           "peak_breakdown_gib": {k: round(v / GIB, 4) for k, v in peak.items()},
           "peak_breakdown_bytes": dict(peak),
           "wall_s": round(time.perf_counter() - t0, 1)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"dry-run rank {args.rank} (pp rank {pp_rank}, stages {stage}), sharding {L['sharding']}, "
              f"{args.dtype}, {traced} micro-batch forward(s) in flight; {out['wall_s']} s")
        print(f"{'term':<13}{'measured GiB':>14}{'plan GiB':>12}")
        pairs = [("weights", "weights"), ("grads", "grads"), ("optimizer", "optimizer"),
                 ("activations", "activations+logits"), ("buffers", "buffers"), ("peak", "peak")]
        for m, e in pairs:
            ev = est.get(e)
            print(f"{m:<13}{meas[m]:>14.3f}{ev if ev is None else format(ev, '.3f'):>12}")
    dist.destroy_process_group()

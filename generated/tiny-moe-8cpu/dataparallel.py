"""Data parallelism: every gradient summed over the ranks that hold the same shard.

  dense parameters                   over dp x cp          (mesh.dp_cp_group)
  routed experts                     over edp of the stage (mesh.experts[s].edp_group)
  router, shared experts, qk-norm    over the stage        (each tp rank routed other rows)
  kv heads kept by several tp ranks  also over those tp ranks
  norms, embedding, head (tp > 1)    also over tp (sequence parallel: each tp rank saw 1/tp of the rows)
  tied embedding with pp > 1         also first + last stage (mesh.embed_group)

Two engines (train.py --dp):
  fsdp2     torch's fully_shard on each unit with a DeviceMesh of its group;
  allreduce one flat all-reduce per group, parameters replicated, fp32 only.

Precision (fsdp2): MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32):
the parameters FSDP2 holds (sharded) are the fp32 master weights, forward and
backward run on a gathered bf16 copy, gradients are reduced and kept in fp32.
`--dtype float32` runs the same engine without the bf16 copy (the check).
plan.json's layout.master = "fp32" is exactly this; "bf16+fp32" (Megatron: bf16
weights, fp32 main grads, fp32 master in the optimizer) has no torch engine, so
the bundle runs it the FSDP2 way as well (bytes below).

Sharding (layout.sharding) as FSDP2 knobs; bytes per parameter held by a rank,
d = size of the parameter's reduce group, Adam m and v in fp32:

  plan    FSDP2 knobs                                        held between steps   peak in the step
  none    2-D mesh (replicate = group, shard = 1): HSDP      4 + 8 (+4 grad)      4 + 2 + 4 + 8 = 18
          without sharding; all-reduce at the last micro-batch
  zero1   reshard_after_forward=False; gradient sync and     16/d                 2 + 4 + 16/d
          reshard after backward only at the last micro-batch
          (bf16 copy and fp32 unsharded grads kept across micro-batches)
  zero2   reshard_after_forward=False; reduce-scatter every  16/d                 2 + 16/d
          micro-batch; reshard after backward at the last one
  zero3   reshard_after_forward=True; reduce-scatter and     16/d                 16/d + gathered bf16
          reshard every micro-batch                                               of the units in use

(16/d = fp32 master 4/d + fp32 grad 4/d + Adam m, v 8/d.) Megatron's
distributed optimizer (zero1, bf16+fp32) is 6 + 12/d: it keeps no separate
sharded grad; FSDP2's zero1 holds 4/d more. With pp > 1 torch.distributed.
pipelining drives FSDP2 itself (no sync and no reshard until the last
micro-batch, = zero1); for zero2/zero3 the stage is wrapped so that FSDP2's own
per-backward hooks reduce-scatter every micro-batch, zero2 without resharding
until the step's last backward (pipeline.py).
"""
from types import SimpleNamespace

import torch
import torch.distributed as dist

SHARDS = ("optimizer", "grads", "params")        # what a sharding kind shards (layout.LAYOUT["shards"])


def _groups(mesh):
    groups = {"dp_cp": mesh.dp_cp_group, "stage": mesh.stage_group}
    groups.update({f"edp{s}": ex.edp_group for s, ex in mesh.experts.items()})
    return groups


def param_meta(stages):
    """Per parameter (in named_parameters order): full_name, shape, slices, reduce
    group, init seed, kv replication. Taken before sharding: FSDP2 replaces the Parameters."""
    metas = []
    for st in stages:
        metas.append({fqn: SimpleNamespace(full_name=p.full_name, full_shape=p.full_shape, slices=p.slices,
                                           reduce=p.reduce, seed=p.seed, init_rows=p.init_rows,
                                           kv_replicated=getattr(p, "kv_replicated", False),
                                           full_rows=getattr(p, "full_rows", 0),
                                           tp_partial=getattr(p, "tp_partial", False))
                      for fqn, p in st.named_parameters()})
    return metas


def params_with_meta(stages, metas):
    return [(p, meta[fqn]) for st, meta in zip(stages, metas) for fqn, p in st.named_parameters()]


def local(t):
    """The tensor this rank holds (the local shard of a DTensor)."""
    return t.to_local() if hasattr(t, "to_local") else t


def full(t):
    """The whole (unsharded over dp) tensor; collective over the DTensor's mesh."""
    return t.full_tensor() if hasattr(t, "full_tensor") else t


def _singletons(world):
    """One single-rank group per rank (collective: all ranks create all)."""
    return [dist.new_group([r]) for r in range(world)]


def dp_meshes(mesh, device_type: str, shards: dict):
    """{reduce kind: DeviceMesh} for FSDP2: 1-D (shard) or, when nothing is sharded (`none`), 2-D
    (replicate, shard=1)."""
    from torch.distributed.device_mesh import DeviceMesh

    out, single = {}, None
    for kind, group in _groups(mesh).items():
        if shards["optimizer"]:
            out[kind] = DeviceMesh.from_group(group, device_type, mesh_dim_names=(kind,))
            continue
        single = single or _singletons(dist.get_world_size())
        ranks = dist.get_process_group_ranks(group)
        out[kind] = DeviceMesh.from_group([group, single[dist.get_rank()]], device_type,
                                          mesh=torch.tensor(ranks).view(-1, 1),
                                          mesh_dim_names=(kind, "shard"))
    return out


def _placement(dm):
    """Shard dim 0, unless it has fewer rows than the mesh has ranks (stacked
    experts [El, F, H] with El < edp): then dim 1, as torchtitan does, so
    no rank gets a whole expert and the all-gather is not padded edp-fold."""
    from torch.distributed.tensor import Shard
    n = dm.size(dm.ndim - 1)

    def fn(p):
        return Shard(1) if p.dim() > 1 and p.shape[0] < n else Shard(0)
    return fn


def shard_fsdp2(stages, mesh, device_type, shards: dict, dtype=torch.bfloat16):
    """FSDP2 on every unit of `stages`; `shards` (layout.LAYOUT["shards"]) says what the plan's
    sharding kind shards: the optimizer state, the gradients, the parameters."""
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    if set(shards) != set(SHARDS):
        raise ValueError(f"layout.shards: expected the keys {', '.join(SHARDS)}, got {sorted(shards)}")
    mp = MixedPrecisionPolicy(param_dtype=None if dtype == torch.float32 else dtype, reduce_dtype=torch.float32)
    meshes = dp_meshes(mesh, device_type, shards)
    for st in stages:
        for module, kind in st.fsdp_units():      # innermost first, the stage model last
            fully_shard(module, mesh=meshes[kind], mp_policy=mp, reshard_after_forward=shards["params"],
                        shard_placement_fn=_placement(meshes[kind]))
            module.set_gradient_divide_factor(1.0)        # sum: the loss is divided by all tokens
            module.set_force_sum_reduction_for_comms(True)  # plain SUM (gloo has no PREMUL_SUM)


def microbatch_knobs(stages, shards: dict, i: int, nmb: int):
    """FSDP2 state for micro-batch i of nmb (pp == 1 loop; see the table above)."""
    last = i == nmb - 1
    for st in stages:
        if not hasattr(st, "set_requires_gradient_sync"):
            continue
        st.set_requires_gradient_sync(last or shards["grads"])     # zero2 / zero3: reduce-scatter each
        st.set_reshard_after_backward(last or shards["params"])    # zero3: gathered again in the next forward
        st.set_is_last_backward(last)


def allreduce_gradients(pm, mesh):
    """--dp allreduce: sum every gradient over its group, one flat buffer per group."""
    for p, _ in pm:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    for kind, group in _groups(mesh).items():
        grads = [p.grad for p, m in pm if m.reduce == kind]
        if grads and dist.get_world_size(group) > 1:
            flat = torch.cat([g.reshape(-1) for g in grads])
            dist.all_reduce(flat, group=group)
            for g, new in zip(grads, flat.split([g.numel() for g in grads])):
                g.copy_(new.view_as(g))


def finish_gradients(pm, mesh, tied_embeddings: bool):
    """The sums no data-parallel engine knows about (both engines)."""
    partial = [local(p.grad) for p, m in pm if m.tp_partial and p.grad is not None] if mesh.tp_size > 1 else []
    if partial:     # sequence parallel: one flat all-reduce over tp of the norms', embedding's, head's grads
        flat = torch.cat([g.reshape(-1) for g in partial])
        dist.all_reduce(flat, group=mesh.tp_group)
        for g, new in zip(partial, flat.split([g.numel() for g in partial])):
            g.copy_(new.view_as(g))
    for p, m in pm:
        if m.kv_replicated:
            # tp ranks sharing a kv head hold partial grads: sum them through a
            # buffer of all kv heads in which each rank fills its own head's slot
            (_, start, n), = m.slices
            g = local(p.grad)
            slot, slots = start // n, m.full_rows // n
            buf = g.new_zeros((slots,) + tuple(g.shape))
            buf[slot] = g
            dist.all_reduce(buf, group=mesh.tp_group)
            g.copy_(buf[slot])
    if tied_embeddings and mesh.pp_size > 1:
        for p, m in pm:              # first stage's embedding + last stage's head copy
            if m.full_name == "embed":
                dist.all_reduce(local(p.grad), group=mesh.embed_group)


def _holders(p, m, stage_size: int, tied_pp: bool) -> int:
    """How many ranks of the job hold the same elements as this rank's shard of p."""
    shard = 1
    if hasattr(p, "placements"):
        shard = 1
        for size, pl in zip(p.device_mesh.mesh.shape, p.placements):
            shard *= size if pl.is_shard() else 1
    slices = 1
    for dim, _, n in m.slices:
        slices *= m.full_shape[dim] // n
    copies = 2 if tied_pp and m.full_name == "embed" else 1
    return stage_size // (shard * slices) * copies


def global_grad_norm(pm, mesh, tied_embeddings: bool):
    """L2 norm of the whole model's gradient over every mesh (dense dp x cp x tp,
    expert edp x ep x etp, pp stages): each rank adds its shard's squares once
    per distinct element (replicas divided out), one all-reduce over the world."""
    stage_size = mesh.tp_size * mesh.cp_size * mesh.dp_size
    tied_pp = tied_embeddings and mesh.pp_size > 1
    total = torch.zeros((), dtype=torch.float64, device=mesh.device)
    for p, m in pm:
        if p.grad is not None:
            g = local(p.grad).double()
            total += g.pow(2).sum() / _holders(p, m, stage_size, tied_pp)
    dist.all_reduce(total)
    return total.sqrt()


@torch.no_grad()
def clip_gradients(pm, norm, max_norm: float):
    """Scale every gradient by min(1, max_norm / norm) (the same factor on all ranks)."""
    scale = (max_norm / (norm + 1e-6)).clamp(max=1.0)
    for p, _ in pm:
        if p.grad is not None:
            local(p.grad).mul_(scale.to(local(p.grad).dtype))

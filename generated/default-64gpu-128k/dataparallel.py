"""Data parallelism: every gradient summed over the ranks that hold the same shard.

  dense parameters                   over dp x cp          (mesh.dp_cp_group)
  routed experts                     over edp of the stage (mesh.experts[s].edp_group)
  router, shared experts, qk-norm    over the stage        (each tp rank routed other rows)
  kv heads kept by several tp ranks  also over those tp ranks
  tied embedding with pp > 1         also first + last stage (mesh.embed_group)

Two engines (train.py --dp):
  fsdp2     torch's fully_shard on each unit with a 1-D DeviceMesh of its group
            (parameters, gradients and AdamW state sharded; reduce-scatter sums);
  allreduce one flat all-reduce per group, parameters replicated.
"""
from types import SimpleNamespace

import torch
import torch.distributed as dist


def _groups(mesh):
    groups = {"dp_cp": mesh.dp_cp_group, "stage": mesh.stage_group}
    groups.update({f"edp{s}": ex.edp_group for s, ex in mesh.experts.items()})
    return groups


def param_meta(stages):
    """Per parameter (in named_parameters order): full_name, slices, reduce group,
    kv replication. Taken before sharding: FSDP2 replaces the Parameter objects."""
    metas = []
    for st in stages:
        metas.append({fqn: SimpleNamespace(full_name=p.full_name, slices=p.slices, reduce=p.reduce,
                                           kv_replicated=getattr(p, "kv_replicated", False),
                                           full_rows=getattr(p, "full_rows", 0))
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


def shard_fsdp2(stages, mesh, device_type):
    from torch.distributed.device_mesh import DeviceMesh
    from torch.distributed.fsdp import fully_shard

    meshes = {kind: DeviceMesh.from_group(group, device_type, mesh_dim_names=(kind,))
              for kind, group in _groups(mesh).items()}
    for st in stages:
        for module, kind in st.fsdp_units():      # innermost first, the stage model last
            fully_shard(module, mesh=meshes[kind])
            module.set_gradient_divide_factor(1.0)        # sum: the loss is divided by all tokens
            module.set_force_sum_reduction_for_comms(True)  # plain SUM (gloo has no PREMUL_SUM)


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

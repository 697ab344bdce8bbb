"""Meta-device build, then sharded materialisation (every rank keeps only its shard).

The model is built on torch.device("meta") (no storage), sharded by FSDP2,
then `to_empty` allocates each rank's shard and `materialize` fills it: per
parameter, the full tensor's deterministic value (blocks.init_tensor, seeded by
the parameter's name; stacked experts one expert at a time, only this rank's)
is made on the host, narrowed to the tp/ep slice this rank holds and to the
FSDP2 shard of that slice (dim 0, or dim 1 for experts), and copied in. Host RAM: one parameter's
slice at a time, never the model.
"""
import torch

from blocks import init_tensor


def local_region(p):
    """[(offset, length)] per dim of this rank's FSDP2 shard of p's (tp/ep-sliced) tensor."""
    if not hasattr(p, "to_local"):
        return [(0, n) for n in p.shape]
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset
    shape, offset = compute_local_shape_and_global_offset(p.shape, p.device_mesh, p.placements)
    return list(zip(offset, shape))


def shard_value(meta, p):
    """The initial value of this rank's shard of parameter p (host, fp32)."""
    full = init_tensor(meta.full_name, meta.full_shape, meta.seed, rows=meta.init_rows)
    for dim, start, n in meta.slices:
        if meta.init_rows is not None and dim == 0:
            continue                       # init_tensor already built only these experts
        full = full.narrow(dim, start, n)
    for dim, (start, n) in enumerate(local_region(p)):
        full = full.narrow(dim, start, n)
    return full


@torch.no_grad()
def materialize(stages, metas, device):
    """to_empty on `device`, then every parameter's shard from its seed; buffers from init_buffers()."""
    for st, meta in zip(stages, metas):
        st.to_empty(device=device)
        for fqn, p in st.named_parameters():
            local = p.to_local() if hasattr(p, "to_local") else p
            if local.numel():
                local.copy_(shard_value(meta[fqn], p).to(local.dtype))
        st.init_buffers()

"""This rank's stages, built the same way by a training run (train.py) and a dry run (dryrun.py).

Both import this module; neither imports the other's internals (train.py hands --dry-run to
dryrun.main, dryrun.py does not import train.py).
"""
import torch

import layout
from cp.layout import local_token_index
from dataparallel import param_meta, shard_fsdp2
from model import StageModel

DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32}


def build(cfg, train, mesh, args, dtype):
    """This rank's stages: built on meta, sharded (FSDP2), then materialised shard by shard.
    Returns (stages, their parameters' metadata, this rank's global token positions [S/cp])."""
    positions = local_token_index(train["seq"], mesh.cp_ring_rank, mesh.cp_ring_size,
                                  mesh.cp_uly_rank, mesh.cp_uly_size)   # [S/cp] global positions
    n_stages = len(layout.STAGES)
    with torch.device("meta"):
        stages = [StageModel(cfg, layout.STAGES[s], mesh, positions, args.seed, s == 0, s == n_stages - 1)
                  for s in mesh.stage_indices]
    metas = param_meta(stages)
    if args.dp == "fsdp2":
        shard_fsdp2(stages, mesh, mesh.device.type, layout.LAYOUT["shards"], dtype)
    return stages, metas, positions

"""Data-parallel sharding's terms, written once in sympy for `planner.costmodel.formulas` (which
re-exports them): bytes per parameter of weights, gradients and optimizer state over Z shard ranks,
the gradient / parameter traffic per step and per micro-batch, and the optimizer step's HBM time.
Symbols: `planner.costmodel.formulas`' docstring (z_1..z_3, mu, b_o, b_g, b_r, W_hbm)."""
from __future__ import annotations

from planner.costmodel.symbols import W_hbm, bg, bo, br, mu, z1, z2, z3

# bytes per parameter over Z shard ranks (ZeRO sec. 5; K = 12 of fp32 master + Adam m, v):
#   weights  Megatron (mu=0): bf16, sharded only under zero3;  FSDP2 (mu=1): the fp32 param
#            (replicated under none, sharded from zero1) plus the unsharded bf16 copy that
#            none / zero1 / zero2 keep from forward to backward (zero3 re-gathers it per
#            layer: the sharding buffers hold it)
#   grads    b_g bytes, sharded from zero2
#   optimizer b_o bytes (planner.specs.kinds.OPTIMIZER_BYTES: fp32 master + m + v 12; FSDP2's m + v 8,
#            its master being the fp32 param, mu=1; pure bf16 m + v 4, + a Kahan buffer 6), sharded from zero1
bytes_w = lambda Z: (1 - mu) * (2 * (1 - z3) + 2 * z3 / Z) + mu * ((1 - z1) * 4 + z1 * 4 / Z + 2 * (1 - z3))
bytes_g = lambda Z: bg * (1 - z2) + bg * z2 / Z
bytes_o = lambda Z: bo * ((1 - z1) + z1 / Z)
# traffic per parameter: per step (overlapped with the last backward): DDP all-reduces the
# grads (2 b_r), zero1 reduce-scatters grads and all-gathers params (b_r + 2), zero2
# all-gathers params once (2); per micro-batch: zero2/zero3 reduce-scatter grads (b_r),
# zero3 gathers params in forward and again in backward (2 + 2)
step_bytes = (1 - z1) * 2 * br + z1 * (1 - z2) * (br + 2) + z2 * (1 - z3) * 2
mb_bytes = z2 * br + z3 * 4
X_step = lambda Z, W: (Z - 1) / Z * step_bytes / W
X_mb = lambda Z, W: (Z - 1) / Z * mb_bytes / W
# optimizer step (Adam over this rank's shard), HBM-bound: read the grad, read + write the optimizer
# state and the fp32 param where it is the master (2 b_o + 8 mu: 24 for both fp32 kinds), write the
# bf16 param (2), per element (pure bf16: 2 + 8 + 2; the bf16 param's read, 2 more, is left out)
T_opt = lambda Z: (bg + 2 * bo + 8 * mu + 2) * ((1 - z1) + z1 / Z) / W_hbm

"""--check under an FP8 precision: every FP8 GEMM of the run against the check's own
quantise-then-matmul, and which linears ran in FP8.

An FP8 run differs from the fp32 reference by its quantisation, and no bound the check can
derive carries that through a network (one flip of an fp8 rounding changes a product by
2^-4 of itself). So under FP8 the loss, the gradients and the parameters are not compared
with the reference (the plan, the initial weights and the recompute still are; the
reference's loss is printed beside the run's). Instead every FP8 GEMM a rank ran in the
step (fp8.RECORD: the forward, input-gradient and weight-gradient GEMM of every FP8 linear,
recomputed forwards included) is computed again here from its high-precision operands:

  * each operand's scale is that of the whole tensor: the check gathers the operand's pieces
    over the call's group (all_gather, its own collective, not the run's amax all-reduce) and
    takes the largest |value| of all of them; finfo(fp8).max / amax in float64, kept in
    float32 (torchao's amax_to_scale);
  * each operand is cast to its format (e4m3: inputs and weights; e5m2: output gradients),
    dequantised, and the product taken in float32;
  * the run's output must be within 2 (K + 2) u (|a| @ |b|) of it (u = 2^-24: fp32
    accumulation of K products and the two scale multiplications, a factor 2 for rounding the
    inverse scales; tests/test_bundle_fp8.py checks the same bound against an outside format
    table);

and coverage: every linear weight this rank holds that the precision runs in FP8 (attention
q, k, v, output; the dense MLP; the routed and shared experts) ran its three GEMMs in FP8,
and no other weight did (the router, the embedding and the head stay in the model's dtype).
"""
import torch
import torch.distributed as dist

import fp8

U32 = 2.0 ** -24
# the linear weights an FP8 precision runs in FP8 (planner/specs/precision.py), by name ending
FP8_WEIGHTS = ("attn.wq", "attn.wk", "attn.wv", "attn.wo", "mlp.w1", "mlp.w2", "mlp.w3",
               "moe.w1", "moe.w2", "moe.w3", "moe.shared_w1", "moe.shared_w2", "moe.shared_w3")
# the formats of each GEMM's operands (a, b): the recipe's, not the run's
FORMATS = {"fprop": (torch.float8_e4m3fn, torch.float8_e4m3fn), "dgrad": (torch.float8_e5m2, torch.float8_e4m3fn),
           "wgrad": (torch.float8_e5m2, torch.float8_e4m3fn)}
KINDS = tuple(FORMATS)


def whole_amax(t, group):
    """max |t| over the pieces every rank of `group` holds (all-gathered here)."""
    if group is None or dist.get_world_size(group) == 1:
        return t.abs().max().item()
    parts = [torch.empty_like(t) for _ in range(dist.get_world_size(group))]
    dist.all_gather(parts, t.contiguous(), group=group)
    return max(p.abs().max().item() for p in parts)


def dequantised(t, dtype, group):
    """t cast to `dtype` with the whole tensor's per-tensor scale, back in float32."""
    fmax = torch.finfo(dtype).max
    scale = torch.tensor(fmax / max(whole_amax(t, group), 1e-12), dtype=torch.float64).float()
    return (t.float() * scale).clamp(-fmax, fmax).to(dtype).float() / scale


class Fp8Calls:
    """Starts recording the run's FP8 GEMMs; `verify` checks a step's and clears them."""

    def __init__(self):
        fp8.RECORD = []

    @staticmethod
    def verify(checker, step, names):
        """Every recorded call (collective over each call's group, in the run's order), then
        coverage against `names`, the full names of the weights this rank holds."""
        seen = {k: set() for k in KINDS}
        for c in fp8.RECORD:
            seen[c.kind].add(c.tag)
            if c.a.numel() == 0 or c.b.numel() == 0:
                continue
            fa, fb = FORMATS[c.kind]
            a, b = dequantised(c.a, fa, c.group), dequantised(c.b, fb, c.group)
            want, scale = a @ b, a.abs() @ b.abs()
            err = (c.out.float() - want).abs()
            checker.checked += 1
            checker.worst = max(checker.worst, err.max().item())
            if not (err <= 2 * (a.shape[1] + 2) * U32 * scale).all():
                checker._fail(f"FP8 {c.kind} GEMM of {c.tag} in step {step} differs from the quantise-then-"
                              f"matmul reference by {err.max().item():.3e}")
        fp8.RECORD.clear()
        want = {n for n in names if n.endswith(FP8_WEIGHTS)}
        for kind in KINDS:
            checker.checked += 1
            missing, extra = sorted(want - seen[kind]), sorted(seen[kind] - want)
            if missing or extra:
                checker._fail(f"FP8 {kind} in step {step}: not run in FP8 {missing[:3]}, run in FP8 "
                              f"but should not {extra[:3]}")

"""The MoE block of one layer on one rank: route the local rows, dispatch over
the EP group, run the local experts (SwiGLU), combine, add the shared experts.

With tp > 1 the tp ranks hold the same rows; each routes 1/tp of them (rows
scattered before, gathered after), so every token is routed exactly once.
Gradients: routed experts reduce over edp; router and shared experts over the
whole stage (dp x cp x tp), since each tp rank saw different rows.
"""
import contextlib

import torch
import torch.nn as nn

from blocks import capacity_keep, ffn, init_tensor, route
from comms import gather_rows, scatter_rows
from moe.dispatch import dispatch_combine

_COUNTING = [True]


@contextlib.contextmanager
def counting(on: bool):
    """Count routed tokens (for the bias update) only in the first forward,
    not when activation recompute runs the layer again."""
    old, _COUNTING[0] = _COUNTING[0], on
    try:
        yield
    finally:
        _COUNTING[0] = old


class MoE(nn.Module):
    def __init__(self, cfg, prefix: str, mesh, stage: int, seed: int):
        super().__init__()
        self.cfg, self.mesh = cfg, mesh
        self.ex = ex = mesh.experts[stage]
        E, Fe, Fs, H = cfg["experts"], cfg["expert_ffn"], cfg["shared_ffn"], cfg["hidden"]
        El = E // ex.ep_size
        lo = ex.ep_rank * El

        def param(name, shape, reduce, experts=None, ffn_dim=None):
            # experts=(first, n): this rank's local experts of a stacked [E, ., .] tensor;
            # ffn_dim: the dim holding the expert FFN width, split over etp
            full = init_tensor(prefix + name, shape, seed, rows=experts)
            slices = [] if experts is None else [(0, experts[0], experts[1])]
            if ffn_dim is not None and ex.etp_size > 1:
                f = shape[ffn_dim] // ex.etp_size
                full = full.narrow(ffn_dim, ex.etp_rank * f, f).clone()
                slices.append((ffn_dim, ex.etp_rank * f, f))
            p = nn.Parameter(full)
            p.full_name, p.reduce, p.slices = prefix + name, reduce, slices
            return p

        self.router = param("router", (E, H), "stage")
        edp = f"edp{stage}"   # expert grads reduce over this stage's edp group
        self.w1 = param("w1", (E, Fe, H), edp, (lo, El), 1)   # [El, Fe/etp, H] local experts
        self.w3 = param("w3", (E, Fe, H), edp, (lo, El), 1)
        self.w2 = param("w2", (E, H, Fe), edp, (lo, El), 2)   # [El, H, Fe/etp]
        if Fs:
            self.shared_w1 = param("shared_w1", (Fs, H), "stage")
            self.shared_w3 = param("shared_w3", (Fs, H), "stage")
            self.shared_w2 = param("shared_w2", (H, Fs), "stage")
        self.register_buffer("bias", torch.zeros(E))     # aux-loss-free routing bias
        self.register_buffer("counts", torch.zeros(E))   # tokens per expert this step (local)

    def _experts(self, x, rows_per_expert):
        # x: [m, H] grouped by local expert
        outs = [ffn(xe, self.w1[e], self.w3[e], self.w2[e], True) if xe.shape[0] else xe
                for e, xe in enumerate(torch.split(x, rows_per_expert))]
        return torch.cat(outs) if outs else x

    def forward(self, x):
        # x: [B, s, H], the same on every tp rank
        c, m = self.cfg, self.mesh
        B, s, H = x.shape
        t = scatter_rows(x.reshape(B * s, H), m.tp_group, m.tp_rank, m.tp_size)   # [n, H]
        w, sel = route(t, self.router, self.bias, c["top_k"], c["router_score"])
        if _COUNTING[0]:
            self.counts += torch.bincount(sel.flatten(), minlength=c["experts"])
        keep = capacity_keep(sel, c["experts"], c["capacity_factor"])
        if keep is not None:                                # drop what overflows
            w, sel = w * keep, torch.where(keep, sel, -1)
        y = dispatch_combine(t, w, sel, self._experts, c["experts"], self.ex)
        if c["shared_ffn"]:
            y = y + ffn(t, self.shared_w1, self.shared_w3, self.shared_w2, True)
        y = gather_rows(y, m.tp_group, m.tp_rank, m.tp_size)                     # [B*s, H]
        return y.view(B, s, H)

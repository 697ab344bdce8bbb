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


class Router(nn.Module):
    """Scores [E, H] -> top-k experts per row. Reduces over the stage (dp x cp x tp)."""

    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def forward(self, t, bias, top_k, score):
        return route(t, self.weight, bias, top_k, score)


class LocalExperts(nn.Module):
    """This rank's experts (SwiGLU), each possibly 1/etp of its FFN. Reduces over edp."""

    def __init__(self, w1, w3, w2):
        super().__init__()
        self.w1, self.w3, self.w2 = w1, w3, w2      # [El, Fe/etp, H], [El, Fe/etp, H], [El, H, Fe/etp]

    def forward(self, x, rows_per_expert):
        # x: [m, H] grouped by local expert. Every expert runs, even on 0 rows,
        # so every rank has a gradient (possibly zero) for every expert.
        outs = [ffn(xe, self.w1[e], self.w3[e], self.w2[e], True)
                for e, xe in enumerate(torch.split(x, rows_per_expert))]
        return torch.cat(outs)


class SharedExperts(nn.Module):
    """Shared experts (one SwiGLU of width shared_experts * shared_ffn). Reduces over the stage."""

    def __init__(self, w1, w3, w2):
        super().__init__()
        self.w1, self.w3, self.w2 = w1, w3, w2

    def forward(self, t):
        return ffn(t, self.w1, self.w3, self.w2, True)


class MoE(nn.Module):
    def __init__(self, cfg, prefix: str, mesh, stage: int, seed: int):
        super().__init__()
        self.cfg, self.mesh, self.stage, self.prefix = cfg, mesh, stage, prefix
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

        self.router = Router(param("router", (E, H), "stage"))
        edp = f"edp{stage}"   # expert grads reduce over this stage's edp group
        self.experts = LocalExperts(param("w1", (E, Fe, H), edp, (lo, El), 1),
                                    param("w3", (E, Fe, H), edp, (lo, El), 1),
                                    param("w2", (E, H, Fe), edp, (lo, El), 2))
        self.shared = None
        if Fs:
            self.shared = SharedExperts(param("shared_w1", (Fs, H), "stage"),
                                        param("shared_w3", (Fs, H), "stage"),
                                        param("shared_w2", (H, Fs), "stage"))
        self.register_buffer("bias", torch.zeros(E))     # aux-loss-free routing bias
        self.register_buffer("counts", torch.zeros(E))   # tokens per expert this step (local)

    def forward(self, x):
        # x: [B, s, H], the same on every tp rank
        c, m = self.cfg, self.mesh
        B, s, H = x.shape
        t = scatter_rows(x.reshape(B * s, H), m.tp_group, m.tp_rank, m.tp_size)   # [n, H]
        w, sel = self.router(t, self.bias, c["top_k"], c["router_score"])        # [n, k]
        if _COUNTING[0]:
            self.counts += torch.bincount(sel.flatten(), minlength=c["experts"])
        keep = capacity_keep(sel, c["experts"], c["capacity_factor"])
        if keep is not None:                                # drop what overflows
            w, sel = w * keep, torch.where(keep, sel, -1)
        y = dispatch_combine(t, w, sel, self.experts, c["experts"], self.ex)
        if self.shared is not None:
            y = y + self.shared(t)
        y = gather_rows(y, m.tp_group, m.tp_rank, m.tp_size)                     # [B*s, H]
        return y.view(B, s, H)

"""The MoE block of one layer on one rank: route the local rows, dispatch over
the EP group, run the local experts (grouped GEMM), combine, add the shared experts.

With tp > 1 (sequence parallel) each tp rank holds 1/tp of the rows and routes
exactly those, so every token is routed once.
Gradients: routed experts reduce over edp; router and shared experts over the
whole stage (dp x cp x tp), since each tp rank saw different rows.

Balancing as the model's router needs it:
  sigmoid router with bias (DeepSeek-V3): auxiliary-loss-free bias, updated
      after the step from the global token counts (train.update_biases);
  softmax router (Mixtral, Switch): auxiliary load-balancing loss
      aux_coef * E * sum_e f_e * P_e per routing group (the rows one rank routes
      in one micro-batch; f_e = share of its top-k assignments on expert e,
      P_e = mean router probability), averaged over the step's groups
      (MoE.groups_per_step); its gradient enters through AuxLoss (Megatron's
      MoEAuxLossAutoScaler), so pipeline schedules need not see it.
"""
import torch
import torch.nn as nn

import fused
from blocks import capacity_keep, route
from comms import norm_column_parallel
from fp8 import PLAIN, linear
from moe.dispatch import dispatch_combine
from moe.experts import local_experts
from recompute import counting_now, maybe

class AuxLoss(torch.autograd.Function):
    """Forward: y unchanged. Backward: also d(aux)/d(aux) = 1, so the aux term
    joins the loss without passing through the schedule."""

    @staticmethod
    def forward(ctx, y, aux):
        ctx.save_for_backward(aux)
        return y

    @staticmethod
    def backward(ctx, grad):
        aux, = ctx.saved_tensors
        return grad, torch.ones_like(aux)


def aux_loss(scores, sel, experts: int):
    """Switch/Mixtral balancing loss of one routing group: E * sum_e f_e * P_e.
    scores: [n, E] router probabilities; sel: [n, k] chosen experts."""
    n, k = sel.shape
    f = torch.zeros(experts, device=sel.device, dtype=torch.float32).scatter_add_(
        0, sel.flatten(), torch.ones(n * k, device=sel.device)) / (n * k)
    return experts * (f.detach() * scores.float().mean(0)).sum()


class Router(nn.Module):
    """Scores [E, H] -> top-k experts per row. Reduces over the stage (dp x cp x tp)."""

    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def forward(self, x, bias, top_k, score, norm_fn=None, norm_w=None):
        """x [n, H] -> (weights [n, k], experts [n, k], scores [n, E]), and first the routed
        rows t [n, H] when norm_w is given: x is then the norm's input and the norm is fused
        with the router GEMM, which keeps only x (layernorm recompute,
        comms.norm_column_parallel). Called as the module, so that FSDP2 has gathered the
        weight. Every output is a new tensor, never x or a view of it: FSDP2 hooks a module's
        outputs for its pre-backward all-gather, and a view's hook is lost to a later
        in-place op on it (torch's FSDPState warns of this)."""
        if norm_w is None:
            return route(x, self.weight, bias, top_k, score, with_scores=True)
        t, logits = norm_column_parallel(x, norm_w, norm_fn, (self.weight,), None, 1, with_y=True, gm=PLAIN)
        return (t,) + route(t, self.weight, bias, top_k, score, with_scores=True, logits=logits)


class LocalExperts(nn.Module):
    """This rank's experts (SwiGLU), each possibly 1/etp of its FFN. Reduces over edp."""

    def __init__(self, w1, w3, w2, recompute_act: bool, group, prefix):
        super().__init__()
        self.w1, self.w3, self.w2 = w1, w3, w2      # [El, Fe/etp, H], [El, Fe/etp, H], [El, H, Fe/etp]
        self.recompute_act = recompute_act
        self.group, self.tags = group, tuple(prefix + n for n in ("w1", "w3", "w2"))   # FP8: etp amax, names

    def forward(self, x, rows_per_expert):
        return local_experts(x, rows_per_expert, self.w1, self.w3, self.w2, self.recompute_act,
                             self.group, self.tags)


class SharedExperts(nn.Module):
    """Shared experts (one SwiGLU of width shared_experts * shared_ffn). Reduces over the stage."""

    def __init__(self, w1, w3, w2, prefix):
        super().__init__()
        self.w1, self.w3, self.w2 = w1, w3, w2
        self.tags = tuple(prefix + n for n in ("shared_w1", "shared_w3", "shared_w2"))

    def forward(self, t):
        # whole on every rank of the stage (no tp split): the amax is the rank's own
        w1, w3, w2 = self.tags
        return linear(fused.swiglu(linear(t, self.w1, None, w1), linear(t, self.w3, None, w3)), self.w2, None, w2)


class MoE(nn.Module):
    groups_per_step = 1     # routing groups of a step (train.py sets dp * cp * tp * micro-batches)
    aux_coef = 0.0          # softmax routers: the aux-loss coefficient (train.py --aux-loss-coef)

    def __init__(self, cfg, prefix: str, mesh, stage: int, seed: int, act_recompute=False, shared_recompute=False):
        super().__init__()
        self.cfg, self.mesh, self.stage, self.prefix = cfg, mesh, stage, prefix
        self.ex = ex = mesh.experts[stage]
        self.shared_recompute = shared_recompute
        E, Fe, Fs, H = cfg["experts"], cfg["expert_ffn"], cfg["shared_ffn"], cfg["hidden"]
        El = E // ex.ep_size
        lo = ex.ep_rank * El

        def param(name, shape, reduce, experts=None, ffn_dim=None):
            # experts=(first, n): this rank's local experts of a stacked [E, ., .] tensor;
            # ffn_dim: the dim holding the expert FFN width, split over etp. Empty (meta): see init.py
            local, slices = list(shape), []
            if experts is not None:
                local[0], slices = experts[1], [(0, experts[0], experts[1])]
            if ffn_dim is not None and ex.etp_size > 1:
                f = shape[ffn_dim] // ex.etp_size
                local[ffn_dim] = f
                slices.append((ffn_dim, ex.etp_rank * f, f))
            p = nn.Parameter(torch.empty(local))
            p.full_name, p.full_shape, p.reduce, p.slices = prefix + name, tuple(shape), reduce, slices
            p.seed, p.init_rows = seed, experts
            return p

        self.router = Router(param("router", (E, H), "stage"))
        edp = f"edp{stage}"   # expert grads reduce over this stage's edp group
        self.experts = LocalExperts(param("w1", (E, Fe, H), edp, (lo, El), 1),
                                    param("w3", (E, Fe, H), edp, (lo, El), 1),
                                    param("w2", (E, H, Fe), edp, (lo, El), 2), act_recompute,
                                    ex.etp_group if ex.etp_size > 1 else None, prefix)
        self.shared = None
        if Fs:
            self.shared = SharedExperts(param("shared_w1", (Fs, H), "stage"),
                                        param("shared_w3", (Fs, H), "stage"),
                                        param("shared_w2", (H, Fs), "stage"), prefix)
        self.register_buffer("bias", torch.zeros(E))     # aux-loss-free routing bias
        self.register_buffer("counts", torch.zeros(E))   # tokens per expert this step (local)

    def forward(self, x, norm_fn=None, norm_w=None):
        # x: [B, s/tp, H] this tp rank's rows, normed unless norm_w is given: then the
        # norm is fused with the router GEMM (layernorm recompute: comms.norm_column_parallel)
        c = self.cfg
        B, s, H = x.shape
        t = x.reshape(B * s, H)
        if norm_w is None:
            w, sel, scores = self.router(t, self.bias, c["top_k"], c["router_score"])   # [n, k], [n, E]
        else:
            t, w, sel, scores = self.router(t, self.bias, c["top_k"], c["router_score"], norm_fn, norm_w)
        if counting_now():
            self.counts += torch.zeros_like(self.counts).scatter_add_(
                0, sel.flatten(), torch.ones(sel.numel(), device=sel.device, dtype=self.counts.dtype))
        aux = None
        if self.aux_coef and c["router_score"] == "softmax" and torch.is_grad_enabled():
            aux = self.aux_coef * aux_loss(scores, sel, c["experts"]) / self.groups_per_step
        keep = capacity_keep(sel, c["experts"], c["capacity_factor"])
        if keep is not None:                                # drop what overflows
            w, sel = w * keep, torch.where(keep, sel, -1)
        y = dispatch_combine(t, w, sel, self.experts, c["experts"], self.ex)
        if self.shared is not None:
            y = y + maybe(self.shared_recompute, self.shared, t)
        if aux is not None:
            y = AuxLoss.apply(y, aux)
        return y.view(B, s, H)

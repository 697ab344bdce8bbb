"""The layers of one pipeline stage on one rank, with tp/cp/ep parallelism.

Parameter names match reference.py (e.g. "layers.3.attn.wq"); every parameter
records `full_name`, the `slices` it holds of the full tensor, and the group
its gradient reduces over (`reduce`: "dp_cp", "stage" or "edp<stage>"), read
before FSDP2 replaces the Parameter objects (dataparallel.param_meta).
Tensor parallel: Megatron column/row pairs written by hand (comms.py).
"""
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from blocks import apply_rope, ffn, init_tensor, norm, rope_tables
from comms import copy_to_group, reduce_from_group
from cp.attention import context_attention
from moe.layer import MoE, counting


def _param(name, shape, seed, reduce="dp_cp", dim=None, rank=0, size=1):
    """This rank's shard of parameter `name` (1/size of dim `dim`), as a Parameter."""
    full = init_tensor(name, shape, seed)
    if dim is None:
        p, slices = nn.Parameter(full), []
    else:
        n = shape[dim] // size
        p, slices = nn.Parameter(full.narrow(dim, rank * n, n).clone()), [(dim, rank * n, n)]
    p.full_name, p.slices, p.reduce = name, slices, reduce
    return p


class QKNorm(nn.Module):
    """RMSNorm of queries and keys per head (weights [d], shared by all heads)."""

    def __init__(self, q_norm, k_norm):
        super().__init__()
        self.q_norm, self.k_norm = q_norm, k_norm

    def forward(self, q, k):
        return norm(q, self.q_norm, "rmsnorm"), norm(k, self.k_norm, "rmsnorm")


class Attention(nn.Module):
    def __init__(self, cfg, prefix, mesh, seed, selective: bool):
        super().__init__()
        self.cfg, self.mesh, self.selective = cfg, mesh, selective
        H, d, T, r = cfg["hidden"], cfg["head_dim"], mesh.tp_size, mesh.tp_rank
        h, hk = cfg["heads"], cfg["kv_heads"]
        self.h, self.d = h // T, d                              # local query heads
        self.wq = _param(prefix + "wq", (h * d, H), seed, dim=0, rank=r, size=T)
        if hk >= T:   # kv heads split over tp
            self.hk = hk // T
            self.wk = _param(prefix + "wk", (hk * d, H), seed, dim=0, rank=r, size=T)
            self.wv = _param(prefix + "wv", (hk * d, H), seed, dim=0, rank=r, size=T)
        else:         # fewer kv heads than tp ranks: each rank keeps the one its queries use
            self.hk, rep = 1, T // hk
            self.wk = _param(prefix + "wk", (hk * d, H), seed, dim=0, rank=r // rep, size=hk)
            self.wv = _param(prefix + "wv", (hk * d, H), seed, dim=0, rank=r // rep, size=hk)
            for p in (self.wk, self.wv):   # grads also summed over the tp ranks sharing the head
                p.kv_replicated, p.full_rows = True, hk * d
        self.wo = _param(prefix + "wo", (H, cfg["heads"] * d), seed, dim=1, rank=r, size=T)
        self.qk_norm = None
        if cfg["qk_norm"]:   # shared by the heads of all tp ranks: reduce over the stage
            self.qk_norm = QKNorm(_param(prefix + "q_norm", (d,), seed, reduce="stage"),
                                  _param(prefix + "k_norm", (d,), seed, reduce="stage"))

    def _core(self, q, k, v):
        return context_attention(q, k, v, self.mesh, self.d ** -0.5)

    def forward(self, x, cos, sin):
        # x: [B, s, H] (s = S/cp local rows), same on every tp rank
        m = self.mesh
        B, s, _ = x.shape
        x = copy_to_group(x, m.tp_group, m.tp_size)
        q = (x @ self.wq.t()).view(B, s, self.h, self.d)       # column parallel: local heads
        k = (x @ self.wk.t()).view(B, s, self.hk, self.d)
        v = (x @ self.wv.t()).view(B, s, self.hk, self.d)
        if self.qk_norm is not None:
            q, k = self.qk_norm(q, k)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        if self.selective:   # selective recompute: core attention only
            o = checkpoint(self._core, q, k, v, use_reentrant=False)
        else:
            o = self._core(q, k, v)                            # [B, s, h, d]
        out = o.reshape(B, s, self.h * self.d) @ self.wo.t()   # row parallel: partial sums
        return reduce_from_group(out, m.tp_group, m.tp_size)


class DenseMLP(nn.Module):
    def __init__(self, cfg, prefix, mesh, seed):
        super().__init__()
        self.cfg, self.mesh = cfg, mesh
        F_, H, T, r = cfg["ffn_hidden"], cfg["hidden"], mesh.tp_size, mesh.tp_rank
        self.w1 = _param(prefix + "w1", (F_, H), seed, dim=0, rank=r, size=T)
        self.w3 = _param(prefix + "w3", (F_, H), seed, dim=0, rank=r, size=T) if cfg["gated"] else None
        self.w2 = _param(prefix + "w2", (H, F_), seed, dim=1, rank=r, size=T)

    def forward(self, x):
        m = self.mesh
        B, s, H = x.shape
        x = copy_to_group(x, m.tp_group, m.tp_size).reshape(B * s, H)
        y = ffn(x, self.w1, self.w3, self.w2, self.cfg["gated"])
        return reduce_from_group(y, m.tp_group, m.tp_size).view(B, s, H)


class Layer(nn.Module):
    def __init__(self, cfg, i, mesh, stage, seed, recompute: str):
        super().__init__()
        p = f"layers.{i}."
        self.cfg, self.recompute = cfg, recompute
        self.attn_norm = _param(p + "attn_norm", (cfg["hidden"],), seed)
        self.attn = Attention(cfg, p + "attn.", mesh, seed, selective=recompute == "selective")
        self.mlp_norm = _param(p + "mlp_norm", (cfg["hidden"],), seed)
        if cfg["is_moe"][i]:
            self.moe = MoE(cfg, p + "moe.", mesh, stage, seed)
        else:
            self.mlp = DenseMLP(cfg, p + "mlp.", mesh, seed)

    def _forward(self, x, cos, sin):
        x = x + self.attn(norm(x, self.attn_norm, self.cfg["norm"]), cos, sin)
        mlp = self.moe if hasattr(self, "moe") else self.mlp
        return x + mlp(norm(x, self.mlp_norm, self.cfg["norm"]))

    def forward(self, x, cos, sin):
        if self.recompute != "full":
            return self._forward(x, cos, sin)
        calls = [0]

        def run(x):   # full recompute; count routed tokens on the first call only
            calls[0] += 1
            with counting(calls[0] == 1):
                return self._forward(x, cos, sin)
        return checkpoint(run, x, use_reentrant=False)


class StageModel(nn.Module):
    """Pipeline stage `stage`: embedding if first, its layers, final norm + head if last.
    forward: tokens [B, s] (first) or hidden [B, s, H] -> hidden, or logits [B, s, V] (last)."""

    def __init__(self, cfg, spec, mesh, positions, seed, first: bool, last: bool):
        super().__init__()
        self.cfg, self.first, self.last = cfg, first, last
        H, V = cfg["hidden"], cfg["vocab"]
        cos, sin = rope_tables(positions, cfg["head_dim"])    # [s, d/2] for this rank's rows
        self.register_buffer("cos", cos.to(mesh.device), persistent=False)
        self.register_buffer("sin", sin.to(mesh.device), persistent=False)
        if first:
            self.embed = _param("embed", (V, H), seed)
        self.layers = nn.ModuleDict({
            str(i): Layer(cfg, i, mesh, spec["index"], seed, spec["recompute"][j])
            for j, i in enumerate(spec["layers"])})
        if last:
            self.final_norm = _param("final_norm", (H,), seed)
            if cfg["tied_embeddings"] and first:
                self.head = None   # the embedding itself
            else:
                # tied embeddings across stages: a copy of the embedding whose
                # gradient is summed with the first stage's (mesh.embed_group)
                self.head = _param("embed" if cfg["tied_embeddings"] else "head", (V, H), seed)

    def forward(self, x):
        if self.first:
            x = self.embed[x]                                   # [B, s, H]
        for layer in self.layers.values():
            x = layer(x, self.cos, self.sin)
        if self.last:
            x = norm(x, self.final_norm, self.cfg["norm"])
            head = self.embed if self.head is None else self.head
            x = x @ head.t()                                    # [B, s, V]
        return x

    def moe_layers(self):
        return [l.moe for l in self.layers.values() if hasattr(l, "moe")]

    def fsdp_units(self):
        """(module, group kind) for FSDP2, innermost first: each unit's own
        parameters reduce over one group (the root: embedding, norm, head)."""
        units = []
        for layer in self.layers.values():
            if layer.attn.qk_norm is not None:
                units.append((layer.attn.qk_norm, "stage"))
            if hasattr(layer, "moe"):
                units.append((layer.moe.router, "stage"))
                units.append((layer.moe.experts, f"edp{layer.moe.stage}"))
                if layer.moe.shared is not None:
                    units.append((layer.moe.shared, "stage"))
            units.append((layer, "dp_cp"))
        units.append((self, "dp_cp"))
        return units

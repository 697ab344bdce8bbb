"""The layers of one pipeline stage on one rank, with tp/cp/ep parallelism.

Parameter names match reference.py (e.g. "layers.3.attn.wq"); every parameter
records `full_name`, the `slices` it holds of the full tensor, and the group
its gradient reduces over (`reduce`: "dp_cp", "stage" or "edp<stage>"), read
before FSDP2 replaces the Parameter objects (dataparallel.param_meta).
Tensor parallel with sequence parallelism (Korthikanti et al. 2022), written by
hand (comms.py): between blocks the residual stream [B, s/tp, H] holds this tp
rank's 1/tp of the local sequence (norms, residual adds, the MoE router and the
pipeline sends run on it); attention and the dense MLP all-gather it before
their column-parallel GEMMs (saving only the shard) and reduce-scatter after
their row-parallel ones. Parameters used on the shard (norms, embedding, head)
get a partial gradient on each tp rank (`tp_partial`): summed over tp by
dataparallel.finish_gradients.
The linear layers' GEMMs run at the plan's precision (fp8.py; the amax of a tensor-parallel
shard reduced over tp); the router, the embedding and the head in the model's dtype.
Built on the meta device (train.py); init.materialize fills each shard.

Recompute as planned, per layer (layout.STAGES[s]["recompute"]): "full"
checkpoints the whole layer; "selective" checkpoints exactly the stage's
`recompute_modules` (Megatron's names): core_attn (attention core), layernorm
(the two input norms: their outputs are recomputed from the residual by the
GEMMs that read them, comms.norm_column_parallel), mlp (dense MLP), moe (the whole MoE block), moe_act
(SwiGLU activation inside the experts), shared_experts. mla_up_proj has no
module here (MLA runs as multi-head attention) and is ignored.
"""
import torch
import torch.nn as nn

import torch.nn.functional as F

import documents
import fused
from blocks import rope_tables
from comms import column_parallel, norm_column_parallel, reduce_scatter_seq
from cp.attention import context_attention
from fp8 import linear
from moe.layer import MoE
from recompute import maybe, recomputed


def _param(name, shape, seed, reduce="dp_cp", dim=None, rank=0, size=1):
    """Parameter `name` (full shape `shape`) as this rank holds it: 1/size of dim
    `dim`. Made empty on the current default device (meta when building);
    init.materialize fills it from the seed later."""
    slices = [] if dim is None else [(dim, rank * (shape[dim] // size), shape[dim] // size)]
    local = list(shape)
    if dim is not None:
        local[dim] //= size
    p = nn.Parameter(torch.empty(local))
    p.full_name, p.full_shape, p.slices, p.reduce, p.seed, p.init_rows = name, tuple(shape), slices, reduce, seed, None
    p.tp_partial = reduce == "dp_cp" and dim is None     # whole on every tp rank, used on 1/tp of the rows
    return p


class QKNorm(nn.Module):
    """RMSNorm of queries and keys per head (weights [d], shared by all heads), then RoPE:
    one compiled region (fused.qk_rope). Called as the module, so FSDP2 gathers its weights."""

    def __init__(self, q_norm, k_norm):
        super().__init__()
        self.q_norm, self.k_norm = q_norm, k_norm

    def forward(self, q, k, cos, sin):
        return fused.qk_rope(q, k, cos, sin, self.q_norm, self.k_norm)


class Attention(nn.Module):
    def __init__(self, cfg, prefix, mesh, seed, selective: bool):
        super().__init__()
        self.cfg, self.mesh, self.selective = cfg, mesh, selective   # selective: recompute core_attn
        self.tags = tuple(prefix + n for n in ("wq", "wk", "wv", "wo"))  # the weights' names (fp8.py --check)
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

    def forward(self, x, cos, sin, norm_fn=None, norm_w=None):
        # x: [B, s/tp, H] this tp rank's rows of the s = S/cp local ones, already normed
        # unless norm_w is given: then the norm is fused with the QKV GEMMs (layernorm recompute)
        m = self.mesh
        B, s = x.shape[0], x.shape[1] * m.tp_size
        ws = (self.wq, self.wk, self.wv)
        if norm_w is None:
            q, k, v = column_parallel(x, ws, m.tp_group, m.tp_size, self.tags[:3])     # local heads
        else:
            q, k, v = norm_column_parallel(x, norm_w, norm_fn, ws, m.tp_group, m.tp_size, tags=self.tags[:3])
        q = q.view(B, s, self.h, self.d)
        k = k.view(B, s, self.hk, self.d)
        v = v.view(B, s, self.hk, self.d)
        if self.qk_norm is not None:
            q, k = self.qk_norm(q, k, cos, sin)                 # qk norm + RoPE
        else:
            q, k = fused.qk_rope(q, k, cos, sin, None, None)
        o = maybe(self.selective, self._core, q, k, v)         # [B, s, h, d]
        out = linear(o.reshape(B, s, self.h * self.d), self.wo, m.tp_group, self.tags[3])   # row parallel: partial sums
        return reduce_scatter_seq(out, m.tp_group, m.tp_size)  # [B, s/tp, H]


class DenseMLP(nn.Module):
    def __init__(self, cfg, prefix, mesh, seed):
        super().__init__()
        self.cfg, self.mesh = cfg, mesh
        self.tags = tuple(prefix + n for n in ("w1", "w3", "w2"))
        F_, H, T, r = cfg["ffn_hidden"], cfg["hidden"], mesh.tp_size, mesh.tp_rank
        self.w1 = _param(prefix + "w1", (F_, H), seed, dim=0, rank=r, size=T)
        self.w3 = _param(prefix + "w3", (F_, H), seed, dim=0, rank=r, size=T) if cfg["gated"] else None
        self.w2 = _param(prefix + "w2", (H, F_), seed, dim=1, rank=r, size=T)

    def forward(self, x, norm_fn=None, norm_w=None):
        # x: [B, s/tp, H] -> [B, s/tp, H]; norm_w: as Attention.forward
        m, gated = self.mesh, self.cfg["gated"]
        ws = (self.w1, self.w3) if gated else (self.w1,)
        tags = self.tags[:len(ws)]
        if norm_w is None:
            a = column_parallel(x, ws, m.tp_group, m.tp_size, tags)  # [B, s, F/tp] each
        else:
            a = norm_column_parallel(x, norm_w, norm_fn, ws, m.tp_group, m.tp_size, tags=tags)
        h = fused.swiglu(*a) if gated else F.gelu(a[0])
        return reduce_scatter_seq(linear(h, self.w2, m.tp_group, self.tags[2]), m.tp_group, m.tp_size)


class Layer(nn.Module):
    def __init__(self, cfg, i, mesh, stage, seed, recompute: str, modules=()):
        super().__init__()
        p = f"layers.{i}."
        sel = set(modules) if recompute == "selective" else set()
        self.cfg, self.recompute, self.modules = cfg, recompute, sel
        self.attn_norm = _param(p + "attn_norm", (cfg["hidden"],), seed)
        self.attn = Attention(cfg, p + "attn.", mesh, seed, selective="core_attn" in sel)
        self.mlp_norm = _param(p + "mlp_norm", (cfg["hidden"],), seed)
        if cfg["is_moe"][i]:
            self.moe = MoE(cfg, p + "moe.", mesh, stage, seed, act_recompute="moe_act" in sel,
                           shared_recompute="shared_experts" in sel)
        else:
            self.mlp = DenseMLP(cfg, p + "mlp.", mesh, seed)

    def _norm(self, x, w):
        return fused.norm(x, w, self.cfg["norm"])

    def _forward(self, x, cos, sin):
        # layernorm recompute: a norm's output is kept by no one. Its consumers' first
        # GEMMs compute it from the saved norm input (the residual x) again in backward
        # (norm_column_parallel); inside a recomputed mlp / moe block the checkpoint
        # keeps only x.
        ln = "layernorm" in self.modules
        if ln:
            x = x + self.attn(x, cos, sin, self._norm, self.attn_norm)
        else:
            x = x + self.attn(self._norm(x, self.attn_norm), cos, sin)
        block = self.moe if hasattr(self, "moe") else self.mlp
        if "moe" in self.modules or "mlp" in self.modules:          # the whole block recomputed
            if ln:
                return x + recomputed(lambda v, w: block(self._norm(v, w)), x, self.mlp_norm)
            return x + recomputed(block, self._norm(x, self.mlp_norm))
        if ln:
            return x + block(x, self._norm, self.mlp_norm)
        return x + block(self._norm(x, self.mlp_norm))

    def forward(self, x, cos, sin):
        if self.recompute == "full":
            return recomputed(self._forward, x, cos, sin)
        return self._forward(x, cos, sin)

    def recomputed_modules(self):
        """What this layer checkpoints: ["full"], or the selective modules."""
        return ["full"] if self.recompute == "full" else sorted(self.modules)


def sp_rows(t, mesh):
    """This tp rank's 1/tp of the local sequence of t [B, s, ...] (dim 1)."""
    n = t.shape[1] // mesh.tp_size
    return t if mesh.tp_size == 1 else t[:, mesh.tp_rank * n:(mesh.tp_rank + 1) * n]


class StageModel(nn.Module):
    """Pipeline stage `stage`: embedding if first, its layers, final norm + head if last.
    forward: tokens [B, s] (first) or hidden [B, s/tp, H] -> hidden [B, s/tp, H], or
    logits [B, s/tp, V] of this tp rank's rows (last; their targets: sp_rows)."""

    def __init__(self, cfg, spec, mesh, positions, seed, first: bool, last: bool):
        super().__init__()
        self.cfg, self.first, self.last, self.mesh = cfg, first, last, mesh
        H, V = cfg["hidden"], cfg["vocab"]
        self.positions = positions                             # [s] global positions of my rows
        self.register_buffer("cos", torch.empty(len(positions), cfg["head_dim"] // 2), persistent=False)
        self.register_buffer("sin", torch.empty(len(positions), cfg["head_dim"] // 2), persistent=False)
        if first:
            self.embed = _param("embed", (V, H), seed)
        self.layers = nn.ModuleDict({
            str(i): Layer(cfg, i, mesh, spec["index"], seed, spec["recompute"][j], spec.get("recompute_modules", ()))
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
        # between stages each tp rank sends its 1/tp of the rows (Narayanan et al. 2021 sec. 4.1)
        if self.first:
            x = self.embed[sp_rows(x, self.mesh)]               # [B, s/tp, H]
        cos, sin = self.cos, self.sin
        doc = documents.current()
        if doc is not None:        # --doc-mask: positions restart per document, [B, s, d/2] tables
            pos = documents.positions_in_document(doc)[:, self.positions.to(doc.device)]
            cos, sin = (t.view(*pos.shape, -1).to(self.cos.device)
                        for t in rope_tables(pos.flatten(), self.cfg["head_dim"]))
        for layer in self.layers.values():
            x = layer(x, cos, sin)
        if self.last:
            x = fused.norm(x, self.final_norm, self.cfg["norm"])
            head = self.embed if self.head is None else self.head
            x = x @ head.t()                                    # [B, s/tp, V]
        return x

    @torch.no_grad()
    def init_buffers(self):
        """After to_empty: RoPE tables [s, d/2] and the MoE buffers."""
        cos, sin = rope_tables(self.positions, self.cfg["head_dim"])
        self.cos.copy_(cos)
        self.sin.copy_(sin)
        for m in self.moe_layers():
            m.bias.zero_()
            m.counts.zero_()

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

"""The planned model in one process, no parallelism: the reference of `--check`."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from blocks import apply_rope, capacity_keep, ffn, init_tensor, norm, rope_tables, route


def param_shapes(cfg) -> dict:
    """Every parameter of the full model: name -> shape (names shared with model.py)."""
    H, d, h, hk, V = cfg["hidden"], cfg["head_dim"], cfg["heads"], cfg["kv_heads"], cfg["vocab"]
    shapes = {"embed": (V, H)}
    for i in range(cfg["layers"]):
        p = f"layers.{i}."
        shapes[p + "attn_norm"] = (H,)
        shapes[p + "attn.wq"], shapes[p + "attn.wk"] = (h * d, H), (hk * d, H)
        shapes[p + "attn.wv"], shapes[p + "attn.wo"] = (hk * d, H), (H, h * d)
        if cfg["qk_norm"]:
            shapes[p + "attn.q_norm"], shapes[p + "attn.k_norm"] = (d,), (d,)
        shapes[p + "mlp_norm"] = (H,)
        if cfg["is_moe"][i]:
            E, Fe, Fs = cfg["experts"], cfg["expert_ffn"], cfg["shared_ffn"]
            shapes[p + "moe.router"] = (E, H)
            shapes[p + "moe.w1"], shapes[p + "moe.w3"], shapes[p + "moe.w2"] = (E, Fe, H), (E, Fe, H), (E, H, Fe)
            if Fs:
                shapes[p + "moe.shared_w1"], shapes[p + "moe.shared_w3"] = (Fs, H), (Fs, H)
                shapes[p + "moe.shared_w2"] = (H, Fs)
        else:
            F_ = cfg["ffn_hidden"]
            shapes[p + "mlp.w1"], shapes[p + "mlp.w2"] = (F_, H), (H, F_)
            if cfg["gated"]:
                shapes[p + "mlp.w3"] = (F_, H)
    shapes["final_norm"] = (H,)
    if not cfg["tied_embeddings"]:
        shapes["head"] = (V, H)
    return shapes


class Reference(nn.Module):
    def __init__(self, cfg, seed: int):
        super().__init__()
        self.cfg = cfg
        self.params = nn.ParameterDict()
        self.names = list(param_shapes(cfg))
        for name, shape in param_shapes(cfg).items():
            self.params[name.replace(".", "/")] = nn.Parameter(init_tensor(name, shape, seed))
        # aux-loss-free router bias and this step's token counts, per MoE layer
        self.bias = {i: torch.zeros(cfg["experts"]) for i in range(cfg["layers"]) if cfg["is_moe"][i]}
        self.counts = {i: torch.zeros(cfg["experts"]) for i in self.bias}
        # capacity factor: the token groups the experts' capacity applies to
        # (index tensors into the flattened [B*S] tokens, in the order a rank
        # sees them); None = all tokens at once
        self.capacity_groups = None

    def p(self, name):
        key = name.replace(".", "/")
        return self.params[key] if key in self.params else None

    def named(self):
        return {n: self.p(n) for n in self.names}

    def forward(self, tokens):
        # tokens: [B, S] -> logits [B, S, V]
        c = self.cfg
        B, S = tokens.shape
        h, hk, d = c["heads"], c["kv_heads"], c["head_dim"]
        cos, sin = rope_tables(torch.arange(S), d)
        x = self.p("embed")[tokens]                                      # [B, S, H]
        for i in range(c["layers"]):
            p = f"layers.{i}."
            a = norm(x, self.p(p + "attn_norm"), c["norm"])
            q = (a @ self.p(p + "attn.wq").t()).view(B, S, h, d)
            k = (a @ self.p(p + "attn.wk").t()).view(B, S, hk, d)
            v = (a @ self.p(p + "attn.wv").t()).view(B, S, hk, d)
            if c["qk_norm"]:
                q, k = norm(q, self.p(p + "attn.q_norm"), "rmsnorm"), norm(k, self.p(p + "attn.k_norm"), "rmsnorm")
            q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
            q, k, v = (t.transpose(1, 2) for t in (q, k, v))            # [B, h, S, d]
            k, v = k.repeat_interleave(h // hk, dim=1), v.repeat_interleave(h // hk, dim=1)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=d ** -0.5)
            x = x + o.transpose(1, 2).reshape(B, S, h * d) @ self.p(p + "attn.wo").t()
            m = norm(x, self.p(p + "mlp_norm"), c["norm"]).reshape(B * S, -1)
            if c["is_moe"][i]:
                y = self._moe(i, m)
            else:
                y = ffn(m, self.p(p + "mlp.w1"), self.p(p + "mlp.w3"), self.p(p + "mlp.w2"), c["gated"])
            x = x + y.view(B, S, -1)
        x = norm(x, self.p("final_norm"), c["norm"])
        head = self.p("embed") if c["tied_embeddings"] else self.p("head")
        return x @ head.t()

    def _moe(self, i, t):
        # t: [n, H]; dense loop over experts (no dispatch)
        c, p = self.cfg, f"layers.{i}.moe."
        w, sel = route(t, self.p(p + "router"), self.bias[i], c["top_k"], c["router_score"])
        self.counts[i] += torch.bincount(sel.flatten(), minlength=c["experts"])
        if c["capacity_factor"] is not None:
            keep = torch.zeros_like(sel, dtype=torch.bool)
            for g in self.capacity_groups or [torch.arange(t.shape[0])]:
                keep[g] = capacity_keep(sel[g], c["experts"], c["capacity_factor"])
            w = w * keep
        y = torch.zeros_like(t)
        for e in range(c["experts"]):
            tok, slot = torch.nonzero(sel == e, as_tuple=True)
            if tok.numel():
                out = ffn(t[tok], self.p(p + "w1")[e], self.p(p + "w3")[e], self.p(p + "w2")[e], True)
                y = y.index_add(0, tok, out * w[tok, slot].unsqueeze(1))
        if c["shared_ffn"]:
            y = y + ffn(t, self.p(p + "shared_w1"), self.p(p + "shared_w3"), self.p(p + "shared_w2"), True)
        return y

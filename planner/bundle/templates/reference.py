"""The planned model in one process, no parallelism: the reference of `--check`.

Plain PyTorch, written apart from the parallel model: it imports nothing of
blocks.py, model.py, moe/ or cp/, so a bug in their math (RoPE, routing, norms,
the bias update, the token placement) is not shared with the reference and
shows up as a mismatch. What it shares with the bundle is only the contract:
parameter names and shapes, the initial values (below), the loss (summed
cross-entropy / all tokens of the step) and AdamW's hyper-parameters.
"""
import math
import zlib

import torch
import torch.nn as nn
import torch.nn.functional as F

# DeepSeek-V3 (sec. 2.1.2): bias update speed gamma of the aux-loss-free balancing
BIAS_RATE = 1e-3


def initial_value(name: str, shape, seed: int) -> torch.Tensor:
    """The initial value of parameter `name`: norm weights 1, everything else N(0, 0.02)
    from a generator seeded by (seed, crc32(name)); stacked experts [E, ., .] draw
    expert e from the generator of f"{name}[{e}]"."""
    if name.endswith("norm"):
        return torch.ones(shape)
    if len(shape) == 3:
        return torch.stack([initial_value(f"{name}[{e}]", shape[1:], seed) for e in range(shape[0])])
    g = torch.Generator().manual_seed(seed * 1_000_003 + zlib.crc32(name.encode()))
    return torch.randn(shape, generator=g) * 0.02


def initial_bias(layer: int, experts: int, seed: int) -> torch.Tensor:
    """A non-zero router bias for `--check` (large enough to change the top-k choice)."""
    g = torch.Generator().manual_seed(seed * 7 + layer)
    return torch.randn(experts, generator=g) * 0.05


def param_shapes(cfg) -> dict:
    """Every parameter of the full model: name -> shape (the names model.py uses)."""
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


def _normalise(x, kind, eps=1e-6):
    """The norm without its weight (the weight multiplies it: Reference.scaled)."""
    if kind == "layernorm":
        mu = x.mean(-1, keepdim=True)
        return (x - mu) / torch.sqrt(((x - mu) ** 2).mean(-1, keepdim=True) + eps)
    return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps)


def _rope(x, pos):
    """Rotate-half RoPE, theta 10000: x [B, S, h, d] at positions pos [B, S]."""
    d = x.shape[-1]
    freq = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = pos.double()[..., None] * freq                            # [B, S, d/2]
    cos, sin = torch.cos(ang).float()[:, :, None, :], torch.sin(ang).float()[:, :, None, :]
    a, b = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)


def _abs2(t):
    """|t| as rows: [..., n] -> [rows, n]."""
    return t.detach().abs().reshape(-1, t.shape[-1])


class Magnitudes:
    """Per element of every parameter, the sum of the absolute values of the terms its
    gradient adds up, and how many terms: for y = x @ W.t() the terms of dW[o, i] are
    g[t, o] * x[t, i] over the rows t (sum |g|^T |x|); for y = xhat * w, g[t, i] * xhat[t, i]
    (sum over rows of |g| |xhat|); for rows taken from a table, g[t] into row tokens[t].
    Recorded by tensor hooks in the reference's backward; check.py derives each gradient's
    tolerance from them (the error of a sum of n terms in another order)."""

    def __init__(self, shapes):
        self.shapes = shapes
        self.reset()

    def reset(self):
        self.sum_abs = {n: torch.zeros(s) for n, s in self.shapes.items()}
        self.terms = {}                  # (name, expert or None) -> terms added into each element

    def _add(self, name, e, value, terms):
        (self.sum_abs[name] if e is None else self.sum_abs[name][e]).add_(value)
        self.terms[name, e] = self.terms.get((name, e), 0) + terms

    def count(self, name) -> int:
        """The most terms an element of `name`'s gradient sums."""
        return max((n for (k, _), n in self.terms.items() if k == name), default=0)

    # the hooks hold the input itself (autograd saves it for the backward anyway) and take its
    # absolute value only when the gradient arrives: no copy lives through the forward
    def linear(self, y, x, name, e=None):
        x = x.detach()
        y.register_hook(lambda g: self._add(name, e, _abs2(g).t() @ _abs2(x), x.numel() // x.shape[-1]))

    def scale(self, y, xhat, name):
        xhat = xhat.detach()
        y.register_hook(lambda g: self._add(name, None, (_abs2(g) * _abs2(xhat)).sum(0),
                                            xhat.numel() // xhat.shape[-1]))

    def rows(self, y, index, name):
        def hook(g):
            g = g.detach().abs().reshape(-1, g.shape[-1])
            self._add(name, None, torch.zeros(self.shapes[name]).index_add_(0, index.flatten(), g), len(g))
        y.register_hook(hook)


class Reference(nn.Module):
    def __init__(self, cfg, seed: int, capacity_groups=None, aux_coef: float = 0.0, routing_groups=None):
        super().__init__()
        self.cfg = cfg
        self.shapes = param_shapes(cfg)
        self.params = nn.ParameterDict({n.replace(".", "/"): nn.Parameter(initial_value(n, s, seed))
                                        for n, s in self.shapes.items()})
        moe_layers = [i for i in range(cfg["layers"]) if cfg["is_moe"][i]]
        # router bias per MoE layer (non-zero when the model balances with a bias), and
        # the tokens each expert got this step
        self.bias = {i: initial_bias(i, cfg["experts"], seed) if cfg["router_bias"] else torch.zeros(cfg["experts"])
                     for i in moe_layers}
        self.counts = {i: torch.zeros(cfg["experts"]) for i in moe_layers}
        # capacity factor: index tensors into the flattened [B*S] tokens, one per group of
        # tokens that one rank routes in one micro-batch (capacity applies per group)
        self.capacity_groups = capacity_groups
        # softmax routers: the load-balancing loss (Switch Transformer eq. 4, Mixtral) per
        # routing group (the same groups), averaged over the groups; summed into self.aux
        self.aux_coef = aux_coef if cfg["router_score"] == "softmax" else 0.0
        self.routing_groups = routing_groups
        self.aux = None
        self.mag = None                  # Magnitudes while check.py tracks them

    def lin(self, x, name, e=None):
        """x @ W.t() with W the parameter `name` (expert e of a stacked one)."""
        w = self.p(name) if e is None else self.p(name)[e]
        y = x @ w.t()
        if self.mag is not None and y.requires_grad:
            self.mag.linear(y, x, name, e)
        return y

    def scaled(self, xhat, name):
        """xhat * w: a norm's weight."""
        y = xhat * self.p(name)
        if self.mag is not None and y.requires_grad:
            self.mag.scale(y, xhat, name)
        return y

    def _swiglu(self, x, p, e=None):
        # p: "layers.{i}.mlp.", "layers.{i}.moe." (expert e) or "layers.{i}.moe.shared_"
        return self.lin(F.silu(self.lin(x, p + "w1", e)) * self.lin(x, p + "w3", e), p + "w2", e)

    def p(self, name):
        return self.params[name.replace(".", "/")]

    def named(self):
        return {n: self.p(n) for n in self.shapes}

    def forward(self, tokens, eod=None):
        # tokens: [B, S] -> logits [B, S, V]. eod: packed documents (train.py --doc-mask), written
        # apart from documents.py: a document runs up to and including its EOD token; positions
        # restart with it and a query sees only the keys of its own document
        c = self.cfg
        B, S = tokens.shape
        h, hk, d = c["heads"], c["kv_heads"], c["head_dim"]
        pos = torch.arange(S).expand(B, S)
        causal = torch.ones(S, S, dtype=torch.bool).tril().expand(B, 1, S, S)
        if eod is not None:
            pos, causal = torch.empty(B, S, dtype=torch.long), causal.clone()
            for b in range(B):
                start = 0
                for i in range(S):
                    pos[b, i] = i - start
                    if tokens[b, i] == eod:
                        causal[b, 0, i + 1:, :i + 1] = False     # later documents do not see this one
                        start = i + 1
        x = self.p("embed")[tokens]                                      # [B, S, H]
        if self.mag is not None and x.requires_grad:
            self.mag.rows(x, tokens, "embed")
        self.aux = torch.zeros(())
        for i in range(c["layers"]):
            p = f"layers.{i}."
            a = self.scaled(_normalise(x, c["norm"]), p + "attn_norm")
            q = self.lin(a, p + "attn.wq").view(B, S, h, d)
            k = self.lin(a, p + "attn.wk").view(B, S, hk, d)
            v = self.lin(a, p + "attn.wv").view(B, S, hk, d)
            if c["qk_norm"]:
                q = self.scaled(_normalise(q, "rmsnorm"), p + "attn.q_norm")
                k = self.scaled(_normalise(k, "rmsnorm"), p + "attn.k_norm")
            q, k = _rope(q, pos), _rope(k, pos)
            k, v = k.repeat_interleave(h // hk, dim=2), v.repeat_interleave(h // hk, dim=2)   # [B, S, h, d]
            scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d)
            o = torch.einsum("bhqk,bkhd->bqhd", scores.masked_fill(~causal, float("-inf")).softmax(-1), v)
            x = x + self.lin(o.reshape(B, S, h * d), p + "attn.wo")
            m = self.scaled(_normalise(x, c["norm"]), p + "mlp_norm").reshape(B * S, -1)
            if c["is_moe"][i]:
                y = self._moe(i, m)
            elif c["gated"]:
                y = self._swiglu(m, p + "mlp.")
            else:
                y = self.lin(F.gelu(self.lin(m, p + "mlp.w1")), p + "mlp.w2")
            x = x + y.view(B, S, -1)
        x = self.scaled(_normalise(x, c["norm"]), "final_norm")
        return self.lin(x, "embed" if c["tied_embeddings"] else "head")

    def _moe(self, i, t):
        # t: [n, H]; every expert sees every token, weighted by its (possibly zero) gate
        c, p, E = self.cfg, f"layers.{i}.moe.", self.cfg["experts"]
        logits = self.lin(t, p + "router")                               # [n, E]
        scores = logits.sigmoid() if c["router_score"] == "sigmoid" else logits.softmax(-1)
        chosen = (scores.detach() + self.bias[i]).topk(c["top_k"], dim=-1).indices     # [n, k]
        self.counts[i] += F.one_hot(chosen, E).sum((0, 1)).float()
        if self.aux_coef:
            self.aux = self.aux + self._balancing_loss(scores, chosen)
        gate = torch.zeros_like(scores).scatter(1, chosen, 1.0)          # [n, E] 0/1
        if c["capacity_factor"] is not None:
            gate = gate * self._within_capacity(chosen, t.shape[0])
        w = scores * gate
        if c["router_score"] == "sigmoid":                               # renormalised over the top-k
            w = w / (scores * torch.zeros_like(scores).scatter(1, chosen, 1.0)).sum(-1, keepdim=True)
        y = torch.zeros_like(t)
        for e in range(E):
            y = y + w[:, e:e + 1] * self._swiglu(t, p, e)
        if c["shared_ffn"]:
            y = y + self._swiglu(t, p + "shared_")
        return y

    def _balancing_loss(self, scores, chosen):
        """aux_coef * mean over routing groups of E * sum_e f_e * P_e: f_e the share of the
        group's top-k choices that went to expert e (a constant), P_e its mean router probability."""
        E, groups = self.cfg["experts"], self.routing_groups
        total = torch.zeros(())
        for g in groups:
            f = F.one_hot(chosen[g], E).float().sum((0, 1)) / chosen[g].numel()
            total = total + E * (f * scores[g].mean(0)).sum()
        return self.aux_coef * total / len(groups)

    def _within_capacity(self, chosen, n):
        """[n, E] mask: assignment (token, e) kept iff the token is among the first
        ceil(cf * rows * k / E) of its group's rows that chose e (rows in token order,
        the k choices of a row in rank order)."""
        c, E = self.cfg, self.cfg["experts"]
        keep = torch.zeros(n, E)
        for g in self.capacity_groups or [torch.arange(n)]:
            rows, k = len(g), chosen.shape[1]
            cap = math.ceil(c["capacity_factor"] * rows * k / E)
            seen = [0] * E
            for r in g.tolist():
                for e in chosen[r].tolist():
                    if seen[e] < cap:
                        keep[r, e] = 1.0
                    seen[e] += 1
        return keep

    @torch.no_grad()
    def update_bias(self):
        """Aux-loss-free balancing: raise the bias of under-loaded experts, lower the others'."""
        for i, b in self.bias.items():
            if self.cfg["router_bias"]:
                b += BIAS_RATE * torch.sign(self.counts[i].mean() - self.counts[i])
            self.counts[i].zero_()

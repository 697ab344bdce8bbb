"""The recompute forms Megatron-LM's flags can say, for a layout's per-stage recompute (read by
its `target.recompute` rule, the stage model's one-form constraint, the brute force and its
exporter). Source: NVIDIA/Megatron-LM megatron/training/arguments.py at d98e8a6."""
from __future__ import annotations

from itertools import combinations
from typing import Optional

from planner.engines.shared import no_recompute, with_stages
from planner.layout.rules import model_modules

# Megatron-LM's --recompute-modules (megatron/core/transformer/transformer_config.py); "moe"
# (the whole MoE layer) is left to full recompute, as the search does for every target
MODULES = ("core_attn", "layernorm", "mlp", "moe_act", "shared_experts", "mla_up_proj")


def block_counts(n_max: int, vpp: int) -> range:
    """The --recompute-num-layers N worth trying when the largest stage holds n_max layers:
    1 .. ceil(n_max / vpp); with vpp > 1 only the N that recomputes every layer (a part of
    each chunk is not a form `form` accepts)."""
    top = max(1, -(-n_max // vpp))
    return range(1, top + 1) if vpp == 1 else range(top, top + 1)


def block_full(n: int, N: int, vpp: int) -> Optional[int]:
    """Layers of an n-layer stage that `--recompute-method block --recompute-num-layers N`
    recomputes: N of each of its vpp chunks, min(n, N * vpp); None where that is not a form
    this rule accepts (vpp > 1 and a part of the stage)."""
    f = min(n, N * vpp)
    return f if vpp == 1 or f in (0, n) else None


def block_layers(chunks, N: int) -> set[int]:
    """The layers `--recompute-method block --recompute-num-layers N` recomputes on one pipeline rank:
    the first N of each of its chunks, in layer order (megatron/core/recompute.py:167-181)."""
    return {i for c in chunks for i in list(c)[:N]}


def block_mismatch(L, is_moe) -> Optional[str]:
    """Where Megatron's block recompute takes other layers than the layout's placement prices (full
    recompute takes a rank's MoE layers first, planner/layout/placement.py): which stage, and both
    sets; None when they agree or the layout has no block recompute."""
    got, _ = form(L)
    if not got or got.get("method") != "block":
        return None
    for r in L.placement(is_moe).ranks:
        planned = sorted(i for i, k in r.recompute.items() if k == "full")
        theirs = sorted(block_layers(r.chunks, got["num_layers"]))
        if planned != theirs:
            kinds = lambda xs: f"{sum(is_moe[i] for i in xs)} MoE + {sum(not is_moe[i] for i in xs)} dense"
            return (f"stage {r.rank}: --recompute-num-layers {got['num_layers']} recomputes layers {theirs} "
                    f"({kinds(theirs)}); the plan prices {planned} ({kinds(planned)}, MoE layers first)")
    return None


def form(L) -> tuple[Optional[dict], Optional[str]]:
    """Megatron's recompute flags for the layout's per-stage recompute, or why there are none.
    One granularity for the whole model (arguments.py:1425: selective takes no method): selective
    runs `--recompute-modules` in every layer; full with `--recompute-method block
    --recompute-num-layers N` recomputes N layers of each virtual chunk (min(n, N*vpp) of a stage)."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"granularity": None}, None
    if any(full) and any(sel):
        return None, "Megatron runs one recompute granularity: the stages mix full and selective recompute"
    if any(sel):
        return _selective(L)
    for n in block_counts(max(full), L.vpp):
        if all(f == block_full(s.num_layers, n, L.vpp) for f, s in zip(full, L.stages)):
            return {"granularity": "full", "method": "block", "num_layers": n}, None
    shown = "/".join(map(str, full))
    return None, (f"full recompute of {shown} layers per stage is not min(layers, N * vpp) for one "
                  f"--recompute-num-layers N" + (" (with vpp > 1: all layers or none)" if L.vpp > 1 else ""))


def _selective(L) -> tuple[Optional[dict], Optional[str]]:
    part = [s for s in L.stages if s.recompute_selective != s.num_layers]
    if part:
        s = part[0]
        return None, (f"stage {s.index}: selective recompute in {s.recompute_selective} of {s.num_layers} "
                      f"layers; Megatron's --recompute-modules apply to every layer")
    mods = sorted({s.recompute_modules for s in L.stages})
    if len(mods) > 1:
        return None, f"stages recompute different modules {' / '.join('+'.join(m) for m in mods)}; " \
                     f"--recompute-modules is one list"
    if "op" in mods[0]:
        return None, "recompute module op is torchtitan's per-op AC; Megatron has no such module"
    return {"granularity": "selective", "modules": mods[0]}, None


def forms(problem, L) -> list:
    """The layout under every recompute Megatron's flags can say that train.recompute allows
    (same split and folding): none; each set of the allowed modules in every layer; each
    --recompute-num-layers of block full recompute."""
    allowed, n = set(problem.train.recompute), [s.num_layers for s in L.stages]
    out = [no_recompute(L)] if "none" in allowed else []
    if "selective" in allowed:
        has = model_modules(problem.model)
        mods = [k for k in problem.train.recompute_modules if k in MODULES and has[k]]
        for mset in (c for r in range(1, len(mods) + 1) for c in combinations(mods, r)):
            out.append(with_stages(L, [{"recompute_full": 0, "recompute_selective": k, "recompute_modules": mset}
                                       for k in n]))
    if "full" in allowed:
        for k in block_counts(max(n), L.vpp):      # --recompute-method block --recompute-num-layers k
            cand = with_stages(L, [{"recompute_full": block_full(m, k, L.vpp), "recompute_selective": 0}
                                   for m in n])
            if block_mismatch(cand, problem.model.moe_layers()) is None:
                out.append(cand)
    return out

"""The activation-checkpointing forms OLMo-core's TransformerActivationCheckpointingConfig can say,
for a layout's per-stage recompute (read by its `target.recompute` rule, planner.solve.targets.realise
and its exporter). Source (ai2-olmo-core 3.0.0): olmo_core/nn/transformer/config.py:68-76 (modes
full, selected_blocks, selected_modules, selected_ops, budget) and olmo_core/nn/transformer/model.py:960-963
(selected_blocks wraps block i when i % block_interval == 0, i the block's index in the whole model:
pipeline stages keep the global block names, train/train_module/transformer/config.py split_model)."""
from __future__ import annotations

from typing import Optional

from planner.engines.shared import SAC, no_recompute, per_op_selective, with_stages  # noqa: F401 (SAC: read by callers)



def _every(k: int, sizes: list[int]) -> list[int]:
    """Blocks of each stage that selected_blocks(k) wraps: global indices i with i % k == 0."""
    out, start = [], 0
    for n in sizes:
        out.append(sum(1 for i in range(start, start + n) if i % k == 0))
        start += n
    return out


def form(L) -> tuple[Optional[dict], Optional[str]]:
    """OLMo-core's ac_config for the layout ({"mode": ...} with block_interval for selected_blocks;
    {"mode": "none"}: no ac_config), or why there is none."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"mode": "none"}, None
    ok, why = per_op_selective(L, "OLMo-core")
    if ok or why:
        return ({"mode": "selected_ops"}, None) if ok else (None, why)
    sizes = [s.num_layers for s in L.stages]
    for k in range(1, sum(sizes) + 1):
        if _every(k, sizes) == full:
            return ({"mode": "full"} if k == 1 else {"mode": "selected_blocks", "block_interval": k}), None
    return None, (f"full recompute of {'/'.join(map(str, full))} layers per stage is not OLMo-core's "
                  f"selected_blocks (every k-th block of the model) for one k")


def forms(problem, L) -> list:
    """The layout under every AC form OLMo-core can say that train.recompute allows (same split and
    folding): none; selected_ops in every block; every k-th block of the model (k = 1: full)."""
    allowed, n = set(problem.train.recompute), [s.num_layers for s in L.stages]
    out = [no_recompute(L)] if "none" in allowed else []
    if "selective" in allowed:
        out.append(with_stages(L, [{"recompute_full": 0, "recompute_selective": k, "recompute_modules": SAC}
                                   for k in n]))
    if "full" in allowed:
        for k in range(1, max(n) + 1):
            out.append(with_stages(L, [{"recompute_full": m, "recompute_selective": 0} for m in _every(k, n)]))
    return out

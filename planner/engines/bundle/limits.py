"""What foldplan's own bundle cannot run although the plan is legal (planner.layout's rules hold already):
the limits of its code in planner/bundle/templates, each with the arithmetic. planner.bundle.codegen
refuses a plan that breaks one, before it writes anything."""
from __future__ import annotations

from typing import Optional


def limits(full: dict, lay, seq: int) -> Optional[str]:
    """The first limit the plan breaks, in one line naming the plan field; None when it keeps them all.
    `full`: the model's dimensions as codegen derives them (ffn_hidden, head_dim, experts)."""
    tp, cp, mb = lay.tp, lay.cp, lay.micro_batch
    if full["ffn_hidden"] % tp:           # the dense MLP is split over tp in whole shards
        return f"plan field problem.model.ffn_hidden: tp({tp}) must divide ffn_hidden({full['ffn_hidden']})"
    if full["head_dim"] % 2:              # RoPE rotates pairs of channels
        return f"plan field problem.model.head_dim: RoPE needs an even head_dim, got {full['head_dim']}"
    if full["experts"] and (mb * seq // cp) % tp:      # the rows a rank routes are split over tp
        return (f"plan field layout.micro_batch: tp({tp}) must divide the rows a rank routes, "
                f"micro_batch({mb}) * seq({seq}) / cp({cp})")
    if lay.pp > 1 and lay.num_microbatches < lay.pp:
        return f"plan field layout.num_microbatches: {lay.num_microbatches} < pp({lay.pp})"
    return None

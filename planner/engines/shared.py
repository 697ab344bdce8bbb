"""Plan-time rules that Megatron-LM and torchtitan state alike, written once and added to
each engine's own table (planner/engines/<engine>/rules.py) under the same ids."""
from __future__ import annotations

from planner.layout.rules import RuleTable

# Megatron-LM megatron/core/parallel_state.py initialize_model_parallel(order="tp-cp-ep-dp-pp");
# torchtitan torchtitan/distributed/parallel_dims.py:96 unflattens ("pp", "batch", "cp", "tp")
ENGINE_ORDER = "tp-cp-dp-pp"


def add_order(table: RuleTable, engine: str, order: str = ENGINE_ORDER) -> None:
    @table.rule("target.order", "degree", "order", "Megatron and torchtitan lay ranks out tp innermost, then cp, dp, pp")
    def _(x, pr):
        if x.order != order:
            return f"{engine} ranks are ordered {order}, not {x.order}"


def add_master(table: RuleTable, engine: str, master: str) -> None:
    # Megatron keeps bf16 weights + an fp32 master in its optimizer; torchtitan's FSDP2
    # MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32) keeps the fp32 parameter itself
    @table.rule("target.master", "degree", "master", "the master copy is where the engine keeps it")
    def _(x, pr):
        if x.master != master:
            return f"{engine} keeps the master as {master}, not {x.master}"


def add_uniform_fold(table: RuleTable, engine: str) -> None:
    # Megatron-LM --expert-model-parallel-size / --expert-tensor-parallel-size, torchtitan
    # expert_parallel_degree / expert_tensor_parallel_degree: one value each for the whole model
    @table.rule("target.uniform_fold", "layout", "", "Megatron and torchtitan set EP / ETP once: one folding for all stages")
    def _(L, pr):
        folds = sorted({s.fold for s in L.stages})
        if len(folds) > 1:
            shown = ", ".join(f"etp{f[0]} ep{f[1]} edp{f[2]}" for f in folds)
            return f"{engine} runs one expert folding for all stages; the stages use {len(folds)} ({shown})"


def add_recompute(table: RuleTable, form) -> None:
    """`form(layout) -> (flags or None, why or None)`: the engine's recompute.form."""
    @table.rule("target.recompute", "recompute", "", "the per-stage recompute is one the engine's flags can say")
    def _(L, pr):
        return form(L)[1]


def with_stages(layout, per_stage) -> object:
    """The layout with each stage updated by its dict of `per_stage` (same split and folding)."""
    stages = tuple(s.model_copy(update=u) for s, u in zip(layout.stages, per_stage))
    return layout.model_copy(update={"stages": stages})


def no_recompute(layout) -> object:
    return with_stages(layout, [{"recompute_full": 0, "recompute_selective": 0}] * layout.pp)

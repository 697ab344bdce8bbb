"""Plan-time rules that Megatron-LM and torchtitan state alike, written once and added to
each engine's own table (planner/engines/<engine>/rules.py) under the same ids."""
from __future__ import annotations

from typing import Optional

from planner.layout.rules import RuleTable
from planner.layout.values import RECOMPUTE_MODULES

# Megatron-LM megatron/core/parallel_state.py initialize_model_parallel(order="tp-cp-ep-dp-pp");
# torchtitan torchtitan/distributed/parallel_dims.py:96 unflattens ("pp", "batch", "cp", "tp")
ENGINE_ORDER = "tp-cp-dp-pp"


def add_order(table: RuleTable, engine: str, order: str = ENGINE_ORDER) -> None:
    @table.rule("target.order", "degree", "order", "Megatron and torchtitan lay ranks out tp innermost, then cp, dp, pp")
    def _(x, pr):
        if x.order != order:
            return f"{engine} ranks are ordered {order}, not {x.order}"


def add_master(table: RuleTable, engine: str, master: str | tuple[str, ...]) -> None:
    # Megatron keeps bf16 weights + an fp32 master in its optimizer; torchtitan's FSDP2
    # MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32) keeps the fp32 parameter itself, or, with
    # training.dtype = "bfloat16", everything in bf16 (planner.specs.kinds.MASTERS)
    masters = (master,) if isinstance(master, str) else tuple(master)

    @table.rule("target.master", "degree", "master", "the master copy is where the engine keeps it")
    def _(x, pr):
        if x.master not in masters:
            return f"{engine} keeps the master as {' or '.join(masters)}, not {x.master}"


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


# per-op selective AC (torchtitan's SelectiveAC, OLMo-core's selected_ops), as foldplan names it
def _sac() -> tuple:
    return ("op",) if "op" in RECOMPUTE_MODULES else ("core_attn",)


SAC = _sac()


def per_op_selective(L, engine: str) -> tuple[bool, Optional[str]]:
    """For an engine whose selective recompute is per-op AC over every block: (True, None) when the
    layout recomputes that way, (False, why not) when it recomputes selectively some other way, and
    (False, None) when it has no selective recompute."""
    if not any(s.recompute_selective for s in L.stages):
        return False, None
    if any(s.recompute_full for s in L.stages) or any(s.recompute_selective != s.num_layers for s in L.stages):
        return False, f"{engine}'s selective AC is per-op over every block, not over some layers"
    mods = {s.recompute_modules for s in L.stages}
    if mods != {SAC}:
        shown = " / ".join("+".join(m) for m in sorted(mods))
        return False, f"{engine} has no recompute modules {shown} (its selective AC is per-op: module op)"
    return True, None


def add_cp_comm(table: RuleTable, engine: str, comms: tuple, balances: tuple = ("headtail",)) -> None:
    """The CP implementations (planner.specs.kinds.CP_COMMS) and causal balancing the engine runs;
    each engine's rules.py states its sources. A plan with cp > 1 keeps to them (the search plans
    with TrainSpec.cp_comm / cp_balance, which the target's DEFAULTS set)."""
    @table.rule("target.cp_comm", "layout", "", f"{engine} runs CP as {' / '.join(comms)}")
    def _(L, pr):
        if L.cp_ring > 1 and L.cp_comm not in comms:
            return f"{engine} runs the ring part of CP as {' or '.join(comms)}, not cp_comm {L.cp_comm}"
        if L.cp_ring > 1 and L.cp_balance not in balances:
            return f"{engine} balances causal CP as {' or '.join(balances)}, not cp_balance {L.cp_balance}"


def add_dispatch(table: RuleTable, engine: str, dispatchers: tuple, overlap: bool) -> None:
    """EP dispatch: the dispatchers `engine` runs, and whether it overlaps EP
    communication with compute (each engine's rules.py says why, citing its code)."""
    @table.rule("target.dispatcher", "layout", "", f"{engine} runs the dispatchers {', '.join(dispatchers)}")
    def _(L, pr):
        if L.dispatcher not in dispatchers:
            return f"{engine} has no {L.dispatcher} dispatcher (it runs {', '.join(dispatchers)})"

    @table.rule("target.ep_overlap", "layout", "", f"{engine} {'may' if overlap else 'does not'} overlap EP communication")
    def _(L, pr):
        if not overlap and (L.ep_overlap or L.delay_wgrad):
            return f"{engine} has no EP communication overlap (ep_overlap / delay_wgrad)"

"""The engines foldplan plans for and reads: one folder per engine (megatron/, torchtitan/, olmo_core/, deepspeed/,
and bundle/ for foldplan's own bundle). Each owns one rule table (`rules.py`: the `target.*` rules a
plan for it keeps and the start-up rules its own code checks), its recompute forms (`recompute.py`),
its flag vocabulary, its config reader and its exporter.

What a target constrains reaches the solver as a value, `EngineConstraints` (`constraints(target)`),
never as a target string: a fixed rank order or none, one expert folding for all stages or per stage,
one recompute form for the model or per stage, the engine's degree / fold / layout rules, and its
search defaults. This package imports planner.layout (and below) only: the search that keeps to a
target is planner.solve.targets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping, Optional

from planner.engines.shared import ENGINE_ORDER
from planner.layout.rules import TABLE, RuleTable, Violation, violations as _layout_violations
from planner.layout.values import Layout
from planner.specs.kinds import ENGINES, TARGETS

# the one list of engines is planner.specs.kinds.ENGINES (the specs' `target` Literal reads it too):
# `--target` takes TARGETS, `export --to` EXPORTS, the audit reads READ_FORMATS (DeepSpeed's JSON
# besides, for its start-up rules)
EXPORTS = (*ENGINES, "torchtitan-0.2")   # torchtitan 0.2's TOML on request (0.3, the current release, is "torchtitan")
READ_FORMATS = (*ENGINES, "deepspeed")
__all__ = ["ENGINES", "EXPORTS", "READ_FORMATS", "TARGETS", "EngineConstraints", "constraints"]


@dataclass(frozen=True)
class EngineConstraints:
    """What running on one engine constrains (the search reads this, not a target string)."""
    name: str
    order: Optional[str]                    # the rank order the engine lays out; None = any
    uniform_fold: bool                      # one expert folding (etp, ep, edp) for every stage
    one_recompute_form: bool                # one recompute form for the model (Megatron's flags)
    rules: RuleTable                        # the engine's own table (planner/engines/<engine>/rules.py)
    defaults: Mapping                       # TrainSpec fields of its search (train_defaults)
    recompute_form: Callable = field(repr=False)      # (layout) -> (flags or None, why not or None)
    recompute_forms: Callable = field(repr=False)     # (problem, layout) -> [layouts it can say]
    model_defaults: Optional[Callable] = field(default=None, repr=False)   # (model, gpu) -> TrainSpec fields
    # (problem) -> TrainSpec updates, one search per recompute form the engine can say, each a
    # restriction of the stage model's own choices; None where the forms are not such a set
    recompute_searches: Optional[Callable] = field(default=None, repr=False)
    # (train) -> TrainSpec updates the engine's own checks need of the search (Megatron: no moe_act /
    # layernorm recompute under delayed scaling); None where it needs none
    narrow: Optional[Callable] = field(default=None, repr=False)
    plan_rules: RuleTable = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        merged = RuleTable()
        for r in (*TABLE.rules.values(), *(r for r in self.rules.rules.values() if r.scope != "startup")):
            merged.rule(r.id, r.scope, " ".join(sorted(r.needs)), r.what)(r.check)
        object.__setattr__(self, "plan_rules", merged)

    def train_defaults(self, model=None, gpu=None) -> dict:
        """TrainSpec fields of this target's search (the CLI's flags override them); an engine whose
        defaults depend on the model and GPU (OLMo-core: its MoE and dense train modules, its flash_2
        attention) adds those of `model` on `gpu`."""
        out = dict(self.defaults)
        if self.model_defaults is not None and model is not None:
            out.update(self.model_defaults(model, gpu))
        return out

    def degree_violations(self, problem, scope: str = "degree", **fields) -> list[Violation]:
        """planner.layout's rules and this engine's, of `scope`, whose fields are all given."""
        return self.plan_rules.degree_violations(problem, scope, **fields)

    def violations(self, layout: Layout, problem) -> list[Violation]:
        """Every rule the layout breaks on this engine, its recompute form included."""
        out = _layout_violations(layout, problem, self.plan_rules)
        for r in self.plan_rules.select("recompute"):
            msg = r.check(layout, problem)
            if msg:
                out.append(Violation(r.id, msg))
        return out

    def runs_on(self, layout: Layout, problem) -> list[Violation]:
        """What keeps this engine from running `layout` (its own rules only)."""
        return [v for v in self.violations(layout, problem) if v.rule in self.rules.rules]

    def fold_filter(self, problem) -> Optional[Callable]:
        """The engine's fold rules as planner.solve.search's fold filter (None when it has none)."""
        if not self.rules.select("fold", frozenset(("tp", "cp", "dp", "etp", "ep", "edp"))):
            return None
        seen: dict = {}                          # the fold rules read only these six degrees

        def keep(tu, f) -> bool:
            key = (tu.tp, tu.cp, tu.dp, *f)
            if key not in seen:
                seen[key] = not self.degree_violations(problem, "fold", tp=tu.tp, cp=tu.cp, dp=tu.dp,
                                                       etp=f[0], ep=f[1], edp=f[2])
            return seen[key]
        keep.tuple_key = lambda tu: (tu.tp, tu.cp, tu.dp)      # planner.solve.space.tables: one fold list per value
        return keep


def _build(target: str) -> EngineConstraints:
    if target == "megatron":
        from planner.engines.megatron import recompute, rules
        return EngineConstraints("megatron", ENGINE_ORDER, True, True, rules.RULES,
                                 MappingProxyType(rules.DEFAULTS), recompute.form, recompute.forms,
                                 narrow=rules.narrow)
    if target == "torchtitan":
        from planner.engines.torchtitan import recompute, rules
        return EngineConstraints("torchtitan", ENGINE_ORDER, True, False, rules.RULES,
                                 MappingProxyType(rules.DEFAULTS), recompute.form, recompute.forms,
                                 recompute_searches=recompute.searches)
    if target == "olmo-core":
        from planner.engines.olmo_core import recompute, rules
        return EngineConstraints("olmo-core", ENGINE_ORDER, True, False, rules.RULES,
                                 MappingProxyType(rules.DEFAULTS), recompute.form, recompute.forms,
                                 rules.model_defaults)
    if target == "deepspeed":
        from planner.engines.deepspeed import rules
        return EngineConstraints("deepspeed", None, False, False, rules.RULES, MappingProxyType(rules.DEFAULTS),
                                 lambda L: ({}, None), lambda problem, L: [L])
    if target == "bundle":
        from planner.engines.bundle import rules
        return EngineConstraints("bundle", None, False, False, rules.RULES, MappingProxyType(rules.DEFAULTS),
                                 lambda L: ({}, None), lambda problem, L: [L])
    raise ValueError(f"unknown target {target!r} (known: {', '.join(TARGETS)})")


_BUILT: dict[str, EngineConstraints] = {}


def constraints(target: str) -> EngineConstraints:
    """The constraints of `target` (one of TARGETS; "deepspeed" for its start-up rules)."""
    if target not in _BUILT:
        _BUILT[target] = _build(target)
    return _BUILT[target]

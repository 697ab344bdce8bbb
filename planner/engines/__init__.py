"""The engines foldplan plans for and reads: one folder per engine (megatron/, torchtitan/, olmo_core/, deepspeed/,
and bundle/ for foldplan's own bundle). Each folder declares its `Engine` record (planner/engines/record.py:
name, rule table, recompute forms, reader, exporters, judges) in its `__init__.py`, and REGISTRY lists the
records once: code that needs "every engine" iterates it (`targets()`, `exports()`, `read_formats()`,
`engine(name)`). Each owns one rule table (`rules.py`: the `target.*` rules a plan for it keeps and the
start-up rules its own code checks), its recompute forms (`recompute.py`), its flag vocabulary, its config
reader and its exporters.

What a target constrains reaches the solver as a value, `EngineConstraints` (`constraints(target)`),
never as a target string: a fixed rank order or none, one expert folding for all stages or per stage,
one recompute form for the model or per stage, the engine's degree / fold / layout rules, and its
search defaults. The rank order and the one folding are read from the engine's rule table, never
restated. This package imports planner.layout (and below) only: the search that keeps to a target is
planner.solve.targets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType, SimpleNamespace
from typing import Callable, Mapping, Optional

from planner.engines import bundle, deepspeed, megatron, olmo_core, torchtitan
from planner.engines.record import Engine, Export
from planner.layout.rules import TABLE, RuleTable, Violation, violations as _layout_violations
from planner.layout.values import ORDERS, Layout
from planner.specs import kinds

# THE list of engines: one line per engine folder (the order is that of reports and --help)
REGISTRY: tuple[Engine, ...] = (bundle.ENGINE, megatron.ENGINE, torchtitan.ENGINE, olmo_core.ENGINE, deepspeed.ENGINE)


def engine(name: str) -> Engine:
    """The record of engine `name` (one of REGISTRY)."""
    for e in REGISTRY:
        if e.name == name:
            return e
    raise ValueError(f"unknown engine {name!r} (known: {', '.join(e.name for e in REGISTRY)})")


def targets() -> tuple[str, ...]:
    """What `--target` takes: the engines the search plans for."""
    return tuple(e.name for e in REGISTRY if e.target)


def exports() -> tuple[Export, ...]:
    """What `export --to` takes, every engine's exporters in REGISTRY order."""
    return tuple(x for e in REGISTRY for x in e.exports)


def export_of(name: str) -> tuple[Engine, Export]:
    """The engine and exporter of `export --to name` (ValueError naming the known ones)."""
    for e in REGISTRY:
        for x in e.exports:
            if x.name == name:
                return e, x
    raise ValueError(f"unknown engine {name!r} (known: {', '.join(x.name for x in exports())})")


def read_formats() -> tuple[str, ...]:
    """The engines whose configs `foldplan audit` reads (each has a `reader` module)."""
    return tuple(e.name for e in REGISTRY if e.reader)


# the specs validate `target` below this layer (planner.specs.kinds.TARGETS names the targets for the
# TrainSpec Literal); the two halves of the list must agree
if targets() != kinds.TARGETS:
    raise ImportError(f"planner.specs.kinds.TARGETS {kinds.TARGETS} != the targets of planner.engines.REGISTRY "
                      f"{targets()}: name a new target in both")
# the engines a plan can be handed to (every target but foldplan's own bundle)
ENGINES = tuple(e.name for e in REGISTRY if e.target and not e.own)
TARGETS = targets()
EXPORTS = tuple(x.name for x in exports())
READ_FORMATS = read_formats()
__all__ = ["ENGINES", "EXPORTS", "READ_FORMATS", "REGISTRY", "TARGETS", "Engine", "EngineConstraints", "Export",
           "constraints", "engine", "export_of", "exports", "read_formats", "targets"]


@dataclass(frozen=True)
class EngineConstraints:
    """What running on one engine constrains (the search reads this, not a target string)."""
    name: str
    order: Optional[str]                    # the rank order the engine lays out; None = any (its rule target.order)
    uniform_fold: bool                      # one expert folding (etp, ep, edp) for every stage (target.uniform_fold)
    one_recompute_form: bool                # one recompute form for the model (Megatron's flags)
    rules: RuleTable                        # the engine's own table (planner/engines/<engine>/rules.py)
    defaults: Mapping                       # TrainSpec fields of its search (train_defaults)
    recompute_form: Callable = field(repr=False)      # (layout) -> (flags or None, why not or None)
    recompute_forms: Callable = field(repr=False)     # (problem, layout) -> [layouts it can say]
    model_defaults: Optional[Callable] = field(default=None, repr=False)   # (model, gpu) -> TrainSpec fields
    # (problem) -> TrainSpec updates, one search per recompute form the engine can say, each a
    # restriction of the stage model's own choices; None where the forms are not such a set
    recompute_searches: Optional[Callable] = field(default=None, repr=False)
    own: bool = False                       # foldplan's own bundle: the plain search
    # one recompute form for the model (Megatron's --recompute-num-layers N per chunk): the N worth trying,
    # (n_max, vpp) -> range, and the layers of an n-layer stage that N recomputes, (n, N, vpp) -> int or None
    block_counts: Optional[Callable] = field(default=None, repr=False)
    block_full: Optional[Callable] = field(default=None, repr=False)
    # (precision) -> why the engine does not build that precision's linears, or None; None: it builds all
    precision_error: Optional[Callable] = field(default=None, repr=False)
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


def rank_order(rules: RuleTable) -> Optional[str]:
    """The one rank order the table's `target.order` rule keeps (None: no such rule, any order)."""
    r = rules.rules.get("target.order")
    if r is None:
        return None
    kept = [o for o in ORDERS if r.check(SimpleNamespace(order=o), None) is None]
    if len(kept) != 1:
        raise ValueError(f"rule target.order keeps {len(kept)} rank orders ({', '.join(kept)}), not one")
    return kept[0]


def _build(e: Engine) -> EngineConstraints:
    rules = e.part("rules")
    if e.recompute:
        rc = e.part("recompute")
        form, forms, searches = rc.form, rc.forms, getattr(rc, "searches", None)
        blocks = (rc.block_counts, rc.block_full) if e.one_recompute_form else (None, None)
    else:                                   # recompute per stage, as the planner's own table allows
        form, forms, searches = (lambda L: ({}, None)), (lambda problem, L: [L]), None
        blocks = (None, None)
    return EngineConstraints(e.name, rank_order(rules.RULES), "target.uniform_fold" in rules.RULES.rules,
                             e.one_recompute_form, rules.RULES, MappingProxyType(rules.DEFAULTS), form, forms,
                             getattr(rules, "model_defaults", None), searches, own=e.own,
                             precision_error=getattr(rules, "precision_error", None), block_counts=blocks[0],
                             block_full=blocks[1], narrow=getattr(rules, "narrow", None))


_BUILT: dict[str, EngineConstraints] = {}


def constraints(target: str) -> EngineConstraints:
    """The constraints of `target` (an engine of REGISTRY: a target, or a read-only one for its start-up rules)."""
    if target not in _BUILT:
        if not any(e.name == target for e in REGISTRY):
            raise ValueError(f"unknown target {target!r} (known: {', '.join(targets())})")
        _BUILT[target] = _build(engine(target))
    return _BUILT[target]

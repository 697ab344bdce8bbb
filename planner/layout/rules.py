"""The rule table: every identity and framework-independent rule a layout must keep.

Each rule has a stable id (what the audit, the CLI and the tests name), the fields it
reads, and a check that returns None or one line showing the arithmetic. Three scopes:

* degree rules read only degrees (`tp`, `cp`, ...): the search space applies them while
  it enumerates, as soon as the fields a rule reads are fixed;
* fold rules read one stage's expert folding (`etp`, `ep`): the search space applies
  them to every candidate folding;
* stage rules read a whole stage (its layers, recompute) and run in `violations`.

`violations(layout, problem)` runs all of them once; each broken rule is reported once.
What an engine adds (its `target.*` rules and its start-up checks) is a `RuleTable` of its own,
in planner/engines/<engine>/rules.py; this table knows no engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable, Optional

from planner.layout.divisibility import local_heads, seq_divisor, ulysses_divides
from planner.layout.values import Layout, LayoutError
from planner.specs.kinds import cp_kind_of


class Violation(str):
    """One broken rule: the message (a str, so it prints and compares as one), plus `.rule`."""
    rule: str

    def __new__(cls, rule: str, message: str):
        obj = super().__new__(cls, message)
        obj.rule = rule
        return obj

    @property
    def message(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Rule:
    id: str
    scope: str                         # "degree" | "fold" | "stage" | "layout"; engines add "recompute", "startup"
    needs: frozenset                   # fields it reads (degree / fold rules)
    what: str                          # one line: the rule in words
    check: Callable                    # (x, problem) -> Optional[str]  (stage: (stage, layout, problem))


class RuleTable:
    """Rules by stable id, in the order they were added, and the runners that apply them:
    planner.layout's identities here, each engine's own in planner/engines/<engine>/rules.py."""

    def __init__(self):
        self.rules: dict[str, Rule] = {}
        self._selected: dict = {}

    def rule(self, rule_id: str, scope: str, needs: str, what: str):
        """Decorator: add the check as rule `rule_id` (ids are unique across the table)."""
        def add(fn):
            if rule_id in self.rules:
                raise ValueError(f"rule {rule_id} is added twice")
            self.rules[rule_id] = Rule(rule_id, scope, frozenset(needs.split()), what, fn)
            self._selected.clear()
            return fn
        return add

    def select(self, scope: str, known: frozenset = frozenset()) -> tuple:
        """The rules of `scope` whose fields are all in `known`, in table order."""
        key = (scope, known)
        if key not in self._selected:
            self._selected[key] = tuple(r for r in self.rules.values() if r.scope == scope and r.needs <= known)
        return self._selected[key]

    def degree_violations(self, problem, scope: str = "degree", **fields) -> list[Violation]:
        """Violations of the rules of `scope` ("degree" or "fold") whose fields are all given
        (the search space calls this with partial degrees while it enumerates)."""
        if "cp_kind" not in fields and "cp_ulysses" in fields and "cp_ring" in fields:
            fields["cp_kind"] = cp_kind_of(fields["cp_ulysses"], fields["cp_ring"])   # the kind a split is
        x = SimpleNamespace(**fields)
        out = []
        for r in self.select(scope, frozenset(fields)):
            msg = r.check(x, problem)
            if msg:
                out.append(Violation(r.id, msg))
        return out

    def violations(self, layout: Layout, problem) -> list[Violation]:
        """Every degree, fold, stage and layout rule of this table the layout breaks, each once."""
        L = layout
        out = self.degree_violations(problem, **{k: getattr(L, k) for k in LAYOUT_FIELDS})
        for s in L.stages:
            for v in self.degree_violations(problem, "fold", etp=s.etp, ep=s.ep, edp=s.edp, tp=L.tp, cp=L.cp, dp=L.dp):
                out.append(Violation(v.rule, _prefix(v, s)))
            for r in self.select("stage"):
                msg = r.check(s, L, problem)
                if msg:
                    out.append(Violation(r.id, msg))
        for r in self.select("layout"):
            msg = r.check(L, problem)
            if msg:
                out.append(Violation(r.id, msg))
        return out


# the Layout fields a degree rule may read
LAYOUT_FIELDS = ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "micro_batch",
                 "num_microbatches", "order", "sharding", "master")
# the Layout fields a point of the search (a degree tuple: planner.solve) fixes; the others
# are the job's (world, master, CP implementation and balancing) or the stages'
POINT_FIELDS = ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "order", "micro_batch",
                "num_microbatches", "sharding")


def layout_of(point, problem, stages) -> Layout:
    """The Layout of a search point (any value with the POINT_FIELDS) and its `stages`, in the
    job of `problem` (the search's tables, its CP-SAT answer, the brute force's points)."""
    tr = problem.train
    return Layout(world=problem.cluster.gpus, **{k: getattr(point, k) for k in POINT_FIELDS}, master=tr.master,
                  cp_comm=tr.cp_comm, cp_balance=tr.cp_balance, stages=tuple(stages))

TABLE = RuleTable()
RULES: dict[str, Rule] = TABLE.rules
_rule = TABLE.rule


# --------------------------------------------------------------------------- degrees

@_rule("world.product", "degree", "world tp cp dp pp", "world = tp * cp * dp * pp")
def _(x, pr):
    prod = x.tp * x.cp * x.dp * x.pp
    if prod != x.world:
        return f"tp({x.tp}) * cp({x.cp}) * dp({x.dp}) * pp({x.pp}) = {prod} != world({x.world})"


@_rule("world.cluster", "degree", "world", "the layout's world is the cluster's GPU count")
def _(x, pr):
    if x.world != pr.cluster.gpus:
        return f"layout world({x.world}) != cluster gpus({pr.cluster.gpus})"


@_rule("tp.heads", "degree", "tp", "tp divides the attention heads")
def _(x, pr):
    if pr.model.heads % x.tp:
        return f"tp({x.tp}) does not divide heads({pr.model.heads})"


@_rule("tp.kv_heads", "degree", "tp", "tp and the kv heads divide one another (divide, or replicate)")
def _(x, pr):
    m = pr.model
    if m.attention == "gqa" and m.kv_heads % x.tp and x.tp % m.kv_heads:
        return f"tp({x.tp}) and kv_heads({m.kv_heads}) must divide one another"


@_rule("pp.layers", "degree", "pp vpp", "every virtual stage holds at least one layer: pp * vpp <= layers")
def _(x, pr):
    if x.pp * x.vpp > pr.model.layers:
        return f"pp({x.pp}) * vpp({x.vpp}) = {x.pp * x.vpp} > layers({pr.model.layers})"


@_rule("cp.split", "degree", "cp cp_ulysses cp_ring", "cp = cp_ulysses * cp_ring")
def _(x, pr):
    if x.cp_ulysses * x.cp_ring != x.cp:
        return f"cp_ulysses({x.cp_ulysses}) * cp_ring({x.cp_ring}) != cp({x.cp})"


@_rule("cp.ulysses_heads", "degree", "tp cp_ulysses", "Ulysses' part of cp divides heads / tp")
def _(x, pr):
    heads = pr.model.heads
    per_tp = local_heads(heads, x.tp)
    if not ulysses_divides(x.cp_ulysses, per_tp):
        return f"Ulysses cp_ulysses({x.cp_ulysses}) does not divide heads/tp({heads}/{x.tp}={per_tp})"


@_rule("cp.ring_seq", "degree", "cp_ring", "zig-zag ring CP needs 2 * cp_ring | seq")
def _(x, pr):
    s, d = pr.train.seq, seq_divisor(x.cp_ring, chunks=2, sequence_parallel=False)
    if s % d:
        return f"zig-zag ring needs 2*cp_ring({d}) | seq({s}): {s} % {d} = {s % d}"


@_rule("cp.seq_tp", "degree", "cp tp", "seq divides over cp (times tp under sequence parallel)")
def _(x, pr):
    t = pr.train
    if x.cp > 1 and t.seq % seq_divisor(x.cp, x.tp, chunks=1, sequence_parallel=t.sequence_parallel):
        return f"seq({t.seq}) is not divisible by cp({x.cp})*tp({x.tp})"


@_rule("cp.kind_allowed", "degree", "cp_kind cp", "the CP kind is one train.cp_kinds allows")
def _(x, pr):
    if x.cp > 1 and x.cp_kind not in pr.train.cp_kinds:
        return f"cp_kind {x.cp_kind} is not allowed by train.cp_kinds {list(pr.train.cp_kinds)}"


@_rule("batch.product", "degree", "dp micro_batch num_microbatches", "dp * micro_batch * micro-batches = batch")
def _(x, pr):
    per_step, gb = x.dp * x.micro_batch * x.num_microbatches, pr.train.global_batch
    if per_step != gb:
        return (f"dp({x.dp}) * micro_batch({x.micro_batch}) * num_microbatches({x.num_microbatches}) "
                f"= {per_step} != global batch({gb} sequences)")


@_rule("vpp.pp", "degree", "vpp pp", "interleaving (vpp > 1) needs pp >= 2")
def _(x, pr):
    if x.vpp > 1 and x.pp < 2:
        return f"vpp({x.vpp}) > 1 needs pp >= 2 (pp={x.pp})"


@_rule("vpp.microbatches", "degree", "vpp pp num_microbatches", "interleaving needs pp | micro-batches")
def _(x, pr):
    if x.vpp > 1 and x.num_microbatches % x.pp:
        return f"interleaved schedule needs pp({x.pp}) | num_microbatches({x.num_microbatches})"


# --------------------------------------------------------------------------- folding

@_rule("fold.ep_experts", "fold", "ep", "ep divides the routed experts")
def _(x, pr):
    moe = pr.model.moe
    if moe is not None and moe.experts % x.ep:
        return f"ep({x.ep}) does not divide experts({moe.experts})"


@_rule("fold.etp_ffn", "fold", "etp", "etp divides the expert FFN width")
def _(x, pr):
    moe = pr.model.moe
    if moe is not None and moe.expert_ffn_hidden % x.etp:
        return f"etp({x.etp}) does not divide expert_ffn_hidden({moe.expert_ffn_hidden})"


@_rule("fold.dense", "fold", "etp ep", "a dense model has no expert parallelism")
def _(x, pr):
    if pr.model.moe is None and (x.ep, x.etp) != (1, 1):
        return f"dense model, but ep({x.ep}) / etp({x.etp}) set"


# --------------------------------------------------------------------------- stages

def model_modules(m) -> dict[str, bool]:
    """Which recompute modules (RECOMPUTE_MODULES) the model has: "op" is torchtitan's per-op AC."""
    return {"core_attn": True, "layernorm": True, "mlp": not all(m.moe_layers()), "moe": m.is_moe,
            "moe_act": m.is_moe, "shared_experts": bool(m.moe and m.moe.shared_experts),
            "mla_up_proj": m.attention == "mla", "op": True}


@_rule("stage.position", "stage", "", "stage i is listed i-th")
def _(s, L, pr):
    pos = L.stages.index(s)
    if s.index != pos:
        return f"stage {s.index} is listed at position {pos}"


@_rule("stage.contiguous", "stage", "", "stages are contiguous: each starts where the previous ends")
def _(s, L, pr):
    pos = L.stages.index(s)
    expect = L.stages[pos - 1].layers[1] if pos else 0
    if s.layers[0] != expect:
        return f"stage {s.index} starts at layer {s.layers[0]}, expected {expect} (stages must be contiguous)"


@_rule("stage.min_layers", "stage", "", "each stage holds at least one layer per virtual chunk")
def _(s, L, pr):
    if s.num_layers < max(1, L.vpp):
        return f"stage {s.index} has {s.num_layers} layers, needs >= {max(1, L.vpp)} (one per virtual chunk)"


@_rule("stage.folding", "stage", "", "folding: tp * cp * dp = etp * ep * edp in every stage")
def _(s, L, pr):
    fold = s.etp * s.ep * s.edp
    if fold != L.stage_ranks:
        return (f"stage {s.index}: folding etp({s.etp}) * ep({s.ep}) * edp({s.edp}) = {fold} "
                f"!= tp({L.tp}) * cp({L.cp}) * dp({L.dp}) = {L.stage_ranks}")


@_rule("stage.recompute_count", "stage", "", "recomputed layers are layers of the stage")
def _(s, L, pr):
    if s.recompute_full + s.recompute_selective > s.num_layers:
        return (f"stage {s.index}: recompute_full({s.recompute_full}) + recompute_selective({s.recompute_selective}) "
                f"> layers({s.num_layers})")


@_rule("stage.recompute_allowed", "stage", "", "the stage's recompute kinds are allowed by train.recompute")
def _(s, L, pr):
    allowed = pr.train.recompute
    bad = [k for k, n in (("full", s.recompute_full), ("selective", s.recompute_selective)) if n and k not in allowed]
    if bad:
        return f"stage {s.index}: {' and '.join(bad)} recompute is not allowed by train.recompute {list(allowed)}"


@_rule("stage.recompute_modules", "stage", "", "each recomputed module exists in the model")
def _(s, L, pr):
    m = pr.model
    has = model_modules(m)
    bad = [x for x in s.recompute_modules if not has[x]] if s.recompute_selective else []
    if bad:
        return f"stage {s.index}: recompute module {', '.join(bad)} does not exist in {m.name}"


# --------------------------------------------------------------------------- running them

def degree_violations(problem, scope: str = "degree", **fields) -> list[Violation]:
    """Violations of planner.layout's rules of `scope` whose fields are all given."""
    return TABLE.degree_violations(problem, scope, **fields)


def _prefix(msg: str, s) -> str:
    return msg if msg.startswith("stage ") else f"stage {s.index}: {msg}"


def violations(layout: Layout, problem, table: Optional[RuleTable] = None) -> list[Violation]:
    """Every rule the layout breaks, each once, as one line with the arithmetic (empty = legal);
    `table`: a table holding this one's rules and more (an engine's: planner.engines)."""
    out = (table or TABLE).violations(layout, problem)
    # a degree rule that a stage rule restates (pp * vpp > layers vs a stage too short) once
    if any(v.rule == "pp.layers" for v in out) and any(v.rule == "stage.min_layers" for v in out):
        out = [v for v in out if v.rule != "stage.min_layers"]
    return out


@_rule("stages.cover", "layout", "", "the stages cover every layer of the model")
def _(L, pr):
    end = L.stages[-1].layers[1] if L.stages else 0
    if end != pr.model.layers:
        return f"stages cover layers [0, {end}), model has {pr.model.layers}"


def check(layout: Layout, problem, table: Optional[RuleTable] = None) -> None:
    """Raise LayoutError (one line, every broken rule) unless the layout is legal (under `table`:
    an engine's rules too)."""
    bad = violations(layout, problem, table)
    if bad:
        raise LayoutError("; ".join(bad))


def kv_heads_note(layout: Layout, problem) -> str:
    """How kv heads are spread: divided over tp*cp_ulysses, or replicated."""
    m = problem.model
    if m.attention != "gqa":
        return "MLA: the compressed KV latent is per token; heads are materialised per rank"
    split = layout.tp * layout.cp_ulysses
    if m.kv_heads % split == 0:
        return f"kv_heads({m.kv_heads}) divided over tp*cp_ulysses({split}): {m.kv_heads // split} per rank"
    return f"kv_heads({m.kv_heads}) < tp*cp_ulysses({split}): each kv head replicated {split // m.kv_heads}x"


def rule_of(message: str) -> Optional[str]:
    """The id of the rule a message came from (for readers that only kept the text)."""
    return getattr(message, "rule", None)

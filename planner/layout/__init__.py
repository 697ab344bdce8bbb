"""Layout: the parallel degrees of a plan, its rank order, and its per-stage split.

Five modules, one job each, and everything else imports from here:

* `values` — `Layout` / `Stage` (the degrees, the sharding, the per-stage split and
  recompute) and small constructors;
* `placement` — the one rule for which layers each pipeline rank and virtual chunk runs,
  which layers each recompute kind takes, and the micro-batches in flight (read through
  `Layout`'s properties);
* `rules`  — the one rule table: every identity and framework-independent rule, with a
  stable id and a one-line message that shows the arithmetic;
* `divisibility` — the one statement of Ulysses' head division and of the sequence divisor,
  which every rule table (this one and each engine's) calls with its own factors;
* `grid`   — the one rank grid: strides from the rank order, every group of every rank,
  and whether a group stays inside an NVLink domain (scalar and vectorised).

`foreign` holds the neutral ForeignConfig every config reader returns (in these axis names),
and `strings` reads an inline layout string into one.

Short axis names, as in DESIGN.md:

    tp  tensor parallel         cp  context parallel       dp  data parallel
    pp  pipeline stages         vpp virtual stages/rank
    etp expert tensor parallel  ep  expert model parallel  edp expert data parallel
"""
from planner.layout.values import (CP_KINDS, DENSE_AXES, MASTERS, ORDERS, RECOMPUTE_MODULES, SHARDINGS, Layout,
                                   LayoutError, Stage, cp_split, uniform_stages)
from planner.layout.placement import Placement, RankPlacement, chunk_sizes
from planner.layout.rules import RULES, RuleTable, Violation, check, degree_violations, kv_heads_note, violations
from planner.layout.grid import Group, RankGrid, dense_strides, domain_of

__all__ = ["CP_KINDS", "DENSE_AXES", "MASTERS", "ORDERS", "RECOMPUTE_MODULES", "SHARDINGS", "Layout", "LayoutError",
           "Stage", "cp_split", "uniform_stages", "Placement", "RankPlacement", "chunk_sizes", "RULES", "RuleTable", "Violation", "check", "degree_violations", "kv_heads_note",
           "violations", "Group", "RankGrid", "dense_strides", "domain_of"]

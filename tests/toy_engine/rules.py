"""The toy engine's one rule table: it runs no pipeline (a plan-time rule) and wants an even world (a
start-up rule the audit runs on its configs)."""
from typing import Optional

from planner.engines.findings import err
from planner.layout.foreign import Finding, ForeignConfig
from planner.layout.rules import RuleTable

RULES = RuleTable()
DEFAULTS: dict = {}


@RULES.rule("target.toy_pp", "degree", "pp", "the toy engine runs no pipeline")
def _(x, pr):
    if x.pp != 1:
        return f"the toy engine runs pp 1 only, not pp({x.pp})"


@RULES.rule("toy.even_world", "startup", "", "the toy engine wants an even world")
def _(c: ForeignConfig) -> Optional[Finding]:
    if c.world is not None and c.world % 2:
        return err("toy.even_world", f"{c.path}: world({c.world}) is odd", "use an even number of GPUs")

"""Small helpers the engines' start-up rules share: a finding of each severity, and the
arithmetic their fixes print (the next multiple, the divisors to choose from)."""
from __future__ import annotations

from planner.layout.foreign import Finding, ForeignConfig


def err(rule: str, message: str, fix: str) -> Finding:
    return Finding("error", rule, message, fix)


def warn(rule: str, message: str, fix: str) -> Finding:
    return Finding("warning", rule, message, fix)


def up(x: int, d: int) -> int:
    """The smallest multiple of ``d`` that is >= ``x``."""
    return -(-x // d) * d


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def moe(cfg: ForeignConfig) -> dict:
    return cfg.model.get("moe") or {}


def degrees(c: ForeignConfig) -> tuple:
    """(tp, pp, cp, ep, etp, world) of a config, 1 where it does not say (world: None)."""
    return c.tp or 1, c.pp or 1, c.cp or 1, c.ep or 1, c.etp or 1, c.world

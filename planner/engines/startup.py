"""The rules each framework enforces at start-up, checked before a single GPU is booked.

``framework_rules(cfg, world)`` runs the ``startup`` rules of the config's engine, from that
engine's one rule table (planner/engines/<engine>/rules.py, each rule citing the engine's code),
and returns ``Finding``s with stable rule ids (``<framework>.<check>``). Each message shows the
arithmetic, each finding has a one-line fix. The identities every layout satisfies (world
product, folding, heads / tp, ep | experts, CP splits, ...) are not re-checked here:
``audit.run_audit`` reports the violations of planner.layout's one rule table, each once, with its id.

A rule whose inputs are unknown (``None``) is skipped, not guessed.
"""

from __future__ import annotations

from typing import Iterator

from planner import engines
from planner.layout.foreign import Finding, ForeignConfig


def framework_rules(cfg: ForeignConfig, world: int | None = None) -> list[Finding]:
    """Every framework rule that ``cfg`` breaks, plus notes; ``world`` overrides ``cfg.world``."""
    if world is not None and world != cfg.world:
        cfg = with_world(cfg, world)
    out: list[Finding] = []
    if cfg.format in engines.read_formats():        # a foldplan plan or a layout string has no start-up rules
        for r in engines.constraints(cfg.format).rules.select("startup"):
            found = r.check(cfg)
            if found is not None:
                out.append(found)
    out.extend(_notes(cfg))
    return out


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """Re-derive the degrees a framework computes from the world size (each engine's reader says how)."""
    if cfg.format in engines.read_formats():
        return engines.engine(cfg.format).part("reader").with_world(cfg, world)
    return cfg.replace(world=world)


# ---------------------------------------------------------------------------
# for every format
# ---------------------------------------------------------------------------


def _notes(c: ForeignConfig) -> Iterator[Finding]:
    if c.world is None:
        yield Finding("info", "audit.world_unknown",
                      f"{c.path}: the number of GPUs is not known, so dp and edp are not either",
                      "pass --gpus N")
    if c.unknown_flags:
        yield Finding("info", f"{c.format}.unknown_flags",
                      f"{c.path}: ignored {len(c.unknown_flags)} setting(s) that change neither the layout, the "
                      f"memory nor the time the audit estimates: {', '.join(c.unknown_flags)}",
                      "nothing to do unless one of them changes the parallel layout, memory or time")

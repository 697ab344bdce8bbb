"""OLMo-core's training scripts as `foldplan audit` meets them: which files are its (`claims`: Python naming
olmo_core), reading one (`load`: from its syntax tree, never run), its degrees at another world size."""
from __future__ import annotations

import re

import planner.engines.olmo_core.read as read
from planner.engines.record import IMPORTS, NO

with_world = read.with_world


def claims(suffix: str, text: str) -> int:
    return IMPORTS if suffix == ".py" and re.search(r"\bolmo_core\b", text) else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict):
    return read.parse(text, source, world=world)

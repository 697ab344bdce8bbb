"""The audit's vocabulary of inputs: the config formats `foldplan audit --format` takes (the CLI's
parser reads them from the engines' records without loading the readers)."""
from __future__ import annotations

from planner import engines


def formats() -> tuple[str, ...]:
    """auto (told from the file's name and contents, planner.audit.detect), every engine's reader
    (planner.engines.read_formats()), a foldplan plan, an inline layout string."""
    return ("auto", *engines.read_formats(), "foldplan", "layout")


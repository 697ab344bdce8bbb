"""Argument files: flags only, no commands, read as ``$(cat FILE)`` or xargs hand them over."""
from __future__ import annotations

import shlex

from planner.shell import Field, Shell, ShellSyntaxError


def interpret_args(text: str, env: dict[str, str] | None = None, pinned: dict[str, str] | None = None) -> Shell:
    """An argument file (one or more flags a line, no commands): its words as one command.

    Such a file is handed over as ``$(cat FILE)`` or ``xargs``: no pipes, separators or
    parentheses, so ``--pipeline-model-parallel-layout Et|(tt|)*30mL`` is one word. Quotes
    group words (as xargs reads them), ``#`` starts a comment, a trailing backslash is a
    continuation, and ``$NAME`` / ``${NAME}`` are filled from ``env`` (``--env``).
    """
    sh = Shell(env={**(env or {}), **(pinned or {})}, pinned=frozenset(pinned or ()))
    fields: list[Field] = []
    for n, row in enumerate(text.splitlines(), 1):
        row = row.rstrip()
        row = row[:-1] if row.endswith("\\") else row
        try:
            words = shlex.split(_without_comment(row))
        except ValueError as e:
            raise ShellSyntaxError(n, f"argument file: {e}") from None
        fields.extend(Field(sh.expand_text(w, n) if "$" in w else w, n) for w in words)
    sh.commands.append(fields)
    sh.command_env.append({})
    return sh


def is_argument_file(text: str, suffix: str) -> bool:
    """An argument file: a ``.args`` file, or text whose every line (comments aside) starts with ``-``."""
    rows = [r.strip() for r in text.splitlines() if r.strip() and not r.strip().startswith("#")]
    return suffix == ".args" or bool(rows) and all(r.startswith("-") for r in rows)


def _without_comment(row: str) -> str:
    """The row up to a ``#`` that begins a word outside quotes (``/data#1`` keeps its ``#``, as in bash)."""
    quote, escaped = "", False
    for i, ch in enumerate(row):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or row[i - 1] in " \t"):
            return row[:i]
    return row

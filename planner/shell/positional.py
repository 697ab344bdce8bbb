"""A script's positional arguments: ``$1`` ..., ``"$@"``, ``"$*"``, ``$#``, as ``bash script.sh ARGS...``
sets them, and the two commands that change them, ``set -- ARGS`` and ``shift [N]``."""
from __future__ import annotations

from planner.shell.scan import Field


def positional_values(args: list[str], line: int) -> dict[str, object]:
    """name -> value (a string, or a list of fields for ``@`` and ``*``) of the positional parameters."""
    fields = [Field(a, line) for a in args]
    return {**{str(k): a for k, a in enumerate(args, 1)}, "@": fields, "*": fields, "#": str(len(args))}


def set_or_shift(words: list[str], current: list[str]) -> list[str] | None:
    """The positional arguments after ``set -- ARGS`` or ``shift [N]`` (None: another command)."""
    if words[:2] == ["set", "--"]:
        return words[2:]
    if words and words[0] == "shift" and (len(words) == 1 or words[1].isdigit()):
        return current[int(words[1]) if len(words) > 1 else 1:]
    return None

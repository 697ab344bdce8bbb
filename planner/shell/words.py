"""Words of a command line that are not a shell's statements: redirections to drop, a shell's
``-c`` among its options, and argument files (flags only, read as ``$(cat FILE)`` / xargs pass them)."""
from __future__ import annotations

import re

from planner.shell.scan import MARK, Field

_UNRESOLVED = re.compile(MARK + "([^" + MARK + "]*)" + MARK)


def unresolved(text: str) -> list[str]:
    """The shell expressions (``$TP_SIZE``, ``$(nproc)``) that could not be resolved in ``text``."""
    return _UNRESOLVED.findall(text)

_REDIRECT = re.compile(r"^(\d*|&)(>>?|<)(&?\d+|&-|.*)$")


def without_redirections(fields: list[Field]) -> list[Field]:
    """The command's words without its redirections (``2>&1``, ``> log``, ``2>/dev/null``)."""
    out, i = [], 0
    while i < len(fields):
        m = _REDIRECT.match(fields[i].text)
        if m is None:
            out.append(fields[i])
        elif not m.group(3):
            i += 1                                  # `> file`: the target is the next word
        i += 1
    return out


def dash_c(names: list[str], k: int) -> int | None:
    """The index of the script string after a shell's options when they include ``-c`` (else None)."""
    while k < len(names) and names[k].startswith("-") and names[k] != "--":
        if not names[k].startswith("--") and "c" in names[k][1:]:
            return k + 1
        k += 1
    return None


def test(args: list[str]) -> bool | None:
    """The value of ``test ARGS`` / ``[ ARGS ]`` / ``[[ ARGS ]]`` on known words; None when it cannot be decided."""
    if not args:
        return None
    if args[0] == "test":
        args = args[1:]
    elif args[0] in ("[", "[[") and args[-1] in ("]", "]]"):
        args = args[1:-1]
    else:
        return None
    if any(unresolved(a) for a in args):
        return None
    negate = bool(args) and args[0] == "!"
    args = args[1:] if negate else args
    result: bool | None = None
    if len(args) == 1:
        result = args[0] != ""
    elif len(args) == 2 and args[0] in ("-n", "-z"):
        result = (args[1] != "") == (args[0] == "-n")
    elif len(args) == 3 and args[1] in ("=", "==", "!="):
        result = (args[0] == args[2]) == (args[1] != "!=")
    elif len(args) == 3 and args[1] in ("-eq", "-ne", "-gt", "-lt", "-ge", "-le"):
        try:
            a, b = int(args[0]), int(args[2])
        except ValueError:
            return None
        result = {"-eq": a == b, "-ne": a != b, "-gt": a > b, "-lt": a < b,
                  "-ge": a >= b, "-le": a <= b}[args[1]]
    return None if result is None else result != negate

"""The command line itself: one-line usage errors and refusals, quiet streams, a closed stdout.

Part of `planner.safeio.validate` (which re-exports every name here).
"""
from __future__ import annotations

import argparse
import re
import os
import sys
from difflib import get_close_matches

from pydantic import ValidationError


def _pyd(err, prefix: str) -> str:
    """The first error of a pydantic ValidationError as `prefix.field: message (got X)`."""
    errs = err.errors()
    e = errs[0]
    loc = ".".join(str(x) for x in e["loc"])
    msg = e["msg"].removeprefix("Value error, ")
    got = ""
    if e.get("type") not in ("value_error", "assertion_error") and "input" in e and not isinstance(e["input"], dict):
        got = f" (got {e['input']!r:.40})"
    more = f" (+{len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{prefix}{'.' + loc if loc else ''}: {msg}{got}{more}"



def did_you_mean(word, names) -> str:
    """`"; did you mean X?"` for the name of `names` closest to `word` (difflib's ratio >= 0.6), else ""."""
    names = [str(n) for n in names]
    word = str(word)[:200]
    longer = sorted((n for n in names if n.startswith(word) and word), key=len)     # h100 -> h100-sxm
    near = longer[:1] or get_close_matches(word, names, n=1)
    return f"; did you mean {near[0]}?" if near else ""


_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)$")


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (`foldplan plan: error: ...`), exit 2; a
    mistyped choice gets the closest one."""

    def error(self, message):
        first = " ".join(str(message).split())
        m = _CHOICE.search(first)
        if m:
            names = [x.strip().strip("'") for x in m.group(2).split(",")]
            first = first[:m.start()] + f"invalid choice: '{m.group(1)}'{did_you_mean(m.group(1), names)} " \
                                        f"(choose from {m.group(2)})"
        self.exit(2, f"{self.prog}: error: {first} (see {self.prog} --help)\n")


def quiet_streams() -> None:
    """Never a UnicodeEncodeError on an ASCII / LANG=C terminal: unencodable characters
    are replaced, not fatal."""
    for s in (sys.stdout, sys.stderr):
        try:
            s.reconfigure(errors="replace")
        except (AttributeError, ValueError, OSError):
            pass


def flushed(rc: int) -> int:
    """Flush stdout inside the caller's try, so a closed pipe is seen there, not at exit."""
    sys.stdout.flush()
    return rc


def stdout_closed() -> int:
    """The reader of stdout went away (`foldplan plan | head -1`): stop quietly. Point
    stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 141          # 128 + SIGPIPE, what a shell reports for a tool killed by the pipe


def error_line(e: BaseException) -> str:
    """One line for any refusal; a pydantic ValidationError names its field."""
    try:
        if isinstance(e, ValidationError):
            return _pyd(e, e.title)
    except ImportError:
        pass
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:500]

"""Safe reading: bounded, regular files only, parsed documents bounded in depth and nodes; `InputError`.

Part of `planner.safeio` (which re-exports every name here; its docstring says the rules).
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
from typing import Union

import yaml


PathLike = Union[str, os.PathLike]

MAX_SPEC_BYTES = 1 * 2**20        # a model spec or HF config.json is a few KiB
MAX_PLAN_BYTES = 16 * 2**20       # a plan file: up to a few hundred plans
MAX_CONFIG_BYTES = 16 * 2**20     # a foreign config (audit)
MAX_DEPTH = 64                    # nesting of a parsed JSON / YAML / TOML document
MAX_NODES = 1_000_000             # values in a parsed document (aliases counted each time)

TMP_TAG, OLD_TAG = ".foldplan-tmp-", ".foldplan-old-"


class InputError(ValueError):
    """A file or path foldplan refuses. The message is one line and names the field."""


# --------------------------------------------------------------------------- reading

def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def read_bytes_limited(path: PathLike, field: str, max_bytes: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes` (InputError otherwise)."""
    name = os.fspath(path)
    if not name:
        raise InputError(f"{field}: empty path")
    if "\0" in name:
        raise InputError(f"{field}: path contains a NUL byte")
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"{field}: {name}: file not found") from None
    except OSError as e:
        raise InputError(f"{field}: {name}: cannot open ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{field}: {name} is {_kind(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise InputError(f"{field}: {name} is {st.st_size} bytes, over the limit of {max_bytes} bytes")
        chunks, total = [], 0
        while True:        # st_size may lie (a file still growing): never read past the limit
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise InputError(f"{field}: {name} is over the limit of {max_bytes} bytes")
        return b"".join(chunks)
    except OSError as e:
        raise InputError(f"{field}: {name}: cannot read ({e.strerror or e})") from None
    finally:
        os.close(fd)


def read_text_limited(path: PathLike, field: str, max_bytes: int = MAX_CONFIG_BYTES) -> str:
    """The UTF-8 text of the regular file `path` (BOM dropped); binary content is refused."""
    data = read_bytes_limited(path, field, max_bytes)
    name = os.fspath(path)
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise InputError(f"{field}: {name}:{line}: binary file (NUL byte), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"{field}: {name}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x})") from None


def _nesting(text: str, opening: str, closing: str) -> int:
    """Bracket depth of `text` (an upper bound: strings are not skipped), linear time."""
    depth = deepest = 0
    for ch in text:
        if ch in opening:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in closing:
            depth -= 1
    return deepest


#: the most digits an integer in a file may have: 18 (below 2**63; no count, size or degree is larger)
MAX_INT_DIGITS = 18


class _Refused:
    """A value a file may not hold, kept by the parser so `check_tree` names where it is."""

    def __init__(self, what: str):
        self.what = what


def _int_or_refused(text: str):
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_INT_DIGITS else _Refused(f"an integer of {digits} digits exceeds the limit "
                                                               f"of {MAX_INT_DIGITS} digits")


def _refused_value(v) -> str | None:
    if isinstance(v, _Refused):
        return v.what
    if isinstance(v, float) and not math.isfinite(v):
        return f"{v} is not a finite number"
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10 ** MAX_INT_DIGITS:
        return f"an integer of {len(str(abs(v))) if abs(v) < 10 ** 4000 else 'thousands of'} digits exceeds " \
               f"the limit of {MAX_INT_DIGITS} digits"
    return None


def check_tree(obj, field: str, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> None:
    """Refuse a parsed document deeper than `max_depth` or with more than `max_nodes`
    values (shared references, e.g. YAML aliases, are counted each time), or holding NaN /
    Infinity or an integer of more than MAX_INT_DIGITS digits (named by its path)."""
    nodes = 0
    stack = [(obj, 1, "")]
    while stack:
        cur, depth, where = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise InputError(f"{field}: more than {max_nodes} values (an alias bomb?)")
        if depth > max_depth:
            raise InputError(f"{field}: nested deeper than {max_depth} levels")
        bad = _refused_value(cur)
        if bad:
            raise InputError(f"{field}: {where.lstrip('.') or 'the document'}: {bad}")
        if isinstance(cur, dict):
            stack.extend((v, depth + 1, f"{where}.{str(k)[:40]}") for k, v in cur.items())
            stack.extend((k, depth + 1, where) for k in cur.keys() if not isinstance(k, (str, int, float, bool)))
        elif isinstance(cur, (list, tuple)):
            stack.extend((v, depth + 1, f"{where}.{i}") for i, v in enumerate(cur))


def load_json(text: str, field: str, max_depth: int = MAX_DEPTH):
    """json.loads with a depth limit and finite numbers only (no NaN / Infinity literals)."""
    if _nesting(text, "[{", "]}") > max_depth:
        # strings may hold brackets: only refuse what the parser would also find deep
        try:
            doc = json.loads(text, parse_constant=_no_constant, parse_int=_int_or_refused)
        except RecursionError:
            raise InputError(f"{field}: nested deeper than {max_depth} levels") from None
        except (ValueError, TypeError) as e:
            raise InputError(f"{field}: not valid JSON ({str(e).splitlines()[0]})") from None
    else:
        try:
            doc = json.loads(text, parse_constant=_no_constant, parse_int=_int_or_refused)
        except (ValueError, TypeError) as e:
            raise InputError(f"{field}: not valid JSON ({str(e).splitlines()[0]})") from None
    check_tree(doc, field, max_depth)
    return doc


def _no_constant(name: str):
    return _Refused(f"{name} is not a number JSON allows")


def load_yaml(text: str, field: str, max_depth: int = MAX_DEPTH):
    """yaml.safe_load with depth and node limits."""
    if _nesting(text, "[{", "]}") > max_depth * 4:
        raise InputError(f"{field}: nested deeper than {max_depth} levels")
    try:
        doc = yaml.safe_load(text)
    except RecursionError:
        raise InputError(f"{field}: nested deeper than {max_depth} levels") from None
    except yaml.YAMLError as e:
        raise InputError(f"{field}: not valid YAML ({' '.join(str(e).split())[:200]})") from None
    except (ValueError, TypeError, OverflowError) as e:        # e.g. a timestamp out of range
        big = re.search(r"^\s*([\w.-]+)\s*:\s*[-+]?\d{%d,}\s*$" % (MAX_INT_DIGITS + 1), text, re.M)
        if big:
            raise InputError(f"{field}: {big.group(1)[:40]}: an integer of more than {MAX_INT_DIGITS} digits") from None
        raise InputError(f"{field}: not valid YAML ({str(e).splitlines()[0] if str(e) else type(e).__name__})") from None
    check_tree(doc, field, max_depth)
    return doc


def read_json(path: PathLike, field: str, max_bytes: int = MAX_PLAN_BYTES):
    return load_json(read_text_limited(path, field, max_bytes), f"{field}: {os.fspath(path)}")


def read_yaml(path: PathLike, field: str, max_bytes: int = MAX_SPEC_BYTES):
    return load_yaml(read_text_limited(path, field, max_bytes), f"{field}: {os.fspath(path)}")

"""Shell arithmetic ``$(( ... ))``: integers, names, ``+ - * / % **`` and unary minus, as bash computes them.

Bash's integers are signed 64-bit and wrap silently; a launch script whose
arithmetic leaves that range (``$((2**99999))``) is not computing a GPU count, so
every intermediate value is bounded by ``2**63`` and one outside it raises
``ArithOverflow`` (the caller marks the expansion unresolved). Division and
remainder truncate toward zero, as in C.
"""

from __future__ import annotations

import ast
import operator

LIMIT = 2**63
MAX_TEXT = 10_000  # characters of one arithmetic expression


class ArithOverflow(ValueError):
    pass


class Unresolved(Exception):
    """A name in the expression has no value; ``args[0]`` is the name."""


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.Div: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def _bounded(v: int) -> int:
    if not -LIMIT <= v < LIMIT:
        raise ArithOverflow("outside bash's 64-bit integers")
    return v


def evaluate(text: str, lookup) -> int:
    """The value of ``text``; ``lookup(name)`` gives a variable's integer value."""
    if len(text) > MAX_TEXT:
        raise ArithOverflow(f"expression longer than {MAX_TEXT} characters")
    return eval_int(ast.parse(text.strip(), mode="eval").body, lookup)


def eval_int(node: ast.AST, lookup, depth: int = 0) -> int:
    """Evaluate a parsed shell arithmetic expression."""
    if depth > 200:
        raise ArithOverflow("expression nested too deeply")
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return _bounded(node.value)
    if isinstance(node, ast.Name):
        return _bounded(lookup(node.id))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = eval_int(node.operand, lookup, depth + 1)
        return _bounded(-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = eval_int(node.left, lookup, depth + 1), eval_int(node.right, lookup, depth + 1)
        if isinstance(node.op, ast.Pow):
            if b < 0:
                raise ValueError("negative exponent")
            if abs(a) > 1 and b > 63:
                raise ArithOverflow("exponent out of range")
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            q = abs(a) // abs(b)  # shell division truncates toward zero
            if isinstance(node.op, ast.Mod):
                return a - b * (q if (a < 0) == (b < 0) else -q)
            return q if (a < 0) == (b < 0) else -q
        return _bounded(_OPS[type(node.op)](a, b))
    raise ValueError(f"unsupported arithmetic: {type(node).__name__}")

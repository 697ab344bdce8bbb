"""A Python config script read from its syntax tree, never run: the values of the expressions that are
arithmetic on numbers and on names the script binds (module constants, a function's own constants before
the call, `common.max_sequence_length` / `common.global_batch_size` as handed to OLMo-core's build_config),
`int()`, `float()`, `round()`, `min()`, `max()`, `abs()` of such values; calls read by their name and
arguments. What cannot be evaluated is UNKNOWN, and the reader names it in an "assumed:" line."""
from __future__ import annotations

import ast
import operator
from typing import Any

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Mod: operator.mod}
UNKNOWN = object()


def _name(node) -> str:
    """`a.b.c` of a Name / Attribute chain ('' when it is something else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _value(node, env: dict) -> Any:
    """A constant expression's value (numbers, strings, lists, names bound to such), else UNKNOWN."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)
    if isinstance(node, ast.Attribute):
        if _name(node) in env:                 # common.max_sequence_length: what the script hands build_config
            return env[_name(node)]
        if _name(node).startswith("common."):  # another run-time component (common.tokenizer, ...)
            return UNKNOWN
        return node.attr                       # an enum member: keep its name (DataParallelType.fsdp -> "fsdp")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _value(node.operand, env)
        return -v if isinstance(v, (int, float)) else UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _value(node.left, env), _value(node.right, env)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            try:
                if isinstance(node.op, ast.Pow) and abs(b) > 64:
                    return UNKNOWN
                return _OPS[type(node.op)](a, b)
            except (ZeroDivisionError, OverflowError):
                return UNKNOWN
        return UNKNOWN
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(e, env) for e in node.elts]
        return UNKNOWN if any(i is UNKNOWN for i in items) else items
    if isinstance(node, ast.Call) and _name(node.func) in _BUILTINS and not node.keywords:
        args = [_value(a, env) for a in node.args]      # int(0.5 * d_model), min(8, n) ...
        if args and all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
            try:
                return _BUILTINS[_name(node.func)](*args)
            except (TypeError, ValueError, OverflowError):
                return UNKNOWN
        return UNKNOWN
    if isinstance(node, ast.Call):
        return Call(node, env)
    return UNKNOWN


_BUILTINS = {"int": int, "float": float, "round": round, "min": min, "max": max, "abs": abs}


class Call:
    """A call read by its name and its keyword (and first positional) arguments."""

    def __init__(self, node: ast.Call, env: dict):
        self.name, self.line = _name(node.func), node.lineno
        self.kw = {k.arg: _value(k.value, env) for k in node.keywords if k.arg}
        self.src = {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg}   # for "assumed:" lines
        self.args = [_value(a, env) for a in node.args]

    def get(self, key: str, default=None):
        v = self.kw.get(key, default)
        return default if v is UNKNOWN else v

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def _constants(tree: ast.Module) -> dict:
    env: dict = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                v = _value(node.value, env)
                if v is not UNKNOWN and not isinstance(v, Call):
                    env[targets[0].id] = v
    return env


def _common(tree: ast.Module, env: dict) -> dict:
    """`common.max_sequence_length` / `common.global_batch_size`: the values the script hands OLMo-core's
    build_config (olmo_core/internal/experiment.py: CommonComponents carries them to the builders)."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and _name(n.func).rsplit(".", 1)[-1] in ("build_config", "partial", "main"):
            for k in n.keywords:
                if k.arg in ("max_sequence_length", "sequence_length", "global_batch_size"):
                    v = _value(k.value, env)
                    if isinstance(v, int) and not isinstance(v, bool):
                        out["common." + ("max_sequence_length" if k.arg == "sequence_length" else k.arg)] = v
    return out


def _calls(tree: ast.Module, env: dict) -> list[Call]:
    """Every call, its arguments evaluated with the module's constants and, inside a function, the
    constants that function assigns before (`d_model = 3328` in build_model_config)."""
    inner = {id(c) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for c in ast.walk(f) if isinstance(c, ast.Call)}
    out = [Call(n, env) for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) and id(n) not in inner]
    for f in (f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))):
        local = dict(env)
        for stmt in f.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                v = _value(stmt.value, local)
                if v is not UNKNOWN and not isinstance(v, Call):
                    local[stmt.targets[0].id] = v
        out += [Call(n, local) for n in ast.walk(f) if isinstance(n, ast.Call) and _name(n.func)]
    return out


def _conditional(tree: ast.Module) -> dict[str, str]:
    """Names a function changes inside an if / for / while (`rank_microbatch_size *= 2` on B200
    clusters): name -> "line N: statement". The audit reads the value set outside and says so."""
    out: dict[str, str] = {}
    for f in (f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))):
        for block in (b for b in ast.walk(f) if isinstance(b, (ast.If, ast.For, ast.While))):
            for st in (s for s in ast.walk(block) if isinstance(s, (ast.Assign, ast.AugAssign))):
                for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, f"line {st.lineno}: {ast.unparse(st)} under "
                                             f"`{ast.unparse(block.test if hasattr(block, 'test') else block.iter)}`")
    return out

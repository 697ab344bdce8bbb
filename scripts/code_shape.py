"""The shape of the package: its import graph by layer, and the modules and functions over size.

    python scripts/code_shape.py            # sizes: modules over 400 lines, functions over 80 (exit 1 if any)
    python scripts/code_shape.py --graph    # + every import that runs up a layer, and every cycle
    python scripts/code_shape.py --imports  # + every function-local import without its reason, and their count

The layers and the dependency rule are those of docs/architecture.md; tests/test_architecture.py checks the
graph on every run. Generated code (a `compiled/` folder) is left out of the sizes.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "planner"
BUNDLE = PACKAGE / "bundle" / "templates"
MAX_MODULE, MAX_FUNCTION = 400, 80

# docs/architecture.md: lower layers first; a module may import its own layer or a lower one
LAYERS = (
    ("safeio", ("planner", "planner.safeio", "planner.shell")),
    ("specs", ("planner.specs",)),
    ("layout", ("planner.layout",)),
    ("costmodel", ("planner.costmodel",)),
    ("engine rules", ("planner.engines",)),
    ("solve", ("planner.solve",)),
    ("plan", ("planner.plan",)),
    ("outputs", ("planner.engines.*.read", "planner.engines.*.reader", "planner.engines.*.export", "planner.engines.export", "planner.engines.startup",
                 "planner.audit",
                 "planner.report", "planner.bundle", "planner.calibrate")),
    ("cli", ("planner.cli",)),
)


def _matches(module: str, pattern: str) -> bool:
    parts, pat = module.split("."), pattern.split(".")
    return len(parts) >= len(pat) and all(p == "*" or p == m for p, m in zip(pat, parts))


def layer(module: str) -> int:
    """The layer of a module: the most specific pattern that matches it wins."""
    best = (-1, -1)
    for i, (_, patterns) in enumerate(LAYERS):
        for p in patterns:
            if _matches(module, p):
                best = max(best, (p.count(".") + 1, i))
    if best[1] < 0:
        raise KeyError(f"{module}: in no layer of docs/architecture.md")
    return best[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def package_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
            if "compiled" not in p.parts and BUNDLE not in p.parents}


def imports(path: Path, name: str, known) -> set[str]:
    """The modules of `known` that `path` imports, at any depth (function-level imports too)."""
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in out if m in known and m != name}


def graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {m: imports(p, m, modules) for m, p in modules.items()}


def upward(g: dict[str, set[str]]) -> list[str]:
    """Imports from a lower layer to a higher one."""
    return [f"{a} ({LAYERS[layer(a)][0]}) imports {b} ({LAYERS[layer(b)][0]})"
            for a, deps in sorted(g.items()) for b in sorted(deps) if layer(b) > layer(a)]


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(g) + 100))       # a path is at most every module long
    try:
        for v in sorted(g):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)                              # leave the process as it was
    return out


def bundle_graph(root: Path = BUNDLE) -> dict[str, set[str]]:
    """The bundle's own modules (they import one another by their top-level names, lazily too)."""
    mods = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
            for p in root.rglob("*.py")}
    return {m: imports(p, m, mods) for m, p in mods.items()}


def sizes() -> list[str]:
    over = []
    files = [p for p in PACKAGE.rglob("*.py") if "compiled" not in p.parts]
    for p in sorted(files):
        src = p.read_text()
        n = src.count("\n")
        if n > MAX_MODULE:
            over.append(f"{p.relative_to(ROOT)}: {n} lines (> {MAX_MODULE})")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION:
                    over.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name}: {length} lines (> {MAX_FUNCTION})")
    return over


# a function-local import says why it is not at the top of its module, in a comment on its line or on the
# lines just above its block of imports: it defers a heavy or optional import, or it breaks a cycle
REASONS = ("deferred:", "cycle:")


def local_imports() -> list[tuple[str, int, str]]:
    """(path, line, reason or "") of every import inside a function of the package (generated tables aside)."""
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        if "compiled" in p.parts or BUNDLE in p.parents:
            continue
        lines = p.read_text().splitlines()
        for fn in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    out[(str(p.relative_to(ROOT)), node.lineno)] = _reason(lines, node.lineno - 1)
    return [(path, line, why) for (path, line), why in sorted(out.items())]


def _reason(lines: list[str], i: int) -> str:
    """The reason comment of the import on line `i` (0-based): on its line, or above its block of imports."""
    said = lines[i].partition("#")[2]
    while not any(r in said for r in REASONS) and i > 0:
        i -= 1
        above = lines[i].strip()
        if above.startswith("#"):
            said = above
        elif not above.startswith(("import ", "from ")):
            break
    return said.strip() if any(r in said for r in REASONS) else ""


def main(argv: list[str]) -> int:
    bad = sizes()
    if "--graph" in argv:
        g = graph(package_modules())
        bad += upward(g)
        bad += [f"cycle: {' <-> '.join(c)}" for c in cycles(g) + cycles(bundle_graph())]
    if "--imports" in argv:
        found = local_imports()
        bad += [f"{path}:{line}: a function-local import without its reason ({' / '.join(REASONS)})"
                for path, line, why in found if not why]
        print(f"{len(found)} function-local import(s)")
    for line in bad:
        print(line)
    print(f"{len(bad)} finding(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The bundle's runtime code (planner/bundle/templates) has the package's shape: its modules
import each other without a cycle (imports inside functions included: a lazy import is
still an edge), none is over 400 lines and no function over 80."""
import ast
from pathlib import Path

from planner.bundle import codegen

MAX_MODULE, MAX_FUNCTION = 400, 80


def bundle_modules(root: Path = codegen.TEMPLATES) -> dict[str, tuple[Path, str]]:
    """Bundle module name (as its files import it: `train`, `cp.ring`) -> (file, Python source).
    A rendered `.py.j2` template counts under the name of the file it renders to."""
    mods = {}
    for rel in codegen.template_paths(root):
        if not (rel.endswith(".py") or rel.endswith(".py.j2")):
            continue
        name = rel.removesuffix(".j2").removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        mods[name] = (root / rel, (root / rel).read_text())
    return mods


def imports(name: str, path: Path, source: str, known) -> set[str]:
    """The bundle modules `source` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return {m for m in found if m in known and m != name}


def cycle(graph: dict[str, set[str]]):
    """One import cycle as a list of modules [a, b, ..., a], or None."""
    state, path = {}, []

    def visit(v):
        state[v] = "open"
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == "open":
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        state[v] = "done"
        path.pop()
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def graph_of(mods) -> dict[str, set[str]]:
    # a template's Jinja substitutions are not Python: only plain .py files are parsed
    return {n: (imports(n, p, src, mods) if p.suffix == ".py" else set()) for n, (p, src) in mods.items()}


def test_the_bundle_imports_without_a_cycle():
    graph = graph_of(bundle_modules())
    assert {"train", "dryrun", "build", "layout"} <= set(graph)
    assert "dryrun" in graph["train"] and "train" not in graph["dryrun"]     # --dry-run: train hands on
    assert cycle(graph) is None, f"import cycle in the bundle: {' -> '.join(cycle(graph))}"


def test_the_cycle_finder_finds_one(tmp_path):
    # the check above can fail: two modules importing each other lazily are a cycle
    (tmp_path / "a.py").write_text("def f():\n    import b\n")
    (tmp_path / "b.py").write_text("from a import f\n")
    (tmp_path / "c.py").write_text("import a\n")
    assert cycle(graph_of(bundle_modules(tmp_path))) in (["a", "b", "a"], ["b", "a", "b"])


def test_no_bundle_module_or_function_is_too_long():
    over = []
    for name, (path, src) in bundle_modules().items():
        if src.count("\n") > MAX_MODULE:
            over.append(f"{path.name}: {src.count(chr(10))} lines")
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION:
                    over.append(f"{name}.{node.name}: {n} lines")
    assert not over, over

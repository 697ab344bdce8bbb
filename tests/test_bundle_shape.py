"""The bundle's runtime code (planner/bundle/templates) has the package's shape: its modules import each
other without a cycle (imports inside functions included: a lazy import is still an edge), none is over 400
lines and no function over 80. scripts/code_shape.py owns the graph, the cycle finder and the sizes."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("code_shape", ROOT / "scripts" / "code_shape.py")
shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape)


def test_the_bundle_imports_without_a_cycle():
    graph = shape.bundle_graph()
    assert {"train", "dryrun", "build"} <= set(graph)
    assert "dryrun" in graph["train"] and "train" not in graph["dryrun"]     # --dry-run: train hands on
    assert shape.cycles(graph) == []


def test_the_cycle_finder_finds_one(tmp_path):
    # the check above can fail: two modules importing each other lazily are a cycle
    (tmp_path / "a.py").write_text("def f():\n    import b\n")
    (tmp_path / "b.py").write_text("from a import f\n")
    (tmp_path / "c.py").write_text("import a\n")
    assert shape.cycles(shape.bundle_graph(tmp_path)) == [["a", "b"]]


def test_no_bundle_module_or_function_is_too_long():
    assert [x for x in shape.sizes() if "bundle/templates" in x] == []

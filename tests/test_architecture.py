"""The package's import graph keeps the dependency rule of docs/architecture.md: no import runs from a lower
layer to a higher one, no two modules import each other (directly or round a loop); the bundle's own modules are
checked in tests/test_bundle_shape.py. scripts/code_shape.py owns the layers; this test reads its graph."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("code_shape", ROOT / "scripts" / "code_shape.py")
shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape)


def test_every_module_has_a_layer():
    for m in shape.package_modules():
        shape.layer(m)                       # raises for a module the rule does not place


def test_no_import_runs_up_a_layer():
    assert shape.upward(shape.graph(shape.package_modules())) == []


def test_no_import_cycle():
    assert shape.cycles(shape.graph(shape.package_modules())) == []


def test_the_checks_can_fail():
    """The graph checks see what they are for: an upward edge and a loop planted in a copy of the graph."""
    g = shape.graph(shape.package_modules())
    g["planner.layout.values"] = g["planner.layout.values"] | {"planner.solve.search"}
    assert any("planner.layout.values (layout) imports planner.solve.search" in x for x in shape.upward(g))
    g["planner.specs.kinds"] = g["planner.specs.kinds"] | {"planner.specs.types"}
    g["planner.specs.types"] = g["planner.specs.types"] | {"planner.specs.kinds"}
    assert ["planner.specs.kinds", "planner.specs.types"] in shape.cycles(g)


def test_sizes():
    """No module of the package over 400 lines, no function over 80 (generated tables excepted)."""
    assert shape.sizes() == []


def test_every_function_local_import_says_why():
    """An import inside a function defers a heavy or optional import, or breaks a cycle, and says which
    (`python scripts/code_shape.py --imports` counts them)."""
    assert [f"{path}:{line}" for path, line, why in shape.local_imports() if not why] == []

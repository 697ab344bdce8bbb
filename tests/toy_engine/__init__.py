"""A toy engine, used only by tests/test_engine_registry.py: the smallest folder the engine list takes (its
record here, a rule table, a reader, an exporter). Adding it is this folder and one line in
planner.engines.REGISTRY (the test adds that line). It is no `--target`: the specs validate target names
below the engines' layer (planner.specs.kinds.TARGETS), so a new target also names itself there."""
from planner.engines.record import Engine, Export

ENGINE = Engine("toy", __name__, "Toy", target=False, reader=True,
                exports=(Export("toy", f"{__name__}.export", "a toy layout file"),))

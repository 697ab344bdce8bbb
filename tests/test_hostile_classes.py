"""Every class of hostile input of benchmarks/hostile_inputs.py at zero: no traceback, no bad
input accepted, every refusal one line naming the field (plan files through the plan's own
model, 5,000-digit integers, non-ASCII digits, an HF config without FFN sizes, contradicting
layout strings, NaN / Infinity, YAML anchor bombs, deep shell defaults, --memory-fraction)."""
import resource
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import hostile_inputs as H  # noqa: E402

CLASSES = ["plan file", "5,000-digit integer", "non-ASCII digits", "HF config without FFN sizes",
           "contradicting layout strings", "NaN / Infinity", "YAML anchor bomb", "deep shell defaults",
           "--memory-fraction"]


@pytest.fixture(scope="module")
def all_cases(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    H._plan_doc(tmp)
    return H.cases(tmp)


@pytest.fixture(autouse=True)
def _bounded_memory():
    """A case that tries to allocate pp = 1.8e11 stages fails here as MemoryError (a traceback), not the machine."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30 if hard == resource.RLIM_INFINITY else min(hard, 8 * 2**30), hard))
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def test_the_generator_covers_every_class(all_cases):
    assert list(all_cases) == CLASSES and all(len(v) >= 2 for v in all_cases.values())


@pytest.mark.parametrize("cls", CLASSES)
def test_hostile_class_at_zero(cls, all_cases):
    bad = []
    for argv, field in all_cases[cls]:
        kind, rc, err = H.run(argv)
        lines = err.strip().splitlines()
        if kind != "ok" or rc == 0 or rc is None:
            bad.append((kind if kind != "ok" else "accepted", argv[:2], err[-300:]))
        elif field.lower() not in err.lower() and field.lower() not in err.lower().replace("-", "_"):
            bad.append(("unnamed", argv[:2], err[-300:]))
        elif len(lines) != 1:
            bad.append(("not one line", argv[:2], err[-300:]))
    assert not bad, bad

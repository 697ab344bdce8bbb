"""The bundle's layout.py computes its process groups at import; they are planner.layout's.

Every group of every rank, dense (tp, cp, dp, dp_cp, pp) and expert (etp, ep, edp of
each stage), equals `RankGrid.group` for the generated bundles, for Megatron's worked
example (REFERENCE.md) and for plans that fold every stage differently; no torch needed.
"""
import importlib.util
import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import plan  # noqa: E402

from planner import plan as planmod  # noqa: E402
from planner.bundle.codegen import render_bundle  # noqa: E402
from planner.layout import RankGrid  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GENERATED = sorted(p for p in (ROOT / "generated").glob("*/layout.py"))


def load_layout(path: Path):
    spec = importlib.util.spec_from_file_location(f"bundle_layout_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def group_of(groups, rank):
    found = [g for g in groups if rank in g]
    assert len(found) == 1, f"rank {rank} is in {len(found)} groups"
    return tuple(found[0])


def assert_same_grid(lay, layout):
    """lay: the bundle's layout module; layout: the planner Layout it was rendered from."""
    grid = RankGrid(layout, per_domain=8)
    for r in range(layout.world):
        for axis in ("tp", "cp", "dp", "dp_cp", "pp"):
            assert group_of(lay.GROUPS[axis], r) == grid.group(axis, r).ranks, (axis, r)
        for st in lay.STAGES:
            if st["pp_rank"] != grid.stage_of(r):
                continue
            for axis in ("etp", "ep", "edp"):
                got = group_of(lay.GROUPS["experts"][st["index"]][axis], r)
                assert got == grid.group(axis, r).ranks, (axis, st["index"], r)
        c, want = lay.RANKS[r], grid.coords(r)
        assert {a: c[a] for a in ("pp", "tp", "cp", "dp")} == {a: want[a] for a in ("pp", "tp", "cp", "dp")}
    # the DeviceMesh grids hold the same ranks as the groups
    for p, d, c, t in itertools.product(*(range(layout.__getattribute__(a)) for a in ("pp", "dp", "cp", "tp"))):
        r = lay.GROUPS["dense_grid"][p][d][c][t]
        assert (lay.RANKS[r]["pp"], lay.RANKS[r]["dp"], lay.RANKS[r]["cp"], lay.RANKS[r]["tp"]) == (p, d, c, t)


@pytest.mark.parametrize("path", GENERATED, ids=lambda p: p.parent.name)
def test_generated_bundle_groups_are_the_rank_grid(path):
    layout = planmod.load(str(path.parent / "plan.json"))[0].layout
    assert_same_grid(load_layout(path), layout)


def test_generated_64gpu_layout_is_short():
    path = ROOT / "generated" / "default-64gpu-128k" / "layout.py"
    assert len(path.read_text().splitlines()) <= 200


def test_megatron_worked_example(tmp_path):
    """REFERENCE.md: world 16, tp2 cp2 pp2 dp2, etp1 ep4 edp2, order tp-cp-ep-dp-pp."""
    p = plan(tp=2, cp=2, dp=2, pp=2, folds=[(1, 4, 2)] * 2, num_microbatches=2)
    lay = load_layout(render_bundle(p, tmp_path / "b") / "layout.py")
    assert lay.GROUPS["tp"][:2] == [[0, 1], [2, 3]]
    assert lay.GROUPS["cp"][:3] == [[0, 2], [1, 3], [4, 6]]
    assert lay.GROUPS["dp"][:2] == [[0, 4], [1, 5]]
    assert lay.GROUPS["experts"][0]["ep"][:2] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert lay.GROUPS["pp"][0] == [0, 8]
    assert_same_grid(lay, p.layout)


@pytest.mark.parametrize("kw", [
    dict(tp=2, cp=2, dp=2, pp=2, order="cp-tp-dp-pp", split=[1, 3], folds=[(1, 4, 2), (2, 2, 2)],
         num_microbatches=2),
    dict(cp=4, cp_kind="hybrid", dp=2, order="dp-cp-tp-pp", folds=[(2, 2, 2)]),
    dict(tp=2, dp=2, pp=2, vpp=2, num_microbatches=2, folds=[(1, 4, 1), (2, 2, 1)]),
], ids=["order_cp_tp_dp_per_stage_folds", "hybrid_dp_first", "vpp2"])
def test_other_orders_and_folds(tmp_path, kw):
    p = plan(**kw)
    assert_same_grid(load_layout(render_bundle(p, tmp_path / "b") / "layout.py"), p.layout)

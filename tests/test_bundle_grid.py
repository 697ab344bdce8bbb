"""The bundle's layout.py computes its process groups at import with axes.py, a byte-for-byte
copy of planner/layout/axes.py (the planner's RankGrid lists its groups with the same functions).

Every group of every rank, dense (tp, cp, cp_ulysses, cp_ring, dp, dp_cp, stage, pp) and
expert (etp, ep, edp of each stage), equals `RankGrid.group` for the generated bundles, for
Megatron's worked example (REFERENCE.md) and for plans that fold every stage differently;
and on random plans, every group kind of the bundle and of RankGrid equals the groups'
definition written out below from each rank's coordinates; no torch needed.
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
    """A bundle's layout.py, importing that bundle's own axes.py (as the bundle runs it)."""
    spec = importlib.util.spec_from_file_location(f"bundle_layout_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop("axes", None)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
        assert Path(sys.modules["axes"].__file__).parent == path.parent
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop("axes", None)
    return module


def group_of(groups, rank):
    found = [g for g in groups if rank in g]
    assert len(found) == 1, f"rank {rank} is in {len(found)} groups"
    return tuple(found[0])


def assert_same_grid(lay, layout):
    """lay: the bundle's layout module; layout: the planner Layout it was rendered from."""
    grid = RankGrid(layout, per_domain=8)
    for r in range(layout.world):
        for axis in ("tp", "cp", "cp_ulysses", "cp_ring", "dp", "dp_cp", "stage", "pp"):
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


# ---------------------------------------------------------------- the groups' definition
def _definition(layout):
    """Every group kind of `layout` from its definition: each rank's coordinates (dense: the
    order's first axis varies fastest, cp's coordinate is ring * cp_ulysses + ulysses; expert:
    local = etp + etp * (ep + ep * edp)), and a group is the ranks that share every coordinate
    but its own. Dense kinds -> set of groups; ("experts", stage, kind) -> set of groups."""
    size = {"tp": layout.tp, "cp": layout.cp, "dp": layout.dp}
    axes = [a for a in layout.order.split("-") if a != "pp"]
    R, cu = layout.stage_ranks, layout.cp_ulysses
    coords = {}
    for p in range(layout.pp):
        for c in itertools.product(*(range(size[a]) for a in axes)):
            at = dict(zip(axes, c))
            local, step = 0, 1
            for a in axes:
                local, step = local + at[a] * step, step * size[a]
            coords[p * R + local] = dict(pp=p, tp=at["tp"], dp=at["dp"], ring=at["cp"] // cu, uly=at["cp"] % cu)
    varies = {"tp": {"tp"}, "cp": {"ring", "uly"}, "cp_ulysses": {"uly"}, "cp_ring": {"ring"}, "dp": {"dp"},
              "dp_cp": {"dp", "ring", "uly"}, "stage": {"tp", "dp", "ring", "uly"}, "pp": {"pp"}}
    out = {}
    for kind, own in varies.items():
        key = lambda r: tuple(v for k, v in sorted(coords[r].items()) if k not in own)
        out[kind] = _partition(coords, key)
    for st in layout.stages:
        ranks = range(st.index * R, (st.index + 1) * R)
        ex = {r: dict(etp=(r % R) % st.etp, ep=(r % R) // st.etp % st.ep, edp=(r % R) // (st.etp * st.ep))
              for r in ranks}
        for kind in ("etp", "ep", "edp"):
            out[("experts", st.index, kind)] = _partition(ex, lambda r: tuple(v for k, v in sorted(ex[r].items())
                                                                             if k != kind))
    return out


def _partition(ranks, key) -> set:
    got: dict = {}
    for r in ranks:
        got.setdefault(key(r), []).append(r)
    return {tuple(sorted(g)) for g in got.values()}


def _random_plan(rng):
    """A legal small plan with hybrid CP, any rank order and per-stage expert foldings (None
    where the draw breaks a layout rule)."""
    from planner.layout import ORDERS
    tp, cp, dp, pp = rng.choice([1, 2]), rng.choice([1, 2, 4]), rng.choice([1, 2, 3]), rng.choice([1, 2])
    cu = rng.choice([d for d in (1, 2, 4) if cp % d == 0])
    kind = "ring" if cu == 1 else ("ulysses" if cu == cp else "hybrid")
    local = tp * cp * dp
    folds = []
    for _ in range(pp):
        etp = rng.choice([d for d in range(1, local + 1) if local % d == 0])
        ep = rng.choice([d for d in (1, 2, 4, 8) if (local // etp) % d == 0])
        folds.append((etp, ep, local // (etp * ep)))
    try:
        return plan(tp=tp, cp=cp, dp=dp, pp=pp, cp_kind=kind, cp_ulysses=cu, cp_ring=cp // cu,
                    order=rng.choice(ORDERS), folds=folds, num_microbatches=2 * pp)
    except ValueError:
        return None


@pytest.mark.parametrize("seed", range(12))
def test_every_group_kind_is_its_definition(tmp_path, seed):
    import random
    rng = random.Random(seed)
    p = None
    while p is None:
        p = _random_plan(rng)
    L = p.layout
    want = _definition(L)
    out = render_bundle(p, tmp_path / "b")
    # the bundle's grid arithmetic is the planner's own module, emitted byte for byte
    assert (out / "axes.py").read_bytes() == (ROOT / "planner" / "layout" / "axes.py").read_bytes()
    lay, grid = load_layout(out / "layout.py"), RankGrid(L, per_domain=8)
    for kind, groups in want.items():
        if isinstance(kind, tuple):
            _, s, k = kind
            bundle = lay.GROUPS["experts"][s][k]
            planner = {grid.group(k, r).ranks for r in range(s * L.stage_ranks, (s + 1) * L.stage_ranks)}
        else:
            bundle, planner = lay.GROUPS[kind], {grid.group(kind, r).ranks for r in range(L.world)}
        assert {tuple(g) for g in bundle} == groups, (kind, L.order)
        assert len(bundle) == len(groups)                     # each group listed once
        assert planner == groups, (kind, L.order)

"""The one rank grid: every axis' stride comes from `axis_strides`, the groups RankGrid
lists from it stay inside a node exactly when the locality vector says so, and the
search's rank-order de-duplication keys on that vector (same vector, same estimate)."""
import itertools
import random

import numpy as np
import pytest

from planner import costmodel as cm
from planner.layout import ORDERS, Layout, RankGrid, uniform_stages
from planner.layout.grid import LOCALITY, locality
from planner.specs import make_problem


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def random_layout(rng: random.Random) -> tuple[Layout, int]:
    world = rng.choice([4, 8, 16, 32, 64])
    gpn = rng.choice([g for g in (1, 2, 4, 8) if g <= world])
    tp = rng.choice(_divisors(world))
    pp = rng.choice(_divisors(world // tp))
    cp = rng.choice(_divisors(world // (tp * pp)))
    dp = world // (tp * pp * cp)
    cu = rng.choice(_divisors(cp))
    kind = "ring" if cu == 1 else ("ulysses" if cu == cp else "hybrid")
    stages = []
    for s in uniform_stages(4 * pp, pp):
        etp = rng.choice(_divisors(tp * cp * dp))
        ep = rng.choice(_divisors(tp * cp * dp // etp))
        stages.append(s.model_copy(update={"etp": etp, "ep": ep, "edp": tp * cp * dp // (etp * ep)}))
    return Layout(world=world, tp=tp, cp=cp, dp=dp, pp=pp, cp_kind=kind, cp_ulysses=cu, cp_ring=cp // cu,
                  order=rng.choice(ORDERS), num_microbatches=pp, stages=tuple(stages)), gpn


@pytest.mark.parametrize("seed", range(30))
def test_locality_vector_is_the_grid_groups(seed):
    L, gpn = random_layout(random.Random(seed))
    grid = RankGrid(L, gpn)
    for s in L.stages:
        loc = locality(grid.inputs(s.index), gpn)
        assert set(LOCALITY) <= set(loc)
        for r in range(s.index * L.stage_ranks, (s.index + 1) * L.stage_ranks):
            for kind in LOCALITY:
                g = grid.group(kind, r)
                assert r in g.ranks
                assert bool(loc[kind]) == g.intra_node, (kind, r, L.order, gpn)
            assert float(loc["ep_off"]) == pytest.approx(grid.group("ep", r).off_node_fraction)
            # CP's two parts tile its group: every Ulysses x ring pair is one cp rank
            cu, cr, cpg = (set(grid.group(a, r).ranks) for a in ("cp_ulysses", "cp_ring", "cp"))
            assert cu <= cpg and cr <= cpg and cu & cr == {r}
            assert len(cu) * len(cr) == len(cpg)
    # the groups of an axis partition the world
    for axis in ("tp", "cp", "dp", "pp", "cp_ulysses", "cp_ring", "dp_cp"):
        members = sorted(itertools.chain.from_iterable(grid.groups(axis)))
        assert members == list(range(L.world)), axis


def _vector(L: Layout, gpn: int) -> tuple:
    grid = RankGrid(L, gpn)
    loc = [locality(grid.inputs(s.index), gpn) for s in L.stages]
    return tuple(float(v[k]) for v in loc for k in sorted(v))


@pytest.mark.parametrize("gpn,tp,cp,dp,cu", [(8, 2, 4, 2, 2), (4, 2, 2, 4, 1), (2, 2, 4, 1, 4), (8, 1, 8, 2, 2),
                                              (4, 4, 2, 2, 1)])
def test_search_keeps_one_order_per_locality_vector(gpn, tp, cp, dp, cu):
    from planner.solve.space import _orders
    world = tp * cp * dp * 2
    p = make_problem(model="olmoe-1b-7b", gpus=world, gpus_per_node=gpn, seq=32768, global_batch=16)
    kind = "ring" if cu == 1 else ("ulysses" if cu == cp else "hybrid")
    stages = tuple(s.model_copy(update={"etp": 1, "ep": 2, "edp": tp * cp * dp // 2})
                   for s in uniform_stages(p.model.layers, 2))
    make = lambda order: Layout(world=world, tp=tp, cp=cp, dp=dp, pp=2, cp_kind=kind, cp_ulysses=cu,
                                cp_ring=cp // cu, order=order, micro_batch=1, num_microbatches=16 // dp,
                                stages=stages)
    by_vector: dict = {}
    for order in ORDERS:
        by_vector.setdefault(_vector(make(order), gpn), []).append(order)
    kept = _orders(tp, cp, dp, cu, gpn)
    # one order per distinct vector, the first of each
    assert sorted(kept, key=ORDERS.index) == [orders[0] for orders in by_vector.values()]
    for orders in by_vector.values():
        est = [cm.evaluate(p, make(o)) for o in orders]
        for e in est[1:]:
            assert e.step_time == est[0].step_time
            assert [s.total for s in e.stages] == [s.total for s in est[0].stages]
    if len(by_vector) > 1:      # and different vectors are priced differently
        times = {v: cm.evaluate(p, make(orders[0])).step_time for v, orders in by_vector.items()}
        assert len(set(times.values())) > 1


def test_cost_model_reads_the_order_only_through_locality():
    # a layout's symbol values are a function of its locality vector: two orders with the
    # same vector bind every symbol alike (arrays over random layouts)
    rng = random.Random(5)
    p = make_problem(model="olmoe-1b-7b", gpus=64, gpus_per_node=8, seq=32768, global_batch=64)
    checked = 0
    for _ in range(40):
        L, gpn = random_layout(rng)
        if L.world != 64 or gpn != 8:
            continue
        vals = {}
        for order in ORDERS:
            Lo = L.model_copy(update={"order": order})
            v = cm.layout_values(p, cm.layout_vector(Lo))
            vals.setdefault(_vector(Lo, gpn), []).append(v)
        for vs in vals.values():
            for v in vs[1:]:
                assert all(np.array_equal(np.asarray(v[k]), np.asarray(vs[0][k])) for k in v)
                checked += 1
    assert checked

"""The solver against the brute-force reference, and the freedoms it claims (uneven
stages, per-stage recompute, expert folding) beating their absence."""
import random

import numpy as np
import pytest

from planner import costmodel as cm
from planner.layout import check, uniform_stages
from planner.specs import ModelSpec, make_problem
from planner.solve import search_plans
from planner.solve.bruteforce import brute_force
import planner.solve.tiebreak as tiebreak


def random_problem(rng: random.Random):
    moe = rng.random() < 0.7
    layers = rng.randint(2, 6)
    heads = rng.choice([4, 8, 16])
    kv = rng.choice([k for k in (1, 2, 4, 8, 16) if heads % k == 0])
    hidden = heads * rng.choice([64, 128])
    m = dict(name="rand", layers=layers, hidden=hidden, heads=heads, kv_heads=kv, head_dim=hidden // heads,
             vocab=rng.choice([32000, 50304, 128256]),
             ffn_hidden=4 * hidden if not moe else rng.choice([0, 3 * hidden]))
    if moe:
        m["moe"] = dict(experts=rng.choice([4, 8, 16]), top_k=rng.choice([1, 2]), expert_ffn_hidden=2 * hidden,
                        first_dense_layers=1 if m["ffn_hidden"] else 0)
    gpus = rng.choice([4, 8, 16, 32, 64, 128, 256])
    return make_problem(model=ModelSpec(**m), gpu=rng.choice(["h100-sxm", "a100-80g", "mi300x"]), gpus=gpus,
                        seq=rng.choice([4096, 8192, 32768, 131072]), global_batch=rng.choice([8, 16, 32]),
                        micro_batches=(1, 2), gpus_per_node=min(8, gpus),
                        memory_gib=rng.choice([2, 4, 8, 16, 40]),
                        # every sharding kind and recompute module is exercised, a few per problem
                        shardings=tuple(rng.sample(["none", "zero1", "zero2", "zero3"], rng.randint(1, 2))),
                        recompute_modules=tuple(rng.sample(["layernorm", "mlp", "moe_act", "core_attn"],
                                                           rng.randint(0, 1))))


def deep_problem(rng: random.Random):
    """A problem whose optimum needs the stage model's freedoms: tp and pp pinned (so the
    brute force stays cheap at 4-8 layers), the memory budget just above the least any
    layout of those degrees needs (so uneven splits, recompute and modules decide)."""
    moe = rng.random() < 0.7
    heads = rng.choice([8, 16])
    hidden = heads * 128
    m = dict(name="deep", layers=rng.randint(4, 8), hidden=hidden, heads=heads,
             kv_heads=rng.choice([k for k in (1, 2, 4, 8) if heads % k == 0]), head_dim=128,
             vocab=rng.choice([32000, 128256]), ffn_hidden=4 * hidden if not moe else rng.choice([0, 3 * hidden]))
    if moe:
        m["moe"] = dict(experts=rng.choice([4, 8]), top_k=rng.choice([1, 2]), expert_ffn_hidden=2 * hidden,
                        first_dense_layers=1 if m["ffn_hidden"] else 0)
    gpus = rng.choice([4, 8])
    kw = dict(model=ModelSpec(**m), gpu=rng.choice(["h100-sxm", "a100-80g"]), gpus=gpus,
              seq=rng.choice([8192, 32768, 65536]), global_batch=rng.choice([8, 16]),
              micro_batches=rng.choice([(1,), (1, 2)]), gpus_per_node=min(8, gpus),
              shardings=tuple(rng.sample(["none", "zero1", "zero2", "zero3"], rng.randint(1, 2))),
              recompute_modules=tuple(rng.sample(["layernorm", "mlp", "moe_act", "core_attn"], rng.randint(0, 2))))
    pin = dict(tp=rng.choice([1, 2]), pp=rng.choice([2, 4]))
    probe = search_plans(make_problem(memory_gib=0.01, **kw), top=1, fixed=pin).min_memory or {}
    if not probe.get("peak_gib"):
        return None, pin
    return make_problem(memory_gib=round(probe["peak_gib"] * rng.uniform(1.0, 1.5), 3), **kw), pin


def _check_against(p, res, ref):
    if ref.best_ns is None:
        assert not res.plans, "solver found a plan the brute force says cannot fit"
        return
    assert res.plans and res.status == "OPTIMAL"
    # the brute force scores with the cost model's direct functions (floats), the solver
    # with the compiled integer coefficients: the two optima agree up to ns rounding
    assert res.fastest_ns == pytest.approx(ref.best_ns, rel=1e-6, abs=1e3)
    assert cm.evaluate(p, ref.layout).step_time * 1e9 == pytest.approx(ref.best_ns, rel=1e-9)
    # the plan returned first: the same tie-break order over the brute force's own layouts
    first, tie = res.plans[0], ref.tie_layout
    e_tie = cm.evaluate(p, tie)
    assert tiebreak.order_key(p, first.layout, first.estimate) == tiebreak.order_key(p, tie, e_tie)
    assert first.estimate.step_time <= ref.best_ns / 1e9 * (1 + tiebreak.REACH) * (1 + 1e-6)
    for a in res.plans:                                              # no returned plan dominates another
        assert not any(tiebreak.dominates(b, a) for b in res.plans if b is not a)
    budget = p.cluster.memory_budget_gib * cm.GiB
    for c in res.plans:
        check(c.layout, p)                                           # every identity of layout.py
        assert c.estimate.peak_bytes <= budget * (1 + 1e-9)          # every stage fits
        # the float model agrees with the integer tables the solver optimised
        assert c.estimate.step_time * 1e9 == pytest.approx(c.objective_ns, rel=1e-5, abs=1e3)  # ns rounding


@pytest.mark.parametrize("seed", range(12))
def test_solver_matches_brute_force(seed):
    # the whole search (every tuple, sharding, CP kind, order) on small free problems
    rng = random.Random(1000 + seed)
    while True:
        p = random_problem(rng)
        if p.cluster.gpus * p.model.layers <= 64 and not (p.cluster.gpus >= 32 and p.model.layers > 2):
            break                        # keep the brute force affordable
    _check_against(p, search_plans(p, top=3), brute_force(p))


# the draws whose brute force takes a minute on 2 cores run in the full matrix (pytest -m full_matrix)
SLOW_STAGE_SEEDS = (7,)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.full_matrix) if s in SLOW_STAGE_SEEDS else s
                                  for s in range(24)])
def test_stage_choices_match_brute_force(seed):
    # deeper problems at tight memory: uneven splits, recompute, modules and per-stage
    # foldings decide the optimum (seeds 7..: most optima use at least one of them)
    rng = random.Random(7000 + seed)
    p, pin = deep_problem(rng)
    while p is None:
        p, pin = deep_problem(rng)
    _check_against(p, search_plans(p, top=3, fixed=pin), brute_force(p, where=pin))


def reduction_problem(rng: random.Random):
    """Short sequences over slow links (1-2 GPUs per node, dp = 4): the exposed gradient
    reduction decides, so the bottleneck-least split is often not the optimum and more
    recompute (a wider window) can pay; the stage model must then search past its hint."""
    hidden = 2048
    m = dict(name="red", layers=rng.randint(4, 8), hidden=hidden, heads=16, kv_heads=4, head_dim=128, vocab=32000,
             ffn_hidden=4 * hidden)
    if rng.random() < 0.5:
        m["moe"] = dict(experts=8, top_k=2, expert_ffn_hidden=2 * hidden, first_dense_layers=1)
    kw = dict(model=ModelSpec(**m), gpu="h100-sxm", gpus=8, seq=rng.choice([2048, 4096]),
              global_batch=rng.choice([8, 16]), micro_batches=(1,), gpus_per_node=rng.choice([1, 2]),
              shardings=(rng.choice(["none", "zero1"]),),
              recompute_modules=tuple(rng.sample(["layernorm", "mlp", "core_attn"], rng.randint(1, 2))))
    pin = dict(tp=1, pp=rng.choice([2, 4]))
    probe = search_plans(make_problem(memory_gib=0.01, **kw), top=1, fixed=pin).min_memory
    return make_problem(memory_gib=round(probe["peak_gib"] * rng.uniform(1.0, 1.3), 3), **kw), pin


@pytest.mark.parametrize("seed", range(10))
def test_exposed_reduction_matches_brute_force(seed):
    # (seed 9: a module that frees no memory but widens the reduction window is optimal)
    p, pin = reduction_problem(random.Random(seed))
    _check_against(p, search_plans(p, top=3, fixed=pin), brute_force(p, where=pin))


@pytest.mark.parametrize("seed,kind", [pytest.param(0, "deep", marks=pytest.mark.full_matrix)]
                         + [(s, "deep") for s in range(1, 4)] + [(s, "reduction") for s in range(4)])
def test_floors_never_exceed_the_optimum(seed, kind):
    # the DP floors (planner/solve/dpbound.py) that prune tuples and stop CP-SAT early are lower
    # bounds on every tuple's own brute-force optimum, not only on the best tuple's; the
    # reduction problems are those where the bottleneck / exposed-reduction trade-off
    # (the least-excess split at T*, the bracket) decides
    from planner.solve.bounds import bounds, lagrangian
    from planner.solve.dpbound import floors, least_bottleneck, uniform_bottleneck, window_floors
    from planner.solve.space import enumerate_tuples, tables, undominated
    rng = random.Random(9000 + seed)
    make = deep_problem if kind == "deep" else reduction_problem
    p, pin = make(rng)
    while p is None:
        p, pin = make(rng)
    tuples = [tu for tu in enumerate_tuples(p) if all(getattr(tu, k) == v for k, v in pin.items())]
    tab = tables(p, tuples)
    parts: dict = {}
    bounds(p, tab, parts)
    t_relaxed, o_relaxed = floors(p, tab, list(range(len(tuples))))
    lag = lagrangian(p, tab, list(range(len(tuples))))
    win = window_floors(p, tab, list(range(len(tuples))))
    assert (win > 0).mean() >= 0.5                       # the window floor holds on most tuples here
    checked = 0
    for ti, tu in enumerate(tuples):
        fields = ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "order", "micro_batch", "sharding")
        ref = brute_force(p, where={k: getattr(tu, k) for k in fields})
        dp = least_bottleneck(p, tab, ti, undominated(tab, ti))
        if ref.best_ns is None:
            continue
        checked += 1
        V, W = tu.vpp, tu.vpp * tu.num_microbatches + tu.pp - 1
        opt = ref.best_ns * V * (1 + 1e-9) + 1e3          # the optimum in the stage model's units (V * step)
        assert W * dp.t_star + V * (dp.o_star + parts["d_lb"][ti]) <= opt
        assert W * t_relaxed[ti] + V * o_relaxed[ti] <= opt
        assert dp.t_star >= t_relaxed[ti] - 1e-6 and dp.o_star >= o_relaxed[ti] - 1e-6
        assert dp.t_star >= lag[ti] - 1e-6                 # the Lagrangian floor of the memory budget
        # the window floor (the stage with the most layers) is below the relaxed DP's least bottleneck
        assert t_relaxed[ti] >= win[ti] - 1e-6
        # one folding for every stage is a restriction: never below the free least bottleneck
        assert uniform_bottleneck(p, tab, ti, undominated(tab, ti)).min() >= dp.t_star - 1e-6
        assert W * dp.t_star + V * (dp.o_star + dp.d_star) <= opt
        if dp.bnd is not None:
            d_floor = int(np.ceil(max(parts["d_lb"][ti], dp.d_star) - 1e-6))
            assert dp.objective_floor(tu.num_microbatches, tu.pp, V, d_floor) <= opt
            assert dp.td_floor + V * dp.o_star <= opt
    assert checked


DENSE = ModelSpec(name="d", layers=12, hidden=2048, heads=16, kv_heads=4, head_dim=128, vocab=32000, ffn_hidden=8192)


def _best_uniform(problem, tuple_layout):
    """Best plan on the same degrees with an even split and the same recompute in every stage."""
    L = tuple_layout
    best = None
    n = problem.model.layers // L.pp
    if problem.model.layers % L.pp:
        return None
    for rc in range(n + 1):
        st = uniform_stages(problem.model.layers, L.pp, fold=L.stages[0].fold, recompute_full=rc)
        cand = L.model_copy(update={"stages": st})
        est = cm.evaluate(problem, cand)
        if cm.fits(problem, est) and (best is None or est.step_time < best):
            best = est.step_time
    return best


def test_per_stage_freedom_beats_uniform():
    # pp=4: stage 0 keeps 4 micro-batches in flight, stage 3 one; memory is tight, so the
    # optimum puts fewer layers or more recompute on the early stages
    p = make_problem(model=DENSE, gpus=4, gpus_per_node=4, seq=32768, global_batch=16, micro_batches=(1,),
                     memory_gib=26)
    res = search_plans(p, top=1, fixed=dict(tp=1, cp=1, pp=4), settle=False)      # the fastest plan
    best = res.plans[0]
    uniform = _best_uniform(p, best.layout)
    splits = [s.num_layers for s in best.layout.stages]
    rcs = [s.recompute_full for s in best.layout.stages]
    assert len(set(splits)) > 1 or len(set(rcs)) > 1
    assert uniform is None or best.estimate.step_time < uniform * 0.98, (best.estimate.step_time, uniform)


def test_folding_beats_unfolded():
    # Mixtral at 128k on 64 H100 under Megatron's distributed optimizer (zero1): the best
    # layout folds the experts onto cp ranks (ep > dp); restricting the expert group to the
    # data-parallel ranks (ep <= dp, classic EP-in-DP) is slower. (With zero2/zero3 and
    # recompute modules an unfolded cp16 x dp4 layout comes within 0.1%: test_sharding.)
    p = make_problem(gpus=64, seq="128k", shardings=("zero1",))
    free = search_plans(p, top=1)
    best = free.plans[0]
    assert best.layout.stages[0].ep > best.layout.dp
    unfolded = search_plans(p, top=1, fold_filter=lambda L, f: f[1] <= L.dp and L.dp % f[1] == 0)
    assert unfolded.plans, "an unfolded layout should still fit"
    assert best.estimate.step_time < unfolded.plans[0].estimate.step_time * 0.99


def test_nothing_fits_reports_minimum():
    p = make_problem(model="llama3.1-405b", gpus=8, seq="128k", global_batch=8)
    res = search_plans(p, top=1)
    assert not res.plans
    info = res.min_memory
    assert info["peak_gib"] > p.cluster.memory_budget_gib
    assert info["dominant"] in ("weights", "grads", "optimizer", "activations", "logits", "buffers")


def test_fixed_fields_enumerate_the_filtered_tuples():
    # the search enumerates only the tuples that match its `fixed` fields; they must be the
    # very tuples (and order) that filtering the whole enumeration gives
    from planner.solve.space import enumerate_tuples
    p = make_problem(model="mixtral-8x7b", gpus=64, seq=32768, global_batch=64)
    every = enumerate_tuples(p)
    pins = [{"order": "tp-cp-dp-pp"}, {"tp": 2, "pp": 4}, {"cp": 4, "cp_kind": "ring", "micro_batch": 1},
            {"dp": 8, "vpp": 2, "sharding": "zero1"}, {"cp_ulysses": 2, "cp_ring": 2}]
    for pin in pins:
        want = [tu for tu in every if all(getattr(tu, k) == v for k, v in pin.items())]
        assert want and enumerate_tuples(p, pin) == want, pin


def test_tables_keep_per_tuple_parts_compact_and_read_them_by_rows():
    # a part that is one number per tuple is kept once per tuple (PerTuple), and every way
    # of reading it (all rows, one tuple's slice, scattered rows, sums) gives the per-row values
    from planner.solve.space import PerTuple, enumerate_tuples, tables
    p = make_problem(model="mixtral-8x7b", gpus=64, seq=32768, global_batch=64)
    tab = tables(p, enumerate_tuples(p)[:400])
    compact = [(t, q) for t, parts in tab.coef.items() for q, a in parts.items() if isinstance(a, PerTuple)]
    assert compact and any(not isinstance(a, PerTuple) and a.strides[0] for parts in tab.coef.values()
                           for a in parts.values())
    rng = np.random.default_rng(0)
    idx = np.sort(rng.choice(tab.n_rows, 300, replace=False))
    for t, q in compact:
        full = tab.col(t, q)
        assert full.shape == (tab.n_rows,)
        for ti in (0, 7, len(tab.tuples) - 1):
            sl = tab.rows[ti]
            assert (tab.col(t, q, sl) == tab.coef[t][q].per[ti]).all()
        assert (tab.col(t, q, idx) == full[idx]).all()
    terms = ("work", "comm_tp", "act_mb")
    for part in ("L_d", "L_m", "const"):
        const, acc = tab.split_sum(terms, part, idx)
        want = sum(tab.col(t, part)[idx] for t in terms)
        assert ((acc if acc is not None else 0) + const == want).all()


def _small_free_problem(seed: int):
    rng = random.Random(1000 + seed)
    while True:
        p = random_problem(rng)
        if p.cluster.gpus * p.model.layers <= 64 and not (p.cluster.gpus >= 32 and p.model.layers > 2):
            return p


def _space_mismatch(p) -> list[str]:
    """Where the search's tuples and the brute force's points differ: a tuple that is no
    point, or a point (up to its rank order) that no kept tuple prices the same."""
    from planner.solve.bruteforce import _Scorer, naive_folds, naive_points
    from planner.solve.space import enumerate_tuples
    naive = naive_points(p)
    fields = lambda tu: tuple(getattr(tu, k) for k in ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses",
                                                     "cp_ring", "micro_batch", "num_microbatches", "sharding"))
    kept = {(fields(tu), tu.order) for tu in enumerate_tuples(p)}
    out = [f"search tuple {t} is no brute-force point" for t in kept - {(fields(pt), pt.order) for pt in naive}]
    sig = lambda pt: _Scorer(p, pt, naive_folds(p, pt)).signature()
    by_fields: dict = {}
    for pt in naive:
        by_fields.setdefault(fields(pt), []).append(pt)
    for f, pts in by_fields.items():
        searched = {sig(pt) for pt in pts if (f, pt.order) in kept}
        if {sig(pt) for pt in pts} != searched:
            out.append(f"an order of {f} that the search dropped costs differently")
    return out


@pytest.mark.parametrize("seed", range(6))
def test_search_and_brute_force_enumerate_the_same_space(seed):
    # The brute force enumerates every point itself (planner.solve.bruteforce.naive_points,
    # no import of the search's space). Both directions: every tuple the search keeps is a
    # brute-force point, and every brute-force point is a search tuple up to the rank order,
    # with one the search keeps that binds the cost model to the very same values.
    assert _space_mismatch(_small_free_problem(seed)) == []


def test_space_check_catches_a_dropped_order(monkeypatch):
    # mutation: a de-duplication that keeps one rank order only (as a hand-written copy of
    # the localities would once the cost model prices a new one) is caught
    import planner.solve.space as space
    p = make_problem(model="olmoe-1b-7b", gpus=16, gpus_per_node=4, seq=32768, global_batch=16,
                     micro_batches=(1,), shardings=("zero1",))
    assert len(space._orders(2, 2, 4, 1, 4)) > 1          # orders of this problem differ in locality
    assert _space_mismatch(p) == []
    monkeypatch.setattr(space, "_orders", lambda tp, cp, dp, cu, gpn, pp=1: ["tp-cp-dp-pp"])
    assert _space_mismatch(p)


@pytest.mark.parametrize("seed", [1, 6, 9])
def test_brute_force_catches_a_search_that_drops_the_optimum(seed, monkeypatch):
    # mutation: a search whose enumeration omits the degrees of the true optimum must fail
    # the comparison the random problems above rely on
    from planner.solve import search as search_module
    p = _small_free_problem(seed)
    ref = brute_force(p)
    assert ref.layout is not None
    deg = lambda x: (x.tp, x.cp, x.dp, x.pp)
    honest = search_module.enumerate_tuples
    monkeypatch.setattr(search_module, "enumerate_tuples",
                        lambda *a, **kw: [tu for tu in honest(*a, **kw) if deg(tu) != deg(ref.layout)])
    with pytest.raises(AssertionError):
        _check_against(p, search_plans(p, top=3), ref)

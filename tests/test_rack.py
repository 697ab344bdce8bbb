"""Rack-scale NVLink domains: hosts and domains apart, every group priced at
the slowest link it spans given the real rank placement (rank r in domain r // used_per_domain),
GPU presets against their datasheet figures."""
import random

import numpy as np
import pytest

from planner import costmodel as cm
from planner.layout import ORDERS, Layout, RankGrid, uniform_stages
from planner.layout.grid import domain_of, locality
from planner.specs import SpecError, load_gpu, make_problem

# the kinds the cost model prices, the bandwidth symbol each binds, the RankGrid axis of its groups
PRICED = {"tp": ("W_tp", "tp"), "dp_cp": ("W_dpcp", "dp_cp"), "pp": ("W_pp", "pp"), "etp": ("W_etp", "etp"),
          "edp": ("W_edp", "edp")}


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _spans(grid: RankGrid, axis: str, ranks) -> bool:
    """Whether some `axis` group of these ranks has members in two domains, from the placement."""
    return any(len({int(domain_of(m, grid.gpn)) for m in grid.group(axis, r).ranks}) > 1 for r in ranks)


def _random_layout(rng):
    world = rng.choice([24, 48, 64, 128, 144, 192, 256, 576])
    pp = rng.choice([d for d in _divisors(world) if d <= 9])
    R = world // pp
    tp = rng.choice([d for d in _divisors(R) if d <= 8])
    cp = rng.choice(_divisors(R // tp))
    cu = rng.choice(_divisors(cp))
    stages = []
    for s in uniform_stages(2 * pp, pp):
        etp = rng.choice(_divisors(R))
        ep = rng.choice(_divisors(R // etp))
        stages.append(s.model_copy(update={"etp": etp, "ep": ep, "edp": R // (etp * ep)}))
    kind = "ring" if cu == 1 else ("ulysses" if cu == cp else "hybrid")
    return Layout(world=world, tp=tp, cp=cp, dp=R // (tp * cp), pp=pp, cp_kind=kind, cp_ulysses=cu,
                  cp_ring=cp // cu, order=rng.choice(ORDERS), num_microbatches=pp, stages=tuple(stages))


@pytest.mark.parametrize("seed", range(40))
def test_locality_is_the_rank_placement_for_any_domain(seed):
    # per stage, each kind is inside a domain iff no group of it has members in two domains
    # (domain r // U, U = 72, 64, 8 or odd sizes), and ep_off is the worst member's share of peers
    # off its domain, counted from the groups themselves
    rng = random.Random(seed)
    L, U = _random_layout(rng), rng.choice([4, 8, 9, 12, 36, 64, 72])
    grid, R = RankGrid(L, U), L.stage_ranks
    worst_any = {}
    for s in L.stages:
        ranks = range(s.index * R, (s.index + 1) * R)
        loc = locality(grid.inputs(s.index), U)
        for kind in ("tp", "dp_cp", "etp", "ep", "edp"):
            assert bool(loc[kind]) == (not _spans(grid, kind, ranks)), (kind, s.index)
            worst_any[kind] = worst_any.get(kind, False) or _spans(grid, kind, ranks)
        assert bool(loc["pp"]) == (not _spans(grid, "pp", range(L.world)))
        off = 0.0
        for r in ranks:
            g = grid.group("ep", r)
            if len(g.ranks) > 1:
                same = sum(1 for m in g.ranks if m // U == r // U) - 1
                off = max(off, 1 - same / (len(g.ranks) - 1))
        assert float(loc["ep_off"]) == pytest.approx(off, abs=1e-12)
    # without a stage, every stage's worst (the search's rows): a folding priced at its worst stage
    if len({s.fold for s in L.stages}) == 1:
        whole = {k: v for k, v in grid.inputs(0).items() if k not in ("first", "ranks")}
        loc = locality(whole, U)
        for kind in ("tp", "dp_cp", "etp", "ep", "edp"):
            assert bool(loc[kind]) == (not worst_any[kind])


def _gb200(**kw):
    return make_problem(model="mixtral-8x7b", gpu="gb200-nvl72", gpus=576, seq="8k", global_batch=1152, **kw)


def _priced(problem, layout):
    """Per stage: {kind: bandwidth the cost model binds} of the layout, through evaluate's own inputs."""
    vals = cm.layout_values(problem, cm.layout_vector(layout))
    return [{k: float(vals[sym][i]) for k, (sym, _) in PRICED.items()} for i in range(layout.pp)], vals


def _check_priced(problem, layout):
    """Each stage's groups priced as the search prices a (tuple, folding) row: a kind at the
    inter-domain link iff some group of it spans two domains anywhere in the layout with every
    stage on this stage's folding (read from the RankGrid's groups)."""
    gpu, U = problem.cluster.gpu, problem.cluster.domain_used
    nvlink, net = gpu.intra_node_bw * gpu.bus_efficiency, gpu.inter_node_bw * gpu.bus_efficiency
    priced, vals = _priced(problem, layout)
    crossing = 0
    for s in layout.stages:
        same = layout.model_copy(update={"stages": tuple(t.model_copy(update=dict(zip(("etp", "ep", "edp"), s.fold)))
                                                         for t in layout.stages)})
        grid = RankGrid(same, U)
        for kind, (_, axis) in PRICED.items():
            spans = _spans(grid, axis, range(layout.world))
            assert priced[s.index][kind] == (net if spans else nvlink), (kind, s.index)
            crossing += spans and kind != "pp"
    return crossing, vals


@pytest.fixture(scope="module")
def gb200_576():
    from planner.solve import search_plans
    p = _gb200()
    return p, search_plans(p, top=1, fixed={"pp": 9}, time_limit=30, settle=False)   # what CP-SAT minimised


def test_576_gpu_gb200_search_is_optimal_and_its_objective_is_the_estimate(gb200_576):
    # one owner of the step time: the plan's estimate is what CP-SAT minimised (the integer
    # tables round every coefficient up, to the nanosecond), and evaluate binds each stage's
    # bandwidths exactly as the search's row of that (tuple, folding) does
    from planner.solve.search import TUPLE_FIELDS
    from planner.solve.space import _RowInputs, enumerate_tuples
    p, res = gb200_576
    assert res.status == "OPTIMAL"
    plan = res.plans[0]
    est = plan.estimate.step_time * 1e9
    assert 0 <= plan.objective_ns - est <= 1e-6 * est
    L = plan.layout
    (tu,) = enumerate_tuples(p, {k: getattr(L, k) for k in TUPLE_FIELDS})
    row = _RowInputs([tu], float(L.master == "fp32"))
    evaluated = cm.layout_values(p, cm.layout_vector(L))
    bw = [k for k in evaluated if k.startswith("W_")] + ["f_off"]
    for s in L.stages:
        searched = cm.layout_values(p, row.grid(0, 1, [s.fold]))
        for k in bw:
            at = lambda v, i=0: float(np.asarray(v, float).reshape(-1)[i if np.size(v) > 1 else 0])
            assert at(searched[k]) == at(evaluated[k], s.index), (k, s.index)


def test_576_gpu_gb200_plan_prices_groups_crossing_racks_at_the_inter_rack_link(gb200_576):
    p, res = gb200_576
    assert (p.cluster.gpus_per_node, p.cluster.gpus_per_domain, p.cluster.used_per_domain) == (4, 72, 72)
    L = res.plans[0].layout
    assert L.stage_ranks == 64
    grid = RankGrid(L, 72)
    # 64-rank stages on 72-GPU racks: stage s covers ranks [64 s, 64 s + 64); all but the first
    # and the last hold a rack boundary, and the stage's outermost dense axis spans it
    straddle = [s.index for s in L.stages if int(domain_of(64 * s.index, 72)) != int(domain_of(64 * s.index + 63, 72))]
    assert straddle == list(range(1, 8))
    outer = "dp_cp" if L.dp * L.cp > 1 else "tp"
    for s in L.stages:
        assert _spans(grid, outer, range(64 * s.index, 64 * s.index + 64)) == (s.index in straddle)
    crossing, vals = _check_priced(p, L)
    assert crossing >= len(straddle)
    # the estimate is dearer than the same layout on a domain the stages align with (64 of 72 used)
    aligned = _gb200(used_per_domain=64)
    assert _check_priced(aligned, L)[0] == 0
    assert cm.evaluate(p, L).step_time > cm.evaluate(aligned, L).step_time


@pytest.mark.parametrize("order", ["tp-cp-dp-pp", "dp-tp-cp-pp"])
def test_64_of_72_placement_prices_groups_across_racks(order):
    # 128-rank stages on racks using 64 of 72: every stage's outer groups cross one rack boundary
    p = make_problem(model="mixtral-8x7b", gpu="gb200-nvl72", gpus=256, used_per_domain=64, seq="8k",
                     global_batch=256)
    stages = tuple(s.model_copy(update={"etp": 1, "ep": 8, "edp": 16}) for s in uniform_stages(32, 2))
    L = Layout(world=256, tp=4, cp=1, dp=32, pp=2, order=order, num_microbatches=8, stages=stages)
    crossing, vals = _check_priced(p, L)
    assert crossing > 0
    # ep groups of 8 consecutive ranks (etp 1) sit inside a 64-GPU part of a rack: NVLink, no share off
    assert np.all(vals["f_off"] == 0.0)


def test_hgx_aligned_groups_unchanged():
    # on HGX (domain = host = 8) a group stays on NVLink iff stride * size <= 8 for grid-aligned
    # power-of-two groups (the alignment rule the exact one reduces to there)
    p = make_problem(model="mixtral-8x7b", gpu="h100-sxm", gpus=64, seq="8k", global_batch=64)
    for tp, dp, pp in [(8, 4, 2), (4, 8, 2), (2, 16, 2), (8, 8, 1)]:
        stages = tuple(s.model_copy(update={"etp": 1, "ep": 8, "edp": tp * dp // 8}) for s in uniform_stages(32, pp))
        L = Layout(world=64, tp=tp, dp=dp, pp=pp, order="tp-cp-dp-pp", num_microbatches=pp, stages=stages)
        priced, _ = _priced(p, L)
        bw = lambda intra: (p.cluster.gpu.intra_node_bw if intra else p.cluster.gpu.inter_node_bw) * 0.8
        for st in priced:
            assert st["tp"] == bw(tp <= 8) and st["dp_cp"] == bw(tp * dp <= 8) and st["pp"] == bw(pp == 1)
        _check_priced(p, L)


def test_hosts_and_domains_are_separate_facts():
    p = make_problem(gpu="gb200-nvl72", gpus=128, seq="8k", global_batch=128)       # 72 + 56: legal now
    assert (p.cluster.gpus_per_node, p.cluster.gpus_per_domain, p.cluster.used_per_domain) == (4, 72, 72)
    d = p.to_dict()["cluster"]
    assert (d["gpus_per_node"], d["gpus_per_domain"], d["used_per_domain"], d["arch"]) == (4, 72, 72, "blackwell")
    # --gpus-per-node on an HGX preset still sets the NVLink domain (its meaning before)
    q = make_problem(gpu="h100-sxm", gpus=8, gpus_per_node=4, seq="8k", global_batch=8)
    assert (q.cluster.gpus_per_domain, q.cluster.used_per_domain) == (4, 4)
    # on a rack, 64 "per node" names the flag that says 64 of each rack
    with pytest.raises(SpecError, match=r"used_per_domain\(72\) is not a multiple of gpus_per_node\(64\).*"
                                        r"--used-per-domain 64"):
        make_problem(gpu="gb200-nvl72", gpus=128, gpus_per_node=64, seq="8k", global_batch=128)
    with pytest.raises(SpecError, match=r"used_per_domain\(80\) exceeds gpus_per_domain\(72\)"):
        make_problem(gpu="gb200-nvl72", gpus=128, used_per_domain=80, seq="8k", global_batch=128)
    with pytest.raises(SpecError, match=r"gpus\(130\) is not a multiple of gpus_per_node\(4\)"):
        make_problem(gpu="gb200-nvl72", gpus=130, seq="8k", global_batch=130)


def test_plan_file_without_domain_fields_reads_as_before(tmp_path):
    from planner.specs import problem_from_dict
    p = make_problem(gpu="h100-sxm", gpus=16, seq="8k", global_batch=16)
    d = p.to_dict()
    for k in ("gpus_per_domain", "used_per_domain", "arch"):
        d["cluster"].pop(k)
    q = problem_from_dict(d)
    assert (q.cluster.gpus_per_node, q.cluster.gpus_per_domain, q.cluster.used_per_domain) == (8, 8, 8)


# datasheet figures (shared/REFERENCE.md "GPUs" table: dense BF16, scale-up link per direction,
# domain); H800 / B300 / GB300 from their datasheets as the presets' comments cite them
DATASHEET = {"a100-80g": (312e12, 2.0e12, 300e9, 8), "h100-sxm": (989e12, 3.35e12, 450e9, 8),
             "h200": (989e12, 4.8e12, 450e9, 8), "b200": (2250e12, 8e12, 900e9, 8),
             "gb200-nvl72": (2500e12, 8e12, 900e9, 72), "mi300x": (1307e12, 5.3e12, 448e9, 8),
             "h800": (989e12, 3.35e12, 400e9 / 2, 8), "b300": (36e15 / 2 / 8, 8e12, 1.8e12 / 2, 8),
             "gb300-nvl72": (360e15 / 2 / 72, 576e12 / 72, 130e12 / 72 / 2, 72)}


@pytest.mark.parametrize("name", sorted(DATASHEET))
def test_presets_match_datasheets(name):
    g, (peak, hbm, link, domain) = load_gpu(name), DATASHEET[name]
    assert g.peak_flops == pytest.approx(peak, rel=0.01)
    assert g.hbm_bw == pytest.approx(hbm, rel=0.01)
    assert g.intra_node_bw == pytest.approx(link, rel=0.01)
    assert g.domain == domain
    assert g.arch is not None


def test_attention_label_per_architecture():
    assert "Hopper" in load_gpu("h100-sxm").attention_name("fused")
    for name in ("b200", "gb200-nvl72", "b300", "gb300-nvl72"):
        label = load_gpu(name).attention_name("fused")
        assert "Blackwell" in label and "Hopper" not in label


@pytest.mark.full_matrix        # 25 s on 2 cores: with the slow set (.ci/run: pytest -m full_matrix)
def test_joint_floor_of_bottleneck_and_exposure_is_below_every_tuples_optimum(gb200_576):
    # the joint floor (planner/solve/exposure.py: max over stages of W busy + V excess, relaxed
    # DP) never exceeds W t_max + V d_max of a plan CP-SAT finds for the same tuple (its
    # objective less V times its optimizer step); on the plan's own tuple it is within 0.1%
    from planner.solve.exposure import joint_floors
    from planner.solve.search import TUPLE_FIELDS
    from planner.solve.space import enumerate_tuples, tables
    from planner.solve.stage_model import solve_stages
    p, res = gb200_576
    tuples = enumerate_tuples(p, {"pp": 9})
    L = res.plans[0].layout
    best = next(i for i, tu in enumerate(tuples) if all(getattr(tu, k) == getattr(L, k) for k in TUPLE_FIELDS))
    pick = [best] + random.Random(0).sample(range(len(tuples)), 3)
    tab = tables(p, [tuples[i] for i in pick])
    joint = joint_floors(p, tab, list(range(len(pick))))
    for j, tu in enumerate(tab.tuples):
        sol = solve_stages(p, tab, j, time_limit=2.0)
        if sol.layout is None:
            continue
        opt = cm.evaluate(p, sol.layout).optimizer * 1e9
        assert joint[j] <= sol.objective - tu.vpp * opt + 1, (j, joint[j], sol.objective)
    # on the plan's tuple the floor is within 0.1% of the plan (its bottleneck part alone, W t_max, is 12% below)
    plan = res.plans[0]
    assert joint[0] >= 0.999 * L.vpp * (plan.objective_ns - plan.estimate.optimizer * 1e9)


def test_a_preset_file_gpu_reads_back_whole_from_its_plan_record():
    """A calibrated GPU (a preset file, not in the catalog) comes back from the plan file with every field
    the cost model reads, set or not, so a plan re-estimated from its file is the plan that was written
    (a calibrated preset once lost gemm_epilogue on the way and audit --measured moved by 0.1%)."""
    from planner.specs import problem_from_dict
    from planner.specs.hardware import GPU_RECORDED
    from planner.specs.catalog import load_gpu
    base = load_gpu("h100-sxm")
    assert base.gemm_epilogue and base.fp8_deepgemm_efficiency        # the fields that were dropped: set on H100
    gpu = base.model_copy(update={"name": "my-cluster.yaml"})
    p = make_problem(gpu="h100-sxm", gpus=8, seq="8k", global_batch=8)
    p = p.model_copy(update={"cluster": p.cluster.model_copy(update={"gpu": gpu})})
    q = problem_from_dict(p.to_dict())
    assert q.cluster.gpu.name == "my-cluster.yaml"
    assert {k: getattr(q.cluster.gpu, k) for k in GPU_RECORDED} == {k: getattr(gpu, k) for k in GPU_RECORDED}

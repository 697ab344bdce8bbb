"""EP dispatchers and EP-communication overlap as plan choices: the cost against
published measurements, the search choosing what the target runs, Megatron's own code judging the
exports, and the audit reading the flags back."""
import sys
from pathlib import Path

import pytest

from planner import costmodel as cm
from planner.audit import detect
from planner.audit.audit import run_audit
from planner.engines import constraints, export
from planner.engines.errors import ExportError
from planner.engines.judge import available, judge
from planner.layout import Layout, LayoutError
from planner.plan import Plan
from planner.solve import targets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import fidelity_ep  # noqa: E402
import megatron_cases  # noqa: E402


def _with(plan, **kw):
    L = plan.layout.model_copy(update=kw)
    L = Layout.model_validate(L.model_dump())
    return Plan(plan.problem, L, cm.evaluate(plan.problem, L), {})


@pytest.fixture(scope="module")
def pair():
    return fidelity_ep.overlap_pair()


def test_ep_overlap_pair(pair):
    """Megatron-Bridge's EP-overlap pair (Qwen3-30B-A3B, 16 H100, HybridEP): with the 1F1B A2A overlap
    (20.992 s) faster than without it (24.714 s). The window model hides more than that run did (36.55%
    of its communication concurrent): docs/fidelity.md says by how much."""
    off, on = pair
    assert on.estimate < off.estimate


@pytest.mark.xfail(strict=True, reason="with HybridEP's NVLink leg at the link (as Megatron's MoE-layer CI "
                   "measures it on H100) the run without the overlap is ~24% slower than the model: its small "
                   "expert GEMMs (hidden 2,048, expert 768) and eager per-layer host work are not all priced "
                   "(docs/fidelity.md, known misses)")
def test_ep_overlap_pair_without_overlap_within_10_percent(pair):
    off, _ = pair
    assert off.estimate / off.measured - 1 == pytest.approx(0, abs=0.10)


def test_deepseek_v3_profile_deepep_terms():
    """DeepSeek-V3's profile (one EP64 rank, a layer pair): DeepEP dispatch + combine 20,113 us (FP8
    dispatch, waiting included), 96% hidden. The BF16 estimate of the four ops within 15%, and the
    window model hides within 10 points of it."""
    d = fidelity_ep.ds3_terms()
    assert d["ops_us"] / fidelity_ep.DS3_DEEPEP_US - 1 == pytest.approx(0, abs=0.15)
    assert d["hidden"] == pytest.approx(fidelity_ep.DS3_HIDDEN, abs=0.10)


def test_deepep_moves_fewer_bytes_than_alltoall_across_nodes():
    """A token bound for k experts on one remote node crosses the NIC once with DeepEP (its internode
    kernels forward it over NVLink), once per expert with NCCL's all-to-all: on the pair's 2 nodes
    the estimate of one MoE layer's EP time drops by more than the all-to-all's 4 rows to 1."""
    p = fidelity_ep.pair_problem(ep_overlap=False)
    L = fidelity_ep.pair_layout(p)
    a2a = cm.evaluate(p, L.model_copy(update={"dispatcher": "alltoall"})).exposed["ep"]
    dep = cm.evaluate(p, L.model_copy(update={"dispatcher": "deepep"})).exposed["ep"]
    assert dep < a2a / 2


def test_search_chooses_overlap_where_megatron_runs_it():
    p = fidelity_ep.pair_problem(ep_overlap=True)
    res = targets.search(p, top=1, fixed=fidelity_ep.PAIR_FIXED, time_limit=20)
    L = res.plans[0].layout
    assert L.ep_overlap and L.dispatcher in ("deepep", "hybridep")
    # torchtitan's export writes no dispatcher and no overlap: its plans keep all-to-all, no overlap
    tt = p.model_copy(update={"train": p.train.model_copy(update={**constraints("torchtitan").train_defaults(),
                                                                  "dispatchers": ("alltoall",), "ep_overlap": False})})
    res = targets.search(tt, top=1, fixed=fidelity_ep.PAIR_FIXED, time_limit=20)
    assert res.plans and res.plans[0].layout.dispatcher == "alltoall" and not res.plans[0].layout.ep_overlap


def test_megatron_rules_refuse_what_megatron_refuses():
    plan = megatron_cases.make(**megatron_cases.MORE["qwen3-235b-tp4-pp4"])    # full recompute, vpp 1
    bad = _with(plan, dispatcher="deepep", ep_overlap=True)
    msgs = " ".join(v.message for v in constraints("megatron").violations(bad.layout, bad.problem))
    assert "no full recompute" in msgs and "virtual pipeline" in msgs
    tt = constraints("torchtitan").violations(bad.layout, bad.problem)
    assert any(v.rule == "target.dispatcher" for v in tt)
    with pytest.raises(Exception):
        Layout.model_validate({**plan.layout.to_dict(), "dispatcher": "nccl"})


@pytest.mark.skipif(available("megatron") is not None, reason=str(available("megatron")))
def test_megatron_judges_each_dispatcher_and_overlap(tmp_path):
    """Megatron's own parse_args / validate_args / TransformerConfig take every dispatcher the exporter
    writes, with and without the overlap and delayed wgrad; and refuse the overlap our rule refuses."""
    base = megatron_cases.make(**megatron_cases.MORE["qwen3-30b-ep8"])
    cases, want = [], []
    for name in ("alltoall", "allgather", "deepep", "hybridep"):
        for ov in ((False, True) if name != "allgather" else (False,)):
            plan = _with(base, dispatcher=name, ep_overlap=ov)
            assert not constraints("megatron").violations(plan.layout, plan.problem)
            cases.append(megatron_cases.payload(plan, export.render(plan, "megatron")))
            want.append(True)
    # delayed wgrad is written when a layout asks; with --overlap-grad-reduce Megatron wants Transformer
    # Engine >= 2.8.0 (arguments.py:1822-1827), which the judge's environment does not have
    dw = _with(base, dispatcher="deepep", ep_overlap=True, delay_wgrad=True)
    cases.append(megatron_cases.payload(dw, export.render(dw, "megatron")))
    want.append(False)
    # full recompute with the overlap: our rule refuses to export it, and Megatron refuses the flags
    full = _with(megatron_cases.make(**{**megatron_cases.MORE["qwen3-30b-ep8"], "sel": None, "full": [48]}),
                 dispatcher="deepep")
    with pytest.raises(ExportError, match="no full recompute"):
        export.render(_with(full, dispatcher="deepep", ep_overlap=True), "megatron")
    files = export.render(full, "megatron")
    files = {k: (v + "--overlap-moe-expert-parallel-comm\n" if k.endswith(".args") else v) for k, v in files.items()}
    cases.append(megatron_cases.payload(full, files))
    want.append(False)
    verdicts = judge("megatron", cases)
    assert [v["accepted"] for v in verdicts] == want, [v["reason"] for v in verdicts]
    assert "delay_wgrad_compute" in verdicts[-2]["reason"] and "overlap_moe_expert_parallel_comm" not in \
        verdicts[-2]["reason"]
    assert "full recomputation" in verdicts[-1]["reason"]
    # the audit reads the flags back into the same layout (no longer unmodelled)
    plan = _with(base, dispatcher="hybridep", ep_overlap=True, delay_wgrad=True)
    files = export.write(plan, "megatron", str(tmp_path / "train.sh"))
    rep = run_audit(detect.load([f for f in files if f.endswith(".sh")][0]), plan.problem, search=False)
    assert (rep.layout.dispatcher, rep.layout.ep_overlap, rep.layout.delay_wgrad) == ("hybridep", True, True)
    assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=0.01)


def test_audit_reads_the_modelzoo_dispatcher_and_overlap():
    """The ModelZoo launcher's DISPATCHER / A2A_OVERLAP become the layout's dispatcher and overlap;
    none of those flags is left unmodelled."""
    root = Path(__file__).resolve().parents[1] / "examples" / "audit" / "real"
    cfg = detect.load(str(root / "zoo_run_qwen3_30b.sh"), env={"DISPATCHER": "deepep", "A2A_OVERLAP": "1"})
    assert cfg.extra["dispatcher"] == "deepep" and cfg.extra["ep_overlap"] and cfg.extra["delay_wgrad"]
    shown = " ".join(e[0] for e in cfg.effects)
    for name in ("moe-token-dispatcher-type", "moe-flex-dispatcher-backend", "overlap-moe-expert-parallel-comm",
                 "delay-wgrad-compute"):
        assert name not in shown


def test_modelzoo_qwen3_235b_audit_near_its_best_plan(tmp_path):
    """The ModelZoo's Qwen3-235B-A22B H100 launch (EP32, DeepEP, A2A overlap) audited: its rating
    against the best plan is no longer >= 1.5x (it was 2.12x with EP priced as exposed all-to-all)."""
    from planner.specs import make_problem
    cfg = detect.load(fidelity_ep.qwen3_235b_launch(tmp_path))
    rep = run_audit(cfg, make_problem(model="qwen3-235b-a22b", gpus=256, seq=4096, global_batch=2048),
                    time_limit=30)
    assert (rep.layout.dispatcher, rep.layout.ep_overlap) == ("deepep", True)
    assert rep.best_estimate is not None
    assert rep.estimate.step_time / rep.best_estimate.step_time < 1.5


def test_plan_file_and_layout_string_carry_the_dispatch(tmp_path):
    """A plan's dispatcher and overlap survive its JSON file and the audit reads them back (also from
    an inline layout string); the estimate is the plan's."""
    from planner import plan as planmod
    base = megatron_cases.make(**megatron_cases.MORE["qwen3-30b-ep8"])
    plan = _with(base, dispatcher="deepep", ep_overlap=True)
    path = tmp_path / "plan.json"
    path.write_text(planmod.dumps([plan]))
    back = planmod.load(str(path))[0]
    assert (back.layout.dispatcher, back.layout.ep_overlap) == ("deepep", True)
    rep = run_audit(detect.load(str(path)), plan.problem, search=False)
    assert (rep.layout.dispatcher, rep.layout.ep_overlap) == ("deepep", True)
    assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=1e-6)
    rep = run_audit(detect.load("tp=1,dp=16,ep=8,dispatcher=hybridep,ep_overlap=1", world=16), plan.problem,
                    search=False)
    assert (rep.layout.dispatcher, rep.layout.ep_overlap) == ("hybridep", True)
    with pytest.raises(Exception, match="dispatcher must be one of"):
        detect.load("tp=1,dp=16,ep=8,dispatcher=nccl", world=16)

"""run_audit and `foldplan audit`: the config as a problem + layout, memory, estimate, best plan, smallest change.

Checks lean on numbers from outside the audit: published parameter counts (REFERENCE.md),
the layout rules and cost model of planner/ (re-run on what the audit returns), and the
solver's optimum (an audited plan of foldplan's own must come out as the best).
"""

import json
from pathlib import Path

import pytest

from planner import costmodel as cm
from planner import plan as planmod
from planner.audit.audit import model_spec, run_audit, to_layout
from planner.audit.detect import load
from planner.cli import main
from planner.layout import Layout, violations
from planner.specs import load_model, make_problem, published
from planner.solve import search_plans

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "audit"
SMALL = dict(model="olmoe-1b-7b", gpus=8, seq=4096, global_batch=64)


def rules(report, severity="error"):
    return {f.rule for f in report.findings if f.severity == severity}


def test_script_models_reproduce_published_parameter_counts():
    # Mixtral: the script lacks the vocabulary (it comes from the tokenizer), the preset gives it
    m, _ = model_spec(load(str(EXAMPLES / "megatron_mixtral_8x7b.sh")), load_model("mixtral-8x7b"))
    assert cm.param_counts(m)["total"] == pytest.approx(published("mixtral-8x7b")["total"], rel=0.01)
    assert cm.param_counts(m)["active"] == pytest.approx(published("mixtral-8x7b")["active"], rel=0.01)
    # DeepSeek-V3: every shape is in the script; the base preset (a dense llama) contributes nothing
    m, findings = model_spec(load(str(EXAMPLES / "megatron_deepseek_v3.sh")), load_model("llama3-8b"))
    assert not findings
    assert cm.param_counts(m)["total"] == pytest.approx(published("deepseek-v3")["total"], rel=0.01)
    assert cm.param_counts(m)["active"] == pytest.approx(published("deepseek-v3")["active"], rel=0.03)


def test_megatron_layout_keeps_the_uneven_split_and_folding():
    cfg = load(str(EXAMPLES / "megatron_deepseek_v3.sh"))
    problem = make_problem(model="deepseek-v3", gpus=1024, seq=4096, global_batch=8192)
    L = to_layout(cfg, problem)
    sizes = [s.num_layers for s in L.stages]
    assert sizes == [3] + [4] * 14 + [2]
    assert {s.fold for s in L.stages} == {(1, 64, 1)}
    assert L.num_microbatches == 8192 // 64 and all(s.recompute_selective == s.num_layers for s in L.stages)
    assert violations(L, problem) == []


def test_audit_of_a_legal_layout_with_the_best_plan_and_smallest_change():
    problem = make_problem(**SMALL)
    report = run_audit(load("tp=1,cp=1,pp=1,dp=8,ep=8", gpus=8), problem, time_limit=60)
    assert rules(report) == set()
    est = report.estimate
    # the estimate is the cost model's on the same layout
    assert est.step_time == pytest.approx(cm.evaluate(report.problem, report.layout).step_time)
    assert report.search["status"] == "OPTIMAL"
    # the config is one point of the solver's space: the proved optimum cannot be slower
    assert report.best_estimate.step_time <= est.step_time * (1 + 1e-9)
    assert report.speedup_of_best == pytest.approx(est.step_time / report.best_estimate.step_time)
    sc = report.smallest_change
    assert sc is not None and 1 <= len(sc["changes"]) <= 2
    L = Layout.from_dict(sc["layout"])
    assert violations(L, report.problem) == []
    again = cm.evaluate(report.problem, L)
    assert again.step_time == pytest.approx(sc["step_time_s"])
    assert again.peak_bytes <= report.problem.cluster.memory_budget_gib * cm.GiB
    gain = (est.step_time - again.step_time) / (est.step_time - report.best_estimate.step_time)
    assert gain == pytest.approx(sc["share_of_best_speedup"])
    doc = report.to_json()
    assert {"schema", "layout", "estimate", "findings", "best", "speedup_of_best"} <= set(doc)
    assert doc["schema"] == "foldplan.audit/1"
    json.dumps(doc)  # plain JSON, no numpy scalars left


def test_memory_over_budget_names_the_stage_and_term_and_the_fix_fits():
    # the Mixtral fixture (TP1 PP4 EP8 on 32 GPUs, no recompute) asked to run 32k sequences
    problem = make_problem(model="mixtral-8x7b", gpus=32, seq="32k", global_batch=64)
    cfg = load(str(EXAMPLES / "megatron_mixtral_8x7b.sh"), seq=32768, global_batch=64)
    report = run_audit(cfg, problem, search=False)
    est = report.estimate
    budget = problem.cluster.memory_budget_gib
    worst = max(est.stages, key=lambda s: s.total)
    assert worst.total / cm.GiB > budget
    f = next(f for f in report.findings if f.rule == "memory.stage_over_budget")
    terms = {k: getattr(worst, k) for k in ("weights", "grads", "optimizer", "activations", "logits", "buffers")}
    top = max(terms, key=terms.get)
    assert f"stage {worst.index} needs {worst.total / cm.GiB:.1f} GiB > budget {budget:.1f} GiB" in f.message
    assert f"{top} is the largest term" in f.message
    assert f"by {worst.total / cm.GiB - budget:.1f} GiB" in f.message
    sc = report.smallest_change
    assert sc["fixes_the_config"] and len(sc["changes"]) <= 2
    L = Layout.from_dict(sc["layout"])
    assert violations(L, report.problem) == []
    assert cm.evaluate(report.problem, L).peak_bytes <= budget * cm.GiB


def test_illegal_config_gets_framework_and_layout_errors_and_no_estimate(tmp_path):
    text = (EXAMPLES / "megatron_mixtral_8x7b.sh").read_text().replace(
        "--seq-length 4096", "--seq-length 8190 --context-parallel-size 4")
    path = tmp_path / "train.sh"
    path.write_text(text)
    report = run_audit(load(str(path)), make_problem(model="mixtral-8x7b", gpus=32, seq=8190, global_batch=256),
                       search=False)
    assert "layout.cp.ring_seq" in rules(report)  # planner.layout's rule, once (not re-checked as megatron.*)
    assert report.estimate is None and report.to_json()["estimate"] is None
    assert report.to_json()["layout"]["cp"] == 4  # what the config asks for is still shown


def test_auditing_foldplans_own_best_plan_finds_it_best(tmp_path):
    problem = make_problem(**SMALL)
    # the fastest plan (no tie-break: the audit offers the fastest, planner/audit/audit.py)
    res = search_plans(problem, top=1, time_limit=60, settle=False)
    assert res.status == "OPTIMAL"
    path = tmp_path / "plan.json"
    path.write_text(planmod.dumps(planmod.from_search(problem, res)))
    report = run_audit(load(str(path)), problem, time_limit=60)
    assert rules(report) == set() and "audit.slower_than_best" not in rules(report, "warning")
    assert report.layout == res.plans[0].layout
    assert report.speedup_of_best == pytest.approx(1.0, rel=1e-6)
    assert report.smallest_change is None  # nothing to gain


def test_cli_audit_exit_codes_and_json(capsys):
    rc = main(["audit", "tp=1,cp=1,pp=1,dp=8,ep=8", "--gpus", "8", "--model", "olmoe-1b-7b", "--seq", "4096",
               "--global-batch", "64", "--json"])
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert rc == 0 and doc["schema"] == "foldplan.audit/1" and doc["best"] is not None
    assert doc["layout"]["stages"][0]["ep"] == 8
    rc = main(["audit", "tp=3,cp=1,pp=1,dp=8", "--gpus", "24", "--model", "olmoe-1b-7b", "--seq", "4096",
               "--global-batch", "48"])
    out = capsys.readouterr().out
    assert rc == 1 and "ERROR" in out and "tp(3) does not divide heads(16)" in out
    rc = main(["audit", "tp=2,tensor=4", "--model", "olmoe-1b-7b"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "unknown layout key 'tensor'" in err


def test_cli_text_report_of_a_fixture(capsys, tmp_path):
    html = tmp_path / "audit.html"
    rc = main(["audit", str(EXAMPLES / "torchtitan_deepseek_v3_16b.toml"), "--gpus", "8", "--model", "olmoe-1b-7b",
               "--report", str(html)])
    out = capsys.readouterr().out
    # local_batch_size 8 without PP is one micro-batch of 8 sequences; the config's per-op SAC
    # is the recompute module "op" (modelled: it keeps every second matmul output), so the
    # config fits the H100 and nothing about it is reported as unmodelled
    assert rc == 0 and "[memory.stage_over_budget]" not in out and "selective_ac_option op" not in out
    assert "audit of" in out and "(torchtitan)" in out
    # torchtitan 0.3's registry has no OLMoE: no torchtitan plan to compare with, and the audit says why
    assert "best plan: none: torchtitan 0.3 cannot run it: model olmoe-1b-7b has no torchtitan flavour" in out
    page = html.read_text()
    assert page.lower().startswith("<!doctype html>") and "torchtitan_deepseek_v3_16b.toml" in page


def test_megatron_without_overlap_grad_reduce_exposes_the_reduction(tmp_path):
    # Megatron-LM's --overlap-grad-reduce is off by default (arguments.py at d98e8a6, :3121):
    # a script without it reduces the gradients after the last backward, the whole reduction
    # exposed; the audit estimates that job, says what the flag would save, and compares it
    # with a best plan that overlaps (foldplan's export sets the flag)
    text = (EXAMPLES / "megatron_mixtral_8x7b.sh").read_text()
    assert "--overlap-grad-reduce" in text
    off = tmp_path / "no_overlap.sh"
    off.write_text(text.replace("--overlap-param-gather", "").replace("--overlap-grad-reduce", ""))
    on_rep = run_audit(load(str(EXAMPLES / "megatron_mixtral_8x7b.sh")), make_problem(model="mixtral-8x7b"),
                       search=False)
    off_rep = run_audit(load(str(off)), make_problem(model="mixtral-8x7b"), search=False)
    assert on_rep.problem.train.overlap_grad_reduce and not off_rep.problem.train.overlap_grad_reduce
    assert "time.no_overlap_grad_reduce" not in rules(on_rep, "warning")
    assert "time.no_overlap_grad_reduce" in rules(off_rep, "warning")
    # the same layout; the step differs by the reduction the last micro-batch hid
    assert off_rep.layout == on_rep.layout
    st = off_rep.estimate.stages
    reduction = max(s.dp_comm + s.edp_comm for s in st)
    hidden = reduction - (on_rep.estimate.exposed["dp"] + on_rep.estimate.exposed["edp"])
    assert hidden > 0
    assert off_rep.estimate.step_time == pytest.approx(on_rep.estimate.step_time + hidden, rel=1e-9)
    # the search plans with the overlap on, and says so when asked otherwise
    bad = off_rep.problem
    with pytest.raises(ValueError, match="overlap_grad_reduce"):
        search_plans(bad, top=1, time_limit=5)


def test_dense_megatron_script_assumes_no_expert_degrees(capsys):
    # a dense GPT-3 script says nothing of experts: no "ep=1 / etp=tp" assumptions, no expert
    # folding in the layout line; a MoE script still lists what it assumed
    rc = main(["audit", str(EXAMPLES / "real" / "mlm_gpt3_175b.sh"), "--gpus", "1024", "--no-best"])
    out = capsys.readouterr().out
    layout = [x for x in out.splitlines() if x.strip().startswith("layout:")]
    assert rc == 0 and layout == ["  layout: tp8 cp1 dp8 pp16, micro-batch 1 x 192"], out
    assert "assumed: ep=" not in out and "assumed: etp=" not in out
    main(["audit", str(EXAMPLES / "megatron_mixtral_8x7b.sh"), "--no-best"])
    out = capsys.readouterr().out
    assert "experts etp1 ep8 edp1" in out and "assumed: etp=1: --expert-tensor-parallel-size not given" in out


@pytest.mark.parametrize("args", [["--gpus", "64", "--seq", "128k"],                     # the main job (bundle)
                                  ["--gpus", "16", "--seq", "32k", "--gpu", "b200", "--memory-gib", "120"],
                                  ["--gpus", "16", "--seq", "32k", "--target", "megatron"]])
def test_audit_of_a_plan_estimates_the_plan_it_reads(args, tmp_path, capsys):
    # the audit of foldplan's own plan.json is the job the plan describes: its GPU and budget,
    # kernels, attention kernel, precision (no flag given): the same step and peak, to the digit
    path = tmp_path / "plan.json"
    assert main(["plan", *args, "--json", "--top", "1", "--time-limit", "30"]) == 0
    path.write_text(capsys.readouterr().out)
    plan = json.loads(path.read_text())["plans"][0]
    assert main(["audit", str(path), "--json", "--no-best"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["estimate"]["step_time_s"] == plan["estimate"]["step_time_s"]
    assert got["estimate"]["peak_memory_gib"] == plan["estimate"]["peak_memory_gib"]

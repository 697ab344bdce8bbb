"""Memory verdicts at what a run holds (planner/audit/memory_verdict.py, planner/costmodel/tail.py).

* Megatron's Mixtral-8x7B recipe (the ModelZoo's benchmarked config: TP1 EP8 PP4, micro-batch 1, seq 4k,
  64 H100, dropless, aux loss; examples/audit/real/zoo_Mixtral-8x7B.yaml) fits at its steady-state
  routing, and the audit's warning states the routing tail with its probability and the fixes.
* The tail's probability is the routing model's own (routing.exceed_probability), checked against a
  simulation of the busiest rank.
* A stage over its budget by less than the estimate's measured error is a warning that says so; the
  figure (`MEMORY_ERROR`) is checked against the measured whole-job rows it comes from.
"""
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest

from planner import costmodel as cm
from planner.audit.audit import run_audit
from planner.audit.detect import load
from planner.audit.memory_verdict import MEMORY_ERROR
from planner.cli import parser, problem_args_of
from planner.cli.audit import base_problem
from planner.costmodel import routing
from planner.costmodel.tail import routing_tail
from planner.specs import make_problem

REAL = Path(__file__).resolve().parent.parent / "examples" / "audit" / "real"
RECIPE = {"TP": "1", "PP": "4", "EP": "8", "CP": "1", "LAYERS_PER_VP": "8", "MBS": "1", "GBS": "256",
          "SEQ_LEN": "4096", "MOE_TOKEN_DISPATCHER": "alltoall", "MOE_GROUPED_GEMM": "true",
          "TOKENIZER_MODEL": "mistralai/Mixtral-8x7B-v0.1"}


def _audit(path: Path, gpus: int, env: dict, *extra):
    argv = ["audit", str(path), "--no-best", "--gpus", str(gpus), *extra]
    argv += [x for kv in env.items() for x in ("--env", f"{kv[0]}={kv[1]}")]
    cfg = load(str(path), gpus=gpus, env=env)
    return run_audit(cfg, base_problem(problem_args_of(parser().parse_args(argv)), cfg), search=False)


@pytest.fixture(scope="module")
def recipe():
    return _audit(REAL / "zoo_Mixtral-8x7B.yaml", 64, RECIPE)


def test_mixtral_recipe_fits_and_warns_of_the_tail(recipe):
    assert recipe.errors == [], [f.message for f in recipe.errors]
    tail, = [f for f in recipe.findings if f.rule == "memory.routing_tail"]
    assert tail.severity == "warning"
    # the warning names the steady load, the tail quantile, the overflow level and its probability, and fixes
    m = re.search(r"at x([\d.]+) the mean expert rows.* x([\d.]+), would need ([\d.]+) GiB > budget ([\d.]+) GiB.*"
                  r"pass x([\d.]+) over the (\d+) MoE layers.*probability ([\d.e+-]+) with the layers' loads "
                  r"independent, at most ([\d.e+-]+)", tail.message)
    assert m, tail.message
    steady, peak, need, budget, level, layers, p_stage, p_layer = (float(x) for x in m.groups())
    assert 1 < steady < level < float(m.group(2)) and need > budget > recipe.estimate.peak_bytes / cm.GiB
    assert layers == 8 and 0 < p_stage < p_layer < 1
    assert "--moe-expert-capacity-factor" in tail.fix and "recompute" in tail.fix


def test_the_tail_is_what_routing_memory_tail_budgets(recipe):
    """The audit's steady verdict plus the tail equals the tail-budgeted estimate of the same layout."""
    pr, L = recipe.problem, recipe.layout
    t = routing_tail(pr, L)
    tail_pr = pr.model_copy(update={"train": pr.train.model_copy(update={"routing_memory": "tail"})})
    tail_est = cm.evaluate(tail_pr, L)
    assert t.tail_gib == pytest.approx(tail_est.stages[t.stage].total / cm.GiB)
    assert t.steady_gib == pytest.approx(recipe.estimate.stages[t.stage].total / cm.GiB)
    # the forced-balance estimate is below the steady one, the tail above it
    forced = pr.model_copy(update={"train": pr.train.model_copy(update={"routing": "forced"})})
    assert cm.evaluate(forced, L).peak_bytes < recipe.estimate.peak_bytes < tail_est.peak_bytes


def test_the_megatron_mixtral_example_fits_too():
    rep = _audit(REAL / "mlm_mixtral_8x7b.sh", 32, {"SLURM_NNODES": "4"})
    assert rep.errors == [] and any(f.rule == "memory.routing_tail" for f in rep.findings)


@pytest.mark.parametrize("experts,ep,rows,sigma,level", [(8, 8, 8192, 0.2, 1.45), (64, 8, 4096, 0.15, 1.25)])
def test_exceed_probability_matches_a_simulation(experts, ep, rows, sigma, level):
    """P(the busiest rank's rows / mean > level) under multinomial routing with normal expert popularity,
    simulated, against the model's closed form."""
    rng = np.random.default_rng(1)
    hits, n = 0, 4000
    for _ in range(n):
        pop = np.clip(1 + sigma * rng.standard_normal(experts), 0.01, None)
        counts = rng.multinomial(rows * ep, pop / pop.sum())
        hits += counts.reshape(ep, -1).sum(1).max() / rows > level
    s = float(routing.rank_spread(rows, experts, ep, sigma))
    model = 1 - (1 - 0.5 * __import__("math").erfc((level - 1) / s / 2 ** 0.5)) ** ep
    assert model == pytest.approx(hits / n, abs=0.03)


def test_over_by_less_than_the_measured_error_is_a_warning_that_says_so():
    p = make_problem(model="llama3-8b", gpus=8, seq=8192, global_batch=16)
    rep = run_audit(load("tp=1,pp=1,dp=8,micro_batch=2,recompute=none,sharding=zero1", gpus=8), p, search=False)
    peak = rep.estimate.peak_bytes / cm.GiB
    for budget, severity in ((peak / (1 + MEMORY_ERROR / 2), "warning"), (peak / (1 + 2 * MEMORY_ERROR), "error")):
        q = make_problem(model="llama3-8b", gpus=8, seq=8192, global_batch=16, memory_gib=budget)
        f, = [f for f in run_audit(rep.cfg, q, search=False).findings if f.rule == "memory.stage_over_budget"]
        assert f.severity == severity, f.message
        assert ("within the estimate's measured error" in f.message) == (severity == "warning")


def test_memory_error_is_the_measured_whole_job_error():
    """MEMORY_ERROR covers the whole-job rows of tests/test_memory_engines.py (torchtitan's Llama 3.1 8B on
    8 and 128 H100, logged max reserved) and is no looser than the largest of them by a point."""
    errors = []
    text = (REAL / "tt_llama3_8b.toml").read_text().replace("local_batch_size = 1", "local_batch_size = 2")
    for gpus, measured in ((8, 82.4), (128, 67.0)):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "llama3_8b_bench.toml"
            path.write_text(text)
            p = make_problem(model="llama3-8b", gpus=gpus, seq=8192, global_batch=2 * gpus)
            est = run_audit(load(str(path)), p, search=False).estimate
        errors.append(abs(est.peak_bytes * (1 + p.cluster.gpu.allocator_margin) / cm.GiB / measured - 1))
    assert max(errors) <= MEMORY_ERROR <= max(errors) + 0.01, errors

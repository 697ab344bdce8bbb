"""What a target refuses, how its plans are ranked and which target the output details.

Each engine says in one line why it cannot run a problem (torchtitan 0.3's registry, RoPE maximum,
recipes and kv-head split; OLMo-core's MLA), rows are priced under each engine's own defaults,
`--top K` lists are prefixes of one another, Megatron's FP8 delayed scaling gets no moe_act /
layernorm recompute and its export names the Transformer Engine it needs, and the main job details
the engine with published runs when the bundle leads it by less than that engine's known error.
"""
from planner import cli
from planner.cli.args import ProblemArgs
from planner.cli.problem_args import build_problem
from planner.engines import constraints
from planner.engines.megatron.export import requirements
from planner.plan import from_search
from planner.solve import targets
from planner.solve.nofit import refusal


def _problem(**kw):
    return build_problem(ProblemArgs(**kw))


def test_each_engine_says_in_one_line_why_it_cannot_run_the_problem():
    # torchtitan 0.3.0 models/qwen3/__init__.py:284 max_seq_len=40960; models/common/decoder.py:163-172
    why = refusal(_problem(model="qwen3-30b-a3b", gpus=16, seq=65536, target="torchtitan"))
    assert "RoPE maximum 40960" in why and "\n" not in why
    assert "no tensorwise recipe" in refusal(_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="torchtitan",
                                                      precision="fp8-tensorwise"))
    assert "mixtral-8x7b has no torchtitan flavour" in refusal(_problem(model="mixtral-8x7b", target="torchtitan"))
    assert "no multi-head latent attention" in refusal(_problem(model="deepseek-v3", gpus=256, target="olmo-core"))
    assert refusal(_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="torchtitan")) == ""
    # decoder.py:143-158: tp must divide the 4 kv heads of Qwen3-30B-A3B
    pr = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="torchtitan")
    rules = [v.rule for v in constraints("torchtitan").degree_violations(pr, tp=8)]
    assert rules == ["target.tp_kv_heads"]
    assert not constraints("torchtitan").degree_violations(pr, tp=4)


def test_other_targets_are_priced_under_their_own_defaults():
    # the problem built for torchtitan carries its aux-free balancing and FSDP shardings; Megatron's row
    # must not inherit them
    for other in ("torchtitan", "bundle", "olmo-core"):
        pr = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target=other)
        mine = targets.with_train(pr, targets.own_defaults(pr, "megatron", {}))
        ref = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="megatron")
        assert mine.train == ref.train, other
    # a flag the user gave is kept for every target
    pr = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="torchtitan", balancing="aux-loss")
    assert targets.with_train(pr, targets.own_defaults(pr, "megatron", {"balancing": "aux-loss"})).train.balancing \
        == "aux-loss"


def test_top_k_lists_are_prefixes():
    pr = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="megatron")
    two = targets.search(pr, top=2, time_limit=20)
    five = targets.search(pr, top=5, time_limit=20)
    assert [c.layout for c in two.plans] == [c.layout for c in five.plans][:len(two.plans)]
    assert two.fastest_ns == five.fastest_ns == min(c.objective_ns for c in five.plans)


def test_megatron_fp8_delayed_recomputes_no_moe_act_or_layernorm_and_export_names_te():
    pr = _problem(model="qwen3-30b-a3b", gpus=16, seq=4096, target="megatron", precision="fp8-delayed")
    plans = from_search(pr, targets.search(pr, top=3, time_limit=20))
    assert plans
    for p in plans:
        used = {m for s in p.layout.stages if s.recompute_selective for m in s.recompute_modules}
        assert not used & {"moe_act", "layernorm"}, used
    # transformer_config.py:2294-2306: MoE FP8 needs TE >= 1.7, FP8 grouped GEMM >= 1.11
    line = requirements(plans[0])[0]
    assert line.startswith("# requires transformer-engine >= 2.1.0") and ">= 1.7.0.dev0 for MoE FP8" in line


def test_main_job_details_megatron_and_says_why(capsys):
    assert cli.main(["plan", "--gpus", "64", "--seq", "128k", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "megatron *" in out and "Detailed: megatron, not the bundle" in out
    assert "torchtitan 0.3 cannot run it: model mixtral-8x7b" in out
    assert cli.main(["plan", "--gpus", "64", "--seq", "128k", "--top", "1", "--target", "bundle"]) == 0
    assert "Detailed: bundle, the target named (--target)." in capsys.readouterr().out


def test_the_detailed_target_reuses_its_priced_search(capsys, monkeypatch):
    """Switching the main job's detail to Megatron reuses the search that priced Megatron on the same
    problem (one search per target, not two), and details the plans that search found."""
    calls = []
    search = targets.search
    monkeypatch.setenv("FOLDPLAN_JOBS", "1")      # every search in this process, where `calls` sees it
    monkeypatch.setattr(targets, "search", lambda pr, **kw: calls.append(pr) or search(pr, **kw))
    assert cli.main(["plan", "--gpus", "64", "--seq", "128k", "--top", "2"]) == 0
    assert "Detailed: megatron, not the bundle" in capsys.readouterr().out
    megatron = [pr for pr in calls if pr.train.target == "megatron"]
    # the searches of Megatron: the pricing one, and the memory-binding one on a larger budget (binding.py)
    assert len({pr.cluster.memory_budget_gib for pr in megatron}) == len(megatron) >= 1

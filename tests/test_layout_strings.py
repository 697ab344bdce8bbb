"""The layout-string grammar (docs/layout-strings.md): one parser, one printer, one completion
rule, the same in audit, explain, compare and plan --fix.

The round trip is checked on layouts the search returns for several problems (not strings
written here) and on hand layouts that set every field away from its default."""
import json

import pytest

from planner import cli
from planner.layout import Layout, LayoutError, Stage
from planner.layout import strings as S
from planner.solve.complete import layout_from_string
from planner.solve.search import search_plans
from planner.specs import make_problem

PROBLEMS = [dict(model="olmoe-1b-7b", gpus=8, seq="8k", global_batch=64),
            dict(model="olmoe-1b-7b", gpus=32, seq="32k", global_batch=64),
            dict(model="llama3-8b", gpus=16, seq="16k", global_batch=32),
            dict(model="qwen3-30b-a3b", gpus=64, seq="32k", global_batch=128)]
FLAGS = ["--model", "olmoe-1b-7b", "--gpus", "16", "--seq", "8k", "--global-batch", "64"]


def _hand() -> Layout:
    """Every field away from its default: hybrid CP, vpp, per-stage folding and recompute with
    modules, zero3 with an fp32 master, DeepEP with overlap and delayed wgrad."""
    stages = (Stage(index=0, layers=(0, 3), etp=1, ep=4, edp=1, recompute_full=1),
              Stage(index=1, layers=(3, 7), etp=1, ep=2, edp=2, recompute_selective=2,
                    recompute_modules=("core_attn", "moe_act")),
              Stage(index=2, layers=(7, 11), etp=1, ep=2, edp=2, recompute_selective=2,
                    recompute_modules=("core_attn", "moe_act")),
              Stage(index=3, layers=(11, 16), etp=2, ep=2, edp=1))
    return Layout(world=16, tp=1, cp=4, dp=1, pp=4, vpp=2, cp_ulysses=2, cp_ring=2, cp_comm="ag-te",
                  cp_balance="none", order="cp-tp-dp-pp", micro_batch=2, num_microbatches=32, sharding="zero3",
                  master="fp32", dispatcher="deepep", ep_overlap=True, delay_wgrad=True, stages=stages)


@pytest.mark.parametrize("kw", PROBLEMS, ids=lambda kw: f"{kw['model']}-{kw['gpus']}")
def test_search_layouts_round_trip_through_the_string_and_the_plan_json(kw):
    problem = make_problem(**kw)
    res = search_plans(problem, top=3, time_limit=20)
    assert res.plans
    for cand in res.plans:
        text = S.format_layout(cand.layout)
        back, assumed = layout_from_string(text, problem)
        assert back == cand.layout and assumed == ()
        # the plan JSON's layout, read back, prints the same string
        again = Layout.from_dict(json.loads(json.dumps(cand.layout.to_dict())))
        assert S.format_layout(again) == text


def test_a_hand_layout_with_every_field_round_trips():
    problem = make_problem(model="olmoe-1b-7b", gpus=16, seq="8k", global_batch=64)
    L = _hand()
    text = S.format_layout(L)
    assert "s1-2 layers4 etp1 ep2 edp2 sel2(core_attn+moe_act)" in text      # equal neighbours grouped
    back, assumed = layout_from_string(text, problem, check=False)
    assert back == L and assumed == ()
    assert set(Layout.model_fields) - {"stages"} <= set(S.fields(text))       # the printer names every field


def test_cli_round_trips_every_field_through_explain_compare_fix_and_audit(capsys):
    problem = make_problem(model="olmoe-1b-7b", gpus=16, seq="8k", global_batch=64)
    plan = search_plans(problem, top=1, time_limit=20).plans[0].layout
    text = S.format_layout(plan)
    assert cli.main(["explain", "--layout", text, *FLAGS]) == 0
    out = capsys.readouterr().out
    assert f"layout: {text}" in out and "assumed:" not in out
    assert cli.main(["compare", text, *FLAGS]) == 0
    out = capsys.readouterr().out
    assert "assumed" not in out and "A wins" in out
    assert cli.main(["plan", "--fix", text, *FLAGS, "--json", "--no-engines"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert Layout.from_dict(doc["plans"][0]["layout"]) == plan
    cli.main(["audit", text, "--model", "olmoe-1b-7b", "--seq", "8k", "--global-batch", "64", "--json",
              "--no-best"])
    doc = json.loads(capsys.readouterr().out)
    assert Layout.from_dict(doc["layout"]) == plan
    assert doc["source"]["assumed"] == ["seq=8192: given on the command line",
                                        "global_batch=64: --global-batch"]


def test_what_a_string_leaves_out_is_an_assumed_line_in_every_command(capsys):
    partial = "tp=2,sharding=zero2,recompute=full"
    assert cli.main(["explain", "--layout", partial, *FLAGS]) == 0
    explain = capsys.readouterr().out
    assert cli.main(["compare", partial, *FLAGS]) == 0
    compare = capsys.readouterr().out
    assert cli.main(["audit", partial, *FLAGS[:4], "--seq", "8k", "--global-batch", "64", "--no-best"]) in (0, 1)
    audit = capsys.readouterr().out
    assert cli.main(["plan", "--fix", partial, *FLAGS, "--no-engines"]) == 0
    fix = capsys.readouterr().out
    for out in (explain, compare, audit, fix):
        for key in ("cp=1", "pp=1", "dp=8", "micro_batch=", "order=", "master=", "stages="):
            assert f"assumed: {key}" in out, (key, out[:400])
        assert "assumed: sharding" not in out and "assumed: recompute=" not in out
    assert "sharding=zero2" in audit and "full" in audit.split("as a layout string:")[1]


@pytest.mark.parametrize("text, message", [
    ("cp=8,cp_ulysses=3", "cp_ulysses(3) does not divide cp(8)"),
    ("cp=8,cp_ulysses=2,cp_ring=2", "cp_ulysses(2) * cp_ring(2) = 4 != cp(8)"),
    ("cp=4,cp_kind=ulysses,cp_ring=2", "cp_kind ulysses contradicts"),
    ("tp=2,num_microbatches=3", "num_microbatches(3) * dp(8) = 24 does not divide the global batch(64 sequences)"),
    ("tp=2,micro_batch=2,num_microbatches=8", "dp(8) * micro_batch(2) * num_microbatches(8) = 128 != the global"),
    ("tp=2,dp=4,pp=4", "tp(2) * cp(1) * dp(4) * pp(4) = 32 != world(16)"),
    ("pp=2,stages=s0-1 layers7", "stages hold 7+7 = 14 layers; the model has 16"),
    ("pp=3,stages=s0-1 layers8", "stages: 2 stages given for pp(3)"),
    ("stages=s0 layers8 | s2 layers8", "group s2 must start at stage 1"),
    ("stages=s0-1 layers8 full9", "full(9) + sel(0) > layers(8)"),
    ("tp=2,stages=s0 layers16 etp1 ep4 edp2", "stage 0: etp(1) * ep(4) * edp(2) = 8 != tp * cp * dp = 16"),
    ("recompute=full,stages=s0 layers16 full2", "recompute: give it once"),
    ("tp=²", "tp must be an integer from 1 to 1048576, got '²'"),
    ("tp=" + "9" * 5000, "tp must be an integer from 1 to 1048576"),
    ("sharding=zero4", "sharding must be one of none, zero1, zero2, zero3"),
    ("recompute_modules=core_atn", "unknown module 'core_atn'"),
    ("shardin=zero2", "did you mean sharding?"),
    ("delay_wgrad=true,ep_overlap=false", "delay_wgrad needs ep_overlap=true"),
])
def test_contradictions_are_refused_in_one_line_naming_the_field(text, message):
    problem = make_problem(model="olmoe-1b-7b", gpus=16, seq="8k", global_batch=64)
    with pytest.raises(LayoutError) as e:
        layout_from_string(text, problem)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("given", [dict(micro_batch=8), dict(vpp=12)], ids=["mb-8", "vpp-12"])
def test_a_given_value_outside_the_search_candidates_is_searched_not_called_unfit(given):
    """The search's candidates (micro-batches 1, 2, 4; vpp up to 4) bound a free search, not what a layout
    may give: torchtitan's DeepEP table ran a local batch of 8 and Megatron-Bridge's Qwen3-30B recipe VPP 12.
    Such a value is searched like any other; the fallback ('no plan fits') is for layouts that do not fit."""
    problem = make_problem(model="qwen3-30b-a3b", gpu="b200", gpus=16, seq="4k", global_batch=1536)
    assert given.get("micro_batch", 1) not in problem.train.micro_batches or given.get("vpp", 1) > problem.train.max_vpp
    pp = 2 if "vpp" in given else 1
    text = ",".join([f"tp=1,cp=1,pp={pp},ep=8,etp=1", *(f"{k}={v}" for k, v in given.items())])
    layout, assumed = layout_from_string(text, problem)
    assert not [a for a in assumed if "no plan fits" in a], assumed
    for k, v in given.items():
        assert getattr(layout, k) == v
    # the same problem's own candidates are unchanged: the search alone still stays inside them
    assert problem.train.micro_batches == (1, 2, 4) and problem.train.max_vpp == 4

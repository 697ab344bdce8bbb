"""`foldplan compare`: plan files and layout strings side by side, each figure the cost
model's own for that layout, the rules each breaks, and the winner by its step time."""
import json

from planner import cli
from planner.cli import compare
from planner import costmodel as cm
from planner import plan as planmod
from planner.specs import make_problem

ARGS = ["--model", "olmoe-1b-7b", "--gpus", "8", "--seq", "8k", "--global-batch", "64", "--micro-batch", "1"]


def _plan_file(tmp_path, capsys):
    rc = cli.main(["plan", *ARGS, "--time-limit", "2", "--top", "1", "--json"])
    path = tmp_path / "plan.json"
    path.write_text(capsys.readouterr().out)
    assert rc == 0
    return str(path)


def test_compare_plan_and_layouts(tmp_path, capsys):
    path = _plan_file(tmp_path, capsys)
    rc = cli.main(["compare", path, "tp=2,ep=2", "tp=1,pp=2,ep=3"])
    out = capsys.readouterr().out
    assert rc == 0
    best = planmod.load(path, index=0)[0]
    es = compare.entries([path, "tp=2,ep=2", "tp=1,pp=2,ep=3"], None)
    # the plan file's figures are the cost model's for its layout
    assert es[0].estimate.step_time == cm.evaluate(best.problem, best.layout).step_time
    assert f"{best.estimate.step_time:.3f}" in out
    # the layout string is completed on the plan's problem with its degrees kept
    assert es[1].layout.tp == 2 and {s.ep for s in es[1].layout.stages} == {2}
    assert es[1].problem == best.problem
    # ep=3 breaks the rules: named, never ranked
    assert es[2].layout is None and "ep(3) does not divide experts(64)" in es[2].error
    assert "C breaks" in out and "ep(3) does not divide experts(64)" in out
    # the winner, and by how much, from the two step times
    ratio = es[1].estimate.step_time / es[0].estimate.step_time
    assert ratio >= 1
    assert f"A wins: step {es[0].estimate.step_time:.3f} s" in out
    assert f"{ratio:.2f}x faster than B" in out
    for term in ("GiB activations (per stage)", "time exposed ep s", "MFU", "runs on megatron"):
        assert term in out


def test_compare_per_stage_memory_and_engines(capsys):
    es = compare.entries(["tp=1,pp=2,ep=4,edp=1"], lambda: make_problem(
        model="olmoe-1b-7b", gpus=8, seq="8k", global_batch=64, micro_batches=(1,)))
    e = es[0]
    head, rows = compare.table(es)
    by = {r[0]: r[1] for r in rows}
    totals = [f"{s.total / cm.GiB:.1f}" for s in e.estimate.stages]
    assert by["GiB total (per stage)"] == (totals[0] if len(set(totals)) == 1 else "/".join(totals))
    # make_problem's default master is Megatron's (bf16 + fp32): torchtitan keeps the fp32 param
    assert not any("master" in w for w in e.engines["megatron"])
    assert any("keeps the master as fp32" in w for w in e.engines["torchtitan"])

"""`plan --fix` (fixed degrees, the rest searched; one-line errors for impossible fixes) and
sweeps (`--seq`, `--gpus`, `--global-batch` lists: a line per point, a plans document each)."""
import json

import pytest

from planner import cli
from planner.cli import sweep
from planner.specs import SpecError, make_problem

SMALL = ["--model", "olmoe-1b-7b", "--global-batch", "64", "--time-limit", "2", "--top", "1", "--micro-batch", "1",
         "--cp-kinds", "ring"]


def run(capsys, *args):
    rc = cli.main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("fix, message", [
    ("tp=3", "--fix tp=3: tp(3) does not divide gpus(64)"),
    ("tp=8,pp=16", "--fix tp=8,pp=16: tp(8) * pp(16) = 128 does not divide gpus(64)"),
    ("tp=2,cp=2,dp=2,pp=2", "--fix tp=2,cp=2,dp=2,pp=2: tp * cp * dp * pp = 16 != gpus(64)"),
    ("ep=3", "--fix ep=3: ep(3) does not divide experts(8)"),
    ("tp=16", "--fix tp=16: tp(16) exceeds used_per_domain(8)"),
    ("cp=64,tp=2", "--fix tp=2,cp=64: tp(2) * cp(64) = 128 does not divide gpus(64)"),
    ("cp_kind=zigzag", "--fix: cp_kind must be one of ring, ulysses, hybrid, got 'zigzag'"),
    ("tp=x", "--fix: tp must be an integer from 1 to 1048576, got 'x'"),
    ("tp=²", "--fix: tp must be an integer from 1 to 1048576, got '²'"),
    ("recompte=full", "--fix: unknown layout key 'recompte'; did you mean recompute?"),
    ("cp=8,cp_ulysses=3", "--fix: cp_ulysses(3) does not divide cp(8)"),
])
def test_impossible_fixes_fail_in_one_line(capsys, fix, message):
    rc, out, err = run(capsys, "plan", "--gpus", "64", "--fix", fix)
    assert rc == cli.EXIT_INPUT
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err


def test_parse_fix_checks_the_folding_against_the_fixed_stage():
    p = make_problem(gpus=64)
    with pytest.raises(SpecError, match=r"etp\(4\) \* ep\(8\) = 32 does not divide the stage's tp \* cp \* dp = 16"):
        sweep.parse_fix("tp=4,cp=2,dp=2,etp=4,ep=8", p)
    assert sweep.parse_fix("tp=8,ep=8", p) == {"tp": 8, "ep": 8}


def test_fix_keeps_the_fixed_degrees_and_searches_the_rest(capsys):
    rc, out, _ = run(capsys, "plan", "--gpus", "8", "--seq", "4k", *SMALL, "--json", "--fix", "tp=2,ep=2")
    assert rc == 0
    plans = json.loads(out)["plans"]
    for p in plans:
        L = p["layout"]
        assert L["tp"] == 2 and all(s["ep"] == 2 for s in L["stages"])
    # and a fix the search would not choose by itself costs time: the free plan is faster
    rc, free, _ = run(capsys, "plan", "--gpus", "8", "--seq", "4k", *SMALL, "--json")
    best = json.loads(free)["plans"][0]
    assert best["estimate"]["step_time_s"] <= plans[0]["estimate"]["step_time_s"]


def test_sweep_table_has_a_line_per_point(capsys):
    rc, out, _ = run(capsys, "plan", "--gpus", "8,16", "--seq", "4k,8k", *SMALL)
    assert rc == 0
    lines = [l for l in out.splitlines() if l[:2] in ("8 ", "16")]
    assert [l.split()[:2] for l in lines] == [["8", "4k"], ["8", "8k"], ["16", "4k"], ["16", "8k"]]


def test_sweep_json_is_one_plans_document_per_point(capsys):
    rc, out, _ = run(capsys, "plan", "--gpus", "8", "--seq", "4k,8k", *SMALL, "--json")
    doc = json.loads(out)
    assert doc["schema"] == sweep.SCHEMA
    assert [p["point"] for p in doc["points"]] == [{"seq": "4k"}, {"seq": "8k"}]
    seqs = [p["plans"]["plans"][0]["problem"]["train"]["seq"] for p in doc["points"]]
    assert seqs == [4096, 8192]
    t = [p["plans"]["plans"][0]["estimate"]["step_time_s"] for p in doc["points"]]
    assert t[1] > t[0]                        # twice the tokens per sequence, same batch in sequences


def test_sweep_errors(capsys):
    rc, _, err = run(capsys, "plan", "--gpus", "8,x", "--seq", "4k")
    assert rc == cli.EXIT_INPUT and "gpus: expected an integer, got 'x'" in err
    rc, _, err = run(capsys, "plan", "--gpus", "8,16", "--out", "/nonexistent/bundle")
    assert rc == cli.EXIT_INPUT and "not with a sweep of gpus" in err
    rc, _, err = run(capsys, "plan", "--seq", "4k,,8k")
    assert rc == cli.EXIT_INPUT and "empty value" in err

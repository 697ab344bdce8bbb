"""Friendly misses: the closest preset suggested, failures that are not about memory not
worded as memory, every missing audit option named at once, no progress residue off a
terminal, readable per-stage columns for deep pipelines, hints naming the flag."""
import pytest

from planner import cli
from planner.layout import Layout, Stage
from planner.report import stage_text
from planner.solve.nofit import why_none
from planner.solve.search import SearchResult
from planner.specs import make_problem


@pytest.mark.parametrize("argv, want", [
    (["plan", "--model", "deepseek-v3.1"], "unknown model preset 'deepseek-v3.1'; did you mean deepseek-v3? (presets:"),
    (["plan", "--gpu", "h100"], "unknown GPU preset 'h100'; did you mean h100-sxm?"),
    (["plan", "--gpu", "b20"], "did you mean b200?"),
    (["plan", "--target", "megatorn"], "invalid choice: 'megatorn'; did you mean megatron?"),
    (["plan", "--recompute", "ful"], "recompute: unknown ful; did you mean full?"),
    (["explain", "--layout", "shardin=zero2"], "unknown layout key 'shardin'; did you mean sharding?"),
])
def test_a_typo_gets_the_closest_name(argv, want, capsys):
    with pytest.raises(SystemExit) if "--target" in argv else _nothing():
        rc = cli.main(argv)
        assert rc == 2
    err = capsys.readouterr().err
    assert want in err and err.count("\n") == 1


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_no_legal_tuple_is_not_worded_as_memory_and_says_it_once(capsys):
    rc = cli.main(["plan", "--gpus", "1000000", "--seq", "8k", "--no-engines"])
    err = capsys.readouterr().err
    assert rc == 3
    assert "GiB" not in err and "fits" not in err
    assert "tp <= 8" in err and "dp <= 64" in err and "--gpus" in err
    assert err.count("no tp * cp * dp * pp") == 1


def test_a_time_limit_is_said_as_such_with_the_placement_hint():
    problem = make_problem(gpu="gb200-nvl72", gpus=128, seq="8k")
    info = why_none(problem, SearchResult([], "FEASIBLE", 1.0, 10, 0, 1, 0), time_limit=1.0)
    assert "--time-limit" in info["reason"] and "peak_gib" not in info
    assert "--gpus 144" in info["hints"][0] and "--used-per-domain 64" in info["hints"][0]


def test_the_audit_names_every_missing_option_at_once(capsys):
    assert cli.main(["audit", "tp=2,pp=2"]) == 2
    err = capsys.readouterr().err
    assert "--model" in err and "--seq" in err and err.count("\n") == 1


def test_no_progress_residue_off_a_terminal(capsys):
    show = cli._Progress(quiet=False)        # capsys' stderr is not a terminal
    show.t0 -= 10
    show("tuple 3 of 40")
    show.done()
    assert capsys.readouterr().err == ""


def test_deep_pipeline_columns_group_equal_stages():
    stages = tuple(Stage(index=i, layers=(4 * i, 4 * i + 4), etp=1, ep=8 if i < 8 else 4, edp=4 if i < 8 else 8,
                         recompute_full=4 if i < 12 else 2) for i in range(16))
    L = Layout(world=512, tp=1, cp=4, dp=8, pp=16, stages=stages)
    assert stage_text.folding(L) == "s0-7 etp1 ep8 edp4 | s8-15 etp1 ep4 edp8"
    assert stage_text.recompute(L) == "s0-11 4F | s12-15 2F"
    assert stage_text.split(L) == "4x16"

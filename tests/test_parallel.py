"""The engine block's searches beside the main one (planner.solve.parallel): a forked job answers as
the call would, raises what the call raises, can be stopped, and `foldplan plan` prints the same
whichever way its searches ran."""
import os
import time

import pytest

from planner import cli
from planner.solve import parallel, targets

forks = pytest.mark.skipif(not parallel.forking(), reason="fork or a second core is not available here")


def _pid_and(x):
    return os.getpid(), x * 2


def _raise_value(msg):
    raise ValueError(msg)


def _sleep(s):
    time.sleep(s)
    return s


@forks
def test_a_forked_job_runs_in_another_process_and_answers():
    job = parallel.start(_pid_and, 21)
    pid, got = job.result()
    assert got == 42 and pid != os.getpid()
    assert job.result() == (pid, 42)            # asked again: the same answer, not a second run


def test_one_job_at_a_time_where_asked(monkeypatch):
    monkeypatch.setenv("FOLDPLAN_JOBS", "1")
    assert not parallel.forking()
    pid, got = parallel.start(_pid_and, 1).result()
    assert (pid, got) == (os.getpid(), 2)


@pytest.mark.parametrize("jobs", ["1", ""])
def test_the_calls_exception_is_raised_where_the_answer_is_asked(monkeypatch, jobs):
    monkeypatch.setenv("FOLDPLAN_JOBS", jobs)
    job = parallel.start(_raise_value, "tp(3) does not divide heads(32)")
    with pytest.raises(ValueError, match=r"tp\(3\) does not divide heads\(32\)"):
        job.result()


@forks
def test_a_job_no_longer_wanted_is_stopped():
    job = parallel.start(_sleep, 60)
    proc = job._proc
    t0 = time.perf_counter()
    job.cancel()
    assert time.perf_counter() - t0 < 10 and not proc.is_alive()
    with pytest.raises(RuntimeError, match="cancelled"):
        job.result()


@forks
def test_the_main_job_prints_the_same_forked_or_not(capsys, monkeypatch):
    """The main job's engine block (three other targets) and the binding line of the target it details
    (Megatron: found beside Megatron's pricing search), forked and one by one: the same text but the
    solver's wall time. Forked, this process runs no Megatron search at all."""
    calls = []
    search = targets.search
    monkeypatch.setattr(targets, "search", lambda pr, **kw: calls.append(pr) or search(pr, **kw))
    args = ["plan", "--gpus", "64", "--seq", "128k", "--top", "2"]
    assert cli.main(args) == 0
    forked = capsys.readouterr().out
    assert [pr.train.target for pr in calls] == ["bundle"]
    monkeypatch.setenv("FOLDPLAN_JOBS", "1")
    assert cli.main(args) == 0
    serial = capsys.readouterr().out
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith("solver:")]
    assert "Memory binds" in forked and "Detailed: megatron, not the bundle" in forked
    assert strip(forked) == strip(serial)

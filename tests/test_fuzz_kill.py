"""kill -9 during a bundle write (issue 17): OUT is the old bundle, the new one complete,
or (killed between the two renames) absent and put back by the next writer; the next
writer leaves no temporary directory behind.

Writers are forked children of this process (cheap: the planner is imported once) and
one real `foldplan bundle` subprocess; each is SIGKILLed at a chosen moment.
"""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from planner.bundle import codegen
from planner import safeio
from planner import plan as planmod

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "generated" / "tiny-moe-8cpu" / "plan.json"


def tree(root: Path) -> dict:
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def leftovers(parent: Path) -> list[str]:
    return sorted(n for n in os.listdir(parent) if safeio.TMP_TAG in n or safeio.OLD_TAG in n)


@pytest.fixture(scope="module")
def plan():
    return planmod.load(str(PLAN))[0]


@pytest.fixture(scope="module")
def new_tree(plan, tmp_path_factory):
    ref = tmp_path_factory.mktemp("ref") / "b"
    codegen.render_bundle(plan, ref)
    return tree(ref)


def _old(out: Path) -> dict:
    out.mkdir()
    (out / "old.txt").write_text("the previous bundle")
    (out / "sub").mkdir()
    (out / "sub" / "x.py").write_text("x = 1\n")
    return tree(out)


def _fork_writer(plan, out: Path, slow_s: float, pause_between: bool = False) -> tuple[int, int]:
    """Fork a child that renders the bundle (each file write and rename slowed by
    `slow_s`); returns (pid, read end of a pipe the child reports phases on)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # child
        try:
            os.close(r)
            real_write, real_rename = codegen.write_files, os.rename
            calls = []

            def write_files(root, files):
                for k, v in files.items():
                    real_write(root, {k: v})
                    time.sleep(slow_s)

            def rename(a, b):
                calls.append(a)
                real_rename(a, b)
                if pause_between and len(calls) == 1:
                    os.write(w, b"between\n")
                    time.sleep(60)
                time.sleep(slow_s)
            codegen.write_files = write_files
            os.rename = rename
            os.write(w, b"ready\n")
            codegen.render_bundle(plan, out, force=True)
            os.write(w, b"done\n")
        finally:
            os._exit(0)
    os.close(w)
    return pid, r


def _wait_for(fd: int, word: bytes, timeout: float = 30) -> None:
    buf, t0 = b"", time.time()
    while word not in buf:
        assert time.time() - t0 < timeout, f"child never said {word!r}"
        buf += os.read(fd, 64)


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


@pytest.mark.parametrize("delay", [0.0, 0.003, 0.01, 0.02, 0.04, 0.07, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7])
def test_kill9_during_bundle_write(plan, new_tree, tmp_path, delay):
    out = tmp_path / "b"
    old = _old(out)
    pid, fd = _fork_writer(plan, out, slow_s=0.004)
    _wait_for(fd, b"ready")
    time.sleep(delay)
    _kill(pid)
    os.close(fd)
    state = tree(out)
    assert state in (old, new_tree, {}), f"partial bundle after kill at {delay}s: {sorted(state)[:5]}"
    # the next writer cleans up after the dead one (and restores OUT if it was moved aside)
    with safeio.dir_lock(tmp_path):
        safeio.clean_stale(out)
    assert tree(out) in (old, new_tree)
    assert leftovers(tmp_path) == []
    codegen.render_bundle(plan, out, force=True)
    assert tree(out) == new_tree and leftovers(tmp_path) == []


def test_kill9_between_the_renames_restores_old(plan, new_tree, tmp_path):
    out = tmp_path / "b"
    old = _old(out)
    pid, fd = _fork_writer(plan, out, slow_s=0.0, pause_between=True)
    _wait_for(fd, b"between")
    assert not out.exists()                        # old moved aside, new not yet in place
    _kill(pid)
    os.close(fd)
    assert len(leftovers(tmp_path)) == 2           # the dead writer's temp and aside dirs
    codegen.render_bundle(plan, tmp_path / "other")    # a writer of a sibling OUT does not touch them...
    assert len(leftovers(tmp_path)) == 2
    with safeio.dir_lock(tmp_path):                # ...the next writer of OUT restores and cleans
        safeio.clean_stale(out)
    assert tree(out) == old and leftovers(tmp_path) == []


def test_live_writer_temp_dir_is_not_cleaned(plan, tmp_path):
    out = tmp_path / "b"
    pid, fd = _fork_writer(plan, out, slow_s=0.05)
    _wait_for(fd, b"ready")
    time.sleep(0.3)                                # mid-write: its temp dir exists and is flocked
    with safeio.dir_lock(tmp_path):
        safeio.clean_stale(out)
    os.waitpid(pid, 0)
    os.close(fd)
    assert (out / "train.py").is_file() and leftovers(tmp_path) == []


def test_kill9_real_subprocess(plan, new_tree, tmp_path):
    """`foldplan bundle` as a real process, killed at a few moments after it starts."""
    for delay in (0.5, 1.5, 3.0):
        out = tmp_path / f"b{delay}"
        old = _old(out)
        p = subprocess.Popen([sys.executable, "-m", "planner.cli", "bundle", str(PLAN), "--out", str(out), "--force"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        time.sleep(delay)
        p.kill()
        p.wait()
        assert tree(out) in (old, new_tree, {})
        with safeio.dir_lock(tmp_path):
            safeio.clean_stale(out)
        assert tree(out) in (old, new_tree)
    assert leftovers(tmp_path) == []

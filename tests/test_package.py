"""foldplan installed as a package: a wheel built from this checkout, installed (not editable)
into a fresh virtualenv, renders the 64-GPU bundle exactly as the editable install does and
writes the HTML report, run from a directory outside the repository.

The fresh venv sees the running environment's third-party packages (torch, pydantic, ...)
through a .pth file naming the running site-packages directory. A directory named in a .pth
file is only appended to sys.path: the .pth files inside it (the editable install's finder)
are not executed, so `import planner` can only find the wheel's copy; the test checks that it
does. Skipped, with the reason, only where pip cannot build a wheel offline (no setuptools for
--no-build-isolation, or a pip without --python).
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from planner import plan as planmod
from planner.bundle import codegen

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "examples" / "plans" / "default-64gpu-128k.json"
TIMEOUT_S = 300                     # per command: a hang guard, not a speed budget


def _offline_build_missing() -> str | None:
    """Why pip cannot build and install offline here, or None."""
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not importable: pip wheel --no-build-isolation cannot build offline"
    if importlib.util.find_spec("pip") is None:
        return "pip is not importable in the running environment"
    r = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True, text=True)
    version = tuple(int(x) for x in r.stdout.split()[1].split(".")[:2]) if r.returncode == 0 else (0, 0)
    if version < (22, 3):
        return f"pip {r.stdout.split()[1] if r.stdout else '?'} has no --python (22.3+) to install into a bare venv"
    return None


def _run(cmd, cwd, env=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-3000:]}"
    return r


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh venv's bin directory, an environment to run it in, a working directory outside
    the repository)."""
    why = _offline_build_missing()
    if why:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("package")
    src = tmp / "src"                   # a clean copy: no build/ or egg-info left in the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "planner", src / "planner", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = tmp / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "--no-index",
          "-q", "-w", str(wheels)], cwd=tmp)
    (wheel,) = wheels.glob("foldplan-*.whl")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    py = venv / "bin" / "python"
    # installed before the running site-packages become visible: pip sees no other foldplan
    _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index",
          "--ignore-installed", "-q", str(wheel)], cwd=tmp)
    purelib = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
    running = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    Path(purelib.stdout.strip(), "running_env.pth").write_text("".join(p + "\n" for p in running))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")
    work = tmp / "work"
    work.mkdir()
    return venv / "bin", env, work


def test_planner_resolves_to_the_wheel_not_the_checkout(installed):
    bin_dir, env, work = installed
    r = _run([str(bin_dir / "python"), "-c", "import planner, sys; print(planner.__file__); "
              "print(any('editable' in type(f).__name__.lower() or 'editable' in repr(f) for f in sys.meta_path))"],
             cwd=work, env=env)
    where, editable = r.stdout.split()
    assert Path(where).resolve().is_relative_to(bin_dir.parent.resolve()), where
    assert not Path(where).resolve().is_relative_to(ROOT), where
    assert editable == "False", "the editable install's finder is active in the fresh venv"


def test_installed_bundle_equals_the_editable_render(installed):
    bin_dir, env, work = installed
    out = work / "bundle-64"
    r = _run([str(bin_dir / "foldplan"), "bundle", str(PLAN), "--out", str(out)], cwd=work, env=env)
    assert "bundle written to" in r.stdout
    have = tree(out)
    want = codegen.render_files(planmod.load(str(PLAN), index=0)[0])     # this checkout, editable
    assert sorted(have) == sorted(want), (sorted(set(want) ^ set(have)))
    assert [k for k in want if have[k] != want[k]] == []
    assert len(have) > len(codegen.REQUIRED) and "train.py" in have and "launch/torchrun.sh" in have


def test_installed_plan_writes_the_report(installed):
    bin_dir, env, work = installed
    report = work / "r.html"
    r = _run([str(bin_dir / "foldplan"), "plan", "--gpus", "8", "--seq", "32k", "--model", "olmoe-1b-7b",
              "--report", str(report), "--json"], cwd=work, env=env)
    plans_file = work / "plans.json"
    plans_file.write_text(r.stdout)
    best = planmod.load(str(plans_file), index=0)[0]           # what the installed planner chose
    html = report.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "olmoe-1b-7b on 8 GPUs" in html and best.problem.model.name == "olmoe-1b-7b"
    assert f"step {best.estimate.step_time:.3f} s" in html, "the report does not show the best plan's step"

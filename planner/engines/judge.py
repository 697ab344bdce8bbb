"""The engines as judges: hand exports to each engine's own code (its parser, validation, config
classes and mesh builders, on CPU with a fake process group) and return its verdict.

Each engine's adapter is `planner/engines/<engine>/judge.py`, run as a module in a child process (the
engines keep global state: argv, parallel groups, a default process group; a child keeps the planner's
process clean, and puts torchtitan 0.2 from `.engines/torchtitan-0.2` ahead of 0.3 on its path). The
child reads JSON from stdin — a list of {"plan": <plan JSON>, "files": {name: text}} — and writes one
JSON list of verdicts, in order:

    {"accepted": bool, "reason": str | None,      # the engine's own message when it refuses
     "engine": "megatron-core 0.19.2",             # what judged it
     "parsed": {...},                              # what the engine read: degrees, recompute, sharding, shape
     "groups": {...} | None}                       # rank groups the engine's mesh builder made, when built

The engines are test dependencies (scripts/install_engines.sh); without them `available()` says why.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from planner import engines

ROOT = Path(__file__).resolve().parents[2]


def judges() -> dict:
    """Judge name (the export's) -> its exporter record, for every export whose engine judges it."""
    return {x.name: x for x in engines.exports() if x.judge}


def _env(name: str) -> dict:
    env = dict(os.environ)
    extra = [str(ROOT / p) for p in judges()[name].judge_path]
    env["PYTHONPATH"] = os.pathsep.join([*extra, str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["FOLDPLAN_JUDGE"] = name
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    return env


def available(name: str) -> str | None:
    """None when the engine judging `name` imports here; else why not (one line)."""
    x = judges().get(name)
    if x is None:
        return f"no judge for {name!r} (known: {', '.join(judges())})"
    missing = [p for p in x.judge_path if not (ROOT / p).is_dir()]
    if missing:
        return f"{ROOT / missing[0]} is missing (run scripts/install_engines.sh)"
    probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({x.probe!r}) is None)"
    r = subprocess.run([sys.executable, "-c", probe], env=_env(name), capture_output=True)
    return None if r.returncode == 0 else f"{x.probe} is not installed (run scripts/install_engines.sh)"


def judge(name: str, cases: list[tuple[dict, dict[str, str]]], timeout: float = 900) -> list[dict]:
    """The engine's verdict on each (plan JSON, {file name: text}) case, in one child process."""
    payload = json.dumps([{"plan": p, "files": f} for p, f in cases])
    r = subprocess.run([sys.executable, "-m", judges()[name].judge], input=payload, env=_env(name),
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        tail = "\n".join(r.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"the {name} judge failed (exit {r.returncode}):\n{tail}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if len(out) != len(cases):
        raise RuntimeError(f"the {name} judge answered {len(out)} of {len(cases)} cases")
    return out

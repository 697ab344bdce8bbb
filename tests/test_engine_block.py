"""The plan output opens with the best plan of every target (bundle, megatron, torchtitan, olmo-core),
each with its known error band (planner.report.engines, planner.engines.bands); `--target` picks the
detailed one; `--json` and sweeps carry the same, and a plan file with it still loads."""
from __future__ import annotations

import json
import re

import pytest

from planner import cli
from planner import plan as planmod
from planner.engines import bands

SMALL = ["--model", "olmoe-1b-7b", "--gpus", "8", "--seq", "4k", "--global-batch", "64", "--time-limit", "5",
         "--top", "2"]
ROWS = ("bundle", "megatron", "torchtitan", "olmo-core")


def run(capsys, *args):
    rc = cli.main(list(args))
    return rc, capsys.readouterr().out


def _table(out: str) -> dict[str, list[str]]:
    """The engine block's rows by target name (plain text: two spaces between cells)."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("Best plan per target"))
    got = {}
    for line in lines[start + 3:]:
        name = line.split("  ")[0].removesuffix(" *")
        if name not in ROWS:
            break
        got[name] = [c.strip() for c in line.split("  ") if c.strip()]
    return got


def test_text_opens_with_every_target_and_its_band(capsys):
    # the bundle named: unnamed, Megatron, within its MoE band of the bundle here, is detailed (cli/detail.py)
    rc, out = run(capsys, "plan", *SMALL, "--target", "bundle")
    assert rc == 0
    lines = out.splitlines()
    block = next(i for i, x in enumerate(lines) if x.startswith("Best plan per target"))
    detail = next(i for i, x in enumerate(lines) if x.startswith("The best 2 bundle plans"))
    assert block < detail and len(lines) <= 45                       # up front, and one screen
    rows = _table(out)
    assert list(rows) == list(ROWS) and rows["bundle"][0] == "bundle *"
    bundle_step = float(rows["bundle"][1])
    for t in ("megatron", "olmo-core"):                              # step and "vs bundle" agree
        step, vs = float(rows[t][1]), float(rows[t][2].rstrip("%")) / 100
        assert vs == pytest.approx(step / bundle_step - 1, abs=2e-3)     # steps printed to 1 ms
    # torchtitan 0.3's registry has no OLMoE: its row says so in one line, and it has no band line
    assert rows["torchtitan"][1] == "-" and "model olmoe-1b-7b has no torchtitan flavour" in rows["torchtitan"][-1]
    assert not any(x.startswith("  torchtitan ") for x in lines)
    assert f"  bundle     {bands.NONE}" in lines and f"  olmo-core  {bands.NONE}" in lines
    mg = next(x for x in lines if x.startswith("  megatron "))
    (moe,) = bands.bands("megatron", "moe")
    assert f"MoE median {moe.median_abs:.0%}, worst {moe.worst:+.0%} ({moe.runs} runs)" in mg


def test_json_carries_the_engines_and_still_loads(capsys, tmp_path):
    rc, out = run(capsys, "plan", *SMALL, "--json", "--target", "bundle")
    doc = json.loads(out)
    eng = doc["engines"]
    assert rc == 0 and eng["detailed"] == "bundle" and eng["priced"] and sorted(eng["targets"]) == sorted(ROWS)
    best = doc["plans"][0]["estimate"]["step_time_s"]
    assert eng["targets"]["bundle"]["step_time"] == pytest.approx(best, rel=1e-5)
    mg = eng["targets"]["megatron"]
    # the JSON rounds step times to 1e-6 s: the slowdown recomputed from them agrees to a few 1e-6 (absolute:
    # near zero, a relative tolerance would ask for more digits than the JSON keeps)
    assert mg["slowdown"] == pytest.approx(mg["step_time"] / best - 1, abs=1e-5)
    assert mg["error_band"]["bands"] == [b.to_dict() for b in bands.bands("megatron", "moe")]
    assert eng["targets"]["olmo-core"]["error_band"] == {"kinds": ["moe"], "bands": [], "no_published_runs": ["moe"]}
    f = tmp_path / "plan.json"
    f.write_text(out)
    assert len(planmod.load(str(f))) == len(doc["plans"])           # the extra object reads back


def test_target_picks_the_detailed_plan(capsys):
    rc, out = run(capsys, "plan", *SMALL, "--target", "megatron")
    rows = _table(out)
    assert rc == 0 and rows["megatron"][0] == "megatron *" and rows["megatron"][2] == "+0.0%"
    assert re.search(r"The best \d+ megatron plans", out) and set(rows) == set(ROWS)
    # each target is priced under its own defaults, whichever target is detailed: the same rows
    _, own = run(capsys, "plan", *SMALL, "--target", "bundle")
    assert _table(own)["bundle"][1] == rows["bundle"][1] and _table(own)["megatron"][1] == rows["megatron"][1]


def test_fp8_target_prices_the_bundle_in_bf16(capsys):
    rc, out = run(capsys, "plan", *SMALL, "--target", "megatron", "--precision", "fp8-delayed", "--json")
    eng = json.loads(out)["engines"]["targets"]
    assert rc == 0 and "bf16 (it runs no fp8-delayed)" in eng["bundle"]["differs"]
    assert eng["megatron"]["error_band"]["kinds"] == ["moe", "fp8"]
    assert [b["kind"] for b in eng["megatron"]["error_band"]["bands"]] == ["moe", "fp8"]


def test_no_engines_says_so(capsys):
    rc, out = run(capsys, "plan", *SMALL, "--no-engines")
    assert rc == 0 and "the other targets not priced (--no-engines)" in out and list(_table(out)) == ["bundle"]


def test_sweep_carries_the_engines(capsys):
    rc, out = run(capsys, "plan", *SMALL[:2], "--gpus", "8,16", *SMALL[4:], "--json")
    doc = json.loads(out)
    assert rc == 0 and all(sorted(p["engines"]["targets"]) == sorted(ROWS) for p in doc["points"])

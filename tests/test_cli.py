"""The command line: the main job, JSON schema and determinism, bad input, nothing fits."""
import json
import subprocess
import sys

import pytest

from planner.cli import main


def run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args,needle", [
    (["plan", "--gpus", "0"], "gpus: must be a positive integer, got 0"),
    (["plan", "--seq", "12q"], "seq: expected a positive size like 4096, 128k or 1M, got '12q'"),
    (["plan", "--model", "gpt-9"], "model: unknown model preset 'gpt-9'"),
    (["plan", "--gpus", "7"], "gpus(7) does not divide gpus_per_node(8)"),
    (["plan", "--gpus", "x"], "gpus: expected an integer, got 'x'"),
    (["plan", "--cp-kinds", "ring,zigzag"], "cp_kinds: unknown zigzag"),
    (["explain", "missing.json"], "missing.json: file not found"),
])
def test_bad_input_one_line(args, needle, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_model_file_missing_fields(tmp_path, capsys):
    f = tmp_path / "half.yaml"
    f.write_text("layers: 4\nhidden: 512\n")
    code, out, err = run(["plan", "--model", str(f)], capsys)
    assert code == 2 and "heads: Field required" in err and err.count("\n") == 1


def test_plan_json_schema_and_determinism(capsys):
    args = ["plan", "--model", "olmoe-1b-7b", "--gpus", "16", "--seq", "32k", "--global-batch", "1M",
            "--top", "3", "--json"]
    code, out1, _ = run(args, capsys)
    assert code == 0
    code, out2, _ = run(args, capsys)
    doc1, doc2 = json.loads(out1), json.loads(out2)
    for d in (doc1, doc2):
        for p in d["plans"]:
            p["solver"].pop("wall_s")
    assert json.dumps(doc1, sort_keys=True) == json.dumps(doc2, sort_keys=True)
    assert doc1["schema"] == "foldplan.plans/1" and 1 <= len(doc1["plans"]) <= 3
    p = doc1["plans"][0]
    assert set(p) == {"problem", "layout", "estimate", "solver"}
    assert set(p["problem"]) == {"model", "cluster", "train"}
    lay = p["layout"]
    for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "order", "micro_batch",
              "num_microbatches", "sharding", "master", "stages"):
        assert k in lay
    assert lay["sharding"] in ("none", "zero1", "zero2", "zero3") and lay["master"] in ("bf16+fp32", "fp32")
    for s in lay["stages"]:
        assert set(s) == {"index", "layers", "etp", "ep", "edp", "recompute_full", "recompute_selective",
                          "recompute_modules"}
        assert s["etp"] * s["ep"] * s["edp"] == lay["tp"] * lay["cp"] * lay["dp"]
    est = p["estimate"]
    for k in ("step_time_s", "tokens_per_s_per_gpu", "tflops_per_gpu", "mfu", "peak_memory_gib"):
        assert isinstance(est[k], float)
    assert len(est["memory_gib_by_stage"]) == lay["pp"]
    assert set(est["memory_gib_by_stage"][0]) == {"weights", "grads", "optimizer", "activations", "logits",
                                                   "buffers", "total"}
    assert set(est["time_s"]["exposed_comm"]) == {"dp", "edp", "tp", "cp", "ep", "pp", "shard"}
    assert set(p["solver"]) == {"status", "tuples", "pruned", "cpsat_calls"}
    assert p["solver"]["status"] == "OPTIMAL"
    steps = [q["estimate"]["step_time_s"] for q in doc1["plans"]]
    # plan 1 is the tie-break's (planner/solve/tiebreak.py: within its window of the fastest), the rest fastest first
    from planner.solve.sanity import SANE_TOLERANCE
    from planner.solve.tiebreak import TIE_TOLERANCE
    assert steps[1:] == sorted(steps[1:]), f"plans after the first are not fastest first: {steps}"
    assert steps[0] <= min(steps) * (1 + SANE_TOLERANCE) * (1 + TIE_TOLERANCE), steps


def test_nothing_fits_exit_3(capsys):
    code, out, err = run(["plan", "--model", "llama3.1-405b", "--gpus", "8", "--seq", "128k",
                          "--global-batch", "8"], capsys)
    assert code == 3
    assert "No layout fits" in err and "smallest" in err and "It would fit with" in err
    assert "Traceback" not in err


def test_main_job_console_script():
    # the README's main job, as a user runs it
    r = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "--gpus", "64", "--seq", "128k"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "mixtral-8x7b" in r.stdout and "Memory" in r.stdout and "solver: OPTIMAL" in r.stdout


def test_models_lists_presets(capsys):
    code, out, _ = run(["models", "--json"], capsys)
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["mixtral-8x7b"]["total"] == pytest.approx(46.7e9, rel=0.005)
    assert len(rows) == 9


def test_explain_layout_prints_formulas(capsys):
    code, out, _ = run(["explain", "--layout", "tp=1,cp=8,dp=1,pp=8,ep=8,edp=1"], capsys)
    assert code == 0
    assert "A_attn" in out and "X_ep" in out and "stage 7" in out and "step time" in out


def test_out_creates_missing_parents_atomically_and_refuses_to_overwrite(tmp_path, capsys):
    from planner.cli import main
    from pathlib import Path
    plan = Path(__file__).resolve().parent.parent / "examples" / "plans" / "tiny-moe-8cpu.json"
    out = tmp_path / "a" / "b" / "c"
    assert main(["bundle", str(plan), "--out", str(out)]) == 0
    assert (out / "plan.json").is_file()
    assert sorted(p.name for p in out.parent.iterdir()) == ["c"]          # no temporary left beside it
    assert main(["bundle", str(plan), "--out", str(out)]) == 2             # not empty: --force needed
    assert "use --force" in capsys.readouterr().err
    assert main(["bundle", str(plan), "--out", str(out), "--force"]) == 0
    (tmp_path / "afile").write_text("x")
    assert main(["bundle", str(plan), "--out", str(tmp_path / "afile" / "x")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert not (tmp_path / "afile" / "x").exists()

"""Calibration on the user's cluster: the bundle's microbenchmarks -> `foldplan calibrate` -> a preset the
planner uses with --gpu -> a bundle run -> `foldplan audit --measured`, end to end on CPU/gloo; the fits
against published figures; the engines' step lines; bad inputs as one line."""
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "calibrate_data"
MODEL = DATA / "micro-moe.yaml"
PLAN_ARGS = ["--model", str(MODEL), "--gpus", "4", "--gpus-per-node", "4", "--seq", "1k", "--global-batch", "4",
             "--memory-gib", "0.05", "--no-engines", "--fix", "cp=2,dp=2,ep=2", "--top", "1"]


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}


def foldplan(*args, cwd, check=True):
    r = subprocess.run([sys.executable, "-m", "planner.cli", *map(str, args)], cwd=cwd, env=_env(),
                       capture_output=True, text=True, timeout=600)
    if check:
        assert r.returncode == 0, r.stderr[-2000:]
    return r


def torchrun(bundle: Path, *args):
    r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=4",
                        *map(str, args)], cwd=bundle, env=_env(), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r


def test_round_trip_on_cpu(tmp_path):
    foldplan("plan", *PLAN_ARGS, "--out", "b", cwd=tmp_path)
    b = tmp_path / "b"
    assert (b / "calibrate.py").exists() and os.access(b / "launch" / "calibrate.sh", os.X_OK)
    torchrun(b, "calibrate.py", "--device", "cpu", "--iters", "2", "--max-mib", "2", "--out", tmp_path / "res.jsonl")
    rows = [json.loads(ln) for ln in (tmp_path / "res.jsonl").read_text().splitlines()]
    prov = rows[0]
    assert prov["kind"] == "provenance" and prov["world_size"] == 4 and prov["backend"] == "gloo"
    assert prov["plan"]["gpu"] == "h100-sxm" and prov["torch"] and prov["host"] and prov["date"]
    kinds = {r["kind"] for r in rows}
    assert {"gemm", "grouped_gemm", "attention", "memory", "collective"} <= kinds
    ops = {(r["axis"], r["op"]) for r in rows if r["kind"] == "collective"}
    lay = json.loads((b / "plan.json").read_text())["plans"][0]["layout"]
    cp = {("cp_ring", "p2p")} if lay["cp_ring"] > 1 else set()
    cp |= {("cp_ulysses", "all_to_all")} if lay["cp_ulysses"] > 1 else set()
    assert lay["cp"] == 2 and cp                           # --fix cp=2: the CP kind the search chose
    # the plan's collectives (CP, ep2 all-to-all, dp2 / edp2 sharded reduce-scatter + all-gather), the node's
    # group of every rank, all-to-all by peers
    assert cp | {("ep", "all_to_all"), ("dp", "reduce_scatter"), ("dp", "all_gather"), ("edp", "reduce_scatter"),
                 ("a2a_peers_4", "all_to_all"), ("a2a_peers_2", "all_to_all"), ("node", "all_reduce")} <= ops

    out = foldplan("calibrate", tmp_path / "res.jsonl", "--out", tmp_path / "my.yaml", cwd=tmp_path).stdout
    assert "kept from h100-sxm" in out
    import yaml
    preset = yaml.safe_load((tmp_path / "my.yaml").read_text())
    measured = preset["calibration"]["measured"]
    # the attention curve the bundle runs on the base GPU (cuDNN's on Hopper: attention_*; FA2's elsewhere)
    from planner.engines.bundle.rules import attention_kernel
    from planner.specs import catalog
    curve = "flash2_attention" if attention_kernel(catalog.load_gpu("h100-sxm")) == "flash2" else "attention"
    assert {"peak_flops", "compute_efficiency", "hbm_bw", "intra_node_bw", "latency_s",
            f"{curve}_efficiency"} <= set(measured)
    assert "inter_node_bw" in preset["calibration"]["kept_from_base"]           # one node: not measured
    gemm_rate = max(r["flops"] / r["time_s"] for r in rows if r["kind"] == "gemm")
    assert preset["peak_flops"] == pytest.approx(gemm_rate)                  # CPU: the best GEMM stands as the peak

    foldplan("plan", *PLAN_ARGS, "--gpu", tmp_path / "my.yaml", "--out", "b2", cwd=tmp_path)
    plan = json.loads((tmp_path / "b2" / "plan.json").read_text())["plans"][0]
    assert plan["problem"]["cluster"]["gpu"] == "my.yaml"
    assert plan["problem"]["cluster"]["peak_flops"] == pytest.approx(preset["peak_flops"], rel=1e-5)
    assert plan["problem"]["cluster"]["intra_node_bw"] == pytest.approx(preset["intra_node_bw"], rel=1e-5)

    # a plain audit of that plan audits it on the preset file, and says so where the file is not at hand
    assert "4 x my.yaml" in foldplan("audit", "b2/plan.json", "--no-best", cwd=tmp_path).stdout
    r = foldplan("audit", "plan.json", "--no-best", cwd=tmp_path / "b2", check=False)
    assert r.returncode == 2 and "pass --gpu PATH/my.yaml" in r.stderr and len(r.stderr.splitlines()) == 1

    torchrun(tmp_path / "b2", "train.py", "--device", "cpu", "--steps", "3", "--metrics", "metrics.jsonl")
    steps = [json.loads(ln)["step_time_s"] for ln in (tmp_path / "b2" / "metrics.jsonl").read_text().splitlines()]
    text = foldplan("audit", "--measured", "b2/metrics.jsonl", "b2/plan.json", cwd=tmp_path).stdout
    step_row = next(ln for ln in text.splitlines() if ln.startswith("step (s)")).split()
    assert float(step_row[2]) == pytest.approx(plan["estimate"]["step_time_s"], rel=1e-3)
    assert float(step_row[3]) == pytest.approx(statistics.median(steps[1:]), rel=1e-3)
    assert "not split:" in text and "4 x my.yaml" in text


def test_attention_fit_recovers_the_published_fa2_curve():
    """FlashAttention-3 paper (Shah et al. 2024) Figs. 5-6, FlashAttention-2 on H100 SXM, causal, head dim
    128: forward / backward TFLOP/s at 512..16k tokens; the h100-sxm preset's fit is eta 0.29, L0 305."""
    from planner.calibrate import fit
    fwd = [191, 260, 298, 319, 333, 335]
    bwd = [214, 260, 291, 310, 318, 322]
    rows = []
    for L, f, b in zip([512, 1024, 2048, 4096, 8192, 16384], fwd, bwd):
        # forward F FLOPs at f TFLOP/s, backward 2.5 F at b; counted as 3 F (calibrate.py's convention)
        rows.append({"kind": "attention", "block": L, "flops": 3.0, "time_s": (1.0 / f + 2.5 / b) / 1e12})
    (eta, l0), _ = fit.attention_curve(rows, 989e12)
    assert eta == pytest.approx(0.29, abs=0.01)
    assert l0 == pytest.approx(305, rel=0.15)


def test_collective_fit_recovers_latency_and_bandwidth():
    """Times of the cost model's own form (formulas.coll) at a known alpha and bus bandwidth per span."""
    from planner.calibrate import fit
    alpha, w = {"intra": 360e9, "inter": 45e9}, 8e-6
    rows = []
    for span, bw in alpha.items():
        for op in ("all_reduce", "all_gather", "all_to_all", "p2p"):
            for nbytes in (2 ** 16, 2 ** 20, 2 ** 24, 2 ** 28):
                hops, wire = fit.hops_and_wire(op, 8, nbytes)
                rows.append({"kind": "collective", "op": op, "group_size": 8, "span": span, "bytes": nbytes,
                             "time_s": hops * w + wire / bw})
    got, _ = fit.collectives(rows)
    assert got["latency_s"] == pytest.approx(w, rel=1e-6)
    assert got["intra"] == pytest.approx(360e9, rel=1e-6) and got["inter"] == pytest.approx(45e9, rel=1e-6)


@pytest.mark.parametrize("log,source", [("megatron.log", "megatron"), ("torchtitan.log", "torchtitan")])
def test_engine_step_lines(log, source):
    from planner.calibrate.measured import read_measured
    m = read_measured(DATA / log, world=8, tokens=8 * 4096)
    assert m.source == source and len(m.steps) == 4
    if source == "megatron":           # the first step left out: median of 1002.7, 998.1, 1005.9 ms
        assert m.step_s() == pytest.approx(1.0027)
    else:                              # global batch over tps x GPUs: median tps of 4021, 4102, 3987
        assert m.step_s() == pytest.approx(8 * 4096 / (4021 * 8))
        assert m.peak_gib == pytest.approx(30.12)


@pytest.mark.parametrize("content,needle", [
    ("", "is empty"),
    ("not json\n", "line 1 is not JSON"),
    ('{"kind": "gemm"}\n', "line 1 should be the provenance row"),
    ('{"kind": "provenance", "host": "h", "torch": "2", "device": "d", "date": "x", "world_size": 2, "backend": "gloo"}\n'
     '{"kind": "gemm", "name": "q", "m": 1, "k": 1, "n": 1, "flops": 2, "time_s": -1}\n', "time_s: must be positive"),
    ('{"kind": "provenance", "host": "h", "torch": "2", "device": "d", "date": "x", "world_size": 2, "backend": "gloo"}\n'
     '{"kind": "collective", "op": "broadcast", "axis": "dp", "group_size": 2, "span": "intra", "bytes": 8, '
     '"time_s": 1}\n', "op: 'broadcast' is not one of"),
])
def test_bad_results_one_line(tmp_path, content, needle):
    (tmp_path / "r.jsonl").write_text(content)
    r = foldplan("calibrate", "r.jsonl", "--out", "my.yaml", "--gpu", "h100-sxm", cwd=tmp_path, check=False)
    assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "my.yaml").exists()


def test_bad_measured_and_gpu_file_one_line(tmp_path):
    (tmp_path / "m.log").write_text("nothing here\n")
    (tmp_path / "bad.yaml").write_text("peak_flops: -1\n")
    r = foldplan("audit", "--measured", "m.log", "tp=2,dp=4", "--model", "llama3-8b", "--seq", "4k", "--gpus", "8",
                 cwd=tmp_path, check=False)
    assert r.returncode == 2 and "holds no step line" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = foldplan("plan", "--gpu", "bad.yaml", "--model", "llama3-8b", "--gpus", "8", cwd=tmp_path, check=False)
    assert r.returncode == 2 and "gpu bad.yaml" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_measured_log_beside_a_config_estimate(tmp_path):
    """A Megatron log beside the audit's estimate of a layout (the config route, no plan file)."""
    flags = ["tp=2,dp=4", "--model", "llama3-8b", "--seq", "4k", "--gpus", "8", "--global-batch", "64"]
    doc = json.loads(foldplan("audit", *flags, "--no-best", "--json", cwd=tmp_path).stdout)
    text = foldplan("audit", "--measured", DATA / "megatron.log", *flags, cwd=tmp_path).stdout
    row = next(ln for ln in text.splitlines() if ln.startswith("step (s)")).split()
    assert float(row[2]) == pytest.approx(doc["estimate"]["step_time_s"], rel=1e-3)
    assert float(row[3]) == pytest.approx(1.0027, abs=5e-4) and "(megatron," in text       # printed to 4 digits


@pytest.mark.full_matrix
def test_example_bundle_calibrates_at_its_own_world(tmp_path):
    """The committed example bundle (generated/tiny-moe-8cpu: cp8 hybrid, edp8) at its own 8 ranks, --tiny:
    every collective in the plan's own groups, none skipped; the preset it gives plans the example."""
    import shutil
    b = tmp_path / "b"
    shutil.copytree(ROOT / "generated" / "tiny-moe-8cpu", b)
    r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=8",
                        "calibrate.py", "--tiny", "--device", "cpu", "--iters", "2", "--out", tmp_path / "r.jsonl"],
                       cwd=b, env=_env(), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [json.loads(ln) for ln in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert not [x for x in rows if x["kind"] == "skipped" and " over " in x["what"]]
    lay = json.loads((b / "plan.json").read_text())["plans"][0]["layout"]        # the example's own groups
    want = {("cp_ulysses", lay["cp_ulysses"]), ("cp_ring", lay["cp_ring"]), ("edp", lay["stages"][0]["edp"])}
    assert want <= {(x["axis"], x["group_size"]) for x in rows if x["kind"] == "collective"}
    foldplan("calibrate", tmp_path / "r.jsonl", "--out", tmp_path / "t.yaml", cwd=tmp_path)
    args = (ROOT / "examples" / "plans" / "tiny-moe-8cpu.args").read_text().split()
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
    foldplan("plan", *args, "--gpu", tmp_path / "t.yaml", "--no-engines", "--top", "1", cwd=tmp_path)


def test_measured_log_past_any_device_is_named(tmp_path):
    """A log whose step implies an MFU over 100% on the config, and a peak above the GPU's memory: named."""
    flags = ["tp=2,dp=4", "--model", "llama3-8b", "--seq", "4k", "--gpus", "8", "--global-batch", "64"]
    doc = json.loads(foldplan("audit", *flags, "--no-best", "--json", cwd=tmp_path).stdout)
    est = doc["estimate"]
    fast_ms = est["step_time_s"] * est["mfu"] * 1000 / 1.5          # the step of an MFU of 150%
    lines = [f" [2026-01-01] iteration {i}/ 100 | consumed samples: {64 * i} | elapsed time per iteration (ms): "
             f"{fast_ms:.1f} | learning rate: 1.0E-04 | global batch size: 64 |" for i in range(1, 5)]
    (tmp_path / "fast.log").write_text("\n".join(lines) + "\n")
    r = foldplan("audit", "--measured", "fast.log", *flags, cwd=tmp_path)
    warn = [ln for ln in r.stderr.splitlines() if "MFU" in ln]
    assert len(warn) == 1 and "implies an MFU of 150%" in warn[0], r.stderr
    from planner.calibrate.measured import implausible, read_measured
    from planner.specs import load_gpu
    m = read_measured(DATA / "torchtitan.log", world=8, tokens=8 * 4096)
    m.peak_gib = 95.0                                                  # over an H100's 79.6 GiB
    said = implausible(m, {"mfu": 0.4, "step_time_s": m.step_s()}, load_gpu("h100-sxm"))
    assert said == [next(s for s in said if "exceeds" in s)] and "95 GiB exceeds" in said[0]
    slow = [ln.replace(f"{fast_ms:.1f}", f"{fast_ms * 3:.1f}") for ln in lines]    # an MFU of 50%: plausible
    (tmp_path / "slow.log").write_text("\n".join(slow) + "\n")
    r = foldplan("audit", "--measured", "slow.log", *flags, cwd=tmp_path)
    assert "warning" not in r.stderr

"""Each target's known error band (planner.engines.bands) against the fidelity benchmarks' own rows:
the dense Megatron-LM rows are recomputed here by benchmarks/fidelity.py and the band the planner
prints is checked against the median and worst error of those recomputed rows; engines without
published runs of a kind say so and take no other engine's band."""
from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

from planner.engines import bands
from planner.specs import make_problem

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str):
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)             # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return sys.modules[name]


@pytest.fixture(scope="module")
def dense_summary():
    return _load("fidelity").run_all()


def test_megatron_dense_band_is_the_benchmarks_rows(dense_summary):
    """The megatron dense band = median |error| and worst error of N21 + K22 as the benchmark computes
    them now (MT-NLG ran on DeepSpeed's pipeline engine and is not Megatron's)."""
    errs = [r.rel_error for r in dense_summary.rows if r.run.source in ("N21", "K22")]
    (band,) = bands.bands("megatron", "dense")
    assert band.runs == len(errs) == 13
    assert band.median_abs == pytest.approx(statistics.median(abs(e) for e in errs), abs=1e-5)
    assert band.worst == pytest.approx(max(errs, key=abs), abs=1e-5)
    (ds,) = bands.bands("deepspeed", "dense")
    mt = [r.rel_error for r in dense_summary.rows if r.run.source == "MT"]
    assert ds.median_abs == pytest.approx(statistics.median(abs(e) for e in mt), abs=1e-5)


def test_stored_rows_match_a_fresh_run_of_every_benchmark(dense_summary):
    """Each section of the stored file equals what the benchmarks give now (about 8 s of CPU): the JSON
    is the benchmarks' output, not a typed copy, and a cost-model change that moves a row fails here
    until the benchmarks are rerun (python benchmarks/fidelity.py --markdown docs/fidelity.md;
    python benchmarks/fidelity_fp8.py --markdown docs/fidelity.md)."""
    b = _load("bands")
    moe, ep, cp, fp8 = _load("fidelity_moe"), _load("fidelity_ep"), _load("fidelity_cp"), _load("fidelity_fp8")
    fresh = {"dense": b.dense_rows(dense_summary), "moe": b.moe_rows(moe.run_all()),
             "torchtitan": b.torchtitan_rows(moe.torchtitan_runs()),
             "ep": b.ep_rows(ep.overlap_pair(), ep.zoo_235b_rows()), "cp": b.cp_rows(cp.run_all()),
             "cp-torchtitan": b.cp_torchtitan_rows(cp.torchtitan_rows()),
             "fp8": b.fp8_rows(fp8.run_all())}
    stored = json.loads(bands.PATH.read_text())["sections"]
    assert sorted(stored) == sorted(fresh)
    for name, rows in fresh.items():
        keys = lambda rs: [(r["engine"], r["kind"], r["source"], r["run"], r.get("reading")) for r in rs]
        assert keys(rows) == keys(stored[name]), name
        assert [r["error"] for r in rows] == pytest.approx([r["error"] for r in stored[name]], abs=1e-5), name


def test_every_stored_row_is_well_formed():
    for r in bands.rows():
        assert r["kind"] in bands.KIND_NAMES and isinstance(r["error"], float) and -1 < r["error"] < 5, r
    # the long-context rows come in both readings of NeMo's FLOP count, one row each
    cp = bands.bands("megatron", "cp")
    assert sorted(b.reading for b in cp) == ["causal", "full-mask"] and cp[0].runs == cp[1].runs


class _L:                                   # the two fields kinds_of reads
    def __init__(self, cp):
        self.cp = cp


def test_bands_never_borrowed_across_engines():
    moe = make_problem(model="mixtral-8x7b", gpu="h100-sxm", gpus=64, seq=131072, global_batch=32)
    dense = make_problem(model="llama3-8b", gpu="h100-sxm", gpus=8, seq=8192, global_batch=8)
    assert bands.kinds_of(moe, _L(8)) == ["moe", "cp"] and bands.kinds_of(dense, _L(1)) == ["dense"]
    for target in ("bundle", "olmo-core"):
        assert bands.describe(target, moe, _L(8)) == bands.NONE
        assert bands.describe(target, dense, _L(1)) == bands.NONE
    # torchtitan's published CP rows (Llama 3.1 8B, CP 1..8) are its CP band; it has no MoE band (its
    # DeepEP rows are in the MoE corpus, not among the bands): said so beside the CP band
    tt = bands.describe("torchtitan", moe, _L(8))
    assert tt.startswith("long-context CP median") and "no published MoE runs" in tt
    (ttcp,) = bands.bands("torchtitan", "cp")
    assert ttcp.runs == 4 and ttcp.sources == ("TTCP",)
    (ttd,) = bands.bands("torchtitan", "dense")
    assert bands.describe("torchtitan", dense, _L(1)) == bands.kind_text("dense", [ttd])
    mg = bands.describe("megatron", moe, _L(8))
    assert mg.startswith("MoE median") and "long-context CP median" in mg
    assert bands.document("olmo-core", moe, _L(8))["no_published_runs"] == ["moe", "cp"]

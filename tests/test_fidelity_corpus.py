"""The MoE validation corpus (benchmarks/corpus/moe_runs.yaml) and its scorer (benchmarks/fidelity_corpus.py):
the corpus holds what it must (>= 40 measured runs, >= 25 fine-grained, >= 5 independent origins, each with
its provenance and assumptions); a malformed row is refused in one line; the scorer rebuilds a row as
published and its scores are recomputed here from the estimates (no stored figure is compared)."""
import dataclasses
import importlib.util
import math
import re
import statistics
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


sys.path.insert(0, str(BENCH))
cr = _module("corpus_rows")
fc = _module("fidelity_corpus")

# a repository at a commit (owner/name@hex), or a paper with its table / section
REPO_AT = re.compile(r"\b[\w.-]+/[\w.-]+@[0-9a-f]{7,40}\b")
PAPER = re.compile(r"arXiv \d{4}\.\d{4,5}.*(Table|sec\.)")


@pytest.fixture(scope="module")
def corpus():
    return cr.load()


def test_corpus_size_regime_and_origins(corpus):
    models = {r.model: cr.model_spec(r.model, corpus.models) for r in corpus.runs}
    fine = [r for r in corpus.runs if cr.fine_grained(models[r.model])]
    origins = {corpus.sources[r.source]["origin"] for r in corpus.runs}
    assert len(corpus.runs) >= 40
    assert len(fine) >= 25
    assert len(origins) >= 5, origins
    assert all(m.is_moe for m in models.values())


def test_every_row_has_provenance_assumptions_and_a_measured_value(corpus):
    for r in corpus.runs:
        assert REPO_AT.search(r.provenance) or PAPER.search(r.provenance), (r.id, r.provenance)
        assert r.assumptions, r.id                  # its source's, at least
        assert r.value > 0 and r.metric in cr.METRICS, r.id
    for m, spec in corpus.models.items():
        assert spec.get("provenance"), m
    for u in corpus.unpriceable:
        assert u["reason"] and (REPO_AT.search(u["provenance"]) or PAPER.search(u["provenance"])), u["id"]


def test_fine_grained_is_the_issue_regime():
    from planner.specs import load_model
    assert cr.fine_grained(load_model("qwen3-30b-a3b"))         # 128 experts, top-8, FFN 768
    assert cr.fine_grained(load_model("deepseek-v3"))           # 256 experts, top-8, FFN 2048
    assert not cr.fine_grained(load_model("mixtral-8x22b"))     # 8 experts, top-2, FFN 16384
    assert not cr.fine_grained(load_model("llama3-8b"))         # dense


def test_a_malformed_row_is_refused_in_one_line(tmp_path):
    data = yaml.safe_load(cr.CORPUS.read_text())
    row = dict(data["runs"][0])
    del row["provenance"]
    data["runs"] = [row]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(cr.CorpusError) as e:
        cr.load(bad)
    assert str(e.value) == f"corpus row {row['id']}: missing provenance"
    row["provenance"], row["metric"] = "x/y@abcdef0", "joules"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(cr.CorpusError, match="metric 'joules'"):
        cr.load(bad)


ROWS = ("mbsk-q30b-h100-ep16-overlap-off", "mbsk-q30b-h100-ep16-overlap-on", "zoo-q235b-tp2-ep32-pp8-vpp4-deepep",
        "tt-q30b-b200-deepep-8gpu", "mb-2608-gb200-q30b-a3b-mxfp8")


@pytest.fixture(scope="module")
def scored(corpus):
    return {s.run.id: s for s in fc.score_all(corpus, set(ROWS))}


def test_the_scorer_prices_each_row_at_its_published_degrees(corpus, scored):
    from planner import costmodel as cm
    assert set(scored) == set(ROWS)
    for rid, s in scored.items():
        run = s.run
        pr, L, _ = cr.build(run, cr.model_spec(run.model, corpus.models))
        lay = run.layout
        assert (L.world, L.tp, L.cp, L.pp, L.vpp, L.micro_batch) == (run.gpus, lay["tp"], lay["cp"], lay["pp"],
                                                                      lay["vpp"], lay["micro_batch"]), rid
        assert {(st.etp, st.ep) for st in L.stages} == {(lay["etp"], lay["ep"])}, rid
        assert (L.dispatcher, L.ep_overlap) == (run.dispatcher, run.ep_overlap), rid
        assert L.sharding == lay["sharding"], rid
        assert (pr.train.precision, pr.train.routing, pr.model.name) == (run.precision, "forced", run.model), rid
        assert L.num_microbatches * L.dp * L.micro_batch == run.global_batch, rid
        est = cm.evaluate(pr, L)                                # the estimate again, from the rebuilt row
        want = {"step_s": est.step_time, "tokens_per_s_per_gpu": est.tokens_per_s_per_gpu}[run.metric]
        assert s.estimate == pytest.approx(want, rel=1e-9), rid
        thr = (run.value / s.estimate) if run.metric == "step_s" else (s.estimate / run.value)
        assert s.error == pytest.approx(thr - 1, rel=1e-12), rid


def test_the_overlap_pair_keeps_the_measured_order(scored):
    off, on = scored["mbsk-q30b-h100-ep16-overlap-off"], scored["mbsk-q30b-h100-ep16-overlap-on"]
    assert on.run.value < off.run.value                          # measured: 20.99 s < 24.71 s
    assert on.estimate < off.estimate, (on.estimate, off.estimate)
    a, b, pub, est = fc.pairs(list(scored.values()))["MBSK EP overlap off -> on"]
    assert (a.run.id, b.run.id) == (off.run.id, on.run.id)
    assert pub == pytest.approx(off.run.value / on.run.value) and est == pytest.approx(off.estimate / on.estimate)
    assert fc.same_order(pub, est)


def _ranks(v):
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(len(v))
    return r


def test_summaries_are_recomputed_from_the_rows(scored):
    rows = list(scored.values())
    for src, (n, med, worst, fine) in fc.by_source(rows).items():
        errs = [s.error for s in rows if s.run.source == src]
        assert n == len(errs) and med == pytest.approx(statistics.median(abs(e) for e in errs))
        assert worst == max(errs, key=abs)
        assert fine == sum(s.fine for s in rows if s.run.source == src)
    fake = []
    for est, pub in zip((1.0, 3.0, 2.0, 5.0, 4.0), (10.0, 20.0, 30.0, 40.0, 50.0)):
        run = dataclasses.replace(rows[0].run, value=pub, metric="tokens_per_s_per_gpu", grid=None)
        fake.append(fc.Scored(run, True, est, est / pub - 1, "", (), 0.0, 0.0))
    (name, (n, rho, _)), = [(k, v) for k, v in fc.grids(fake).items() if " on " not in k]
    est, pub = [f.estimate for f in fake], [f.run.value for f in fake]
    assert n == 5 and rho == pytest.approx(np.corrcoef(_ranks(est), _ranks(pub))[0, 1])
    assert math.isclose(rho, 0.8)


def test_markdown_block_is_written_with_every_row(tmp_path, corpus, scored):
    import mdtables
    page = tmp_path / "fidelity.md"
    page.write_text("# Fidelity\n\nprose kept\n")
    mdtables.write_blocks(str(page), "python benchmarks/fidelity_corpus.py --markdown x",
                          {"fidelity-corpus": fc.markdown(list(scored.values()), corpus)})
    text = page.read_text()
    assert "prose kept" in text and "<!-- generated: fidelity-corpus -->" in text
    for rid in ROWS:
        assert rid in text


def test_megatron_bridge_rows_on_nvl72_run_in_the_launchers_slurm_segments(corpus):
    """Megatron-Bridge's performance launcher asks SLURM for `--segment` hosts per NVLink domain on 4-GPU
    hosts: all of them up to 18, else the largest divisor of the host count up to 18. Its 256-GPU GB200 /
    GB300 rows therefore run as four 64-GPU domains (an EP64 group whole in one), not as 72 + 72 + 72 + 40."""
    assert [cr.bridge_segment(n) for n in (2, 16, 18, 20, 32, 64, 128)] == [2, 16, 18, 10, 16, 16, 16]
    runs = {r.id: r for r in corpus.runs}
    nvl = runs["mb-2511-gb200-dsv3-no-mtp-bf16"]
    pr = cr.problem(nvl, cr.model_spec(nvl.model, corpus.models))
    assert (pr.cluster.gpus, pr.cluster.gpus_per_domain, pr.cluster.used_per_domain) == (256, 72, 64)
    hgx = next(r for r in corpus.runs if r.source == "MB" and r.gpu == "h100-sxm")
    assert cr.problem(hgx, cr.model_spec(hgx.model, corpus.models)).cluster.used_per_domain == 8
    tt = next(r for r in corpus.runs if r.source == "TT")           # another source's launcher: no segment
    assert not tt.cluster


def test_every_megatron_bridge_row_states_its_cuda_graphs_and_a_bad_one_is_refused(corpus, tmp_path):
    """Each Megatron-Bridge row says which CUDA graphs its release ran (read from that release's scripts);
    an unknown mode is refused in one line naming the row and the field."""
    mb = [r for r in corpus.runs if r.source == "MB"]
    assert mb and all(r.cuda_graphs in cr.CUDA_GRAPHS for r in mb)
    data = yaml.safe_load(cr.CORPUS.read_text())
    row = dict(next(r for r in data["runs"] if r["source"] == "MB"), cuda_graphs="partial")
    data["runs"] = [row]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(cr.CorpusError, match=f"corpus row {row['id']}: cuda_graphs 'partial'"):
        cr.load(bad)


def test_the_cuda_graph_split_is_recomputed_from_the_rows(scored):
    """by_cuda_graphs: per mode, the count, the median signed error and the median |error| of the rows that
    state it (computed here from the rows, not compared with a stored figure)."""
    rows = list(scored.values())
    fake = [fc.Scored(dataclasses.replace(rows[0].run, cuda_graphs=mode), True, 1.0, err, "", (), 0.0, 0.0)
            for mode, err in (("none", 0.4), ("none", 0.2), ("none", -0.1), ("full", 0.05), ("full", -0.15))]
    fake.append(fc.Scored(dataclasses.replace(rows[0].run, cuda_graphs=None), True, 1.0, 0.9, "", (), 0.0, 0.0))
    got = fc.by_cuda_graphs(fake)
    assert set(got) == {"none", "full"}
    assert got["none"][0] == 3 and got["none"][1] == pytest.approx(0.2) and got["none"][2] == pytest.approx(0.2)
    assert got["full"][0] == 2 and got["full"][1] == pytest.approx(-0.05) and got["full"][2] == pytest.approx(0.1)


def test_peak_memory_is_recorded_and_a_run_over_its_gpu_is_listed(corpus, scored):
    """Each scored row carries the estimated peak of its busiest GPU and that GPU's memory; a run (all of them
    ran) whose peak exceeds it is listed by out_of_memory as an error of the memory model, never dropped."""
    from planner import costmodel as cm
    for rid, s in scored.items():
        pr, L, _ = cr.build(s.run, cr.model_spec(s.run.model, corpus.models))
        est = cm.evaluate(pr, L)
        assert s.peak_gib == pytest.approx(est.peak_bytes / cm.GiB) and s.budget_gib == pr.cluster.memory_budget_gib
        assert s.over == (s.peak_gib > s.budget_gib) and (s in fc.out_of_memory([s])) == s.over
    a = next(iter(scored.values()))
    over = dataclasses.replace(a, peak_gib=a.budget_gib + 1.0)
    under = dataclasses.replace(a, peak_gib=a.budget_gib - 1.0)
    assert fc.out_of_memory([over, under]) == [over]
    text = "\n".join(fc.summary_lines([over, under], corpus))
    assert "rates out of memory: 1 of 2" in text and over.run.id in text


def test_megatron_bridge_rows_keep_the_logits_as_their_releases_cross_entropy_does(corpus):
    """From 25.11 the performance scripts set cross_entropy_fusion_impl = 'te': Transformer Engine's Triton cross
    entropy writes the gradient over the bf16 logits, 2 bytes a logit; 25.09 (r0.1.0) runs Megatron-Core's native
    fused form, 10 (bf16 logits, fp32 exp-logits, fp32 grad)."""
    from planner import costmodel as cm
    runs = {r.id: r for r in corpus.runs}
    for rid, want in (("mb-2608-gb200-q30b-a3b-mxfp8", 2.0), ("mb-2509-gb200-q30b-a3b-fp8cs", 10.0)):
        run = runs[rid]
        pr, L, _ = cr.build(run, cr.model_spec(run.model, corpus.models))
        assert pr.train.logit_bytes == want, rid
        st = cm.evaluate(pr, L).stages[-1]                         # the loss's stage (PP 1: the only one)
        tokens = L.micro_batch * run.seq
        assert st.logits == pytest.approx(tokens * pr.model.vocab / L.tp * want, rel=1e-6), rid

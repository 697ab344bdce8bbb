"""Estimate fidelity: the cost model on published Megatron-LM runs, estimate vs measured.

    python benchmarks/fidelity.py                                # the dense table, then the MoE ones
    python benchmarks/fidelity.py --markdown docs/fidelity.md    # ... and writes them into the docs page

Each row builds the exact model and layout of a published run (GPT of the Megatron
papers: vocab 51200, seq 2048, non-gated 4h FFN, LayerNorm, linear biases, tied
embeddings, MHA; fp16/bf16 on A100-80GB, 8 GPUs per node, dropout on, Megatron's fused
softmax but no flash attention) and compares the cost model's step time with the paper.

Sources
  N21  Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
       Clusters Using Megatron-LM", Table 1: TFLOP/s per GPU counted with the paper's
       formula (Appendix), 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) per iteration, which
       includes the full activation recompute the runs used.
  K22  Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
       Models", Table 5: seconds per iteration, full recompute (no sequence parallel)
       vs selective recompute + sequence parallel.
  MT   Smith et al. 2022, "Using DeepSpeed and Megatron to Train Megatron-Turing NLG
       530B", sec. 3: seconds per iteration at global batch 1920 on 2240/2800/3360 GPUs.

Assumptions the papers do not state (shown in the table's `layout` column):
  N21  micro-batch 1 where pp > 1; the pipelines K22 reran on the same cluster keep
       K22's schedule (530B: interleaved, 3 chunks of 1 layer; 1T: plain 1F1B), 145.6B
       (not in K22): 2 chunks of 5 layers; pp = 1 rows: the micro-batch does not change
       the estimate (no bubble), 1 is used. Data parallel: the 2021 code all-reduced
       gradients after the backward pass; the model overlaps them with the last
       micro-batch's backward (a small difference: at most one micro-batch of work).
  MT   DeepSpeed's 1F1B pipeline (no interleaving), micro-batch 1, full recompute,
       no sequence parallel (not yet published then).
"""
from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import costmodel as cm  # noqa: E402
from planner.layout import Layout, uniform_stages  # noqa: E402
from planner.specs import ModelSpec, make_problem  # noqa: E402

SEQ, VOCAB = 2048, 51200


def gpt(name: str, layers: int, hidden: int, heads: int) -> ModelSpec:
    """A GPT of the Megatron papers."""
    return ModelSpec(name=name, layers=layers, hidden=hidden, heads=heads, kv_heads=heads,
                     head_dim=hidden // heads, vocab=VOCAB, ffn_hidden=4 * hidden, gated=False,
                     norm="layernorm", linear_bias=True, tied_embeddings=True)


def paper_flops(model: ModelSpec, batch: int, recompute: str) -> float:
    """FLOPs per iteration as Narayanan et al. 2021 (Appendix) count them: 96 B s l h^2
    (1 + s/(6h) + V/(16 l h)) with full recompute; 72 (one forward fewer) without it."""
    l, h = model.layers, model.hidden
    k = 96 if recompute == "full" else 72
    return k * batch * SEQ * l * h * h * (1 + SEQ / (6 * h) + VOCAB / (16 * l * h))


@dataclass(frozen=True)
class Run:
    source: str
    model: ModelSpec
    gpus: int
    tp: int
    pp: int
    batch: int
    micro_batch: int
    vpp: int
    recompute: str              # "full" | "selective"
    sp: bool                    # sequence parallel
    metric: str                 # "tflops" (per GPU, paper formula) | "seconds" (per iteration)
    published: float
    problem_id: str             # rows of one problem (for the rank correlation)

    @property
    def dp(self) -> int:
        return self.gpus // (self.tp * self.pp)

    def layout(self) -> Layout:
        stages = uniform_stages(self.model.layers, self.pp, recompute_full=-1 if self.recompute == "full" else 0)
        if self.recompute == "selective":
            stages = tuple(s.model_copy(update={"recompute_selective": s.num_layers}) for s in stages)
        m = self.batch // (self.dp * self.micro_batch)
        return Layout(world=self.gpus, tp=self.tp, dp=self.dp, pp=self.pp, vpp=self.vpp,
                      micro_batch=self.micro_batch, num_microbatches=m, stages=stages)

    def problem(self):
        return make_problem(model=self.model, gpu="a100-80g", gpus=self.gpus, seq=SEQ, global_batch=self.batch,
                            memory_gib=1e6, flash_attention=False, dropout=True, sequence_parallel=self.sp,
                            distributed_optimizer=False)


G1_7 = gpt("1.7B", 24, 2304, 24)
G18 = gpt("18.4B", 40, 6144, 48)
G145 = gpt("145.6B", 80, 12288, 96)
G530 = gpt("530B", 105, 20480, 128)
G1T = gpt("1T", 128, 25600, 160)
G22 = gpt("22B", 48, 6144, 64)
G175 = gpt("175B", 96, 12288, 96)

RUNS = [
    # Narayanan et al. 2021, Table 1: TFLOP/s per GPU (full recompute)
    Run("N21", G1_7, 32, 1, 1, 512, 1, 1, "full", False, "tflops", 137, "n21-1.7B"),
    Run("N21", G18, 256, 8, 1, 1024, 1, 1, "full", False, "tflops", 135, "n21-18.4B"),
    Run("N21", G145, 1536, 8, 8, 2304, 1, 2, "full", False, "tflops", 148, "n21-145.6B"),
    Run("N21", G530, 2520, 8, 35, 2520, 1, 3, "full", False, "tflops", 163, "n21-530B"),
    Run("N21", G1T, 3072, 8, 64, 3072, 1, 1, "full", False, "tflops", 163, "n21-1T"),
    # Korthikanti et al. 2022, Table 5: seconds per iteration
    Run("K22", G22, 8, 8, 1, 4, 4, 1, "full", False, "seconds", 1.42, "k22-22B"),
    Run("K22", G22, 8, 8, 1, 4, 4, 1, "selective", True, "seconds", 1.10, "k22-22B"),
    Run("K22", G175, 64, 8, 8, 64, 1, 3, "full", False, "seconds", 18.13, "k22-175B"),
    Run("K22", G175, 64, 8, 8, 64, 1, 3, "selective", True, "seconds", 13.75, "k22-175B"),
    Run("K22", G530, 280, 8, 35, 280, 1, 3, "full", False, "seconds", 49.05, "k22-530B"),
    Run("K22", G530, 280, 8, 35, 280, 1, 3, "selective", True, "seconds", 37.83, "k22-530B"),
    Run("K22", G1T, 512, 8, 64, 512, 1, 1, "full", False, "seconds", 94.42, "k22-1T"),
    Run("K22", G1T, 512, 8, 64, 512, 1, 1, "selective", True, "seconds", 71.49, "k22-1T"),
    # MT-NLG 530B (Smith et al. 2022): seconds per iteration, batch 1920
    Run("MT", G530, 2240, 8, 35, 1920, 1, 1, "full", False, "seconds", 60.1, "mt-530B"),
    Run("MT", G530, 2800, 8, 35, 1920, 1, 1, "full", False, "seconds", 50.2, "mt-530B"),
    Run("MT", G530, 3360, 8, 35, 1920, 1, 1, "full", False, "seconds", 44.4, "mt-530B"),
]


@dataclass
class Row:
    run: Run
    step_s: float               # estimated seconds per iteration
    estimate: float             # in the run's metric
    tflops_est: float           # paper-formula TFLOP/s per GPU, estimated
    tflops_pub: float           # ... published (or derived from the published seconds)
    bubble: float               # share of the estimated step in the pipeline bubble
    comm: float                 # ... in exposed communication (tp, pp, dp)

    @property
    def rel_error(self) -> float:
        """Relative error of the estimated throughput (1/time for seconds rows)."""
        return self.tflops_est / self.tflops_pub - 1


def evaluate(run: Run) -> Row:
    est = cm.evaluate(run.problem(), run.layout())
    flops = paper_flops(run.model, run.batch, run.recompute)
    tf_est = flops / est.step_time / run.gpus / 1e12
    shares = (est.bubble / est.step_time, sum(est.exposed.values()) / est.step_time)
    if run.metric == "tflops":
        return Row(run, est.step_time, tf_est, tf_est, run.published, *shares)
    tf_pub = flops / run.published / run.gpus / 1e12
    return Row(run, est.step_time, est.step_time, tf_est, tf_pub, *shares)


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman rank correlation (no ties expected; ties get their mean rank)."""
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx and sy else float("nan")


@dataclass
class Summary:
    rows: list[Row]
    median_abs_error: dict[str, float]      # by source
    ordering_ok: dict[str, bool]            # K22: full slower than selective, per model
    spearman: dict[str, float]              # by source, over all its rows (throughput)


def run_all() -> Summary:
    rows = [evaluate(r) for r in RUNS]
    med = {s: statistics.median(abs(r.rel_error) for r in rows if r.run.source == s) for s in ("N21", "K22", "MT")}
    order = {}
    for r in rows:
        if r.run.source == "K22" and r.run.recompute == "full":
            sel = next(x for x in rows if x.run.problem_id == r.run.problem_id and x.run.recompute == "selective")
            order[r.run.model.name] = r.step_s > sel.step_s
    rho = {}
    for s in ("N21", "K22", "MT"):
        sub = [r for r in rows if r.run.source == s]
        rho[s] = spearman([r.tflops_est for r in sub], [r.tflops_pub for r in sub])
    return Summary(rows, med, order, rho)


SOURCES = {"N21": "Narayanan et al. 2021 Table 1", "K22": "Korthikanti et al. 2022 Table 5",
           "MT": "MT-NLG 530B (Smith et al. 2022)"}


def table(summary: Summary) -> str:
    head = (f"{'source':6} {'model':7} {'GPUs':>5} {'layout':25} {'recompute':9} {'metric':7} "
            f"{'estimate':>8} {'published':>9} {'TF/s est':>8} {'TF/s pub':>8} {'error':>7} {'bubble':>6} {'comm':>5}")
    out = [head, "-" * len(head)]
    for row in summary.rows:
        r = row.run
        lay = f"tp{r.tp} pp{r.pp} dp{r.dp} mb{r.micro_batch} v{r.vpp}{' sp' if r.sp else ''}"
        unit = "TFLOP/s" if r.metric == "tflops" else "s/iter"
        out.append(f"{r.source:6} {r.model.name:7} {r.gpus:5d} {lay:25} {r.recompute:9} {unit:7} "
                   f"{row.estimate:8.2f} {r.published:9.2f} {row.tflops_est:8.1f} {row.tflops_pub:8.1f} "
                   f"{row.rel_error:+7.1%} {row.bubble:6.1%} {row.comm:5.1%}")
    out += ["",
            "TF/s: paper-formula FLOP/s per GPU, 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) (72 for selective);",
            "error: estimated throughput / published - 1 (s/iter rows: published / estimated seconds - 1);",
            "bubble, comm: shares of the estimated step in the pipeline bubble and in exposed tp/pp/dp comm.", ""]
    for s, v in summary.median_abs_error.items():
        out.append(f"{SOURCES[s]:32} median |error| {v:5.1%}   Spearman of TF/s over its rows {summary.spearman[s]:+.2f}")
    out.append("K22 full recompute slower than selective + SP: "
               + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in summary.ordering_ok.items()))
    return "\n".join(out)


def markdown(summary: Summary) -> str:
    """The same table and summary as `table`, in markdown (docs/fidelity.md)."""
    import mdtables
    rows = []
    for row in summary.rows:
        r = row.run
        rows.append([r.source, r.model.name, r.gpus, f"tp{r.tp} pp{r.pp} dp{r.dp} mb{r.micro_batch} v{r.vpp}"
                     f"{' sp' if r.sp else ''}", r.recompute, "TFLOP/s" if r.metric == "tflops" else "s/iter",
                     f"{row.estimate:.2f}", f"{r.published:.2f}", f"{row.tflops_est:.1f}", f"{row.tflops_pub:.1f}",
                     f"{row.rel_error:+.1%}", f"{row.bubble:.1%}", f"{row.comm:.1%}"])
    head = ["source", "model", "GPUs", "layout", "recompute", "metric", "estimate", "published", "TF/s est",
            "TF/s pub", "error", "bubble", "comm"]
    out = [mdtables.table(head, rows, right=(2, 6, 7, 8, 9, 10, 11, 12)), "",
           "TF/s: the paper's FLOP count per GPU, 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) (72 for selective); "
           "error: estimated throughput / published - 1 (s/iter rows: published / estimated seconds - 1); "
           "bubble, comm: shares of the estimated step in the pipeline bubble and in exposed tp / pp / dp "
           "communication.", ""]
    for s, v in summary.median_abs_error.items():
        out.append(f"* {SOURCES[s]}: median |error| {v:.1%}, Spearman of TF/s over its rows "
                   f"{summary.spearman[s]:+.2f}")
    out.append("* K22, full recompute slower than selective + SP: "
               + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in summary.ordering_ok.items()))
    return "\n".join(out)


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description="the cost model on published runs, estimate vs measured")
    ap.add_argument("--dense", action="store_true", help="the dense Megatron-LM rows only")
    ap.add_argument("--markdown", metavar="PATH", help="also write the tables into this markdown page "
                    "(docs/fidelity.md), between its generated-block markers")
    a = ap.parse_args()
    t0 = time.perf_counter()
    s = run_all()
    print(table(s))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    blocks = {"fidelity-dense": markdown(s)} if a.markdown else {}
    if not a.dense:                           # the MoE rows (benchmarks/fidelity_moe.py), then torchtitan's
        import fidelity_moe
        moe = fidelity_moe.run_all()
        tt = fidelity_moe.torchtitan_runs()
        print()
        print(fidelity_moe.table(moe))
        print()
        print(fidelity_moe.torchtitan_table(tt))
        import fidelity_ep                    # the EP dispatch / overlap rows
        ep_pair, ep_zoo = fidelity_ep.overlap_pair(), fidelity_ep.zoo_235b_rows()
        ep = fidelity_ep.lines(ep_pair, ep_zoo)
        print()
        print("\n".join(ep))
        if a.markdown:
            blocks.update(fidelity_moe.markdown_blocks(moe, tt))
            blocks.update(fidelity_ep.markdown_block(ep))
        import fidelity_cp                     # NeMo's long-sequence CP rows
        cp_rows = fidelity_cp.run_all()
        print()
        print(fidelity_cp.table(cp_rows))
        if a.markdown:
            blocks["fidelity-cp"] = fidelity_cp.markdown(cp_rows)
    if a.markdown:
        import bands                            # the rows the planner's error bands read
        import mdtables
        mdtables.write_blocks(a.markdown, mdtables.command_line(), blocks)
        bands.write("dense", bands.dense_rows(s))
        if not a.dense:
            bands.write("moe", bands.moe_rows(moe))
            bands.write("torchtitan", bands.torchtitan_rows(tt))
            bands.write("ep", bands.ep_rows(ep_pair, ep_zoo))
            bands.write("cp", bands.cp_rows(cp_rows))
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()

"""Estimate fidelity on published long-context runs with context parallelism: estimate vs measured.

    python benchmarks/fidelity.py                                # prints this table after the others
    python benchmarks/fidelity_cp.py --markdown docs/fidelity.md # this one alone, also into the docs page

Source (shared/REFERENCE.md, "Long-context CP, dense")
  NLS  NeMo docs/source/performance/performance_long_sequence.md (NVIDIA/NeMo 19fadb6), "LLAMA2-7B
       (FP8)": container NeMo 24.03.01, DGX-H100, one GPU per 1k tokens, TFLOP/s per GPU with
       CP at (TP, PP, DP, CP) per row, 4k .. 1M tokens, 4M-token global batches.

Model: Llama-2-7B as meta-llama/Llama-2-7b-hf config.json gives it: 32 layers, hidden 4096, 32
heads (MHA: num_key_value_heads 32), head dim 128, intermediate_size 11008 (SwiGLU), vocab 32000,
tie_word_embeddings false, RMSNorm, RoPE.

  TTCP torchtitan benchmarks/llama3_h100_202412_torchtitan.md (pytorch/torchtitan@b5bcd76c66d0, first
       published in docs/performance.md at d4c86e3758a8), Table 2: Llama 3.1 8B on 8 H100 (96 GB HBM2e,
       500 W), FSDP + CP + torch.compile + Float8, local batch 1, full activation checkpointing, 32k
       tokens per GPU in every row: CP 1 / 2 / 4 / 8 at 32k / 64k / 128k / 256k, 3,890 / 2,540 /
       1,071 / 548 tokens/s/GPU; torch 1963fc8 (2024-12-23), torchtitan 9dec370.

What the NLS source leaves open, and how each row resolves it:
  * FLOP count: the page does not say how TFLOP/s was counted. Read here as NeMo's llama2 formula
    (nemo/utils/flops_formulas.py), gbs s L h^2 (12 + 12 g/a + 18 F/h + 12 s/h + 6 V/(L h)), in the
    form without the causal halving of the 12 s/h term, as that file and Megatron-LM's
    num_floating_point_operations counted attention in 2024 (the causal_self_attn factor came
    later). The estimate's step time is turned into TFLOP/s with the same count. Because the
    reading decides what the published number means, the table also shows the other reading
    (the same formula with the causal halving: "causal" columns); neither is chosen by the fit.
  * Batch: 4M tokens = 4,194,304, i.e. 4096k / seq sequences.
  * Precision: the runs are FP8 through Transformer Engine; the page names no recipe, and NeMo
    24.03's default FP8 recipe is Transformer Engine's delayed scaling (fp8-delayed, the FP8
    linears as Megatron runs them: planner.specs.precision). The ratio of each row to the 4k row
    (same precision, same count) is reported beside the absolute error.
  * CP implementation: NeMo's Megatron path at 24.03 passes no cp_comm_type, so Transformer
    Engine's default p2p ring with zig-zag (head-tail) balancing runs: cp_comm p2p.
  * Recompute, micro-batch, virtual pipeline, rank order: not stated. The stated degrees (TP, PP,
    DP, CP) are fixed and the planner chooses the rest under the cost model as Megatron's flags
    can say it (planner.solve.targets, target megatron: its rank order tp-cp-dp-pp, one recompute
    form), on 80 GB H100s, with Megatron's distributed optimizer. Without-CP rows give no layout
    ("the best achievable within memory") and are not estimated.
"""
from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.engines import constraints  # noqa: E402
from planner.solve import targets  # noqa: E402
from planner.specs import ModelSpec, TrainSpec, make_problem  # noqa: E402

# meta-llama/Llama-2-7b-hf config.json
LLAMA2_7B = ModelSpec(name="llama2-7b", layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128,
                      vocab=32000, ffn_hidden=11008)
BATCH_TOKENS = 4 * 2 ** 20
PRECISION = "fp8-delayed"    # Transformer Engine delayed scaling: NeMo 24.03's FP8 default (see above)


@dataclass(frozen=True)
class CPRun:
    seq_k: int
    tp: int
    pp: int
    dp: int
    cp: int
    tflops: float            # published TFLOP/s per GPU, NeMo's count

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp * self.cp

    @property
    def seq(self) -> int:
        return self.seq_k * 1024

    def problem(self):
        precision = {"precision": PRECISION} if "precision" in TrainSpec.model_fields else {}
        return make_problem(model=LLAMA2_7B, gpu="h100-sxm", gpus=self.gpus, seq=self.seq,
                            global_batch=BATCH_TOKENS // self.seq, memory_fraction=1.0, cp_kinds=("ring",),
                            **{**constraints("megatron").train_defaults(), "cp_comm": "p2p", **precision})

    def fixed(self) -> dict:
        return dict(tp=self.tp, cp=self.cp, dp=self.dp, pp=self.pp)


# (seq in k, TP, PP, DP, CP, TFLOP/s per GPU with CP)
RUNS = [CPRun(4, 1, 1, 4, 1, 768), CPRun(8, 1, 2, 4, 1, 730), CPRun(16, 2, 1, 8, 1, 660),
        CPRun(32, 2, 1, 8, 2, 610), CPRun(64, 4, 1, 8, 2, 574), CPRun(128, 4, 1, 8, 4, 555),
        CPRun(256, 4, 1, 8, 8, 549), CPRun(512, 8, 1, 4, 16, 549), CPRun(1024, 8, 1, 4, 32, 536)]


def nemo_flops(m: ModelSpec, seq: int, gbs: int, causal: bool = False) -> float:
    """NeMo's llama2 FLOP count per step (full-mask attention term; `causal`: the later form, halved)."""
    h, L = m.hidden, m.layers
    return gbs * seq * L * h * h * (12 + 12 * m.kv_heads / m.heads + 18 * m.ffn_hidden / h
                                    + 12 * seq / h * (0.5 if causal else 1) + 6 * m.vocab / (L * h))


@dataclass
class CPRow:
    run: CPRun
    tflops_est: float
    layout: str
    cp_share: float          # exposed CP communication / step
    tflops_est_causal: float = float("nan")   # the estimate under the causal reading of the count

    @property
    def rel_error(self) -> float:
        return self.tflops_est / self.run.tflops - 1

    @property
    def rel_error_causal(self) -> float:
        return self.tflops_est_causal / self.run.tflops - 1


def evaluate(run: CPRun, time_limit: float = 10.0) -> CPRow:
    p = run.problem()
    res = targets.search(p, top=1, fixed=run.fixed(), time_limit=time_limit, settle=False)   # the fastest split at the published degrees
    if not res.plans:
        return CPRow(run, float("nan"), "no plan fits", float("nan"))
    pl = res.plans[0]
    L, est = pl.layout, pl.estimate
    tf = lambda causal: nemo_flops(LLAMA2_7B, run.seq, BATCH_TOKENS // run.seq, causal) / est.step_time / run.gpus / 1e12
    rc = sorted({(s.recompute_full, s.recompute_selective) for s in L.stages})
    desc = f"v{L.vpp} mb{L.micro_batch} rc{'/'.join(f'{f}F{s}S' for f, s in rc)}"
    return CPRow(run, tf(False), desc, est.exposed["cp"] / est.step_time, tf(True))


def run_all(time_limit: float = 10.0) -> list[CPRow]:
    return [evaluate(r, time_limit) for r in RUNS]


def ratio_errors(rows: list[CPRow], causal: bool = False) -> list[float]:
    """Each row's throughput over the 4k row's, estimated vs published (the precision mostly cancels)."""
    est = [r.tflops_est_causal if causal else r.tflops_est for r in rows]
    return [(e / est[0]) / (r.run.tflops / rows[0].run.tflops) - 1 for e, r in zip(est, rows)]


def _lines(rows: list[CPRow]):
    for row, q, qc in zip(rows, ratio_errors(rows), ratio_errors(rows, True)):
        r = row.run
        yield (f"{r.seq_k}k", r.gpus, f"tp{r.tp} pp{r.pp} dp{r.dp} cp{r.cp}", row.layout, f"{row.tflops_est:.0f}",
               f"{r.tflops:.0f}", f"{row.rel_error:+.1%}", f"{q:+.1%}", f"{row.rel_error_causal:+.1%}", f"{qc:+.1%}",
               f"{row.cp_share:.1%}")


HEAD = ("seq", "GPUs", "degrees (published)", "chosen", "TF/s est", "TF/s pub", "error", "vs 4k", "error causal",
        "vs 4k causal", "CP comm")


def _summary(rows: list[CPRow]) -> list[str]:
    out = []
    for causal, what in ((False, "full-mask count"), (True, "causal count")):
        errs = [abs(r.rel_error_causal if causal else r.rel_error) for r in rows]
        q = [abs(x) for x in ratio_errors(rows, causal)[1:]]
        out.append(f"NeMo long-sequence Llama2-7B rows ({what}), estimated in {PRECISION} (published FP8): median "
                   f"|error| {statistics.median(errs):.1%}, max {max(errs):.1%}; ratio to the 4k row: median "
                   f"|error| {statistics.median(q):.1%}, max {max(q):.1%}")
    return out


def table(rows: list[CPRow]) -> str:
    widths = (5, 5, 22, 16, 8, 8, 7, 7, 12, 12, 7)
    fmt = lambda cells: " ".join(f"{c!s:>{w}}" if i not in (0, 2, 3) else f"{c!s:{w}}"
                                 for i, (c, w) in enumerate(zip(cells, widths)))
    out = [fmt(HEAD), "-" * (sum(widths) + len(widths) - 1)] + [fmt(c) for c in _lines(rows)]
    return "\n".join(out + ["", "TF/s: NeMo's count (module docstring); vs 4k: the row's TF/s over the 4k row's, "
                                "estimated / published - 1; CP comm: exposed CP share of the estimated step", "",
                            *_summary(rows)])


def markdown(rows: list[CPRow]) -> str:
    import mdtables
    return "\n".join([mdtables.table(list(HEAD), [list(c) for c in _lines(rows)], right=(1, 4, 5, 6, 7, 8, 9, 10)), "",
                      "TF/s: NeMo's llama2 count (benchmarks/fidelity_cp.py); error: estimated / published - 1; "
                      "vs 4k: the row's throughput over the 4k row's, estimated / published - 1 (cancels most of "
                      "the FP8 the runs used); causal: the same under the causal reading of the count (the source "
                      "does not say which it used); CP comm: exposed CP share of the estimated step.", "",
                      *(f"* {s}" for s in _summary(rows))])


# torchtitan's CP rows (TTCP above): (CP degree, sequence, published tokens/s/GPU)
TT_CP_ROWS = ((1, 32768, 3890), (2, 65536, 2540), (4, 131072, 1071), (8, 262144, 548))


def torchtitan_rows() -> list[tuple[int, int, float, float, str, float]]:
    """(CP, seq, estimated, published tokens/s/GPU, how the reader runs CP, exposed CP share) of torchtitan's
    Table 2, each row priced by the audit of torchtitan's own Llama 3 8B config (examples/audit/real/
    tt_llama3_8b.toml, torchtitan @238fa99) set as the table says: seq_len, context_parallel_degree, local
    batch 1, full AC, torch.compile, the float8 converter; on the Grand Teton preset and the attention
    kernel the rows' torch ran (benchmarks/fidelity_moe.py: FlashAttention-2 through SDPA). The reader
    takes the ring as that torchtitan ran it: SDPA's ring with the allgather rotate method (its default,
    config_manager.py:365-367 at 9dec370) and PyTorch's head-tail load balancing (on by default then:
    _cp_options.enable_load_balance; torchtitan passed no override)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import fidelity_moe as fm
    src = fm.tt_reference()
    edits = (("seq_len = 8192", "seq_len = {seq}"), ("context_parallel_degree = 1", "context_parallel_degree = {cp}"),
             ("enable=false\ncomponents", "enable=true\ncomponents"), ('mode = "selective"', 'mode = "full"'),
             ('# converters = ["float8"]', 'converters = ["float8"]'))
    out = []
    for cp, seq, tps in TT_CP_ROWS:
        text = src
        for old, new in edits:
            assert old in text, old                  # the reference config still reads as this function expects
            text = text.replace(old, new.format(seq=seq, cp=cp))
        p = make_problem(model="llama3-8b", gpu=fm.TT_GPU, gpus=8, seq=seq, global_batch=8 // cp,
                         attention_kernel=fm.TT_ATTENTION)
        r = fm.audit_tt_config(text, p, f"tt_llama3_8b_cp{cp}.toml")
        e, tr = r.estimate, r.problem.train
        out.append((cp, seq, e.tokens_per_s_per_gpu, float(tps), f"{tr.cp_comm} {tr.cp_balance} {tr.precision}",
                    e.exposed["cp"] / e.step_time))
    return out


def torchtitan_lines(tt) -> list[str]:
    errs = [est / pub - 1 for _, _, est, pub, _, _ in tt]
    return [f"torchtitan Llama 3.1 8B CP rows (8 H100 HBM2e 500 W, Float8, compile, full AC): median |error| "
            f"{statistics.median(abs(x) for x in errs):.1%}, max {max(errs, key=abs):+.1%}; the error grows with "
            f"the CP degree ({', '.join(f'CP{cp} {x:+.0%}' for (cp, *_), x in zip(tt, errs))})"]


def torchtitan_markdown(tt) -> str:
    import mdtables
    body = [[f"CP{cp}", f"{seq // 1024}k", f"{est:,.0f}", f"{pub:,.0f}", f"{est / pub - 1:+.1%}", how, f"{x:.1%}"]
            for cp, seq, est, pub, how, x in tt]
    return "\n".join([mdtables.table(["CP", "seq", "tok/s/GPU est", "published", "error", "as the reader runs it",
                                       "CP comm"], body, right=(2, 3, 4, 6)), "",
                      *(f"* {s}" for s in torchtitan_lines(tt))])


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description="the cost model on NeMo's long-sequence CP runs")
    ap.add_argument("--markdown", metavar="PATH", help="also write the table into this page's generated block")
    a = ap.parse_args()
    rows = run_all()
    print(table(rows))
    tt = torchtitan_rows()
    print("\n" + "\n".join(f"CP{cp} {seq // 1024}k: {est:,.0f} tokens/s/GPU estimated vs {pub:,.0f} published "
                            f"({est / pub - 1:+.1%}; {how}; CP comm {x:.1%})" for cp, seq, est, pub, how, x in tt))
    print("\n".join(torchtitan_lines(tt)))
    if a.markdown:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bands
        import mdtables
        mdtables.write_blocks(a.markdown, mdtables.command_line(), {"fidelity-cp": markdown(rows),
                                                                   "fidelity-cp-torchtitan": torchtitan_markdown(tt)})
        bands.write("cp", bands.cp_rows(rows))
        bands.write("cp-torchtitan", bands.cp_torchtitan_rows(tt))


if __name__ == "__main__":
    main()

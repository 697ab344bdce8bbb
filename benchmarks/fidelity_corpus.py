"""Estimate fidelity on the MoE validation corpus: every measured run of benchmarks/corpus/moe_runs.yaml,
estimated by the cost model and scored per source and per grid.

    python benchmarks/fidelity_corpus.py                               # print the tables
    python benchmarks/fidelity_corpus.py --markdown docs/fidelity.md   # ... and write docs/fidelity.md's
                                                                       #     "fidelity-corpus" block
    python benchmarks/fidelity_corpus.py --only mb-2608-gb300-dsv3-mxfp8 --verbose   # one row, with its
                                                                       #     completed layout and assumptions

How a row is rebuilt: benchmarks/corpus_rows.py (the published degrees fixed; what the row leaves
open chosen by the planner as the engine's flags can say it). Nothing is fitted to these rows: the
constants are the GPU presets' and the engines' own, the same for every row.

The scores:
  * error: estimated throughput / published - 1 (a step-time row: published / estimated seconds - 1);
  * per source: median |error| and the worst error (the signed error of largest magnitude);
  * per grid (>= 5 rows of one model from one source; and of one model, source and GPU where those
    reach 5): Spearman's rank correlation of estimated vs published throughput;
  * fine-grained (64-384 experts, expert FFN 512-2,048, top-4..8) against coarse MoE: median |error|;
  * what each row's model cannot price (`lacks`: the kernel or schedule missing), and the rows that
    cannot be priced at all (the corpus' `unpriceable` list, with the reason);
  * memory: each row's estimated peak on its busiest GPU against that GPU's memory; every run the model
    rates over it is listed (all of them ran, so each is an error of the memory model).
"""
from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import corpus_rows as cr  # noqa: E402
from fidelity import spearman  # noqa: E402   (the one rank correlation of the benchmarks)

MIN_GRID = 5


@dataclass(frozen=True)
class Scored:
    run: cr.Run
    fine: bool
    estimate: float             # in the row's metric (nan: no layout)
    error: float                # throughput error (see the module docstring)
    chosen: str                 # what the planner filled in, short
    assumed: tuple              # the completion's `assumed` lines
    exposed: float              # share of the estimated step in exposed communication
    bubble: float               # ... in the pipeline bubble
    peak_gib: float = float("nan")      # the estimated peak memory of the busiest stage's GPU
    budget_gib: float = float("nan")    # what the GPU holds (the problem's budget at memory fraction 1)
    peak_what: str = ""                 # that stage's largest memory terms

    @property
    def over(self) -> bool:
        """The model rates this run, which ran, out of memory (A run that ran is never an error: the memory
        model is wrong here until shown otherwise)."""
        return math.isfinite(self.peak_gib) and self.peak_gib > self.budget_gib


def _chosen(L) -> str:
    """What the planner filled in, short: virtual stages, micro-batch, sharding, and the recompute of the
    stages (layers fully / selectively recomputed per stage, as a range, and the modules)."""
    full = sorted({s.recompute_full for s in L.stages})
    sel = sorted({s.recompute_selective for s in L.stages})
    mods = sorted({m for s in L.stages if s.recompute_selective for m in (s.recompute_modules or ())})
    span = lambda v: f"{v[0]}" if len(v) == 1 else f"{v[0]}-{v[-1]}"
    rc = f"rc{span(full)}F{span(sel)}S" + (f"({'+'.join(mods)})" if mods else "")
    return f"v{L.vpp} mb{L.micro_batch} {L.sharding} {rc}"


def score(run: cr.Run, models: dict, time_limit: float = 10.0) -> Scored:
    """One row: rebuilt, estimated and scored."""
    from planner import costmodel as cm
    model = cr.model_spec(run.model, models)
    pr, L, assumed = cr.build(run, model, time_limit)
    fine = cr.fine_grained(model)
    if L is None:
        return Scored(run, fine, float("nan"), float("nan"), "no plan", assumed, float("nan"), float("nan"))
    est = cm.evaluate(pr, L)
    value = cr.estimate_of(run, est)
    st = est.stages[est.peak_stage]
    terms = {k: getattr(st, k) / cm.GiB for k in ("weights", "grads", "optimizer", "activations", "logits", "buffers")}
    what = ", ".join(f"{k} {v:.0f}" for k, v in sorted(terms.items(), key=lambda kv: -kv[1])[:3])
    return Scored(run, fine, value, cr.throughput_error(run, value), _chosen(L), assumed,
                  sum(est.exposed.values()) / est.step_time, est.bubble / est.step_time,
                  est.peak_bytes / cm.GiB, pr.cluster.memory_budget_gib, what)


def score_all(corpus: cr.Corpus, only=None, time_limit: float = 10.0) -> list[Scored]:
    runs = [r for r in corpus.runs if not only or r.id in only]
    return [score(r, corpus.models, time_limit) for r in runs]


# --------------------------------------------------------------------------- summaries

def _ok(rows):
    return [r for r in rows if math.isfinite(r.error)]


def _worst(rows) -> float:
    return max((r.error for r in _ok(rows)), key=abs, default=float("nan"))


def _median(rows) -> float:
    errs = [abs(r.error) for r in _ok(rows)]
    return statistics.median(errs) if errs else float("nan")


def by_source(rows: list[Scored]) -> dict[str, tuple[int, float, float, int]]:
    """source -> (rows scored, median |error|, worst error, fine-grained rows among them); rows scored only
    in their pair (tflops) are not counted."""
    out = {}
    for s in dict.fromkeys(r.run.source for r in rows):
        sub = [r for r in rows if r.run.source == s]
        out[s] = (len(_ok(sub)), _median(sub), _worst(sub), sum(r.fine for r in _ok(sub)))
    return out


def _throughput(r: Scored, which: str) -> float:
    return cr.throughput(r.run, r.estimate if which == "est" else r.run.value)


def pairs(rows: list[Scored]) -> dict[str, tuple[Scored, Scored, float, float]]:
    """pair -> (first row, second row, measured and estimated throughput ratio second / first): two runs
    that differ in one setting (overlap, dispatcher, routing, mapping); the order is right when both
    ratios fall on the same side of 1."""
    groups: dict[str, list] = {}
    for r in rows:
        if r.run.pair:
            groups.setdefault(r.run.pair, []).append(r)
    out = {}
    for name, sub in groups.items():
        if len(sub) != 2 or not all(math.isfinite(r.estimate) for r in sub):
            continue
        a, b = sub
        out[name] = (a, b, _throughput(b, "pub") / _throughput(a, "pub"), _throughput(b, "est") / _throughput(a, "est"))
    return out


def same_order(pub: float, est: float) -> bool:
    return (pub > 1) == (est > 1)


def grids(rows: list[Scored]) -> dict[str, tuple[int, float, float]]:
    """grid -> (rows, Spearman of estimated vs published throughput, median |error|): every model of a
    source with >= MIN_GRID rows, and within it every GPU with >= MIN_GRID rows; a row's own `grid`
    names one more."""
    groups: dict[str, list] = {}
    for r in _ok(rows):
        groups.setdefault(f"{r.run.source} {r.run.model}", []).append(r)
        groups.setdefault(f"{r.run.source} {r.run.model} on {r.run.gpu}", []).append(r)
        if r.run.grid:
            groups.setdefault(f"{r.run.source} {r.run.grid}", []).append(r)
    out = {}
    for name, sub in groups.items():
        if len(sub) < MIN_GRID or (" on " in name and len(sub) == len(groups[name.split(" on ")[0]])):
            continue
        rho = spearman([_throughput(r, "est") for r in sub], [_throughput(r, "pub") for r in sub])
        out[name] = (len(sub), rho, _median(sub))
    return out


def regimes(rows: list[Scored]) -> dict[str, tuple[int, float, float]]:
    """fine-grained / coarse -> (rows, median |error|, worst error)."""
    out = {}
    for name, want in (("fine-grained", True), ("coarse", False)):
        sub = [r for r in rows if r.fine == want]
        out[name] = (len(_ok(sub)), _median(sub), _worst(sub))
    return out


def by_cuda_graphs(rows: list[Scored]) -> dict[str, tuple[int, float, float]]:
    """The rows whose code states their CUDA graphs (corpus_rows.CUDA_GRAPHS), per mode -> (rows, median signed
    error, median |error|). The cost model prices no host or launch time, so a gap that grows as the graphs
    shrink is host time the model lacks."""
    out = {}
    for mode in cr.CUDA_GRAPHS:
        sub = _ok([r for r in rows if r.run.cuda_graphs == mode])
        if sub:
            out[mode] = (len(sub), statistics.median(r.error for r in sub), _median(sub))
    return out


def out_of_memory(rows: list[Scored]) -> list[Scored]:
    """The runs, all of which ran, whose estimated peak memory exceeds their GPU's: each is an error of the
    memory model (an activation, buffer or state term too large, or a saving the engine's code makes that the
    model does not follow), listed, not hidden."""
    return [r for r in rows if r.over]


def lacking(rows: list[Scored]) -> dict[str, list[str]]:
    """What the model cannot price -> the rows it touches."""
    out: dict[str, list[str]] = {}
    for r in rows:
        for what in r.run.lacks:
            out.setdefault(what, []).append(r.run.id)
    return out


# --------------------------------------------------------------------------- output

HEAD = ["id", "source", "model", "GPUs", "GPU", "degrees", "dispatch", "routing", "precision", "chosen", "metric",
        "estimate", "published", "error", "exposed", "bubble"]


def _degrees(run: cr.Run) -> str:
    lay = run.layout
    return " ".join(f"{k}{lay[k]}" for k in ("tp", "cp", "pp", "vpp", "ep", "etp") if k in lay) + \
        f" mb{lay.get('micro_batch', '?')} gbs{run.global_batch}"


def _fmt(v: float, metric: str) -> str:
    if not math.isfinite(v):
        return "-"
    return {"tokens_per_s_per_gpu": f"{v:,.0f}", "step_s": f"{v:.2f} s", "mfu": f"{v:.1%}", "tflops": f"{v:,.0f}"}[metric]


def body(rows: list[Scored]) -> list[list]:
    unit = {"tokens_per_s_per_gpu": "tok/s/GPU", "step_s": "s/step", "mfu": "MFU", "tflops": "TFLOP/s"}
    return [[r.run.id, r.run.source, r.run.model + (" *" if r.fine else ""), r.run.gpus, r.run.gpu, _degrees(r.run),
             r.run.dispatcher + (" +ov" if r.run.ep_overlap else ""), r.run.routing, r.run.precision, r.chosen,
             unit[r.run.metric], _fmt(r.estimate, r.run.metric), _fmt(r.run.value, r.run.metric),
             f"{r.error:+.1%}" if math.isfinite(r.error) else "pair only", f"{r.exposed:.0%}", f"{r.bubble:.0%}"]
            for r in rows]


def _headline(rows: list[Scored], corpus: cr.Corpus) -> str:
    ok = _ok(rows)
    return (f"{len(rows)} measured MoE runs priced from {len({r.run.source for r in rows})} sources: {len(ok)} scored "
            f"({sum(r.fine for r in ok)} fine-grained), {len(rows) - len(ok)} scored in their pair only; "
            f"{len(corpus.unpriceable)} listed as unpriceable.")


def summary_lines(rows: list[Scored], corpus: cr.Corpus) -> list[str]:
    out = [_headline(rows, corpus), "", "Per source:"]
    for s, (n, med, worst, fine) in by_source(rows).items():
        out.append(f"  {s:5} {corpus.sources[s]['name'][:70]:70} rows {n:3d} (fine {fine:2d})  median |error| "
                   f"{med:6.1%}  worst {worst:+7.1%}")
    out += ["", f"Per grid (>= {MIN_GRID} rows):"]
    for g, (n, rho, med) in grids(rows).items():
        out.append(f"  {g:55} rows {n:3d}  Spearman {rho:+.2f}  median |error| {med:6.1%}")
    out += ["", "Pairs (second / first, throughput; order: the estimate on the measured side of 1):"]
    for name, (a, b, pub, est) in pairs(rows).items():
        out.append(f"  {name:55} measured {pub:5.2f}x  estimated {est:5.2f}x  order {'ok' if same_order(pub, est) else 'WRONG'}")
    out += ["", "By regime:"]
    for k, (n, med, worst) in regimes(rows).items():
        out.append(f"  {k:13} rows {n:3d}  median |error| {med:6.1%}  worst {worst:+7.1%}")
    out += ["", "By the CUDA graphs a run used (rows whose code says; the model prices no host time):"]
    for mode, (n, signed, med) in by_cuda_graphs(rows).items():
        out.append(f"  {mode:13} rows {n:3d}  median error {signed:+6.1%}  median |error| {med:6.1%}")
    oom = out_of_memory(rows)
    out += ["", f"Runs that ran and the model rates out of memory: {len(oom)} of {len(rows)} "
            "(estimated peak / the GPU's memory, GiB; the stage's largest terms):"]
    for r in oom:
        out.append(f"  {r.run.id:45} {r.peak_gib:6.1f} / {r.budget_gib:6.1f}  ({r.peak_what})")
    out += ["", "What the model does not price (kernel or schedule -> rows):"]
    for what, ids in lacking(rows).items():
        out.append(f"  {what}: {len(ids)} rows ({', '.join(ids[:4])}{', ...' if len(ids) > 4 else ''})")
    out += ["", "Unpriceable rows:"]
    out += [f"  {u['id']} ({u['source']}, {u['model']}): {u['reason']}" for u in corpus.unpriceable]
    return out


def table(rows: list[Scored], corpus: cr.Corpus) -> str:
    cells = [HEAD, *[[str(c) for c in r] for r in body(rows)]]
    w = [max(len(r[i]) for r in cells) for i in range(len(HEAD))]
    lines = ["  ".join(c.ljust(w[i]) for i, c in enumerate(r)) for r in cells]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:], "", *summary_lines(rows, corpus)])


def markdown(rows: list[Scored], corpus: cr.Corpus) -> str:
    import mdtables
    src = [[s, corpus.sources[s]["name"], n, fine, f"{med:.1%}", f"{worst:+.1%}"]
           for s, (n, med, worst, fine) in by_source(rows).items()]
    grd = [[g, n, f"{rho:+.2f}", f"{med:.1%}"] for g, (n, rho, med) in grids(rows).items()]
    reg = [[k, n, f"{med:.1%}", f"{worst:+.1%}"] for k, (n, med, worst) in regimes(rows).items()]
    prs = [[name, a.run.id, b.run.id, f"{pub:.2f}x", f"{est:.2f}x", "yes" if same_order(pub, est) else "**no**"]
           for name, (a, b, pub, est) in pairs(rows).items()]
    cg = [[mode, n, f"{signed:+.1%}", f"{med:.1%}"] for mode, (n, signed, med) in by_cuda_graphs(rows).items()]
    lack = [[what, len(ids), ", ".join(ids)] for what, ids in lacking(rows).items()]
    oom = [[r.run.id, f"{r.peak_gib:.1f}", f"{r.budget_gib:.1f}", r.peak_what] for r in out_of_memory(rows)]
    unp = [[u["id"], u["source"], u["model"], u["reason"]] for u in corpus.unpriceable]
    return "\n".join([
        _headline(rows, corpus) + " Fine-grained: 64-384 experts, expert FFN 512-2,048, top-4..8 (marked *).", "",
        "Per source (error: estimated throughput / published - 1; worst: the signed error of largest magnitude):", "",
        mdtables.table(["source", "what", "rows", "fine-grained", "median |error|", "worst"], src,
                       right=(2, 3, 4, 5)), "",
        f"Per grid (>= {MIN_GRID} rows of one model from one source, and of one GPU where those reach "
        f"{MIN_GRID}): Spearman of estimated vs published throughput:", "",
        mdtables.table(["grid", "rows", "Spearman", "median |error|"], grd, right=(1, 2, 3)), "",
        mdtables.table(["regime", "rows", "median |error|", "worst"], reg, right=(1, 2, 3)), "",
        "Pairs: two runs that differ in one setting; throughput of the second / the first, measured and estimated "
        "(order right: both on the same side of 1):", "",
        mdtables.table(["pair", "first", "second", "measured", "estimated", "order right"], prs, right=(3, 4)), "",
        "By the CUDA graphs a run used (the rows whose release code says: none = eager, scoped = graphs of some "
        "modules, layer = a graph of each layer, full = one graph of the whole forward and backward). The model prices no host "
        "or launch time; the signed median is estimated / published - 1:", "",
        mdtables.table(["CUDA graphs", "rows", "median error", "median |error|"], cg, right=(1, 2, 3)), "",
        f"Runs that ran and that the model rates out of memory ({len(oom)} of {len(rows)}): each is an error of the "
        "memory model, listed until it is found (estimated peak of the busiest stage against the GPU's memory, "
        "GiB, and that stage's largest terms):", "",
        mdtables.table(["id", "estimated peak", "GPU memory", "largest terms (GiB)"], oom, right=(1, 2)), "",
        "What the model does not price, and the rows it touches:", "",
        mdtables.table(["kernel or schedule", "rows", "ids"], lack, right=(1,)), "",
        "Rows that cannot be priced:", "",
        mdtables.table(["id", "source", "model", "why"], unp), "",
        "Every row (chosen: what the planner filled in, `v<vpp> mb<micro-batch> <sharding> rc<full>F<selective>S` "
        "per stage; exposed, bubble: shares of the estimated step in exposed communication and in the pipeline "
        "bubble):",
        "", mdtables.table(HEAD, body(rows), right=(3, 11, 12, 13, 14, 15))])


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description="the cost model on the MoE validation corpus, estimate vs measured")
    ap.add_argument("--markdown", metavar="PATH", help="also write the tables into this page's fidelity-corpus block")
    ap.add_argument("--corpus", default=str(cr.CORPUS), help="the corpus file (default: %(default)s)")
    ap.add_argument("--only", nargs="+", metavar="ID", help="score only these rows")
    ap.add_argument("--verbose", action="store_true", help="print each row's layout string and assumptions")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per search (rows leaving vpp open)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    corpus = cr.load(Path(a.corpus))
    rows = score_all(corpus, set(a.only) if a.only else None, a.time_limit)
    print(table(rows, corpus))
    if a.verbose:
        for r in rows:
            print(f"\n{r.run.id}: {r.run.provenance}\n  layout: {cr.layout_string(r.run)}")
            for line in (*r.run.assumptions, *r.assumed):
                print(f"  assumed: {line}")
    if a.markdown:
        import mdtables
        mdtables.write_blocks(a.markdown, mdtables.command_line(), {"fidelity-corpus": markdown(rows, corpus)})
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()

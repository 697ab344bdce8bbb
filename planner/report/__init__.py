"""Terminal output: the plan table, why the best plan won, the nothing-fits advice, and
`explain`. Reads plans only; no search, no formulas of its own."""
from __future__ import annotations

import os
import sys
from typing import Optional

from planner import costmodel as cm
from planner.engines import engine as engine_record    # (planner.report.engines is this package's own module)
from planner.layout import Layout, RankGrid
from planner.plan import Plan
from planner.report import stage_text
from planner.specs import Problem, budget_note
from planner.costmodel.routing import balancing_of
from planner.costmodel.tail import routing_tail

GROUPS = ("dp", "edp", "tp", "cp", "ep", "pp")


def use_rich(stream=None) -> bool:
    """Rich tables only on a terminal; plain text when piped, under NO_COLOR (set and not
    empty, as no-color.org says) or TERM=dumb."""
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def degrees(L: Layout) -> str:
    s = f"tp{L.tp} cp{L.cp} dp{L.dp} pp{L.pp}"
    if L.vpp > 1:
        s += f" vpp{L.vpp}"
    return s


def cp_text(L: Layout) -> str:
    if L.cp == 1:
        return "-"
    impl = "" if L.cp_ring == 1 or (L.cp_comm, L.cp_balance) == ("p2p", "headtail") else \
        f" {L.cp_comm}{'' if L.cp_balance == 'headtail' else ',unbalanced'}"
    if L.cp_kind == "hybrid":
        return f"hybrid u{L.cp_ulysses}xr{L.cp_ring}{impl}"
    return L.cp_kind + impl


def folding(L: Layout) -> str:
    return stage_text.folding(L)           # runs of equal stages grouped (planner/report/stage_text.py)


def split(L: Layout) -> str:
    return stage_text.split(L)


def recompute(L: Layout) -> str:
    """Per stage: `nF` layers fully recomputed, `nS(mods)` layers running recompute modules (grouped)."""
    return stage_text.recompute(L)


def exposed(est: cm.Estimate) -> str:
    items = [(k, v) for k, v in est.exposed.items() if v > 0.0005 * est.step_time]
    return " ".join(f"{k}:{v:.2f}" for k, v in sorted(items, key=lambda kv: -kv[1])) or "-"


def rows(plans: list[Plan]) -> tuple[list[str], list[list[str]]]:
    head = ["#", "degrees", "experts (per stage)", "CP", "order", "mb", "sharding", "layers/stage", "recompute",
            "peak GiB (stage)", "step s", "tok/s/GPU", "MFU", "exposed comm s"]
    body = []
    for i, p in enumerate(plans, 1):
        L, e = p.layout, p.estimate
        body.append([str(i), degrees(L), folding(L), cp_text(L), L.order.removesuffix("-pp"), str(L.micro_batch),
                     L.sharding, split(L), recompute(L), f"{e.peak_bytes / cm.GiB:.1f} ({e.peak_stage})", f"{e.step_time:.3f}",
                     f"{e.tokens_per_s_per_gpu:,.0f}", f"{e.mfu:.1%}", exposed(e)])
    return head, body


def plain_table(head, body) -> str:
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in body])


def print_table(head, body, title: str = "", stream=None) -> None:
    stream = stream or sys.stdout
    if use_rich(stream):
        # deferred: rich (~0.2 s) only when a table is printed
        from rich.console import Console
        from rich.table import Table
        t = Table(title=title or None)
        for h in head:
            t.add_column(h, overflow="fold")
        for r in body:
            t.add_row(*r)
        Console(file=stream).print(t)
    else:
        if title:
            print(title, file=stream)
        print(plain_table(head, body), file=stream)


def header(problem: Problem) -> str:
    m, c, t = problem.model, problem.cluster, problem.train
    pc = cm.param_counts(m)
    kind = f"MoE {m.moe.experts}x top-{m.moe.top_k}" if m.is_moe else "dense"
    return (f"{m.name} ({pc['total'] / 1e9:.1f}B total, {pc['active'] / 1e9:.1f}B active, {kind}, {m.layers} layers) "
            f"on {c.gpus} x {c.gpu.name} ({c.gpus_per_node}/node, {rack(c)}budget {c.memory_budget_gib:.1f} GiB/GPU), "
            f"seq {t.seq:,}, global batch {t.global_batch_tokens:,} tokens = {t.global_batch} sequences\n"
            f"{budget_note(c)}\n{attention_note(problem)}" + precision_note(problem))


def precision_note(problem: Problem) -> str:
    """The FP8 line of the header ('' for bf16): the recipe, its GEMM rate, who runs it (planner.specs.precision)."""
    t, g = problem.train, problem.cluster.gpu
    if t.precision == "bf16":
        return ""
    lib = {"te": "Transformer Engine", "torchao": "torchao", "bundle": "the bundle's fp8.py"}[t.fp8_library]
    return (f"\nprecision: {t.precision} linear GEMMs ({lib}) at {g.fp8_compute_efficiency} of the FP8 peak "
            f"{g.fp8_peak_flops / 1e12:,.0f} TFLOP/s; attention, router, embedding and head bf16"
            + ("; FP8 parameter all-gather" if t.fp8_param_gather else "") + "; MFU against the bf16 peak")


def rack(c) -> str:
    """The NVLink domain where it spans hosts or the job uses part of it (NVL72 racks), else nothing."""
    if c.gpus_per_domain == c.gpus_per_node and c.used_per_domain == c.gpus_per_domain:
        return ""
    used = f"{c.used_per_domain} of " if c.used_per_domain != c.gpus_per_domain else ""
    return f"{used}{c.gpus_per_domain} per NVLink domain, "


def attention_note(problem: Problem) -> str:
    """Which attention kernel's curve the estimate takes (TrainSpec.attention_kernel), in one line."""
    g, t = problem.cluster.gpu, problem.train
    eta, half = g.attention_curve(t.attention_kernel)
    out = f"attention: {g.attention_name(t.attention_kernel)}, {eta:.2f} of peak x L / (L + {half:.0f}) for blocks of L tokens"
    caveat = getattr(engine_record(t.target).part("rules"), "attention_caveat", None)   # the bundle's
    why = caveat(g, t.attention_kernel) if caveat else None
    if why:
        out += f"; {why}"
    return out + f"; ring CP as {CP_RUNS[t.cp_comm]}" + ("" if t.cp_balance == "headtail" else ", not load-balanced")


# how the header names each CP implementation (planner.specs.kinds.CP_COMMS)
CP_RUNS = {"p2p": "p2p K/V passes hidden behind each block's attention", "ag-ring": "SDPA's all-gather rotation",
           "ag-te": "Transformer Engine's all-gather (exposed)", "ag-flex": "FlexAttention with K/V all-gathered (exposed)"}


def _dominant_time(e: cm.Estimate) -> tuple[str, float]:
    parts = {"compute": e.compute, "pipeline bubble": e.bubble, "optimizer step": e.optimizer,
             **{f"exposed {k} comm": v for k, v in e.exposed.items()}}
    k = max(parts, key=parts.get)
    return k, parts[k]


def why(plans: list[Plan], binds: Optional[dict] = None, fastest_s: Optional[float] = None) -> list[str]:
    """3-6 lines: what binds, what dominates, what the folding buys, how the runner-up differs.
    `binds`: planner.solve.binding.memory_binding's answer (`{}`: searched, nothing faster with
    more memory; None: not searched, so no claim); `fastest_s`: the fastest plan's step, when
    the tie-break (planner/solve/tiebreak.py) put a slower one first."""
    best = plans[0]
    L, e, pr = best.layout, best.estimate, best.problem
    budget = pr.cluster.memory_budget_gib
    st = e.stages[e.peak_stage]
    terms = {"weights": st.weights, "grads": st.grads, "optimizer": st.optimizer, "activations": st.activations,
             "logits": st.logits, "buffers": st.buffers}
    top_term = max(terms, key=terms.get)
    out = []
    use = e.peak_bytes / cm.GiB / budget
    rc = recompute(L)
    # recompute memory does not call for: no faster layout needs more memory, so it costs no step
    # time here (a stage off the bottleneck, or the window that hides the gradient reduction)
    fastest = fastest_s is None or e.step_time <= fastest_s * (1 + 1e-9)
    cause = " (not for memory: it costs this plan no step time)" if binds == {} and rc != "none" and fastest else ""
    out.append(f"{memory_claim(binds)}: stage {st.index} peaks at {e.peak_bytes / cm.GiB:.1f} of {budget:.1f} GiB "
               f"({use:.0%}), mostly {top_term} ({terms[top_term] / cm.GiB:.1f} GiB); recompute: {rc}{cause}.")
    if fastest_s is not None and e.step_time > fastest_s * (1 + 1e-9):
        out.append(tie_line(e.step_time, fastest_s))
    k, v = _dominant_time(e)
    out.append(f"Step {e.step_time:.3f} s: compute {e.compute:.3f} s, bubble {e.bubble:.3f} s, exposed comm "
               f"{sum(e.exposed.values()):.3f} s, optimizer {e.optimizer:.3f} s; {k} dominates "
               f"({v / e.step_time:.0%}). MFU {e.mfu:.1%}.")
    if pr.model.is_moe:
        grid = RankGrid(L, pr.cluster.domain_used)
        s0 = L.stages[0]
        ep_g = grid.group("ep", 0)
        where = "inside one node" if ep_g.intra_node else f"across nodes ({ep_g.off_node_fraction:.0%} of peers off-node)"
        out.append(f"Folding: the {L.stage_ranks} dense ranks of a stage (tp{L.tp} x cp{L.cp} x dp{L.dp}) re-factor "
                   f"as etp{s0.etp} x ep{s0.ep} x edp{s0.edp}; each EP all-to-all stays {where}.")
        out.append(routing_line(pr, L))
    out.append(sharding_why(pr, L, e))
    if len(plans) > 1:
        r = plans[1]
        diffs = []
        for f in ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "order", "micro_batch", "sharding"):
            a_, b_ = getattr(L, f), getattr(r.layout, f)
            if a_ != b_:
                diffs.append(f"{f} {b_}")
        if L.cp_kind == r.layout.cp_kind == "hybrid" and L.cp_ulysses != r.layout.cp_ulysses:
            diffs.append(f"ulysses x ring {r.layout.cp_ulysses}x{r.layout.cp_ring}")
        if folding(L) != folding(r.layout):
            diffs.append(f"experts {folding(r.layout)}")
        if split(L) != split(r.layout):
            diffs.append(f"split {split(r.layout)}")
        if recompute(L) != recompute(r.layout):
            diffs.append(f"recompute {recompute(r.layout)}")
        gap = r.estimate.step_time / e.step_time - 1
        out.append(f"Runner-up ({', '.join(diffs) or 'same degrees'}) is {abs(gap):.2%} "
                   f"{'slower' if gap >= 0 else 'faster'} at {r.estimate.peak_bytes / cm.GiB:.1f} GiB peak.")
    return out


def memory_claim(binds: Optional[dict]) -> str:
    """What binds, as the search found it: memory binds only when more of it admits a faster layout."""
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve.binding import RELAX
    if binds is None:
        return "Memory"
    if not binds:
        return f"Memory does not bind (no layout is faster with {RELAX}x the budget)"
    L = binds["layout"]
    return (f"Memory binds (with {RELAX}x the budget, {degrees(L)} {L.sharding} recompute {recompute(L)} takes "
            f"{binds['step_s']:.3f} s at {binds['peak_gib']:.1f} GiB)")


def tie_line(step_s: float, fastest_s: float) -> str:
    """Why the first plan is not the fastest (planner/solve/tiebreak.py's order)."""
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve.sanity import SANE_TOLERANCE
    from planner.solve.tiebreak import TIE_TOLERANCE
    gap = step_s / fastest_s - 1
    why = (f"the faster plans are outside published practice and the fastest inside it is within "
           f"{SANE_TOLERANCE:.0%}; " if gap >= TIE_TOLERANCE else "")
    return (f"Tie-break: {gap:+.2%} against the fastest plan ({fastest_s:.3f} s): {why}among the plans within "
            f"{TIE_TOLERANCE:.1%} this one has the least peak memory, then recompute, then off-node groups and "
            f"parallel axes (each tuple's least peak proven by CP-SAT).")


def routing_line(pr, L) -> str:
    """The routing the estimate priced and the busiest EP rank's load it gave (planner.costmodel.routing)."""
    v = cm.layout_values(pr, cm.layout_vector(L))
    t = pr.train
    kind = f"capacity {t.capacity_factor:g}{' padded' if t.capacity_pad else ''}" if t.routing == "capacity" \
        else t.routing
    bal = "" if t.routing == "forced" else f", {balancing_of(t, pr.model.moe)} balancing"
    tail = routing_tail(pr, L)
    head = (f"Routing {kind}{bal}: the busiest EP rank computes x{float(max(v['imb'])):.3f} the mean rows, memory "
            f"budgeted for x{float(max(v['imb_mem'])):.3f} ({t.routing_memory}")
    if tail is None:
        return head + ")."
    if t.routing_memory == "tail":
        return head + (f"; the steady state x{tail.steady_load:.3f} needs {tail.steady_gib:.1f} GiB on stage "
                       f"{tail.stage}: --routing-memory steady budgets that).")
    verdict = ("fits" if tail.fits else f"is {tail.tail_gib - tail.budget_gib:.1f} GiB over: probability "
               f"{tail.stage_probability:.1e} with the layers independent, at most {tail.probability:.1e} per "
               f"layer's micro-batch")
    return head + (f"; the 1 - 1e-4 tail x{tail.tail_load:.3f} would need {tail.tail_gib:.1f} GiB on stage "
                   f"{tail.stage} and {verdict}; --routing-memory tail budgets it).")


def sharding_why(pr: Problem, L: Layout, e: cm.Estimate) -> str:
    """Why this data-parallel sharding: the same layout under each other allowed kind."""
    st = e.stages[e.peak_stage]
    state = (st.weights + st.grads + st.optimizer) / cm.GiB
    text = (f"Sharding {L.sharding} (dense state over dp x cp = {L.dp * L.cp}, experts over edp = "
            f"{L.stages[st.index].edp}): weights + grads + optimizer {state:.1f} GiB on stage {st.index}")
    budget = pr.cluster.memory_budget_gib * cm.GiB
    others = []
    for kind in pr.train.allowed_shardings:
        if kind == L.sharding:
            continue
        alt = cm.evaluate(pr, L.model_copy(update={"sharding": kind}))
        verdict = ("does not fit" if alt.peak_bytes > budget
                   else f"{alt.step_time / e.step_time - 1:+.1%} step time")
        others.append(f"{kind} {alt.peak_bytes / cm.GiB:.1f} GiB peak, {verdict}")
    return text + ("; on the same layout " + "; ".join(others) if others else "") + "."


def nothing_fits(problem: Problem, info: Optional[dict]) -> list[str]:
    budget = problem.cluster.memory_budget_gib
    hints = [f"Hint: {h}." for h in (info or {}).get("hints", ())]
    if not info or "peak_gib" not in info:        # not a memory failure: say what it is, once
        return [f"No plan: {(info or {}).get('reason') or 'no legal layout'}."] + hints
    out = [f"No layout fits {budget:.1f} GiB per GPU."]
    need, dom = info["peak_gib"], info["dominant"]
    terms = ", ".join(f"{k} {v:.1f}" for k, v in sorted(info["terms_gib"].items(), key=lambda kv: -kv[1]) if v > 0.05)
    L = info["layout"]
    out.append(f"The smallest found needs {need:.1f} GiB on stage {info['stage']} ({degrees(L)}, "
               f"{cp_text(L)} CP, full recompute): {terms} GiB; {dom} dominates.")
    fixes = []
    ratio = need / budget
    if dom in ("weights", "grads", "optimizer"):
        fixes.append(f"more GPUs (about {ratio:.1f}x, to shard states further)")
    else:
        fixes.append(f"a shorter sequence (about {problem.train.seq / ratio / 1024:.0f}k)")
        fixes.append(f"more GPUs for more CP (about {ratio:.1f}x)")
    if "full" not in problem.train.recompute:
        fixes.append("allowing full recompute (--recompute none,selective,full)")
    fixes.append("a GPU with more memory (--gpu h200 / b200 / mi300x)")
    out.append("It would fit with " + "; or ".join(fixes) + ".")
    return out + hints


def explain(problem: Problem, layout: Layout, stream=None) -> None:
    """Every formula: symbolic, then with numbers, then the value; then the assembly."""
    stream = stream or sys.stdout
    p = lambda *a: print(*a, file=stream)
    est = cm.evaluate(problem, layout)
    p(header(problem))
    p(f"layout: {degrees(layout)}, {cp_text(layout)} CP, order {layout.order}, micro-batch {layout.micro_batch} x "
      f"{layout.num_microbatches}, experts {folding(layout)}, layers/stage {split(layout)}, recompute {recompute(layout)}")
    p("")
    groups: dict[str, list] = {}
    for g, name, sym, num, val in cm.explain_terms(problem, layout, stage=0):
        groups.setdefault(g, []).append((name, sym, num, val))
    for g in ("parameters", "parameters per GPU", "memory", "compute", "time", "communication", "stage memory",
              "stage time"):
        if g not in groups:
            continue
        p(f"== {g} (stage 0) ==")
        for name, sym, num, val in groups[g]:
            p(f"  {name}")
            p(f"    = {sym}")
            p(f"    = {num}")
            unit = "B" if g in ("memory", "stage memory") else ("s" if g in ("time", "communication", "stage time") else "")
            p(f"    = {val:.6g} {unit}".rstrip())
    p("")
    p("== memory per stage (GiB): weights + grads + optimizer + in-flight activations + logits + buffers ==")
    for s in est.stages:
        inf = layout.inflight(s.index)
        p(f"  stage {s.index}: {s.weights / cm.GiB:.2f} + {s.grads / cm.GiB:.2f} + {s.optimizer / cm.GiB:.2f} + "
          f"{s.activations / cm.GiB:.2f} ({inf:g} micro-batches in flight) + {s.logits / cm.GiB:.2f} + "
          f"{s.buffers / cm.GiB:.2f} = {s.total / cm.GiB:.2f}  (budget {problem.cluster.memory_budget_gib:.1f})")
    p("")
    p(f"== step time (s) = {cm.step.RULE} ==")
    t_max = max(s.time for s in est.stages)
    p("  " + cm.step.with_numbers(layout.num_microbatches, layout.pp, layout.vpp, t_max,
                                  est.exposed["dp"] + est.exposed["edp"], est.optimizer, est.step_time))
    p(f"  compute {est.compute:.4f}, bubble {est.bubble:.4f}, exposed comm "
      + ", ".join(f"{k} {v:.4f}" for k, v in est.exposed.items()))
    p(f"  tokens/s/GPU {est.tokens_per_s_per_gpu:,.0f}, {est.flops_per_gpu / 1e12:.0f} TFLOP/s/GPU, MFU {est.mfu:.1%}")

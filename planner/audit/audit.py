"""``run_audit``: a foreign config as foldplan sees it — legal? fits? how fast? how far from the best?

Steps, each adding findings:
1. the framework's own start-up rules (``rules.framework_rules``);
2. the config as a foldplan ``Problem`` (model from the config's hyperparameters where it
   gives them, the rest from the preset of the ``problem`` passed in; GPUs, sequence and
   batch from the config) and a ``Layout`` (degrees, folding, the framework's split of
   layers over stages, its recompute), checked by ``planner.layout.violations``;
3. memory per stage against the GPU budget: which stage, which term, by how much;
4. the estimate (step time, tokens/s/GPU, MFU) from ``planner.costmodel.evaluate``;
5. the best plan for the same problem (``solvers.search``) and the speed-up;
6. the smallest change: the config with one or two knobs changed (a pair of dense
   degrees traded, ep, vpp, recompute, micro-batch, CP kind), each re-checked and
   re-estimated, and the fewest changes that get most (>= 80 %) of the speed-up.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from pydantic import ValidationError

from planner import costmodel as cm
from planner.layout import Layout, LayoutError, Stage, cp_split, uniform_stages, violations
from planner.plan import _round
from planner.specs import ModelSpec, Problem, SpecError, TrainSpec, build

from .rules import framework_rules, with_world
from .source import Finding, ForeignConfig, exact_div

SCHEMA = "foldplan.audit/1"
MOST = 0.8  # "most of the speed-up": the share a smallest change must reach

# torchtitan [model] name:flavor -> foldplan preset (only where the shapes are the same model)
TITAN_PRESETS = {"llama3:8B": "llama3-8b", "llama3:70B": "llama3-70b", "llama3:405B": "llama3.1-405b",
                 "deepseek_v3:671B": "deepseek-v3", "qwen3:30B-A3B": "qwen3-30b-a3b",
                 "qwen3:235B-A22B": "qwen3-235b-a22b"}
_MODEL_KEYS = ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab")


@dataclass
class AuditReport:
    cfg: ForeignConfig
    findings: list[Finding]
    problem: Optional[Problem] = None
    layout: Optional[Layout] = None
    estimate: Optional[cm.Estimate] = None
    best_layout: Optional[Layout] = None
    best_estimate: Optional[cm.Estimate] = None
    speedup_of_best: Optional[float] = None
    smallest_change: Optional[dict] = None
    search: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def to_json(self) -> dict:
        best = None
        if self.best_layout is not None:
            best = {"layout": self.best_layout.to_dict(), "estimate": self.best_estimate.to_dict()}
        return _round({
            "schema": SCHEMA,
            "source": {"format": self.cfg.format, "path": self.cfg.path, "assumed": list(self.cfg.assumed)},
            "problem": self.problem.to_dict() if self.problem else None,
            "layout": self.layout.to_dict() if self.layout else None,
            "estimate": self.estimate.to_dict() if self.estimate else None,
            "findings": [f.to_dict() for f in self.findings],
            "best": best,
            "speedup_of_best": self.speedup_of_best,
            "smallest_change": self.smallest_change,
            "search": self.search,
        })


# ---------------------------------------------------------------------------
# the config as a Problem
# ---------------------------------------------------------------------------


def model_spec(cfg: ForeignConfig, base: ModelSpec) -> tuple[Optional[ModelSpec], list[Finding]]:
    """The config's model hyperparameters over ``base`` (the preset); the config wins where it speaks."""
    found = cfg.model
    data = base.model_dump()
    missing = [k for k in _MODEL_KEYS if k not in found]
    data["name"] = base.name if missing else (cfg.model_name or Path(cfg.path).stem)
    overridden = []
    for key, value in found.items():
        if key == "moe":
            if value is None:
                data["moe"] = None
                continue
            moe = dict(data.get("moe") or {})
            for k, v in value.items():
                if moe.get(k) != v:
                    overridden.append(f"moe.{k}")
                moe[k] = v
            if isinstance(moe.get("layer_freq"), list):
                moe["first_dense_layers"] = value.get("first_dense_layers", 0)
            if not moe.get("shared_ffn_hidden"):
                moe["shared_experts"], moe["shared_ffn_hidden"] = 0, 0
            data["moe"] = moe
        elif key in data:
            if data[key] != value:
                overridden.append(key)
            data[key] = value
    if found and "moe" not in found and cfg.format == "megatron":
        data["moe"] = None  # a Megatron script without --num-experts is a dense model
    if data.get("attention") != "mla":
        data["mla"] = None
    findings = []
    if found and missing:
        findings.append(Finding("info", "audit.model_from_preset",
                                f"{cfg.path}: the config does not give {', '.join(missing)}; taken from model "
                                f"{base.name!r}", "pass --model to choose the preset the rest comes from"))
    elif not found:
        findings.append(Finding("info", "audit.model_from_preset",
                                f"{cfg.path}: the config holds no model shapes"
                                + (f" (it names {cfg.model_name!r})" if cfg.model_name else "")
                                + f"; using model {base.name!r}",
                                "pass --model if that is not the model this config trains"))
    if overridden and found and missing:
        findings.append(Finding("info", "audit.model_overrides",
                                f"{cfg.path}: the config's values of {', '.join(sorted(overridden))} replace "
                                f"those of {base.name!r}", "nothing to do if the config is right"))
    try:
        return build(ModelSpec, data, "model"), findings
    except SpecError as e:
        findings.append(Finding("error", "audit.model_invalid", f"{cfg.path}: {e}",
                                "fix the model flags (or pass --model)"))
        return None, findings


def audit_problem(cfg: ForeignConfig, problem: Problem) -> tuple[Optional[Problem], list[Finding]]:
    """``problem`` with the config's model, GPU count, sequence, batch and numerics."""
    model, findings = model_spec(cfg, problem.model)
    if model is None:
        return None, findings
    seq = cfg.seq or problem.train.seq
    gb = cfg.global_batch or problem.train.global_batch
    if cfg.seq is None:
        findings.append(Finding("info", "audit.seq_assumed", f"{cfg.path}: sequence length not given; "
                                f"using {seq}", "pass --seq"))
    train = problem.train.model_dump()
    train.update(seq=seq, global_batch_tokens=gb * seq)
    if cfg.micro_batch:
        train["micro_batches"] = tuple(sorted(set(train["micro_batches"]) | {cfg.micro_batch}))
    if cfg.cp_kind in ("ring", "ulysses", "hybrid") and cfg.cp_kind not in train["cp_kinds"]:
        train["cp_kinds"] = tuple(train["cp_kinds"]) + (cfg.cp_kind,)
    if cfg.recompute and cfg.recompute not in train["recompute"]:
        train["recompute"] = tuple(train["recompute"]) + (cfg.recompute,)
    if cfg.extra.get("capacity_factor"):
        train["capacity_factor"] = float(cfg.extra["capacity_factor"])
    if cfg.sequence_parallel is not None:
        train["sequence_parallel"] = bool(cfg.sequence_parallel)
    dist = cfg.distributed_optimizer if cfg.distributed_optimizer is not None else (
        cfg.zero_stage >= 1 if cfg.zero_stage is not None else None)
    if dist is not None:
        train["distributed_optimizer"] = bool(dist)
    if (cfg.zero_stage or 0) >= 2:
        findings.append(Finding("info", "audit.zero_as_zero1",
                                f"{cfg.path}: ZeRO/FSDP stage {cfg.zero_stage} is estimated as a distributed "
                                f"optimizer (ZeRO-1): weights and gradients are counted unsharded",
                                "read memory figures as an upper bound"))
    try:
        t = build(TrainSpec, train, "train")
        world = cfg.world or problem.cluster.gpus
        cluster = problem.cluster.model_copy(update={"gpus": world})
        out = Problem(model=model, cluster=type(problem.cluster)(**cluster.model_dump()), train=t)
    except (SpecError, ValidationError) as e:
        findings.append(Finding("error", "audit.problem_invalid", f"{cfg.path}: {str(e).splitlines()[0]}",
                                "check the GPU count, sequence and batch"))
        return None, findings
    return out, findings


# ---------------------------------------------------------------------------
# the config as a Layout
# ---------------------------------------------------------------------------


def stage_sizes(cfg: ForeignConfig, layers: int, pp: int) -> list[int]:
    """Layers per stage as the framework splits them."""
    if cfg.stages:
        return [s["layers"][1] - s["layers"][0] for s in cfg.stages]
    first, last = cfg.first_stage_layers, cfg.last_stage_layers
    if cfg.format == "megatron" and pp > 1 and (first is not None or last is not None):
        given = [x for x in (first, last) if x is not None]
        mid = exact_div(layers - sum(given), pp - len(given)) if pp > len(given) else None
        if mid is not None:
            return ([first] if first is not None else [mid]) + [mid] * (pp - 2) + ([last] if last is not None else [mid])
    emb = int(bool(cfg.extra.get("account_embedding")))
    loss = int(bool(cfg.extra.get("account_loss")))
    per = exact_div(layers + emb + loss, pp)
    if per is not None and per - emb > 0 and per - loss > 0:
        sizes = [per] * pp
        sizes[0] -= emb
        sizes[-1] -= loss
        return sizes
    return [s.num_layers for s in uniform_stages(layers, pp)]


def _recompute(cfg: ForeignConfig, kind: Optional[str], n: int, vpp: int) -> tuple[int, int]:
    """(recompute_full, recompute_selective) layers of a stage of ``n`` layers."""
    if kind == "full":
        if cfg.recompute_method == "block" and cfg.recompute_num_layers:
            return min(n, cfg.recompute_num_layers * vpp), 0  # N layers of each virtual chunk
        return n, 0
    if kind == "selective":
        return 0, n
    return 0, 0


def to_layout(cfg: ForeignConfig, problem: Problem, **change) -> Layout:
    """The config's layout; ``change`` overrides knobs (tp, cp, dp, pp, vpp, ep, micro_batch, recompute,
    cp_kind) for the smallest-change search. Raises LayoutError/ValueError when it cannot be built."""
    knobs = current_knobs(cfg)
    knobs.update(change)
    if knobs["dp"] is None:
        raise LayoutError(f"dp unknown: world({cfg.world}) is not divisible by tp*cp*pp")
    tp, cp, dp, pp, vpp = (knobs[k] for k in ("tp", "cp", "dp", "pp", "vpp"))
    layers = problem.model.layers
    kind = knobs["cp_kind"]
    cu, cr = (cfg.cp_ulysses, cfg.cp_ring) if kind == cfg.cp_kind and cp == cfg.cp and cfg.cp_ulysses else (None, None)
    if cu is None or cr is None:
        cu, cr = cp_split(kind, cp, 1 if kind != "hybrid" else _hybrid_ulysses(cp))
    mb = knobs["micro_batch"]
    n_micro = exact_div(problem.train.global_batch, dp * mb)
    if n_micro is None:
        raise LayoutError(f"global batch({problem.train.global_batch}) is not divisible by dp({dp})*micro_batch({mb})")
    sizes = stage_sizes(cfg, layers, pp) if pp == (cfg.pp or 1) else [s.num_layers for s in uniform_stages(layers, pp)]
    if len(sizes) != pp or min(sizes) < 1 or sum(sizes) != layers:
        raise LayoutError(f"cannot split {layers} layers over pp({pp}) as {sizes}")
    stages, first = [], 0
    for i, n in enumerate(sizes):
        src = cfg.stages[i] if cfg.stages and not change else {}
        etp = src.get("etp") or knobs["etp"]
        ep = src.get("ep") or knobs["ep"]
        edp = src.get("edp") or exact_div(tp * cp * dp, etp * ep)
        if edp is None:
            raise LayoutError(f"etp({etp})*ep({ep}) does not divide tp({tp})*cp({cp})*dp({dp})={tp * cp * dp}")
        if src and not change:
            full, sel = src.get("recompute_full", 0), src.get("recompute_selective", 0)
        else:
            full, sel = _recompute(cfg, knobs["recompute"], n, vpp)
        stages.append(Stage(index=i, layers=(first, first + n), etp=etp, ep=ep, edp=edp,
                            recompute_full=full, recompute_selective=sel))
        first += n
    return Layout(world=tp * cp * dp * pp, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp,
                  cp_kind=kind, cp_ulysses=cu, cp_ring=cr, order=cfg.extra.get("order") or "tp-cp-dp-pp",
                  micro_batch=mb, num_microbatches=n_micro, stages=tuple(stages))


def _hybrid_ulysses(cp: int) -> int:
    """An even split of a hybrid CP degree (the smallest divisor >= sqrt(cp))."""
    return next(d for d in range(1, cp + 1) if cp % d == 0 and d * d >= cp)


def current_knobs(cfg: ForeignConfig) -> dict:
    kind = cfg.cp_kind if cfg.cp_kind in ("ring", "ulysses", "hybrid") else "ring"
    return {"tp": cfg.tp or 1, "cp": cfg.cp or 1, "dp": cfg.dp, "pp": cfg.pp or 1, "vpp": cfg.vpp or 1,
            "etp": cfg.etp or 1, "ep": cfg.ep or 1, "micro_batch": cfg.micro_batch or 1,
            "recompute": cfg.recompute or "none", "cp_kind": kind}


# ---------------------------------------------------------------------------
# memory, time, best plan, smallest change
# ---------------------------------------------------------------------------

_TERMS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")


def memory_findings(cfg: ForeignConfig, problem: Problem, est: cm.Estimate) -> list[Finding]:
    """One finding for the stage furthest over (or nearest to) the budget: its largest term and the excess."""
    budget = problem.cluster.memory_budget_gib
    gpu = problem.cluster.gpu
    totals = [st.total / cm.GiB for st in est.stages]
    st = est.stages[est.peak_stage]
    total = totals[st.index]
    terms = {k: getattr(st, k) / cm.GiB for k in _TERMS}
    top = max(terms, key=terms.get)
    shown = ", ".join(f"{k} {v:.1f}" for k, v in sorted(terms.items(), key=lambda kv: -kv[1]) if v >= 0.05)
    over = [i for i, t in enumerate(totals) if t > budget]
    if over:
        others = f"; {len(over)} of {len(totals)} stages are over ({_ranges(over)})" if len(over) > 1 else ""
        fix = {"activations": "recompute more layers (full recompute), raise cp or tp, or lower the micro-batch",
               "logits": "raise tp or cp (they split the last stage's logits), or move layers off the last stage",
               "buffers": "lower the MoE capacity factor or the micro-batch"}.get(
            top, "shard the states further: more dp (distributed optimizer), more pp, or more ep")
        return [Finding("error", "memory.stage_over_budget",
                        f"{cfg.path}: stage {st.index} needs {total:.1f} GiB > budget {budget:.1f} GiB "
                        f"({gpu.name}: {gpu.memory_gib:.1f} GiB - {gpu.reserve_gib:.1f} reserve) by "
                        f"{total - budget:.1f} GiB; {top} is the largest term ({shown} GiB){others}", fix)]
    if total > 0.9 * budget:
        return [Finding("warning", "memory.stage_near_budget",
                        f"{cfg.path}: stage {st.index} uses {total:.1f} of {budget:.1f} GiB ({total / budget:.0%}); "
                        f"{top} {terms[top]:.1f} GiB is the largest term",
                        "leave headroom for fragmentation: recompute a few more layers")]
    return []


def _ranges(xs: list[int]) -> str:
    """[0, 1, 2, 5] -> "stages 0-2, 5"."""
    out, start = [], xs[0]
    for a, b in zip(xs, xs[1:] + [None]):
        if b != a + 1:
            out.append(f"{start}-{a}" if a != start else f"{a}")
            start = b
    return "stages " + ", ".join(out)


def _changes(base: dict, knobs: dict) -> list[str]:
    return [f"{k} {base[k]}->{knobs[k]}" for k in base if knobs.get(k, base[k]) != base[k]]


def neighbours(cfg: ForeignConfig, problem: Problem) -> list[dict]:
    """Knob settings one or two changes away from the config (a traded pair of dense degrees counts two)."""
    base = current_knobs(cfg)
    n = problem.cluster.gpus
    primes = sorted({p for p in range(2, n + 1) if n % p == 0 and all(p % q for q in range(2, p))})
    singles: list[dict] = []
    moe = problem.model.moe
    if moe is not None:
        singles += [{"ep": e} for e in range(1, moe.experts + 1) if moe.experts % e == 0 and e != base["ep"]]
    singles += [{"vpp": v} for v in (1, 2, 3, 4) if v != base["vpp"]]
    singles += [{"recompute": r} for r in problem.train.recompute if r != base["recompute"]]
    singles += [{"micro_batch": m} for m in problem.train.micro_batches if m != base["micro_batch"]]
    if base["cp"] > 1:
        singles += [{"cp_kind": k} for k in problem.train.cp_kinds if k != base["cp_kind"]]
    trades: list[dict] = []
    for x, y in itertools.permutations(("tp", "cp", "dp", "pp"), 2):
        for p in primes:
            if base[y] % p == 0:
                trades.append({x: base[x] * p, y: base[y] // p})
    out = [*singles, *trades]
    out += [{**a, **b} for a, b in itertools.combinations(singles, 2) if not set(a) & set(b)]
    return out


def smallest_change(cfg: ForeignConfig, problem: Problem, est: Optional[cm.Estimate],
                    best_time: Optional[float]) -> Optional[dict]:
    """The fewest knob changes that reach most of the best plan's speed-up (or, if the config does not
    fit, that make it fit), each candidate re-checked by the layout rules and re-estimated."""
    budget = problem.cluster.memory_budget_gib * cm.GiB
    base = current_knobs(cfg)
    fits_now = est is not None and est.peak_bytes <= budget
    t0 = est.step_time if est is not None else None
    found = []
    for change in neighbours(cfg, problem):
        try:
            layout = to_layout(cfg, problem, **change)
        except (LayoutError, ValueError):
            continue
        if violations(layout, problem):
            continue
        e = cm.evaluate(problem, layout)
        if e.peak_bytes > budget:
            continue
        knobs = {**base, **change}
        diff = _changes(base, knobs)
        found.append((len(diff), e.step_time, diff, layout, e))
    if not found:
        return None
    found.sort(key=lambda r: (r[0], r[1]))
    gain = None
    pick = None
    if fits_now and t0 and best_time and t0 > best_time:
        for r in found:
            share = (t0 - r[1]) / (t0 - best_time)
            if share >= MOST:
                pick, gain = r, share
                break
        if pick is None:  # none reaches "most": the fastest one- or two-change option
            pick = min(found, key=lambda r: (r[1], r[0]))
            gain = (t0 - pick[1]) / (t0 - best_time)
            if gain <= 0:
                return None
    elif not fits_now:  # illegal or over budget: the fewest changes that give a legal layout that fits
        pick = min(found, key=lambda r: (r[0], r[1]))
    else:
        return None
    n, t, diff, layout, e = pick
    return {"changes": diff, "layout": layout.to_dict(), "step_time_s": t, "peak_memory_gib": e.peak_bytes / cm.GiB,
            "speedup": (t0 / t) if t0 else None, "share_of_best_speedup": gain,
            "fixes_the_config": not fits_now}


def run_audit(cfg: ForeignConfig, problem: Problem, *, search: bool = True, time_limit: float = 60.0,
              progress=None) -> AuditReport:
    """Audit ``cfg``; ``problem`` supplies what the config does not say (GPU kind, memory budget,
    model preset, training options). ``search=False`` skips the best-plan search."""
    note = []
    if cfg.world is None:
        cfg = with_world(cfg, problem.cluster.gpus)
        note.append(Finding("info", "audit.world_from_problem",
                            f"{cfg.path}: the config does not say how many GPUs; using {problem.cluster.gpus}",
                            "pass --gpus N"))
    findings = framework_rules(cfg) + note
    report = AuditReport(cfg, findings)
    prob, more = audit_problem(cfg, problem)
    findings.extend(more)
    if prob is None:
        return report
    report.problem = prob
    if cfg.cp_kind == "allgather":
        findings.append(Finding("info", "audit.allgather_as_ring",
                                f"{cfg.path}: all-gather context parallel is estimated as ring attention: the same "
                                f"KV bytes move, but the ring overlaps them with attention and all-gather does not, "
                                f"so the step time may be optimistic", ""))
    try:
        layout = to_layout(cfg, prob)
    except (LayoutError, ValueError) as e:
        findings.append(Finding("error", "foldplan.layout", f"{cfg.path}: cannot form a layout: "
                                f"{str(e).splitlines()[0]}", "fix the errors above"))
        layout = None
    if layout is not None:
        report.layout = layout  # reported even when illegal: it is what the config asks for
        bad = violations(layout, prob)
        for v in bad:
            findings.append(Finding("error", "foldplan.layout", f"{cfg.path}: {v}", "see the framework errors above"
                                    if report.errors else "change the degrees so the identity holds"))
        if not bad:
            report.estimate = est = cm.evaluate(prob, layout)
            findings.extend(memory_findings(cfg, prob, est))
            findings.append(Finding("info", "estimate.summary",
                                    f"{cfg.path}: step {est.step_time:.3f} s, {est.tokens_per_s_per_gpu:,.0f} "
                                    f"tokens/s/GPU, {est.flops_per_gpu / 1e12:.0f} TFLOP/s/GPU, MFU {est.mfu:.1%}, "
                                    f"peak {est.peak_bytes / cm.GiB:.1f} GiB on stage {est.peak_stage}", ""))
    if search:
        from solvers import search as solve
        res = solve(_search_problem(prob, problem), top=1, time_limit=time_limit, progress=progress)
        report.search = {"status": res.status, "wall_s": res.wall_s, "tuples": res.tuples, "pruned": res.pruned,
                         "cpsat_calls": res.cpsat_calls}
        if res.plans:
            best = res.plans[0]
            report.best_layout, report.best_estimate = best.layout, best.estimate
            if report.estimate is not None:
                report.speedup_of_best = report.estimate.step_time / best.estimate.step_time
                if report.speedup_of_best > 1.05:
                    findings.append(Finding("warning", "audit.slower_than_best",
                                            f"{cfg.path}: the best plan for the same problem is "
                                            f"{report.speedup_of_best:.2f}x faster "
                                            f"({best.estimate.step_time:.3f} s vs {report.estimate.step_time:.3f} s "
                                            f"per step)", "see `best` and `smallest_change`"))
    best_time = report.best_estimate.step_time if report.best_estimate else None
    report.smallest_change = smallest_change(cfg, prob, report.estimate, best_time)
    return report


def _search_problem(audited: Problem, base: Problem) -> Problem:
    """The same model, GPUs, sequence and batch, with the base problem's search options."""
    train = base.train.model_copy(update={"seq": audited.train.seq,
                                          "global_batch_tokens": audited.train.global_batch_tokens,
                                          "capacity_factor": audited.train.capacity_factor})
    return audited.model_copy(update={"train": TrainSpec(**train.model_dump())})


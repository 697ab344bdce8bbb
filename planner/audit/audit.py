"""``run_audit``: a foreign config as foldplan sees it — legal? fits? how fast? how far from the best?

Steps, each adding findings:
1. the framework's own start-up rules (planner.engines.startup ``framework_rules``);
2. the config as a foldplan ``Problem`` and ``Layout`` (``audit_problem``), checked by
   planner.layout's rule table: each broken rule reported once, with its id;
3. what the config sets that changes memory or time and the estimate does not model
   (``unmodelled``): named in one warning, and it turns a memory verdict into a warning;
4. memory per stage against the GPU budget: which stage, which term, by how much;
5. the estimate (step time, tokens/s/GPU, MFU) from ``planner.costmodel.evaluate``;
6. unless ``search=False``, the best plan for the same problem (``planner.solve.search_plans``, bounded
   by ``time_limit``) and the speed-up;
7. the smallest change (``audit_change``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from planner import costmodel as cm
from planner.layout import Layout, LayoutError, violations
from planner.plan import _round
from planner.specs import Problem, TrainSpec

from planner.audit.audit_change import MOST, neighbours, smallest_change  # noqa: F401  (re-exported)
from planner.engines.megatron.pplayout import empty_virtual_stages
from planner.audit.memory_verdict import memory_findings, tail_findings  # noqa: F401  (memory_findings re-exported)
from planner.audit.audit_problem import (MODEL_KEYS, TITAN_PRESETS, audit_problem, model_spec,  # noqa: F401
                                         reader_of, to_layout)
from planner.engines.startup import framework_rules, with_world
from planner.layout.foreign import Finding, ForeignConfig
from planner.specs.kinds import SHARDING
from planner.layout import degree_violations
from planner.engines import ENGINES
from planner.engines import constraints

SCHEMA = "foldplan.audit/1"


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
    unmodelled: tuple = ()  # (setting, "memory"/"time"/both, what it does) the estimate does not model

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def to_json(self) -> dict:
        best = None
        if self.best_layout is not None:
            best = {"layout": self.best_layout.to_dict(), "estimate": self.best_estimate.to_dict()}
        return _round({
            "schema": SCHEMA,
            "source": {"format": self.cfg.format, "path": self.cfg.path, "assumed": list(self.cfg.assumed),
                       "ignored": list(self.cfg.unknown_flags),
                       "unmodelled": [{"setting": f, "changes": k, "what": w} for f, k, w in self.unmodelled]},
            "problem": self.problem.to_dict() if self.problem else None,
            "layout": self.layout.to_dict() if self.layout else None,
            "estimate": self.estimate.to_dict() if self.estimate else None,
            "findings": [f.to_dict() for f in self.findings],
            "best": best,
            "speedup_of_best": self.speedup_of_best,
            "smallest_change": self.smallest_change,
            "search": self.search,
        })


def unmodelled(cfg: ForeignConfig, problem: Problem, layout: Optional[Layout]) -> tuple:
    """The config's effects (settings that change memory or time) that the estimate does not model.

    Whether the cost model models a knob is asked of the cost model itself: the same layout is
    evaluated with the knob changed, and a knob that changes nothing is not modelled."""
    probe = _Probe(problem, layout)
    modelled_by = getattr(reader_of(cfg), "MODELLED_BY", {})      # the engine's flag -> the knob that models it
    out = []
    for setting, kind, what in cfg.effects:
        knob = modelled_by.get(setting.split()[0])
        if knob and (knob in TrainSpec.model_fields or probe.models(knob)):
            continue
        out.append((setting, kind, what))
    if cfg.sharding in SHARDING and SHARDING[cfg.sharding].grads and not probe.models("sharding"):
        out.append((f"sharding {cfg.sharding}", "memory and time",
                    f"{cfg.sharding} shards more than ZeRO-1 (estimated as ZeRO-1: weights/grads counted whole)"))
    more = getattr(reader_of(cfg), "unmodelled", None)          # what only the engine's reader knows of
    return tuple(out) + (tuple(more(cfg)) if more else ())


class _Probe:
    """Asks the cost model whether a knob changes its estimate of ``layout``."""

    def __init__(self, problem: Problem, layout: Optional[Layout]):
        self.problem, self.layout, self.cache = problem, layout, {}

    def models(self, knob: str) -> bool:
        if knob not in self.cache:
            self.cache[knob] = self._differs(knob)
        return self.cache[knob]

    def _differs(self, knob: str) -> bool:
        L = self.layout
        if L is None or not hasattr(L, "sharding"):
            return False
        try:
            if knob == "sharding":
                a, b = L.model_copy(update={"sharding": "zero1"}), L.model_copy(update={"sharding": "zero3"})
            else:
                stages = tuple(s.model_copy(update={"recompute_full": 0, "recompute_selective": s.num_layers})
                               for s in L.stages)
                a = L.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_modules": ("core_attn",)})
                                                         for s in stages)})
                b = L.model_copy(update={"stages": tuple(s.model_copy(update={"recompute_modules": (
                    "core_attn", "mlp", "layernorm", "moe_act")}) for s in stages)})
            ea, eb = cm.evaluate(self.problem, a), cm.evaluate(self.problem, b)
        except (ValueError, LayoutError, ArithmeticError):
            return False
        return ea.peak_bytes != eb.peak_bytes or ea.step_time != eb.step_time


def _overlap_finding(cfg: ForeignConfig, prob: Problem, layout: Layout, est) -> list[Finding]:
    """A config whose engine does not overlap its gradient reduction (Megatron-LM without
    --overlap-grad-reduce, DeepSpeed without overlap_comm): the reduction runs whole after the
    last backward (the estimate counts it so); what overlapping it would save."""
    if prob.train.overlap_grad_reduce:
        return []
    on = prob.model_copy(update={"train": prob.train.model_copy(update={"overlap_grad_reduce": True})})
    hidden = est.step_time - cm.evaluate(on, layout).step_time
    if hidden <= 0:
        return []
    exposed = est.exposed["dp"] + est.exposed["edp"]
    say = getattr(reader_of(cfg), "no_overlap", None)              # the engine's own words for the setting
    what, fix = say(cfg) if say else ("the gradient reduction is not overlapped",
                                      "overlap the gradient reduction with the last micro-batch's backward")
    return [Finding("warning", "time.no_overlap_grad_reduce",
                    f"{cfg.path}: {what}: the gradient reduction runs after the last backward, "
                    f"{exposed:.3f} s exposed per step; overlapped, {hidden:.3f} s of it hides behind the last "
                    f"micro-batch ({est.step_time:.3f} -> {est.step_time - hidden:.3f} s, "
                    f"{hidden / est.step_time:.1%} of the step)", fix)]


def _attention_finding(cfg: ForeignConfig, prob: Problem, layout: Layout, est) -> list[Finding]:
    """A torchtitan config says nothing of the torch that runs it, and PyTorch's SDPA picks the
    attention kernel by version: cuDNN on Hopper where it prefers it (cuDNN newer than 9.15), else
    FlashAttention-2 (cuDNN was opt-in from Oct 2024: pytorch/pytorch#138522). The estimate takes the
    problem's kernel (TrainSpec.attention_kernel) and says what the other one would cost."""
    gpu = prob.cluster.gpu
    unsaid = getattr(reader_of(cfg), "ATTENTION_UNSAID", False)
    if not unsaid or gpu.flash2_attention_efficiency is None or prob.train.attention_kernel == "flex":
        return []              # 0.3 runs FlexAttention, not SDPA (planner.specs.cp_impl)
    other = "flash2" if prob.train.attention_kernel == "fused" else "fused"
    if gpu.attention_curve(other) == gpu.attention_curve(prob.train.attention_kernel):
        return []
    alt = prob.model_copy(update={"train": prob.train.model_copy(update={"attention_kernel": other})})
    t = cm.evaluate(alt, layout).step_time
    name = {k: gpu.attention_name(k) for k in ("fused", "flash2")}
    return [Finding("info", "audit.attention_kernel",
                    f"{cfg.path}: attention estimated as {name[prob.train.attention_kernel]}; the config cannot say "
                    f"which SDPA runs (PyTorch picks cuDNN on Hopper only with cuDNN newer than 9.15, else "
                    f"FlashAttention-2): with {name[other]} the step is {t:.3f} s ({t / est.step_time - 1:+.1%})",
                    f"pass --attention-kernel {other} if that is what your torch runs")]


def _unmodelled_finding(cfg: ForeignConfig, items: tuple) -> list[Finding]:
    if not items:
        return []
    shown = "; ".join(f"{s} ({k}: {w})" for s, k, w in items)
    return [Finding("warning", "audit.unmodelled",
                    f"{cfg.path}: {len(items)} setting(s) change memory or time but are not in the estimate: {shown}",
                    "read the memory and time figures as approximate; no memory error is claimed for them")]


def _layout_findings(cfg: ForeignConfig, prob: Problem, report) -> Optional[Layout]:
    """The config's layout, and each rule of planner.layout it breaks (once, with the rule's id)."""
    findings = report.findings
    try:
        layout = to_layout(cfg, prob)
    except (LayoutError, ValueError, ArithmeticError) as e:
        findings.append(Finding("error", "audit.layout", f"{cfg.path}: cannot form a layout: "
                                f"{str(e).splitlines()[0]}", "fix the errors above"))
        _degree_findings(cfg, prob, findings)
        return None
    report.layout = layout  # reported even when illegal: it is what the config asks for
    seen = {f.rule for f in findings}
    for v in violations(layout, prob):
        rule = getattr(v, "rule", "layout")
        if _engine_places(cfg, layout, prob, rule):
            continue
        if f"layout.{rule}" in seen:
            continue
        seen.add(f"layout.{rule}")
        findings.append(Finding("error", f"layout.{rule}", f"{cfg.path}: {v}",
                                "see the framework errors above" if report.errors else
                                "change the degrees so the rule holds"))
    return layout


def _engine_places(cfg: ForeignConfig, layout: Layout, prob: Problem, rule: str) -> bool:
    """A virtual stage without a decoder layer that the config's engine builds (Megatron's embedding and
    loss as pipeline units, or its explicit pipeline layout): `pp.layers` and `stage.min_layers` count
    layers only, the engine counts its pipeline units, and the engine decides."""
    if cfg.format != "megatron" or rule not in ("pp.layers", "stage.min_layers"):
        return False
    empty = empty_virtual_stages(cfg.extra, layout.pp, layout.vpp)
    if empty is None:
        return True
    first, last = empty
    if rule == "pp.layers":
        return layout.pp * layout.vpp <= prob.model.layers + first + last
    spare = lambda s: first * (s.index == 0) + last * (s.index == layout.pp - 1)
    return all(s.num_layers >= max(1, layout.vpp) - spare(s) for s in layout.stages)


def _degree_findings(cfg: ForeignConfig, prob: Problem, findings: list) -> None:
    """Without a layout, the rules of planner.layout's table whose degrees the config does give."""
    known = {k: getattr(cfg, k) for k in ("tp", "cp", "dp", "pp") if getattr(cfg, k) is not None}
    fold = {k: getattr(cfg, k) for k in ("etp", "ep") if getattr(cfg, k) is not None}
    for v in degree_violations(prob, **known) + degree_violations(prob, "fold", **fold):
        findings.append(Finding("error", f"layout.{v.rule}", f"{cfg.path}: {v}", "change the degrees so the rule holds"))


def _with_model(cfg: ForeignConfig, problem: Problem) -> ForeignConfig:
    """The config as Megatron's start-up rules see it: when a Megatron config gives no model shape at
    all (a launcher that takes the model from elsewhere, ModelZoo's launch scripts), the model the
    audit runs on (--model) stands in, the config's own model values over it."""
    if not getattr(reader_of(cfg), "SHAPE_FROM_PROBLEM", False) or any(k in cfg.model for k in MODEL_KEYS):
        return cfg
    return cfg.replace(model={**problem.model.model_dump(), **cfg.model})


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
    report = AuditReport(cfg, framework_rules(_with_model(cfg, problem)) + note)
    findings = report.findings
    prob, more = audit_problem(cfg, problem)
    findings.extend(more)
    if prob is None:
        return report
    report.problem = prob
    if (cfg.cp or 1) > 1 and cfg.extra.get("cp_comm"):
        findings.append(Finding("info", "audit.cp_comm",
                                f"{cfg.path}: context parallel priced as the engine runs it: cp_comm "
                                f"{prob.train.cp_comm}, load balancing {prob.train.cp_balance}, attention kernel "
                                f"{prob.train.attention_kernel} (planner/specs/cp_impl.py)", ""))
    layout = _layout_findings(cfg, prob, report)
    report.unmodelled = unmodelled(cfg, prob, layout)
    findings.extend(_unmodelled_finding(cfg, report.unmodelled))
    if layout is not None and not any(f.rule.startswith("layout.") for f in findings):
        report.estimate = est = cm.evaluate(prob, layout)
        findings.extend(memory_findings(cfg, prob, est, report.unmodelled))
        findings.extend(tail_findings(cfg.path, prob, layout))
        findings.extend(_overlap_finding(cfg, prob, layout, est))
        findings.extend(_attention_finding(cfg, prob, layout, est))
        findings.append(Finding("info", "estimate.summary",
                                f"{cfg.path}: step {est.step_time:.3f} s, {est.tokens_per_s_per_gpu:,.0f} "
                                f"tokens/s/GPU, {est.flops_per_gpu / 1e12:.0f} TFLOP/s/GPU, MFU {est.mfu:.1%}, "
                                f"peak {est.peak_bytes / cm.GiB:.1f} GiB on stage {est.peak_stage}", ""))
    if search:
        _best(report, cfg, prob, problem, time_limit, progress)
    best_time = report.best_estimate.step_time if report.best_estimate else None
    report.smallest_change = smallest_change(cfg, prob, report.estimate, best_time)
    return report


def _best(report: AuditReport, cfg: ForeignConfig, prob: Problem, problem: Problem, time_limit: float,
          progress) -> None:
    # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
    from planner.solve import search_plans
    # a Megatron-LM or torchtitan config is compared with the best plan its own engine can run
    # (planner.solve.targets: one expert folding, the engine's CP kinds, shardings and recompute forms)
    eng = cfg.format if cfg.format in ENGINES else None
    if eng:
        # deferred: the search loads OR-Tools (~1 s); only the commands that search need it
        from planner.solve import targets
        res = targets.search(_search_problem(prob, problem, eng), top=1, time_limit=time_limit, progress=progress,
                             settle=False)         # the speed-up on offer: the fastest plan, not the tie-break's
    else:
        res = search_plans(_search_problem(prob, problem), top=1, time_limit=time_limit, progress=progress,
                           settle=False)
    report.search = {"status": res.status, "wall_s": res.wall_s, "tuples": res.tuples, "pruned": res.pruned,
                     "cpsat_calls": res.cpsat_calls}
    if not res.plans:
        if eng:                              # the engine cannot run the problem at all: its one line
            from planner.solve.nofit import refusal    # deferred: the search's modules, for this case only
            why = refusal(_search_problem(prob, problem, eng))
            if why:
                report.search["refused"] = why
        return
    best = res.plans[0]
    report.best_layout, report.best_estimate = best.layout, best.estimate
    if report.estimate is None:
        return
    report.speedup_of_best = report.estimate.step_time / best.estimate.step_time
    if report.speedup_of_best > 1.05:
        timing = [u[0] for u in report.unmodelled if "time" in u[1]]
        caveat = f"; the estimate does not model {', '.join(timing)}, which change time" if timing else ""
        report.findings.append(Finding("warning", "audit.slower_than_best",
                                       f"{cfg.path}: the best plan for the same problem is "
                                       f"{report.speedup_of_best:.2f}x faster ({best.estimate.step_time:.3f} s vs "
                                       f"{report.estimate.step_time:.3f} s per step){caveat}",
                                       "see `best` and `smallest_change`"))


_JOB_INPUTS = ("capacity_factor", "routing", "balancing", "capacity_pad", "moe_imbalance", "precision",
               "fp8_param_gather", "fp8_library")


def _search_problem(audited: Problem, base: Problem, engine: Optional[str] = None) -> Problem:
    """The same model, GPUs, sequence and batch, with the base problem's search options (and,
    for an engine's config, that engine's target's search defaults: planner.engines.constraints)."""
    over = {}
    if engine:
        over = constraints(engine).train_defaults(audited.model, audited.cluster.gpu)
    train = base.train.model_copy(update={"seq": audited.train.seq,
                                          "global_batch_tokens": audited.train.global_batch_tokens,
                                          **over,
                                          # the job's inputs, not layout choices: routing and its
                                          # balancing, the precision
                                          **{k: getattr(audited.train, k) for k in _JOB_INPUTS},
                                          # the same kernels (a config run eager is compared with
                                          # plans run eager: torch.compile is no layout choice)
                                          "kernels": audited.train.kernels,
                                          "attention_kernel": audited.train.attention_kernel,
                                          # the best plan overlaps its gradient reduction
                                          # (foldplan's Megatron export sets --overlap-grad-reduce)
                                          "overlap_grad_reduce": True})
    return audited.model_copy(update={"train": TrainSpec(**train.model_dump())})


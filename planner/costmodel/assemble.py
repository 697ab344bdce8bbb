"""Assembly: the stage integers of a layout, per-stage estimates, and the step time.

The per-stage sums are formulas (`formulas.STAGE`); what is assembled here is only what
is not linear in a stage: the in-flight micro-batches of the pipeline schedule, the
bottleneck stage, the bubble, and how much gradient reduction the last backward hides.
The step rule itself is `planner.costmodel.step`'s (written once, with the pieces the
solver's encodings of it read).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

import planner.costmodel.compile as cc
from planner.costmodel.step import bubble as pipeline_bubble, stage_time, step_time
from planner.costmodel.names import COMM_TERMS, DENSE_MODULES, MOE_MODULES, R_D, R_M
from planner.costmodel.values import layout_values, layout_vector, model_values, training_flops

GiB = 2**30


def overlap_extra(layout, stage) -> float:
    """Micro-batches of activations Megatron's EP A2A overlap adds in flight (megatron-core 0.19.2):
    with pp = 1 each layer's forward of micro-batch i+1 runs beside the backward of micro-batch i
    (combined_1f1b.py:51-64, combined_1f1b_schedule_for_no_pipelining), which frees a layer as the
    forward stores one: one layer more than a micro-batch at the peak; interleaved, one more warm-up
    forward of one model chunk (schedules.py:939-943)."""
    if not layout.ep_overlap:
        return 0.0
    return 1.0 / max(1, stage.num_layers) if layout.pp == 1 else 1.0 / layout.vpp


def module_counts(modules, dense_sel: int, moe_sel: int) -> dict[str, int]:
    """Stage-integer values r_d_<mod> / r_m_<mod> of `dense_sel` dense and `moe_sel` MoE
    layers with `modules` recomputed (`moe` subsumes `moe_act` and `shared_experts`)."""
    out = {n: 0 for n in (*R_D, *R_M)}
    for k in modules:
        if k in DENSE_MODULES:
            out[f"r_d_{k}"] = dense_sel
        if k in MOE_MODULES and not (k in ("moe_act", "shared_experts") and "moe" in modules):
            out[f"r_m_{k}"] = moe_sel
    return out


def stage_ints(problem, layout) -> dict[str, np.ndarray]:
    """The stage integers of every stage of `layout` (arrays of length pp): the layers each
    pipeline rank runs and their recompute, as the layout places them (Layout.placement)."""
    rows = []
    for r in layout.placement(problem.model.moe_layers(), problem.model.mtp_layers).ranks:
        n_m = r.moe
        row = {"L_d": r.dense, "L_m": n_m, "Lf_d": r.count("full", False), "Lf_m": r.count("full", True),
               "e_f": int(r.rank == 0), "e_l": int(r.rank == layout.pp - 1), "h_m": int(n_m > 0)}
        row.update(module_counts(layout.stages[r.rank].recompute_modules, r.count("selective", False),
                                 r.count("selective", True)))
        rows.append(row)
    return {k: np.array([r[k] for r in rows], float) for k in rows[0]}


def stage_terms(problem, layout) -> dict[str, np.ndarray]:
    """Every per-stage sum of `formulas.STAGE` for each stage of `layout`."""
    vals = {**model_values(problem), **layout_values(problem, layout_vector(layout)), **stage_ints(problem, layout)}
    return cc.stage(vals)


@dataclass
class StageEstimate:
    index: int
    weights: float
    grads: float
    optimizer: float
    activations: float             # in-flight micro-batches + the running layer's transient
    logits: float
    buffers: float
    time: float                     # per micro-batch, fwd+bwd incl. per-layer exposed comm
    comm: dict                      # per micro-batch exposed comm by group
    dp_comm: float                  # per step
    edp_comm: float
    overlap_window: float
    optimizer_step: float = 0.0     # per step: Adam over this stage's local shard
    shard_mb: float = 0.0           # zero2/zero3 traffic per micro-batch (overlaps compute)
    busy: float = 0.0               # per micro-batch: compute and exposed collectives

    @property
    def total(self) -> float:
        return self.weights + self.grads + self.optimizer + self.activations + self.logits + self.buffers


@dataclass
class Estimate:
    stages: list[StageEstimate]
    step_time: float
    compute: float
    bubble: float
    exposed: dict
    tokens_per_s_per_gpu: float
    flops_per_gpu: float
    mfu: float
    reserve_bytes: float
    optimizer: float = 0.0                 # the optimizer step (the slowest stage's)

    @property
    def peak_bytes(self) -> float:
        return max(s.total for s in self.stages)

    @property
    def peak_stage(self) -> int:
        return max(self.stages, key=lambda s: s.total).index

    def to_dict(self) -> dict:
        return {
            "step_time_s": self.step_time, "tokens_per_s_per_gpu": self.tokens_per_s_per_gpu,
            "tflops_per_gpu": self.flops_per_gpu / 1e12, "mfu": self.mfu,
            "peak_memory_gib": self.peak_bytes / GiB,
            "memory_gib_by_stage": [
                {"weights": s.weights / GiB, "grads": s.grads / GiB, "optimizer": s.optimizer / GiB,
                 "activations": s.activations / GiB, "logits": s.logits / GiB, "buffers": s.buffers / GiB,
                 "total": s.total / GiB} for s in self.stages],
            "time_s": {"compute": self.compute, "bubble": self.bubble, "optimizer": self.optimizer,
                       "exposed_comm": dict(self.exposed)},
        }


def _stage_estimates(problem, layout, r) -> list[StageEstimate]:
    out = []
    for i in range(layout.pp):
        k = min(layout.inflight(i) + overlap_extra(layout, layout.stages[i]),
                layout.num_microbatches)
        st = stage_time(lambda w: sum(c * float(r[n][i]) for n, c in w.items()))
        comm = {g.removeprefix("comm_"): float(r[g][i]) for g in COMM_TERMS}
        out.append(StageEstimate(
            i, float(r["weights"][i]), float(r["grads"][i]), float(r["optimizer"][i]), k * float(r["act_mb"][i]) + float(r["transient"][i]),
            float(r["logits"][i]), float(r["buffers"][i]), st.micro_batch(), comm,
            float(r["dp_step"][i]), float(r["edp_step"][i]), overlap_window=st.window, busy=st.busy,
            optimizer_step=st.opt, shard_mb=st.shard))
    return out


def evaluate(problem, layout) -> Estimate:
    """Memory per stage and step time of one layout (assumed legal: see layout.check)."""
    r = stage_terms(problem, layout)
    stages = _stage_estimates(problem, layout, r)
    pp, vpp, mb = layout.pp, layout.vpp, layout.num_microbatches
    # the stage time's pieces (planner.costmodel.step), the window as the run overlaps it
    times = [stage_time(lambda w, i=i: sum(c * float(r[n][i]) for n, c in w.items()),
                        problem.train.overlap_grad_reduce) for i in range(pp)]
    step, exp_dp, worst = step_time(mb, pp, vpp, [t.micro_batch() for t in times], [t.window for t in times],
                                    [t.reduction for t in times], [t.opt for t in times])
    bott = max(stages, key=lambda s: s.time)
    t_max = bott.time
    w = stages[worst]
    share = w.dp_comm / (w.dp_comm + w.edp_comm) if w.dp_comm + w.edp_comm else 0.0
    exposed = {"dp": exp_dp * share, "edp": exp_dp * (1 - share)}
    for key in bott.comm:
        exposed[key] = mb * bott.comm[key]
    exposed["shard"] = mb * (t_max - bott.busy)
    tokens = problem.train.global_batch_tokens
    n = layout.world
    fl = training_flops(problem.model, tokens, problem.train.seq) / step / n
    return Estimate(stages=stages, step_time=step, compute=mb * bott.overlap_window, bubble=pipeline_bubble(pp, vpp, t_max),
                    exposed=exposed, optimizer=max(s.optimizer_step for s in stages),
                    tokens_per_s_per_gpu=tokens / step / n, flops_per_gpu=fl,
                    mfu=fl / problem.cluster.gpu.peak_flops, reserve_bytes=problem.cluster.gpu.reserve_gib * GiB)


def fits(problem, est: Estimate) -> bool:
    return est.peak_bytes <= problem.cluster.memory_budget_gib * GiB


def layer_terms(problem, x: dict) -> SimpleNamespace:
    """Per-layer activations of candidate layouts (tests compare them with outside numbers)."""
    x = {"sharding": np.ones_like(np.asarray(x["tp"], float)), "master": np.zeros_like(np.asarray(x["tp"], float)),
         **x}
    r = cc.formulas({**model_values(problem), **layout_values(problem, x)})
    return SimpleNamespace(a_dense=r["A_attn"] + r["A_mlp"], a_moe=r["A_attn"] + r["A_moe"], a_full=r["A_full"],
                           a_sel_saving=r["A_scores"], raw=r)

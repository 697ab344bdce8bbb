"""The MoE validation corpus (benchmarks/corpus/moe_runs.yaml) read into values, and each row rebuilt
as a planner problem and layout: the model, GPUs, degrees and engine settings as published, what the
publication leaves open chosen by the planner as the engine's own flags can say it.

A row is priced through the planner's public API only, the way every other fidelity benchmark does:
  * the problem: `planner.specs.make_problem` with the engine's own training defaults
    (`planner.engines.constraints(engine).train_defaults`), then the row's dispatcher, overlap, routing,
    precision and any `train` fields of its source or its own;
  * the layout, when the row states every degree it ran (its virtual stages included): the layout
    string of those degrees read by `planner.solve.complete.layout_from_string`, which fills the
    micro-batch, sharding, rank order and stage split a row leaves out from the best plan of a search
    with every given value pinned (its `assumed` lines are kept with the row);
  * the layout, when the row leaves the virtual stages, micro-batch or recompute open (the MoE
    Parallel Folding rows): `planner.solve.targets.search` with the stated degrees fixed, as
    benchmarks/fidelity_moe.py does;
  * the estimate: `planner.costmodel.evaluate` of that problem and layout.
Nothing here is a formula: a row's number is the cost model's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

CORPUS = Path(__file__).resolve().parent / "corpus" / "moe_runs.yaml"
# tflops: TFLOP/s per GPU under a FLOP count the publication does not state; such a row is scored only
# against its `pair` (the same count on both sides: the ratio is the throughput ratio)
METRICS = ("tokens_per_s_per_gpu", "step_s", "mfu", "tflops")
ENGINES = ("megatron", "torchtitan")
# the CUDA graphs a row ran: none (eager), scoped (Transformer Engine graphs of some modules: attn, moe_router,
# moe_preprocess), layer (each transformer layer's forward and backward: Megatron-Core's enable_cuda_graph), full
# (one graph of the whole forward and backward: Megatron's full_iteration)
CUDA_GRAPHS = ("none", "scoped", "layer", "full")
ROW_FIELDS = ("id", "source", "provenance", "model", "gpu", "gpus", "engine", "layout", "dispatcher", "ep_overlap",
              "routing", "precision", "seq", "global_batch", "recompute", "metric", "value")
# the fine-grained regime of the issue this corpus checks: 64-384 experts, expert FFN 512-2,048, top-4..8
FINE = dict(experts=(64, 384), expert_ffn_hidden=(512, 2048), top_k=(4, 8))


@dataclass(frozen=True)
class Run:
    """One measured run as published (a row of the corpus)."""
    id: str
    source: str
    provenance: str
    model: str
    gpu: str
    gpus: int
    engine: str
    layout: dict                    # tp cp pp vpp ep etp micro_batch (those given)
    dispatcher: str
    ep_overlap: bool
    routing: str                    # forced | dropless | capacity=<f>
    precision: str
    seq: int
    global_batch: int               # sequences
    recompute: Optional[str]        # none | full | selective:<mod>+<mod> | None: the planner's choice
    metric: str
    value: float
    grid: Optional[str] = None
    pair: Optional[str] = None      # two rows differing in one setting: their measured order is compared
    delay_wgrad: bool = False
    cuda_graphs: Optional[str] = None   # none | scoped | layer | full (the run's CUDA graphs, where its code says; the
    #                                     cost model prices no host time, so this is reported, not priced)
    train: dict = field(default_factory=dict)
    cluster: dict = field(default_factory=dict)     # the source's launcher facts: {segment: megatron-bridge}
    lacks: tuple = ()
    assumptions: tuple = ()


@dataclass(frozen=True)
class Corpus:
    sources: dict                   # key -> {name, origin, assumptions, train, layout}
    models: dict                    # name -> ModelSpec fields (with its provenance)
    runs: tuple                     # Run
    unpriceable: tuple              # {id, source, provenance, model, metric, value, reason}


class CorpusError(ValueError):
    """A row of the corpus is malformed: one line naming the row and the field."""


def _run(row: dict, sources: dict) -> Run:
    rid = row.get("id", "?")
    missing = [k for k in ROW_FIELDS if k not in row]
    if missing:
        raise CorpusError(f"corpus row {rid}: missing {', '.join(missing)}")
    src = sources.get(row["source"])
    if src is None:
        raise CorpusError(f"corpus row {rid}: source {row['source']!r} is not in the sources table")
    if row["metric"] not in METRICS:
        raise CorpusError(f"corpus row {rid}: metric {row['metric']!r} (known: {', '.join(METRICS)})")
    if row["engine"] not in ENGINES:
        raise CorpusError(f"corpus row {rid}: engine {row['engine']!r} (known: {', '.join(ENGINES)})")
    if not (isinstance(row["value"], (int, float)) and row["value"] > 0):
        raise CorpusError(f"corpus row {rid}: value must be a positive number, got {row['value']!r}")
    if row.get("cuda_graphs") not in (None, *CUDA_GRAPHS):
        raise CorpusError(f"corpus row {rid}: cuda_graphs {row['cuda_graphs']!r} (known: {', '.join(CUDA_GRAPHS)})")
    assumptions = tuple(src.get("assumptions", ())) + tuple(row.get("assumptions", ()))
    train = {**src.get("train", {}), **row.get("train", {})}
    fields = {k: row[k] for k in ROW_FIELDS}
    fields["layout"] = {**src.get("layout", {}), **row["layout"]}
    return Run(**fields, grid=row.get("grid"), pair=row.get("pair"), delay_wgrad=bool(row.get("delay_wgrad", False)),
               cuda_graphs=row.get("cuda_graphs"), train=train,
               cluster=dict(src.get("cluster", {})), lacks=tuple(row.get("lacks", ())), assumptions=assumptions)


def load(path: Path = CORPUS) -> Corpus:
    """The corpus file, every row checked for its fields (CorpusError names the first bad one)."""
    data = yaml.safe_load(Path(path).read_text())
    sources = data["sources"]
    runs = tuple(_run(r, sources) for r in data["runs"])
    ids = [r.id for r in runs] + [u["id"] for u in data.get("unpriceable", [])]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise CorpusError(f"corpus: ids given twice: {', '.join(dup)}")
    return Corpus(sources, data.get("models", {}), runs, tuple(data.get("unpriceable", [])))


# --------------------------------------------------------------------------- the model

def model_spec(name: str, models: dict):
    """A preset, or a model the corpus defines (HF config.json values, with their provenance)."""
    from planner.specs import ModelSpec, load_model, model_names
    if name in model_names():
        return load_model(name)
    if name not in models:
        raise CorpusError(f"corpus: model {name!r} is neither a preset nor in the corpus' models table")
    spec = dict(models[name])
    spec.pop("provenance", None)
    base = spec.pop("base", None)
    if base is not None:                                   # a preset with some fields changed
        parent = model_spec(base, models).model_dump()
        moe = {**(parent.get("moe") or {}), **spec.pop("moe", {})}
        return ModelSpec(**{**parent, **spec, "name": name, "moe": moe or None})
    return ModelSpec(name=name, **spec)


def fine_grained(model) -> bool:
    """Whether the model is in the fine-grained regime (FINE)."""
    m = model.moe
    if m is None:
        return False
    return all(lo <= getattr(m, k) <= hi for k, (lo, hi) in FINE.items())


# --------------------------------------------------------------------------- problem and layout

def bridge_segment(nodes: int) -> int:
    """Hosts per NVLink domain that Megatron-Bridge's performance launcher asks SLURM for on 4-GPU hosts
    (GB200 / GB300): all the job's hosts up to 18 (one NVL72 rack), else the largest divisor of the host
    count up to 18 (scripts/performance/utils/executors.py @ 067f987df03b, `--segment`): 64 hosts run
    as four domains of 16 hosts, 64 GPUs each."""
    return nodes if nodes <= 18 else next(s for s in range(18, 0, -1) if nodes % s == 0)


def problem(run: Run, model):
    """The row's problem: the engine's training defaults, then what the row states."""
    from planner.engines import constraints
    from planner.specs import make_problem
    from planner.specs.catalog import load_gpu
    train = dict(constraints(run.engine).train_defaults(model, run.gpu))
    train.update(dispatchers=(run.dispatcher,), ep_overlap=run.ep_overlap, precision=run.precision,
                 routing=run.routing)
    train.update(run.train)
    gpu = load_gpu(run.gpu)
    domain = {}
    if run.cluster.get("segment") == "megatron-bridge" and gpu.domain > gpu.gpus_per_node:
        per_node = gpu.gpus_per_node
        domain["used_per_domain"] = per_node * bridge_segment(max(1, run.gpus // per_node))
    return make_problem(model=model, gpu=run.gpu, gpus=run.gpus, seq=run.seq, global_batch=run.global_batch,
                        memory_fraction=1.0, **domain, **train)


def _recompute_keys(recompute: Optional[str]) -> list[str]:
    if recompute is None:
        return []
    if recompute.startswith("selective:"):
        return ["recompute=selective", "recompute_modules=" + recompute.split(":", 1)[1]]
    return [f"recompute={recompute}"]


def layout_string(run: Run) -> str:
    """The layout string of what the row states (planner/layout/strings.py's grammar)."""
    keys = [f"{k}={run.layout[k]}" for k in ("tp", "cp", "pp", "vpp", "ep", "etp", "edp", "micro_batch", "sharding",
                                             "stages") if k in run.layout]
    keys += [f"dispatcher={run.dispatcher}", f"ep_overlap={str(run.ep_overlap).lower()}",
             f"delay_wgrad={str(run.delay_wgrad).lower()}"]
    return ",".join(keys + _recompute_keys(run.recompute))


def searched(run: Run) -> bool:
    """Whether the row leaves the virtual stages open (the planner's search chooses them)."""
    return "vpp" not in run.layout


def _searched_layout(run: Run, pr, time_limit: float):
    from planner.solve import targets
    fixed = {k: v for k, v in run.layout.items() if k in ("tp", "cp", "pp", "ep", "etp", "micro_batch")}
    tcd = run.gpus // run.layout.get("pp", 1)
    fixed["dp"] = tcd // (run.layout.get("tp", 1) * run.layout.get("cp", 1))
    fixed["edp"] = tcd // (run.layout.get("etp", 1) * run.layout.get("ep", 1))
    res = targets.search(pr, top=1, fixed=fixed, time_limit=time_limit, settle=False)
    if not res.plans:
        return None, ("the planner's search found no plan at the published degrees",)
    L = res.plans[0].layout
    return L, (f"vpp={L.vpp}, micro_batch={L.micro_batch}, recompute: the planner's best plan at the published "
               f"degrees (search, target {run.engine})",)


def build(run: Run, model, time_limit: float = 10.0):
    """(problem, layout or None, the `assumed` lines of what the planner filled in)."""
    from planner.solve.complete import layout_from_string
    pr = problem(run, model)
    if searched(run):
        L, assumed = _searched_layout(run, pr, time_limit)
        return pr, L, assumed
    L, assumed = layout_from_string(layout_string(run), pr, check=False)
    return pr, L, tuple(assumed)


def estimate_of(run: Run, est) -> float:
    """The cost model's estimate in the row's metric."""
    return {"tokens_per_s_per_gpu": est.tokens_per_s_per_gpu, "step_s": est.step_time, "mfu": est.mfu,
            "tflops": est.flops_per_gpu / 1e12}[run.metric]


def throughput(run: Run, value: float) -> float:
    """A value of the row's metric as a throughput (higher is faster)."""
    return 1 / value if run.metric == "step_s" else value


def throughput_error(run: Run, estimate: float) -> float:
    """Estimated throughput / published - 1 (a step-time row: published seconds / estimated - 1); nan for a
    tflops row (an unstated FLOP count: scored in its pair only)."""
    if run.metric == "tflops" or not (estimate > 0 and math.isfinite(estimate)):
        return float("nan")
    return run.value / estimate - 1 if run.metric == "step_s" else estimate / run.value - 1

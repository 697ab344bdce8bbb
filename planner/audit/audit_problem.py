"""The config as foldplan sees it: a ``Problem`` (model, GPUs, sequence, batch, numerics) and a ``Layout``.

The model comes from the config's own shapes; where the config lacks some, from the model
the caller chose (``--model``): never from a stand-in. The layout is the framework's: its
split of layers over stages (even, uneven, or spelled out per stage), its recompute
(full layers, selective modules, torchtitan's every-n-th block), its data-parallel
sharding and master copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from pydantic import ValidationError

from planner import engines
from planner.layout import Layout, LayoutError, Stage, cp_split, uniform_stages
from planner.specs import ModelSpec, Problem, SpecError, TrainSpec, build

from planner.engines.torchtitan.read import TITAN_PRESETS  # noqa: F401  (re-exported)
from planner.layout.foreign import Finding, ForeignConfig, exact_div
from planner.specs.kinds import sharding_of_stage

MODEL_KEYS = ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab")


def reader_of(cfg: ForeignConfig):
    """The reader module of the engine whose config this is (None: a foldplan plan or a layout string)."""
    return engines.engine(cfg.format).part("reader") if cfg.format in engines.read_formats() else None


def plain_layer_freq(moe: dict) -> dict:
    """A ``layer_freq`` list of k dense layers then all MoE as ``layer_freq=1, first_dense_layers=k``
    (the same layers, MoESpec's int form)."""
    freq = moe.get("layer_freq")
    if isinstance(freq, list) and freq:
        k = next((i for i, v in enumerate(freq) if v), len(freq))
        if all(freq[k:]) and k < len(freq):
            return {**moe, "layer_freq": 1, "first_dense_layers": k}
    return moe


def missing_shapes(cfg: ForeignConfig) -> list[str]:
    """The model shapes a model needs that the config does not give."""
    return [k for k in MODEL_KEYS if k not in cfg.model]


def config_model(cfg: ForeignConfig) -> ModelSpec:
    """The config's own model (every shape given); SpecError names what is wrong."""
    data = {k: v for k, v in cfg.model.items()}
    data["name"] = cfg.model_name or Path(cfg.path).stem
    if "moe" in data and data["moe"] is not None:
        moe = plain_layer_freq(dict(data["moe"]))
        if not moe.get("shared_ffn_hidden"):
            moe["shared_experts"], moe["shared_ffn_hidden"] = 0, 0
        data["moe"] = moe
    return build(ModelSpec, data, "model")


def model_spec(cfg: ForeignConfig, base: ModelSpec) -> tuple[Optional[ModelSpec], list[Finding]]:
    """The config's model hyperparameters over ``base`` (the preset); the config wins where it speaks."""
    found = cfg.model
    data = base.model_dump()
    missing = [k for k in MODEL_KEYS if k not in found]
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
            moe = plain_layer_freq(moe)
            if not moe.get("shared_ffn_hidden"):
                moe["shared_experts"], moe["shared_ffn_hidden"] = 0, 0
            data["moe"] = moe
        elif key in data:
            if data[key] != value:
                overridden.append(key)
            data[key] = value
    dense_without_moe = getattr(reader_of(cfg), "DENSE_WITHOUT_MOE", False)
    if {"layers", "hidden"} & found.keys() and "moe" not in found and dense_without_moe:
        data["moe"] = None  # e.g. a Megatron script that gives the model without --num-experts: a dense model
    if data.get("attention") != "mla":
        data["mla"] = None
    findings = []
    if found and missing:
        findings.append(Finding("info", "audit.model_from_preset",
                                f"{cfg.path}: the config does not give {', '.join(missing)}; taken from model "
                                f"{base.name!r}", "pass --model to choose the preset the rest comes from"))
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
        train["routing"] = "capacity"
    for key in ("routing", "balancing", "capacity_pad"):       # MoE routing (planner.costmodel.routing)
        if cfg.extra.get(key) is not None:
            train[key] = cfg.extra[key]
    if train.get("routing") != "capacity" and train.get("routing") != "forced":
        train["capacity_factor"] = None
    if cfg.sequence_parallel is not None:
        train["sequence_parallel"] = bool(cfg.sequence_parallel)
    if cfg.sharding is not None:
        train["distributed_optimizer"] = cfg.sharding != "none"
    elif cfg.distributed_optimizer is not None:
        train["distributed_optimizer"] = bool(cfg.distributed_optimizer)
    if cfg.extra.get("logit_bytes"):
        train["logit_bytes"] = float(cfg.extra["logit_bytes"])
    if cfg.extra.get("loss_logits"):                 # how the config's loss keeps the logits (kinds.LOSS_LOGITS)
        train["loss_logits"] = cfg.extra["loss_logits"]
    if cfg.master:                                   # what the config stores per parameter (kinds.MASTERS)
        train["master"] = cfg.master
    if cfg.extra.get("kernels"):
        train["kernels"] = cfg.extra["kernels"]
    for k in ("precision", "fp8_param_gather", "fp8_library"):   # FP8: what the config runs
        if k in cfg.extra:
            train[k] = cfg.extra[k]
    for key in ("cp_comm", "cp_balance", "attention_kernel"):    # CP and attention as the engine runs them
        if cfg.extra.get(key):
            train[key] = cfg.extra[key]
    if "op" in cfg.recompute_modules:        # torchtitan's per-op SAC: the best plan may use it too (alone)
        train["recompute_modules"] = ("op",)
    if cfg.grad_reduce_bytes is not None and "grad_reduce_bytes" in TrainSpec.model_fields:
        train["grad_reduce_bytes"] = cfg.grad_reduce_bytes
    if cfg.overlap_grad_reduce is not None:
        train["overlap_grad_reduce"] = bool(cfg.overlap_grad_reduce)
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
    if cfg.stage_layers:
        return list(cfg.stage_layers)
    split = getattr(reader_of(cfg), "stage_sizes", None)          # the engine's own rule (Megatron's first / last)
    sizes = split(cfg, layers, pp) if split else None
    if sizes:
        return sizes
    emb = int(bool(cfg.extra.get("account_embedding")))
    loss = int(bool(cfg.extra.get("account_loss")))
    per = exact_div(layers + emb + loss, pp)
    if per is not None and per - emb > 0 and per - loss > 0:
        sizes = [per] * pp
        sizes[0] -= emb
        sizes[-1] -= loss
        return sizes
    return [s.num_layers for s in uniform_stages(layers, pp)]


def _recompute(cfg: ForeignConfig, kind: Optional[str], n: int, vpp: int, first: int = 0) -> tuple[int, int]:
    """(recompute_full, recompute_selective) layers of a stage of ``n`` layers from layer ``first``."""
    if kind == "full":
        k = cfg.extra.get("ac_every_global")
        if k:                 # OLMo-core's selected_blocks: block i with i % k == 0, i counted over the model
            return sum(1 for i in range(first, first + n) if i % k == 0), 0
        every = cfg.extra.get("ac_every")
        if every:
            return n // every, 0  # torchtitan: full AC on every n-th block
        if cfg.recompute_method == "block" and cfg.recompute_num_layers is not None:
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
        if problem.model.moe is None:      # a dense model has no expert view (Megatron's etp = tp default
            etp, ep = 1, 1                 # and torchtitan's etp key mean nothing without experts)
        given = cfg.edp if not change and cfg.format in ("layout", "foldplan") else None
        edp = src.get("edp") or given or exact_div(tp * cp * dp, etp * ep)
        if edp is None:
            raise LayoutError(f"etp({etp})*ep({ep}) does not divide tp({tp})*cp({cp})*dp({dp})={tp * cp * dp}")
        kept: tuple = ()
        if src and not change:
            full, sel = src.get("recompute_full", 0), src.get("recompute_selective", 0)
            kept = tuple(src.get("recompute_modules") or ())  # a foldplan plan's own modules
        else:
            full, sel = _recompute(cfg, knobs["recompute"], n, vpp, first)
        kept = kept or _applicable(cfg.recompute_modules, problem.model)
        modules = {"recompute_modules": kept} if kept and sel else {}
        stages.append(Stage(index=i, layers=(first, first + n), etp=etp, ep=ep, edp=edp,
                            recompute_full=full, recompute_selective=sel, **modules))
        first += n
    return Layout(world=tp * cp * dp * pp, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp,
                  cp_kind=kind, cp_ulysses=cu, cp_ring=cr, order=cfg.extra.get("order") or "tp-cp-dp-pp",
                  micro_batch=mb, num_microbatches=n_micro, stages=tuple(stages),
                  cp_comm=cfg.extra.get("cp_comm", problem.train.cp_comm),
                  cp_balance=cfg.extra.get("cp_balance", problem.train.cp_balance), **_sharding(cfg),
                  **{k: cfg.extra[k] for k in ("dispatcher", "ep_overlap", "delay_wgrad") if k in cfg.extra})


def _applicable(modules: tuple, model: ModelSpec) -> tuple:
    """The recompute modules that exist in the model (Megatron skips mla_up_proj without MLA, moe without MoE)."""
    moe = model.moe
    absent = set()
    if model.attention != "mla":
        absent.add("mla_up_proj")
    if moe is None:
        absent |= {"moe", "moe_act", "shared_experts"}
    elif not moe.shared_experts:
        absent.add("shared_experts")
    return tuple(m for m in modules if m not in absent)


def _sharding(cfg: ForeignConfig) -> dict:
    """The layout's ``sharding`` / ``master`` fields, where the config says them."""
    out = {}
    if cfg.sharding is not None and "sharding" in Layout.model_fields:
        out["sharding"] = cfg.sharding
    elif cfg.zero_stage is not None and "sharding" in Layout.model_fields:
        out["sharding"] = sharding_of_stage(cfg.zero_stage).name
    if cfg.master is not None and "master" in Layout.model_fields:
        out["master"] = cfg.master
    return out


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


"""torchtitan job TOML -> ForeignConfig.

Keys read (torchtitan/config/job_config.py; defaults in brackets):

``[parallelism]`` data_parallel_replicate_degree [1], data_parallel_shard_degree
[-1 = the leftover ranks, needs the world size], tensor_parallel_degree [1],
context_parallel_degree [1], context_parallel_rotate_method [allgather],
pipeline_parallel_degree [1], pipeline_parallel_schedule [1F1B],
pipeline_parallel_microbatch_size [1], expert_parallel_degree [1],
expert_tensor_parallel_degree [1];
``[training]`` seq_len, local_batch_size (older: batch_size), global_batch_size
[-1 = local x dp, dp = dp_replicate x dp_shard; larger = gradient accumulation];
``[activation_checkpoint]`` mode [selective] (none | selective | full | memory_budget) and
selective_ac_option ["2": full AC on every 2nd block; "op": per-op SAC]; ``[model]`` name,
flavor (recorded as ``model_name = "name:flavor"``: the TOML holds no model shapes);
``[compile]`` enable [false], components [model, loss] (older: ``[training]`` compile): the
model compiled fuses its elementwise ops (TrainSpec.kernels "fused"), else "eager".

Sharding (torchtitan/distributed/fsdp.py at the last TOML commit, 238fa99):
dp_shard > 1 is FSDP2 ``fully_shard``; ``parallelism.fsdp_reshard_after_forward``
["default"]: "always" reshards after forward (zero3), "never" keeps parameters gathered
until backward (zero2), "default" is ``not pp_enabled`` (zero3 without PP, zero2 with
it). dp_shard == 1 with dp_replicate > 1 is DDP (none). The master is the sharded fp32
parameter (``master = "fp32"``). HSDP (both > 1) shards over dp_shard only: recorded as
``extra["hsdp_replicate"]``.

Folding: torchtitan's expert mesh reuses the dense ranks (EP is not a factor of
the world size), so ``dp = dp_replicate * dp_shard`` and
``edp = tp * cp * dp / (etp * ep)``. torchtitan's context parallel is ring
attention; the rotate method only says how KV shards travel (``allgather``
gathers them, ``alltoall`` passes them round the ring), so it maps to
``cp_kind`` "allgather" or "ring".

``extra`` keys: ``dp_replicate``, ``dp_shard`` (after -1 is resolved, else -1), ``local_batch``,
``model_name``, ``flavor``, ``rotate_method``.
"""

from __future__ import annotations

import re
import tomllib

from planner.engines.torchtitan import vocab
from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div, product
from planner.engines.torchtitan.read.parts import chunk_note, model_parts as _model_parts
from planner.engines.torchtitan.read.precision import precision_of

# torchtitan [model] name:flavor -> foldplan preset (only where the shapes are the same model)
TITAN_PRESETS = {"llama3:8B": "llama3-8b", "llama3:70B": "llama3-70b", "llama3:405B": "llama3.1-405b",
                 "deepseek_v3:671B": "deepseek-v3", "qwen3:30B-A3B": "qwen3-30b-a3b",
                 "qwen3:235B-A22B": "qwen3-235b-a22b"}

_PARALLELISM = vocab.DEFAULTS            # module_fqns_per_model_part is read by _model_parts
_RESHARD = vocab.RESHARD_VALUES
_TRAINING = {"seq_len", "local_batch_size", "batch_size", "global_batch_size"}
_AC_MODES = {"none": "none", "selective": "selective", "full": "full"}


def _key_lines(text: str) -> dict[str, int]:
    """``"section.key" -> line`` for the simple ``key = value`` lines of a TOML text."""
    out: dict[str, int] = {}
    section = ""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        m = re.match(r"^\[+\s*([^\]]+?)\s*\]+$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^([A-Za-z0-9_\-\"']+)\s*=", line)
        if m:
            out[f"{section}.{m.group(1).strip(chr(34) + chr(39))}"] = n
    return out


def _load(text: str, path: str) -> dict:
    big = re.search(r"^\s*([\w.\"-]+)\s*=\s*[-+]?[0-9_]{19,}\s*$", text, re.M)
    if big:                               # past Python's int digit limit (and any degree or size)
        line = text.count("\n", 0, big.start()) + 1
        raise AuditParseError(path, line, f"{big.group(1)[:40]}: an integer of more than 18 digits")
    try:
        return tomllib.loads(text)
    except ValueError as e:
        if not isinstance(e, tomllib.TOMLDecodeError):
            raise AuditParseError(path, None, f"not valid TOML ({str(e).splitlines()[0][:120]})") from None
        m = re.search(r"\(at line (\d+), column \d+\)", str(e))
        line = int(m.group(1)) if m else None
        if "(at end of document)" in str(e):
            line = max(1, len(text.splitlines()))
        what = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", str(e)) or "invalid TOML"
        raise AuditParseError(path, line, f"invalid TOML: {what}") from None


class _Par:
    """The [parallelism] table with torchtitan's defaults, and the notes a parse collects."""

    def __init__(self, par: dict, where: dict[str, int], path: str):
        self.par, self.where, self.path = par, where, path
        self.assumed: list[str] = []
        self.lines: dict[str, int] = {}

    def get(self, key: str, fld: str | None = None):
        par, where = self.par, self.where
        if key in par:
            value = par[key]
            if fld and f"parallelism.{key}" in where:
                self.lines[fld] = where[f"parallelism.{key}"]
        else:
            value = _PARALLELISM[key]
            if fld and value not in (1, -1):
                self.assumed.append(f"{fld}={value}: {key} not given (torchtitan default)")
        expected = str if isinstance(_PARALLELISM[key], str) else int
        if not isinstance(value, expected) or isinstance(value, bool):
            raise AuditParseError(self.path, where.get(f"parallelism.{key}"),
                                  f"{key} must be {'a string' if expected is str else 'an integer'}, got {value!r}")
        return value


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """The config on `world` GPUs: with data_parallel_shard_degree = -1, dp_shard takes the leftover
    ranks (and the global batch follows dp unless the TOML gives it); a fixed dp_shard keeps its degrees."""
    if cfg.extra.get("dp_shard", -1) != -1:
        return cfg.replace(world=world)
    rep = cfg.extra.get("dp_replicate", 1)
    shard = exact_div(world, product(rep, cfg.cp, cfg.tp, cfg.pp))
    dp = product(rep, shard)
    gb = cfg.global_batch if cfg.extra.get("global_batch_given") else product(cfg.extra.get("local_batch"), dp)
    return cfg.replace(world=world, dp=dp, edp=exact_div(product(cfg.tp, cfg.cp, dp), product(cfg.etp, cfg.ep)),
                       global_batch=gb, extra={**cfg.extra, "dp_shard": shard if shard else -1})


def _degrees(g: _Par, world: int | None) -> dict:
    """The parallel degrees, checked; world and dp_shard derived from each other when one is missing."""
    par, where, path, assumed = g.par, g.where, g.path, g.assumed
    rep, shard, tp, cp, pp, ep, etp = (g.get(vocab.key(f), f) for f in ("dp_replicate", "dp_shard", "tp", "cp",
                                                                       "pp", "ep", "etp"))
    rotate = g.get("context_parallel_rotate_method", "cp_kind" if "context_parallel_rotate_method" in par else None)
    for name, v in (("data_parallel_replicate_degree", rep), ("tensor_parallel_degree", tp),
                    ("context_parallel_degree", cp), ("pipeline_parallel_degree", pp),
                    ("expert_parallel_degree", ep), ("expert_tensor_parallel_degree", etp)):
        if v < 1:
            raise AuditParseError(path, where.get(f"parallelism.{name}"), f"{name} must be >= 1, got {v}")
    if shard == 0 or shard < -1:
        raise AuditParseError(path, where.get("parallelism.data_parallel_shard_degree"),
                              f"data_parallel_shard_degree must be -1 or >= 1, got {shard}")
    if shard == -1:
        if "data_parallel_shard_degree" not in par:
            assumed.append("dp_shard=-1: data_parallel_shard_degree not given (torchtitan default: the leftover ranks)")
        shard = exact_div(world, rep * cp * tp * pp) if world else None
        if world is None:
            assumed.append("world unknown and data_parallel_shard_degree=-1: dp cannot be derived (pass --gpus)")
    elif world is None:
        world = rep * shard * cp * tp * pp
        assumed.append(f"world={world}: dp_replicate*dp_shard*cp*tp*pp, the config's own product")
    dp = product(rep, shard)
    edp = exact_div(product(tp, cp, dp), etp * ep)
    return dict(rep=rep, shard=shard, tp=tp, cp=cp, pp=pp, ep=ep, etp=etp, rotate=rotate, world=world, dp=dp,
                edp=edp)


def _batch(g: _Par, training: dict, pp: int, dp) -> dict:
    """Local, micro and global batch and the sequence length of [training]."""
    where, path, lines = g.where, g.path, g.lines
    local = training.get("local_batch_size", training.get("batch_size"))
    seq = training.get("seq_len")
    global_batch = training.get("global_batch_size", -1)
    for key, v, low in (("local_batch_size", local, 1), ("seq_len", seq, 1), ("global_batch_size", global_batch, -1)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < low or v == 0):
            raise AuditParseError(path, where.get(f"training.{key}"),
                                  f"training.{key} must be a positive integer, got {v!r}")
    micro = local
    if pp > 1:
        micro = g.get("pipeline_parallel_microbatch_size", "micro_batch")
        if micro < 1:
            raise AuditParseError(path, where.get("parallelism.pipeline_parallel_microbatch_size"),
                                  f"pipeline_parallel_microbatch_size must be >= 1, got {micro}")
    elif local is not None:
        lines["micro_batch"] = where.get("training.local_batch_size", where.get("training.batch_size"))
    if local is None:
        g.assumed.append("local_batch_size not given")
    global_batch_given = global_batch != -1
    if global_batch == -1:
        global_batch = product(local, dp)
    else:
        lines["global_batch"] = where.get("training.global_batch_size")
    if seq is not None:
        lines["seq"] = where.get("training.seq_len")
    return dict(local=local, seq=seq, micro=micro, global_batch=global_batch, global_batch_given=global_batch_given)


def parse(text: str, path: str, world: int | None = None) -> ForeignConfig:
    """A torchtitan 0.2 job TOML (the release whose job config is TOML)."""
    return parse_doc(_load(text, path), _key_lines(text), path, world, "torchtitan 0.2 job TOML")


def parse_doc(doc: dict, where: dict[str, int], path: str, world: int | None, version: str,
              assumed_first: tuple[str, ...] = ()) -> ForeignConfig:
    """The config from its tables ({"parallelism": {...}, "training": {...}, ...}; `where`: "table.key" ->
    line), read from a TOML (0.2) or from a 0.3 config module's syntax tree (read_py.py)."""

    def table(name: str) -> dict:
        value = doc.get(name, {})
        if not isinstance(value, dict):
            raise AuditParseError(path, where.get(f".{name}"), f"{name} must be a [{name}] table, got {value!r}")
        return value

    par, training, ac_table, model, comp, debug = (table(n) for n in ("parallelism", "training",
                                                                    "activation_checkpoint", "model", "compile",
                                                                    "debug"))
    if not par and not training:
        raise AuditParseError(path, None, "no [parallelism] or [training] table: not a torchtitan job config")
    g = _Par(par, where, path)
    assumed, lines = g.assumed, g.lines
    assumed += [f"read as a {version}", *assumed_first]
    unknown = [f"parallelism.{k}" for k in par if k not in _PARALLELISM]
    unknown += [f"training.{k}" for k in training if k not in _TRAINING and k.startswith(("seq", "batch"))]
    d = _degrees(g, world)
    tp, cp, pp, shard, rotate = d["tp"], d["cp"], d["pp"], d["shard"], d["rotate"]
    b = _batch(g, training, pp, d["dp"])
    stage_layers, vpp = _model_parts(par, where, path, pp)
    assumed += chunk_note(par.get("module_fqns_per_model_part"), stage_layers, vpp)

    recompute, ac_every, effects = _activation_checkpoint(ac_table, where, lines, assumed, path)
    reshard = g.get("fsdp_reshard_after_forward")
    if reshard not in _RESHARD:
        raise AuditParseError(path, where.get("parallelism.fsdp_reshard_after_forward"),
                              f"fsdp_reshard_after_forward must be one of {', '.join(_RESHARD)}, got {reshard!r}")
    sharding = _sharding(d["rep"], shard, cp, pp, reshard)

    kernels = _kernels(comp, training, where, lines, assumed, path)
    prec, other_conv = precision_of(doc, model, assumed, shard is None or shard > 1)   # None: the leftover ranks
    effects += _unmodelled({**model, "converters": other_conv}, comp, par)
    name, flavor = model.get("name"), model.get("flavor")
    model_name = f"{name}:{flavor}" if name and flavor else (str(name or flavor) if name or flavor else None)
    extra = {"dp_replicate": d["rep"], "dp_shard": shard if shard is not None else -1, "local_batch": b["local"],
             "rotate_method": rotate, "model_name": name, "flavor": flavor, "reshard": reshard,
             "global_batch_given": b["global_batch_given"], "ac_every": ac_every,
             # eager F.cross_entropy on .float() logits (0.2's loss), or 0.3's ChunkedLossWrapper (lm_head +
             # loss chunk by chunk): TrainSpec.loss_logits (planner.specs.kinds.LOSS_LOGITS)
             "logit_bytes": 12, "loss_logits": model.get("loss", "upcast"), "kernels": kernels, "version": version,
             **_routing(debug, where, lines, path),
             **prec}
    cp_kind = vocab.ROTATE.get(rotate, "allgather") if cp > 1 else None
    extra.update(cp_impl(version, rotate, par.get("context_parallel_load_balancer", "headtail")))
    if cp > 1 and "context_parallel_rotate_method" not in par:
        assumed.append("cp_kind=allgather: " + ("context_parallel_rotate_method not given (torchtitan default)"
                                                if "0.2" in version else "0.3 runs FlexAttention with K/V all-gathered "
                                                "(cp_comm ag-flex), whatever the rotate method"))
    return ForeignConfig(
        format="torchtitan", path=path,
        tp=tp, cp=cp, dp=d["dp"], pp=pp, vpp=vpp, etp=d["etp"], ep=d["ep"], edp=d["edp"],
        cp_kind=cp_kind, cp_ulysses=1 if cp > 1 else None, cp_ring=cp if cp > 1 else None,
        world=d["world"], micro_batch=b["micro"], global_batch=b["global_batch"], seq=b["seq"],
        recompute=recompute, sequence_parallel=tp > 1, sharding=sharding, master=_master(training),
        recompute_modules=("op",) if recompute == "selective" else (),     # selective AC here is per-op SAC
        pp_schedule=g.get("pipeline_parallel_schedule") if pp > 1 else None, stage_layers=stage_layers,
        model={}, model_name=model_name, extra=extra,
        unknown_flags=tuple(unknown), effects=tuple(effects), lines={k: v for k, v in lines.items() if v}, assumed=tuple(assumed),
    )


def _master(training: dict) -> str:
    """What is stored per parameter: training.dtype = "bfloat16" is pure bf16 (parameters, gradients and
    optimizer states in bf16, no fp32 copy: torchtitan/config/configs.py TrainingConfig.dtype, 0.3.0), else
    FSDP2 mixed precision over fp32 parameters (the sharded fp32 param is the master)."""
    return "bf16" if training.get("dtype") in ("bfloat16", "bf16") else "fp32"


def _routing(debug: dict, where: dict, lines: dict, path: str) -> dict:
    """MoE routing: torchtitan's MoE is dropless; ``[debug] moe_force_load_balance`` routes round robin
    (0.3: torchtitan/config/configs.py:365, models/common/moe.py:225; 0.2.2: job_config.py:995). Its
    balancing is the loss-free expert bias, on by default (load_balance_coeff 1e-3, set in the model's
    code, not the job config: models/common/moe.py:369)."""
    force = debug.get("moe_force_load_balance", False)
    if not isinstance(force, bool):
        raise AuditParseError(path, where.get("debug.moe_force_load_balance"),
                              f"debug.moe_force_load_balance must be true or false, got {force!r}")
    if "moe_force_load_balance" in debug:
        lines["routing"] = where.get("debug.moe_force_load_balance")
    return {"routing": "forced" if force else "dropless", "balancing": "aux-free"}


def _kernels(comp: dict, training: dict, where: dict, lines: dict, assumed: list, path: str) -> str:
    """TrainSpec.kernels: "fused" when torch.compile compiles the model (``[compile]`` enable with
    "model" in components; older TOMLs: ``[training]`` compile), else "eager"."""
    if "enable" in comp:
        on, key = comp["enable"], "compile.enable"
    elif "compile" in training:
        on, key = training["compile"], "training.compile"
    else:
        assumed.append("kernels=eager: [compile] enable not given (torchtitan default: no torch.compile)")
        return "eager"
    if not isinstance(on, bool):
        raise AuditParseError(path, where.get(key), f"{key} must be true or false, got {on!r}")
    lines["kernels"] = where.get(key)
    parts = comp.get("components", ["model", "loss"])
    if not isinstance(parts, list):
        raise AuditParseError(path, where.get("compile.components"),
                              f"compile.components must be a list of names, got {parts!r}")
    return "fused" if on and "model" in parts else "eager"


def _unmodelled(model: dict, comp: dict, par: dict) -> list:
    """What the config turns on that the estimate does not model (named in the audit's one warning):
    float8 / mx converters (0.2 [model] converters; 0.3 model_registry(..., converters=[...])), the
    loss compiled (compile.components "loss"), async TP (0.2 parallelism / 0.3 compile
    enable_async_tensor_parallel)."""
    out = []
    conv = model.get("converters") or []
    if conv:
        out.append((f"converters {', '.join(map(str, conv))}", "time and memory",
                    "low-precision matmuls: the estimate prices bf16 GEMMs and bf16 weights"))
    if comp.get("enable") and "loss" in comp.get("components", ["model", "loss"]):
        out.append(("compile.components loss", "memory",
                    "the loss compiled (fused cross entropy): the estimate keeps 12 bytes per logit (eager)"))
    if par.get("enable_async_tensor_parallel") or comp.get("enable_async_tensor_parallel"):
        out.append(("enable_async_tensor_parallel", "time",
                    "TP collectives overlapped with their GEMMs: the estimate exposes them"))
    return out


def _sharding(rep: int, shard: int | None, cp: int, pp: int, reshard: str) -> str:
    """FSDP2 over dp_shard x cp, torchtitan's fsdp mesh (0.2.2 distributed/parallel_dims.py:334
    fsdp_enabled = dp_shard_enabled or cp_enabled; 0.3.0 the same, build_mesh's "fsdp" = dp_shard * cp):
    zero3 when parameters are resharded after forward, zero2 when not; DDP (none) only when neither
    dp_shard nor cp is above 1."""
    if shard is not None and shard == 1 and cp == 1:
        return "none"
    return vocab.RESHARD.get(reshard, "zero3" if pp == 1 else "zero2")


def _activation_checkpoint(ac_table: dict, where: dict, lines: dict, assumed: list, path: str):
    """(recompute kind, every-nth-layer for integer selective AC or None, effects)."""
    mode = ac_table.get("mode", "selective")
    if "mode" in ac_table:
        lines["recompute"] = where.get("activation_checkpoint.mode")
    else:
        assumed.append("recompute=selective: [activation_checkpoint] mode not given (torchtitan default)")
    if mode not in ("none", "selective", "full", "memory_budget"):
        raise AuditParseError(path, where.get("activation_checkpoint.mode"),
                              f"activation_checkpoint.mode must be none, selective, full or memory_budget, "
                              f"got {mode!r}")
    effects = []
    if mode == "memory_budget":
        effects.append(("activation_checkpoint.mode memory_budget", "memory and time",
                        "the compiler picks what to recompute under a budget (estimated as full recompute)"))
        return "full", None, effects
    if mode != "selective":
        return mode, None, effects
    option = str(ac_table.get("selective_ac_option", "2"))
    if option == "op":      # per-op SAC: recompute module "op" (planner.costmodel.formulas OP_TERMS)
        return "selective", None, effects
    if not option.isdigit() or not 1 <= int(option) <= 10_000:
        raise AuditParseError(path, where.get("activation_checkpoint.selective_ac_option"),
                              f"activation_checkpoint.selective_ac_option must be 'op' or a positive integer, "
                              f"got {option!r}")
    if "selective_ac_option" not in ac_table:
        assumed.append("selective_ac_option=2: not given (torchtitan default: full AC on every 2nd block)")
    return "full", int(option), effects


def cp_impl(version: str, rotate: str, balancer) -> dict:
    """CP and attention as this torchtitan version runs them (planner.specs.cp_impl): 0.3's language
    models run FlexAttention (models/common/config_utils.py:83-101) and its CP all-gathers K/V
    (distributed/context_parallel/api.py:57-78) whatever the rotate method; 0.2 runs SDPA's ring
    with the rotate method (allgather by default: ag-ring; alltoall: p2p). The load balancer
    (0.3 config/configs.py:235, default headtail; None: contiguous chunks)."""
    if "0.3" in version:
        out = {"cp_comm": "ag-flex", "attention_kernel": "flex"}
    else:
        out = {"cp_comm": "p2p" if rotate == "alltoall" else "ag-ring"}
    out["cp_balance"] = "none" if balancer in (None, "None") else "headtail"
    return out


"""DeepSpeed ``ds_config.json`` -> ForeignConfig.

A ds_config holds the batch, ZeRO and (for some engines) parallel sizes, not the
model; model shapes and anything the file lacks come from the command line
(``--gpus``, ``--seq``, ``--model``, ``--tp``, ...) as keyword overrides.

Keys read (DeepSpeed config reference; defaults in brackets):

* ``train_batch_size`` (sequences per step), ``train_micro_batch_size_per_gpu``,
  ``gradient_accumulation_steps``: DeepSpeed requires
  ``train_batch_size == micro * gas * dp``, so when the world size is not given
  ``dp = train_batch_size / (micro * gas)`` and ``world = dp * tp * pp * cp``;
* ``zero_optimization.stage`` [0];
* ``zero_optimization.overlap_comm`` [true at stage 3, else false: DeepSpeedZeroConfig's
  validator]: whether the gradient reduction overlaps the backward; without ZeRO (stage 0)
  the engine all-reduces after the backward;
* ``bf16.enabled`` / ``fp16.enabled``;
* ``activation_checkpointing`` present -> full recompute is assumed;
* ``tensor_parallel.autotp_size`` (AutoTP training) -> tp [1];
* ``pipeline.stages`` (an int; "auto" is ignored) -> pp [1];
* ``sequence_parallel_size`` (top level) or ``sequence_parallel.size`` ->
  DeepSpeed-Ulysses degree: cp with ``cp_kind = "ulysses"`` [1];
* ``moe``: ``{"ep_size", "num_experts", "top_k" (or "k"), "capacity_factor"}``
  — the arguments of ``deepspeed.moe.layer.MoE``, which ds_config itself does
  not carry; foldplan reads them from this block when a launcher puts them
  there. Experts are not tensor-split (etp = 1), so
  ``edp = tp * cp * dp / ep``.

``extra`` keys: ``gradient_accumulation_steps``, ``train_batch_size``, ``dtype``,
``capacity_factor``.
"""

from __future__ import annotations

import json

from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div, product
from planner.specs.kinds import sharding_of_stage
from planner import safeio


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """The config on `world` GPUs: dp = world / (tp*pp*sp), edp = tp*sp*dp / ep."""
    dp = exact_div(world, product(cfg.tp, cfg.pp, cfg.cp))
    return cfg.replace(world=world, dp=dp, edp=exact_div(product(cfg.tp, cfg.cp, dp), cfg.ep))


def _line_of(text: str, key: str) -> int | None:
    needle = f'"{key}"'
    pos = text.find(needle)
    return text.count("\n", 0, pos) + 1 if pos >= 0 else None


class _Reader:
    """The DeepSpeed JSON document with the notes a parse collects (assumed, lines)."""

    def __init__(self, doc: dict, text: str, path: str):
        self.doc, self.text, self.path = doc, text, path
        self.assumed: list[str] = []
        self.lines: dict[str, int] = {}

    def section(self, key: str) -> dict:
        value = self.doc.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise AuditParseError(self.path, _line_of(self.text, key), f"{key} must be a JSON object, got {value!r}")
        return value

    def integer(self, value, key: str) -> int | None:
        if value is None or value == "auto":
            if value == "auto":
                self.assumed.append(f'{key}="auto": left to the launcher, not audited')
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < (0 if key.endswith("stage") else 1):
            raise AuditParseError(self.path, _line_of(self.text, key.split(".")[-1]),
                                  f"{key} must be a positive integer, got {value!r}")
        return value

    def take(self, fld: str, given: int | None, value, key: str, default: int | None = 1) -> int | None:
        if given is not None:
            return given
        v = self.integer(value, key)
        if v is not None:
            if (ln := _line_of(self.text, key.split(".")[-1])) is not None:
                self.lines[fld] = ln
            return v
        if default is not None:
            self.assumed.append(f"{fld}={default}: {key} not given")
        return default


def _load(text: str, path: str) -> dict:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise AuditParseError(path, e.lineno, f"invalid JSON: {e.msg}") from None
    except ValueError:                      # an integer past Python's digit limit: read it bounded, named
        doc = None
    try:                                    # NaN / Infinity / huge integers refused, named by their key
        doc = safeio.load_json(text, path)
    except safeio.InputError as e:
        raise AuditParseError(path, None, str(e).removeprefix(f"{path}: ")) from None
    if not isinstance(doc, dict):
        raise AuditParseError(path, 1, "a DeepSpeed config must be a JSON object")
    return doc


def _batches(r: _Reader, world, tp, pp, cp, ep, micro, gas, train_batch) -> dict:
    """World, dp and the batch numbers DeepSpeed derives from whichever are given."""
    assumed = r.assumed
    if world is None and train_batch and micro and gas:
        dp = exact_div(train_batch, micro * gas)
        if dp is not None:
            world = dp * tp * pp * cp
            assumed.append(f"world={world}: train_batch_size({train_batch}) / (micro({micro}) * gas({gas})) "
                           f"* tp({tp}) * pp({pp}) * sp({cp})")
    if world is None:
        assumed.append("world unknown: pass --gpus")
    dp = exact_div(world, tp * pp * cp)
    # DeepSpeed derives whichever of the three batch numbers is missing
    if gas is None and train_batch and micro and dp:
        gas = exact_div(train_batch, micro * dp)
    if micro is None and train_batch and dp:
        micro = exact_div(train_batch, (gas or 1) * dp)
    global_batch = train_batch if train_batch is not None else product(micro, gas or 1, dp)
    edp = exact_div(product(tp, cp, dp), ep)
    return dict(world=world, dp=dp, micro_batch=micro, global_batch=global_batch, edp=edp)


def _model(r: _Reader, moe: dict, extra: dict) -> tuple[dict, str]:
    """dtype, recompute, the MoE block and capacity factor."""
    doc, text, path = r.doc, r.text, r.path
    for key in ("bf16", "fp16"):
        if r.section(key).get("enabled"):
            extra["dtype"] = key
    recompute = "full" if "activation_checkpointing" in doc else "none"
    if recompute == "full":
        r.assumed.append("recompute=full: an activation_checkpointing block is present")
    model: dict = {}
    if moe.get("num_experts") is not None:
        top_k = moe.get("top_k", moe.get("k", 1))
        model["moe"] = {"experts": r.integer(moe["num_experts"], "moe.num_experts"),
                        "top_k": r.integer(top_k, "moe.top_k")}
        r.lines["experts"] = _line_of(text, "num_experts")
    if "capacity_factor" in moe:
        cf = moe["capacity_factor"]
        if isinstance(cf, bool) or not isinstance(cf, (int, float)) or cf <= 0:
            raise AuditParseError(path, _line_of(text, "capacity_factor"),
                                  f"moe.capacity_factor must be a positive number, got {cf!r}")
        extra["capacity_factor"] = float(cf)
    return model, recompute


def parse(text: str, path: str, world: int | None = None, tp: int | None = None, pp: int | None = None,
          cp: int | None = None, ep: int | None = None, seq: int | None = None) -> ForeignConfig:
    doc = _load(text, path)
    r = _Reader(doc, text, path)
    section, take = r.section, r.take
    extra: dict = {}
    tp = take("tp", tp, section("tensor_parallel").get("autotp_size"), "tensor_parallel.autotp_size")
    pp = take("pp", pp, section("pipeline").get("stages"), "pipeline.stages")
    sp_value = doc.get("sequence_parallel_size", section("sequence_parallel").get("size"))
    cp = take("cp", cp, sp_value, "sequence_parallel_size")
    moe = section("moe")
    ep = take("ep", ep, moe.get("ep_size"), "moe.ep_size")
    micro = take("micro_batch", None, doc.get("train_micro_batch_size_per_gpu"),
                 "train_micro_batch_size_per_gpu", default=None)
    gas = take("gas", None, doc.get("gradient_accumulation_steps"), "gradient_accumulation_steps", default=None)
    train_batch = take("global_batch", None, doc.get("train_batch_size"), "train_batch_size", default=None)
    zero = take("zero_stage", None, section("zero_optimization").get("stage"), "zero_optimization.stage",
                default=0)
    if zero not in (0, 1, 2, 3):
        raise AuditParseError(path, _line_of(text, "stage"), f"zero_optimization.stage must be 0, 1, 2 or 3, got {zero}")
    overlap = section("zero_optimization").get("overlap_comm")
    overlap = zero >= 1 and (zero == 3 if overlap is None else bool(overlap))
    extra.update(gradient_accumulation_steps=gas, train_batch_size=train_batch, micro_batch=micro)
    b = _batches(r, world, tp, pp, cp, ep, micro, gas, train_batch)
    model, recompute = _model(r, moe, extra)
    return ForeignConfig(
        format="deepspeed", path=path,
        tp=tp, cp=cp, dp=b["dp"], pp=pp, vpp=1, etp=1, ep=ep, edp=b["edp"],
        cp_kind="ulysses" if cp > 1 else None, cp_ulysses=cp if cp > 1 else None, cp_ring=1 if cp > 1 else None,
        world=b["world"], micro_batch=b["micro_batch"], global_batch=b["global_batch"], seq=seq,
        recompute=recompute, zero_stage=zero, distributed_optimizer=zero >= 1, overlap_grad_reduce=overlap,
        sharding=sharding_of_stage(zero).name, master="bf16+fp32",
        pp_schedule="1f1b" if pp > 1 else None,
        model=model, extra=extra, lines=r.lines, assumed=tuple(r.assumed),
    )

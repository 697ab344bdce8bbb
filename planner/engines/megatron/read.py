"""Megatron-LM (and Megatron-DeepSpeed) launch scripts, argument files and YAML configs -> ForeignConfig.

The script is read by ``shell.interpret`` (variables, defaults, arrays, arithmetic,
here-documents, ``eval`` / ``bash -c`` strings), seeded with the caller's environment
(``env``: the process environment plus ``--env KEY=VAL``; the ``--env`` values also stand
in for assignments the script computes with a command, ``NUM_GPUS=$(nvidia-smi ...)``).
The ``--flag value`` / ``--flag=value`` pairs of every command are matched against the
tables of ``megatron_flags``; a YAML config (Megatron-LM's functional-test
``model_config.yaml``, the Megatron-MoE-ModelZoo's ``model_configs``) is first turned
into the same flags by ``megatron_yaml``. A flag the audit reads whose value holds an
unresolvable shell expression is an ``AuditParseError`` that names it.

Defaults applied when a flag is absent are Megatron's own, each listed in ``assumed``:
tp = pp = cp = ep = 1, etp = tp, micro-batch 1, global batch = micro-batch x dp, cp comm
type p2p (ring), top-k 2, MoE on every layer. Megatron-DeepSpeed (any of ``--deepspeed``,
``--moe-expert-parallel-size``, ``--ds-sequence-parallel-size``, ``--expert-interval``,
``--topk``) reads its own MoE flags, its Ulysses degree as cp and its experts as etp 1.

Data-parallel sharding: ``--use-distributed-optimizer`` -> zero1; Megatron FSDP
(``--use-megatron-fsdp --data-parallel-sharding-strategy no_shard | optim | optim_grads |
optim_grads_params``) -> none / zero1 / zero2 / zero3 (``optim_grads_params``, the default:
zero3); neither -> none. These readings are checked against Megatron's own argument parser in
tests/test_megatron_argparse.py. The master copy is bf16 weights + fp32 master in the optimizer (``bf16+fp32``).

``extra`` keys: ``vpp_layers``, ``hierarchical_cp_sizes``, ``overlap_p2p``,
``account_embedding`` / ``account_loss``, ``capacity_factor``, ``dtype``, ``cp_comm_types``,
``world_source``, ``dialect`` ("megatron-lm" | "megatron-deepspeed"), ``pp_layout``.
"""

from __future__ import annotations

import os
import re

import planner.engines.megatron.model as megatron_model  # the sibling modules, not the package
import planner.engines.megatron.pplayout as pplayout
from planner.layout.placement import virtual_stages
import planner.engines.megatron.read_precision as read_precision
import planner.engines.megatron.read_dispatch as read_dispatch
import planner.engines.megatron.read_world as read_world
import planner.engines.megatron.read_routing as read_routing
import planner.engines.megatron.read_zoo as read_zoo
from planner.engines.megatron.flags import BOOL, EFFECTS, MODELLED_VALUES, VALUED, Flags
from planner.engines.megatron.vocab import (CAPACITY_FACTOR_FLAG, CP_COMM_DEFAULT, CP_COMM_FLAG, CP_COMM_TYPE,
                                           FSDP_STRATEGY, FSDP_STRATEGY_FLAG, HIERARCHICAL_CP_FLAG, INTS,
                                           PP_LAYOUT_FLAG, RECOMPUTE, SWITCHES)
from planner.shell import ShellSyntaxError, interpret
from planner.shell.argfile import interpret_args, is_argument_file
from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div, product
from planner.specs.kinds import sharding_of_stage

layer_freq = megatron_model.layer_freq  # re-exported: tests and rules read it here

_DS_MARKERS = ("deepspeed", "moe-expert-parallel-size", "ds-sequence-parallel-size", "expert-interval", "topk",
               "deepspeed-config")


def _shell(text: str, path: str, env: dict | None, pinned: dict | None, script_args: tuple = ()):
    """The script run by the shell reader (an argument file: its words, as `$(cat FILE)` passes them)."""
    try:
        if is_argument_file(text, os.path.splitext(path)[1].lower()):
            return interpret_args(text, env, pinned)
        return interpret(text, env, pinned, args=script_args)
    except ShellSyntaxError as e:
        raise AuditParseError(path, e.line, e.what) from None
    except RecursionError:
        raise AuditParseError(path, None, "nested too deeply to read") from None


def argv(text: str, path: str, env: dict | None = None, script_args: tuple = ()) -> list[str]:
    """The argument list the script hands Megatron's training script (what `read_flags` reads): the
    words after each command's ``*.py``, or a command's words when they start with a flag (an
    argument file). `env` is the whole environment the script starts with; `script_args` its ``$1`` ..."""
    out: list[str] = []
    sh = _shell(text, path, env, None, tuple(script_args))
    if read_zoo.looks_like(sh):
        return [f.text for f in read_zoo.launch_fields(sh, path)[0]]
    for command in sh.commands:
        words = [f.text for f in command]
        py = next((k for k, w in enumerate(words) if w.endswith(".py")), None)
        if py is not None:
            out += words[py + 1:]
        elif words and words[0].startswith("--"):
            out += words
    return out


def read_flags(text: str, path: str, env: dict | None = None, pinned: dict | None = None,
               script_args: tuple = ()) -> tuple[Flags, object]:
    """The flags of every command of the script (and the shell, for the world size); `script_args`:
    the script's positional arguments (`bash script.sh ARGS...`)."""
    sh = _shell(text, path, env, pinned, script_args)
    if read_zoo.looks_like(sh):                # a ModelZoo launch script: its launcher's argument list
        flags, world, notes = read_zoo.read_flags(sh, path)
        sh.zoo = (world, notes)
        return flags, sh
    flags = Flags(path)
    for command in sh.commands:
        flags.scan(command)
    _source_lines(flags, text)
    if not any(name in flags.flags for name in VALUED | BOOL):
        raise AuditParseError(path, None, "no Megatron-LM flags found (expected e.g. --num-layers, "
                                          "--tensor-model-parallel-size)")
    return flags, sh


def _source_lines(flags: Flags, text: str) -> None:
    """Point each flag at the line that spells it: a flag that reached the command through a string
    (an array joined into `TRAINING_CMD="... ${ARGS[@]}"`, run by `bash -c` in a here-document)
    carries the string's line; the one line of the script that writes the flag is the better pointer."""
    where: dict[str, list[int]] = {}
    for n, row in enumerate(text.splitlines(), 1):
        for name in set(re.findall(r"(?<![\w-])--([A-Za-z0-9][\w-]*)", row)):
            where.setdefault(name, []).append(n)
    for name, flag in flags.flags.items():
        hits = where.get(name, [])
        if len(hits) == 1 and flag.line not in hits:
            flag.line = hits[0]


def parse(text: str, path: str, world: int | None = None, env: dict | None = None,
          flags: Flags | None = None, sh=None, script_args: tuple = ()) -> ForeignConfig:
    """Read a Megatron-LM launch script / argument file. ``world`` overrides the script's GPU count;
    ``env`` (``--env KEY=VAL``) is laid over the process environment; ``script_args`` are its ``$1`` ..."""
    if flags is None:
        flags, sh = read_flags(text, path, dict(os.environ), env, script_args)
    ctx = _Ctx(flags, path)
    zoo = getattr(sh, "zoo", None)
    if zoo:
        ctx.assumed += zoo[1]
        if world is None and zoo[0]:
            world = zoo[0]
            ctx.assumed.append(f"world={world}: NNODES x the ModelZoo launcher's tasks per node")
    c = _degrees(ctx)
    _world_and_batch(ctx, c, sh, world)
    _context_parallel(ctx, c)
    _pipeline(ctx, c)
    _memory(ctx, c)
    read_precision.precision(ctx.flags, ctx.extra, ctx.lines, ctx.assumed)
    model, model_lines = megatron_model.model(flags, c["layers"], c["tp"], path, ctx.assumed,
                                              deepspeed=ctx.deepspeed)
    ctx.lines.update(model_lines)
    c.pop("layers")
    if not ctx.deepspeed:
        ctx.extra.update(read_dispatch.dispatch(flags))
    return ForeignConfig(format="megatron", path=path, model=model, extra=ctx.extra,
                         unknown_flags=tuple(flags.unknown), effects=_effects(flags, c, model),
                         lines=ctx.lines, assumed=tuple(ctx.assumed), **c)


class _Ctx:
    """What every step reads and adds to: the flags, the notes, the source lines, the extras."""

    def __init__(self, flags: Flags, path: str):
        self.flags, self.path = flags, path
        self.assumed: list[str] = []
        self.lines: dict[str, int] = {}
        self.deepspeed = any(flags.has(n) for n in _DS_MARKERS)
        self.extra: dict = {"dialect": "megatron-deepspeed" if self.deepspeed else "megatron-lm"}

    def get(self, name: str, fld: str, default=None, note: str = ""):
        value = self.flags.int(name)
        if value is None:
            if default is not None:
                self.assumed.append(f"{fld}={default}: --{name} not given ({note or 'Megatron default'})")
            return default
        self.lines[fld] = self.flags.line(name)
        return value

    def fail(self, name: str, what: str) -> AuditParseError:
        return AuditParseError(self.path, self.flags.line(name), what)


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """The config on `world` GPUs: dp = world / (tp*pp*cp), edp = world / (etp*ep*pp), as Megatron derives them."""
    return cfg.replace(world=world, dp=exact_div(world, product(cfg.tp, cfg.pp, cfg.cp)),
                       edp=exact_div(world, product(cfg.etp, cfg.ep, cfg.pp)))


def _degrees(ctx: _Ctx) -> dict:
    get = lambda fld, default=None, note="": ctx.get(INTS[fld].name, fld, default, note)     # noqa: E731
    tp = get("tp", INTS["tp"].default)
    pp = get("pp", INTS["pp"].default)
    if ctx.deepspeed:
        cp = ctx.flags.int("ds-sequence-parallel-size") or 1
        if cp > 1:
            ctx.lines["cp"] = ctx.flags.line("ds-sequence-parallel-size")
        ep = ctx.get("moe-expert-parallel-size", "ep", 1, "Megatron-DeepSpeed default")
        etp = tp if ctx.flags.has("enable-expert-tensor-parallelism") else 1
    else:
        cp = get("cp", INTS["cp"].default)
        if ctx.flags.has("num-experts") or ctx.flags.has(INTS["ep"].name) or ctx.flags.has(INTS["etp"].name):
            ep = get("ep", INTS["ep"].default)
            etp = get("etp", tp, "Megatron sets it to tp")
        else:                       # a dense model: the expert degrees mean nothing, assume nothing aloud
            ep, etp = 1, tp
    for name, v in (("tp", tp), ("pp", pp), ("cp", cp), ("ep", ep), ("etp", etp)):
        if v < 1:
            raise AuditParseError(ctx.path, ctx.lines.get(name), f"{name} must be >= 1, got {v}")
    micro = get("micro_batch", INTS["micro_batch"].default)
    if micro < 1:
        raise ctx.fail("micro-batch-size", f"--micro-batch-size must be >= 1, got {micro}")
    seq = get("seq")
    if seq is None:
        seq = ctx.get("encoder-seq-length", "seq")
    gbs = get("global_batch")
    if gbs is not None and gbs < 1:     # arguments.py:687 (megatron-core 0.19.2): assert args.global_batch_size > 0
        raise ctx.fail("global-batch-size", f"--global-batch-size must be >= 1, got {gbs} (Megatron's validate_args "
                                            f"asserts global_batch_size > 0)")
    return {"tp": tp, "pp": pp, "cp": cp, "ep": ep, "etp": etp, "micro_batch": micro, "seq": seq or None,
            "global_batch": gbs, "layers": get("layers")}


def _world_and_batch(ctx: _Ctx, c: dict, sh, world: int | None) -> None:
    if world is not None:
        ctx.extra["world_source"] = "given"
    else:
        world, world_line, source = read_world.world(sh, ctx.flags)
        if world is not None:
            ctx.extra["world_source"] = source
            if world_line:
                ctx.lines["world"] = world_line
    if world is None:
        ctx.assumed.append("world unknown: the script does not say how many GPUs (pass --gpus)")
    c["world"] = world
    c["dp"] = exact_div(world, c["tp"] * c["pp"] * c["cp"])
    if ctx.deepspeed:
        c["edp"] = exact_div(product(c["tp"], c["cp"], c["dp"]), c["etp"] * c["ep"])
    else:
        c["edp"] = exact_div(world, c["etp"] * c["ep"] * c["pp"])
    if c["global_batch"] is None and c["dp"] is not None:
        c["global_batch"] = c["micro_batch"] * c["dp"]
        ctx.assumed.append(f"global_batch={c['global_batch']}: --global-batch-size not given (micro-batch x dp)")


def _context_parallel(ctx: _Ctx, c: dict) -> None:
    flags, cp = ctx.flags, c["cp"]
    c["cp_kind"] = c["cp_ulysses"] = c["cp_ring"] = None
    if ctx.deepspeed:
        if cp > 1:
            c["cp_kind"], c["cp_ulysses"], c["cp_ring"] = "ulysses", cp, 1
        return
    kinds = flags.strings(CP_COMM_FLAG) or []
    if len(set(kinds)) > 1:
        ctx.extra["cp_comm_types"] = list(kinds)
        ctx.assumed.append(f"cp comm type per layer {kinds}: audited as {kinds[0]}")
    kind = kinds[0] if kinds else CP_COMM_DEFAULT
    if kind not in CP_COMM_TYPE:
        raise ctx.fail(CP_COMM_FLAG, f"--cp-comm-type {kind!r} is not one of {', '.join(CP_COMM_TYPE)}")
    if kinds:
        ctx.lines["cp_kind"] = flags.line(CP_COMM_FLAG)
    hier = flags.ints(HIERARCHICAL_CP_FLAG)
    if hier is not None:
        ctx.extra["hierarchical_cp_sizes"] = hier
        ctx.lines["hierarchical_cp_sizes"] = flags.line(HIERARCHICAL_CP_FLAG)
    if cp > 1:
        c["cp_kind"] = CP_COMM_TYPE[kind]
        # Transformer Engine's allgather CP (AttnFuncWithCPAndKVAllGather) or its p2p ring, zig-zag balanced
        ctx.extra.update(cp_comm="ag-te" if kind == "allgather" else "p2p", cp_balance="headtail")
        if not kinds:
            ctx.assumed.append("cp_kind=ring: --cp-comm-type not given (Megatron default p2p)")
        if c["cp_kind"] == "ring":
            c["cp_ulysses"], c["cp_ring"] = 1, cp
        elif c["cp_kind"] == "ulysses":
            c["cp_ulysses"], c["cp_ring"] = cp, 1
        elif c["cp_kind"] == "hybrid" and hier:
            c["cp_ulysses"], c["cp_ring"] = hier[0], product(*hier[1:])


def _pipeline(ctx: _Ctx, c: dict) -> None:
    flags, pp, layers = ctx.flags, c["pp"], c["layers"]
    c["first_stage_layers"] = ctx.get("decoder-first-pipeline-num-layers", "first_stage_layers")
    c["last_stage_layers"] = ctx.get("decoder-last-pipeline-num-layers", "last_stage_layers")
    vpp_layers = ctx.get("num-layers-per-virtual-pipeline-stage", "vpp_layers")
    vpp = ctx.get("num-virtual-stages-per-pipeline-rank", "vpp")
    layout = flags.raw(PP_LAYOUT_FLAG)
    given = [f"--{n}" for n, v in (("num-layers-per-virtual-pipeline-stage", vpp_layers),
                                   ("num-virtual-stages-per-pipeline-rank", vpp), (PP_LAYOUT_FLAG, layout)) if v is not None]
    if len(given) > 1:                  # arguments.py:893-904 (megatron-core 0.19.2): at most one of the three
        raise ctx.fail(given[1][2:], f"{' and '.join(given)} both given: Megatron's validate_args allows no more "
                                     f"than one of them")
    c["stage_layers"] = ()
    if layout is not None:
        try:
            parsed = pplayout.parse(layout, pp)
        except pplayout.LayoutStringError as e:
            raise ctx.fail("pipeline-model-parallel-layout", f"--pipeline-model-parallel-layout {layout[:60]!r}: {e}")
        ctx.extra["pp_layout"] = parsed
        ctx.lines["stage_layers"] = flags.line("pipeline-model-parallel-layout")
        c["stage_layers"], vpp = tuple(parsed["stages"]), parsed["vpp"]
        placed = [len(x) for x in virtual_stages(parsed["stages"], vpp)]
        if placed != parsed["virtual"]:          # a layout keeps per-rank counts; its chunks follow one rule
            ctx.assumed.append(f"--pipeline-model-parallel-layout: virtual stages of {parsed['virtual']} layers "
                               f"read as {placed} (the same layers per pipeline rank, cut into chunks as "
                               f"docs/plan-schema.md's layer placement says)")
    elif vpp_layers is not None:
        ctx.extra["vpp_layers"] = vpp_layers
        per_stage = _per_stage_layers(ctx, c, layers)
        vpp = exact_div(per_stage, vpp_layers) if vpp_layers > 0 else None
    elif vpp is None:
        vpp = 1
    if vpp is not None and vpp < 1:
        raise ctx.fail("num-virtual-stages-per-pipeline-rank", f"virtual stages per pipeline rank must be >= 1, got {vpp}")
    c["vpp"] = vpp
    # arguments.py:2965 (megatron-core 0.19.2): only --no-overlap-p2p-communication exists (store_false,
    # dest overlap_p2p_comm): the overlap is on unless switched off
    ctx.extra["overlap_p2p"] = not flags.has("no-overlap-p2p-communication")
    ctx.extra["account_embedding"] = flags.has("account-for-embedding-in-pipeline-split")
    ctx.extra["account_loss"] = flags.has("account-for-loss-in-pipeline-split")
    c["pp_schedule"] = None if pp == 1 else ("interleaved-1f1b" if (vpp or 1) > 1 or vpp_layers else "1f1b")


def _per_stage_layers(ctx: _Ctx, c: dict, layers: int | None) -> int | None:
    """Transformer layers of a middle pipeline rank (what --num-layers-per-virtual-pipeline-stage divides)."""
    if layers is None:
        return None
    first, last, pp = c["first_stage_layers"], c["last_stage_layers"], c["pp"]
    given = [x for x in (first, last) if x is not None]
    if given:
        return exact_div(layers - sum(given), pp - len(given)) if pp > len(given) else None
    counted = layers + int(ctx.flags.has("account-for-embedding-in-pipeline-split")) \
        + int(ctx.flags.has("account-for-loss-in-pipeline-split"))
    return exact_div(counted, pp)


def _memory(ctx: _Ctx, c: dict) -> None:
    """Recompute, sequence parallel, sharding, precision, MoE capacity."""
    flags = ctx.flags
    recompute = flags.raw(RECOMPUTE["granularity"])
    if recompute is None:
        full = flags.has("checkpoint-activations") or flags.has("deepspeed-activation-checkpointing")
        recompute = "full" if full else "selective" if flags.has("recompute-activations") else "none"
    else:
        ctx.lines["recompute"] = flags.line(RECOMPUTE["granularity"])
    if recompute not in ("none", "selective", "full"):
        raise ctx.fail("recompute-granularity", f"--recompute-granularity {recompute!r} is not full or selective")
    c["recompute"] = recompute
    c["recompute_method"] = flags.raw(RECOMPUTE["method"])
    if c["recompute_method"] not in (None, "uniform", "block"):
        raise ctx.fail("recompute-method", f"--recompute-method {c['recompute_method']!r} is not uniform or block")
    c["recompute_num_layers"] = flags.int(RECOMPUTE["num_layers"])
    if c["recompute_num_layers"] is None and flags.has("checkpoint-num-layers"):
        c["recompute_num_layers"] = flags.int("checkpoint-num-layers")
    modules = flags.strings(RECOMPUTE["modules"])
    if recompute == "selective" and not modules:
        # transformer_config.py:1763-1764 (megatron-core 0.19.2): no --recompute-modules -> core_attn
        modules = ["core_attn"]
        ctx.assumed.append("recompute_modules=core_attn: --recompute-modules not given (Megatron default)")
    c["recompute_modules"] = tuple(modules) if modules and recompute == "selective" else ()
    if modules:
        ctx.lines["recompute_modules"] = flags.line(RECOMPUTE["modules"])
    for name in ("bf16", "fp16"):
        if flags.has(name):
            ctx.extra["dtype"] = name
    for name in (SWITCHES["sequence_parallel"], SWITCHES["zero1"]):
        if flags.has(name):
            ctx.lines[name.replace("use-", "").replace("-", "_")] = flags.line(name)
    c["sequence_parallel"] = flags.has(SWITCHES["sequence_parallel"])
    c["distributed_optimizer"] = flags.has(SWITCHES["zero1"])
    c["sharding"], c["master"] = _sharding(ctx), "bf16+fp32"
    c["grad_reduce_bytes"] = 2 if flags.has(SWITCHES["grad_reduce_bf16"]) else 4
    if not ctx.deepspeed:                 # Megatron-LM: arguments.py, --overlap-grad-reduce defaults to off
        c["overlap_grad_reduce"] = flags.has(SWITCHES["overlap_grad_reduce"])
    elif flags.has("deepspeed"):
        ctx.assumed.append("gradient reduction overlapped: the DeepSpeed config's zero_optimization.overlap_comm "
                           "is not read from a Megatron-DeepSpeed script (audit the ds_config.json for it)")
    read_routing.read(ctx, "moe-train-capacity-factor" if ctx.deepspeed else CAPACITY_FACTOR_FLAG)


def _sharding(ctx: _Ctx) -> str:
    flags = ctx.flags
    if flags.has(SWITCHES["megatron_fsdp"]):
        # arguments.py:3023 (megatron-core 0.19.2): the strategy defaults to optim_grads_params
        strategy = flags.raw(FSDP_STRATEGY_FLAG) if flags.has(FSDP_STRATEGY_FLAG) else "optim_grads_params"
        if strategy not in FSDP_STRATEGY:
            raise ctx.fail(FSDP_STRATEGY_FLAG, f"--data-parallel-sharding-strategy {strategy!r} is "
                                                              f"not one of {', '.join(FSDP_STRATEGY)}")
        ctx.lines["sharding"] = flags.line(FSDP_STRATEGY_FLAG) or flags.line(SWITCHES["megatron_fsdp"])
        return FSDP_STRATEGY[strategy]
    if flags.has("use-torch-fsdp2"):
        return "zero3"
    if ctx.deepspeed and flags.has("zero-stage"):
        stage = flags.int("zero-stage")
        if stage not in (0, 1, 2, 3):
            raise ctx.fail("zero-stage", f"--zero-stage {stage} is not 0, 1, 2 or 3")
        return sharding_of_stage(stage).name
    return "zero1" if flags.has(SWITCHES["zero1"]) else "none"


def _effects(flags: Flags, c: dict, model: dict) -> tuple[tuple[str, str, str], ...]:
    """The flags read that change memory or time, with what each changes (the audit decides which it models)."""
    out = []
    for name, (kind, what) in EFFECTS.items():
        if not flags.has(name) or " ".join(flags.flags[name].values) in MODELLED_VALUES.get(name, ()):
            continue
        shown = f"--{name}" + (f" {' '.join(flags.flags[name].values)}" if flags.flags[name].values else "")
        out.append((shown, kind, what))
    return tuple(out)

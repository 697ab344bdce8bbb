"""Megatron-MoE-ModelZoo launch scripts (``best_practice/*/run_*.sh``) -> the flags they hand Megatron.

Such a script runs ModelZoo's launcher, ``VAR=... bash sbatch_benchmarking.sh [flags]``, once per
configuration; the launcher (yanring/Megatron-MoE-ModelZoo sbatch_benchmarking.sh @ e8650517)
builds Megatron's argument list from three places, read here in its order:

1. the model's config ``model_configs/benchmarking/${MODEL}.yaml`` (its ``MODEL_ARGS``, with the
   ``${TP}``-style placeholders filled from the environment): read when the file lies in the
   checkout the script sits in; otherwise the degrees every ModelZoo model config spells the same
   way (``DEGREES``) and the model from ``--model``;
2. the flags given on the launch line (``"$@"``);
3. the launcher's own additions, chosen by variables (``_additions``: VPP, NUM_LAYERS / PP_FIRST /
   PP_LAST, OPTIMIZER_OFFLOAD, DISPATCHER, PR, A2A_OVERLAP; runtime.conf's per-model defaults of
   these are not read: pass them with ``--env``).

The GPU count is NNODES x the launcher's tasks per node (8; 4 with GB200_CLUSTER=1). The first launch
of the script is read (a note says how many there are): the variables of a launch are the script's
exports with the launch's own ``VAR=value`` prefix over them.
"""
from __future__ import annotations

import re
from pathlib import Path

import planner.engines.megatron.read_yaml as megatron_yaml
from planner.engines.megatron.flags import Flags
from planner.layout.foreign import AuditParseError
from planner.safeio.read import read_text_limited
from planner.shell import Field, unresolved

LAUNCHERS = ("sbatch_benchmarking.sh",)    # interactive_benchmarking.sh builds its list otherwise: not read
# MODEL_ARGS entries of all 12 model configs in model_configs/benchmarking/ (@ e8650517); the overlap
# flags (--overlap-grad-reduce / --overlap-param-gather) are in 9 of them, so not assumed
DEGREES = (("--tensor-model-parallel-size", "TP"), ("--pipeline-model-parallel-size", "PP"),
           ("--expert-model-parallel-size", "EP"), ("--context-parallel-size", "CP"),
           ("--micro-batch-size", "MBS"), ("--global-batch-size", "GBS"), ("--seq-length", "SEQ_LEN"))
FIXED = ("--expert-tensor-parallel-size", "1", "--use-distributed-optimizer", "--sequence-parallel")
_LAYOUT_FLAGS = ("--pipeline-model-parallel-layout", "--num-virtual-stages-per-pipeline-rank",
                 "--num-layers-per-virtual-pipeline-stage")


def launches(sh) -> list[tuple[int, list[Field], dict]]:
    """(index, fields after the launcher, the launch's variables) of every ModelZoo launch."""
    out = []
    for k, (command, prefix) in enumerate(zip(sh.commands, sh.command_env)):
        names = [f.text.rsplit("/", 1)[-1] for f in command]
        hit = next((i for i, n in enumerate(names) if n in LAUNCHERS), None)
        if hit is not None:
            scalars = {n: v.value for n, v in sh.vars.items() if isinstance(v.value, str)}
            out.append((k, command[hit + 1:], {**scalars, **prefix}))
    return out


def _additions(env: dict, given: set[str]) -> list[str]:
    """sbatch_benchmarking.sh's own flags for these variables (its lines 56-123 @ e8650517)."""
    out: list[str] = []
    vpp = env.get("VPP", "")
    if vpp.isdigit() and int(vpp) > 1 and not given & set(_LAYOUT_FLAGS):
        out += ["--num-virtual-stages-per-pipeline-rank", vpp]
    layers, pp = env.get("NUM_LAYERS", ""), env.get("PP", "")
    first, last = env.get("PP_FIRST", ""), env.get("PP_LAST", "")
    if all(v.isdigit() for v in (layers, pp, first, last)) and int(pp) and int(layers) % int(pp) \
            and "--pipeline-model-parallel-layout" not in given:
        out += ["--decoder-first-pipeline-num-layers", first, "--decoder-last-pipeline-num-layers", last]
    offload = env.get("OPTIMIZER_OFFLOAD", "0") == "1"
    if offload:
        out += ["--optimizer-cpu-offload", "--overlap-cpu-optimizer-d2h-h2d"]
    dispatcher = env.get("DISPATCHER", "deepep")
    if dispatcher == "alltoall":
        out += ["--moe-token-dispatcher-type", "alltoall"]
    elif dispatcher in ("deepep", "hybridep"):
        out += ["--moe-token-dispatcher-type", "flex", "--moe-flex-dispatcher-backend", dispatcher]
    pr = env.get("PR", "bf16")
    if pr in ("fp8", "mxfp8"):
        out += ["--fp8-recipe", "blockwise" if pr == "fp8" else "mxfp8", "--fp8-format", "e4m3"]
        if not offload:
            out += ["--fp8-param-gather"]
        out += ["--use-precision-aware-optimizer", "--main-grads-dtype", "fp32", "--main-params-dtype", "fp32",
                "--exp-avg-dtype", "bf16", "--exp-avg-sq-dtype", "bf16"]
    if env.get("A2A_OVERLAP", "0") == "1":
        out += ["--delay-wgrad-compute", "--overlap-moe-expert-parallel-comm"]
    return out


def _model_config(path: str, model: str | None) -> Path | None:
    """model_configs/benchmarking/<MODEL>.yaml of the checkout the script lies in, if it is there."""
    if not model or unresolved(model) or not re.fullmatch(r"[A-Za-z0-9._-]+", model):
        return None
    for folder in Path(path).resolve().parents:
        candidate = folder / "model_configs" / "benchmarking" / f"{model}.yaml"
        if candidate.is_file():
            return candidate
    return None


def read_flags(sh, path: str) -> tuple[Flags, int | None, list[str]]:
    """(flags, GPU count, notes) of the script's first ModelZoo launch."""
    fields, world, notes = launch_fields(sh, path)
    flags = Flags(path)
    flags.scan(fields)
    return flags, world, notes


def launch_fields(sh, path: str) -> tuple[list[Field], int | None, list[str]]:
    """(Megatron's argument list, GPU count, notes) of the script's first ModelZoo launch."""
    found = launches(sh)
    if not found:
        raise AuditParseError(path, None, "no ModelZoo launch (bash sbatch_benchmarking.sh ...) found")
    _, extra, env = found[0]
    line = extra[0].line if extra else None
    notes = [f"ModelZoo launch script: the first of its {len(found)} launches read (line {line})"] \
        if len(found) > 1 else []
    config = _model_config(path, env.get("MODEL"))
    fields: list[Field] = []
    if config is not None:
        try:
            text = read_text_limited(config, str(config))
        except Exception as e:                      # SpecError / OSError: one line naming the file
            raise AuditParseError(str(config), None, str(e)) from None
        fields = megatron_yaml.fields(text, str(config), env)
        notes.append(f"model and flags from {config}")
    else:
        for flag, var in DEGREES:
            if env.get(var) not in (None, ""):
                fields += [Field(flag, line or 0), Field(env[var], line or 0)]
        fields += [Field(w, line or 0) for w in FIXED]
        notes.append(f"model_configs/benchmarking/{env.get('MODEL', '$MODEL')}.yaml is not beside the script: "
                     f"degrees from its variables, the model from --model")
    given = {f.text for f in fields + extra}     # the config's MODEL_ARGS and the launch line's flags, as the launcher tests them
    fields += extra + [Field(w, line or 0) for w in _additions(env, given)]
    nodes = env.get("NNODES", "")
    per_node = 4 if env.get("GB200_CLUSTER") == "1" else 8
    world = int(nodes) * per_node if nodes.isdigit() and 0 < int(nodes) < 2**20 else None
    return fields, world, notes


def looks_like(sh) -> bool:
    return bool(launches(sh))

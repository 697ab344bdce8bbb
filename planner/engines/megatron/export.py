"""A plan as Megatron-LM flags for megatron-core 0.19.2: `<name>.args` (one flag per line, no shell quoting:
the argument list pretrain_gpt.py takes, read word by word) and `<name>.sh` (torchrun around the same flags,
the environment Megatron requires, and the training settings a layout does not decide, which it refuses to
start without: the FILL IN block). The model's flags are planner/engines/megatron/arch.py's. Megatron's own
code accepts what this writes (planner/engines/megatron/judge.py, tests/test_engine_megatron.py); flag names
and checks cite megatron/training/arguments.py at megatron-core 0.19.2 unless a line says otherwise.

Per-stage layers (uneven, and the virtual chunks of an interleaved schedule) are spelled
out with `--pipeline-model-parallel-layout` (grammar in
megatron/core/transformer/pipeline_parallel_layer_layout.py, read back by
planner/engines/megatron/pplayout.py): virtual stage v of pipeline rank r is entry v * pp + r, each
entry the layers the layout places there (planner/layout/placement.py); MTP modules go last.
"""
from __future__ import annotations

import shlex

from planner.engines.errors import ExportError

from planner.engines.megatron import arch, recompute
from planner.engines.megatron.vocab import (CAPACITY_FACTOR_FLAG, CP_COMM_FLAG, DISPATCHER_FLAG, DISPATCHER_TYPE,
                                           FLEX_BACKEND_FLAG, FSDP_STRATEGY_FLAG, HIERARCHICAL_CP_FLAG, PP_LAYOUT_FLAG, RECOMPUTE, SWITCHES,
                                           cp_comm_type, flag, fsdp_strategy)
from planner.engines.megatron.read_precision import RECIPE


def _on(switch: str) -> tuple:
    """The switch (vocab.SWITCHES) that says `switch`."""
    return ("--" + SWITCHES[switch],)


def _set(name: str, *values) -> tuple:
    """A valued flag of the vocabulary, with its values."""
    return ("--" + name, *values)


def pipeline_layout(L, mtp: int = 0) -> str:
    """`--pipeline-model-parallel-layout` of the layout's placement (Layout.virtual_stages: entry
    v * pp + r is chunk v of rank r; E = embedding, L = loss, m = an MTP module: on the last stage,
    after its decoder layers, as pipeline_parallel_layer_layout.py:111-133 requires)."""
    virtual = L.virtual_stages
    entries = []
    for k, layers in enumerate(virtual):
        n = len(layers)
        body = f"t*{n}" if n > 1 else "t" * n
        tail = ("m," * mtp + "L") if k == len(virtual) - 1 else ""
        entries.append(",".join(x for x in ("E" if k == 0 else "", body, tail) if x))
    return "|".join(entries)


def flags(plan) -> list[tuple[str, ...]]:
    """Every flag the plan sets, in order (model, parallelism, batch, memory savers, precision)."""
    pr, L = plan.problem, plan.layout
    t = pr.train
    s0 = L.stages[0]
    out = arch.model_flags(pr.model)
    out += [(flag("tp"), L.tp), (flag("pp"), L.pp), (flag("cp"), L.cp)]
    if L.cp > 1:
        # the ring kind as TE runs it: p2p, or allgather (cp_comm ag-te; transformer_config.py:987-995)
        out.append(_set(CP_COMM_FLAG, "allgather" if L.cp_kind == "ring" and L.cp_comm == "ag-te"
                        else cp_comm_type(L.cp_kind)))
        if L.cp_kind == "hybrid":         # arguments.py:580-585: the sizes multiply to cp
            out.append(_set(HIERARCHICAL_CP_FLAG, L.cp_ulysses, L.cp_ring))
    if pr.model.moe is not None:
        out = [f for f in out if f[0] != "--" + DISPATCHER_FLAG] + [(flag("ep"), s0.ep), (flag("etp"), s0.etp)]
        out += dispatch_flags(L)
    if L.tp > 1 and t.sequence_parallel:  # arguments.py:1432-1439: forced off at tp = 1
        out.append(_on("sequence_parallel"))
    if L.pp > 1:
        # interleaving over pp = 2 needs overlap_p2p_comm (arguments.py:966-975), which is on unless
        # --no-overlap-p2p-communication (arguments.py:2965; there is no --overlap-p2p-comm)
        out.append(_set(PP_LAYOUT_FLAG, pipeline_layout(L, pr.model.mtp_layers)))
    out += [(flag("seq"), t.seq), ("--max-position-embeddings", t.seq), (flag("micro_batch"), L.micro_batch),
            (flag("global_batch"), L.dp * L.micro_batch * L.num_microbatches)]
    form, why = recompute.form(L)
    if why:
        raise ExportError(f"export --to megatron: {why}")
    if form["granularity"] == "selective":  # arguments.py:1425: selective takes no method
        out += [_set(RECOMPUTE["granularity"], "selective"), _set(RECOMPUTE["modules"], *form["modules"])]
    elif form["granularity"] == "full":
        out += [_set(RECOMPUTE["granularity"], "full"), _set(RECOMPUTE["method"], "block"),
                _set(RECOMPUTE["num_layers"], form["num_layers"])]
    if L.sharding == "zero1":
        out.append(_on("zero1"))
    elif fsdp_strategy(L.sharding):       # arguments.py:1118-1170: Megatron FSDP wants the dtensor checkpoints
        out += [_on("megatron_fsdp"), _set(FSDP_STRATEGY_FLAG, fsdp_strategy(L.sharding)),
                _on("zero1"), ("--ckpt-format", "fsdp_dtensor")]
    if t.grad_reduce_bytes == 2:
        out.append(_on("grad_reduce_bf16"))
    # the estimate hides the gradient reduction behind the last micro-batch: Megatron does that
    # only when asked (arguments.py: both default off; the param all-gather overlap needs the
    # distributed optimizer or Megatron FSDP, and the grad-reduce overlap)
    out.append(_on("overlap_grad_reduce"))
    if L.sharding != "none":
        out.append(_on("overlap_param_gather"))
    if t.capacity_factor is not None and pr.model.moe is not None:
        out.append(_set(CAPACITY_FACTOR_FLAG, t.capacity_factor))
        if t.capacity_pad:       # transformer_config.py:892 (megatron-core 0.19.2)
            out.append(("--moe-pad-expert-input-to-capacity",))
    if t.routing == "forced" and pr.model.moe is not None:      # transformer_config.py:812: benchmark routing
        out.append(("--moe-router-force-load-balancing",))
    moe = pr.model.moe
    if moe is not None and t.balancing == "aux-free" and not moe.router_bias:
        if moe.router_score != "sigmoid":      # transformer_config.py:2284-2290 (megatron-core 0.19.2)
            raise ExportError("export --to megatron: aux-free balancing (--moe-router-enable-expert-bias) needs a "
                              f"sigmoid router; this model's router is {moe.router_score}")
        out.append(("--moe-router-enable-expert-bias",))
    # the plan's memory keeps the logits as a fused, vocab-parallel cross entropy does (logit_bytes)
    out += [("--cross-entropy-loss-fusion",), ("--attention-backend", pr.train.attention_kernel
                                                if pr.train.attention_kernel == "fused" else "flash"), ("--bf16",)]
    if pr.train.precision != "bf16":     # planner.engines.megatron.read_precision reads these back
        recipe = next((k for k, v in RECIPE.items() if v == pr.train.precision), None)
        if recipe is None:
            raise ExportError(f"export --to megatron: precision {pr.train.precision} is torchao's; Megatron's "
                              f"--fp8-recipe is {', '.join(RECIPE)} (transformer_config.py:573)")
        out += [("--fp8-format", "hybrid"), ("--fp8-recipe", recipe)]
        if pr.train.fp8_param_gather:
            out.append(("--fp8-param-gather",))
    return out


def dispatch_flags(L) -> list[tuple]:
    """The dispatcher and the EP overlap (planner.specs.kinds.DISPATCHER; rules.overlap_broken says
    when Megatron refuses the overlap)."""
    kind, backend = DISPATCHER_TYPE[L.dispatcher]
    out = [_set(DISPATCHER_FLAG, kind)] + ([_set(FLEX_BACKEND_FLAG, backend)] if backend else [])
    if L.ep_overlap:
        out.append(_on("ep_overlap"))
    if L.delay_wgrad:
        out.append(_on("delay_wgrad"))
    return out


ENGINE = "megatron-core 0.19.2"      # the Megatron-LM whose arguments.py these flags are checked against
# the training settings a job needs that a layout does not decide: (variable, flags it fills, what to put)
FILL_IN = (
    ("DATA_PATH", "--data-path", "the Megatron indexed dataset prefix(es), tokenized with the tokenizer of the model"),
    ("CHECKPOINT_DIR", "--save/--load", "where checkpoints are written and resumed from"),
    ("TRAIN_ITERS", "--train-iters", "optimizer steps to run"),
    ("LR", "--lr", "peak learning rate"),
)
TRAINING = ('--data-path "$DATA_PATH" --split 99,1,0 --save "$CHECKPOINT_DIR" --load "$CHECKPOINT_DIR" '
            '--save-interval ${SAVE_INTERVAL:-1000} --train-iters "$TRAIN_ITERS" --lr "$LR" '
            '--min-lr ${MIN_LR:-0} --lr-decay-style ${LR_DECAY_STYLE:-cosine} '
            '--lr-warmup-iters ${LR_WARMUP_ITERS:-2000} --weight-decay ${WEIGHT_DECAY:-0.1} '
            '--clip-grad ${CLIP_GRAD:-1.0} --log-interval ${LOG_INTERVAL:-10}')


def _word(x) -> str:
    """One word of the argument file: no shell quoting and no comments, so `$(cat train.args)` reads it."""
    text = str(x)
    if not text or any(c.isspace() or c in "'\"\\$`;&<>(){}" for c in text):
        raise ExportError(f"export --to megatron: the value {text!r} cannot be written unquoted in the argument file")
    return text


def _line(flag: tuple) -> str:
    return " ".join(_word(x) for x in flag)


def _env(plan) -> list[str]:
    """The environment Megatron requires at start-up (arguments.py:1412-1439): TP or CP without
    Megatron FSDP needs CUDA_DEVICE_MAX_CONNECTIONS=1 before Blackwell (set on every GPU: it only
    orders the kernels' launches); Megatron FSDP needs it unset or > 1 (arguments.py:1143)."""
    L = plan.layout
    if L.ep_overlap:       # arguments.py:1426-1433: the EP overlap wants more than one connection (it only
        return ["export CUDA_DEVICE_MAX_CONNECTIONS=32"]     # warns with TP / CP); 32: the ModelZoo's setting
    if (L.tp > 1 or L.cp > 1) and not fsdp_strategy(L.sharding):
        return ["export CUDA_DEVICE_MAX_CONNECTIONS=1"]
    return []


# the Transformer Engine a plan's FP8 needs in megatron-core 0.19.2: (recipe) -> (version, where);
# core/fp8_utils.py:730-760 picks the recipe (tensorwise from 2.2.0.dev0, blockwise from 2.3.0.dev0,
# every recipe class from 2.1.0)
TE_RECIPE = {"fp8-delayed": ("2.1.0", "core/fp8_utils.py:732-737"),
             "fp8-tensorwise": ("2.2.0.dev0", "core/fp8_utils.py:739-742"),
             "fp8-blockwise": ("2.3.0.dev0", "core/fp8_utils.py:743-746"),
             "mxfp8": ("2.1.0", "core/fp8_utils.py:747-750")}


def requirements(plan) -> list[str]:
    """The Transformer Engine versions the plan's FP8 needs, each with the check that asks for it."""
    pr, L = plan.problem, plan.layout
    if pr.train.precision == "bf16":
        return []
    ver, where = TE_RECIPE.get(pr.train.precision, ("2.1.0", "core/fp8_utils.py:730-760"))
    out = [(ver, f"--fp8-recipe {pr.train.precision.removeprefix('fp8-')} ({where})")]
    if pr.model.moe is not None:
        out += [("1.7.0.dev0", "MoE FP8 training (transformer/transformer_config.py:2294-2300)"),
                ("1.11.0", "FP8 grouped GEMM, --moe-grouped-gemm (transformer/transformer_config.py:2302-2306)")]
    mods = {m for s in L.stages if s.recompute_selective for m in s.recompute_modules}
    if mods & {"moe_act", "layernorm"}:
        out.append(("2.6.0dev0", f"FP8 with {' / '.join(sorted(mods & {'moe_act', 'layernorm'}))} recompute "
                                 f"(transformer/transformer_config.py:1828-1833)"))
    top = max(out, key=lambda o: tuple(int(n) for n in o[0].replace("dev", ".").split(".")[:3]))[0]
    return [f"# requires transformer-engine >= {top} (megatron-core 0.19.2 checks: "
            + "; ".join(f">= {v} for {why}" for v, why in out) + ")"]


def render(plan, name: str) -> dict[str, str]:
    pr, L = plan.problem, plan.layout
    fl = flags(plan)
    gpn = min(pr.cluster.gpus_per_node, L.world)
    nodes = L.world // gpn
    head = [f"# Megatron-LM arguments written by foldplan export for {ENGINE} (pretrain_gpt.py): "
            f"{pr.model.name} on {L.world} x {pr.cluster.gpu.name}, seq {pr.train.seq}",
            f"# estimate {plan.estimate.step_time:.3f} s per step, peak {plan.estimate.peak_bytes / 2**30:.1f} GiB"]
    head += requirements(plan)
    if arch.unknown(pr.model):
        head.append("# FILL IN (model): foldplan's model file gives no rope base / norm eps / router loss "
                    "coefficients: Megatron's defaults are written (--rotary-base 10000); set the model's own")
    args = "\n".join(_line(f) for f in fl) + "\n"          # the planned flags only: `$(cat train.args)`
    script = "\n".join([
        "#!/bin/bash", *head,
        f"# {name}.args holds the same planned flags, one per line, no comments (`$(cat {name}.args)` reads them);",
        "# the training settings below are not in it: FILL IN "
        + ", ".join(v for v, _, _ in FILL_IN) + " (this script refuses to start without them)",
        f"# run on each of the {nodes} node(s) with NODE_RANK set",
        "set -euo pipefail",
        *_env(plan),
        "# ---- FILL IN: the training settings foldplan does not plan",
        "# (data tokenized elsewhere: NullTokenizer keeps the planned vocabulary; add --null-tokenizer-eod-id with",
        "#  the end-of-document id of the tokenizer of the model, or use --tokenizer-type HuggingFaceTokenizer)",
        *[f': "${{{v}:?FILL IN {v}: {what} ({flags_})}}"' for v, flags_, what in FILL_IN],
        "MEGATRON=${MEGATRON:-Megatron-LM}",
        f"torchrun --nnodes {nodes} --nproc-per-node {gpn} --node-rank ${{NODE_RANK:-0}} "
        f"--master-addr ${{MASTER_ADDR:-localhost}} --master-port ${{MASTER_PORT:-6000}} \\",
        "    \"$MEGATRON/pretrain_gpt.py\" \\",
        *[f"    {' '.join(shlex.quote(str(x)) for x in f)} \\" for f in fl],
        f"    {TRAINING} \\",
        "    \"$@\"",
        ""])
    return {f"{name}.sh": script, f"{name}.args": args}

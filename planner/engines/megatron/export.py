"""A plan as Megatron-LM flags: `<name>.args` (one flag per line, the argument list
pretrain_gpt.py takes) and `<name>.sh` (torchrun around the same flags, which also says
the GPU count). Flag names and their checks: NVIDIA/Megatron-LM
megatron/training/arguments.py at d98e8a6 (line numbers in the comments).

Per-stage layers (uneven, and the virtual chunks of an interleaved schedule) are spelled
out with `--pipeline-model-parallel-layout` (arguments.py:941-951; grammar in
megatron/core/transformer/pipeline_parallel_layer_layout.py, read back by
planner/engines/megatron/pplayout.py): virtual stage v of pipeline rank r is entry v * pp + r, and
each rank's layers are split over its vpp chunks as evenly as they go.
"""
from __future__ import annotations

import shlex

from planner.engines.megatron import recompute
from planner.engines.megatron.vocab import (CAPACITY_FACTOR_FLAG, CP_COMM_FLAG, FSDP_STRATEGY_FLAG,
                                           HIERARCHICAL_CP_FLAG, PP_LAYOUT_FLAG, RECOMPUTE, SWITCHES,
                                           cp_comm_type, flag, fsdp_strategy)


def _on(switch: str) -> tuple:
    """The switch (vocab.SWITCHES) that says `switch`."""
    return ("--" + SWITCHES[switch],)


def _set(name: str, *values) -> tuple:
    """A valued flag of the vocabulary, with its values."""
    return ("--" + name, *values)


def chunks(n: int, vpp: int) -> list[int]:
    """n layers over vpp virtual chunks, as evenly as they go (later chunks one heavier)."""
    base, extra = divmod(n, vpp)
    return [base + (1 if v >= vpp - extra else 0) for v in range(vpp)]


def pipeline_layout(L) -> str:
    """`--pipeline-model-parallel-layout` of the layout's stages (E = embedding, L = loss)."""
    pp, vpp = L.pp, L.vpp
    per = [chunks(s.num_layers, vpp) for s in L.stages]
    entries = []
    for v in range(vpp):
        for r in range(pp):
            n = per[r][v]
            body = f"t*{n}" if n > 1 else "t" * n
            first, last = v == 0 and r == 0, v == vpp - 1 and r == pp - 1
            entries.append(",".join(x for x in ("E" if first else "", body, "L" if last else "") if x))
    return "|".join(entries)


def _model(m) -> list[tuple[str, ...]]:
    out = [(flag("layers"), m.layers), ("--hidden-size", m.hidden), ("--num-attention-heads", m.heads),
           ("--kv-channels", m.head_dim)]
    if m.kv_heads != m.heads:
        out += [("--group-query-attention",), ("--num-query-groups", m.kv_heads)]
    if m.gated:
        out.append(("--swiglu",))
    if not m.tied_embeddings:
        out.append(("--untie-embeddings-and-output-weights",))
    out.append(("--normalization", "RMSNorm" if m.norm == "rmsnorm" else "LayerNorm"))
    if m.qk_norm:
        out.append(("--qk-layernorm",))
    out.append(("--add-bias-linear",) if m.linear_bias else ("--disable-bias-linear",))
    # the vocabulary as the plan counts it: no tokenizer to pad it to 128 * tp
    out += [("--tokenizer-type", "NullTokenizer"), ("--vocab-size", m.vocab), ("--make-vocab-size-divisible-by", 1)]
    if m.attention == "mla":
        a = m.mla
        out += [("--multi-latent-attention",), ("--q-lora-rank", a.q_lora_rank), ("--kv-lora-rank", a.kv_lora_rank),
                ("--qk-head-dim", a.qk_nope_head_dim), ("--qk-pos-emb-head-dim", a.qk_rope_head_dim),
                ("--v-head-dim", a.v_head_dim)]
    if m.mtp_layers:
        out.append(("--mtp-num-layers", m.mtp_layers))
    moe = m.moe
    if moe is None:
        return out + [("--ffn-hidden-size", m.ffn_hidden)]
    freq = "([" + ",".join(str(int(x)) for x in m.moe_layers()) + "])"
    out += [("--ffn-hidden-size", m.ffn_hidden or moe.expert_ffn_hidden), ("--num-experts", moe.experts),
            ("--moe-router-topk", moe.top_k), ("--moe-ffn-hidden-size", moe.expert_ffn_hidden),
            ("--moe-layer-freq", freq), ("--moe-router-score-function", moe.router_score),
            ("--moe-token-dispatcher-type", "alltoall")]
    if moe.shared_experts:
        out.append(("--moe-shared-expert-intermediate-size", moe.shared_experts * moe.shared_ffn_hidden))
    if moe.router_bias:
        out.append(("--moe-router-enable-expert-bias",))
    return out


def flags(plan) -> list[tuple[str, ...]]:
    """Every flag the plan sets, in order (model, parallelism, batch, memory savers, precision)."""
    pr, L = plan.problem, plan.layout
    t = pr.train
    s0 = L.stages[0]
    out = _model(pr.model)
    out += [(flag("tp"), L.tp), (flag("pp"), L.pp), (flag("cp"), L.cp)]
    if L.cp > 1:
        out.append(_set(CP_COMM_FLAG, cp_comm_type(L.cp_kind)))
        if L.cp_kind == "hybrid":         # arguments.py:580-585: the sizes multiply to cp
            out.append(_set(HIERARCHICAL_CP_FLAG, L.cp_ulysses, L.cp_ring))
    if pr.model.moe is not None:
        out += [(flag("ep"), s0.ep), (flag("etp"), s0.etp)]
    if L.tp > 1 and t.sequence_parallel:  # arguments.py:1432-1439: forced off at tp = 1
        out.append(_on("sequence_parallel"))
    if L.pp > 1:
        out.append(_set(PP_LAYOUT_FLAG, pipeline_layout(L)))
        if L.vpp > 1:                     # arguments.py:1000-1009: interleaving with pp = 2 needs it
            out.append(_on("overlap_p2p"))
    out += [(flag("seq"), t.seq), ("--max-position-embeddings", t.seq), (flag("micro_batch"), L.micro_batch),
            (flag("global_batch"), L.dp * L.micro_batch * L.num_microbatches)]
    form, why = recompute.form(L)
    if why:
        from planner.engines.errors import ExportError
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
    out.append(("--bf16",))
    return out


def _line(flag: tuple) -> str:
    return " ".join(shlex.quote(str(x)) for x in flag)


def render(plan, name: str) -> dict[str, str]:
    pr, L = plan.problem, plan.layout
    fl = flags(plan)
    gpn = min(pr.cluster.gpus_per_node, L.world)
    nodes = L.world // gpn
    head = (f"# Megatron-LM arguments written by foldplan export: {pr.model.name} on {L.world} x "
            f"{pr.cluster.gpu.name}, seq {pr.train.seq}; estimate {plan.estimate.step_time:.3f} s per step, "
            f"peak {plan.estimate.peak_bytes / 2**30:.1f} GiB")
    args = head + "\n" + "\n".join(_line(f) for f in fl) + "\n"
    script = "\n".join([
        "#!/bin/bash",
        head,
        f"# the same flags as {name}.args; run on each of the {nodes} node(s) with NODE_RANK set",
        "set -euo pipefail",
        "MEGATRON=${MEGATRON:-Megatron-LM}",
        f"torchrun --nnodes {nodes} --nproc-per-node {gpn} --node-rank ${{NODE_RANK:-0}} "
        f"--master-addr ${{MASTER_ADDR:-localhost}} --master-port ${{MASTER_PORT:-6000}} \\",
        "    \"$MEGATRON/pretrain_gpt.py\" \\",
        *[f"    {_line(f)} \\" for f in fl],
        "    \"$@\"",
        ""])
    return {f"{name}.sh": script, f"{name}.args": args}

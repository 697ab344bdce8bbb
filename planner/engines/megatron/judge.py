"""Megatron-LM judges an export with its own code (run by planner/engines/judge.py in a child process).

For each case: the argument file (`*.args`: comment lines dropped, the rest split on white space, as the
launch script reads it) and the launch script's `export NAME=VALUE` lines (the environment Megatron
reads at start-up) go through, in the order `pretrain_gpt.py` runs them (megatron-core 0.19.2):
`parse_args` (megatron/training/arguments.py:116), `validate_args` (:388),
`core_transformer_config_from_args` (megatron/training/argument_utils.py:277) ->
`TransformerConfig.__post_init__`, and `parallel_state.initialize_model_parallel`
(megatron/core/parallel_state.py:601) on a fake process group of the plan's world size, called with the
arguments megatron/training/initialize.py:370-394 passes (less the gloo twins of the dp groups, which
the fake backend cannot build). Every process group Megatron creates (rank 0
builds all of them) is recorded by name, so `groups` holds Megatron's own tp / cp / pp / dp / ep / etp /
edp rank groups.

The one GPU fact these checks ask, the compute capability (arguments.py:1339 `get_device_capability`;
arguments.py:1414 `get_device_arch_version` reads `get_device_properties(...).major`), is answered from
the plan's GPU (GPUSpec.compute_capability, from its preset), and Transformer Engine's version, which Megatron's
FP8 checks read (not installed here), from the version the export says it requires (`te_answers`); nothing else
is stubbed.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback
import types

from planner.engines.megatron import engine
from planner.specs.catalog import gpu_names, load_gpu

# Megatron's group names (parallel_state.create_group's group_desc) -> the axis they are
GROUPS = {"TENSOR_MODEL_PARALLEL_GROUP": "tp", "CONTEXT_PARALLEL_GROUP": "cp",
          "PIPELINE_MODEL_PARALLEL_GROUP": "pp", "DATA_PARALLEL_GROUP": "dp",
          "DATA_PARALLEL_GROUP_WITH_CP": "dp_cp", "EXPERT_MODEL_PARALLEL_GROUP": "ep",
          "EXPERT_TENSOR_PARALLEL_GROUP": "etp", "EXPERT_DATA_PARALLEL_GROUP": "edp"}


def capability(plan: dict) -> tuple[int, int] | None:
    """The CUDA compute capability of the plan's GPU (None: its spec gives none, not a CUDA GPU)."""
    c = plan["problem"]["cluster"]
    if "compute_capability" in c:                # a plan file states it beside the GPU's name
        cap = c["compute_capability"]
        return tuple(cap) if cap is not None else None
    return load_gpu(c["gpu"]).compute_capability if c["gpu"] in gpu_names() else None


def argv_of(text: str) -> list[str]:
    """The argument file as the launch script reads it: comment lines dropped, words split on blanks."""
    return [w for line in text.splitlines() if not line.lstrip().startswith("#") for w in line.split()]


def env_of(script: str) -> dict[str, str]:
    """`export NAME=VALUE` lines of the launch script (plain values only)."""
    out = {}
    for line in script.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "export" and "=" in words[1]:
            k, v = words[1].split("=", 1)
            if k.isidentifier() and "$" not in v:
                out[k] = v
    return out


@contextlib.contextmanager
def gpu_answers(cap: tuple[int, int]):
    """torch.cuda's compute capability answered from the GPU preset (the only stub)."""
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch
    saved = torch.cuda.get_device_capability, torch.cuda.get_device_properties
    torch.cuda.get_device_capability = lambda *a, **k: cap
    torch.cuda.get_device_properties = lambda *a, **k: types.SimpleNamespace(major=cap[0], minor=cap[1])
    try:
        yield
    finally:
        torch.cuda.get_device_capability, torch.cuda.get_device_properties = saved


@contextlib.contextmanager
def environment(env: dict[str, str]):
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def parsed_view(args, config) -> dict:
    """What Megatron read: degrees, recompute, sharding, model shape."""
    fsdp = args.data_parallel_sharding_strategy if args.use_megatron_fsdp else None
    return {
        "tp": args.tensor_model_parallel_size, "cp": args.context_parallel_size,
        "pp": args.pipeline_model_parallel_size, "vpp": args.virtual_pipeline_model_parallel_size or 1,
        "ep": args.expert_model_parallel_size, "etp": args.expert_tensor_parallel_size,
        "dp": args.data_parallel_size, "world": args.world_size,
        "edp": args.world_size // (args.expert_tensor_parallel_size * args.expert_model_parallel_size
                                   * args.pipeline_model_parallel_size),
        "cp_comm_type": config.cp_comm_type,
        "recompute": {"granularity": config.recompute_granularity, "method": config.recompute_method,
                      "num_layers": config.recompute_num_layers,
                      "modules": list(config.recompute_modules or []) if config.recompute_granularity == "selective"
                      else []},
        "sharding": {"distributed_optimizer": bool(args.use_distributed_optimizer), "megatron_fsdp": fsdp},
        "layers": config.num_layers, "hidden": config.hidden_size, "heads": config.num_attention_heads,
        "kv_groups": config.num_query_groups, "experts": config.num_moe_experts,
        "position_embedding": args.position_embedding_type, "rotary_base": args.rotary_base,
        "mtp_layers": config.mtp_num_layers or 0, "moe_grouped_gemm": bool(config.moe_grouped_gemm),
        "seq": args.seq_length, "micro_batch": args.micro_batch_size, "global_batch": args.global_batch_size,
        "pipeline_layout": str(args.pipeline_model_parallel_layout) if args.pipeline_model_parallel_layout else None,
        # MoE routing (transformer_config.py:812, 888, 892): forced balance, token-drop capacity and its padding
        "routing": {"forced": bool(getattr(config, "moe_router_force_load_balancing", False)),
                    "capacity_factor": getattr(config, "moe_expert_capacity_factor", None),
                    "pad": bool(getattr(config, "moe_pad_expert_input_to_capacity", False))},
        "fp8": {"format": config.fp8, "recipe": config.fp8_recipe if config.fp8 else None,
                "param_gather": bool(args.fp8_param_gather)},
    }


def placement_view(args, config) -> dict:
    """Which layers Megatron builds where, from its own layer-assignment functions (megatron-core
    0.19.2): with --pipeline-model-parallel-layout, PipelineParallelLayerLayout.get_layer_id_list
    (pipeline_parallel_layer_layout.py:194) per (pp rank, virtual stage); without it
    get_num_layers_to_build (transformer_block.py:70) and get_transformer_layer_offset
    (transformer_layer.py:59). `chunks[p][v]`: decoder layer ids of chunk v of rank p; `mtp[p][v]`: its
    MTP modules; `full[p][v]`: the layers --recompute-method block recomputes, the first
    recompute_num_layers of each chunk's layers (recompute.py:167-181)."""
    pp = args.pipeline_model_parallel_size
    vpp = args.virtual_pipeline_model_parallel_size or 1
    layout = config.pipeline_model_parallel_layout
    chunks, mtp = [], []
    # the functions read vp_stage only where parallel_state says the run is interleaved
    # deferred: megatron loads in the judge's child process only
    from megatron.core import parallel_state as ps
    saved = ps.get_virtual_pipeline_model_parallel_world_size()
    ps.set_virtual_pipeline_model_parallel_world_size(args.virtual_pipeline_model_parallel_size)
    try:
        _chunks_of(args, config, layout, chunks, mtp, pp, vpp)
    finally:
        ps.set_virtual_pipeline_model_parallel_world_size(saved)
    n = config.recompute_num_layers or 0
    block = config.recompute_granularity == "full" and config.recompute_method == "block"
    full = [[c[:n] if block else [] for c in row] for row in chunks]
    return {"chunks": chunks, "mtp": mtp, "full": full}


def _chunks_of(args, config, layout, chunks: list, mtp: list, pp: int, vpp: int) -> None:
    # deferred: megatron loads in the judge's child process only
    from megatron.core.transformer.enums import LayerType
    from megatron.core.transformer.transformer_block import get_num_layers_to_build
    from megatron.core.transformer.transformer_layer import get_transformer_layer_offset
    for p in range(pp):
        row, mrow = [], []
        for v in range(vpp):
            vs = v if args.virtual_pipeline_model_parallel_size else None
            if layout is not None:
                row.append(layout.get_layer_id_list(LayerType.decoder, vp_stage=vs, pp_rank=p))
                mrow.append(layout.get_num_layers_to_build(LayerType.mtp, vp_stage=vs, pp_rank=p))
            else:
                first = get_transformer_layer_offset(config, vp_stage=vs, pp_rank=p)
                row.append(list(range(first, first + get_num_layers_to_build(config, vp_stage=vs, pp_rank=p))))
                mrow.append((config.mtp_num_layers or 0) if (p, v) == (pp - 1, vpp - 1) else 0)
        chunks.append(row)
        mtp.append(mrow)


def build_groups(args, caveats: list) -> dict[str, list[list[int]]]:
    """initialize_model_parallel on a fake process group of args.world_size; every group it made, by axis."""
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch
    from torch.testing._internal.distributed.fake_pg import FakeStore
    from megatron.core import parallel_state as ps
    made: dict[str, set] = {}
    create = ps.create_group

    def record(ranks=None, *a, group_desc=None, **k):     # records, then calls Megatron's own
        axis = GROUPS.get(group_desc or "")
        if axis and ranks is not None and k.get("backend") != "gloo":
            made.setdefault(axis, set()).add(tuple(ranks))
        return create(ranks, *a, group_desc=group_desc, **k)

    # high-priority streams (arguments.py:1444-1448: Megatron FSDP from Blackwell on) are NCCL options
    # (ProcessGroupNCCL.Options); a CPU build of torch has no NCCL: then the groups are built without
    # them -- they set a stream priority, not which ranks a group holds -- and the verdict says so
    priority = args.high_priority_stream_groups
    if priority and not hasattr(torch.distributed, "ProcessGroupNCCL"):
        priority = None
        caveats.append(f"high-priority stream groups {args.high_priority_stream_groups} need NCCL (CPU torch "
                       f"here): groups built without the priority")
    torch.distributed.init_process_group("fake", store=FakeStore(), rank=0, world_size=args.world_size)
    ps.create_group = record
    try:
        ps.initialize_model_parallel(            # the call of megatron/training/initialize.py:370-394
            args.tensor_model_parallel_size, args.pipeline_model_parallel_size,
            args.virtual_pipeline_model_parallel_size,
            pipeline_model_parallel_comm_backend=args.pipeline_model_parallel_comm_backend,
            use_sharp=args.use_sharp, gtp_remat_size=args.gtp_weight_remat_size,
            expert_gtp_remat_size=args.expert_gtp_weight_remat_size,
            context_parallel_size=args.context_parallel_size,
            hierarchical_context_parallel_sizes=args.hierarchical_context_parallel_sizes,
            hybrid_context_parallel=args.hybrid_context_parallel,
            expert_model_parallel_size=args.expert_model_parallel_size,
            num_distributed_optimizer_instances=args.num_distributed_optimizer_instances,
            expert_tensor_parallel_size=args.expert_tensor_parallel_size,
            distributed_timeout_minutes=args.distributed_timeout_minutes,
            nccl_communicator_config_path=args.nccl_communicator_config_path,
            order='tp-cp-ep-dp-pp' if not args.use_tp_pp_dp_mapping else 'tp-cp-ep-pp-dp',
            # the fake backend cannot build gloo groups (CPU twins of the dp groups, same ranks); the
            # NCCL-side groups, which are the layout, are all built
            create_gloo_process_groups=False,
            high_priority_stream_groups=priority,
            sharp_enabled_group=args.sharp_enabled_group)
    finally:
        ps.create_group = create
        ps.destroy_model_parallel()
        torch.distributed.destroy_process_group()
    cp = args.context_parallel_size           # hierarchical CP adds its sub-groups under the same name
    made["cp"] = {g for g in made.get("cp", ()) if len(g) == cp}
    return {k: sorted(list(g) for g in v) for k, v in made.items()}


# Transformer Engine kernels TransformerConfig refuses when TE is not installed (as on this CPU machine; a
# Megatron job runs with TE, its default --transformer-impl) and that change no layout, memory or numerics
# (a fusion): (its message, the argument that asks for it, the value without it, what the caveat says),
# transformer_config.py at megatron-core 0.19.2. TE's version floors for a feature (MoE FP8: >= 1.7) stay
# refusals: an export must name the TE it needs
TE_ONLY = (("apply_rope_fusion is not available", "apply_rope_fusion", False,
            "rope fusion needs Transformer Engine (transformer_config.py:2179-2186): checked with --no-rope-fusion"),
           ("fused permutation is not available", "moe_permute_fusion", False,
            "fused MoE permutation needs Transformer Engine >= 2.1 (transformer_config.py:2667): checked without "
            "--moe-permute-fusion"))


def required_te(script: str) -> str | None:
    """The Transformer Engine version the export says it needs (its `# requires transformer-engine >= V` line)."""
    for line in script.splitlines():
        words = line.split()
        if words[:4] == ["#", "requires", "transformer-engine", ">="] and len(words) > 4:
            return words[4]
    return None


@contextlib.contextmanager
def te_answers(version: str | None, out: dict):
    """Megatron's Transformer Engine version checks (megatron/core/utils.py:295-335, cached in `_te_version`)
    answered as the version the export requires: the export is judged as run where it says it runs (not
    installed here, Megatron reads 0.0.0). The verdict says so in `caveats`."""
    if version is None:
        yield
        return
    # deferred: megatron loads in the judge's child process only
    from megatron.core import utils
    from packaging.version import Version
    saved = utils._te_version
    utils._te_version = Version(version)
    out.setdefault("caveats", []).append(f"Transformer Engine version checks answered as {version}, the version "
                                         f"the export requires")
    try:
        yield
    finally:
        utils._te_version = saved


def transformer_config(build, args, out: dict):
    """core_transformer_config_from_args -> TransformerConfig.__post_init__. A feature that needs Transformer
    Engine, which is not installed where the judge runs (`TE_ONLY`), is turned off and the config checked
    again, and the verdict says so in `caveats`. Nothing else is retried."""
    for _ in range(len(TE_ONLY) + 1):
        try:
            return build(args)
        except ValueError as e:
            hit = next((t for t in TE_ONLY if t[0] in str(e)), None)
            if hit is None or getattr(args, hit[1], None) == hit[2]:
                raise
            setattr(args, hit[1], hit[2])
            out.setdefault("caveats", []).append(f"not installed where the judge ran: {hit[3]}")
    return build(args)


def judge_one(case: dict) -> dict:
    plan, files = case["plan"], case["files"]
    world = plan["layout"]["world"]
    gpu = plan["problem"]["cluster"]["gpu"]
    out = {"accepted": False, "reason": None, "engine": f"megatron-core {engine.version()}", "parsed": None,
           "groups": None}
    args_text = next((t for n, t in files.items() if n.endswith(".args")), None)
    script = next((t for n, t in files.items() if n.endswith(".sh")), "")
    cap = capability(plan)
    if args_text is None or cap is None:
        out["reason"] = "no .args file in the case" if args_text is None else \
            f"GPU {gpu!r} states no CUDA compute capability (GPUSpec.compute_capability): not a CUDA GPU"
        return out
    arguments = engine.load()
    # deferred: torch and the engine's own packages load only in the judge's child process
    from megatron.training.argument_utils import core_transformer_config_from_args
    stage = "parse_args"
    try:
        with environment(env_of(script)), gpu_answers(cap), te_answers(required_te(script), out), \
                contextlib.redirect_stdout(io.StringIO()):
            args = engine.parse(argv_of(args_text), world=world)
            stage = "validate_args"
            arguments.validate_args(args)
            stage = "TransformerConfig"
            config = transformer_config(core_transformer_config_from_args, args, out)
            stage = "initialize_model_parallel"
            out["groups"] = build_groups(args, out.setdefault("caveats", []))
    except Exception as e:                   # the engine's own refusal, as it words it
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        out["reason"] = f"{stage}: {type(e).__name__}: {msg}"
        return out
    out["accepted"] = True
    out["parsed"] = parsed_view(args, config)
    out["parsed"]["placement"] = placement_view(args, config)
    return out


def main() -> None:
    cases = json.loads(sys.stdin.read())
    verdicts = []
    for case in cases:
        try:
            verdicts.append(judge_one(case))
        except Exception:                    # a judge bug, not a verdict: say where, keep going
            verdicts.append({"accepted": False, "reason": "judge error: " + traceback.format_exc(limit=3)[-400:],
                             "engine": "megatron", "parsed": None, "groups": None})
    sys.stdout.write("\n" + json.dumps(verdicts) + "\n")


if __name__ == "__main__":
    main()

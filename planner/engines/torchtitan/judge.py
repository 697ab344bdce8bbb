"""torchtitan's own code as the judge of an export (planner/engines/judge.py runs this module in a
child process; FOLDPLAN_JUDGE says which release: "torchtitan" is 0.3.0 as installed,
"torchtitan-0.2" is 0.2.2 from .engines/torchtitan-0.2, first on sys.path).

Per case, on CPU, with a fake process group of the plan's world size:

* 0.3.0: the exported Python module loaded as a user runs it, by torchtitan's
  `ConfigManager.parse_args(["--module", M, "--config", F])` (config/manager.py: tyro, then
  `Trainer.Config.__post_init__`: CUDA graphs vs PP / EP, the PP micro-batch); 0.2.2: the TOML by its
  `ConfigManager.parse_args(["--job.config_file", path])` and its train spec's model args;
* `ParallelDims` (its `_validate`) and `build_mesh()`; the sequence divisor the trainer checks
  (trainer.py:314-325 in 0.3 reads tp (with SP) and 2 * cp: `ParallelDims.seq_len_divisor` is
  the same product); the batch checks of Trainer.__init__ (trainer.py:423-437);
* the model args updated from the job config (`update_from_config`: RoPE maximum, TP | heads, CP
  vs the attention kernel) and the model built on the meta device;
* with PP: the schedule class, the engine's stage-to-rank mapping and module split (0.3:
  `_get_pp_rank_to_stage_indices_mapping` and `_split_module`; 0.2: `pipeline_module_split` for pp
  rank 0), and that the parts name every module of the built model (torchtitan drops a module no
  part names without a word: `output` where the module is `lm_head`).

No GPU fact is needed: the checks above that read one (`enable_fsdp_symm_mem`: compute capability
>= (9, 0)) are not set by the exports.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from pathlib import Path
from importlib.metadata import version
import contextlib
import io
import inspect
import traceback
import logging


def _version() -> str:
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torchtitan
    where = Path(torchtitan.__file__).resolve()
    if ".engines" in where.parts:
        return "torchtitan 0.2.2"
    return f"torchtitan {version('torchtitan')}"


def _fake_pg(world: int) -> None:
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore
    if dist.is_initialized():
        dist.destroy_process_group()
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)


def _groups(dims) -> dict:
    """Rank 0's group on each 1-D mesh the engine built (its own names)."""
    return {k: [int(r) for r in m.mesh.flatten().tolist()] for k, m in dims.get_all_one_dimensional_meshes().items()}


def _coverage(model, parts: list[list[str]]) -> str | None:
    """The model's children no part names (torchtitan's split keeps only what is named)."""
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch.nn as nn
    named = {n for p in parts for n in p}
    missing = []
    for name, child in model.named_children():
        if child is None:
            continue
        if isinstance(child, (nn.ModuleDict, nn.ModuleList)) or hasattr(child, "keys") and name == "layers":
            keys = list(child.keys()) if hasattr(child, "keys") else [str(i) for i in range(len(child))]
            missing += [f"{name}.{k}" for k in keys if f"{name}.{k}" not in named]
        elif name not in named:
            missing.append(name)
    unknown = sorted(named - {f"{n}.{k}" for n, c in model.named_children() if hasattr(c, "keys")
                              for k in c.keys()} - {n for n, _ in model.named_children()})
    if missing or unknown:
        return (f"module_fqns_per_model_part leaves {', '.join(missing[:4]) or 'nothing'} of the model in no part"
                f"{' and names ' + ', '.join(unknown[:4]) + ', which the model has not' if unknown else ''}")
    return None


def _stage_layers(parts: list[list[str]], pp: int) -> list[int]:
    """Transformer blocks per pipeline rank, chunk k on rank k % pp (the looped schedules' mapping)."""
    counts = [sum(1 for n in p if n.startswith("layers.")) for p in parts]
    return [sum(counts[r::pp]) for r in range(pp)]


def _model_facts(layers: int, dim: int, att, moe, seq: int) -> dict:
    return {"layers": layers, "dim": dim, "heads": getattr(att, "n_heads", None),
            "kv_heads": getattr(att, "n_kv_heads", None) or getattr(att, "n_heads", None),
            "experts": getattr(moe, "num_experts", None), "seq": seq}


class _Exit(Exception):
    """The config manager (tyro) refused by exiting; its message, from what it printed."""


def _quiet(call):
    """Run `call` with stdout / stderr captured; a SystemExit becomes _Exit carrying the printed message."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(buf):
            return call()
    except SystemExit as e:
        text = " ".join(line.strip(" │╭╮╰╯─┃━") for line in buf.getvalue().splitlines())
        raise _Exit(f"the config manager exited ({e.code}): {' '.join(text.split())[:400]}") from None


def _judge_03(files: dict, world: int) -> dict:
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch
    from torchtitan.config.manager import ConfigManager
    from torchtitan.distributed import ParallelDims
    from torchtitan.distributed import pipeline_parallel as ppmod
    (name, text), = [(n, t) for n, t in files.items() if n.endswith(".py")]
    mod = Path(name).stem
    with tempfile.TemporaryDirectory() as d:
        Path(d, name).write_text(text)
        sys.path.insert(0, d)
        sys.modules.pop(mod, None)
        try:
            fn = next(line.split("def ", 1)[1].split("(")[0] for line in text.splitlines() if line.startswith("def "))
            config = _quiet(lambda: ConfigManager().parse_args(["--module", mod, "--config", fn]))
        finally:
            sys.path.remove(d)
    par, tr = config.parallelism, config.training
    _fake_pg(world)
    dims = ParallelDims.from_config(par, world)
    dims.build_mesh()
    seq_div = (dims.tp if par.enable_sequence_parallel else 1) * (2 * dims.cp if dims.cp > 1 else 1)
    if tr.seq_len % seq_div:
        raise ValueError(f"Training sequence length ({tr.seq_len}) must be divisible by {seq_div}")
    _batch_checks(tr, dims)
    mc = config.model_spec.model
    mc.update_from_config(config=config)
    with torch.device("meta"):
        model = mc.build()
    parsed = {"schedule": None, "vpp": 1}
    if dims.pp > 1:
        stages, *_ = ppmod._get_pipeline_metadata(dims, par, mc)
        parts = par.module_fqns_per_model_part or ppmod._generate_llm_fqn_per_model_part(stages, len(mc.layers), 1, 1)
        for r in range(dims.pp):
            ppmod._get_pp_rank_to_stage_indices_mapping(r, dims.pp, par.pipeline_parallel_schedule, len(parts))
        ppmod._split_module(model, parts[0])
        why = _coverage(model, parts)
        if why:
            raise ValueError(why)
        parsed.update(schedule=par.pipeline_parallel_schedule, vpp=len(parts) // dims.pp,
                      stage_layers=_stage_layers(parts, dims.pp))
    parsed["parallelize_note"] = _parallelize_checks(
        config.model_spec.parallelize_fn, model, parallel_dims=dims, training=tr, parallelism=par,
        compile_config=config.compile, ac_config=config.activation_checkpoint, dump_folder=config.dump_folder)
    layer = mc.layers[0]
    moe = next((getattr(layer_, "moe", None) for layer_ in mc.layers if getattr(layer_, "moe", None)), None)
    ac = config.activation_checkpoint
    parsed.update(dp_replicate=dims.dp_replicate, dp_shard=dims.dp_shard, cp=dims.cp, tp=dims.tp, pp=dims.pp,
                  ep=dims.ep, etp=None, activation_checkpoint=None if ac is None else type(ac).__qualname__,
                  reshard=par.fsdp_reshard_after_forward, cuda_graphs=not tr.disable_cuda_graphs,
                  attention=type(layer.attention.inner_attention).__qualname__,       # the kernel CP wraps
                  cp_load_balancer=par.context_parallel_load_balancer,
                  **_model_facts(len(mc.layers), mc.dim, layer.attention, moe, tr.seq_len))
    return {"parsed": parsed, "groups": _groups(dims)}


def _batch_checks(tr, dims) -> None:
    """Trainer.__init__'s batch arithmetic (0.3 trainer.py:423-437; 0.2 train.py:196-215), on the
    engine's own mesh sizes."""
    degree = dims.get_mesh("batch").size() if dims.dp_enabled else 1
    gb = tr.global_batch_size if tr.global_batch_size > 0 else tr.local_batch_size * degree
    if gb % (tr.local_batch_size * degree):
        raise ValueError(f"global batch size must be multiple of local batch size times data-parallel degree "
                         f"({gb} % ({tr.local_batch_size} * {degree}) != 0)")


def _judge_02(files: dict, world: int) -> dict:
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch
    from torchtitan.config.manager import ConfigManager
    from torchtitan.distributed import ParallelDims
    from torchtitan.distributed import pipeline_parallel as ppmod
    from torchtitan.protocols.train_spec import get_train_spec
    (name, text), = [(n, t) for n, t in files.items() if n.endswith(".toml")]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, name)
        path.write_text(text)
        jc = _quiet(lambda: ConfigManager().parse_args(["--job.config_file", str(path)]))
    par, tr = jc.parallelism, jc.training
    _fake_pg(world)
    dims = ParallelDims(dp_replicate=par.data_parallel_replicate_degree, dp_shard=par.data_parallel_shard_degree,
                        cp=par.context_parallel_degree, tp=par.tensor_parallel_degree,
                        pp=par.pipeline_parallel_degree, ep=par.expert_parallel_degree,
                        etp=par.expert_tensor_parallel_degree, world_size=world)
    dims.build_mesh()
    if tr.seq_len % dims.seq_len_divisor:
        raise ValueError(f"seq_len {tr.seq_len} is not divisible by {dims.seq_len_divisor} (tp * 2 * cp)")
    _batch_checks(tr, dims)
    spec = get_train_spec(jc.model.name)
    args = spec.model_args[jc.model.flavor]
    args.update_from_config(jc)
    with torch.device("meta"):
        model = spec.model_cls(args)
    parsed = {"schedule": None, "vpp": 1}
    if dims.pp > 1:
        parts = par.module_fqns_per_model_part
        ppmod.pipeline_module_split(model, dims.get_mesh("pp"), par.pipeline_parallel_schedule,
                                    torch.device("cpu"), parts)
        why = _coverage(model, parts)
        if why:
            raise ValueError(why)
        parsed.update(schedule=par.pipeline_parallel_schedule, vpp=len(parts) // dims.pp,
                      stage_layers=_stage_layers(parts, dims.pp))
    parsed["parallelize_note"] = _parallelize_checks(spec.parallelize_fn, model, dims, jc)
    moe = getattr(args, "moe_args", None)
    parsed.update(dp_replicate=dims.dp_replicate, dp_shard=dims.dp_shard, cp=dims.cp, tp=dims.tp, pp=dims.pp,
                  ep=dims.ep, etp=dims.etp, activation_checkpoint=jc.activation_checkpoint.mode,
                  selective_ac_option=jc.activation_checkpoint.selective_ac_option,
                  reshard=par.fsdp_reshard_after_forward,
                  layers=args.n_layers, dim=args.dim, heads=args.n_heads,
                  kv_heads=getattr(args, "n_kv_heads", None) or args.n_heads,
                  experts=getattr(moe, "num_experts", None) if getattr(args, "moe_enabled", True) else None,
                  seq=tr.seq_len)
    return {"parsed": parsed, "groups": _groups(dims)}


def _parallelize_checks(fn, *args, **kw) -> str | None:
    """Run the model's own parallelize function on the meta model: its start-up checks (0.2:
    models/deepseek_v3/infra/parallelize.py:60-72, CP only with SDPA; seq_len over tp * 2 * cp) are
    its first statements. A refusal is an exception raised in that function's own file; one raised
    deeper (torch's sharding of meta tensors on a fake process group) is no verdict on the config,
    and is returned as a note."""
    try:
        fn(*args, **kw)
    except Exception as e:  # noqa: BLE001
        frames = traceback.extract_tb(e.__traceback__)
        if frames and frames[-1].filename == inspect.getfile(fn):
            raise
        return f"{type(e).__name__} past its checks: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"[:200]
    return None


def verdict(case: dict) -> dict:
    plan, files = case["plan"], case["files"]
    world = plan["layout"]["world"]
    v02 = os.environ.get("FOLDPLAN_JUDGE") == "torchtitan-0.2"
    out = {"accepted": False, "reason": None, "engine": _version(), "parsed": {}, "groups": None}
    try:
        got = (_judge_02 if v02 else _judge_03)(files, world)
    except (SystemExit, _Exit) as e:             # tyro / argparse refuse by exiting
        out["reason"] = str(e) if isinstance(e, _Exit) else f"the config manager exited ({e.code})"
    except (Exception, AssertionError) as e:     # noqa: BLE001  the engine's refusal, whatever its type
        out["reason"] = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
    else:
        out.update(got, accepted=True)
    return out


def main() -> None:
    logging.disable(logging.WARNING)
    cases = json.loads(sys.stdin.read())
    out = [verdict(c) for c in cases]
    sys.stdout.flush()
    print("\n" + json.dumps(out))


if __name__ == "__main__":
    main()

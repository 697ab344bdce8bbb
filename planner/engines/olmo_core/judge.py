"""OLMo-core's own code as the judge of `foldplan export --to olmo-core` (run by planner.engines.judge in
a child process: JSON list of {"plan", "files"} on stdin, JSON list of verdicts on stdout's last line).

For each exported script it executes the config-building part (the module body and its
build_model_config() / build_train_module_config(), never main()), so OLMo-core's config classes
validate themselves (TransformerContextParallelConfig.__post_init__, the AC config's, ...), then on a
fake process group of the script's WORLD_SIZE builds the meshes the train module would:
  dense (TransformerTrainModuleConfig): distributed/parallel/__init__.py build_world_mesh, as
    TransformerTrainModule / TransformerPipelineTrainModule call it (train_module.py:174,
    pipeline_train_module.py:143), and get_dp_model_mesh (its dp x cp flattening);
  MoE (OLMoDDPTrainModuleConfig): OLMoDDPTrainModule._build_world_mesh (ddp_train_module.py:405),
    the dense (pp, dp, cp) mesh and the folded MoE (pp, ep_dp, ep_mp) mesh, with its own
    _mesh_dim_rank_groups for dp x cp;
asks the attention backend whether it runs the CP kind (nn/attention/backend.py assert_supports_ring_cp /
_ulysses_cp); and builds the model on the meta device and runs OLMo-core's own parallelize step on it
(CP, TP, EP, AC; `_parallelize`) up to the weight initialisation, without the FSDP / DDP wrapper
(with pp > 1 only the AC mode, by the model's own apply_activation_checkpointing). The
rank_microbatch_size check the train modules make in __init__ (train_module.py:164,
ddp_train_module.py:144) needs a built train module; it is not run here.

The groups it returns are every group of each axis: tp, cp, dp, dp_cp, pp, and for MoE ep (ep_mp)
and edp (ep_dp), each a sorted list of sorted rank lists.
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import sys
import warnings
from importlib.metadata import version as v
import traceback


def version() -> str:
    return f"ai2-olmo-core {v('ai2-olmo-core')}"


def _script(files: dict) -> tuple[str, str]:
    name = next((n for n in files if n.endswith(".py")), None)
    if name is None:
        raise ValueError("no .py file in the export")
    return name, files[name]


def _run_script(name: str, text: str) -> dict:
    """The script's namespace, executed as a module (not __main__: main() does not run)."""
    ns = {"__name__": "foldplan_olmo_export", "__file__": name}
    exec(compile(text, name, "exec"), ns)
    return ns


def _groups(mesh_tensor, names, dims) -> list[list[int]]:
    """Every group along `dims` of a rank tensor whose axes are `names`."""
    idx = [names.index(d) for d in dims]
    other = [i for i in range(len(names)) if i not in idx]
    t = mesh_tensor.permute(*other, *idx).contiguous()
    size = 1
    for i in idx:
        size *= mesh_tensor.shape[i]
    return sorted(sorted(int(r) for r in row) for row in t.reshape(-1, size).tolist())


def _fresh_world(world: int) -> None:
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore
    import olmo_core.distributed.parallel as par
    if dist.is_initialized():
        dist.destroy_process_group()
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    par._WORLD_MESH = None


def _dense_groups(tm) -> dict:
    # deferred: torch and the engine's own packages load only in the judge's child process
    from olmo_core.distributed.parallel import build_world_mesh, get_dp_model_mesh
    mesh = build_world_mesh(dp=tm.dp_config, tp=tm.tp_config, cp=tm.cp_config, pp=tm.pp_config,
                            ep=tm.ep_config, device_type="cpu")
    names, t = list(mesh.mesh_dim_names), mesh.mesh
    out = {}
    for axis, dims in (("pp", ["pp"]), ("dp", ["dp"]), ("cp", ["cp"]), ("tp", ["tp"])):
        out[axis] = _groups(t, names, dims) if dims[0] in names else [[r] for r in range(t.numel())]
    dpcp = [d for d in ("dp", "cp") if d in names]
    out["dp_cp"] = _groups(t, names, dpcp)
    model_mesh = sorted(int(r) for r in get_dp_model_mesh(mesh).mesh.flatten().tolist())
    assert model_mesh in out["dp_cp"], "get_dp_model_mesh's group of rank 0 is not a dp x cp group"
    return {"mesh": dict(zip(names, t.shape)), "groups": out, "module": None, "world_mesh": mesh}


def _moe_groups(tm) -> dict:
    # deferred: torch and the engine's own packages load only in the judge's child process
    from olmo_core.train.train_module.transformer.ddp_train_module import OLMoDDPTrainModule
    mod = OLMoDDPTrainModule.__new__(OLMoDDPTrainModule)     # the mesh builder only, not __init__
    mod.world_mesh = {}
    OLMoDDPTrainModule._build_world_mesh(mod, dp=tm.dp_config, tp=tm.tp_config, cp=tm.cp_config,
                                         pp=tm.pp_config, ep=tm.ep_config, device_type="cpu")
    dense = mod.world_mesh["dense"]
    names, t = list(dense.mesh_dim_names), dense.mesh
    out = {"tp": [[r] for r in range(t.numel())]}
    for axis in ("pp", "dp", "cp"):
        out[axis] = _groups(t, names, [axis]) if axis in names else [[r] for r in range(t.numel())]
    dpcp = tuple(d for d in ("dp", "cp") if d in names)
    out["dp_cp"] = sorted(sorted(g) for g in OLMoDDPTrainModule._mesh_dim_rank_groups(dense, dpcp))
    moe = mod.world_mesh["moe"]
    shape = dict(zip(names, t.shape))
    if moe is not None:
        mn, mt = list(moe.mesh_dim_names), moe.mesh
        out["ep"], out["edp"] = _groups(mt, mn, ["ep_mp"]), _groups(mt, mn, ["ep_dp"])
        shape.update({f"moe.{k}": v for k, v in zip(mn, mt.shape)})
    else:                                    # ep 1: experts replicated, reduced over dp x cp
        out["ep"], out["edp"] = [[r] for r in range(t.numel())], out["dp_cp"]
    return {"mesh": shape, "groups": out, "module": mod, "world_mesh": None}


def _backend(model_cfg, tm) -> dict:
    """The attention backend's own answer on the CP kind (nn/attention/backend.py); a package it
    needs that is not installed here is reported as required, not as a refusal."""
    if tm.cp_config is None:
        return {}
    # deferred: torch and the engine's own packages load only in the judge's child process
    from olmo_core.nn.attention import AttentionBackendName
    backend = AttentionBackendName(_backend_name(model_cfg))
    try:
        backend.assert_supports_ring_cp() if tm.cp_config.ring is not None else backend.assert_supports_ulysses_cp()
    except RuntimeError as e:
        if "package" not in str(e):
            raise
        return {"requires": str(e)}
    return {}


def _to_weight_init(run) -> str:
    """Run OLMo-core's parallelize step; it ends by initialising the weights, which a meta-device
    model cannot (torch has no random generator on meta): reaching that is the end of the check."""
    try:
        run()
    except RuntimeError as e:
        frames = {f.name for f in traceback.extract_tb(e.__traceback__)}
        if "META" in str(e).upper() and frames & {"init_weights", "init_model_weights"}:
            return "applied up to weight initialisation (meta device)"
        raise
    return "applied"


def _parallelize(model_cfg, tm, built, skip_cp: bool) -> str:
    """OLMo-core's own parallelize step on the meta-device model: CP, TP, EP and AC as the train module
    applies them (train/train_module/transformer/common.py:34 parallelize_model for dense models,
    OLMoDDPTrainModule.parallelize_and_init_model for MoE), without the FSDP / DDP wrapper; for
    pp > 1 the stages are split first on devices, which is not run here."""
    # deferred: torch and the engine's own packages load only in the judge's child process
    import torch
    model = model_cfg.build(init_device="meta")
    if tm.pp_config is not None:             # the AC mode alone, by the model's own method
        ac = tm.ac_config
        if ac is not None:
            model.apply_activation_checkpointing(ac.mode, block_interval=ac.block_interval, modules=ac.modules,
                                                 activation_memory_budget=ac.activation_memory_budget)
        return "AC applied; the rest not run (pp > 1: OLMo-core splits the model into stages on devices first)"
    cp = None if skip_cp else tm.cp_config
    meta = torch.device("meta")
    if built["module"] is not None:                       # OLMoDDPTrainModule
        mod = built["module"]
        mod.device, mod.max_sequence_length, mod.rank_microbatch_size = meta, tm.max_sequence_length, tm.rank_microbatch_size
        return _to_weight_init(lambda: mod.parallelize_and_init_model(
            model, compile_model=False, float8_config=tm.float8_config, dp_config=tm.dp_config, cp_config=cp,
            ep_config=tm.ep_config, ac_config=tm.ac_config))
    # deferred: torch and the engine's own packages load only in the judge's child process
    from olmo_core.train.train_module.transformer.common import parallelize_model
    return _to_weight_init(lambda: parallelize_model(
        model, world_mesh=built["world_mesh"], device=meta, max_sequence_length=tm.max_sequence_length,
        rank_microbatch_size=tm.rank_microbatch_size, compile_model=False, float8_config=tm.float8_config,
        dp_config=None, tp_config=tm.tp_config, cp_config=cp, ep_config=tm.ep_config, ac_config=tm.ac_config))


def _backend_name(model_cfg) -> str:
    block = model_cfg.block
    att = getattr(block, "attention", None) or getattr(block, "sequence_mixer", None)
    return str(getattr(att, "backend", None) or "torch")


def _parsed(ns, model_cfg, tm) -> dict:
    cp = tm.cp_config
    ep = tm.ep_config
    return {"world": ns["WORLD_SIZE"], "seq": tm.max_sequence_length,
            "micro_batch": tm.rank_microbatch_size // tm.max_sequence_length,
            "global_batch": ns["GLOBAL_BATCH_SIZE"] // tm.max_sequence_length,
            "tp": tm.tp_config.degree if tm.tp_config else 1, "cp": cp.degree if cp else 1,
            "cp_kind": None if cp is None else ("ulysses" if cp.uly is not None else "ring"),
            "pp": tm.pp_config.degree if tm.pp_config else 1,
            "split_points": tm.pp_config.split_points if tm.pp_config else None,
            "ep": ep.degree if ep else 1, "sharding": str(tm.dp_config.name),
            "train_module": type(tm).__name__.replace("Config", ""),
            "ac": None if tm.ac_config is None else {"mode": str(tm.ac_config.mode),
                                                     "block_interval": tm.ac_config.block_interval},
            "float8": bool(tm.float8_config and tm.float8_config.enabled), "compile": tm.compile_model,
            "model": {"class": type(model_cfg).__name__, "d_model": model_cfg.d_model,
                      "n_layers": model_cfg.n_layers, "vocab_size": model_cfg.vocab_size,
                      "num_params": model_cfg.num_params, "num_active_params": model_cfg.num_active_params}}


def judge_one(case: dict) -> dict:
    verdict = {"accepted": False, "reason": None, "engine": version(), "parsed": None, "groups": None}
    try:
        name, text = _script(case["files"])
        ns = _run_script(name, text)
        model_cfg, tm = ns["build_model_config"](), ns["build_train_module_config"]()
        verdict["parsed"] = _parsed(ns, model_cfg, tm)
        _fresh_world(ns["WORLD_SIZE"])
        # deferred: torch and the engine's own packages load only in the judge's child process
        from olmo_core.train.train_module import OLMoDDPTrainModuleConfig
        built = _moe_groups(tm) if isinstance(tm, OLMoDDPTrainModuleConfig) else _dense_groups(tm)
        verdict["parsed"]["mesh"] = {k: int(v) for k, v in built["mesh"].items()}
        verdict["groups"] = built["groups"]
        needs = _backend(model_cfg, tm)
        verdict["parsed"].update(needs)
        done = _parallelize(model_cfg, tm, built, skip_cp=bool(needs))
        verdict["parsed"]["parallelize"] = done + (" (CP not applied: its backend needs a package not installed "
                                                   "here)" if needs and tm.pp_config is None else "")
        verdict["accepted"] = True
    except Exception as e:                              # the engine's refusal, in its own words
        verdict["reason"] = f"{type(e).__name__}: {e}".splitlines()[0]
    return verdict


def main() -> None:
    cases = json.loads(sys.stdin.read())
    logging.disable(logging.WARNING)
    out = []
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for case in cases:
            out.append(judge_one(case))
    print(json.dumps(out))


if __name__ == "__main__":
    main()

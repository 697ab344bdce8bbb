"""Read an OLMo-core training script (Python: OLMo-core's src/scripts/train/*.py, or foldplan's own
export) into a ForeignConfig, without running it: the script's syntax tree is read, the module-level
constants are evaluated where they are plain arithmetic on numbers, and the calls that configure the
train module are read by their keyword arguments.

What is read (ai2-olmo-core 3.0.0 names):
* the train module config: TransformerTrainModuleConfig (dense: FSDP2 / HSDP / DDP),
  TransformerPipelineTrainModuleConfig, OLMoDDPTrainModuleConfig (MoE parallel folding: DDP with
  the distributed optimizer): rank_microbatch_size, max_sequence_length, compile_model, float8_config;
* dp_config (TransformerDataParallelConfig name / shard_degree / num_replicas), tp_config, cp_config
  (TransformerContextParallelConfig.zig_zag / .llama3 = ring, .ulysses, or degree= with ring= / uly=),
  pp_config (degree, split_points), ep_config (degree), ac_config (mode, block_interval);
* the model: TransformerConfig.llama_like / llama_like_moe or the MoE-v2 builder's keywords
  (d_model, n_layers, n_heads, ...); a registry preset (TransformerConfig.olmo2_7B(...)) is named
  in model_name, its shapes come from --model;
* the batch: SEQUENCE_LENGTH / GLOBAL_BATCH_SIZE / WORLD_SIZE constants (foldplan's export), or
  main(sequence_length=..., global_batch_size=...) as OLMo-core's own scripts pass them.

OLMo-core takes the world size from torchrun: without WORLD_SIZE in the script, pass --gpus.
A value computed at run time (e.g. common.dataset.effective_sequence_length) is unknown, not guessed.
"""
from __future__ import annotations

import ast
from typing import Optional

from planner.engines.olmo_core.pyeval import UNKNOWN, Call, _calls, _common, _conditional, _constants
from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div, product
from planner.engines.olmo_core.read_precision import precision
from planner.layout.placement import virtual_stages

MODULES = {"TransformerTrainModuleConfig": "TransformerTrainModule",
           "TransformerPipelineTrainModuleConfig": "TransformerTrainModule",
           "OLMoDDPTrainModuleConfig": "OLMoDDPTrainModule"}
def _int(v, what: str, path: str, line: int, low: int = 1) -> Optional[int]:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise AuditParseError(path, line, f"{what} must be an integer >= {low}, got {v!r}")
    return v


def _cp(c: Optional[Call], path: str) -> tuple[int, Optional[str]]:
    """(cp degree, "ring" | "ulysses") of a cp_config (train/train_module/transformer/config.py:279-322)."""
    if not isinstance(c, Call):
        return 1, None
    if c.kw.get("degree") is UNKNOWN or (c.args and c.args[0] is UNKNOWN):
        raise AuditParseError(path, c.line, "cp_config degree is computed at run time: the audit reads constants only")
    if c.short in ("zig_zag", "llama3", "ulysses"):
        deg = c.args[0] if c.args else c.get("degree")
        kind = "ulysses" if c.short == "ulysses" else "ring"
    else:
        deg = c.get("degree")
        ring, uly = c.kw.get("ring"), c.kw.get("uly")
        if ring not in (None, UNKNOWN) and uly not in (None, UNKNOWN):
            raise AuditParseError(path, c.line, "cp_config sets both ring and uly: OLMo-core runs one "
                                                "(config.py:287-294, 'a combined context parallel style is not yet supported')")
        kind = "ulysses" if uly not in (None, UNKNOWN) else "ring"
    return _int(deg, "cp_config degree", path, c.line) or 1, kind


MODEL_ARGS = {"d_model": "hidden", "n_layers": "layers", "n_heads": "heads", "num_attention_heads": "heads",
              "n_kv_heads": "kv_heads", "num_key_value_heads": "kv_heads", "head_dim": "head_dim",
              "attention_head_dim": "head_dim", "vocab_size": "vocab"}


def _model(calls: list[Call]) -> tuple[dict, Optional[str]]:
    """The model's shapes where the script spells them, and the registry preset it names."""
    for c in calls:
        if c.short in ("llama_like", "llama_like_moe", "build_qwen3_moe_config"):
            m = {v: c.get(k) for k, v in MODEL_ARGS.items() if isinstance(c.get(k), int)}
            if "heads" in m and "kv_heads" not in m:
                m["kv_heads"] = m["heads"]
            if "head_dim" not in m and "heads" in m and "hidden" in m:
                m["head_dim"] = m["hidden"] // m["heads"]
            ff = c.get("feed_forward")
            if isinstance(ff, Call) and isinstance(ff.get("hidden_size"), int):
                m["ffn_hidden"] = ff.get("hidden_size")
            experts = c.get("num_experts")
            if isinstance(experts, int):
                m["ffn_hidden"] = 0
                m["moe"] = {"experts": experts, "top_k": c.get("num_experts_per_tok", c.get("top_k")),
                            "expert_ffn_hidden": c.get("moe_intermediate_size", c.get("expert_hidden_size"))}
                shared = c.get("shared_expert_hidden_size")   # llama_like_moe's shared_mlp (config.py)
                if isinstance(shared, int) and shared > 0:
                    m["moe"].update(shared_experts=1, shared_ffn_hidden=shared)
                missing = [k for k in ("num_experts_per_tok", "top_k", "moe_intermediate_size", "expert_hidden_size")
                           if k in c.kw and c.kw[k] is UNKNOWN]
                if missing or None in m["moe"].values():
                    what = ", ".join(f"{k}={c.src[k]}" for k in missing) or "the expert width or top-k"
                    return {}, f"unread model: {what} not evaluated from the script"
            if isinstance(c.get("qk_norm"), bool):
                m["qk_norm"] = c.get("qk_norm")
            if isinstance(c.get("tie_word_embeddings"), bool):
                m["tied_embeddings"] = c.get("tie_word_embeddings")
            return m, None
    for c in calls:
        if c.name.startswith("TransformerConfig.") and c.short[0].islower():
            return {}, c.short                 # a registry preset (nn/transformer/config.py)
    return {}, None


def _ac(c: Optional[Call], path: str) -> tuple[Optional[str], dict, tuple, list]:
    """(recompute kind, extra, recompute modules, effects) of an ac_config (config.py:333-384)."""
    if not isinstance(c, Call):
        return "none", {}, (), []
    mode = c.get("mode", "full")
    if mode == "full":
        return "full", {}, (), []
    if mode == "selected_blocks":
        k = _int(c.get("block_interval"), "ac_config block_interval", path, c.line)
        if k is None:
            raise AuditParseError(path, c.line, "'block_interval' is required for 'selected_blocks' (config.py:371-376)")
        return "full", {"ac_every_global": k}, (), []
    if mode == "selected_ops":
        return "selective", {}, ("op",), []
    if mode == "selected_modules":
        mods = c.get("modules") or []
        return "selective", {}, ("core_attn",), [(f"ac_config selected_modules {mods}", "memory and time",
                                                  "estimated as recomputing the core attention")]
    if mode == "budget":
        return "full", {}, (), [("ac_config mode budget", "memory and time",
                                 "the compiler picks what to recompute under a budget (estimated as full recompute)")]
    raise AuditParseError(path, c.line, f"ac_config mode must be one of full, selected_blocks, selected_modules, "
                                        f"selected_ops, budget, got {mode!r}")


def _routing(calls: list[Call]) -> dict:
    """MoE routing from the router's keywords wherever a call states them: uniform_expert_assignment or
    random_expert_assignment (olmo_core/nn/moe/router.py:93-94, 167-169: benchmark routing) -> forced;
    bias_gamma > 0 (router.py:170: the loss-free expert bias) -> aux-free; a positive lb_loss_weight or
    router_aux_loss_weight (nn/moe/v2/qwen.py:322, 356) -> aux-loss, zero / None -> none. OLMo-core's MoE
    is dropless by default; its EP capacity_factor (nn/moe/v2/ep_config.py:88-90) is a per-rank buffer of
    some EP paths, not read here."""
    kw = {k: v for c in calls for k, v in c.kw.items()}
    out = {}
    if kw.get("uniform_expert_assignment") is True or kw.get("random_expert_assignment") is True:
        out["routing"] = "forced"
    gamma = kw.get("bias_gamma")
    lb = kw.get("lb_loss_weight", kw.get("router_aux_loss_weight", UNKNOWN))
    if isinstance(gamma, (int, float)) and gamma > 0:
        out["balancing"] = "aux-free"
    elif isinstance(lb, (int, float)) or lb is None:
        out["balancing"] = "aux-loss" if lb else "none"
    return out


def _sharding(module: str, dp: Optional[Call]) -> tuple[str, str, list]:
    """(sharding, master, assumed) of the train module and its dp_config."""
    name = dp.get("name", "fsdp") if isinstance(dp, Call) else None
    if module == "OLMoDDPTrainModule":      # DDP + the distributed optimizer's fp32 master (moe_optimizer.py:483)
        return "zero1", "bf16+fp32", []
    if name == "ddp":
        return "none", "fp32", []
    notes = ["sharding: no dp_config (OLMo-core then builds no data-parallel wrapper)"] if name is None else []
    if name == "hsdp":
        notes.append("hsdp: estimated as FSDP over all of dp x cp (OLMo-core shards over shard_degree only)")
    return ("zero3", "fp32", notes) if name != "none" else ("none", "fp32", notes)


def _degree(c, key: str, path: str) -> Optional[int]:
    """A parallel config's degree; one the script computes at run time is an error, not a guess."""
    if not isinstance(c, Call):
        return None
    if c.kw.get("degree") is UNKNOWN or (c.args and c.args[0] is UNKNOWN):
        raise AuditParseError(path, c.line, f"{key} degree is computed at run time: the audit reads constants only")
    return _int(c.get("degree", c.args[0] if c.args else None), f"{key} degree", path, c.line)


def _stages(pp: int, split, layers: Optional[int], path: str, line: int) -> tuple[tuple, int]:
    """(layers per pipeline rank, vpp) from split_points (config.py get_split_points)."""
    if pp == 1 or split is None:
        return (), 1
    if not isinstance(split, list) or any(not isinstance(x, int) for x in split) or split != sorted(set(split)):
        raise AuditParseError(path, line, f"split_points must be increasing block indices, got {split!r}")
    stages = len(split) + 1
    if stages % pp:
        raise AuditParseError(path, line, f"split_points make {stages} stages, not a multiple of pp({pp})")
    if layers is None:
        return (), stages // pp
    bounds = [0, *split, layers]
    sizes = [b - a for a, b in zip(bounds, bounds[1:])]
    # several stages per rank: stage k runs on rank k % pp (OLMo-core's default "loop" split style,
    # distributed/parallel/pipeline_parallel.py stage_ids_this_rank), the layout's virtual-stage order
    return tuple(sum(sizes[r::pp]) for r in range(pp)), stages // pp


def _unevaluated(tm: Call, tree: ast.Module) -> list[str]:
    """"assumed:" lines for the train module's values the script computes where the audit cannot follow."""
    out = [f"{key}={tm.src[key]}: not evaluated from the script's constants (the command line's value, else "
           f"the audit's default)" for key in ("rank_microbatch_size", "max_sequence_length") if tm.kw.get(key) is UNKNOWN]
    changed = _conditional(tree)
    return out + [f"{key}={tm.kw[key]!r}: the value set outside the branch ({changed[src]} not taken)"
                  for key, src in tm.src.items() if src in changed and tm.kw.get(key) is not UNKNOWN]


def _pipeline(pc, pp: int, model: dict, path: str, line: int, assumed: list):
    """Each rank's layers and the virtual stages per rank from `split_points`; where the split
    points cut a rank's blocks other than the layer placement does, an assumed line says so."""
    split = pc.get("split_points") if isinstance(pc, Call) else None
    stage_layers, vpp = _stages(pp, split, model.get("layers"), path, line)
    if stage_layers and vpp > 1 and [len(c) for c in virtual_stages(stage_layers, vpp)] != \
            [b - a for a, b in zip([0, *split], [*split, model["layers"]])]:
        assumed.append(f"split_points {split}: each rank's blocks read as the layer placement cuts them into "
                       f"{vpp} chunks (docs/plan-schema.md), not as the split points do")
    return stage_layers, vpp


def parse(text: str, path: str, world: int | None = None) -> ForeignConfig:
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        raise AuditParseError(path, e.lineno, f"not Python: {e.msg}") from None
    env = _constants(tree)
    env.update(_common(tree, env))
    calls = _calls(tree, env)
    tm = next((c for c in calls if c.short in MODULES), None)
    if tm is None:
        raise AuditParseError(path, None, "no TransformerTrainModuleConfig / OLMoDDPTrainModuleConfig call: "
                                          "not an OLMo-core training script")
    module = MODULES[tm.short]
    main = next((c for c in calls if c.short == "main"), None)
    lines, assumed, effects = {}, [], []
    seq = tm.get("max_sequence_length")
    seq = seq if isinstance(seq, int) else env.get("SEQUENCE_LENGTH", main.get("sequence_length") if main else None)
    seq = _int(seq, "max_sequence_length", path, tm.line)
    rmb = tm.get("rank_microbatch_size")
    micro = exact_div(rmb, seq) if isinstance(rmb, int) else None
    assumed += _unevaluated(tm, tree)
    if isinstance(rmb, int) and seq and micro is None:
        raise AuditParseError(path, tm.line, f"rank_microbatch_size ({rmb} tokens) must be divisible by "
                                             f"max_sequence_length ({seq}) (train_module.py:164-168)")
    gbt = env.get("GLOBAL_BATCH_SIZE", main.get("global_batch_size") if main else None)
    world = world if world is not None else env.get("WORLD_SIZE")
    parts = {k: tm.kw.get(k) for k in ("dp_config", "tp_config", "cp_config", "pp_config", "ep_config", "ac_config")}
    ep_all = isinstance(parts["ep_config"], Call) and isinstance(parts["ep_config"].get("degree"), int) \
        and parts["ep_config"].get("degree") < 0        # degree -1: the world size (build_expert_parallel_mesh)
    if ep_all:
        parts["ep_config"] = None
    deg = {k: _degree(c, k, path) for k, c in parts.items() if k in ("tp_config", "pp_config", "ep_config")}
    tp, pp, ep = deg["tp_config"] or 1, deg["pp_config"] or 1, deg["ep_config"] or 1
    if ep_all:
        ep = world if world is not None else 1
        assumed.append("ep_config degree -1: expert parallel over the whole world (olmo_core/distributed/"
                       "parallel/__init__.py, build_expert_parallel_mesh)" + ("" if world else "; pass --gpus"))
    cp, cp_kind = _cp(parts["cp_config"], path)
    for field, key in (("tp", "tp_config"), ("cp", "cp_config"), ("pp", "pp_config"), ("ep", "ep_config"),
                       ("recompute", "ac_config"), ("sharding", "dp_config")):
        if isinstance(parts[key], Call):
            lines[field] = parts[key].line
    lines["seq"] = lines["micro_batch"] = tm.line
    model, model_name = _model(calls)
    if model_name and model_name.startswith("unread model: "):
        assumed.append(f"model: {model_name[14:]} (pass --model)")
        model_name = None
    stage_layers, vpp = _pipeline(parts["pp_config"], pp, model, path, tm.line, assumed)
    recompute, ac_extra, modules, ac_effects = _ac(parts["ac_config"], path)
    effects += ac_effects
    sharding, master, notes = _sharding(module, parts["dp_config"])
    assumed += notes
    prec, notes = precision(tm.kw.get("float8_config"), Call)
    assumed += notes
    compiled = tm.get("compile_model", False) is True
    if world is None:
        assumed.append("world: OLMo-core takes it from torchrun (pass --gpus)")
    dp = exact_div(world, product(tp, cp, pp))
    extra = {"train_module": module, "kernels": "fused" if compiled else "eager", "logit_bytes": 12, "ep_all": ep_all,
             "order": "tp-cp-dp-pp", **ac_extra, **_routing(calls), **prec}
    if cp > 1 and cp_kind == "ring":     # zig_zag: ring_flash_attn.zigzag_ring_flash_attn_func, a p2p ring
        extra.update(cp_comm="p2p", cp_balance="headtail")      # (nn/attention/flash_attn_api.py:324-353)
        cc = parts["cp_config"]
        if isinstance(cc, Call) and cc.short == "llama3":
            assumed.append("cp llama3 strategy (ring-flash-attn's all-gather by head stride): priced as the "
                           "zig-zag p2p ring")
    return ForeignConfig(
        format="olmo-core", path=path, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp, etp=1, ep=ep,
        edp=exact_div(product(cp, dp), ep), cp_kind=cp_kind if cp > 1 else None,
        cp_ulysses=(cp if cp_kind == "ulysses" else 1) if cp > 1 else None,
        cp_ring=(cp if cp_kind == "ring" else 1) if cp > 1 else None, world=world, micro_batch=micro,
        global_batch=exact_div(gbt, seq) if isinstance(gbt, int) else None, seq=seq, recompute=recompute,
        sequence_parallel=tp > 1, sharding=sharding, master=master, recompute_modules=modules,
        pp_schedule="1F1B" if pp > 1 else None, stage_layers=stage_layers, model=model, model_name=model_name,
        extra=extra, effects=tuple(effects), lines=lines, assumed=tuple(assumed))


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """The script on `world` GPUs: dp is what tp, cp and pp leave (build_world_mesh), edp follows."""
    dp = exact_div(world, product(cfg.tp, cfg.cp, cfg.pp))
    ep = world if cfg.extra.get("ep_all") else cfg.ep
    return cfg.replace(world=world, dp=dp, ep=ep, edp=exact_div(product(cfg.cp, dp), ep))

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
import operator
from typing import Any, Optional

from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div, product
from planner.engines.olmo_core.read_precision import precision

MODULES = {"TransformerTrainModuleConfig": "TransformerTrainModule",
           "TransformerPipelineTrainModuleConfig": "TransformerTrainModule",
           "OLMoDDPTrainModuleConfig": "OLMoDDPTrainModule"}
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Mod: operator.mod}
UNKNOWN = object()


def _name(node) -> str:
    """`a.b.c` of a Name / Attribute chain ('' when it is something else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _value(node, env: dict) -> Any:
    """A constant expression's value (numbers, strings, lists, names bound to such), else UNKNOWN."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)
    if isinstance(node, ast.Attribute):        # an enum member: keep its name (DataParallelType.fsdp -> "fsdp")
        return node.attr
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _value(node.operand, env)
        return -v if isinstance(v, (int, float)) else UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _value(node.left, env), _value(node.right, env)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            try:
                if isinstance(node.op, ast.Pow) and abs(b) > 64:
                    return UNKNOWN
                return _OPS[type(node.op)](a, b)
            except (ZeroDivisionError, OverflowError):
                return UNKNOWN
        return UNKNOWN
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(e, env) for e in node.elts]
        return UNKNOWN if any(i is UNKNOWN for i in items) else items
    if isinstance(node, ast.Call):
        return Call(node, env)
    return UNKNOWN


class Call:
    """A call read by its name and its keyword (and first positional) arguments."""

    def __init__(self, node: ast.Call, env: dict):
        self.name, self.line = _name(node.func), node.lineno
        self.kw = {k.arg: _value(k.value, env) for k in node.keywords if k.arg}
        self.args = [_value(a, env) for a in node.args]

    def get(self, key: str, default=None):
        v = self.kw.get(key, default)
        return default if v is UNKNOWN else v

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def _constants(tree: ast.Module) -> dict:
    env: dict = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                v = _value(node.value, env)
                if v is not UNKNOWN and not isinstance(v, Call):
                    env[targets[0].id] = v
    return env


def _calls(tree: ast.Module, env: dict) -> list[Call]:
    return [Call(n, env) for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func)]


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
    if layers is None or stages != pp:
        return (), stages // pp
    bounds = [0, *split, layers]
    return tuple(b - a for a, b in zip(bounds, bounds[1:])), 1


def parse(text: str, path: str, world: int | None = None) -> ForeignConfig:
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        raise AuditParseError(path, e.lineno, f"not Python: {e.msg}") from None
    env = _constants(tree)
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
    if isinstance(rmb, int) and seq and micro is None:
        raise AuditParseError(path, tm.line, f"rank_microbatch_size ({rmb} tokens) must be divisible by "
                                             f"max_sequence_length ({seq}) (train_module.py:164-168)")
    gbt = env.get("GLOBAL_BATCH_SIZE", main.get("global_batch_size") if main else None)
    world = world if world is not None else env.get("WORLD_SIZE")
    parts = {k: tm.kw.get(k) for k in ("dp_config", "tp_config", "cp_config", "pp_config", "ep_config", "ac_config")}
    deg = {k: _degree(c, k, path) for k, c in parts.items() if k in ("tp_config", "pp_config", "ep_config")}
    tp, pp, ep = deg["tp_config"] or 1, deg["pp_config"] or 1, deg["ep_config"] or 1
    cp, cp_kind = _cp(parts["cp_config"], path)
    for field, key in (("tp", "tp_config"), ("cp", "cp_config"), ("pp", "pp_config"), ("ep", "ep_config"),
                       ("recompute", "ac_config"), ("sharding", "dp_config")):
        if isinstance(parts[key], Call):
            lines[field] = parts[key].line
    lines["seq"] = lines["micro_batch"] = tm.line
    model, model_name = _model(calls)
    pc = parts["pp_config"]
    stage_layers, vpp = _stages(pp, pc.get("split_points") if isinstance(pc, Call) else None,
                                model.get("layers"), path, tm.line)
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
    extra = {"train_module": module, "kernels": "fused" if compiled else "eager", "logit_bytes": 12,
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
    return cfg.replace(world=world, dp=dp, edp=exact_div(product(cfg.cp, dp), cfg.ep))

"""The audit's reading of Megatron configs checked by Megatron's own argument parser.

For every Megatron-LM config of the audit corpus (examples/audit/real: launch scripts, functional-test
and ModelZoo YAML), the example scripts (examples/audit/megatron_*) and the argument files our exporter
writes, the argument list the script hands `pretrain_gpt.py` (`read.argv` / `read_yaml.argv`: the same
words the reader scans) is parsed by megatron-core's `parse_args` (planner/engines/megatron/engine.py),
and every value that changes the layout, the pipeline split, memory or time is compared with the
audit's reading (the ForeignConfig of planner/engines/megatron/read.py).

Defaults that Megatron fills after parsing are taken where Megatron sets them, each cited at
megatron-core 0.19.2: etp = tp (megatron/training/arguments.py:569-570), --recompute-activations means
selective (arguments.py:589-590), selective recompute without modules recomputes core_attn
(megatron/core/transformer/transformer_config.py:1763-1764). The pipeline layout string is expanded
by Megatron's own PipelineParallelLayerLayout.
"""
from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from planner.audit import detect
from planner.engines.judge import available
from planner.engines.megatron import read, read_yaml
from planner.engines.megatron.vocab import CP_COMM_TYPE, FSDP_STRATEGY

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "examples" / "audit" / "real"
EXPECTED = tomllib.loads((REAL / "expected.toml").read_text())
WHY = available("megatron")
pytestmark = pytest.mark.skipif(WHY is not None, reason=str(WHY))

# Megatron-LM configs (mds_*: Megatron-DeepSpeed, a fork with its own parser, is not judged here)
CORPUS = sorted(n for n in EXPECTED if n.startswith(("mlm_", "ci_", "zoo_")))
EXAMPLES = sorted(p.name for p in (ROOT / "examples" / "audit").glob("megatron_*"))
# words the published script hands Megatron that its parser refuses: the reader must still agree on the rest
REFUSED = {"mlm_gpt3_175b.sh": "unrecognized arguments"}   # unquoted ${TRAINING_ARGS[@]} splits the schedule


def _parse(argv: list[str]):
    """Megatron's parse of argv, and the words its parser refused as unrecognized (dropped, parsed again)."""
    from planner.engines.megatron import engine
    dropped: list[str] = []
    for _ in range(3):
        try:
            return engine.parse(argv), dropped
        except ValueError as e:
            m = re.search(r"unrecognized arguments: (.*)$", str(e))
            if not m:
                raise
            words = m.group(1).split()
            dropped += words
            argv, at = list(argv), 0
            for w in words:                 # each refused word where it stands, in argparse's order
                at = argv.index(w, at)
                del argv[at]
    raise AssertionError(f"argparse keeps refusing: {dropped}")


def _layout_counts(text: str, pp: int) -> dict:
    """Megatron's own expansion of --pipeline-model-parallel-layout: decoder layers per pipeline rank."""
    from planner.engines.megatron import engine
    engine.load()
    from megatron.core.transformer.pipeline_parallel_layer_layout import PipelineParallelLayerLayout
    from megatron.core.transformer.enums import LayerType
    lay = PipelineParallelLayerLayout(text, pp)
    flat = lay.flatten_layout
    return {"stages": [sum(chunk.count(LayerType.decoder) for chunk in rank) for rank in lay.layout],
            "vpp": lay.virtual_pipeline_model_parallel_size, "mtp": flat.count(LayerType.mtp)}


def _effect(cfg, name: str) -> str | None:
    """The value the reader reports for an effect flag (None: not reported)."""
    for shown, _, _ in cfg.effects:
        if shown.split()[0] == f"--{name}":
            return " ".join(shown.split()[1:]) or ""
    return None


def _dispatcher(cfg) -> str | None:
    """The token dispatcher the reader put in the layout, as Megatron's --moe-token-dispatcher-type
    names it (DeepEP and HybridEP are its flex dispatcher's backends)."""
    d = cfg.extra.get("dispatcher")
    return "flex" if d in ("deepep", "hybridep") else d


def _precision(ns) -> str:
    """The precision Megatron runs: bf16 without --fp8-format, else its --fp8-recipe (arguments.py's
    default delayed) as foldplan names it."""
    from planner.engines.megatron.read_precision import RECIPE
    return RECIPE.get(ns.fp8_recipe, ns.fp8_recipe) if ns.fp8 else "bf16"


def _sharding(ns) -> str:
    if ns.use_megatron_fsdp:
        return FSDP_STRATEGY[ns.data_parallel_sharding_strategy]
    if ns.use_torch_fsdp2:
        return "zero3"
    return "zero1" if ns.use_distributed_optimizer else "none"


def _routing(ns) -> str:
    """Megatron's routing: forced by random logits (router.py:856), token drop when a positive
    capacity factor is set (router.py:788), else dropless."""
    if ns.moe_router_force_load_balancing:
        return "forced"
    return "capacity" if (ns.moe_expert_capacity_factor or 0) > 0 else "dropless"


def _balancing(ns) -> str:
    """The balancing Megatron's router runs: the expert bias (router.py, transformer_config.py:795), else
    each load-balancing type whose coefficient is positive (one coefficient for all, or one each)."""
    types = ns.moe_router_load_balancing_type
    types = [types] if isinstance(types, str) else list(types)
    coeff = ns.moe_aux_loss_coeff
    coeff = [coeff] * len(types) if isinstance(coeff, (int, float)) else (list(coeff) * len(types))[:len(types)] \
        if len(coeff) == 1 else list(coeff)
    if ns.moe_router_enable_expert_bias or "quantile_balancing" in types:
        return "aux-free"
    on = {t for t, c in zip(types, coeff) if c > 0}
    if "seq_aux_loss" in on:
        return "seq-aux-loss"
    return "aux-loss" if on & {"aux_loss", "global_aux_loss"} or "sinkhorn" in types else "none"


def _pairs(cfg, ns) -> list[tuple[str, object, object]]:
    """(what, the reader's value, Megatron's value) for every layout, split, memory and time setting."""
    m, moe, x = cfg.model, cfg.model.get("moe") or {}, cfg.extra
    tp = ns.tensor_model_parallel_size
    selective = (ns.recompute_granularity or ("selective" if ns.recompute_activations else None)) == "selective"
    out = [
        ("tp", cfg.tp, tp), ("pp", cfg.pp, ns.pipeline_model_parallel_size), ("cp", cfg.cp, ns.context_parallel_size),
        ("sequence_parallel", cfg.sequence_parallel, ns.sequence_parallel),
        ("hierarchical_cp_sizes", x.get("hierarchical_cp_sizes"), ns.hierarchical_context_parallel_sizes),
        ("vpp_layers", x.get("vpp_layers"), ns.num_layers_per_virtual_pipeline_stage),
        ("first_stage_layers", cfg.first_stage_layers, ns.decoder_first_pipeline_num_layers),
        ("last_stage_layers", cfg.last_stage_layers, ns.decoder_last_pipeline_num_layers),
        ("account_embedding", x.get("account_embedding"), ns.account_for_embedding_in_pipeline_split),
        ("account_loss", x.get("account_loss"), ns.account_for_loss_in_pipeline_split),
        ("overlap_p2p", x.get("overlap_p2p"), ns.overlap_p2p_comm),
        ("recompute", cfg.recompute,
         ns.recompute_granularity or ("selective" if ns.recompute_activations else "none")),
        ("recompute_method", cfg.recompute_method, ns.recompute_method),
        ("recompute_num_layers", cfg.recompute_num_layers, ns.recompute_num_layers),
        ("recompute_modules", list(cfg.recompute_modules),
         list(ns.recompute_modules or ["core_attn"]) if selective else []),
        ("distributed_optimizer", cfg.distributed_optimizer, ns.use_distributed_optimizer),
        ("sharding", cfg.sharding, _sharding(ns)),
        ("micro_batch", cfg.micro_batch, ns.micro_batch_size), ("seq", cfg.seq, ns.seq_length),
        ("grad_reduce_bytes", cfg.grad_reduce_bytes, 2 if ns.grad_reduce_in_bf16 else 4),
        ("overlap_grad_reduce", cfg.overlap_grad_reduce, ns.overlap_grad_reduce),
        ("dtype", x.get("dtype"), "bf16" if ns.bf16 else "fp16" if ns.fp16 else None),
        ("precision", x.get("precision", "bf16"), _precision(ns)),
        ("fp8_param_gather", bool(x.get("fp8_param_gather")), bool(ns.fp8_param_gather) and bool(ns.fp8)),
        ("ce_fusion", _effect(cfg, "cross-entropy-loss-fusion") is not None, bool(ns.cross_entropy_loss_fusion)),
        ("cpu_offload", _effect(cfg, "optimizer-cpu-offload") is not None, bool(ns.optimizer_cpu_offload)),
        ("layers", m.get("layers"), ns.num_layers), ("hidden", m.get("hidden"), ns.hidden_size),
        ("heads", m.get("heads"), ns.num_attention_heads),
        ("kv_heads", m.get("kv_heads"), ns.num_query_groups if ns.group_query_attention else ns.num_attention_heads),
        ("mtp_layers", m.get("mtp_layers"), ns.mtp_num_layers),
    ]
    if ns.num_layers is not None or ns.hidden_size is not None:   # the argv gives the model (a ModelZoo
        out += [("gated", m.get("gated"), ns.swiglu),                # launch script takes it from --model)
                ("tied_embeddings", m.get("tied_embeddings"), not ns.untie_embeddings_and_output_weights)]
    if ns.global_batch_size is not None:
        out.append(("global_batch", cfg.global_batch, ns.global_batch_size))
    if ns.multi_latent_attention:       # MLA's q/k head: the nope and rope parts (plan-schema's head_dim)
        mla = m.get("mla") or {}
        out += [("head_dim", m.get("head_dim"), ns.qk_head_dim + ns.qk_pos_emb_head_dim),
                ("q_lora_rank", mla.get("q_lora_rank") or None, ns.q_lora_rank),
                ("kv_lora_rank", mla.get("kv_lora_rank"), ns.kv_lora_rank),
                ("v_head_dim", mla.get("v_head_dim"), ns.v_head_dim)]
    elif ns.kv_channels is not None:
        out.append(("head_dim", m.get("head_dim"), ns.kv_channels))
    if ns.vocab_size is not None:
        out.append(("vocab", m.get("vocab"), ns.vocab_size))
    if cfg.cp > 1:
        out.append(("cp_kind", cfg.cp_kind, CP_COMM_TYPE[ns.cp_comm_type[0]]))
    if ns.num_virtual_stages_per_pipeline_rank is not None:
        out.append(("vpp", cfg.vpp, ns.num_virtual_stages_per_pipeline_rank))
    if ns.num_experts:
        out += [("ep", cfg.ep, ns.expert_model_parallel_size),
                ("etp", cfg.etp, ns.expert_tensor_parallel_size or tp),      # arguments.py:569-570
                ("experts", moe.get("experts"), ns.num_experts), ("top_k", moe.get("top_k"), ns.moe_router_topk),
                ("layer_freq", moe.get("layer_freq"), ns.moe_layer_freq),
                ("shared_ffn_hidden", moe.get("shared_ffn_hidden") or None, ns.moe_shared_expert_intermediate_size),
                ("capacity_factor", x.get("capacity_factor"),
                 ns.moe_expert_capacity_factor if (ns.moe_expert_capacity_factor or 0) > 0 else None),
                ("routing", x.get("routing"), _routing(ns)), ("capacity_pad", bool(x.get("capacity_pad")),
                 bool(ns.moe_pad_expert_input_to_capacity) and (ns.moe_expert_capacity_factor or 0) > 0),
                ("balancing", x.get("balancing"), _balancing(ns))]
        if cfg.ep > 1 or cfg.etp > 1:       # the reader names the dispatcher where experts are spread
            out.append(("dispatcher", _dispatcher(cfg), ns.moe_token_dispatcher_type))
        if ns.moe_ffn_hidden_size is not None:
            out.append(("expert_ffn_hidden", moe.get("expert_ffn_hidden"), ns.moe_ffn_hidden_size))
    elif ns.ffn_hidden_size is not None:
        out.append(("ffn_hidden", m.get("ffn_hidden"), ns.ffn_hidden_size))
    if ns.pipeline_model_parallel_layout is not None:
        meg = _layout_counts(ns.pipeline_model_parallel_layout, ns.pipeline_model_parallel_size)
        out += [("stage_layers", list(cfg.stage_layers), meg["stages"]), ("vpp", cfg.vpp, meg["vpp"]),
                ("layout_mtp", x["pp_layout"]["mtp"], meg["mtp"])]
    return out


def _case(kind: str, name: str):
    """(argv, reader's ForeignConfig) of one config."""
    if kind == "corpus":
        path, args = REAL / name, EXPECTED[name].get("args", {})
    else:
        path, args = ROOT / "examples" / "audit" / name, {}
    env = args.get("env") or {}
    text = path.read_text()
    whole = {**os.environ, **env}
    argv = read_yaml.argv(text, str(path), whole) if path.suffix == ".yaml" else read.argv(text, str(path), whole)
    cfg = detect.load(str(path), gpus=args.get("gpus"), env=env or None)
    return argv, cfg


def _compare(argv, cfg):
    ns, dropped = _parse(argv)
    ns.argv_given = set(argv)
    pairs = _pairs(cfg, ns)
    bad = [(what, ours, theirs) for what, ours, theirs in pairs if ours != theirs]
    return pairs, bad, dropped


@pytest.mark.parametrize("kind,name", [("corpus", n) for n in CORPUS] + [("example", n) for n in EXAMPLES])
def test_reader_agrees_with_megatron_argparse(kind, name):
    argv, cfg = _case(kind, name)
    pairs, bad, dropped = _compare(argv, cfg)
    assert bad == [], f"{name}: the audit reads (what, ours, Megatron's) {bad}"
    assert bool(dropped) == (name in REFUSED), f"{name}: Megatron's parser refused {dropped}"


def _exports():
    from test_export import MEGATRON, _plan
    return MEGATRON, _plan


@pytest.mark.parametrize("case", ["dense-uneven-vpp-selective", "moe-ulysses-full-block", "moe-hybrid-zero3-moe_act",
                                  "moe-ring-none"])
@pytest.mark.parametrize("suffix", [".args", ".sh"])
def test_reader_agrees_with_megatron_argparse_on_our_exports(case, suffix, tmp_path):
    from planner.engines import export
    plans, make = _exports()
    plan = make("megatron", **plans[case])
    files = export.render(plan, "megatron")
    name = next(f for f in files if f.endswith(suffix))
    path = tmp_path / name
    path.write_text(files[name])
    # the launch script's FILL IN settings, as a user sets them before starting it
    filled = {"DATA_PATH": "/data/tokens_text_document", "CHECKPOINT_DIR": "/ckpt", "TRAIN_ITERS": "1000", "LR": "3e-4"}
    argv = read.argv(files[name], str(path), {**os.environ, **filled})
    cfg = detect.load(str(path), gpus=plan.layout.world)
    pairs, bad, dropped = _compare(argv, cfg)
    assert bad == [], f"{case}{suffix}: the audit reads (what, ours, Megatron's) {bad}"
    assert set(dropped) <= {"--overlap-p2p-comm"}, dropped      # not a Megatron flag: the exporter's to fix


_BASE = "--num-layers 16 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --micro-batch-size 1\n"
_MOE = "--num-experts 8 --moe-router-topk 2 --moe-ffn-hidden-size 512\n"
# argument files that reach the defaults and spellings the corpus does not: each read by the audit
# from a file, and by Megatron's parser from the same words
PROBES = {
    "fsdp-default-strategy": "--use-megatron-fsdp\n",
    "fsdp-optim-grads": "--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads --use-distributed-optimizer\n",
    "torch-fsdp2": "--use-torch-fsdp2\n",
    "recompute-activations": "--recompute-activations\n",
    "selective-without-modules": "--recompute-granularity selective\n",
    "selective-modules": "--recompute-granularity selective --recompute-modules mlp moe_act layernorm\n",
    "full-uniform": "--recompute-granularity full --recompute-method uniform --recompute-num-layers 2\n",
    "hybrid-cp": "--context-parallel-size 4 --cp-comm-type a2a+p2p --hierarchical-context-parallel-sizes 2 2\n",
    "a2a-cp": "--context-parallel-size 2 --cp-comm-type a2a --tensor-model-parallel-size 2 --sequence-parallel\n",
    "unquoted-layout": "--pipeline-model-parallel-size 4\n--pipeline-model-parallel-layout Et*3|(tt|)*5t|t*3L\n",
    "layout-mtp": "--pipeline-model-parallel-size 2 --mtp-num-layers 1\n"
                  "--pipeline-model-parallel-layout E|t*4|t*4|t*4|t*4|mL\n",
    "first-last": "--pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 3 "
                  "--decoder-last-pipeline-num-layers 5\n",
    "account-embedding-loss": "--pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 3 "
                              "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split\n",
    "vpp-stages": "--pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 "
                  "--no-overlap-p2p-communication\n",
    "moe-freq-etp": _MOE + "--expert-model-parallel-size 4 --expert-tensor-parallel-size 1 --tensor-model-parallel-size 2 "
                           "--moe-layer-freq ([0]*2+[1]*14) --moe-expert-capacity-factor 1.25 "
                           "--moe-token-dispatcher-type flex --moe-shared-expert-intermediate-size 1024\n",
    "moe-etp-default": _MOE + "--expert-model-parallel-size 2 --tensor-model-parallel-size 2 --sequence-parallel\n",
    "gqa-precision": "--group-query-attention --num-query-groups 4 --kv-channels 128 --swiglu "
                     "--untie-embeddings-and-output-weights --bf16 --fp8-format hybrid --fp8-recipe blockwise "
                     "--fp8-param-gather --grad-reduce-in-bf16 --overlap-grad-reduce --cross-entropy-loss-fusion "
                     "--global-batch-size 64 --vocab-size 32000\n",
    "equals": "--tensor-model-parallel-size=2 --pipeline-model-parallel-size=2 --fp16\n",
    # pipeline splits a fine-grained MoE grid uses
    "first-last-vpp": "--pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 2 "
                      "--decoder-last-pipeline-num-layers 2 --num-virtual-stages-per-pipeline-rank 2\n",
    "first-only-mtp": "--pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 1 --mtp-num-layers 1\n",
    "last-only": "--pipeline-model-parallel-size 3 --decoder-last-pipeline-num-layers 4\n",
    "account-loss-only-vpp": "--pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 1 "
                             "--account-for-loss-in-pipeline-split --num-layers 15\n",
    "layout-vpp-mtp": "--pipeline-model-parallel-size 2 --mtp-num-layers 1\n"
                      "--pipeline-model-parallel-layout Et*3|t*4|t*4|t*4,t,mL\n",
    # MoE routing: force balance, capacity with padding, balancing type and coefficient
    "moe-routing": _MOE + "--expert-model-parallel-size 4 --moe-router-force-load-balancing "
                          "--moe-expert-capacity-factor 1.0 --moe-pad-expert-input-to-capacity "
                          "--moe-token-drop-policy position --moe-router-load-balancing-type seq_aux_loss "
                          "--moe-aux-loss-coeff 1e-4 --moe-router-enable-expert-bias\n",
    "moe-routing-two-losses": _MOE + "--expert-model-parallel-size 2 "
                                     "--moe-router-load-balancing-type aux_loss seq_aux_loss --moe-aux-loss-coeff 0 1e-3\n",
}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_reader_agrees_with_megatron_argparse_on_probes(name, tmp_path):
    path = tmp_path / f"{name}.args"
    path.write_text(_BASE + PROBES[name])
    argv = read.argv(path.read_text(), str(path), {})
    assert "|" not in PROBES[name] or any("|" in w for w in argv)         # one word, not a pipe
    cfg = detect.load(str(path), gpus=64)
    pairs, bad, dropped = _compare(argv, cfg)
    assert bad == [] and dropped == [], f"{name}: the audit reads (what, ours, Megatron's) {bad}; refused {dropped}"


def test_underscore_spelling_is_refused_by_both(tmp_path):
    from planner.layout.foreign import AuditParseError
    path = tmp_path / "u.args"
    path.write_text(_BASE + "--tensor_model_parallel_size 2\n")
    argv = read.argv(path.read_text(), str(path), {})
    assert _parse(argv)[1] == ["--tensor_model_parallel_size", "2"]      # Megatron: unrecognized arguments
    with pytest.raises(AuditParseError, match="--tensor_model_parallel_size: Megatron's argument parser refuses"):
        detect.load(str(path), gpus=8)


# (layout, pp, num_layers, mtp_num_layers): Megatron's own validate_layer_layout is the judge of each
LAYOUTS = [
    ("Et|(tt|)*30mL", 8, 61, 1),          # ModelZoo's DeepSeek-V3 best practice (61 % 8 != 0: no matter)
    ("Et*2|(tt|)*22t|(tt|)*7mL", 8, 61, 1),
    ("Et*3|(tt|)*6tmL", 2, 16, 1),        # Megatron's CI (the corpus' selective_recompute_experimental)
    ("Et|(tt|)*30mL", 8, 61, 0),          # an MTP entry the model does not have
    ("Et|(tt|)*30L", 8, 61, 1),           # the model's MTP module is not placed
    ("Et|(tt|)*30L", 8, 60, 0),           # one layer too many
    ("t*2|t*2|Et*2|t*2L", 4, 8, 0),       # the embedding is not first
    ("Et*2|t*2|t*2|t*2", 4, 8, 0),        # no loss
    ("Et*2|t*2|tm|t*2L", 4, 7, 1),        # a layer after the MTP module
    ("Et*3|t*3|t*3|t*3L", 4, 12, 0),
    ("E|t*5|t*5|t*5|t*5|L", 2, 20, 0),    # embedding and loss on stages of their own (vpp 3)
]


@pytest.mark.parametrize("layout,pp,layers,mtp", LAYOUTS)
def test_layout_rule_agrees_with_megatron(layout, pp, layers, mtp, tmp_path):
    from planner.engines.megatron import engine
    from planner.engines.megatron.rules import RULES
    engine.load()
    from megatron.core.transformer.pipeline_parallel_layer_layout import PipelineParallelLayerLayout
    try:
        PipelineParallelLayerLayout(layout, pp).validate_layer_layout(layers, mtp or None)
        megatron_ok = True
    except AssertionError:
        megatron_ok = False
    path = tmp_path / "l.args"
    path.write_text(f"--num-layers {layers} --hidden-size 256 --num-attention-heads 4 --seq-length 1024\n"
                    f"--pipeline-model-parallel-size {pp} --pipeline-model-parallel-layout {layout}\n"
                    + (f"--mtp-num-layers {mtp}\n" if mtp else ""))
    cfg = detect.load(str(path), gpus=pp * 2)
    finding = RULES.rules["megatron.pp_layers_divisible"].check(cfg)
    assert (finding is None) == megatron_ok, (layout, finding)

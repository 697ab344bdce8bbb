"""A plan as an OLMo-core training script (Python, in the form of OLMo-core's own
src/scripts/train/*.py: a model config builder, a train-module config builder, a trainer config
builder and a `main`), for ai2-olmo-core 3.0.0.

* dense models: TransformerConfig.llama_like with the plan's shape (FFN width given exactly) and
  TransformerTrainModuleConfig on FSDP2 (dp_config name "fsdp", bf16 params / fp32 reduce: zero3
  over dp x cp, distributed/parallel/__init__.py:333-346), tp_config, cp_config, pp_config;
* MoE models: the fused MoE-v2 model (nn/moe/v2/qwen.py build_qwen3_moe_config, every layer a
  full-attention MoE block) and OLMoDDPTrainModuleConfig: DDP with the distributed optimizer
  (OLMoDDPOptimizerConfig), ep_config = the plan's ep, which OLMo-core folds over each stage's
  dp x cp ranks (ddp_train_module.py:503-585), no TP;
* CP: TransformerContextParallelConfig.zig_zag (ring) or .ulysses (config.py:296-322);
* PP: split_points from the plan's per-stage layers, schedule 1F1B (one stage per rank);
* AC: TransformerActivationCheckpointingConfig full / selected_blocks / selected_ops (planner.engines.
  olmo_core.recompute); float8_config as the plan's precision (bf16: off; _float8); compile_model on (the estimate's fused kernels).

What foldplan does not plan (data, tokenizer, LR schedule, steps, checkpoint folders) is written as
module-level fields marked FILL. What OLMo-core cannot say is refused in one line (ExportError).
"""
from __future__ import annotations

from planner.engines.errors import ExportError
from planner.engines.olmo_core import recompute
from planner.engines.olmo_core.rules import VERSION, model_unsupported

# RoPE base and norm epsilon of the presets, from each model's Hugging Face config.json (foldplan's
# ModelSpec does not carry them); another model gets a FILL field
ROPE = {"llama3-8b": (500_000, 1e-5), "llama3-70b": (500_000, 1e-5), "llama3.1-405b": (500_000, 1e-5),
        "mixtral-8x7b": (1_000_000, 1e-5), "mixtral-8x22b": (1_000_000, 1e-5), "olmoe-1b-7b": (10_000, 1e-5),
        "qwen3-30b-a3b": (1_000_000, 1e-6), "qwen3-235b-a22b": (1_000_000, 1e-6)}


def _refuse(pr) -> None:
    why = model_unsupported(pr.model)          # also the target.model rule: the plan-time check
    if why:
        raise ExportError(f"export --to olmo-core: the model has {why}")
    if pr.model.moe is not None and pr.train.routing != "dropless":   # the v2 builder exposes no router switch
        raise ExportError(f"export --to olmo-core: routing {pr.train.routing} has no keyword in OLMo-core's "
                          f"build_qwen3_moe_config (its MoE is dropless)")


def _ac(L) -> str:
    form, why = recompute.form(L)
    if why:
        raise ExportError(f"export --to olmo-core: {why}")
    if form["mode"] == "none":
        return "None"
    mode = f"TransformerActivationCheckpointingMode.{form['mode']}"
    extra = f", block_interval={form['block_interval']}" if "block_interval" in form else ""
    return f"TransformerActivationCheckpointingConfig(mode={mode}{extra})"


def split_points(L) -> list[int]:
    """OLMo-core's split_points: the first block of each stage after the first (config.py split_model),
    from the layout's placement (Layout.virtual_stages; the export runs one stage per rank)."""
    out, first = [], 0
    for layers in L.virtual_stages[:-1]:
        first += len(layers)
        out.append(first)
    return out


def parallel(L, moe: bool) -> dict[str, str]:
    """The train module's parallel configs, as Python expressions."""
    dp = ('TransformerDataParallelConfig(name=DataParallelType.ddp, param_dtype=DType.bfloat16)' if moe else
          'TransformerDataParallelConfig(name=DataParallelType.fsdp, param_dtype=DType.bfloat16, '
          'reduce_dtype=DType.float32, wrapping_strategy=TransformerDataParallelWrappingStrategy.blocks)')
    out = {"dp_config": dp}
    if L.tp > 1:
        out["tp_config"] = f"TransformerTensorParallelConfig(degree={L.tp})"
    if L.cp > 1:
        out["cp_config"] = f"TransformerContextParallelConfig.{'ulysses' if L.cp_kind == 'ulysses' else 'zig_zag'}({L.cp})"
    if L.pp > 1:
        out["pp_config"] = (f"TransformerPipelineParallelConfig(degree={L.pp}, schedule=PipelineScheduleType.single_1F1B, "
                            f"split_points={split_points(L)})")
    if moe and L.stages[0].ep > 1:
        out["ep_config"] = f"TransformerExpertParallelConfig(degree={L.stages[0].ep})"
    return out


def _model(pr) -> str:
    m = pr.model
    theta, eps = ROPE.get(m.name, (None, None))
    if m.moe is None:
        return (f"    return TransformerConfig.llama_like(\n"
                f"        d_model={m.hidden}, vocab_size=VOCAB_SIZE, n_layers={m.layers}, n_heads={m.heads},\n"
                f"        n_kv_heads={m.kv_heads}, head_dim={m.head_dim}, qk_norm={m.qk_norm},\n"
                f"        rope_theta=ROPE_THETA, layer_norm_eps=NORM_EPS,\n"
                f"        feed_forward=FeedForwardConfig(hidden_size={m.ffn_hidden}, bias=False),\n"
                f"        tie_word_embeddings={m.tied_embeddings}, attn_backend=AttentionBackendName.flash_2,\n"
                f"    )\n")
    moe = m.moe
    shared = moe.shared_ffn_hidden if moe.shared_experts else None
    return (f"    return build_qwen3_moe_config(\n"
            f"        vocab_size=VOCAB_SIZE, d_model={m.hidden}, n_layers={m.layers},\n"
            f"        num_attention_heads={m.heads}, num_key_value_heads={m.kv_heads},\n"
            f"        attention_head_dim={m.head_dim}, attention_rotary_dim={m.head_dim}, rope_theta=ROPE_THETA,\n"
            f"        linear_num_key_heads=None, linear_num_value_heads=None, linear_key_head_dim=None,\n"
            f"        linear_value_head_dim=None, linear_conv_kernel_dim=None,\n"
            f"        num_experts={moe.experts}, num_experts_per_tok={moe.top_k}, moe_intermediate_size={moe.expert_ffn_hidden},\n"
            f"        shared_expert_intermediate_size={shared}, rms_norm_eps=NORM_EPS,\n"
            f"        layer_types=[QWEN3_DENSE_MOE_LAYER_TYPE] * {m.layers}, attention_output_gate=False,\n"
            f"        norm_type=LayerNormType.rms, attention_backend=AttentionBackendName.flash_2,\n"
            f"        router_aux_loss_weight=ROUTER_AUX_LOSS_WEIGHT, ep_capacity_factor=EP_CAPACITY_FACTOR,\n"
            f"    )\n")


def fields(plan) -> dict:
    """The numbers the script states (also read back by the audit and the judge)."""
    pr, L = plan.problem, plan.layout
    m = pr.model
    theta, eps = ROPE.get(m.name, (None, None))
    return {"WORLD_SIZE": L.world, "SEQUENCE_LENGTH": pr.train.seq, "VOCAB_SIZE": m.vocab,
            "GLOBAL_BATCH_SEQUENCES": L.dp * L.micro_batch * L.num_microbatches, "MICRO_BATCH_SEQUENCES": L.micro_batch,
            "ROPE_THETA": theta, "NORM_EPS": eps}


HEAD = '''"""OLMo-core training script written by foldplan export, for {version}.

Plan: {summary}
Estimate: {step:.3f} s per step, peak {peak:.1f} GiB per GPU.
Run on {world} GPUs: torchrun --nnodes {nodes} --nproc-per-node {gpn} THIS_FILE{needs}{torchao}
Fields marked FILL are the training settings foldplan does not plan: set them before a real run.
"""
from olmo_core.config import DType
from olmo_core.data import NumpyDataLoaderConfig, NumpyFSLDatasetConfig, TokenizerConfig
from olmo_core.distributed.parallel import DataParallelType, PipelineScheduleType
from olmo_core.float8 import AOFloat8LinearConfig, AOFloat8LinearRecipe, AOMXLinearConfig, Float8Config  # noqa: F401
from olmo_core.nn.attention import AttentionBackendName
from olmo_core.nn.feed_forward import FeedForwardConfig
from olmo_core.nn.layer_norm import LayerNormType
from olmo_core.nn.moe.v2.qwen import QWEN3_DENSE_MOE_LAYER_TYPE, build_qwen3_moe_config
from olmo_core.nn.transformer import TransformerConfig
from olmo_core.optim import AdamWConfig, CosWithWarmup, OLMoDDPOptimizerConfig
from olmo_core.train import Duration, TrainerConfig, prepare_training_environment, teardown_training_environment
from olmo_core.train.train_module import (
    OLMoDDPTrainModuleConfig,
    TransformerActivationCheckpointingConfig,
    TransformerActivationCheckpointingMode,
    TransformerContextParallelConfig,
    TransformerDataParallelConfig,
    TransformerDataParallelWrappingStrategy,
    TransformerExpertParallelConfig,
    TransformerPipelineParallelConfig,
    TransformerTensorParallelConfig,
    TransformerTrainModuleConfig,
)

# --- the plan (foldplan) ---------------------------------------------------------------------
WORLD_SIZE = {WORLD_SIZE}
SEQUENCE_LENGTH = {SEQUENCE_LENGTH}
VOCAB_SIZE = {VOCAB_SIZE}
GLOBAL_BATCH_SIZE = {GLOBAL_BATCH_SEQUENCES} * SEQUENCE_LENGTH   # tokens: dp {dp} x micro-batch {mb} x {nmb} micro-batches
RANK_MICROBATCH_SIZE = {MICRO_BATCH_SEQUENCES} * SEQUENCE_LENGTH  # tokens per rank per micro-batch

# --- FILL: what foldplan does not plan -------------------------------------------------------
ROPE_THETA = {rope}
NORM_EPS = {eps}
ROUTER_AUX_LOSS_WEIGHT = 0.01      # FILL: the load-balancing loss weight of your recipe
EP_CAPACITY_FACTOR = 1.25          # FILL: OLMo-core's EP buffer capacity (foldplan estimated dropless routing)
DATA_PATHS: list = []              # FILL: tokenized .npy files
TOKENIZER = TokenizerConfig.dolma2()   # FILL: the tokenizer your data was made with (vocab {VOCAB_SIZE})
SAVE_FOLDER = "FILL/checkpoints"   # FILL
WORK_DIR = "FILL/work"             # FILL: dataset cache
LEARNING_RATE = 3e-4               # FILL
WARMUP_STEPS = 2000                # FILL
MAX_STEPS = 100_000                # FILL
SEED = 34521                       # FILL


def build_model_config():
{model}

def build_train_module_config():
    return {module}(
        rank_microbatch_size=RANK_MICROBATCH_SIZE,
        max_sequence_length=SEQUENCE_LENGTH,
        optim={optim},
        max_grad_norm=1.0,
        scheduler=CosWithWarmup(warmup_steps=WARMUP_STEPS),
        compile_model=True,
        float8_config={float8},
{parallel}        ac_config={ac},
    )


def build_trainer_config():
    return TrainerConfig(save_folder=SAVE_FOLDER, max_duration=Duration.steps(MAX_STEPS))


def main():
    prepare_training_environment(seed=SEED)
    try:
        model = build_model_config().build(init_device="meta")
        train_module = build_train_module_config().build(model)
        dataset = NumpyFSLDatasetConfig(tokenizer=TOKENIZER, paths=DATA_PATHS, sequence_length=SEQUENCE_LENGTH,
                                        work_dir=WORK_DIR).build()
        data_loader = NumpyDataLoaderConfig(global_batch_size=GLOBAL_BATCH_SIZE, seed=SEED, work_dir=WORK_DIR).build(
            dataset, dp_process_group=train_module.dp_process_group)
        trainer = build_trainer_config().build(train_module, data_loader)
        trainer.fit()
    finally:
        teardown_training_environment()


if __name__ == "__main__":
    main()
'''


# nn/attention/backend.py:505-510: FlashAttention2Backend.assert_supports_ring_cp needs ring-flash-attn
NEEDS_RING = ("\nRing context parallelism runs in the flash_2 attention backend with the ring-flash-attn package "
              "installed\n(pip install flash-attn ring-flash-attn).")


def render(plan, name: str) -> dict[str, str]:
    pr, L, e = plan.problem, plan.layout, plan.estimate
    _refuse(pr)
    moe = pr.model.moe is not None
    f = fields(plan)
    par = "".join(f"        {k}={v},\n" for k, v in parallel(L, moe).items())
    s0 = L.stages[0]
    summary = (f"{pr.model.name} on {L.world} x {pr.cluster.gpu.name}, seq {pr.train.seq}: tp {L.tp}, cp {L.cp} "
               f"({L.cp_kind}), dp {L.dp}, pp {L.pp}" + (f", experts ep {s0.ep} x edp {s0.edp} (etp {s0.etp})" if moe else ""))
    gpn = min(pr.cluster.gpus_per_node, L.world)
    optim = ("OLMoDDPOptimizerConfig(lr=LEARNING_RATE, betas=(0.9, 0.95), weight_decay=0.1)" if moe else
             "AdamWConfig(lr=LEARNING_RATE, betas=(0.9, 0.95), weight_decay=0.1, fused=True)")
    known = f["ROPE_THETA"] is not None
    text = HEAD.format(
        version=VERSION, summary=summary, step=e.step_time, peak=e.peak_bytes / 2**30, world=L.world,
        nodes=-(-L.world // gpn), gpn=gpn, needs=NEEDS_RING if L.cp > 1 and L.cp_kind == "ring" else "", dp=L.dp, mb=L.micro_batch, nmb=L.num_microbatches,
        rope=f"{f['ROPE_THETA']:_}" if known else "10_000             # FILL: the model's RoPE base",
        eps=f"{f['NORM_EPS']}" if known else "1e-5               # FILL: the model's RMSNorm epsilon",
        model=_model(pr), module="OLMoDDPTrainModuleConfig" if moe else "TransformerTrainModuleConfig",
        optim=optim, float8=_float8(pr.train, moe), parallel=par, ac=_ac(L),
        torchao="" if pr.train.precision == "bf16" else
        "\nRequires torchao == 0.15.0 (float8_config is torchao's; ai2-olmo-core 3.0.0's torchao extra pins it)",
        **{k: v for k, v in f.items() if k not in ("ROPE_THETA", "NORM_EPS")})
    return {f"{name}.py": text}


def _float8(train, moe: bool) -> str:
    """The train module's float8_config (planner.engines.olmo_core.read_precision reads it back): torchao's
    tensorwise (AOFloat8LinearConfig, its FSDP float8 all-gather), rowwise (ao_recipe) or MXFP8 (ao_mx)."""
    p = train.precision
    if p == "bf16":
        return "None" if moe else "Float8Config(enabled=False)"
    if p == "fp8-tensorwise":
        return (f"Float8Config(ao=AOFloat8LinearConfig(enable_fsdp_float8_all_gather={train.fp8_param_gather}), "
                f"enabled=True)")
    if p == "fp8-rowwise" and not train.fp8_param_gather:
        return "Float8Config(ao_recipe=AOFloat8LinearRecipe.rowwise, enabled=True)"
    if p == "mxfp8" and not train.fp8_param_gather:
        return "Float8Config(ao_mx=AOMXLinearConfig(), enabled=True)"
    raise ExportError(f"export --to olmo-core: precision {p}{' with fp8_param_gather' if train.fp8_param_gather else ''}"
                      f": OLMo-core's float8 is torchao's (tensorwise, rowwise, MXFP8; the float8 all-gather is "
                      f"tensorwise only)")

#!/usr/bin/env bash
# DeepSeek-V3 (671B) pre-training with Megatron-Core, in the style of the
# Megatron MoE model-zoo recipes: 128 nodes x 8 H100, TP1 PP16 EP64, MLA,
# 3 dense layers then 58 MoE layers, uneven first/last pipeline stages.
set -euo pipefail

export CUDA_DEVICE_MAX_CONNECTIONS=1
export NVTE_FWD_LAYERNORM_SM_MARGIN=16
export NVTE_BWD_LAYERNORM_SM_MARGIN=16

: "${MEGATRON_PATH:=/opt/megatron-lm}"
NNODES=${SLURM_NNODES:-128}
GPUS_PER_NODE=8

# ---- parallel layout -------------------------------------------------------
TP=${TP:-1}
PP=${PP:-16}
EP=${EP:-64}
CP=${CP:-1}
VPP=${VPP:-}
PP_FIRST=${PP_FIRST:-3}   # 3 dense layers on the first stage
PP_LAST=${PP_LAST:-2}     # the last stage also holds the MTP block and the loss

# ---- batch ----------------------------------------------------------------
MBS=1
GBS=${GBS:-8192}
SEQ_LEN=4096

MODEL_ARGS="
    --num-layers 61 \
    --hidden-size 7168 \
    --ffn-hidden-size 18432 \
    --num-attention-heads 128 \
    --kv-channels 128 \
    --multi-latent-attention \
    --q-lora-rank 1536 \
    --kv-lora-rank 512 \
    --qk-head-dim 128 \
    --qk-pos-emb-head-dim 64 \
    --v-head-dim 128 \
    --qk-layernorm \
    --normalization RMSNorm \
    --swiglu \
    --untie-embeddings-and-output-weights \
    --position-embedding-type rope \
    --rotary-base 10000 \
    --vocab-size 129280 \
    --mtp-num-layers 1 \
    --seq-length ${SEQ_LEN} \
    --max-position-embeddings 163840"

MOE_ARGS=(
    --num-experts 256
    --moe-layer-freq "([0]*3+[1]*58)"
    --moe-ffn-hidden-size 2048
    --moe-shared-expert-intermediate-size 2048
    --moe-router-topk 8
    --moe-router-topk-scaling-factor 2.5
    --moe-router-score-function sigmoid
    --moe-router-enable-expert-bias
    --moe-router-bias-update-rate 1e-3
    --moe-router-load-balancing-type seq_aux_loss
    --moe-aux-loss-coeff 1e-4
    --moe-router-num-groups 8
    --moe-router-group-topk 4
    --moe-grouped-gemm
    --moe-token-dispatcher-type alltoall
    --moe-permute-fusion
)

PARALLEL_ARGS=(
    --tensor-model-parallel-size ${TP}
    --pipeline-model-parallel-size ${PP}
    --decoder-first-pipeline-num-layers ${PP_FIRST}
    --decoder-last-pipeline-num-layers ${PP_LAST}
    --expert-model-parallel-size ${EP}
    --expert-tensor-parallel-size 1
    --context-parallel-size ${CP}
    --use-distributed-optimizer
    --overlap-grad-reduce
    --overlap-param-gather
)
if [[ -n "${VPP}" ]]; then
    PARALLEL_ARGS+=(--num-virtual-stages-per-pipeline-rank ${VPP})
fi

TRAINING_ARGS=(
    --micro-batch-size ${MBS}
    --global-batch-size ${GBS}
    --train-iters 100000
    --lr 2.2e-4 --min-lr 2.2e-5 --lr-decay-style cosine --lr-warmup-iters 2000
    --weight-decay 0.1 --clip-grad 1.0
    --bf16
    --recompute-granularity selective
    --recompute-modules mla_up_proj moe_act layernorm
)

DATA_ARGS=(
    --tokenizer-type HuggingFaceTokenizer
    --tokenizer-model deepseek-ai/DeepSeek-V3
    --data-path ${DATA_PATH:-/data/dsv3_text_document}
    --split 99,1,0
)

srun --ntasks-per-node=${GPUS_PER_NODE} --container-image=${IMAGE:-nvcr.io/nvidia/pytorch:25.04-py3} \
    python ${MEGATRON_PATH}/pretrain_gpt.py \
        ${MODEL_ARGS} \
        "${MOE_ARGS[@]}" \
        "${PARALLEL_ARGS[@]}" \
        "${TRAINING_ARGS[@]}" \
        "${DATA_ARGS[@]}" \
        --save ${CKPT_DIR:-/ckpt/dsv3} --load ${CKPT_DIR:-/ckpt/dsv3} \
        --log-interval 1 --eval-iters 0

#!/usr/bin/env bash
# Launch the planned job with torchrun, one call per node.
# Multi-node: set NNODES, NODE_RANK, MASTER_ADDR, MASTER_PORT on every node.
# Arguments are passed to train.py (e.g. --steps 10, --tiny, --check).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2016  # plan values are single-quoted on purpose
PLAN_MODEL=mixtral-8x7b
PLAN_WORLD=64
NNODES="${NNODES:-8}"
NODE_RANK="${NODE_RANK:-0}"
MASTER_ADDR="${MASTER_ADDR:-127.0.0.1}"
MASTER_PORT="${MASTER_PORT:-29500}"
NPROC_PER_NODE="${NPROC_PER_NODE:-8}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
# NCCL: abort on a failed or timed-out collective instead of hanging, dump the
# flight recorder on timeout; the timeout itself is train.py's --timeout-min
# (FOLDPLAN_PG_TIMEOUT_MIN, default 10 minutes)
export TORCH_NCCL_ASYNC_ERROR_HANDLING="${TORCH_NCCL_ASYNC_ERROR_HANDLING:-1}"
export NCCL_ASYNC_ERROR_HANDLING="${NCCL_ASYNC_ERROR_HANDLING:-1}"   # the pre-2.2 name
export TORCH_NCCL_DUMP_ON_TIMEOUT="${TORCH_NCCL_DUMP_ON_TIMEOUT:-1}"
export TORCH_FR_BUFFER_SIZE="${TORCH_FR_BUFFER_SIZE:-2000}"   # the flight recorder; torch 2.13 warns on its older name TORCH_NCCL_TRACE_BUFFER_SIZE
export FOLDPLAN_PG_TIMEOUT_MIN="${FOLDPLAN_PG_TIMEOUT_MIN:-10}"
export NCCL_DEBUG="${NCCL_DEBUG:-WARN}"
export PYTORCH_CUDA_ALLOC_CONF="${PYTORCH_CUDA_ALLOC_CONF:-expandable_segments:True}"

echo "foldplan bundle: ${PLAN_MODEL}, world ${PLAN_WORLD} = ${NNODES} node(s) x ${NPROC_PER_NODE}" >&2
# the token file, --doc-mask's layout and a --resume's checkpoint, checked once before any rank starts
python train.py --preflight "$@"
export FOLDPLAN_DATA_CHECKED=1      # the ranks then read the header only
exec torchrun \
    --nnodes="${NNODES}" --node-rank="${NODE_RANK}" --nproc-per-node="${NPROC_PER_NODE}" \
    --master-addr="${MASTER_ADDR}" --master-port="${MASTER_PORT}" \
    train.py "$@"

#!/usr/bin/env bash
# Microbenchmarks of this plan (calibrate.py) on the nodes it will run on, one call per node,
# as launch/torchrun.sh: multi-node, set NNODES, NODE_RANK, MASTER_ADDR, MASTER_PORT on every node.
# Arguments are passed to calibrate.py (e.g. --out my.jsonl, --tiny --device cpu for a try on CPU).
# Then: foldplan calibrate calibration.jsonl --out my-cluster.yaml; foldplan plan --gpu my-cluster.yaml ...
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2016  # plan values are single-quoted on purpose
PLAN_MODEL=tiny-moe
NNODES="${NNODES:-1}"
NODE_RANK="${NODE_RANK:-0}"
MASTER_ADDR="${MASTER_ADDR:-127.0.0.1}"
MASTER_PORT="${MASTER_PORT:-29500}"
NPROC_PER_NODE="${NPROC_PER_NODE:-8}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
export TORCH_NCCL_ASYNC_ERROR_HANDLING="${TORCH_NCCL_ASYNC_ERROR_HANDLING:-1}"
export NCCL_DEBUG="${NCCL_DEBUG:-WARN}"

echo "foldplan calibrate: ${PLAN_MODEL}'s shapes, ${NNODES} node(s) x ${NPROC_PER_NODE}" >&2
exec torchrun \
    --nnodes="${NNODES}" --node-rank="${NODE_RANK}" --nproc-per-node="${NPROC_PER_NODE}" \
    --master-addr="${MASTER_ADDR}" --master-port="${MASTER_PORT}" \
    calibrate.py "$@"

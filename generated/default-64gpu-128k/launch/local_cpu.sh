#!/usr/bin/env bash
# The --tiny model on this machine: 64 CPU processes (gloo), same layout as the plan.
# Arguments are passed to train.py (e.g. --check).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2016  # plan values are single-quoted on purpose
PLAN_MODEL=mixtral-8x7b
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
echo "foldplan bundle: ${PLAN_MODEL} (tiny), 64 CPU processes" >&2
# world x one measured process vs MemAvailable: refuse, before any process starts, what cannot fit
python check_fit.py
# the token file, --doc-mask's layout and a --resume's checkpoint, checked once before any rank starts
python train.py --preflight --tiny --device cpu "$@"
export FOLDPLAN_DATA_CHECKED=1      # the ranks then read the header only
# --check: rank 0 writes PASS / FAIL here and every rank exits 0 (one summary, no failure
# report per rank from torchrun); this script exits 1 on FAIL
FOLDPLAN_CHECK_VERDICT="$(mktemp)"
export FOLDPLAN_CHECK_VERDICT
trap 'rm -f "$FOLDPLAN_CHECK_VERDICT"' EXIT
torchrun --standalone --nproc-per-node=64 train.py --tiny --device cpu "$@"
if [ "$(cat "$FOLDPLAN_CHECK_VERDICT")" = "FAIL" ]; then
    exit 1
fi

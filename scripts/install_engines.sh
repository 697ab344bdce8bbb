#!/usr/bin/env bash
# Installs the training engines foldplan's tests hand their exports to (CPU only, into the active venv).
# Pins: pyproject.toml's `engines` extra and [tool.foldplan.engines]; docs/engines.md says how each
# installs on Python 3.11 and what it costs CI.
set -euo pipefail
cd "$(dirname "$0")/.."
pin() { python -c "import tomllib,sys; print(tomllib.load(open('pyproject.toml','rb'))['tool']['foldplan']['engines'][sys.argv[1]])" "$1"; }
# every engine resolves against the torch already installed (the CPU build): a constraint, not an upgrade
constraint=$(mktemp)
trap 'rm -f "$constraint"' EXIT
python -c 'import torch; print("torch==" + torch.__version__.split("+")[0])' > "$constraint"
# torchtitan 0.3, OLMo-core and triton (megatron-core imports triton at module level) from wheels
pip install -q -c "$constraint" -e '.[engines]'
# megatron-core: the sdist builds (its C++ dataset helper with pybind11) and runs on 3.11
pip install -q -c "$constraint" --ignore-requires-python --no-binary megatron-core "megatron-core==$(pin megatron-core)"
# torchtitan 0.2 beside 0.3: its own folder, put on sys.path by the adapter's subprocess
rm -rf .engines/torchtitan-0.2
pip install -q --no-deps --target .engines/torchtitan-0.2 "torchtitan==$(pin torchtitan-0_2)"

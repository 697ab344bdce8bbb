#!/bin/sh
# The string switches on engine names outside the engines' own folders: comparisons with an engine's name,
# dicts keyed by it, tuples of names, names returned, and CLI help that lists engines by hand. Run from the
# repository root; `sh scripts/engine_switches.sh | wc -l` counts them.
N='(megatron|torchtitan|torchtitan-0\.2|olmo-core|deepspeed|bundle)'
grep -rnE "(==|!=) *['\"]$N['\"]|['\"]$N['\"] *:[^/]|[(,] *['\"]$N['\"] *[,)]|(if|return) ['\"]$N['\"]" planner --include=*.py \
  | grep -vE "^planner/engines/(megatron|torchtitan|olmo_core|deepspeed|bundle)/|/compiled/|/templates/"
grep -rnE "help=.*(Megatron|megatron).*(torchtitan|OLMo|olmo)|\(--target bundle \|" planner/cli --include=*.py
exit 0

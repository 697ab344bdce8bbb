#!/bin/sh
# Counts the string switches on engine names outside the engines' own folders (run from the repository root):
#   sh scripts/engine_switches.sh | wc -l

# name tuples, returned names; plus CLI help text that lists engines by hand
N='(megatron|torchtitan|torchtitan-0\.2|olmo-core|deepspeed|bundle)'
grep -rnE "(==|!=) *['\"]$N['\"]|['\"]$N['\"] *:[^/]|[(,] *['\"]$N['\"] *[,)]|(if|return) ['\"]$N['\"]" planner --include=*.py \
  | grep -vE "^planner/engines/(megatron|torchtitan|olmo_core|deepspeed|bundle)/|/compiled/|/templates/"
grep -rnE "help=.*(Megatron|megatron).*(torchtitan|OLMo|olmo)|\(--target bundle \|" planner/cli --include=*.py

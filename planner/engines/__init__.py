"""The engines foldplan plans for and reads: one folder per engine (megatron/, torchtitan/, deepspeed/),
each with its config reader and, where foldplan writes its configs, its exporter; `targets` says what a
target engine lets the search choose, `startup` the rules each engine checks when it starts, `foreign`
the neutral form every reader returns."""

"""DeepSpeed's rules, one table: what DeepSpeed checks at start-up (`deepspeed.*`, read by the audit
on a DeepSpeed JSON). foldplan plans no DeepSpeed target, so the table has no `target.*` rule.
Sources: deepspeed runtime/config.py (the batch assertion), runtime/pipe/engine.py (ZeRO-2/3
refused with pipeline parallelism), sequence/layer.py (Ulysses all-to-all), moe/layer.py.

A rule whose inputs the config does not give (``None``) is skipped, not guessed.
"""
from __future__ import annotations

from typing import Optional

from planner.engines.findings import divisors, err, up
from planner.layout.divisibility import seq_divisor
from planner.layout.foreign import Finding, ForeignConfig
from planner.layout.rules import RuleTable

RULES = RuleTable()
rule = RULES.rule
DEFAULTS: dict = {}


@rule("deepspeed.world_divisible", "startup", "", "world is a multiple of tp * pp * sp")
def _(c: ForeignConfig) -> Optional[Finding]:
    tp, pp, sp, world = c.tp or 1, c.pp or 1, c.cp or 1, c.world
    if world is not None and world % (tp * pp * sp):
        return err("deepspeed.world_divisible",
                   f"{c.path}: world({world}) is not divisible by tp({tp})*pp({pp})*sp({sp})={tp * pp * sp}",
                   f"use a world size that is a multiple of {tp * pp * sp}")


@rule("deepspeed.batch_identity", "startup", "", "train_batch_size = micro * gradient accumulation * dp")
def _(c: ForeignConfig) -> Optional[Finding]:
    gas, train, micro = (c.extra.get(k) for k in ("gradient_accumulation_steps", "train_batch_size", "micro_batch"))
    if train and micro and gas and c.dp and train != micro * gas * c.dp:
        return err("deepspeed.batch_identity",
                   f"{c.where('global_batch')}: train_batch_size({train}) != micro({micro}) * "
                   f"gradient_accumulation_steps({gas}) * dp({c.dp}) = {micro * gas * c.dp}",
                   f"set train_batch_size to {micro * gas * c.dp}, or drop one of the three and let DeepSpeed derive it")


@rule("deepspeed.zero_pipeline", "startup", "", "the pipeline engine runs ZeRO 0 or 1 only")
def _(c: ForeignConfig) -> Optional[Finding]:
    pp = c.pp or 1
    if (c.zero_stage or 0) >= 2 and pp > 1:
        return err("deepspeed.zero_pipeline",
                   f"{c.where('zero_stage')}: ZeRO stage {c.zero_stage} with pipeline parallelism pp({pp}): "
                   f"DeepSpeed's pipeline engine accepts ZeRO 0 or 1 only",
                   "use zero_optimization.stage 1 with pipeline parallelism")


@rule("deepspeed.ulysses_seq", "startup", "", "Ulysses' sequence_parallel_size divides seq")
def _(c: ForeignConfig) -> Optional[Finding]:
    sp = c.cp or 1      # Ulysses splits the sequence plainly over sp ranks (no zig-zag halves)
    if c.seq is not None and c.seq % seq_divisor(sp, chunks=1, sequence_parallel=False):
        return err("deepspeed.ulysses_seq",
                   f"{c.where('seq', 'cp')}: seq({c.seq}) is not divisible by sequence_parallel_size({sp})",
                   f"use seq {up(c.seq, sp)}")


@rule("deepspeed.ep_divides_dp", "startup", "", "ep_size divides the data-parallel ranks")
def _(c: ForeignConfig) -> Optional[Finding]:
    sp, ep = c.cp or 1, c.ep or 1
    if ep > 1 and c.dp and (c.dp * sp) % ep:
        return err("deepspeed.ep_divides_dp",
                   f"{c.where('ep')}: ep_size({ep}) does not divide the data-parallel ranks dp({c.dp})*sp({sp}) = "
                   f"{c.dp * sp} from which expert groups are carved",
                   f"use ep_size in {divisors(c.dp * sp)}")

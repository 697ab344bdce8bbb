"""The audit's command-line options (argparse only: the CLI's parser reads them without
importing the audit)."""
from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The audit's options, skipping any the parser already defines."""
    have = set(p._option_string_actions)  # argparse keeps no public view of its options

    def add(flag: str, **kw) -> None:
        if flag not in have:
            p.add_argument(flag, **kw)

    add("--format", default="auto", choices=["auto", "megatron", "torchtitan", "deepspeed", "foldplan", "layout"])
    add("--json", action="store_true", help="print the audit as JSON (schema foldplan.audit/1)")
    add("--report", default=None, help="write a self-contained HTML report")
    add("--env", action="append", default=[], metavar="KEY=VAL",
        help="a variable the script reads (SLURM_NNODES=4, TP=8); repeatable; laid over the process environment")
    for axis in ("tp", "pp", "ep"):
        add(f"--{axis}", default=None, help=f"{axis} degree the DeepSpeed launcher sets (DeepSpeed JSON only)")
    add("--no-best", action="store_true", help="estimate and findings only: skip the best-plan search")
    add("--time-limit", type=float, default=60.0, help="best-plan search time limit, seconds (default 60)")

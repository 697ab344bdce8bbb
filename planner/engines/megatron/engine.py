"""Megatron-LM's own code, imported from megatron-core (a test dependency: scripts/install_engines.sh).

Only what runs on CPU: the argument parser (`parse`). The judge (planner/engines/megatron/judge.py)
adds validation, `TransformerConfig` and the rank groups on top. megatron-core 0.19.2 asks for
Python >= 3.12 for one name, `typing.override` (PEP 698): on 3.11 it is aliased to
`typing_extensions.override` before the first megatron import; nothing else is patched.
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
import typing
import warnings
from importlib.metadata import version as v


def load():
    """megatron.training.arguments (ImportError when megatron-core is not installed)."""
    if not hasattr(typing, "override"):
        # deferred: needed only on a Python whose typing has no override (megatron-core's imports use it)
        import typing_extensions
        typing.override = typing_extensions.override
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "Transformer Engine and Apex are not installed"
        # deferred: megatron-core (a test dependency) loads only where it judges, after the typing patch
        from megatron.training import arguments
    return arguments


def version() -> str:
    return v("megatron-core")


def parse(argv: list[str], world: int = 1, rank: int = 0):
    """Megatron's own `parse_args` on `argv` (no validation): an argparse Namespace. An unknown or
    malformed flag raises ValueError with argparse's message (argparse itself would exit)."""
    arguments = load()
    saved = sys.argv, os.environ.get("WORLD_SIZE"), os.environ.get("RANK")
    sys.argv = ["pretrain_gpt.py", *argv]
    os.environ["WORLD_SIZE"], os.environ["RANK"] = str(world), str(rank)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            return arguments.parse_args()
    except SystemExit as e:
        lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
        raise ValueError(lines[-1] if lines else f"argparse exited with {e.code}") from None
    finally:
        sys.argv = saved[0]
        for k, val in zip(("WORLD_SIZE", "RANK"), saved[1:]):
            if val is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = val

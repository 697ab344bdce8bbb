"""The audit's vocabulary of inputs, with no imports (the CLI's parser reads it without loading
the readers): the config formats `foldplan audit --format` takes."""
from __future__ import annotations

# auto: told from the file's name and contents (planner.audit.detect)
FORMATS = ("auto", "megatron", "torchtitan", "olmo-core", "deepspeed", "foldplan", "layout")

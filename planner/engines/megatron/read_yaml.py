"""Megatron YAML configs -> the flags of the command line they stand for.

Two published layouts share one shape: Megatron-LM's functional tests
(``tests/functional_tests/test_cases/**/model_config.yaml``) and the Megatron-MoE-ModelZoo's
model configs (``model_configs/benchmarking/*.yaml``) hold a ``MODEL_ARGS`` mapping of
``--flag: value``. Their launchers (``_run_training.sh``; ``sbatch_benchmarking.sh``) turn
``true`` into the bare flag, drop ``false``, and pass every other value as the flag's
value; ``${TP}``-style placeholders are filled from the environment (``--env TP=8``).
A list value ``[a, b]`` becomes several values.
"""

from __future__ import annotations

import re

import yaml

from planner.engines.megatron.flags import Flags
from planner.shell import Field, Shell
from planner.layout.foreign import AuditParseError
from planner import safeio

_KEY_LINE = re.compile(r"^\s*[\"']?(--[A-Za-z0-9_\-]+)[\"']?\s*:", re.M)
# backslashes before a shell metacharacter: Megatron-LM's CI configs once escaped a pipeline layout for
# the shell their launcher passed the value through (`Et*2\\|\\(tt\\|\\)*5t\\|tmL # Et*2|(tt|)*5t|tmL`,
# model_config.yaml @ 310082a6); Megatron receives the value without them
_SHELL_ESCAPE = re.compile(r"\\+([|()*&;<>\[\]{}$])")
MAX_DEPTH = 32


def looks_like(text: str) -> bool:
    """A YAML document with a top-level ``MODEL_ARGS:`` mapping."""
    return bool(re.search(r"^MODEL_ARGS\s*:", text, re.M))


def load(text: str, path: str) -> dict:
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        what = str(getattr(e, "problem", None) or "syntax error")
        raise AuditParseError(path, mark.line + 1 if mark else None, f"invalid YAML: {what}") from None
    except (RecursionError, MemoryError):
        raise AuditParseError(path, None, "invalid YAML: nested too deeply") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("MODEL_ARGS"), dict):
        raise AuditParseError(path, None, "not a Megatron YAML config: no MODEL_ARGS mapping")
    try:                  # values counted as the aliases repeat them: an anchor bomb stops at the node limit
        safeio.check_tree(doc, "YAML", MAX_DEPTH)
    except safeio.InputError as e:
        raise AuditParseError(path, None, f"{str(e)}: not a Megatron config") from None
    return doc


def read_flags(text: str, path: str, env: dict | None = None, pinned: dict | None = None) -> tuple[Flags, Shell]:
    """The flags of ``MODEL_ARGS``, each with the YAML line it is on, placeholders expanded."""
    fields, sh = _fields(text, path, env, pinned)
    flags = Flags(path)
    flags.scan(fields)
    if not flags.flags:
        raise AuditParseError(path, None, "MODEL_ARGS holds no Megatron-LM flags the audit reads")
    return flags, sh


def fields(text: str, path: str, env: dict | None = None) -> list[Field]:
    """The command-line words of ``MODEL_ARGS``, placeholders filled from ``env``."""
    return _fields(text, path, env, None)[0]


def argv(text: str, path: str, env: dict | None = None) -> list[str]:
    """The argument list the launcher hands Megatron's training script for this config."""
    return [f.text for f in _fields(text, path, env, None)[0]]


def _fields(text: str, path: str, env: dict | None, pinned: dict | None) -> tuple[list[Field], Shell]:
    doc = load(text, path)
    lines: dict[str, int] = {}
    for m in _KEY_LINE.finditer(text):
        lines.setdefault(m.group(1), text.count("\n", 0, m.start()) + 1)
    sh = Shell(env={**(env or {}), **(pinned or {})})
    fields: list[Field] = []
    for key, value in doc["MODEL_ARGS"].items():
        key = str(key)
        if not key.startswith("--"):
            continue  # NeMo-style "trainer.max_steps" keys: not Megatron flags
        line = lines.get(key, 1)
        if isinstance(value, str) and "\\" in value:
            value = _SHELL_ESCAPE.sub(r"\1", value)  # `Et*2\\|\\(tt\\|\\)*5t`: escapes for the launcher's shell
        if isinstance(value, str) and "$" in value:
            value = sh.expand_text(value, line)   # the launchers fill placeholders first (envsubst) ...
        if value is False or value is None or value == "false":
            continue                              # ... then drop "false" and give "true" as the bare flag
        if isinstance(value, dict):
            raise AuditParseError(path, line, f"MODEL_ARGS.{key}: a mapping is not a flag value")
        fields.append(Field(key, line))
        if value is True or value == "true":
            continue
        if isinstance(value, str) and value.startswith("[") and value.endswith("]"):
            value = value[1:-1].split()  # _run_training.sh strips the brackets and splits the words
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, (dict, list)):
                raise AuditParseError(path, line, f"MODEL_ARGS.{key}: nested values are not flag values")
            text_value = "true" if item is True else "false" if item is False else str(item)
            fields.append(Field(sh.expand_text(text_value, line), line))
    return fields, sh

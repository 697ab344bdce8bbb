"""``load(source)``: pick the parser for a config file (or an inline layout string) and run it.

Auto-detection:

* ``source`` is not an existing path and reads as ``key=value,...`` -> layout string;
* ``*.json`` (or text starting with ``{``) with ``"schema": "foldplan.plans/1"`` -> foldplan plan;
* else the surest claim of an engine's reader (planner/engines/<engine>/reader.py ``claims``, ties in
  planner.engines.REGISTRY order): ``*.py`` importing ``olmo_core`` -> OLMo-core training script (read,
  never run); ``*.toml`` -> torchtitan 0.2 job TOML, ``*.py`` naming torchtitan -> its 0.3 config module;
  other JSON -> DeepSpeed config; YAML with a top-level ``MODEL_ARGS:`` -> Megatron YAML config
  (Megatron-LM functional tests, Megatron-MoE-ModelZoo); ``*.sh``/``.bash``/``.slurm``/``.sbatch``/``.args``
  -> Megatron-LM launch script / argument file;
* then a layout string in a file; then the readers' weaker claims (text with ``--flag`` words: Megatron;
  TOML section lines: torchtitan).

A Hugging Face ``config.json`` (``model_type`` / ``architectures`` / ``num_hidden_layers``)
holds a model, not a layout: it is refused with a message that says to pass it as
``--model`` beside a layout.

Keyword overrides are the command line's: ``world`` (GPUs; ``gpus`` is an
alias), ``seq``, ``micro_batch``, ``global_batch``, ``model_name`` for every
format; ``tp``, ``pp``, ``cp``, ``ep`` for DeepSpeed (whose file may not say);
``env`` (a dict of shell variables) for Megatron scripts. Every error is an
``AuditParseError`` whose text is one line naming the file (and line).
"""

from __future__ import annotations

import re
from pathlib import Path

import json
import os
import stat

from planner import engines
from planner.audit.options import formats
from planner.engines.record import MAYBE, SURE

import planner.audit.foldplan as foldplan
import planner.layout.strings as layoutstr
from planner.layout.foreign import AuditParseError, ForeignConfig

_COMMON = {"seq", "micro_batch", "global_batch", "model_name"}
_MAX_BYTES = 16 * 2**20


def _readers() -> list:
    """(engine name, its reader module) of every engine `foldplan audit` reads, in REGISTRY order."""
    return [(e.name, e.part("reader")) for e in engines.REGISTRY if e.reader]


def _claim(suffix: str, text: str, least: int):
    """The engine whose reader claims the text surest, at least `least` (None: none does)."""
    best = max(((r.claims(suffix, text), -i, name) for i, (name, r) in enumerate(_readers())), default=None)
    return best[2] if best and best[0] >= least else None


def detect(source: str, text: str | None) -> str:
    """The format of ``source`` (a path whose contents are ``text``, or an inline string when ``text`` is None)."""
    if text is None:
        if layoutstr.looks_like_layout(source):
            return "layout"
        raise AuditParseError(source, None, "no such file")
    suffix = Path(source).suffix.lower()
    if suffix == ".json" or text.lstrip().startswith("{"):
        if re.search(r'"schema"\s*:\s*"foldplan\.plans/', text):
            return "foldplan"
        if _is_hf_config(text):
            raise AuditParseError(source, None, "is a Hugging Face model config (config.json), not a layout: pass it "
                                                f'as --model {source} and give the layout, e.g. '
                                                f'foldplan audit "tp=8,pp=4,dp=2" --model {source}')
    fmt = _claim(suffix, text, SURE)
    if fmt:
        return fmt
    if suffix in (".yaml", ".yml"):
        raise AuditParseError(source, None, "a YAML file without a MODEL_ARGS mapping: not a Megatron config "
                                            "(model YAML files go to --model)")
    if layoutstr.looks_like_layout(text):
        return "layout"
    fmt = _claim(suffix, text, MAYBE)
    if fmt:
        return fmt
    raise AuditParseError(source, None, "cannot tell the format (not a config of "
                                        f"{', '.join(name for name, _ in _readers())}, a foldplan plan or a layout "
                                        "string); pass --format")


def _is_hf_config(text: str) -> bool:
    """A Hugging Face config.json: top-level ``architectures`` / ``num_hidden_layers``, or ``model_type`` + ``hidden_size``."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return False
    keys = set(doc) if isinstance(doc, dict) else set()
    return bool(keys & {"architectures", "num_hidden_layers"}) or {"model_type", "hidden_size"} <= keys


def read_text(path: Path) -> str:
    """The file's text; binary or non-UTF-8 content is an error, not garbage. Only regular files are read
    (a FIFO would block, /dev/zero never ends), and never more than the size limit."""
    name = str(path)
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise AuditParseError(name, None, "is a directory, not a config file")
        if not stat.S_ISREG(st.st_mode):
            raise AuditParseError(name, None, "is not a regular file (a FIFO, device or socket): not a config")
        if st.st_size > _MAX_BYTES:
            raise AuditParseError(name, None, f"file is larger than {_MAX_BYTES // 2**20} MiB: not a config")
        with open(path, "rb") as f:
            data = f.read(_MAX_BYTES + 1)
    except OSError as e:
        raise AuditParseError(name, None, f"cannot read: {e.strerror or e}") from None
    if len(data) > _MAX_BYTES:
        raise AuditParseError(name, None, f"file is larger than {_MAX_BYTES // 2**20} MiB: not a config")
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise AuditParseError(name, line, "binary file (NUL byte): not a text config")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise AuditParseError(name, line, f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    if "\x01" in text:
        raise AuditParseError(name, text.count("\n", 0, text.index("\x01")) + 1,
                              "control character 0x01: not a text config")
    return text


def load(source: str, fmt: str = "auto", **overrides) -> ForeignConfig:
    """Parse ``source`` (a file path, or an inline layout string) into a ``ForeignConfig``."""
    if fmt not in formats():
        raise ValueError(f"format must be one of {', '.join(formats())}, got {fmt!r}")
    if "gpus" in overrides:
        overrides.setdefault("world", overrides.pop("gpus"))
    overrides = {k: v for k, v in overrides.items() if v is not None}
    world = overrides.pop("world", None)
    env = overrides.pop("env", None)
    script_args = overrides.pop("script_args", ())
    degrees = {k: overrides.pop(k) for k in ("tp", "pp", "cp", "ep") if k in overrides}
    unknown = set(overrides) - _COMMON
    if unknown:
        raise TypeError(f"unknown override(s): {', '.join(sorted(unknown))}")
    config = None
    if "::" in source and _stat(Path(source.rsplit("::", 1)[0]))[1]:
        source, config = source.rsplit("::", 1)       # `module.py::qwen3_30b_a3b`: the config function to read
    path = Path(source)
    exists, is_file = _stat(path)
    inline = fmt == "layout" and not is_file or (fmt == "auto" and not exists and layoutstr.looks_like_layout(source))
    text = None if inline else read_text(path) if exists else None
    if fmt == "auto":
        fmt = detect(source, text)
    if text is None and fmt != "layout":
        raise AuditParseError(source, None, "no such file")
    takes = [name for name, r in _readers() if getattr(r, "TAKES_DEGREES", False)]
    if degrees and fmt not in takes:
        raise TypeError(f"--tp/--pp/--cp/--ep overrides apply to {' / '.join(takes)} configs only, not {fmt}")
    try:
        if script_args and fmt != "megatron":
            raise AuditParseError(source, None, f"is a {fmt} config: script arguments (-- ARGS) are for launch scripts")
        if config and not (fmt == "torchtitan" and path.suffix.lower() == ".py"):
            raise AuditParseError(source, None, f"is a {fmt} config: ::{config} names a function of a torchtitan "
                                                f"config module")
        cfg = _parse(fmt, source, text, world, env, degrees, overrides, tuple(script_args), config)
    except (RecursionError, MemoryError):
        raise AuditParseError(source, None, f"nested too deeply (or too large) to read as {fmt}") from None
    if overrides:
        lines = {k: v for k, v in cfg.lines.items() if k not in overrides}
        notes = tuple(f"{k}={v}: given on the command line" for k, v in overrides.items())
        cfg = cfg.replace(lines=lines, assumed=cfg.assumed + notes, **overrides)
    return cfg


def _stat(path: Path) -> tuple[bool, bool]:
    """(exists, is a file); a name the system refuses (too long, a NUL) is neither: a layout string can be
    longer than a file name may be."""
    try:
        return path.exists(), path.is_file()
    except (OSError, ValueError):
        return False, False


def _parse(fmt: str, source: str, text: str | None, world, env, degrees: dict, overrides: dict,
           script_args: tuple = (), config: str | None = None) -> ForeignConfig:
    if fmt == "layout":
        return layoutstr.parse(source if text is None else text.strip(),
                               "<layout>" if text is None else source, world=world)
    if fmt == "foldplan":
        return foldplan.parse(text, source, world=world)
    # a launch script's positional arguments, a config module's function: only the readers that take them
    # are given them (load() refused them for the others)
    given = {k: v for k, v in (("script_args", script_args), ("config", config)) if v}
    return dict(_readers())[fmt].load(text, source, world=world, env=env, overrides=overrides, degrees=degrees,
                                      **given)

"""What foldplan knows of one engine, as one value: `Engine`, declared in the engine's folder
(planner/engines/<folder>/__init__.py: `ENGINE = Engine(...)`) and listed once in planner.engines.REGISTRY.

The record is data only: names, flags and the dotted paths of the engine's modules. Each layer imports
the parts it may (docs/architecture.md): the search's layer its rule table and recompute forms
(`<package>.rules`, `<package>.recompute`), the outputs' layer its reader (`<package>.reader`), its
exporters and its judges. So importing the list costs nothing, and the layer rule holds.

What the rule table says is not restated here: the rank order an engine lays out and whether it runs
one expert folding for every stage are read from its `target.order` / `target.uniform_fold` rules
(planner.engines.EngineConstraints).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Export:
    """One `foldplan export --to NAME`: the module that writes it, the engine code that judges it."""
    name: str                        # `export --to` takes it
    writer: str                      # module with render(plan, name) -> {file name: text}
    says: str                        # what it writes, for --help ("Megatron-LM flags")
    judge: Optional[str] = None      # adapter module run as a child by planner.engines.judge
    probe: Optional[str] = None      # the engine's package the judge needs installed
    judge_path: tuple[str, ...] = ()   # sys.path entries ahead of the venv, relative to the repository root
    refuse: Optional[str] = None     # "module:function" (problem, layout) -> why this release cannot say it, or None


@dataclass(frozen=True)
class Engine:
    """One engine: its name (the `--target`, the audit's `--format`), its folder's package and what it does."""
    name: str
    package: str                     # planner.engines.<folder>: rules.py (RULES, DEFAULTS) at least
    says: str                        # how --help names it ("Megatron-LM", "foldplan's own bundle")
    target: bool = True              # the search plans for it (`--target`)
    own: bool = False                # foldplan's own code (the bundle): the plain search, no engine to hand it to
    one_recompute_form: bool = False   # one recompute form for the whole model (Megatron's flags)
    recompute: bool = False          # <package>.recompute has form / forms (/ searches): the forms it can say
    reader: bool = False             # <package>.reader: claims / load / with_world: `foldplan audit` reads its configs
    log: bool = False                # <package>.reader.read_log: `audit --measured` reads its training log
    exports: tuple[Export, ...] = ()

    def part(self, name: str):
        """The module `<package>.<name>` (imported on call: the caller's layer may import it)."""
        return importlib.import_module(f"{self.package}.{name}")


def resolve(ref: str):
    """The function named by "package.module:function"."""
    module, _, fn = ref.partition(":")
    return getattr(importlib.import_module(module), fn)


# How surely an engine's reader claims a file (`<package>.reader.claims(suffix, text)`); planner.audit.detect
# takes the surest claim, ties in REGISTRY order, and tries MAYBE claims only after the layout string:
NO = 0
MAYBE = 1        # a heuristic on the text (flag-like words, TOML section lines)
SURE = 2         # a suffix or a structure only this engine's configs have
IMPORTS = 3      # the file imports the engine's own package

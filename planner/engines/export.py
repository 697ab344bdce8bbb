"""`foldplan export PLAN --to NAME [--out FILE]`: a plan as the engine's own config, carrying every knob
the plan sets. NAME is one of the exporters the engines' records list (planner.engines.exports():
Megatron-LM flags — an argument file and a torchrun launch script around it, planner/engines/megatron/export.py —,
a torchtitan 0.3 config module or, on request, a torchtitan 0.2 job TOML, an OLMo-core training script).
What the engine cannot run (the `target.*` rules of its own table, planner/engines/<engine>/rules.py) or
cannot say is refused in one line naming it; nothing is written then.

Round trip: `foldplan audit` of what export wrote reads back the plan's layout and its
estimate (tests/test_export.py).
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

from planner import engines, safeio
from planner.engines.errors import ExportError  # noqa: F401  (raised by the writers)
from planner.engines.record import resolve

# the current release's rules an export of another release does not keep (0.2's TOML writes its own FP8
# recipes, tensorwise included)
_NOT_KEPT = {"torchtitan-0.2": ("target.precision",)}


def refuse_unrunnable(plan, target: str) -> None:
    try:
        eng, x = engines.export_of(target)
    except ValueError as e:
        raise ExportError(f"export --to: {e}") from None
    bad = [v for v in engines.constraints(eng.name).runs_on(plan.layout, plan.problem)
           if v.rule not in _NOT_KEPT.get(target, ())]
    if bad:
        raise ExportError(f"export --to {target}: {bad[0]} (rule {bad[0].rule}; plan with --target {eng.name})")
    why = resolve(x.refuse)(plan.problem, plan.layout) if x.refuse else None
    if why:                                  # what this release of the engine cannot say (torchtitan 0.2)
        raise ExportError(f"export --to {target}: {why}")


def render(plan, target: str, name: str = "train") -> dict[str, str]:
    """{file name: text} of the export (nothing written)."""
    refuse_unrunnable(plan, target)
    return importlib.import_module(engines.export_of(target)[1].writer).render(plan, name)


def write(plan, target: str, out: str | None, force: bool = False) -> list[str]:
    """Write the export: `out` is the main file, the others go beside it (all rendered, and so
    all refusals made, before the first is written; each file replaced atomically). A file that
    exists already is replaced only with `force` (else one line naming it, and nothing written).
    Without `out`, the main file's text is returned to print."""
    files = render(plan, target, Path(out).stem if out else "train")
    main = next(iter(files))
    if out is None:
        return [files[main]]
    paths = []
    for fname, text in files.items():
        path = Path(out) if fname == main else Path(out).parent / fname
        safeio.check_output_file(str(path), "out")
        paths.append(path)
    if len(set(paths)) < len(paths):                # --out names a file written beside the main one
        raise ExportError(f"export --out: {out} is the name of the file written beside {main}; name the main "
                          f"file instead (--out {Path(out).parent / main})")
    there = [str(p) for p in paths if p.exists()]
    if there and not force:
        raise ExportError(f"export --out: {' and '.join(there)} {'exists' if len(there) == 1 else 'exist'} already; "
                          f"pass --force to replace {'it' if len(there) == 1 else 'them'}")
    for path, text in zip(paths, files.values()):
        safeio.atomic_write_text(str(path), text, field="out")
        if path.suffix == ".sh":
            os.chmod(path, 0o755)
    return [str(p) for p in paths]

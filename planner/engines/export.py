"""`foldplan export PLAN --to megatron|torchtitan|torchtitan-0.2|olmo-core [--out FILE]`: a plan as the
engine's own config — Megatron-LM flags (an argument file and a torchrun launch script around it,
planner/engines/megatron/export.py), a torchtitan 0.3 config module (torchtitan/export/v03.py) or, on
request, a torchtitan 0.2 job TOML, or an OLMo-core training script (planner/engines/olmo_core/export.py) —
carrying every knob
the plan sets. What the engine cannot run (the `target.*` rules of its own table,
planner/engines/<engine>/rules.py) or cannot say is refused in one line naming it; nothing is written then.

Round trip: `foldplan audit` of what export wrote reads back the plan's layout and its
estimate (tests/test_export.py).
"""
from __future__ import annotations

from planner import safeio
from planner.engines import EXPORTS, constraints
from planner.engines.errors import ExportError  # noqa: F401  (raised by the writers)

# export name -> the target whose rules it keeps (both torchtitan releases share the torchtitan target,
# less the current release's recipes: 0.2's TOML writes its own, tensorwise included)
_TARGET = {"torchtitan-0.2": "torchtitan"}
_NOT_KEPT = {"torchtitan-0.2": ("target.precision",)}


def refuse_unrunnable(plan, target: str) -> None:
    if target not in EXPORTS:
        raise ExportError(f"export --to: unknown engine {target!r} (known: {', '.join(EXPORTS)})")
    bad = [v for v in constraints(_TARGET.get(target, target)).runs_on(plan.layout, plan.problem)
           if v.rule not in _NOT_KEPT.get(target, ())]
    if bad:
        raise ExportError(f"export --to {target}: {bad[0]} (rule {bad[0].rule}; plan with --target {target})")


def render(plan, target: str, name: str = "train") -> dict[str, str]:
    """{file name: text} of the export (nothing written)."""
    refuse_unrunnable(plan, target)
    if target == "megatron":
        from planner.engines.megatron import export as export_megatron
        return export_megatron.render(plan, name)
    if target == "torchtitan":               # 0.3: a Python config module (--module / --config)
        from planner.engines.torchtitan.export import v03 as export_py
        return export_py.render(plan, name)
    if target == "torchtitan-0.2":           # 0.2: its job TOML
        from planner.engines.torchtitan import export as export_torchtitan
        from planner.engines.torchtitan.rules import refused_by_0_2
        why = refused_by_0_2(plan.problem, plan.layout)
        if why:
            raise ExportError(f"export --to torchtitan-0.2: {why}")
        return export_torchtitan.render(plan, name)
    if target == "olmo-core":
        from planner.engines.olmo_core import export as export_olmo_core
        return export_olmo_core.render(plan, name)
    raise ExportError(f"export --to: unknown engine {target!r} (known: {', '.join(EXPORTS)})")


def write(plan, target: str, out: str | None, force: bool = False) -> list[str]:
    """Write the export: `out` is the main file, the others go beside it (all rendered, and so
    all refusals made, before the first is written; each file replaced atomically). A file that
    exists already is replaced only with `force` (else one line naming it, and nothing written).
    Without `out`, the main file's text is returned to print."""
    import os
    from pathlib import Path
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

"""torchtitan's model parts (``module_fqns_per_model_part``) read as layers per pipeline rank,
and the note the audit gives when they cut a rank's blocks other than the layer placement."""
from __future__ import annotations

import re

from planner.layout.foreign import AuditParseError
from planner.layout.placement import virtual_stages


def model_parts(par: dict, where: dict, path: str, pp: int) -> tuple[tuple[int, ...], int | None]:
    """(transformer layers per pipeline rank, vpp) from ``module_fqns_per_model_part``: one list of
    module names per model chunk; with a looped schedule (Interleaved1F1B) chunk k runs on rank
    k % pp (torchtitan/distributed/pipeline_parallel.py at 238fa99); ``layers.N`` are the blocks."""
    parts = par.get("module_fqns_per_model_part")
    if parts is None:
        return (), None
    line = where.get("parallelism.module_fqns_per_model_part")
    if not isinstance(parts, list) or not all(isinstance(x, list) and all(isinstance(n, str) for n in x)
                                              for x in parts):
        raise AuditParseError(path, line, "module_fqns_per_model_part must be a list of lists of module names")
    if not parts or len(parts) % pp:
        raise AuditParseError(path, line, f"module_fqns_per_model_part has {len(parts)} chunks, not a multiple of "
                                          f"pipeline_parallel_degree({pp})")
    counts = [sum(1 for n in x if re.fullmatch(r"layers\.\d+", n)) for x in parts]
    vpp = len(parts) // pp
    return tuple(sum(counts[k * pp + r] for k in range(vpp)) for r in range(pp)), vpp


def chunk_note(parts, stage_layers: tuple, vpp) -> list[str]:
    """What the audit says when the model parts cut a rank's blocks into chunks otherwise than the
    layout's placement (planner/layout/placement.py) does: the layout keeps each rank's count."""
    if not parts or not stage_layers or (vpp or 1) == 1:
        return []
    counts = [sum(1 for n in x if re.fullmatch(r"layers\.\d+", n)) for x in parts]
    placed = [len(c) for c in virtual_stages(stage_layers, vpp)]
    if placed == counts:
        return []
    return [f"module_fqns_per_model_part: chunks of {counts} blocks read as {placed} (the same blocks per "
            f"pipeline rank, cut into chunks as docs/plan-schema.md's layer placement says)"]

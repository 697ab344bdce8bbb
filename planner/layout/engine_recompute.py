"""The recompute forms each engine's flags can say, for a layout's per-stage recompute
(read by the `target.recompute` rule, planner.engines.targets and planner.export_*).
Sources: NVIDIA/Megatron-LM megatron/training/arguments.py at d98e8a6; pytorch/torchtitan
torchtitan/config/job_config.py at 238fa99."""
from __future__ import annotations

from typing import Optional

from planner.layout.values import RECOMPUTE_MODULES


def megatron_block_counts(n_max: int, vpp: int) -> range:
    """The --recompute-num-layers N worth trying when the largest stage holds n_max layers:
    1 .. ceil(n_max / vpp); with vpp > 1 only the N that recomputes every layer (a part of
    each chunk is not a form megatron_recompute accepts)."""
    top = max(1, -(-n_max // vpp))
    return range(1, top + 1) if vpp == 1 else range(top, top + 1)


def megatron_block_full(n: int, N: int, vpp: int) -> Optional[int]:
    """Layers of an n-layer stage that `--recompute-method block --recompute-num-layers N`
    recomputes: N of each of its vpp chunks, min(n, N * vpp); None where that is not a form
    this rule accepts (vpp > 1 and a part of the stage)."""
    f = min(n, N * vpp)
    return f if vpp == 1 or f in (0, n) else None


def megatron_recompute(L) -> tuple[Optional[dict], Optional[str]]:
    """Megatron's recompute flags for the layout's per-stage recompute, or why there are none.
    One granularity for the whole model (arguments.py:1425: selective takes no method): selective
    runs `--recompute-modules` in every layer; full with `--recompute-method block
    --recompute-num-layers N` recomputes N layers of each virtual chunk (min(n, N*vpp) of a stage)."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"granularity": None}, None
    if any(full) and any(sel):
        return None, "Megatron runs one recompute granularity: the stages mix full and selective recompute"
    if any(sel):
        part = [s for s in L.stages if s.recompute_selective != s.num_layers]
        if part:
            s = part[0]
            return None, (f"stage {s.index}: selective recompute in {s.recompute_selective} of {s.num_layers} "
                          f"layers; Megatron's --recompute-modules apply to every layer")
        mods = sorted({s.recompute_modules for s in L.stages})
        if len(mods) > 1:
            return None, f"stages recompute different modules {' / '.join('+'.join(m) for m in mods)}; " \
                         f"--recompute-modules is one list"
        if "op" in mods[0]:
            return None, "recompute module op is torchtitan's per-op AC; Megatron has no such module"
        return {"granularity": "selective", "modules": mods[0]}, None
    for n in megatron_block_counts(max(full), L.vpp):
        if all(f == megatron_block_full(s.num_layers, n, L.vpp) for f, s in zip(full, L.stages)):
            return {"granularity": "full", "method": "block", "num_layers": n}, None
    shown = "/".join(map(str, full))
    return None, (f"full recompute of {shown} layers per stage is not min(layers, N * vpp) for one "
                  f"--recompute-num-layers N" + (" (with vpp > 1: all layers or none)" if L.vpp > 1 else ""))


# torchtitan's per-op selective AC, as the audit estimates it (planner/audit/torchtitan.py)
TITAN_SAC = ("op",) if "op" in RECOMPUTE_MODULES else ("core_attn",)


def torchtitan_recompute(L) -> tuple[Optional[dict], Optional[str]]:
    """torchtitan's [activation_checkpoint] for the layout, or why there is none
    (torchtitan/config/job_config.py:651-656 at 238fa99): mode none; full (every block);
    selective with an integer option k (every k-th block: n // k of a stage's n) or "op" (per-op AC,
    every layer)."""
    full = [s.recompute_full for s in L.stages]
    sel = [s.recompute_selective for s in L.stages]
    if not any(full) and not any(sel):
        return {"mode": "none"}, None
    if any(sel):
        if any(full) or any(s.recompute_selective != s.num_layers for s in L.stages):
            return None, "torchtitan's selective AC applies to every layer (op) or to whole blocks (an integer)"
        mods = {s.recompute_modules for s in L.stages}
        if mods != {TITAN_SAC}:
            shown = " / ".join("+".join(m) for m in sorted(mods))
            return None, f"torchtitan has no recompute modules {shown} (its selective AC is per-op: module op)"
        return {"mode": "selective", "option": "op"}, None
    for k in range(1, max(s.num_layers for s in L.stages) + 1):
        if all(f == s.num_layers // k for f, s in zip(full, L.stages)):
            return ({"mode": "full"} if k == 1 else {"mode": "selective", "option": str(k)}), None
    return None, (f"full recompute of {'/'.join(map(str, full))} layers per stage is not every k-th block "
                  f"of each stage for one k")

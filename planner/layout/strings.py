"""Inline layout strings -> ForeignConfig.

    "tp=8,cp=16,pp=16,dp=8,vpp=2"
    "tp=1,cp=8,pp=4,dp=2,ep=16,edp=1,etp=1,cp_kind=ulysses,micro_batch=1"

Keys are the layout field names of docs/plan-schema.md (``world, tp, cp, dp, pp,
vpp, cp_kind, cp_ulysses, cp_ring, cp_comm, cp_balance, order, micro_batch, num_microbatches``,
the stage folding ``etp, ep, edp``, and the EP dispatch ``dispatcher, ep_overlap, delay_wgrad``);
anything else is an error naming the key.
Omitted keys, each listed in ``assumed``: tp = cp = pp = 1; dp = world / (tp*cp*pp)
when world is given, else 1; world = tp*cp*dp*pp; vpp = etp = ep = 1;
edp = tp*cp*dp / (etp*ep); cp_kind = ring when cp > 1.
"""

from __future__ import annotations

import re

from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div
from planner.specs.kinds import CP_BALANCES, CP_COMMS, DISPATCHERS, cp_kind_of, cp_split

_INT_KEYS = ("world", "tp", "cp", "dp", "pp", "vpp", "cp_ulysses", "cp_ring", "micro_batch",
             "num_microbatches", "etp", "ep", "edp")
_STR_KEYS = ("cp_kind", "order", "cp_comm", "cp_balance", "dispatcher")
_BOOL_KEYS = ("ep_overlap", "delay_wgrad")          # EP dispatch and overlap
_CP_KINDS = ("ring", "ulysses", "hybrid", "allgather")
_PAIR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=,]*?)\s*$")


def looks_like_layout(text: str) -> bool:
    """True for a one-line comma-separated ``key=value`` list."""
    text = text.strip()
    return bool(text) and "\n" not in text and all(_PAIR.match(p) for p in text.split(","))


def parse(text: str, path: str = "<layout>", world: int | None = None) -> ForeignConfig:
    values: dict[str, int | str] = {}
    for piece in text.strip().split(","):
        m = _PAIR.match(piece)
        if not m:
            raise AuditParseError(path, None, f"expected key=value, got {piece.strip()!r}")
        key, raw = m.group(1), m.group(2)
        if key not in _INT_KEYS and key not in _STR_KEYS and key not in _BOOL_KEYS:
            raise AuditParseError(path, None, f"unknown layout key {key!r} "
                                              f"(known: {', '.join(_INT_KEYS + _STR_KEYS + _BOOL_KEYS)})")
        if key in values:
            raise AuditParseError(path, None, f"layout key {key!r} given twice")
        if key in _BOOL_KEYS:
            if raw.lower() not in ("0", "1", "true", "false"):
                raise AuditParseError(path, None, f"{key} must be true or false (1 / 0), got {raw!r}")
            values[key] = raw.lower() in ("1", "true")
        elif key in _INT_KEYS:
            if not raw.isdigit() or int(raw) < 1:
                raise AuditParseError(path, None, f"{key} must be a positive integer, got {raw!r}")
            values[key] = int(raw)
        else:
            values[key] = raw
    if "dispatcher" in values and values["dispatcher"] not in DISPATCHERS:
        raise AuditParseError(path, None, f"dispatcher must be one of {', '.join(DISPATCHERS)}, "
                                          f"got {values['dispatcher']!r}")
    if "cp_kind" in values and values["cp_kind"] not in _CP_KINDS:
        raise AuditParseError(path, None, f"cp_kind must be one of {', '.join(_CP_KINDS)}, got {values['cp_kind']!r}")
    for key, allowed in (("cp_comm", CP_COMMS), ("cp_balance", CP_BALANCES)):
        if key in values and values[key] not in allowed:
            raise AuditParseError(path, None, f"{key} must be one of {', '.join(allowed)}, got {values[key]!r}")
    if world is not None:
        values.setdefault("world", world)
    assumed: list[str] = []

    def default(key: str, value):
        if key not in values and value is not None:
            values[key] = value
            assumed.append(f"{key}={value}: not in the layout string")

    for key in ("tp", "cp", "pp"):
        default(key, 1)
    default("dp", exact_div(values.get("world"), values["tp"] * values["cp"] * values["pp"]) or 1)
    default("world", values["tp"] * values["cp"] * values["dp"] * values["pp"])
    for key in ("vpp", "etp", "ep"):
        default(key, 1)
    default("edp", exact_div(values["tp"] * values["cp"] * values["dp"], values["etp"] * values["ep"]))
    cp = values["cp"]
    if cp > 1 and ("cp_ulysses" in values or "cp_ring" in values):      # the split names the kind
        default("cp_ulysses", exact_div(cp, values.get("cp_ring")))
        default("cp_ring", exact_div(cp, values.get("cp_ulysses")))
        if values.get("cp_ulysses") and values.get("cp_ring"):
            values.setdefault("cp_kind", cp_kind_of(values["cp_ulysses"], values["cp_ring"]))
    elif cp > 1:
        default("cp_kind", "ring")
        if values["cp_kind"] != "hybrid":
            u, r = cp_split(values["cp_kind"], cp)
            default("cp_ulysses", u), default("cp_ring", r)
    extra = {k: values[k] for k in ("order", "num_microbatches", "cp_comm", "cp_balance", "dispatcher", *_BOOL_KEYS)
             if k in values}
    return ForeignConfig(
        format="layout", path=path,
        **{k: values.get(k) for k in ("world", "tp", "cp", "dp", "pp", "vpp", "etp", "ep", "edp",
                                      "cp_kind", "cp_ulysses", "cp_ring", "micro_batch")},
        extra=extra, assumed=tuple(assumed),
    )

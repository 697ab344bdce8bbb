"""The layout-string grammar: one parser and one printer (docs/layout-strings.md).

    "tp=8,cp=16,pp=16,dp=8,vpp=2"
    "tp=1,cp=8,pp=2,dp=2,sharding=zero2,recompute=full,stages=s0 layers30 etp1 ep16 edp1 | s1 layers31 etp1 ep16 edp1"

A string is comma-separated ``key=value`` pairs; the keys are the field names of the
layout (docs/plan-schema.md). ``stages`` lists the stages in groups separated by ``|``:
``sA-B layersN etpN epN edpN fullN selN(mod+mod)``, one group per run of consecutive
stages that share every value. ``format_layout`` prints every field, so
``layout -> string -> layout`` is the identity (tests/test_layout_strings.py).

``fields`` returns what the string says, checked on its own (types, ranges, and the
identities that need no problem: the CP split, world, the folding of each stage);
``parse`` makes the audit's ForeignConfig of it; planner.solve.complete fills what the
string leaves out (one rule, each filled value listed as an ``assumed:`` line).
"""
from __future__ import annotations

import re
from difflib import get_close_matches

from planner.layout.foreign import AuditParseError, ForeignConfig, exact_div
from planner.specs.kinds import (CP_BALANCES, CP_COMMS, CP_KINDS, DISPATCHERS, LOSS_LOGITS, MASTERS, ORDERS,
                                 RECOMPUTE_MODULES, SHARDINGS, cp_kind_of, cp_split)

INT_KEYS = ("world", "tp", "cp", "dp", "pp", "vpp", "cp_ulysses", "cp_ring", "micro_batch",
            "num_microbatches", "etp", "ep", "edp")
CHOICES = {"cp_kind": CP_KINDS, "order": ORDERS, "cp_comm": CP_COMMS, "cp_balance": CP_BALANCES,
           "dispatcher": DISPATCHERS, "sharding": SHARDINGS, "master": MASTERS,
           "recompute": ("none", "selective", "full"),
           # a job field, not a layout field: how the loss keeps the logits (TrainSpec.loss_logits)
           "loss_logits": LOSS_LOGITS}
BOOL_KEYS = ("ep_overlap", "delay_wgrad")
LIST_KEYS = ("recompute_modules", "stages")
KEYS = INT_KEYS + tuple(CHOICES) + BOOL_KEYS + LIST_KEYS
#: the largest degree, count or size a string may give: 2**20 (a million GPUs, as --gpus allows)
MAX_INT = 2 ** 20
_PAIR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=,]*?)\s*$")
_GROUP_HEAD = re.compile(r"^s(\d+)(?:-(\d+))?$")
_TOKEN = re.compile(r"^(layers|etp|ep|edp|full|sel)(\d+)(?:\(([a-z_+]+)\))?$")
_STAGE_KEYS = {"layers": "layers", "etp": "etp", "ep": "ep", "edp": "edp", "full": "recompute_full",
               "sel": "recompute_selective"}


def looks_like_layout(text: str) -> bool:
    """True for a one-line comma-separated ``key=value`` list."""
    text = text.strip()
    return bool(text) and "\n" not in text and all(_PAIR.match(p) for p in text.split(","))


def _int(key: str, raw: str, path: str, low: int = 1) -> int:
    # ASCII digits only: str.isdigit() accepts '²' and other digits int() refuses or reads differently
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 8 or not low <= int(raw) <= MAX_INT:
        raise AuditParseError(path, None, f"{key} must be an integer from {low} to {MAX_INT}, got {raw[:40]!r}")
    return int(raw)


def _modules(key: str, raw: str, path: str) -> tuple[str, ...]:
    mods = tuple(m for m in raw.split("+") if m)
    bad = [m for m in mods if m not in RECOMPUTE_MODULES]
    if bad or not mods:
        raise AuditParseError(path, None, f"{key}: unknown module {(bad or [''])[0][:40]!r} "
                                          f"(known: {', '.join(RECOMPUTE_MODULES)}, joined with +)")
    return mods


def _value(key: str, raw: str, path: str):
    if key in INT_KEYS:
        return _int(key, raw, path)
    if key in BOOL_KEYS:
        if raw.lower() not in ("0", "1", "true", "false"):
            raise AuditParseError(path, None, f"{key} must be true or false (1 / 0), got {raw[:40]!r}")
        return raw.lower() in ("1", "true")
    if key in CHOICES:
        if raw not in CHOICES[key]:
            raise AuditParseError(path, None, f"{key} must be one of {', '.join(CHOICES[key])}, got {raw[:40]!r}")
        return raw
    if key == "recompute_modules":
        return _modules(key, raw, path)
    return parse_stages(raw, path)


def parse_stages(text: str, path: str = "<layout>") -> list[dict]:
    """``s0-7 layers4 etp1 ep8 edp4 | s8 layers3 full3`` -> one dict per stage (index, layers as
    a count, and the fold / recompute values given)."""
    out: list[dict] = []
    for group in text.split("|"):
        words = group.split()
        head = _GROUP_HEAD.match(words[0]) if words else None
        if not head:
            raise AuditParseError(path, None, f"stages: each group starts with sN or sA-B, got {group.strip()[:40]!r}")
        a = _int("stages", head.group(1), path, low=0)
        b = _int("stages", head.group(2), path, low=0) if head.group(2) else a
        if a != len(out) or b < a or b >= MAX_INT:
            raise AuditParseError(path, None, f"stages: group {words[0]} must start at stage {len(out)} "
                                              f"and not end before it")
        vals: dict = {}
        for w in words[1:]:
            m = _TOKEN.match(w)
            if not m or m.group(1) in vals or (m.group(3) and m.group(1) != "sel"):
                raise AuditParseError(path, None, f"stages {words[0]}: cannot read {w[:40]!r} (layersN etpN epN "
                                                  f"edpN fullN selN(mod+mod), each once)")
            key = _STAGE_KEYS[m.group(1)]
            vals[key] = _int(f"stages {words[0]} {m.group(1)}", m.group(2), path, low=0)
            if m.group(3):
                vals["recompute_modules"] = _modules(f"stages {words[0]} sel", m.group(3), path)
        if "layers" not in vals:
            raise AuditParseError(path, None, f"stages {words[0]}: give its layers per stage (layersN)")
        if vals.get("recompute_full", 0) + vals.get("recompute_selective", 0) > vals["layers"]:
            raise AuditParseError(path, None, f"stages {words[0]}: full({vals.get('recompute_full', 0)}) + "
                                              f"sel({vals.get('recompute_selective', 0)}) > layers({vals['layers']})")
        if len(out) + b - a + 1 > 4096:
            raise AuditParseError(path, None, "stages: more than 4096 stages")
        out += [{"index": i, **vals} for i in range(a, b + 1)]
    return out


def fields(text: str, path: str = "<layout>") -> dict:
    """The values a layout string gives, each checked, and its contradictions refused (one line,
    the field and the arithmetic)."""
    values: dict = {}
    if len(text) > 100_000:
        raise AuditParseError(path, None, f"layout string of {len(text)} characters (at most 100000)")
    for piece in text.strip().split(","):
        m = _PAIR.match(piece)
        if not m:
            raise AuditParseError(path, None, f"expected key=value, got {piece.strip()[:60]!r}")
        key, raw = m.group(1), m.group(2)
        if key not in KEYS:
            near = get_close_matches(key, KEYS, n=1)
            hint = f"did you mean {near[0]}? " if near else ""
            raise AuditParseError(path, None, f"unknown layout key {key[:40]!r}; {hint}(known: {', '.join(KEYS)})")
        if key in values:
            raise AuditParseError(path, None, f"layout key {key!r} given twice")
        values[key] = _value(key, raw, path)
    _check(values, path)
    return values


def _check(v: dict, path: str) -> None:
    bad = lambda what: AuditParseError(path, None, what)
    cp = v.get("cp")
    cu, cr = v.get("cp_ulysses"), v.get("cp_ring")
    if cp is not None and cu is not None and cr is not None and cu * cr != cp:
        raise bad(f"cp_ulysses({cu}) * cp_ring({cr}) = {cu * cr} != cp({cp})")
    for k, x in (("cp_ulysses", cu), ("cp_ring", cr)):
        if cp is not None and x is not None and cp % x:
            raise bad(f"{k}({x}) does not divide cp({cp})")
    if "cp_kind" in v and cu is not None and cr is not None and cp_kind_of(cu, cr) != v["cp_kind"]:
        raise bad(f"cp_kind {v['cp_kind']} contradicts cp_ulysses({cu}) * cp_ring({cr}) "
                  f"(that split is {cp_kind_of(cu, cr)})")
    deg = [v.get(k) for k in ("tp", "cp", "dp", "pp")]
    if "world" in v and None not in deg and deg[0] * deg[1] * deg[2] * deg[3] != v["world"]:
        raise bad(f"tp({deg[0]}) * cp({deg[1]}) * dp({deg[2]}) * pp({deg[3]}) = "
                  f"{deg[0] * deg[1] * deg[2] * deg[3]} != world({v['world']})")
    if "world" in v and [x for x in deg if x] and v["world"] % _prod(x for x in deg if x):
        raise bad(f"the degrees given ({_prod(x for x in deg if x)}) do not divide world({v['world']})")
    if v.get("delay_wgrad") and v.get("ep_overlap") is False:
        raise bad("delay_wgrad needs ep_overlap=true")
    st = v.get("stages")
    if st is None:
        return
    if "pp" in v and len(st) != v["pp"]:
        raise bad(f"stages: {len(st)} stages given for pp({v['pp']})")
    if "recompute" in v and any("recompute_full" in s or "recompute_selective" in s for s in st):
        raise bad("recompute: give it once, as recompute= or per stage (fullN selN), not both")
    ranks = None if None in deg[:3] else deg[0] * deg[1] * deg[2]
    for s in st:
        fold = [s.get(k, v.get(k)) for k in ("etp", "ep", "edp")]
        if ranks is not None and None not in fold and fold[0] * fold[1] * fold[2] != ranks:
            raise bad(f"stage {s['index']}: etp({fold[0]}) * ep({fold[1]}) * edp({fold[2]}) = "
                      f"{fold[0] * fold[1] * fold[2]} != tp * cp * dp = {ranks}")


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


# --------------------------------------------------------------------------- the printer

def stage_groups(stages) -> list[tuple[int, int, str]]:
    """(first, last, words) per run of consecutive stages whose words are the same."""
    out: list[tuple[int, int, str]] = []
    for s in stages:
        words = f"layers{s.num_layers} etp{s.etp} ep{s.ep} edp{s.edp}"
        if s.recompute_full:
            words += f" full{s.recompute_full}"
        if s.recompute_selective:
            words += f" sel{s.recompute_selective}({'+'.join(s.recompute_modules)})"
        if out and out[-1][2] == words:
            out[-1] = (out[-1][0], s.index, words)
        else:
            out.append((s.index, s.index, words))
    return out


def format_stages(stages) -> str:
    return " | ".join((f"s{a}" if a == b else f"s{a}-{b}") + " " + w for a, b, w in stage_groups(stages))


def format_layout(L) -> str:
    """Every field of the layout `L` as one string ``fields`` reads back to the same layout."""
    keys = ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring", "cp_comm", "cp_balance",
            "order", "micro_batch", "num_microbatches", "sharding", "master", "dispatcher")
    out = [f"{k}={getattr(L, k)}" for k in keys]
    out += [f"{k}={str(getattr(L, k)).lower()}" for k in BOOL_KEYS]
    return ",".join(out + [f"stages={format_stages(L.stages)}"])


# --------------------------------------------------------------------------- the audit's view

def fill_degrees(v: dict) -> list[str]:
    """The degrees a string leaves out, filled in `v` (the first half of the completion rule;
    planner.solve.complete does the rest): tp = cp = pp = vpp = 1; dp = world / (tp*cp*pp) when
    world is known, else 1; world = tp*cp*dp*pp; etp = ep = 1 (stage 0's when the stages say);
    edp = tp*cp*dp / (etp*ep); a CP split from the kind (ring when cp > 1 and neither is given).
    Returns the ``assumed`` lines; a value the rest contradicts raises ValueError (one line)."""
    assumed: list[str] = []

    def default(key: str, value, why: str | None = "not in the layout string"):
        if key not in v and value is not None:
            v[key] = value
            if why:                             # None: the string says it elsewhere (its stages)
                assumed.append(f"{key}={value}: {why}")

    for key in ("tp", "cp"):
        default(key, 1)
    default("pp", len(v["stages"]) if v.get("stages") else 1,
            "the stages given" if v.get("stages") else "not in the layout string")
    tcp = v["tp"] * v["cp"] * v["pp"]
    if "dp" not in v and "world" in v and v["world"] % tcp:
        raise ValueError(f"dp: world({v['world']}) is not divisible by tp({v['tp']}) * cp({v['cp']}) * "
                         f"pp({v['pp']}) = {tcp}")
    default("dp", v["world"] // tcp if "world" in v else 1, "world / (tp * cp * pp)" if "world" in v else
            "not in the layout string")
    default("world", tcp * v["dp"], "tp * cp * dp * pp")
    if tcp * v["dp"] != v["world"]:
        raise ValueError(f"world: tp({v['tp']}) * cp({v['cp']}) * dp({v['dp']}) * pp({v['pp']}) = "
                         f"{tcp * v['dp']} != world({v['world']})")
    first = (v.get("stages") or [{}])[0]
    default("vpp", 1)
    for key in ("etp", "ep"):
        default(key, first.get(key, 1), None if key in first else "not in the layout string")
    ranks = v["tp"] * v["cp"] * v["dp"]
    if "edp" not in v and "edp" not in first and ranks % (v["etp"] * v["ep"]):
        raise ValueError(f"edp: etp({v['etp']}) * ep({v['ep']}) = {v['etp'] * v['ep']} does not divide "
                         f"tp * cp * dp = {ranks}")
    default("edp", first.get("edp", ranks // (v["etp"] * v["ep"])), None if "edp" in first else "tp * cp * dp / (etp * ep)")
    _fill_cp(v, default)
    try:
        _check(v, "<layout>")
    except AuditParseError as e:
        raise ValueError(e.what) from None
    return assumed


def _fill_cp(v: dict, default) -> None:
    cp = v["cp"]
    if cp == 1:
        return
    if "cp_ulysses" in v or "cp_ring" in v:                 # the split names the kind
        default("cp_ulysses", exact_div(cp, v.get("cp_ring")), "cp / cp_ring")
        default("cp_ring", exact_div(cp, v.get("cp_ulysses")), "cp / cp_ulysses")
        return
    default("cp_kind", "ring")
    if v["cp_kind"] == "hybrid":
        raise ValueError(f"cp_kind hybrid needs its split: cp_ulysses * cp_ring = cp({cp})")
    u, r = cp_split(v["cp_kind"], cp)
    default("cp_ulysses", u, f"cp_kind {v['cp_kind']}")
    default("cp_ring", r, f"cp_kind {v['cp_kind']}")


def parse(text: str, path: str = "<layout>", world: int | None = None) -> ForeignConfig:
    """The audit's ForeignConfig of a layout string, its degrees filled by ``fill_degrees``
    (listed in ``assumed``); the rest is filled by planner.solve.complete once the problem is known."""
    v = fields(text, path)
    if world is not None:
        v.setdefault("world", world)
    try:
        assumed = fill_degrees(v)
    except ValueError as e:
        raise AuditParseError(path, None, str(e)) from None
    stages = tuple(_stage_dict(s, i0) for s, i0 in zip(v.get("stages") or (), _starts(v.get("stages") or ())))
    recompute = v.get("recompute")
    if recompute is None and stages:
        recompute = "full" if any(s.get("recompute_full") for s in stages) else \
            "selective" if any(s.get("recompute_selective") for s in stages) else "none"
    extra = {k: v[k] for k in ("order", "num_microbatches", "cp_comm", "cp_balance", "dispatcher", "loss_logits",
                               *BOOL_KEYS) if k in v}
    return ForeignConfig(
        format="layout", path=path,
        **{k: v.get(k) for k in ("world", "tp", "cp", "dp", "pp", "vpp", "etp", "ep", "edp",
                                 "cp_kind", "cp_ulysses", "cp_ring", "micro_batch", "sharding", "master")},
        recompute=recompute, recompute_modules=tuple(v.get("recompute_modules") or ()),
        stages=stages, extra={**extra, "text": text}, assumed=tuple(assumed))


def config_of(layout, cfg: ForeignConfig, assumed) -> ForeignConfig:
    """The audit's config of a completed layout string: every field of `layout` (its stages
    too), with the completion's ``assumed`` lines."""
    d = layout.to_dict()
    stages = tuple(d["stages"])
    kinds = layout.recompute_kinds
    return cfg.replace(
        **{k: d[k] for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_ulysses", "cp_ring", "micro_batch",
                             "sharding", "master")},
        etp=stages[0]["etp"], ep=stages[0]["ep"], edp=stages[0]["edp"], cp_kind=layout.cp_kind,
        recompute="full" if "full" in kinds else "selective" if "selective" in kinds else "none",
        stages=stages, assumed=tuple(assumed),
        extra={**cfg.extra, **{k: d[k] for k in ("order", "num_microbatches", "cp_comm", "cp_balance",
                                                  "dispatcher", *BOOL_KEYS)}})


def _starts(stages) -> list[int]:
    out, first = [], 0
    for s in stages:
        out.append(first)
        first += s["layers"]
    return out


def _stage_dict(s: dict, first: int) -> dict:
    return {**s, "layers": [first, first + s["layers"]]}


__all__ = ["config_of", "fields", "fill_degrees", "format_layout", "format_stages", "parse", "parse_stages", "stage_groups"]

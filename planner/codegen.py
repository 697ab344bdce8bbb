"""Render a plan into a self-contained launch bundle (templates/bundle -> OUT/).

All numbers the bundle needs are derived here, in Python: per-layer MoE flags,
per-stage layer lists and recompute, the rank grid and every process group,
the `--tiny` dimensions. The templates only substitute (StrictUndefined).
Files ending in `.j2` are rendered, the others copied byte for byte.

Writing is atomic: the bundle is rendered into a temporary directory next to
OUT and renamed into place; an existing OUT is replaced only with force=True,
by renaming it aside first, so an interrupted run leaves either the old
bundle or the new one, complete.
"""
from __future__ import annotations

import json
import math
import os
import pprint
import shlex
import shutil
import tempfile
from pathlib import Path

import jinja2

SCHEMA = "foldplan.plans/1"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "bundle"
# Oldest torch release the bundle supports: FSDP2's set_force_sum_reduction_for_comms
# and set_gradient_divide_factor arrived in 2.8 (pytorch#155915). Tested on 2.13.
MIN_TORCH = (2, 8)
TESTED_TORCH = "2.13"
DENSE_AXES = ("tp", "cp", "dp")


class BundleError(ValueError):
    """A plan the bundle cannot be made from, or an output directory in the way."""


# ---------------------------------------------------------------- plan access

def _get(d, path: str, kind=None):
    """d[path] for a dotted path; BundleError naming the field if absent or mistyped."""
    cur = d
    for key in path.split("."):
        if not isinstance(cur, dict) or key not in cur:
            raise BundleError(f"plan field {path}: missing")
        cur = cur[key]
    if kind is int and (isinstance(cur, bool) or not isinstance(cur, int)):
        raise BundleError(f"plan field {path}: expected an integer, got {cur!r}")
    if kind is int and cur < 0:
        raise BundleError(f"plan field {path}: expected >= 0, got {cur}")
    if kind not in (None, int) and not isinstance(cur, kind):
        raise BundleError(f"plan field {path}: expected {kind.__name__}, got {cur!r}")
    return cur


def select_plan(plans_doc, index: int = 0) -> dict:
    if not isinstance(plans_doc, dict):
        raise BundleError("plans document: expected a JSON object")
    if plans_doc.get("schema") != SCHEMA:
        raise BundleError(f"plans document field schema: expected {SCHEMA!r}, got {plans_doc.get('schema')!r}")
    plans = plans_doc.get("plans")
    if not isinstance(plans, list) or not plans:
        raise BundleError("plans document field plans: expected a non-empty list")
    if not 0 <= index < len(plans):
        raise BundleError(f"plans document field plans: no plan at index {index} (has {len(plans)})")
    return plans[index]


# ---------------------------------------------------------------- derivation

def moe_layers(model: dict) -> list[bool]:
    """is_moe[i] for every layer (docs/plan-schema.md, "Which layers are MoE")."""
    n, moe = _get(model, "layers", int), model.get("moe")
    if moe is None:
        return [False] * n
    freq = _get(moe, "layer_freq")
    if isinstance(freq, list):
        if len(freq) != n or any(f not in (0, 1) for f in freq):
            raise BundleError(f"plan field problem.model.moe.layer_freq: expected {n} values of 0/1")
        return [f == 1 for f in freq]
    if isinstance(freq, bool) or not isinstance(freq, int) or freq < 1:
        raise BundleError(f"plan field problem.model.moe.layer_freq: expected an int >= 1 or a list, got {freq!r}")
    first = moe.get("first_dense_layers") or 0
    return [i >= first and i % freq == 0 for i in range(n)]


def model_dims(model: dict) -> dict:
    """The model as the runtime reads it (full size)."""
    m = "problem.model."
    for f in ("layers", "hidden", "heads", "kv_heads", "vocab"):
        _get({"problem": {"model": model}}, m + f, int)
    moe = model.get("moe")
    attention = model.get("attention", "gqa")
    head_dim = model.get("head_dim")
    if attention == "mla" and not head_dim:
        mla = model.get("mla") or {}
        head_dim = (mla.get("qk_nope_head_dim") or 0) + (mla.get("qk_rope_head_dim") or 0)
    if not isinstance(head_dim, int) or head_dim <= 0:
        raise BundleError("plan field problem.model.head_dim: expected a positive integer")
    d = {
        "name": str(model.get("name", "model")),
        "layers": model["layers"], "hidden": model["hidden"],
        "heads": model["heads"],
        # MLA is run as multi-head attention of the same head count (see README)
        "kv_heads": model["heads"] if attention == "mla" else model["kv_heads"],
        "head_dim": head_dim, "vocab": model["vocab"],
        "ffn_hidden": int(model.get("ffn_hidden") or 0),
        "gated": bool(model.get("gated", True)),
        "tied_embeddings": bool(model.get("tied_embeddings", False)),
        "norm": model.get("norm", "rmsnorm"), "qk_norm": bool(model.get("qk_norm", False)),
        "attention": attention,
        "is_moe": moe_layers(model),
        "experts": 0, "top_k": 0, "expert_ffn": 0, "shared_ffn": 0,
        "router_score": "softmax", "router_bias": False,
    }
    if d["norm"] not in ("rmsnorm", "layernorm"):
        raise BundleError(f"plan field problem.model.norm: expected rmsnorm or layernorm, got {d['norm']!r}")
    if moe is not None:
        p = {"problem": {"model": {"moe": moe}}}
        d["experts"] = _get(p, m + "moe.experts", int)
        d["top_k"] = _get(p, m + "moe.top_k", int)
        d["expert_ffn"] = _get(p, m + "moe.expert_ffn_hidden", int)
        d["shared_ffn"] = int(moe.get("shared_experts") or 0) * int(moe.get("shared_ffn_hidden") or 0)
        d["router_score"] = moe.get("router_score", "softmax")
        d["router_bias"] = bool(moe.get("router_bias", False))
        if d["router_score"] not in ("softmax", "sigmoid"):
            raise BundleError(f"plan field problem.model.moe.router_score: got {d['router_score']!r}")
        if not 0 < d["top_k"] <= d["experts"]:
            raise BundleError(f"plan field problem.model.moe.top_k: {d['top_k']} not in 1..experts({d['experts']})")
    if not all(d["is_moe"]) and d["ffn_hidden"] <= 0:
        raise BundleError("plan field problem.model.ffn_hidden: dense layers need ffn_hidden > 0")
    return d


def tiny_dims(full: dict, lay: dict, etp: int = 1) -> dict:
    """Small dimensions with the same layout: heads divisible by tp * cp_ulysses,
    kv heads by tp; hidden 64, head_dim 8, ffn 64, expert ffn 32, vocab 128."""
    tp, U = lay["tp"], lay["cp_ulysses"]
    heads, kv = full["heads"], full["kv_heads"]
    if heads > 16 or heads % (tp * U) or (kv % tp and tp % kv):
        kv = tp * (U if (full["kv_heads"] // tp) % U == 0 and full["kv_heads"] % (tp * U) == 0 else 1)
        ratio = min(max(full["heads"] // full["kv_heads"], 1), 4)
        if (kv // tp) % U:
            ratio = U * math.ceil(ratio / U)
        heads = kv * ratio
    t = dict(full)
    t.update(heads=heads, kv_heads=kv, head_dim=8, hidden=64, vocab=128,
             ffn_hidden=_multiple(64, tp) if full["ffn_hidden"] else 0,
             expert_ffn=_multiple(32, etp) if full["experts"] else 0, shared_ffn=32 if full["shared_ffn"] else 0)
    t["name"] = full["name"] + " (tiny)"
    return t


def _multiple(x: int, m: int) -> int:
    return m * math.ceil(x / m)


def layout_numbers(plan: dict) -> dict:
    L = _get(plan, "layout", dict)
    out = {k: _get(plan, f"layout.{k}", int) for k in ("world", "tp", "cp", "dp", "pp")}
    out["vpp"] = int(L.get("vpp") or 1)
    kind = _get(plan, "layout.cp_kind", str)
    if kind not in ("ring", "ulysses", "hybrid"):
        raise BundleError(f"plan field layout.cp_kind: expected ring, ulysses or hybrid, got {kind!r}")
    u = int(L.get("cp_ulysses") or (out["cp"] if kind == "ulysses" else 1))
    r = int(L.get("cp_ring") or (out["cp"] if kind == "ring" else 1))
    if u * r != out["cp"]:
        raise BundleError(f"plan field layout.cp_ulysses: cp_ulysses({u}) * cp_ring({r}) != cp({out['cp']})")
    prod = out["tp"] * out["cp"] * out["dp"] * out["pp"]
    if prod != out["world"]:
        raise BundleError(f"plan field layout.world: tp({out['tp']}) * cp({out['cp']}) * dp({out['dp']}) * "
                          f"pp({out['pp']}) = {prod} != world({out['world']})")
    order = _get(plan, "layout.order", str).split("-")
    if sorted(order) != sorted(DENSE_AXES + ("pp",)) or order[-1] != "pp":
        raise BundleError(f"plan field layout.order: expected a permutation of tp, cp, dp then pp, got {L['order']!r}")
    out.update(cp_kind=kind, cp_ulysses=u, cp_ring=r, order=order[:-1])
    # precision and data-parallel sharding the runtime must run (templates/bundle/dataparallel.py)
    out["sharding"] = str(L.get("sharding") or "zero1")
    out["master"] = str(L.get("master") or "bf16+fp32")
    if out["sharding"] not in ("none", "zero1", "zero2", "zero3"):
        raise BundleError(f"plan field layout.sharding: expected none, zero1, zero2 or zero3, got {out['sharding']!r}")
    return out


def stage_specs(plan: dict, full: dict, lay: dict) -> list[dict]:
    """One spec per pipeline stage that runs: index, pp_rank, layers, is_moe,
    recompute per layer, expert folding.

    The plan has one entry per pp rank. With vpp > 1 (interleaved 1F1B) the
    n_p layers of pp rank p are split into vpp chunks (sizes as even as
    possible, larger first) and the model's layers are dealt out in
    virtual-stage order k = v * pp + p, so rank p holds chunks p, p+pp, ...
    (Narayanan et al. 2021): the same count of layers as the plan, not the
    contiguous range [first, end)."""
    stages = _get(plan, "layout.stages", list)
    pp, vpp = lay["pp"], lay["vpp"]
    if len(stages) != pp:
        raise BundleError(f"plan field layout.stages: {len(stages)} stages, expected pp({pp})")
    local = lay["tp"] * lay["cp"] * lay["dp"]
    folds, counts, modules, expect = [], [], [], 0
    for s, st in enumerate(stages):
        f = f"layout.stages.{s}"
        first, end = (st.get("layers") or [None, None])[:2]
        if first != expect or not isinstance(end, int) or end - first < vpp:
            raise BundleError(f"plan field {f}.layers: expected [{expect}, end >= {expect} + vpp({vpp})), "
                              f"got {st.get('layers')!r}")
        expect = end
        fold = {k: int(st.get(k) or 0) for k in ("etp", "ep", "edp")}
        if not full["experts"] and fold["etp"] * fold["ep"] * fold["edp"] != local:
            fold = {"etp": 1, "ep": 1, "edp": local}     # dense model: the expert view is unused
        if fold["etp"] * fold["ep"] * fold["edp"] != local:
            raise BundleError(f"plan field {f}: etp({fold['etp']}) * ep({fold['ep']}) * edp({fold['edp']}) "
                              f"!= tp * cp * dp = {local}")
        if full["experts"] and full["experts"] % fold["ep"]:
            raise BundleError(f"plan field {f}.ep: ep({fold['ep']}) does not divide experts({full['experts']})")
        if full["experts"] and full["expert_ffn"] % fold["etp"]:
            raise BundleError(f"plan field {f}.etp: etp({fold['etp']}) does not divide "
                              f"expert_ffn_hidden({full['expert_ffn']})")
        nf, ns = int(st.get("recompute_full") or 0), int(st.get("recompute_selective") or 0)
        if nf + ns > end - first:
            raise BundleError(f"plan field {f}.recompute_full: full({nf}) + selective({ns}) > layers({end - first})")
        folds.append(fold)
        counts.append((end - first, nf, ns))
        modules.append(list(st.get("recompute_modules") or ["core_attn"]))
    if expect != full["layers"]:
        raise BundleError(f"plan field layout.stages: layers cover [0, {expect}), model has {full['layers']}")

    # chunks[p][v]: the layers of chunk v on pp rank p, dealt in virtual-stage order
    sizes = [[n // vpp + (1 if v < n % vpp else 0) for v in range(vpp)] for n, _, _ in counts]
    chunks, nxt = [[None] * vpp for _ in range(pp)], 0
    for v in range(vpp):
        for p in range(pp):
            chunks[p][v] = list(range(nxt, nxt + sizes[p][v]))
            nxt += sizes[p][v]
    specs = []
    for p in range(pp):
        layers = [i for c in chunks[p] for i in c]
        _, nf, ns = counts[p]
        moe = [i for i in layers if full["is_moe"][i]]
        dense = [i for i in layers if not full["is_moe"][i]]
        full_set = set((moe + dense)[:nf])          # MoE layers first, then dense
        sel_set = set([i for i in layers if i not in full_set][:ns])
        kind = {i: "full" if i in full_set else "selective" if i in sel_set else "none" for i in layers}
        for v in range(vpp):
            c = chunks[p][v]
            specs.append({"index": v * pp + p, "pp_rank": p, "layers": c,
                          "is_moe": [full["is_moe"][i] for i in c], "recompute": [kind[i] for i in c],
                          "recompute_modules": modules[p], **folds[p]})
    return sorted(specs, key=lambda x: x["index"])


def rank_grid(lay: dict, specs: list[dict], tied: bool) -> tuple[list, dict]:
    """Coordinates of every rank and every process group (lists of global ranks).

    r = pp_rank * (tp*cp*dp) + local; local decomposes over `order` (first axis
    stride 1); the expert view of a stage decomposes the same local as etp
    (stride 1), ep, edp. Every group is sorted, so a rank's index in its group
    equals its coordinate on that axis."""
    sizes = {a: lay[a] for a in DENSE_AXES}
    stride, acc = {}, 1
    for a in lay["order"]:
        stride[a], acc = acc, acc * sizes[a]
    block, U = acc, lay["cp_ulysses"]

    def rank(pp, c):
        return pp * block + sum(c[a] * stride[a] for a in DENSE_AXES)

    def coords(local):
        return {a: (local // stride[a]) % sizes[a] for a in DENSE_AXES}

    ranks = []
    for r in range(lay["world"]):
        c = coords(r % block)
        ranks.append({"pp": r // block, **c, "cp_ring": c["cp"] // U, "cp_ulysses": c["cp"] % U, "experts": {}})

    def family(vary):
        """Groups of ranks that differ only in the axes `vary` (a predicate on coords)."""
        out = {}
        for r, c in enumerate(ranks):
            key = tuple((k, v) for k, v in c.items() if k != "experts" and not vary(k))
            out.setdefault(key, []).append(r)
        return sorted(sorted(g) for g in out.values())

    groups = {
        "tp": family(lambda k: k == "tp"),
        "cp": family(lambda k: k in ("cp", "cp_ring", "cp_ulysses")),
        "cp_ulysses": family(lambda k: k in ("cp", "cp_ulysses")),
        "cp_ring": family(lambda k: k in ("cp", "cp_ring")),
        "dp": family(lambda k: k == "dp"),
        "dp_cp": family(lambda k: k in ("dp", "cp", "cp_ring", "cp_ulysses")),
        "stage": family(lambda k: k != "pp"),
        "pp": family(lambda k: k == "pp"),
        "embed": ([[r, r + (lay["pp"] - 1) * block] for r in range(block)] if tied and lay["pp"] > 1 else []),
        "experts": {},
    }
    for st in specs:
        etp, ep, edp = st["etp"], st["ep"], st["edp"]
        fam = {"etp": {}, "ep": {}, "edp": {}}
        for local in range(block):
            r = st["pp_rank"] * block + local
            e = {"etp": local % etp, "ep": (local // etp) % ep, "edp": local // (etp * ep)}
            ranks[r]["experts"][st["index"]] = {**e, "etp_size": etp, "ep_size": ep, "edp_size": edp}
            fam["etp"].setdefault((e["ep"], e["edp"]), []).append(r)
            fam["ep"].setdefault((e["etp"], e["edp"]), []).append(r)
            fam["edp"].setdefault((e["etp"], e["ep"]), []).append(r)
        groups["experts"][st["index"]] = {k: sorted(sorted(g) for g in v.values()) for k, v in fam.items()}
    groups["dense_grid"] = [[[[rank(p, {"dp": d, "cp": c, "tp": t}) for t in range(lay["tp"])]
                              for c in range(lay["cp"])] for d in range(lay["dp"])] for p in range(lay["pp"])]
    folds = {(st["etp"], st["ep"], st["edp"]) for st in specs}
    groups["expert_grid"] = None
    if len(folds) == 1:
        etp, ep, edp = folds.pop()
        groups["expert_grid"] = [[[[p * block + t + etp * (e + ep * d) for t in range(etp)]
                                   for e in range(ep)] for d in range(edp)] for p in range(lay["pp"])]
    return ranks, groups


def check_divisibility(full: dict, lay: dict, seq: int, mb: int):
    tp, cp, U, R = lay["tp"], lay["cp"], lay["cp_ulysses"], lay["cp_ring"]
    if full["heads"] % tp or (full["kv_heads"] % tp and tp % full["kv_heads"]):
        raise BundleError(f"plan field layout.tp: tp({tp}) must divide heads({full['heads']}) and divide or "
                          f"be a multiple of kv_heads({full['kv_heads']})")
    if (full["heads"] // tp) % U:
        raise BundleError(f"plan field layout.cp_ulysses: cp_ulysses({U}) must divide heads/tp ({full['heads'] // tp})")
    if seq % (2 * R) or seq % cp:
        raise BundleError(f"plan field problem.train.seq: seq({seq}) must be divisible by 2*cp_ring({2 * R}) and cp({cp})")
    if (mb * seq // cp) % tp and full["experts"]:
        raise BundleError(f"plan field layout.micro_batch: tp({tp}) must divide the rows a rank routes, "
                          f"micro_batch({mb}) * seq({seq}) / cp({cp})")
    if full["ffn_hidden"] % tp:
        raise BundleError(f"plan field problem.model.ffn_hidden: tp({tp}) must divide ffn_hidden({full['ffn_hidden']})")
    if full["head_dim"] % 2:
        raise BundleError(f"plan field problem.model.head_dim: RoPE needs an even head_dim, got {full['head_dim']}")


def derive(plan: dict) -> dict:
    """Every value the templates substitute."""
    model = _get(plan, "problem.model", dict)
    full = model_dims(model)
    lay = layout_numbers(plan)
    specs = stage_specs(plan, full, lay)
    tiny = tiny_dims(full, lay, max(st["etp"] for st in specs))
    seq = _get(plan, "problem.train.seq", int)
    mb = _get(plan, "layout.micro_batch", int)
    nmb = _get(plan, "layout.num_microbatches", int)
    check_divisibility(full, lay, seq, mb)
    if lay["pp"] > 1 and nmb < lay["pp"]:
        raise BundleError(f"plan field layout.num_microbatches: {nmb} < pp({lay['pp']})")
    cf = plan["problem"]["train"].get("capacity_factor")
    train = {"seq": seq, "micro_batch": mb, "num_microbatches": nmb, "capacity_factor": cf}
    tiny_nmb = max(lay["pp"], min(nmb, 2))
    if lay["vpp"] > 1:
        tiny_nmb = _multiple(tiny_nmb, lay["pp"])
    tiny_train = {"seq": _multiple(32, 2 * lay["cp"] * lay["tp"]), "micro_batch": 1,
                  "num_microbatches": tiny_nmb, "capacity_factor": cf}
    ranks, groups = rank_grid(lay, specs, full["tied_embeddings"])
    cluster = plan["problem"].get("cluster") or {}
    per_node = int(cluster.get("gpus_per_node") or min(lay["world"], 8))
    per_node = min(per_node, lay["world"])
    runtime_layout = {k: lay[k] for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses", "cp_ring",
                                          "sharding", "master")}
    runtime_layout["order"] = "-".join(lay["order"] + ["pp"])
    return {
        "plan_ref": f"plan {plan.get('_index', 0)}",
        "model": full, "tiny": tiny, "train": train, "tiny_train": tiny_train,
        "layout": runtime_layout, "stages": specs, "ranks": ranks, "groups": groups,
        "min_torch": list(MIN_TORCH), "min_torch_str": ".".join(map(str, MIN_TORCH)),
        "tested_torch": TESTED_TORCH,
        "model_name": full["name"], "world": lay["world"],
        "gpus_per_node": per_node, "nnodes": math.ceil(lay["world"] / per_node),
        "readme": readme_values(plan, full, tiny, lay, specs, train, tiny_train),
    }


MEMORY_PARTS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")


def _gib(x) -> str:
    return "-" if not isinstance(x, (int, float)) else f"{x:.2f}"


def readme_values(plan, full, tiny, lay, specs, train, tiny_train) -> dict:
    """Pre-formatted text for README.md (the template only substitutes)."""
    mem = (plan.get("estimate") or {}).get("memory_gib_by_stage") or []
    rows = []
    for st in specs:
        m = mem[st["pp_rank"]] if st["pp_rank"] < len(mem) else {}
        parts = " / ".join(_gib(m.get(k)) for k in MEMORY_PARTS)
        rec = {k: st["recompute"].count(k) for k in ("full", "selective")}
        rows.append(f"| {st['index']} | {st['pp_rank']} | [{st['layers'][0]}, {st['layers'][-1] + 1}) "
                    f"| {sum(st['is_moe'])} | {st['etp']} x {st['ep']} x {st['edp']} "
                    f"| {rec['full']} / {rec['selective']} | {_gib(m.get('total'))} | {parts} |")
    moe = (f"{full['experts']} experts, top-{full['top_k']}, {full['router_score']} router"
           f"{', aux-loss-free bias' if full['router_bias'] else ''}, {sum(full['is_moe'])} MoE layers"
           if full["experts"] else "dense (no MoE)")
    degrees = (f"tp={lay['tp']} cp={lay['cp']} ({lay['cp_kind']}: ulysses {lay['cp_ulysses']} x "
               f"ring {lay['cp_ring']}) dp={lay['dp']} pp={lay['pp']} vpp={lay['vpp']}, "
               f"rank order {'-'.join(lay['order'] + ['pp'])}")
    tiny_s = (f"hidden {tiny['hidden']}, heads {tiny['heads']} (kv {tiny['kv_heads']}), head_dim "
              f"{tiny['head_dim']}, ffn {tiny['ffn_hidden']}, expert ffn {tiny['expert_ffn']}, vocab "
              f"{tiny['vocab']}, seq {tiny_train['seq']}, {tiny_train['num_microbatches']} micro-batch(es) of "
              f"{tiny_train['micro_batch']}")
    mla = ("\nThe plan's model uses MLA attention; this bundle runs it as multi-head attention with the "
           "same number of heads (the layout, not the attention variant, is what it exercises).\n"
           if full["attention"] == "mla" else "")
    est = plan.get("estimate") or {}
    return {
        "model_line": (f"{full['layers']} layers, hidden {full['hidden']}, {full['heads']} heads "
                       f"(kv {full['kv_heads']}, head_dim {full['head_dim']}), vocab {full['vocab']}; {moe}"),
        "degrees": degrees, "stage_rows": "\n".join(rows), "tiny": tiny_s, "mla_note": mla,
        "train_line": (f"seq {train['seq']}, micro-batch {train['micro_batch']} x {train['num_microbatches']} "
                       f"micro-batches per dp rank, capacity factor "
                       f"{'none (dropless)' if train['capacity_factor'] is None else train['capacity_factor']}"),
        "estimate_line": (f"step {est.get('step_time_s', '?')} s, peak memory "
                          f"{est.get('peak_memory_gib', '?')} GiB, MFU {est.get('mfu', '?')}"),
    }


# ---------------------------------------------------------------- rendering

def _pylit(value) -> str:
    return pprint.pformat(value, width=110, sort_dicts=False)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=False)
    env.filters["pylit"] = _pylit
    env.filters["shq"] = lambda v: shlex.quote(str(v))
    return env


def render_files(plans_doc: dict, index: int = 0) -> dict[str, bytes]:
    """Bundle-relative path -> content, all in memory."""
    plan = select_plan(plans_doc, index)
    ctx = derive(plan)
    ctx["plan_ref"] = f"plans[{index}]"
    env = _environment()
    files = {"plan.json": (json.dumps(plans_doc, indent=2, sort_keys=True) + "\n").encode()}
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        rel = path.relative_to(TEMPLATES).as_posix()
        if "__pycache__" in rel or rel.endswith(".pyc"):
            continue
        if rel.endswith(".j2"):
            text = env.get_template(rel).render(**ctx)
            files[rel[:-3]] = text.encode()
        else:
            files[rel] = path.read_bytes()
    return files


def write_files(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        if rel.startswith("launch/"):
            dest.chmod(0o755)


def render_bundle(plans_doc: dict, out_dir, *, force: bool = False, index: int = 0) -> Path:
    """Render plan `index` of `plans_doc` into `out_dir`, atomically. Returns out_dir."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BundleError(f"out: {out} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise BundleError(f"out: {out} exists and is not empty (use --force)")
    files = render_files(plans_doc, index)            # all validation before touching disk
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    aside = None
    try:
        write_files(tmp, files)
        if out.exists():
            aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rename(out, aside / "bundle")       # the old bundle, intact, until the new one is in place
        try:
            os.rename(tmp, out)
        except BaseException:
            if aside is not None:
                os.rename(aside / "bundle", out)
            raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if aside is not None and not (aside / "bundle").exists():
            shutil.rmtree(aside, ignore_errors=True)
        raise
    if aside is not None:
        shutil.rmtree(aside, ignore_errors=True)
    return out

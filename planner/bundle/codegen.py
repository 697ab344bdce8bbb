"""Render a plan into a self-contained launch bundle (planner/bundle/templates -> OUT/).

The input is a `planner.plan.Plan`: pydantic and `planner.layout.check` have validated
it, so nothing here re-validates it; `bundle_limits` only refuses what this bundle's
code cannot run. All numbers the bundle needs are derived here, in Python: per-layer
MoE flags, per-stage layer lists and recompute, the `--tiny` dimensions, the reduced
world of a `--check` that does not fit the machine. The rank grid is not listed: the
bundle's `layout.py` computes its groups at import from the degrees, the order and
the per-stage folding with `axes.py`, a copy of `planner.layout.axes` (the planner's
`RankGrid` lists its groups with the same functions). The
templates only substitute (StrictUndefined). Files ending in `.j2` are rendered, the
others copied byte for byte.

Every file is rendered in memory first: a templates directory that is missing, empty,
lacks a file every bundle needs (REQUIRED) or holds a template that does not render is
a one-line BundleError before anything is written. Writing is atomic: the bundle is
written into a temporary directory next to
OUT and renamed into place; an existing OUT is replaced only with force=True,
by renaming it aside first, so an interrupted run leaves either the old
bundle or the new one, complete.
"""
from __future__ import annotations

from typing import Optional

import itertools
import json
import math
import os
import pprint
import shlex
from pathlib import Path

import jinja2

from planner import plan as planmod
from planner.bundle.tiny import multiple as _multiple, tiny_dims, tiny_spec
from planner.costmodel import flops_per_token
from planner import safeio
from planner.layout import Layout
from planner.layout import axes as layout_axes
from planner.plan import Plan
from planner.specs import ModelSpec
from planner.specs.kinds import SHARDING
from planner.engines.bundle.limits import limits
from planner.engines.bundle.rules import precision_error
from planner.engines.bundle.rules import attention_kernel as bundle_attention_kernel

TEMPLATES = Path(__file__).resolve().parent / "templates"
# Oldest torch release the bundle supports: FSDP2's set_force_sum_reduction_for_comms
# and set_gradient_divide_factor arrived in 2.8 (pytorch#155915). Tested on 2.13.
MIN_TORCH = (2, 8)
TESTED_TORCH = "2.13"


class BundleError(ValueError):
    """A plan the bundle cannot be made from, or an output directory in the way."""


# ---------------------------------------------------------------- derivation

def model_dims(model: ModelSpec) -> dict:
    """The model as the runtime reads it (full size)."""
    moe = model.moe
    head_dim = model.head_dim
    if model.attention == "mla":        # run as multi-head attention of the same head count (README)
        head_dim = model.mla.qk_nope_head_dim + model.mla.qk_rope_head_dim
    return {
        "name": model.name, "layers": model.layers, "hidden": model.hidden, "heads": model.heads,
        "kv_heads": model.heads if model.attention == "mla" else model.kv_heads,
        "head_dim": head_dim, "vocab": model.vocab, "ffn_hidden": model.ffn_hidden, "gated": model.gated,
        "tied_embeddings": model.tied_embeddings, "norm": model.norm, "qk_norm": model.qk_norm,
        "attention": model.attention, "is_moe": model.moe_layers(),
        "experts": moe.experts if moe else 0, "top_k": moe.top_k if moe else 0,
        "expert_ffn": moe.expert_ffn_hidden if moe else 0,
        "shared_ffn": moe.shared_experts * moe.shared_ffn_hidden if moe else 0,
        "router_score": moe.router_score if moe else "softmax", "router_bias": moe.router_bias if moe else False,
    }


def stage_specs(lay: Layout, is_moe: list[bool]) -> list[dict]:
    """One spec per (virtual) stage that runs, in virtual-stage order k = v * pp + p: index,
    pp_rank, layers, is_moe, recompute per layer, recompute modules, expert folding. The layers
    of each chunk and each layer's recompute are the layout's placement (Layout.placement,
    planner/layout/placement.py), as the cost model priced them."""
    specs = []
    for rank, st in zip(lay.placement(is_moe).ranks, lay.stages):
        for v, c in enumerate(rank.chunks):
            specs.append({"index": v * lay.pp + rank.rank, "pp_rank": rank.rank, "layers": list(c),
                          "is_moe": [is_moe[i] for i in c], "recompute": [rank.recompute[i] for i in c],
                          "recompute_modules": list(st.recompute_modules), "etp": st.etp, "ep": st.ep, "edp": st.edp})
    return sorted(specs, key=lambda x: x["index"])


def bundle_limits(full: dict, lay: Layout, seq: int) -> None:
    """What this bundle's code cannot run although the plan is legal (planner/engines/bundle/limits.py)."""
    why = limits(full, lay, seq)
    if why:
        raise BundleError(why)


def check_world(lay: Layout, full: dict) -> dict:
    """The smallest layout that keeps every parallel kind of the plan: each of tp, dp, pp
    and the CP kind's parts stays > 1 where the plan's is, and the first and last stage
    keep their etp / ep / edp > 1 pattern. What `--check` runs when the plan's own world
    does not fit one machine (check_fit.py prints it)."""
    def choices(x):
        return (1,) if x == 1 else (2, 4)
    pp = min(lay.pp, 2)
    keep = [lay.stages[0], lay.stages[-1]] if pp > 1 else [lay.stages[0]]
    best = None
    for tp, dp, u, r in itertools.product(*map(choices, (lay.tp, lay.dp, lay.cp_ulysses, lay.cp_ring))):
        local = tp * u * r * dp
        folds = [_small_fold(s.fold, local, full["experts"]) for s in keep]
        if None in folds or (best is not None and local * pp >= best["world"]):
            continue
        best = {"world": local * pp, "tp": tp, "cp": u * r, "cp_ulysses": u, "cp_ring": r, "dp": dp, "pp": pp,
                "folds": folds}
    return best or {"world": lay.world, "tp": lay.tp, "cp": lay.cp, "cp_ulysses": lay.cp_ulysses,
                    "cp_ring": lay.cp_ring, "dp": lay.dp, "pp": lay.pp, "folds": [list(s.fold) for s in keep]}


def _small_fold(fold, local: int, experts: int):
    """The first (etp, ep, edp) with etp * ep * edp == local, each > 1 exactly where `fold`'s is."""
    for etp, ep in itertools.product(range(1, local + 1), repeat=2):
        edp, rest = divmod(local, etp * ep)
        small = (etp, ep, edp)
        if rest or any((a > 1) != (b > 1) for a, b in zip(small, fold)) or (experts and experts % ep):
            continue
        return list(small)
    return None


def derive(plan: Plan) -> dict:
    """Every value the templates substitute."""
    problem, lay = plan.problem, plan.layout
    why = precision_error(problem.train.precision)
    if why:
        raise BundleError(why)
    full = model_dims(problem.model)
    specs = stage_specs(lay, full["is_moe"])
    seq = problem.train.seq
    bundle_limits(full, lay, seq)
    tiny = tiny_dims(full, lay, max(st["etp"] for st in specs))
    cf = problem.train.capacity_factor
    train = {"seq": seq, "micro_batch": lay.micro_batch, "num_microbatches": lay.num_microbatches,
             "capacity_factor": cf, "precision": problem.train.precision}
    tiny_nmb = max(lay.pp, min(lay.num_microbatches, 2))
    if lay.vpp > 1:
        tiny_nmb = _multiple(tiny_nmb, lay.pp)
    # micro-batch 2: the check exercises every [B, ...] reshape with B > 1
    tiny_train = {"seq": _multiple(32, 2 * lay.cp * lay.tp), "micro_batch": 2, "num_microbatches": tiny_nmb,
                  "capacity_factor": cf, "precision": problem.train.precision}
    per_node = min(problem.cluster.gpus_per_node, lay.world)
    small = check_world(lay, full)
    runtime_layout = {k: getattr(lay, k) for k in ("world", "tp", "cp", "dp", "pp", "vpp", "cp_kind", "cp_ulysses",
                                                    "cp_ring", "order", "sharding", "master")}
    # what the sharding kind shards (planner.specs.kinds.Sharding): the bundle's FSDP2 knobs read these
    runtime_layout["shards"] = {k: getattr(SHARDING[lay.sharding], k) for k in ("optimizer", "grads", "params")}
    flops = {"model": flops_per_token(problem.model, seq),
             "tiny": flops_per_token(tiny_spec(problem.model, tiny), tiny_train["seq"])}
    return {
        "plan_ref": "plans[0]", "flops_per_token": flops,
        "model": full, "tiny": tiny, "train": train, "tiny_train": tiny_train,
        "layout": runtime_layout, "stages": specs, "check_world": small,
        "min_torch": list(MIN_TORCH), "min_torch_str": ".".join(map(str, MIN_TORCH)),
        "tested_torch": TESTED_TORCH,
        "model_name": full["name"], "world": lay.world,
        "gpus_per_node": per_node, "nnodes": math.ceil(lay.world / per_node),
        "readme": readme_values(plan, full, tiny, lay, specs, train, tiny_train),
        "check_world_line": _check_world_line(small),
    }


def _check_world_line(w: dict) -> str:
    folds = ", ".join(f"etp {f[0]} x ep {f[1]} x edp {f[2]}" for f in w["folds"])
    return (f"world {w['world']}: tp {w['tp']}, cp {w['cp']} (ulysses {w['cp_ulysses']} x ring {w['cp_ring']}), "
            f"dp {w['dp']}, pp {w['pp']}; experts {folds}")


MEMORY_PARTS = ("weights", "grads", "optimizer", "activations", "logits", "buffers")


def _gib(x) -> str:
    return "-" if not isinstance(x, (int, float)) else f"{x:.2f}"


def readme_values(plan, full, tiny, lay, specs, train, tiny_train) -> dict:
    """Pre-formatted text for README.md (the template only substitutes)."""
    est = plan.estimate.to_dict()
    mem = est["memory_gib_by_stage"]
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
    degrees = (f"tp={lay.tp} cp={lay.cp} ({lay.cp_kind}: ulysses {lay.cp_ulysses} x ring {lay.cp_ring}) "
               f"dp={lay.dp} pp={lay.pp} vpp={lay.vpp}, rank order {lay.order}, sharding {lay.sharding}, "
               f"master {lay.master}")
    tiny_s = (f"hidden {tiny['hidden']}, heads {tiny['heads']} (kv {tiny['kv_heads']}), head_dim "
              f"{tiny['head_dim']}, ffn {tiny['ffn_hidden']}, expert ffn {tiny['expert_ffn']}, vocab "
              f"{tiny['vocab']}, seq {tiny_train['seq']}, {tiny_train['num_microbatches']} micro-batch(es) of "
              f"{tiny_train['micro_batch']}")
    mla = ("\nThe plan's model uses MLA attention; this bundle runs it as multi-head attention with the "
           "same number of heads (the layout, not the attention variant, is what it exercises).\n"
           if full["attention"] == "mla" else "")
    return {
        "model_line": (f"{full['layers']} layers, hidden {full['hidden']}, {full['heads']} heads "
                       f"(kv {full['kv_heads']}, head_dim {full['head_dim']}), vocab {full['vocab']}; {moe}"),
        "degrees": degrees, "stage_rows": "\n".join(rows), "tiny": tiny_s, "mla_note": mla,
        "train_line": (f"seq {train['seq']}, micro-batch {train['micro_batch']} x {train['num_microbatches']} "
                       f"micro-batches per dp rank, capacity factor "
                       f"{'none (dropless)' if train['capacity_factor'] is None else train['capacity_factor']}, "
                       f"linear layers in {train['precision']}"),
        "estimate_line": (f"step {est['step_time_s']:.4g} s, peak memory {est['peak_memory_gib']:.4g} GiB, "
                          f"MFU {est['mfu']:.3g}"),
    }


# ---------------------------------------------------------------- rendering

def _pylit(value, indent: int = 0, width: int = 110) -> str:
    """A Python literal, dict items and list elements packed into lines of `width`."""
    if not isinstance(value, (dict, list)) or len(repr(value)) + indent <= width:
        return pprint.pformat(value, width=width - indent, compact=True, sort_dicts=False)
    if isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value):
        return pprint.pformat(value, width=width - indent, compact=True)
    opening, closing = "{}" if isinstance(value, dict) else "[]"
    parts = [f"{k!r}: {_pylit(v, indent + len(repr(k)) + 3, width)}" for k, v in value.items()] \
        if isinstance(value, dict) else [_pylit(v, indent + 1, width) for v in value]
    lines, line = [], ""
    for part in parts:
        if line and ("\n" in part or indent + 1 + len(line) + len(part) + 2 > width):
            lines.append(line + ",")
            line = ""
        line = f"{line}, {part}" if line else part
    lines.append(line)
    pad = "\n" + " " * (indent + 1)
    return opening + pad.join(l.replace("\n", pad) for l in lines) + closing


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=False)
    env.filters["pylit"] = _pylit
    env.filters["shq"] = lambda v: shlex.quote(str(v))
    return env


# What a bundle cannot run without: a templates directory that lacks one of these (an install
# that did not ship the package data, a broken checkout) is refused before anything is written.
REQUIRED = ("layout.py", "train.py", "mesh.py", "README.md", "launch/torchrun.sh")


# planner modules every bundle runs as they are, copied byte for byte (each imports nothing):
# the rank grid's arithmetic, with which layout.py lists the bundle's groups
MODULES = {"axes.py": layout_axes}


def template_paths(root: Path) -> list[str]:
    """The templates under root, bundle-relative and sorted (caches left out)."""
    if not root.is_dir():
        return []
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and not {"__pycache__", ".compile-cache"} & set(p.parts) and p.suffix != ".pyc")


def render_files(plan: Plan) -> dict[str, bytes]:
    """Bundle-relative path -> content, all in memory (nothing is written until every file has
    rendered). plan.json holds this one plan."""
    ctx = derive(plan)
    env = _environment()
    rels = template_paths(TEMPLATES)
    if not rels:
        raise BundleError(f"templates: {TEMPLATES} is missing or holds no files (the package data "
                          f"planner/bundle/templates did not install)")
    files = {"plan.json": planmod.dumps([plan]).encode(),
             **{rel: Path(mod.__file__).read_bytes() for rel, mod in MODULES.items()}}
    for rel in rels:
        if not rel.endswith(".j2"):
            files[rel] = (TEMPLATES / rel).read_bytes()
            continue
        try:
            files[rel[:-3]] = env.get_template(rel).render(**ctx).encode()
        except (jinja2.TemplateError, UnicodeDecodeError) as e:
            where = f" line {e.lineno}" if getattr(e, "lineno", None) else ""
            why = " ".join(str(getattr(e, "message", None) or e).split()) or type(e).__name__
            raise BundleError(f"templates: {rel}{where} does not render: {why}") from None
    missing = [r for r in REQUIRED if r not in files]
    if missing:
        raise BundleError(f"templates: {TEMPLATES} lacks {', '.join(missing)} (of the {len(REQUIRED)} files "
                          f"every bundle needs: {', '.join(REQUIRED)})")
    return files


def write_files(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        if rel.startswith("launch/"):
            dest.chmod(0o755)


def runs_differently(plan) -> Optional[str]:
    """One line when the plan's estimate costs kernels the bundle does not run (a Megatron /
    torchtitan target plan, fused kernels, another attention kernel): the bundle's own step
    will differ from the plan's. None when the estimate is the bundle's."""
    t, gpu = plan.problem.train, plan.problem.cluster.gpu
    want = {"target": "bundle", "kernels": "fused", "attention_kernel": bundle_attention_kernel(gpu)}
    got = {k: getattr(t, k) for k in want}
    if got == want:
        return None
    diff = ", ".join(f"{k} {got[k]}" for k in want if got[k] != want[k])
    return (f"the plan was estimated with {diff}; the bundle runs its compiled blocks and "
            f"{gpu.attention_name(want['attention_kernel'])}, so its step "
            f"will not be the plan's {plan.estimate.step_time:.3f} s (re-plan with the default target for the "
            f"bundle's own estimate)")


def render_bundle(plan: Plan, out, *, force: bool = False) -> Path:
    """Render `plan` into `out`, atomically. Returns out."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BundleError(f"out: {out} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise BundleError(f"out: {out} exists and is not empty (use --force)")
    files = render_files(plan)                        # every refusal before touching disk
    # written beside OUT, fsynced, renamed in under a lock of OUT's directory; a kill -9 at
    # any moment leaves the old OUT or the new one (planner.safeio.atomic_replace_dir)
    try:
        return safeio.write_dir_atomic(out, lambda tmp: write_files(tmp, files), force=force)
    except safeio.InputError as e:
        raise BundleError(str(e)) from None

"""Every target's plans, judged by the engine's own code.

    python benchmarks/engine_judges.py                                  # 24 random problems (seed 29)
    python benchmarks/engine_judges.py --n 40 --seed 7
    python benchmarks/engine_judges.py --markdown docs/engines-judged.md

Draws random problems (a preset model, a GPU preset, a world of 8..1024 GPUs, a sequence of 4k..128k, a
global batch of 1M..16M tokens), plans each engine target (`--target megatron | torchtitan | olmo-core`),
exports the best plan (`foldplan export --to ENGINE`; torchtitan's plan also as 0.2's TOML) and hands the
files to the engine's own parser, validation, config classes and mesh builder (planner/engines/judge.py:
megatron-core, torchtitan 0.3 / 0.2, ai2-olmo-core; CPU, fake process group). A plan the target produces
that the engine refuses is a foldplan bug: the property is 100% accepted. Where the engine built its mesh,
its rank groups are compared with foldplan's rank grid (planner/layout/grid.py) too.
tests/test_engine_property.py runs the same drawing, smaller.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import plan as planmod                                   # noqa: E402
from planner.engines import judge                                     # noqa: E402
from planner.engines import export as engine_export                   # noqa: E402
from planner.engines.errors import ExportError                        # noqa: E402
from planner.layout.grid import RankGrid                              # noqa: E402
from planner.cli.args import ProblemArgs                              # noqa: E402
from planner.cli.problem_args import build_problem                    # noqa: E402
from planner.safeio import InputError                                 # noqa: E402
from planner.specs import SpecError                                   # noqa: E402
from planner.solve import targets                                     # noqa: E402
from planner import engines                                           # noqa: E402
from planner.specs import gpu_names, load_gpu                         # noqa: E402

MODELS = ("llama3-8b", "llama3-70b", "mixtral-8x7b", "mixtral-8x22b", "olmoe-1b-7b", "qwen3-30b-a3b",
          "qwen3-235b-a22b", "deepseek-v3", "llama3.1-405b")
# every CUDA GPU preset (its spec states the compute capability the engines' start-up checks ask)
GPUS = tuple(g for g in gpu_names() if load_gpu(g).compute_capability)
# target -> the exports (judge names) of its best plan, from the engines' records
EXPORTS = {e.name: tuple(x.name for x in e.exports) for e in engines.REGISTRY if e.target and e.exports}


# the fewest GPUs drawn per model: fewer cannot hold its weights and optimizer state (bf16 + fp32 Adam,
# ~16 bytes per parameter over 80 GiB GPUs), so such draws would only test "no layout fits"
MIN_GPUS = {"llama3.1-405b": 128, "deepseek-v3": 256, "qwen3-235b-a22b": 64, "mixtral-8x22b": 32, "llama3-70b": 16}


def draw(rng: random.Random) -> dict:
    """One random problem's make_problem arguments."""
    model = rng.choice(MODELS)
    worlds = [w for w in (8, 16, 32, 64, 128, 256, 512, 1024) if w >= MIN_GPUS.get(model, 8)]
    return {"model": model, "gpu": rng.choice(GPUS), "gpus": rng.choice(worlds),
            "seq": rng.choice(("4k", "8k", "16k", "32k", "64k", "128k")),
            "global_batch": rng.choice(("1M", "2M", "4M", "8M", "16M"))}


def plan_for(args: dict, target: str, time_limit: float = 60.0):
    """The best `target` plan of the problem, or (None, why)."""
    try:                                     # the CLI's one builder: the target's defaults for this model and GPU
        problem = build_problem(ProblemArgs(**args, target=target))
    except (SpecError, InputError) as e:
        return None, f"spec: {e}"
    from planner.solve.nofit import refusal
    why = refusal(problem)                   # the target's own line: a model, sequence or precision it cannot run
    if why:
        return None, why
    res = targets.search(problem, top=1, time_limit=time_limit)
    if not res.plans:
        return None, "no layout fits"
    return planmod.from_search(problem, res)[0], None


AXES = ("tp", "cp", "dp", "dp_cp", "pp", "etp", "ep", "edp")


def grid_groups(plan, axes=AXES) -> dict:
    """foldplan's rank groups over the whole world (planner/layout/grid.py), per axis, as sorted lists (a
    dense model has no expert groups to compare: an engine builds its own defaults for them)."""
    if plan.problem.model.moe is None:
        axes = tuple(a for a in axes if a not in ("etp", "ep", "edp"))
    grid = RankGrid(plan.layout, plan.problem.cluster.domain_used)
    return {a: [list(g) for g in grid.groups(a)] for a in axes}


def groups_equal(theirs: dict, mine: dict) -> bool:
    """The engine's groups equal foldplan's on every axis both name (an engine that reports only rank 0's
    group of an axis, as torchtitan's judge does, is compared with foldplan's group holding rank 0)."""
    shared = [k for k in theirs if k in mine]
    for k in shared:
        gs = theirs[k]
        if gs and isinstance(gs[0], int):
            if sorted(gs) != next(g for g in mine[k] if 0 in g):
                return False
        elif sorted(sorted(g) for g in gs) != sorted(sorted(g) for g in mine[k]):
            return False
    return bool(shared)


def run(n: int, seed: int, names: tuple[str, ...] = tuple(EXPORTS)) -> list[dict]:
    """One row per (problem, target, export): planned, exported, judged."""
    rng = random.Random(seed)
    rows, cases = [], {}
    for i in range(n):
        args = draw(rng)
        for target in names:
            t0 = time.perf_counter()
            plan, why = plan_for(args, target)
            for exp in EXPORTS[target]:
                row = {"i": i, "args": args, "target": target, "export": exp, "plan_s": time.perf_counter() - t0}
                rows.append(row)
                if plan is None:
                    row["skipped"] = why
                    continue
                row["layout"] = plan.layout
                try:
                    files = engine_export.render(plan, exp)
                except ExportError as e:
                    row["refused_by_export"] = str(e)
                    continue
                doc = planmod.document([plan])["plans"][0]
                cases.setdefault(exp, []).append((row, (doc, files), plan))
    for exp, items in cases.items():
        why = judge.available(exp)
        if why:
            for row, _, _ in items:
                row["skipped"] = why
            continue
        verdicts = judge.judge(exp, [c for _, c, _ in items])
        for (row, _, plan), v in zip(items, verdicts):
            row["verdict"] = v
            if v.get("groups"):
                row["groups_equal"] = groups_equal(v["groups"], grid_groups(plan))
    return rows


def summary(rows: list[dict]) -> list[list]:
    """Per export: plans drawn, planned, refused by export, judged, accepted, mesh groups equal."""
    out = []
    for exp in sorted({r["export"] for r in rows}):
        rs = [r for r in rows if r["export"] == exp]
        judged = [r for r in rs if "verdict" in r]
        acc = [r for r in judged if r["verdict"]["accepted"]]
        meshed = [r for r in judged if "groups_equal" in r]
        out.append([exp, len(rs), sum("layout" in r for r in rs), sum("refused_by_export" in r for r in rs),
                    len(judged), len(acc), f"{sum(r['groups_equal'] for r in meshed)} / {len(meshed)}",
                    (judged[0]["verdict"].get("engine", "?") if judged else "not installed")])
    return out


# the judges' names for a plan field, where they differ from foldplan's (nested values flattened with ".")
ALIASES = {"dp": ("dp_shard", "dp_replicate", "mesh.dp"), "ep": ("mesh.moe.ep_mp",), "edp": ("mesh.moe.ep_dp",),
           "sharding": ("reshard", "train_module"), "recompute": ("activation_checkpoint", "ac"),
           "layers": ("model.n_layers",), "hidden": ("dim", "model.d_model"), "kv_heads": ("kv_groups",),
           "cp_kind": ("cp_comm_type",)}


def _flat(d: dict, pre: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k in ("mesh", "model"):
            out.update(_flat(v, f"{pre}{k}."))
        else:
            out[f"{pre}{k}"] = v
    return out


SHOW = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm", "gpus": 64, "seq": "32k", "global_batch": "4M"}


def _ours(plan) -> dict:
    """What the plan says, in the words the judges' `parsed` uses."""
    L, m, s0 = plan.layout, plan.problem.model, plan.layout.stages[0]
    rec = "none" if not any(s.recompute_full or s.recompute_selective for s in L.stages) else \
        "/".join(f"{s.recompute_full}F{s.recompute_selective}S" for s in L.stages)
    return {"tp": L.tp, "cp": L.cp, "dp": L.dp, "pp": L.pp, "vpp": L.vpp, "ep": s0.ep, "etp": s0.etp,
            "edp": s0.edp, "cp_kind": L.cp_kind, "sharding": L.sharding, "recompute": rec,
            "layers": m.layers, "hidden": m.hidden, "heads": m.heads, "kv_heads": m.kv_heads,
            "experts": m.moe.experts if m.moe else None, "seq": plan.problem.train.seq}


def side_by_side(args: dict = SHOW) -> str:
    """One plan per engine target: the plan's values beside what the engine's own code parsed of the export."""
    out = []
    for target, exports in EXPORTS.items():
        plan, why = plan_for(args, target)
        if plan is None:
            out.append(f"{target}: {why}")
            continue
        exp = exports[0]
        files = engine_export.render(plan, exp)
        v = judge.judge(exp, [(planmod.document([plan])["plans"][0], files)])[0]
        ours, theirs = _ours(plan), _flat(v.get("parsed") or {})
        rows = [[k, str(ours[k]), "; ".join(f"{tk}={theirs[tk]}" for tk in (k, *ALIASES.get(k, ())) if tk in theirs)
                 or "—"] for k in ours]
        out += [f"**{target}** ({v.get('engine')}; exported as {', '.join(files)}; accepted: {v['accepted']})", "",
                "| | the plan | the engine's own parse of the export |", "|---|---|---|",
                *[f"| {a} | {b} | {c} |" for a, b, c in rows], "",
                "All the engine parsed: " + ", ".join(f"`{k}={theirs[k]}`" for k in sorted(theirs)), ""]
    out.append("A dash: the engine's parse does not name that field (it follows from the others, e.g. edp = "
               "tp * cp * dp / (etp * ep), or that engine has no such setting).")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--markdown", help="write the table into this docs page")
    ap.add_argument("--show", action="store_true", help="one plan per engine beside the engine's parse of its export")
    a = ap.parse_args(argv)
    import mdtables
    if a.show:
        text = side_by_side()
        print(text)
        if a.markdown:
            mdtables.write_blocks(a.markdown, mdtables.command_line(), {"engine-side-by-side": text})
        return 0
    t0 = time.perf_counter()
    rows = run(a.n, a.seed)
    head = ["export", "drawn", "planned", "refused by export", "judged", "accepted", "mesh groups equal", "engine"]
    text = mdtables.table(head, summary(rows), right=(1, 2, 3, 4, 5))
    bad = [r for r in rows if "verdict" in r and not r["verdict"]["accepted"]]
    notes = [f"- refused: {r['args']} --target {r['target']} -> {r['export']}: {r['verdict']['reason']}" for r in bad]
    notes += [f"- export refused a target plan: {r['args']} {r['target']}: {r['refused_by_export']}"
              for r in rows if "refused_by_export" in r]
    block = "\n".join([text, "", *notes, f"({a.n} problems, seed {a.seed}, {time.perf_counter() - t0:.0f} s)"])
    print(block)
    if a.markdown:
        mdtables.write_blocks(a.markdown, mdtables.command_line(), {"engine-judges": block})
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())

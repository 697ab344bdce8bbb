"""Planner speed: every speed target in one run (docs/speed.md), each case in its own process (so
the peak RSS is that case's), with the brute-force ratio where the brute force can run.

    python benchmarks/plan_speed.py                # targets + scaling table (long on 2 cores)
    python benchmarks/plan_speed.py --quick        # the 64-GPU row, the CLI and one audit only
    python benchmarks/plan_speed.py --no-scaling   # the targets only
    python benchmarks/plan_speed.py --markdown docs/speed.md   # also write the tables into the docs page

Every run also times bad and hostile input (a huge divisor lattice, a 1.4 MB one-line shell
script and its 8x scaling, refused audits, a refused plan) against the budgets the tests
once asserted on the wall clock; the tests keep only hang guards.

Rows: "solve" is the search in-process (imports excluded), "CLI" a fresh `foldplan plan
... --json` or `foldplan audit ... --json` process including imports (the median of 5
when one takes under 10 s; foldplan's modules compiled to bytecode first, as an
installed package runs), RSS the case's
process peak. The brute-force reference enumerates every tuple, split, folding and
recompute with no bounds and no CP-SAT; on these problems it cannot finish, so it runs
under a time cap, its full time is extrapolated from the tuples it finished, and the
optimum is cross-checked on the best tuple's own stage space.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parent.parent
MTNLG = dict(name="mt-nlg-530b", layers=105, hidden=20480, heads=128, kv_heads=128, head_dim=160, vocab=51200,
             ffn_hidden=81920, gated=False, norm="layernorm", linear_bias=True, tied_embeddings=True)

# name, problem kwargs, CLI args (None: no CLI row), target solve seconds (None: none)
CASES = [
    ("mixtral-8x7b 64 GPUs 128k", dict(gpus=64, seq="128k"), ["--gpus", "64", "--seq", "128k"], None),
    ("qwen3-235b 256 GPUs 128k", dict(model="qwen3-235b-a22b", gpus=256, seq="128k"), None, 10),
    ("deepseek-v3 1024 GPUs 32k", dict(model="deepseek-v3", gpus=1024, seq="32k"), None, 10),
    ("deepseek-v3 4096 GPUs 128k", dict(model="deepseek-v3", gpus=4096, seq="128k", global_batch="64M"), None, 10),
    ("deepseek-v3 16384 GPUs 128k", dict(model="deepseek-v3", gpus=16384, seq="128k", global_batch="64M"), None, 10),
    ("llama3.1-405b 512 GPUs 128k", dict(model="llama3.1-405b", gpus=512, seq="128k", global_batch="16M"), None, None),
    ("llama3.1-405b 16384 GPUs 128k", dict(model="llama3.1-405b", gpus=16384, seq="128k", global_batch="64M"),
     None, 3),
    ("MT-NLG 530B 2520 A100 seq 2048", dict(model=MTNLG, gpu="a100-80g", gpus=2520, seq=2048, global_batch=2520,
                                            flash_attention=False, dropout=True), None, None),
]
AUDITS = [("audit megatron mixtral-8x7b (32 GPUs)", ["examples/audit/megatron_mixtral_8x7b.sh"]),
          ("audit megatron deepseek-v3 (1024 GPUs)", ["examples/audit/megatron_deepseek_v3.sh"]),
          ("audit megatron deepseek-v3 --no-best", ["examples/audit/megatron_deepseek_v3.sh", "--no-best"])]
SCALING = [("llama3-70b", "dense"), ("mixtral-8x7b", "MoE")]
WORLDS = [64, 256, 1024, 4096, 16384]


def one(spec: dict) -> dict:
    """Run one search in this process and report it (the --one child)."""
    from planner.specs import ModelSpec, make_problem
    from planner.solve import search
    kw = dict(spec["problem"])
    if isinstance(kw.get("model"), dict):
        kw["model"] = ModelSpec(**kw["model"])
    problem = make_problem(**kw)
    t0 = time.perf_counter()
    res = search(problem, top=5, time_limit=spec["time_limit"])
    solve = time.perf_counter() - t0
    best = res.plans[0] if res.plans else None
    row = {"status": res.status, "solve_s": solve, "tuples": res.tuples, "pruned": res.pruned,
           "cpsat_calls": res.cpsat_calls, "step_s": best.estimate.step_time if best else None}
    if best is not None and spec.get("ref_cap"):
        from planner.solve.bruteforce import brute_force
        best = search(problem, top=1, time_limit=spec["time_limit"], settle=False).plans[0]   # the fastest, not the tie-break's
        L = best.layout
        full = brute_force(problem, time_limit=spec["ref_cap"])
        fixed = dict(tp=L.tp, cp=L.cp, dp=L.dp, pp=L.pp, vpp=L.vpp, cp_kind=L.cp_kind, cp_ulysses=L.cp_ulysses,
                     order=L.order, micro_batch=L.micro_batch, sharding=L.sharding)
        own = brute_force(problem, where=fixed, time_limit=spec["ref_cap"])
        extrap = full.wall_s / max(1, full.tuples_done) * full.tuples_total
        row["reference"] = {"done": full.tuples_done, "tuples": full.tuples_total, "wall_s": full.wall_s,
                            "extrapolated_s": extrap, "ratio": extrap / solve, "best_tuple_capped": own.capped,
                            "same_optimum_on_best_tuple": own.best_ns is not None and abs(own.best_ns - best.objective_ns)
                            <= 1e-6 * best.objective_ns + 1e3}
    row["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def child(problem: dict, time_limit: float, ref_cap=None) -> dict:
    spec = json.dumps({"problem": problem, "time_limit": time_limit, "ref_cap": ref_cap})
    r = subprocess.run([sys.executable, __file__, "--one", spec], capture_output=True, text=True, cwd=ROOT,
                       preexec_fn=_cap_memory)
    if r.returncode != 0:
        return {"status": "ERROR", "error": r.stderr.strip().splitlines()[-1:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def _cap_memory() -> None:
    # a case that would outgrow the machine fails alone (8 GiB of address space; RSS is reported)
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def wall(cmd: list[str], repeat: int = 5) -> tuple[float, int, float]:
    """Wall seconds (the median of `repeat` fresh processes when one takes under 10 s:
    this machine's timings are noisy, 1.4-1.9 s for the same plan), exit code and peak RSS
    (MiB) of a fresh foldplan process."""
    times, rc = [], 0
    while len(times) < repeat and (not times or times[0] < 10):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "planner.cli", *cmd], capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        rc = r.returncode
    times.sort()
    return times[len(times) // 2], rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def verdict(ok) -> str:
    return "met" if ok else "MISSED"


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bad_input_rows() -> list[dict]:
    """The cost of bad and hostile input, with the budgets the tests once asserted on the wall
    clock (tests/test_fuzz.py, tests/test_audit_hostile.py now only guard against a hang)."""
    import tempfile
    from planner.shell import interpret
    from planner.solve.space import divisors

    def script(n):
        return "torchrun x.py " + " ".join(f"--a{i} {i}" for i in range(n)) + "\n"
    small, big = script(12_000), script(96_000)
    t_small, t_big = _timed(lambda: interpret(small)), _timed(lambda: interpret(big))
    rows = [{"case": "divisors(2**40 - 87), O(sqrt n)", "s": _timed(lambda: divisors(2**40 - 87)), "budget_s": 2.0},
            {"case": f"shell reader, {len(big) / 1e6:.1f} MB on one line", "s": t_big, "budget_s": 60.0},
            {"case": "shell reader, 8x the input: time ratio (linear ~8, quadratic ~64)",
             "s": t_big / max(t_small, 1e-3), "budget_s": 24.0}]
    with tempfile.TemporaryDirectory() as tmp:
        long_sh, trunc = Path(tmp) / "long.sh", Path(tmp) / "truncated.toml"
        long_sh.write_text("torchrun x.py --num-layers 2 " + " ".join(f"--x{i} {i}" for i in range(80_000)) + "\n")
        trunc.write_text("[parallelism]\ntensor_parallel_degree = ")
        for name, cmd, budget in (("audit of an 80k-flag script (refused)", [str(long_sh)], 90.0),
                                  ("audit of a truncated TOML (refused)", [str(trunc)], 30.0),
                                  ("audit of a directory (refused)", [tmp], 20.0)):
            w, rc, _ = wall(["audit", *cmd, "--gpus", "8", "--no-best"], repeat=1)
            rows.append({"case": name, "s": w, "budget_s": budget, "rc": rc})
        w, rc, _ = wall(["plan", "--gpus", "0"], repeat=1)
        rows.append({"case": "plan --gpus 0 (refused)", "s": w, "budget_s": 5.0, "rc": rc})
    for r in rows:
        print(f"{r['case']:66s} {r['s']:8.2f}  (budget {r['budget_s']:g}: {verdict(r['s'] <= r['budget_s'])})",
              flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="the 64-GPU row, its CLI and one audit only")
    ap.add_argument("--no-scaling", action="store_true", help="skip the solve-time vs world-size table")
    ap.add_argument("--time-limit", type=float, default=60.0, help="search work budget per case (the CLI's default)")
    ap.add_argument("--ref-cap", type=float, default=20.0, help="seconds the brute force may run (64-GPU row)")
    ap.add_argument("--json", default=None, help="also write the rows here")
    ap.add_argument("--markdown", metavar="PATH", default=None,
                    help="also write the tables into this markdown page (docs/speed.md), between its "
                         "generated-block markers")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(json.loads(a.one))))
        return
    rows = {"cases": [], "cli": [], "audits": [], "scaling": [], "bad_input": []}
    import os
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f} (2-core machine; timings are noisy above ~2)")
    print(f"{'case':32s} {'tuples':>7s} {'CP-SAT':>6s} {'status':>9s} {'solve s':>8s} {'RSS MiB':>8s} {'step s':>8s}"
          f"  target")
    peak = 0.0
    for name, kw, args, target in (CASES[:1] if a.quick else CASES):
        row = child(kw, a.time_limit, a.ref_cap if name.startswith("mixtral") else None)
        row["case"] = name
        rows["cases"].append(row)
        peak = max(peak, row.get("rss_mib") or 0)
        step = f"{row['step_s']:.3f}" if row.get("step_s") else "none"
        tgt = "-"
        if target is not None:
            tgt = f"OPTIMAL within {target} s: {verdict(row['status'] == 'OPTIMAL' and row['solve_s'] <= target)}"
        print(f"{name:32s} {row.get('tuples', 0):7d} {row.get('cpsat_calls', 0):6d} {row['status']:>9s} "
              f"{row.get('solve_s', float('nan')):8.2f} {row.get('rss_mib', 0):8.0f} {step:>8s}  {tgt}", flush=True)
        ref = row.get("reference")
        if ref:
            print(f"{'':32s} brute force did {ref['done']}/{ref['tuples']} tuples in {ref['wall_s']:.0f} s (capped; "
                  f"extrapolated {ref['extrapolated_s']:.3g} s = {ref['ratio']:.3g}x the solver); on the best tuple "
                  f"alone: {'same optimum' if ref['same_optimum_on_best_tuple'] else 'DIFFERENT optimum'}"
                  f"{' (capped)' if ref['best_tuple_capped'] else ''}")
    print(f"peak RSS of any case: {peak:.0f} MiB (target 2048: {verdict(peak <= 2048)})")
    # an installed package runs from compiled bytecode (pip writes it at install; an
    # editable install on its first run): compile it once, so the timed runs do not pay
    # for compiling foldplan's own modules (this machine sets PYTHONDONTWRITEBYTECODE)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "planner"], cwd=ROOT, check=True)
    cli = ["plan", "--gpus", "64", "--seq", "128k", "--json"]
    w, rc, _ = wall(cli)
    rows["cli"].append({"cmd": "foldplan " + " ".join(cli), "wall_s": w, "rc": rc})
    print(f"foldplan {' '.join(cli)}: {w:.2f} s wall, imports included (target 1.5 s: {verdict(w <= 1.5)})")
    for name, args in (AUDITS[:1] if a.quick else AUDITS):
        w, rc, _ = wall(["audit", *args, "--json"])
        rows["audits"].append({"case": name, "wall_s": w, "rc": rc})
        print(f"{name:40s} {w:6.2f} s wall (exit {rc}; target 3 s: {verdict(w <= 3)})", flush=True)
    print("\nbad and hostile input (seconds; the ratio row is a ratio):")
    rows["bad_input"] = bad_input_rows()
    if not (a.quick or a.no_scaling):
        print("\nsolve time (s) / status vs world size, 128k, 16M tokens per step:")
        print(f"{'model':22s}" + "".join(f"{n:>16d}" for n in WORLDS))
        for model, kind in SCALING:
            cells = []
            for n in WORLDS:
                row = child(dict(model=model, gpus=n, seq="128k", global_batch="16M"), a.time_limit)
                rows["scaling"].append({"model": model, "gpus": n, **row})
                cells.append(f"{row.get('solve_s', float('nan')):7.2f} {row['status'][:8]:>8s}")
            print(f"{model + ' (' + kind + ')':22s}" + "".join(f"{c:>16s}" for c in cells), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    if a.markdown:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import mdtables
        mdtables.write_blocks(a.markdown, mdtables.command_line(), {"speed": markdown(rows, load, a)})


def _cell(x, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def markdown(rows: dict, load: float, a) -> str:
    """The run's tables in markdown (docs/speed.md's block "speed")."""
    import os

    import mdtables
    targets = {name: target for name, _, _, target in CASES}
    out = [f"Measured on {os.cpu_count()} CPU cores, load average {load:.2f} at the start and "
           f"{os.getloadavg()[0]:.2f} at the end (timings are noisy when it exceeds the cores); search work budget "
           f"`--time-limit {a.time_limit:g}`{'; `--quick`: the 64-GPU case, the CLI and one audit only' if a.quick else ''}.",
           "", "Search, in its own process (imports excluded; RSS: that process's peak):", ""]
    body, notes = [], []
    for row in rows["cases"]:
        target = targets.get(row["case"])
        verdict_ = "-" if target is None else (
            f"OPTIMAL within {target} s: {verdict(row['status'] == 'OPTIMAL' and row['solve_s'] <= target)}")
        body.append([row["case"], row.get("tuples", 0), row.get("cpsat_calls", 0), row["status"],
                     _cell(row.get("solve_s"), ".2f"), _cell(row.get("rss_mib"), ".0f"), _cell(row.get("step_s"), ".3f"),
                     verdict_])
        ref = row.get("reference")
        if ref:
            notes.append(f"* {row['case']}: the brute force did {ref['done']} of {ref['tuples']} tuples in "
                         f"{ref['wall_s']:.0f} s (capped; extrapolated {ref['extrapolated_s']:.3g} s, "
                         f"{ref['ratio']:.3g}x the search); on the best tuple alone: "
                         f"{'the same optimum' if ref['same_optimum_on_best_tuple'] else 'a DIFFERENT optimum'}"
                         f"{' (capped)' if ref['best_tuple_capped'] else ''}")
    out.append(mdtables.table(["case", "tuples", "CP-SAT calls", "status", "solve s", "RSS MiB", "step s", "target"],
                              body, right=(1, 2, 4, 5, 6)))
    peak = max([r.get("rss_mib") or 0 for r in rows["cases"]], default=0)
    out += ["", *notes, f"* peak RSS of any case: {peak:.0f} MiB (target 2048: {verdict(peak <= 2048)})", "",
            "Fresh `foldplan` processes, imports included (the median of 5 when one takes under 10 s):", ""]
    procs = [[f"`{c['cmd']}`", f"{c['wall_s']:.2f}", c["rc"], f"1.5 s: {verdict(c['wall_s'] <= 1.5)}"]
             for c in rows["cli"]]
    procs += [[c["case"], f"{c['wall_s']:.2f}", c["rc"], f"3 s: {verdict(c['wall_s'] <= 3)}"] for c in rows["audits"]]
    out.append(mdtables.table(["command", "wall s", "exit", "target"], procs, right=(1, 2)))
    if rows["scaling"]:
        out += ["", "Solve time (s) and status against the world size, 128k tokens, 16M tokens per step:", ""]
        grid = []
        for model, kind in SCALING:
            cells = {r["gpus"]: r for r in rows["scaling"] if r["model"] == model}
            grid.append([f"{model} ({kind})"] + [f"{_cell(cells[n].get('solve_s'), '.2f')} {cells[n]['status']}"
                                                 for n in WORLDS])
        out.append(mdtables.table(["model", *map(str, WORLDS)], grid, right=tuple(range(1, len(WORLDS) + 1))))
    return "\n".join(out)


if __name__ == "__main__":
    main()

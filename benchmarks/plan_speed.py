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
    ("deepseek-v3 1024 GPUs 32k --target bundle", dict(model="deepseek-v3", gpus=1024, seq="32k", target="bundle"),
     None, 10),
    ("deepseek-v3 4096 GPUs 128k", dict(model="deepseek-v3", gpus=4096, seq="128k", global_batch="64M"), None, 10),
    ("deepseek-v3 16384 GPUs 128k", dict(model="deepseek-v3", gpus=16384, seq="128k", global_batch="64M"), None, 10),
    ("llama3.1-405b 512 GPUs 128k", dict(model="llama3.1-405b", gpus=512, seq="128k", global_batch="16M"), None, None),
    ("llama3.1-405b 16384 GPUs 128k", dict(model="llama3.1-405b", gpus=16384, seq="128k", global_batch="64M"),
     None, 3),
    ("MT-NLG 530B 2520 A100 seq 2048", dict(model=MTNLG, gpu="a100-80g", gpus=2520, seq=2048, global_batch=2520,
                                            flash_attention=False, dropout=True), None, None),
    # rack-scale NVLink domains (72 GPUs each)
    ("qwen3-235b 144 GB200 NVL72 128k", dict(model="qwen3-235b-a22b", gpu="gb200-nvl72", gpus=144, seq="128k"),
     None, 10),
    ("qwen3-235b 576 GB200 NVL72 128k", dict(model="qwen3-235b-a22b", gpu="gb200-nvl72", gpus=576, seq="128k"),
     None, 10),
    # each engine target's own search (its flags, its rules; the problem as `foldplan plan --target` builds it)
    *[(f"deepseek-v3 1024 GPUs 32k --target {t}", dict(model="deepseek-v3", gpus=1024, seq="32k", target=t), None, 10)
      for t in ("megatron", "torchtitan", "olmo-core")],
    ("deepseek-v3 131072 GPUs 32k 64M", dict(model="deepseek-v3", gpus=131072, seq="32k", global_batch="64M"),
     None, 10),
    # published-recipe shapes: 4k sequences, large batches, fine-grained MoE, Megatron's own flags (the
    # Megatron-Bridge / ModelZoo recipes of docs/fidelity.md's corpus)
    ("qwen3-235b 256 GPUs 4k 8M forced --target megatron",
     dict(model="qwen3-235b-a22b", gpus=256, seq="4k", global_batch="8M", routing="forced", target="megatron"), None, 10),
    ("deepseek-v3 256 GPUs 4k 16M forced --target megatron",
     dict(model="deepseek-v3", gpus=256, seq="4k", global_batch="16M", routing="forced", target="megatron"), None, 10),
    ("qwen3-30b-a3b 16 GPUs 4k 4M forced --target megatron",
     dict(model="qwen3-30b-a3b", gpus=16, seq="4k", global_batch="4M", routing="forced", target="megatron"), None, 10),
    ("qwen3-235b 256 GB200 NVL72 4k 32M forced --target megatron",
     dict(model="qwen3-235b-a22b", gpu="gb200-nvl72", gpus=256, used_per_domain=64, seq="4k", global_batch="32M",
          routing="forced", target="megatron"), None, 10),
]
# whole command lines, imports and the engine block included: the main job, and a published recipe's shape
CLIS = [(["plan", "--gpus", "64", "--seq", "128k", "--json"], 1.5),
        (["plan", "--target", "megatron", "--model", "qwen3-235b-a22b", "--gpus", "256", "--seq", "4k",
          "--global-batch", "8M", "--routing", "forced", "--json"], None)]
# explain of an inline layout: in its own process (imports excluded) and as a fresh `foldplan explain`
EXPLAIN = ("explain --layout (mixtral-8x7b 64 GPUs)", ["explain", "--layout", "tp=1,cp=8,dp=1,pp=8,ep=8,edp=1",
                                                       "--gpus", "64"], 2.0)
AUDITS = [("audit megatron mixtral-8x7b (32 GPUs)", ["examples/audit/megatron_mixtral_8x7b.sh"]),
          ("audit megatron deepseek-v3 (1024 GPUs)", ["examples/audit/megatron_deepseek_v3.sh"]),
          ("audit megatron deepseek-v3 --no-best", ["examples/audit/megatron_deepseek_v3.sh", "--no-best"])]
SCALING = [("llama3-70b", "dense"), ("mixtral-8x7b", "MoE")]
WORLDS = [64, 256, 1024, 4096, 16384]


def one(spec: dict) -> dict:
    """Run one search in this process and report it (the --one child)."""
    from planner.specs import ModelSpec, make_problem
    from planner.solve import targets
    kw = dict(spec["problem"])
    if isinstance(kw.get("model"), dict):
        kw["model"] = ModelSpec(**kw["model"])
    target = kw.pop("target", None)
    if target is not None:                    # the target's train defaults, as `foldplan plan --target` sets them
        from planner.cli.args import ProblemArgs
        from planner.cli.problem_args import target_defaults
        kw.update(target_defaults(ProblemArgs(model=kw.get("model"), gpu=kw.get("gpu"), target=target)))
    problem = make_problem(**kw)
    t0, c0 = time.perf_counter(), time.process_time()
    res = targets.search(problem, top=5, time_limit=spec["time_limit"])
    solve, cpu = time.perf_counter() - t0, time.process_time() - c0
    best = res.plans[0] if res.plans else None
    row = {"status": res.status, "solve_s": solve, "cpu_s": cpu, "tuples": res.tuples, "pruned": res.pruned,
           "cpsat_calls": res.cpsat_calls, "step_s": best.estimate.step_time if best else None}
    if best is not None and spec.get("ref_cap"):
        from planner.solve.bruteforce import brute_force
        best = targets.search(problem, top=1, time_limit=spec["time_limit"], settle=False).plans[0]   # the fastest, not the tie-break's
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


def explain_one(argv: list[str]) -> dict:
    """`foldplan explain` in this process, its imports excluded (the --one child of the explain row)."""
    import contextlib
    import io
    from planner.cli import main as cli_main
    import planner.costmodel.formula_table  # noqa: F401  (the sympy formulas: an import, excluded like the rest)
    import planner.report  # noqa: F401
    t0, c0 = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        rc = cli_main(argv)
    return {"status": "ok" if not rc else f"exit {rc}", "solve_s": time.perf_counter() - t0,
            "cpu_s": time.process_time() - c0, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def target_verdict(row: dict, target) -> str:
    """A search case's target: proven (OPTIMAL, or INFEASIBLE: proven that the engine runs no layout)
    within `target` CPU seconds (the process's own work: the machine is shared)."""
    if target is None:
        return "-"
    return f"proven within {target} s: {verdict(row['status'] in ('OPTIMAL', 'INFEASIBLE') and row['cpu_s'] <= target)}"


def child(problem, time_limit: float, ref_cap=None, explain=None) -> dict:
    spec = json.dumps({"problem": problem, "time_limit": time_limit, "ref_cap": ref_cap} if explain is None
                      else {"explain": explain})
    r = subprocess.run([sys.executable, __file__, "--one", spec], capture_output=True, text=True, cwd=ROOT,
                       preexec_fn=_cap_memory)
    if r.returncode != 0:
        return {"status": "ERROR", "error": r.stderr.strip().splitlines()[-1:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def _cap_memory() -> None:
    # a case that would outgrow the machine fails alone (8 GiB of address space; RSS is reported)
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def wall(cmd: list[str], repeat: int = 5) -> tuple[float, int, float, float]:
    """Wall seconds (the median of `repeat` fresh processes when one takes under 10 s:
    this machine's timings are noisy, 1.4-1.9 s for the same plan), exit code, peak RSS
    (MiB) and CPU seconds (user + system, the median; what the process itself did, whatever
    else shares the cores) of a fresh foldplan process."""
    times, cpus, rc = [], [], 0
    while len(times) < repeat and (not times or times[0] < 10):
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([sys.executable, "-m", "planner.cli", *cmd], capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        rc = r.returncode
    times.sort()
    cpus.sort()
    return (times[len(times) // 2], rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
            cpus[len(cpus) // 2])


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
            w, rc, _, _ = wall(["audit", *cmd, "--gpus", "8", "--no-best"], repeat=1)
            rows.append({"case": name, "s": w, "budget_s": budget, "rc": rc})
        w, rc, _, _ = wall(["plan", "--gpus", "0"], repeat=1)
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
        spec = json.loads(a.one)
        print(json.dumps(explain_one(spec["explain"]) if "explain" in spec else one(spec)))
        return
    rows = {"cases": [], "cli": [], "audits": [], "scaling": [], "bad_input": []}
    import os
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f} (2-core machine; timings are noisy above ~2)")
    print(f"{'case':40s} {'tuples':>7s} {'CP-SAT':>6s} {'status':>10s} {'solve s':>8s} {'CPU s':>6s} {'RSS MiB':>8s} "
          f"{'step s':>8s}  target")
    peak = 0.0
    for name, kw, args, target in (CASES[:1] if a.quick else CASES):
        row = child(kw, a.time_limit, a.ref_cap if name.startswith("mixtral") else None)
        row["case"] = name
        rows["cases"].append(row)
        peak = max(peak, row.get("rss_mib") or 0)
        step = f"{row['step_s']:.3f}" if row.get("step_s") else "none"
        tgt = target_verdict(row, target)
        print(f"{name:40s} {row.get('tuples', 0):7d} {row.get('cpsat_calls', 0):6d} {row['status']:>10s} "
              f"{row.get('solve_s', float('nan')):8.2f} {row.get('cpu_s', float('nan')):6.2f} "
              f"{row.get('rss_mib', 0):8.0f} {step:>8s}  {tgt}", flush=True)
        ref = row.get("reference")
        if ref:
            print(f"{'':32s} brute force did {ref['done']}/{ref['tuples']} tuples in {ref['wall_s']:.0f} s (capped; "
                  f"extrapolated {ref['extrapolated_s']:.3g} s = {ref['ratio']:.3g}x the solver); on the best tuple "
                  f"alone: {'same optimum' if ref['same_optimum_on_best_tuple'] else 'DIFFERENT optimum'}"
                  f"{' (capped)' if ref['best_tuple_capped'] else ''}")
    if not a.quick:
        name, argv, budget = EXPLAIN
        ex = child(None, a.time_limit, explain=argv)
        w, rc, rss, cpu = wall(argv)
        ex.update(case=name, cmd="foldplan " + " ".join(argv), wall_s=w, rc=rc, fresh_cpu_s=cpu, budget_s=budget)
        rows["explain"] = ex
        peak = max(peak, ex.get("rss_mib") or 0)
        print(f"{name}: {ex.get('solve_s', float('nan')):.2f} s wall, {ex.get('cpu_s', float('nan')):.2f} s CPU in "
              f"its process (imports excluded; target {budget:g} s: {verdict(ex.get('cpu_s', 1e9) <= budget)}); a "
              f"fresh process {w:.2f} s wall, {cpu:.2f} s CPU (exit {rc}; {verdict(cpu <= budget)})", flush=True)
    print(f"peak RSS of any case: {peak:.0f} MiB (target 2048: {verdict(peak <= 2048)})")
    # an installed package runs from compiled bytecode (pip writes it at install; an
    # editable install on its first run): compile it once, so the timed runs do not pay
    # for compiling foldplan's own modules (this machine sets PYTHONDONTWRITEBYTECODE)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "planner"], cwd=ROOT, check=True)
    for cli, budget in (CLIS[:1] if a.quick else CLIS):
        w, rc, _, cpu = wall(cli)
        rows["cli"].append({"cmd": "foldplan " + " ".join(cli), "wall_s": w, "rc": rc, "cpu_s": cpu, "budget_s": budget})
        # judged on the wall clock, the user's wait: `plan` searches the other engines beside its own in
        # forked processes (planner/solve/parallel.py), whose CPU seconds add up over the cores
        print(f"foldplan {' '.join(cli)}: {w:.2f} s wall, {cpu:.2f} s CPU over its processes, imports included"
              + (f" (target {budget:g} s wall: {verdict(w <= budget)})" if budget else ""), flush=True)
    for name, args in (AUDITS[:1] if a.quick else AUDITS):
        w, rc, _, cpu = wall(["audit", *args, "--json"])
        rows["audits"].append({"case": name, "wall_s": w, "rc": rc, "cpu_s": cpu})
        print(f"{name:40s} {w:6.2f} s wall {cpu:6.2f} s CPU (exit {rc}; target 3 s: {verdict(cpu <= 3)})", flush=True)
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
        body.append([row["case"], row.get("tuples", 0), row.get("cpsat_calls", 0), row["status"],
                     _cell(row.get("solve_s"), ".2f"), _cell(row.get("cpu_s"), ".2f"), _cell(row.get("rss_mib"), ".0f"),
                     _cell(row.get("step_s"), ".3f"), target_verdict(row, target)])
        ref = row.get("reference")
        if ref:
            notes.append(f"* {row['case']}: the brute force did {ref['done']} of {ref['tuples']} tuples in "
                         f"{ref['wall_s']:.0f} s (capped; extrapolated {ref['extrapolated_s']:.3g} s, "
                         f"{ref['ratio']:.3g}x the search); on the best tuple alone: "
                         f"{'the same optimum' if ref['same_optimum_on_best_tuple'] else 'a DIFFERENT optimum'}"
                         f"{' (capped)' if ref['best_tuple_capped'] else ''}")
    out.append(mdtables.table(["case", "tuples", "CP-SAT calls", "status", "solve s", "CPU s", "RSS MiB", "step s",
                               "target"], body, right=(1, 2, 4, 5, 6, 7)))
    ex = rows.get("explain")
    if ex:
        out += ["", f"`{ex['cmd']}`: {_cell(ex.get('solve_s'), '.2f')} s wall, {_cell(ex.get('cpu_s'), '.2f')} s CPU "
                f"in its process, imports excluded (target {ex['budget_s']:g} s: "
                f"{verdict((ex.get('cpu_s') or 1e9) <= ex['budget_s'])}); a fresh process, imports (sympy and the "
                f"formulas it builds) included: {ex['wall_s']:.2f} s wall, {ex['fresh_cpu_s']:.2f} s CPU "
                f"({verdict(ex['fresh_cpu_s'] <= ex['budget_s'])})"]
    peak = max([r.get("rss_mib") or 0 for r in [*rows["cases"], *([ex] if ex else [])]], default=0)
    out += ["", *notes, f"* peak RSS of any case: {peak:.0f} MiB (target 2048: {verdict(peak <= 2048)})", "",
            "Fresh `foldplan` processes, imports included (the median of 5 when one takes under 10 s):", ""]
    procs = [[f"`{c['cmd']}`", f"{c['wall_s']:.2f}", f"{c['cpu_s']:.2f}", c["rc"],
              f"{c['budget_s']:g} s wall: {verdict(c['wall_s'] <= c['budget_s'])}" if c.get("budget_s") else "-"]
             for c in rows["cli"]]
    procs += [[c["case"], f"{c['wall_s']:.2f}", f"{c['cpu_s']:.2f}", c["rc"], f"3 s: {verdict(c['cpu_s'] <= 3)}"]
              for c in rows["audits"]]
    out.append(mdtables.table(["command", "wall s", "CPU s", "exit", "target"], procs, right=(1, 2, 3)))
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

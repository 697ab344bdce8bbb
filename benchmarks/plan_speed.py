"""Planner speed: solve time and CLI wall time from 64 to 16,384 GPUs, and the speed ratio
against the brute-force reference measured in the same run.

    python benchmarks/plan_speed.py            # the full table (several minutes)
    python benchmarks/plan_speed.py --quick    # the 64-GPU row and a capped reference only

The brute-force reference enumerates every tuple, split, folding and recompute with no
bounds and no CP-SAT. It cannot finish on these problems, so it runs under a time cap;
its full time is extrapolated from the tuples it finished (said in the table), and the
optimum is cross-checked on the best tuple's own stage space (the reference restricted
to that tuple must find the same step time).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from planner.specs import ModelSpec, make_problem
from solvers import search
from solvers.bruteforce import brute_force

MTNLG = ModelSpec(name="mt-nlg-530b", layers=105, hidden=20480, heads=128, kv_heads=128, head_dim=160, vocab=51200,
                  ffn_hidden=81920, gated=False, norm="layernorm", linear_bias=True, tied_embeddings=True)

CASES = [
    # name, problem kwargs, CLI args
    ("mixtral-8x7b 64 GPUs 128k", dict(gpus=64, seq="128k"), ["--gpus", "64", "--seq", "128k"]),
    ("llama3.1-405b 512 GPUs 128k", dict(model="llama3.1-405b", gpus=512, seq="128k", global_batch="16M"),
     ["--model", "llama3.1-405b", "--gpus", "512", "--seq", "128k", "--global-batch", "16M"]),
    ("deepseek-v3 4096 GPUs 128k", dict(model="deepseek-v3", gpus=4096, seq="128k", global_batch="64M"),
     ["--model", "deepseek-v3", "--gpus", "4096", "--seq", "128k", "--global-batch", "64M"]),
    ("llama3.1-405b 16384 GPUs 128k", dict(model="llama3.1-405b", gpus=16384, seq="128k", global_batch="64M"),
     ["--model", "llama3.1-405b", "--gpus", "16384", "--seq", "128k", "--global-batch", "64M"]),
    ("deepseek-v3 16384 GPUs 128k", dict(model="deepseek-v3", gpus=16384, seq="128k", global_batch="64M"),
     ["--model", "deepseek-v3", "--gpus", "16384", "--seq", "128k", "--global-batch", "64M"]),
    ("MT-NLG 530B 2520 A100 seq 2048", dict(model=MTNLG, gpu="a100-80g", gpus=2520, seq=2048, global_batch=2520,
                                            flash_attention=False, dropout=True), None),
]


def cli_wall(args: list[str], time_limit: float) -> tuple[float, int]:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "planner.cli", "plan", *args, "--json", "--time-limit", str(time_limit)],
                       capture_output=True, text=True)
    return time.perf_counter() - t0, r.returncode


def reference(problem, best_layout, cap_s: float) -> dict:
    """The brute force under a time cap (extrapolated), and on the best tuple only."""
    full = brute_force(problem, time_limit=cap_s)
    per_tuple = full.wall_s / max(1, full.tuples_done)
    fixed = dict(tp=best_layout.tp, cp=best_layout.cp, dp=best_layout.dp, pp=best_layout.pp, vpp=best_layout.vpp,
                 cp_kind=best_layout.cp_kind, cp_ulysses=best_layout.cp_ulysses, order=best_layout.order,
                 micro_batch=best_layout.micro_batch, sharding=best_layout.sharding)
    own = brute_force(problem, where=fixed, time_limit=cap_s)
    return {"done": full.tuples_done, "tuples": full.tuples_total, "wall": full.wall_s,
            "extrapolated": per_tuple * full.tuples_total, "best_tuple_ns": own.best_ns,
            "best_tuple_capped": own.capped}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="the 64-GPU row only, reference capped at 20 s")
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--ref-cap", type=float, default=60.0, help="seconds the brute force may run per case")
    ap.add_argument("--json", default=None, help="also write the rows here")
    a = ap.parse_args()
    cases = CASES[:1] if a.quick else CASES
    rows = []
    print(f"{'case':34s} {'tuples':>7s} {'pruned':>7s} {'CP-SAT':>6s} {'status':>8s} {'solve s':>8s} {'CLI s':>6s} "
          f"{'step s':>8s}  reference")
    for name, kw, args in cases:
        problem = make_problem(**kw)
        t0 = time.perf_counter()
        res = search(problem, top=5, time_limit=a.time_limit)
        solve = time.perf_counter() - t0
        cli = cli_wall(args, a.time_limit)[0] if args else float("nan")
        best = res.plans[0] if res.plans else None
        row = {"case": name, "tuples": res.tuples, "pruned": res.pruned, "cpsat_calls": res.cpsat_calls,
               "status": res.status, "solve_s": solve, "cli_s": cli,
               "step_s": best.estimate.step_time if best else None}
        ref_text = "-"
        if best is not None and (name.startswith(("mixtral", "deepseek-v3 4096")) or a.quick):
            cap = 20.0 if a.quick else a.ref_cap
            ref = reference(problem, best.layout, cap)
            row["reference"] = ref
            same = ref["best_tuple_ns"] is not None and abs(ref["best_tuple_ns"] - best.objective_ns) <= 1e-6 * best.objective_ns + 1e3
            ref_text = (f"brute force did {ref['done']}/{ref['tuples']} tuples in {ref['wall']:.0f} s "
                        f"(capped; extrapolated {ref['extrapolated']:.3g} s = {ref['extrapolated'] / solve:.3g}x "
                        f"the solver); on the best tuple alone: {'same optimum' if same else 'DIFFERENT optimum'}"
                        f"{' (capped)' if ref['best_tuple_capped'] else ''}")
            row["same_optimum_on_best_tuple"] = same
            row["speedup_vs_reference"] = ref["extrapolated"] / solve
        rows.append(row)
        step = f"{row['step_s']:.3f}" if row["step_s"] else "none"
        print(f"{name:34s} {res.tuples:7d} {res.pruned:7d} {res.cpsat_calls:6d} {res.status:>8s} {solve:8.2f} "
              f"{cli:6.2f} {step:>8s}  {ref_text}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

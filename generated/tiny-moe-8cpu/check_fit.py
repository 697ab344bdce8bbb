"""Before a CPU run of the bundle's world: will that many processes fit this machine?

  python check_fit.py            (launch/local_cpu.sh runs it before torchrun)

Measures one process doing what every `--check` rank does at least (import the
bundle's runtime, build the single-process reference of the tiny model, one
forward and backward on the step's batch) and compares world x its peak RSS,
plus MARGIN for the rank's own shards, gloo buffers and the pipeline, with
MemAvailable in /proc/meminfo. When it cannot fit it says so before a process
starts, and names the smallest layout that keeps every parallel kind of the
plan (layout.CHECK_WORLD). FOLDPLAN_SKIP_FIT=1 skips the check.
"""
import os
import resource
import subprocess
import sys

import layout

MARGIN = 1.25          # a rank holds its shards, optimizer state and gloo/pipeline buffers besides
GiB = 2 ** 30
PROBE = """
import torch, torch.nn.functional as F
import train  # noqa: F401  (every module a rank imports)
import layout
from reference import Magnitudes, Reference
T = layout.TINY_TRAIN
cfg = dict(layout.TINY, capacity_factor=T["capacity_factor"])
rows = layout.LAYOUT["dp"] * T["num_microbatches"] * T["micro_batch"]
tokens = torch.randint(0, cfg["vocab"], (rows, T["seq"] + 1))
ref = Reference(cfg, 0)
ref.mag = Magnitudes(ref.shapes)     # as --check tracks them (check.py)
F.cross_entropy(ref(tokens[:, :-1]).flatten(0, 1), tokens[:, 1:].flatten()).backward()
"""


def available_bytes():
    """MemAvailable from /proc/meminfo, or None where there is none."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def measure_process_bytes() -> int:
    """Peak RSS of one probe process (ru_maxrss is in KiB on Linux)."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, "-c", PROBE], cwd=here, env=env, check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def reduced_line(w) -> str:
    folds = ", ".join(f"etp{f[0]} ep{f[1]} edp{f[2]}" for f in w["folds"])
    return (f"world {w['world']} = tp{w['tp']} x cp{w['cp']} (ulysses {w['cp_ulysses']} x ring {w['cp_ring']}) "
            f"x dp{w['dp']} x pp{w['pp']}, experts {folds}")


def main() -> int:
    if os.environ.get("FOLDPLAN_SKIP_FIT"):
        return 0
    free = available_bytes()
    if free is None:
        print("check_fit: no /proc/meminfo; not checking memory", file=sys.stderr)
        return 0
    world = layout.LAYOUT["world"]
    print(f"check_fit: measuring one process of {world} ...", file=sys.stderr, flush=True)
    per = measure_process_bytes()
    need = world * per * MARGIN
    line = (f"{world} processes x {per / GiB:.2f} GiB measured x {MARGIN} = {need / GiB:.1f} GiB, "
            f"{free / GiB:.1f} GiB available (/proc/meminfo MemAvailable)")
    if need <= free:
        print(f"check_fit: fits: {line}", file=sys.stderr, flush=True)
        return 0
    print(f"check_fit: does not fit: {line}.\n"
          f"  The smallest layout with every parallel kind of this plan: {reduced_line(layout.CHECK_WORLD)};\n"
          f"  plan a bundle with those degrees and --check it, or run this one where "
          f"{need / GiB:.0f} GiB are free (FOLDPLAN_SKIP_FIT=1 runs it anyway).", file=sys.stderr, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())

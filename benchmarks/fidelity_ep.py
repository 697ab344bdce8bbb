"""EP dispatch and overlap rows: estimate vs measured, printed by
benchmarks/fidelity_moe.py (and written into docs/fidelity.md's "fidelity-ep" block).

    python benchmarks/fidelity_ep.py

Sources (shared/REFERENCE.md, "Measured profiles and pairs ...")
  MB   Megatron-Bridge skill nemo-mbridge-perf-moe-comm-overlap (snapshot 067f987): Qwen3-30B-A3B on 16
       H100, BF16, seq 4096, TP1 PP1 CP1 EP16, MBS 1, GBS 1024, forced balance, HybridEP; step 24.714 s
       without --overlap-moe-expert-parallel-comm, 20.992 s with it (comm concurrent with compute 0.11%
       -> 36.55%).
  ZOO  yanring/Megatron-MoE-ModelZoo best_practice/Qwen3/readme.md (c1ad0b5): Qwen3-235B-A22B on 256
       H100, DeepEP, TP2 EP32 PP8 VPP4, MBS 1, GBS 2048, recompute norm + act: 19.7 s, 17.6 s with the
       1F1B overlap; read from its launch (best_practice/qwen3/run_h100_235b.sh) by the audit.
  DS3  deepseek-ai/profile-data train.json: one H800 rank of EP64 TP1, FP8, micro-batch 1 x 4,096,
       forced balance, DualPipe-style F&B overlap: per layer pair (F + B) DeepEP dispatch 7,751 us and
       combine 12,362 us (kernel time, waiting included), 96% of it hidden under compute, on 20 of 132 SMs.

What the sources leave open, and how each row resolves it:
  MB   recompute, the rank order and the distributed optimizer's sharding are not stated: the degrees
       are fixed as stated and the planner chooses the rest as Megatron's flags can say it (target
       megatron, zero1), with the overlap on; the pair is that one layout with the overlap off and on
       (the measurement changed only the flag). Two nodes of 8 GPUs (the DGX H100 the preset
       describes). Memory: the tuned run's 62.17 GiB peak is not compared (its SM count differs).
  ZOO  the readme does not say the routing: the launch's forced balance is taken (imbalance 1); CP 1 and
       the virtual stage size from the ModelZoo's runtime.conf (the launcher reads it, the audit does not).
  DS3  FP8 GEMMs and the H800 are modelled elsewhere: the row reads an "h800" GPU preset when one
       exists, else the H100 preset with NVLink at the H800's 400 GB/s (200 GB/s a direction; NVIDIA
       H800 datasheet), and prices BF16 (so its dispatch moves twice the FP8 bytes DeepSeek sends);
       DeepSeek-V3's node-limited routing (4 nodes per token) is not modelled (top-8 over 8 nodes
       reaches ~5.3 nodes). Compared: the four DeepEP ops' time and the share the window model hides;
       the compute windows are listed, not compared (BF16 vs FP8).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import planner.costmodel.compile as cc
from planner import costmodel as cm
from planner.costmodel.values import layout_values, model_values
from planner.engines import constraints
from planner.solve import targets
from planner.specs import catalog, make_problem
from planner.specs.kinds import DISPATCHER

PAIR_FIXED = dict(tp=1, cp=1, pp=1, dp=16, etp=1, ep=16, edp=1)
PAIR = (24.714, 20.992)          # s per step, overlap off / on
DS3_DEEPEP_US = 7751 + 12362     # dispatch + combine per layer pair
DS3_HIDDEN = 0.96


@dataclass(frozen=True)
class Row:
    name: str
    estimate: float
    measured: float
    layout: str

    @property
    def error(self) -> float:
        return self.estimate / self.measured - 1


def pair_problem(ep_overlap: bool = True):
    train = {**constraints("megatron").train_defaults(), "shardings": ("zero1",), "dispatchers": ("hybridep",),
             "ep_overlap": ep_overlap}
    return make_problem(model="qwen3-30b-a3b", gpu="h100-sxm", gpus=16, seq=4096, global_batch=1024,
                        moe_imbalance=1.0, micro_batches=(1,), **train)


def pair_layout(p):
    res = targets.search(p, top=1, fixed=PAIR_FIXED, time_limit=20, settle=False)   # the fastest split
    return res.plans[0].layout


def overlap_pair() -> tuple[Row, Row]:
    """The MB pair: one layout (chosen with the overlap allowed), estimated with it off and on."""
    p = pair_problem(True)
    L = pair_layout(p)
    out = []
    for ov, meas in zip((False, True), PAIR):
        Lx = L.model_copy(update={"ep_overlap": ov, "delay_wgrad": ov})
        rc = sorted({(s.recompute_full, s.recompute_selective, s.recompute_modules) for s in Lx.stages})
        desc = f"{Lx.dispatcher} {'overlap' if ov else 'no overlap'} rc{rc[0][0]}F{rc[0][1]}S"
        out.append(Row(f"MB Qwen3-30B-A3B EP16 {'on' if ov else 'off'}", cm.evaluate(p, Lx).step_time, meas, desc))
    return out[0], out[1]


def _ds3_gpu():
    if "h800" in catalog.gpu_names():
        return "h800", None
    return "h100-sxm", {"intra_node_bw": 200e9}


def ds3_terms() -> dict[str, float]:
    """DeepSeek-V3's layer on one EP64 rank (DS3): the four DeepEP ops (us), the share the window model
    hides, and the compute windows (us, BF16)."""
    gpu, over = _ds3_gpu()
    p = make_problem(model="deepseek-v3", gpu=gpu, gpus=64, seq=4096, global_batch=64, moe_imbalance=1.0)
    if over:
        g = p.cluster.gpu.model_copy(update=over)
        p = p.model_copy(update={"cluster": p.cluster.model_copy(update={"gpu": g})})
    x = {k: np.array([v], float) for k, v in dict(
        tp=1, cp=1, dp=64, pp=1, vpp=1, etp=1, ep=64, edp=1, cu=1, cr=1, micro_batch=1, num_microbatches=1,
        sharding=1, master=0, s_tp=1, s_cp=1, s_dp=1, dispatcher=2, ep_overlap=1).items()}
    vals = {**model_values(p), **layout_values(p, x)}
    v = lambda f, k: float(np.asarray(f[k]).ravel()[0])
    on = cc.formulas(vals)
    off = cc.formulas({**vals, "o_ep": np.zeros(1)})
    ops = v(off, "X_ep_run")
    # what each hidden second costs beside it (planner.costmodel.dispatch: the larger of the SM share and
    # the measured overlap cost, kinds.OVERLAP_CONTENTION)
    sm = max(vals["n_sm_dep"] / (vals["N_sm"] - vals["n_sm_dep"]), vals["rho_ov"])
    # exposed = ops - hidden + hidden * sm  ->  hidden = (ops - exposed) / (1 - sm)
    hidden = (ops - v(on, "X_ep_run")) / (1 - sm)
    c_mlp = v(on, "T_moe_block") / 3
    c_attn = (v(on, "T_moe") - v(on, "T_moe_block")) / 3
    return {"ops_us": ops * 1e6, "hidden": hidden / ops, "attn_fwd_us": c_attn * 1e6, "moe_fwd_us": c_mlp * 1e6,
            "gpu": gpu + (" (NVLink 200 GB/s a direction)" if over else "")}


# DeepSeek-V3's profile kernel by kernel (deepseek-ai/profile-data train.json; shared/REFERENCE.md,
# "Measured profiles"): us per layer pair (forward + backward) on one H800 rank of EP64 TP1, FP8 with
# DeepGEMM, micro-batch 1 x 4,096, forced balance, DeepEP on 20 of 132 SMs for 96% of the window
DS3_PROFILE_US = {"router": 321, "permute": 1267, "experts_fwd_dgrad": 5732, "dispatch_combine": DS3_DEEPEP_US,
                  "attention": 5491}
DS3_KERNEL_NAMES = {"router": "router (GEMM + score / top-k kernels)", "permute": "permute / unpermute",
                    "experts_fwd_dgrad": "grouped expert GEMMs fwd + dgrad", "dispatch_combine":
                    "DeepEP dispatch + combine", "attention": "FlashAttention-3 fwd + bwd"}


def ds3_kernels() -> dict[str, float]:
    """The cost model's kernels of one DeepSeek-V3 MoE layer on the profile's rank (us, forward + backward):
    FP8 blockwise at DeepGEMM's published efficiency (the GPU preset's fp8_deepgemm_efficiency: the profile
    ran DeepGEMM), DeepEP without overlap. Tensor-core kernels ran beside DeepEP on 112 of 132 SMs: their
    model time is scaled by N_sm / (N_sm - 20); memory-bound kernels and the dispatcher as they are."""
    gpu, over = _ds3_gpu()
    p = make_problem(model="deepseek-v3", gpu=gpu, gpus=64, seq=4096, global_batch=64, moe_imbalance=1.0,
                     precision="fp8-blockwise")
    g = p.cluster.gpu.model_copy(update={**(over or {}), "fp8_compute_efficiency": p.cluster.gpu.fp8_deepgemm_efficiency})
    p = p.model_copy(update={"cluster": p.cluster.model_copy(update={"gpu": g})})
    x = {k: np.array([v], float) for k, v in dict(
        tp=1, cp=1, dp=64, pp=1, vpp=1, etp=1, ep=64, edp=1, cu=1, cr=1, micro_batch=1, num_microbatches=1,
        sharding=1, master=0, s_tp=1, s_cp=1, s_dp=1, dispatcher=2, ep_overlap=0).items()}
    f = cc.formulas({**model_values(p), **layout_values(p, x)})
    v = lambda k: float(np.asarray(f[k]).ravel()[0]) * 1e6
    sm = g.sm_count / (g.sm_count - DISPATCHER["deepep"].sms)
    return {"router": v("Tk_router"), "permute": v("Tk_perm"),             # DeepEP: no sort by local expert
            "experts_fwd_dgrad": v("Tk_experts_fd") * sm, "dispatch_combine": v("X_ep_run"),
            "attention": v("Tk_attn_core") * sm}


def ds3_kernel_lines(k=None) -> list[str]:
    k = k or ds3_kernels()
    return [f"DS3 kernel {DS3_KERNEL_NAMES[n]}: {k[n]:,.0f} us estimated vs {DS3_PROFILE_US[n]:,} us measured "
            f"({k[n] / DS3_PROFILE_US[n] - 1:+.1%})" for n in DS3_PROFILE_US]


def lines(pair=None, zoo=None) -> list[str]:
    off, on = pair or overlap_pair()
    out = [f"{r.name}: {r.estimate:.3f} s estimated vs {r.measured:.3f} s measured ({r.error:+.1%}; {r.layout})"
           for r in (off, on)]
    out.append(f"  overlap speed-up {off.estimate / on.estimate:.3f}x estimated vs {PAIR[0] / PAIR[1]:.3f}x measured")
    z_off, z_on = zoo or zoo_235b_rows()
    out += [f"{r.name}: {r.estimate:.3f} s estimated vs {r.measured:.1f} s measured ({r.error:+.1%}; {r.layout})"
            for r in (z_off, z_on)]
    d = ds3_terms()
    out.append(f"DS3 DeepSeek-V3 EP64 layer pair on {d['gpu']}, BF16: DeepEP dispatch + combine "
               f"{d['ops_us']:,.0f} us estimated vs {DS3_DEEPEP_US:,} us measured (FP8 dispatch, waiting "
               f"included; {d['ops_us'] / DS3_DEEPEP_US - 1:+.1%}); hidden {d['hidden']:.0%} estimated vs "
               f"{DS3_HIDDEN:.0%} measured; windows: attention fwd {d['attn_fwd_us']:,.0f} us, MoE fwd "
               f"{d['moe_fwd_us']:,.0f} us (BF16)")
    return out + ds3_kernel_lines()


def markdown_block(rows: list[str]) -> dict[str, str]:
    """docs/fidelity.md's "fidelity-ep" block."""
    return {"fidelity-ep": "\n".join(f"* {r.strip()}" for r in rows)}


def main() -> None:
    import argparse
    import sys
    from pathlib import Path
    ap = argparse.ArgumentParser(description="EP dispatch and overlap rows, estimate vs measured")
    ap.add_argument("--markdown", metavar="PATH", help="also write the rows into this page's fidelity-ep block")
    a = ap.parse_args()
    pair, zoo = overlap_pair(), zoo_235b_rows()
    rows = lines(pair, zoo)
    print("\n".join(rows))
    if a.markdown:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bands
        import mdtables
        mdtables.write_blocks(a.markdown, mdtables.command_line(), markdown_block(rows))
        bands.write("ep", bands.ep_rows(pair, zoo))



# The ModelZoo's Qwen3-235B-A22B H100 launch (yanring/Megatron-MoE-ModelZoo best_practice/qwen3/
# run_h100_235b.sh @ bff1229): its variables and flags, run beside the corpus' model config
# (examples/audit/real/zoo_Qwen3-235B-A22B.yaml) as the launcher reads it. EP32, DeepEP, A2A overlap.
# CP and LAYERS_PER_VP: runtime_configs/benchmarking/runtime.conf's Qwen3-235B-A22B values (CP 1; NUM_LAYERS
# 96 / PP / VPP = 3), which the launcher reads and the audit does not: written as exports.
QWEN3_235B_LAUNCH = ("export CP=1 LAYERS_PER_VP=3\nMODEL=Qwen3-235B-A22B MBS=1 SEQ_LEN=4096 MOE_GROUPED_GEMM=true DISPATCHER=deepep A2A_OVERLAP=1 "
                     "TP=2 PP=8 VPP=4 EP=32 NNODES=32 GBS=2048 bash ./sbatch_benchmarking.sh "
                     "--recompute-granularity selective --recompute-modules moe_act layernorm "
                     "--moe-router-force-load-balancing\n")


# yanring/Megatron-MoE-ModelZoo best_practice/Qwen3/readme.md @ c1ad0b5, "Performance Results" (256 H100,
# BF16, DeepEP, seq 4096, TP2 CP1 EP32 PP8 VPP4 ETP1, MBS 1, GBS 2048, recompute norm + act): 19.7 s per
# step, 17.6 s with the 1F1B overlap. Routing: the launch forces balance (--moe-router-force-load-balancing).
ZOO_235B = (19.7, 17.6)


def qwen3_235b_launch(folder, overlap: bool = True) -> str:
    """Write the launch and the model config it reads under `folder`; the launch script's path."""
    from pathlib import Path
    root = Path(folder)
    (root / "model_configs" / "benchmarking").mkdir(parents=True, exist_ok=True)
    src = Path(__file__).resolve().parents[1] / "examples" / "audit" / "real" / "zoo_Qwen3-235B-A22B.yaml"
    (root / "model_configs" / "benchmarking" / "Qwen3-235B-A22B.yaml").write_text(src.read_text())
    (root / "best_practice").mkdir(exist_ok=True)
    script = root / "best_practice" / "run_h100_235b.sh"
    script.write_text(QWEN3_235B_LAUNCH if overlap else QWEN3_235B_LAUNCH.replace("A2A_OVERLAP=1", "A2A_OVERLAP=0"))
    return str(script)


def zoo_235b_rows() -> tuple[Row, Row]:
    """The ModelZoo's Qwen3-235B-A22B pair, each read from its launch by the audit and estimated as read."""
    import tempfile

    from planner.audit import detect
    from planner.audit.audit import run_audit
    out = []
    p = make_problem(model="qwen3-235b-a22b", gpus=256, seq=4096, global_batch=2048, moe_imbalance=1.0,
                     **constraints("megatron").train_defaults())
    for ov, meas in zip((False, True), ZOO_235B):
        with tempfile.TemporaryDirectory() as d:
            rep = run_audit(detect.load(qwen3_235b_launch(d, ov)), p, search=False)
        L = rep.layout
        out.append(Row(f"ModelZoo Qwen3-235B-A22B EP32 {'on' if ov else 'off'}", rep.estimate.step_time, meas,
                       f"{L.dispatcher} tp{L.tp} pp{L.pp} vpp{L.vpp} ep{L.stages[0].ep}"))
    return out[0], out[1]


if __name__ == "__main__":
    main()

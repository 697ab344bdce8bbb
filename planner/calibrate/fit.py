"""Fits of a calibration results file (the bundle's calibrate.py) to GPUSpec fields.

Each fit is the cost model's own form, so the fitted value means what the preset field means:
  compute_efficiency    achieved FLOP/s over the preset's dense peak in the plan's GEMMs: the best
                        shape (the field is "the achievable fraction of peak in large GEMMs"; the
                        cost model applies tile and wave quantisation on top)
  attention curve       efficiency x L / (L + L0) (GPUSpec.attention_half_block), least squares on
                        1 / y = 1 / eta + (L0 / eta) (1 / L) over the measured SDPA blocks
  hbm_bw                the best achieved bytes/s of an elementwise add (2 reads + 1 write) over
                        hbm_efficiency (kept): the cost model's elementwise bandwidth is their product
  collectives           t = alpha x hops + wire_intra / W_intra + wire_inter / W_inter: the cost
                        model's collective (formulas.coll: (n-1)/n x bytes / W + (n-1) x alpha; an
                        all-reduce twice that; a p2p pass bytes / W + alpha), least squares over
                        every collective row; W is the achieved bus bandwidth, link x bus_efficiency
Every fit returns (value or None, a sentence saying what it used); None: not determined, the field
stays the base preset's.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

MIN_POINTS = 2       # fewest measurements a two-parameter fit takes (an exact solution at 2)
FLAT_HALF_BLOCK = 1.0   # L0 of a flat attention curve (GPUSpec.attention_half_block must be positive): L/(L+1) ~ 1


def hops_and_wire(op: str, n: int, nbytes: float) -> tuple[float, float]:
    """(latency hops, bytes each rank moves over its link) of one collective, as the cost model counts."""
    if op == "all_reduce":
        return 2.0 * (n - 1), 2.0 * (n - 1) / n * nbytes
    if op == "p2p":
        return 1.0, float(nbytes)
    return float(n - 1), (n - 1) / n * nbytes       # all-gather, reduce-scatter, all-to-all


def compute_efficiency(rows: list[dict], peak: float) -> tuple[Optional[float], str]:
    gemms = [r for r in rows if r["kind"] == "gemm"]
    if not gemms:
        return None, "no gemm measurement"
    best = max(gemms, key=lambda r: r["flops"] / r["time_s"])
    rate = best["flops"] / best["time_s"]
    note = (f"gemm {best['name']} {best['m']}x{best['k']}x{best['n']}: {rate / 1e12:.4g} TFLOP/s over the "
            f"peak {peak / 1e12:.4g} TFLOP/s (best of {len(gemms)} plan GEMMs)")
    return rate / peak, note


def memory_bandwidth(rows: list[dict]) -> tuple[Optional[float], str]:
    """The best achieved bytes/s of the elementwise rows (read + write bytes over the time)."""
    mem = [r for r in rows if r["kind"] == "memory"]
    if not mem:
        return None, "no memory measurement"
    best = max(mem, key=lambda r: r["bytes"] / r["time_s"])
    bw = best["bytes"] / best["time_s"]
    return bw, f"elementwise add over {best['bytes'] / 2 ** 20:.4g} MiB: {bw / 1e9:.4g} GB/s (best of {len(mem)} sizes)"


def grouped_ratio(rows: list[dict]) -> tuple[Optional[float], str]:
    """Grouped-GEMM FLOP/s over the dense GEMMs' best (no preset field: reported, not written)."""
    g = [r for r in rows if r["kind"] == "grouped_gemm"]
    d = [r for r in rows if r["kind"] == "gemm"]
    if not g or not d:
        return None, "no grouped_gemm measurement"
    rg = max(r["flops"] / r["time_s"] for r in g)
    rd = max(r["flops"] / r["time_s"] for r in d)
    return rg / rd, f"best grouped GEMM {rg / 1e12:.4g} over best dense {rd / 1e12:.4g} TFLOP/s"


def attention_curve(rows: list[dict], peak: float) -> tuple[Optional[tuple[float, float]], str]:
    att = [r for r in rows if r["kind"] == "attention"]
    blocks = sorted({r["block"] for r in att})
    if len(blocks) < MIN_POINTS:
        return None, f"{len(blocks)} attention block length(s) measured; the curve needs {MIN_POINTS}"
    L = np.array([r["block"] for r in att], dtype=float)
    y = np.array([r["flops"] / r["time_s"] / peak for r in att])
    A = np.stack([np.ones_like(L), 1.0 / L], axis=1)
    (a, b), *_ = np.linalg.lstsq(A, 1.0 / y, rcond=None)
    if a <= 0 or b <= 0:             # no rise with L over the measured blocks: a flat curve at their mean
        eta = sum(r["flops"] for r in att) / sum(r["time_s"] for r in att) / peak
        return (eta, FLAT_HALF_BLOCK), (
            f"SDPA causal fwd+bwd, {len(att)} blocks {blocks[0]}..{blocks[-1]} tokens: the efficiency does not rise "
            f"with the block length (1/y = {a:.3g} + {b:.3g}/L), so a flat curve: eta {eta:.4g} = all blocks' FLOPs "
            f"over their time, L0 {FLAT_HALF_BLOCK:g} token")
    eta, l0 = 1.0 / a, b / a
    fitted = eta * L / (L + l0)
    err = float(np.max(np.abs(fitted - y) / y))
    return (eta, l0), (f"SDPA causal fwd+bwd, {len(att)} blocks {blocks[0]}..{blocks[-1]} tokens: eta {eta:.4g}, "
                       f"L0 {l0:.4g} (worst point off by {err:.0%})")


def collectives(rows: list[dict]) -> tuple[dict, str]:
    """{'latency_s', 'intra', 'inter'} (seconds per hop; bus bytes/s per span) where determined."""
    coll = [r for r in rows if r["kind"] == "collective"]
    spans = sorted({r["span"] for r in coll})
    if len(coll) < MIN_POINTS + len(spans) - 1:
        return {}, f"{len(coll)} collective measurements: too few to fit latency and bandwidth"
    cols = ["hops"] + spans
    A = np.zeros((len(coll), len(cols)))
    t = np.array([r["time_s"] for r in coll])
    for i, r in enumerate(coll):
        hops, wire = hops_and_wire(r["op"], r["group_size"], r["bytes"])
        A[i, 0], A[i, 1 + spans.index(r["span"])] = hops, wire
    w = 1.0 / t                                    # relative error: small messages count as much as large
    x, *_ = np.linalg.lstsq(A * w[:, None], t * w, rcond=None)
    if x[0] < 0:                                   # no latency resolved: bandwidth alone
        x[0] = 0.0
        for j in range(1, len(cols)):
            m = A[:, j] > 0
            x[j] = np.sum(A[m, j] * t[m]) / np.sum(A[m, j] ** 2)
    out, notes = {"latency_s": float(x[0])}, [f"alpha {x[0] * 1e6:.4g} us per hop"]
    for j, span in enumerate(spans, 1):
        n = int(np.sum(A[:, j] > 0))
        if x[j] > 0:
            out[span] = float(1.0 / x[j])
            notes.append(f"{span}-node {out[span] / 1e9:.4g} GB/s bus bandwidth ({n} rows)")
        else:
            notes.append(f"{span}-node bandwidth not determined ({n} rows: time does not grow with bytes)")
    pred = A @ x
    err = float(np.median(np.abs(pred - t) / t))
    return out, f"alpha-beta fit of {len(coll)} collectives: {', '.join(notes)}; median error {err:.0%}"

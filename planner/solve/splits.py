"""The stage boundaries: the intervals of layers each pipeline stage can hold, and the
min-max DP over splits (the least slowest stage), dense over (stage, lo, hi) cost arrays
(`minmax`, `minmax_many`) or stage by stage over only the intervals each holds
(`minmax_start`, `minmax_step`)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np


def intervals(L: int, P: int, V: int, i: int, pm: np.ndarray):
    """The intervals [lo, hi) stage i can hold (each stage keeps at least V layers), and
    their (dense, MoE) layer counts as codes nd * (L + 1) + nm: unique codes, inverse
    (read-only arrays, shared by every call with the same arguments)."""
    return _intervals_of(L, P, V, i, tuple(int(x) for x in pm))


@lru_cache(maxsize=4096)
def _intervals_of(L: int, P: int, V: int, i: int, pm_t: tuple):
    pm = np.array(pm_t)
    los = np.arange(V * i, L - V * (P - i) + 1) if i else np.array([0])
    lo_, hi_ = [a.ravel() for a in np.meshgrid(los, np.arange(L + 1), indexing="ij")]
    ok = (hi_ - lo_ >= V) & (hi_ <= L - V * (P - 1 - i)) & ((hi_ == L) if i == P - 1 else True)
    lo_, hi_ = lo_[ok], hi_[ok]
    nm_all = pm[hi_] - pm[lo_]
    codes, inv = np.unique((hi_ - lo_ - nm_all) * (L + 1) + nm_all, return_inverse=True)
    out = lo_, hi_, codes, inv.ravel()
    for a in out:
        a.flags.writeable = False
    return out


def minmax_start(batch: int, L: int) -> np.ndarray:
    """The min-max DP before its first stage: (batch, L + 1), -inf at layer 0, inf elsewhere."""
    out = np.full((batch, L + 1), np.inf)
    out[:, 0] = -np.inf
    return out


def minmax_step(best: np.ndarray, vals: np.ndarray, lo_: np.ndarray, hi_: np.ndarray) -> np.ndarray:
    """One stage of the min-max DP over only the intervals it can hold: out[:, hi] = the
    least over its intervals [lo, hi) of max(best[:, lo], vals[:, interval]) (inf where it
    holds none ending at hi); `vals`: (batch, interval)."""
    order = np.argsort(hi_, kind="stable")
    h = hi_[order]
    starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]])
    out = np.full(best.shape, np.inf)
    out[:, h[starts]] = np.minimum.reduceat(np.maximum(best[:, lo_], vals)[:, order], starts, axis=1)
    return out


def minmax_many(cost: np.ndarray) -> np.ndarray:
    """minmax's value for each of a batch of cost arrays, (batch, P, L + 1, L + 1)."""
    L = cost.shape[2] - 1
    best = cost[:, 0, 0]
    for i in range(1, cost.shape[1]):
        best = np.maximum(best[:, :, None], cost[:, i]).min(1)
    return best[:, L]


def minmax(cost: np.ndarray):
    """min over splits 0 = b_0 < ... < b_P = L of max_i cost[i, b_i, b_i+1], and a split reaching it."""
    P, L = cost.shape[0], cost.shape[1] - 1
    best = cost[0][0].copy()
    back = []
    for i in range(1, P):
        both = np.maximum(best[:, None], cost[i])
        back.append(both.argmin(0))
        best = both.min(0)
    if not np.isfinite(best[L]):
        return float(best[L]), None
    bnd = [L]
    for i in range(P - 1, 0, -1):
        bnd.append(int(back[i - 1][bnd[-1]]))
    bnd.append(0)
    return float(best[L]), bnd[::-1]

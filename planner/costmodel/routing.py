"""Expert-load skew: how much more than the mean the busiest EP rank (and the busiest expert) carries.

The cost model's `imb` (compute and all-to-all bytes of the busiest rank, / mean) and `imb_mem`
(the rows the busiest rank must hold memory for, / mean) are bound here per candidate layout,
from the routing of the job (`TrainSpec.routing`, `balancing`, `capacity_factor`,
`capacity_pad`; planner/specs/kinds.py) and the rows one rank receives per micro-batch.

The model. An EP group of `ep` ranks holds E experts, n_l = E / ep on each; one micro-batch
sends R token-expert rows to each rank on average (R = tokens of the rank x top-k x etp / sp).
A rank's load / mean is 1 + e with two independent parts:

(a) sampling: the R * ep rows fall on the ranks as a multinomial with p = 1 / ep (router
    choices of different tokens taken as independent): var(e) = (1 - 1/ep) / R;
(b) expert popularity: expert i attracts (1 + d_i) / E of the rows, d_i with standard deviation
    s_e across experts. A rank sums n_l of them, drawn without replacement from E whose d
    sum to zero: var(e) = s_e^2 (E - n_l) / ((E - 1) n_l)  (0 when one rank holds all experts).

The busiest of ep ranks is the expected maximum of ep such loads, taken as normal:
imb = 1 + z_ep sqrt(var), z_n the expected maximum of n standard normals (computed, not
tabulated). (a) falls as 1/R, so dropless approaches forced as tokens per rank grow; (b) stays.

s_e from a published statistic: MaxVio_global = max_i load_i / mean - 1 over a whole validation
set, Wang et al. 2024, "Auxiliary-Loss-Free Load Balancing Strategy for Mixture-of-Experts"
(arXiv 2408.15664v1), Table 2, on DeepSeekMoE models of 64 routed experts (top-6):
auxiliary loss 0.72 (1B) and 0.52 (3B), loss-free (expert bias) 0.04 and 0.04. Read as the
expected maximum of 64 experts: s_e = MaxVio / z_64. Where the source leaves it open:
* the model size: the 3B value is taken (the larger model; the trend is down with size);
* sequence-wise aux loss (DeepSeek-V2/V3): no separate statistic; taken as the auxiliary
  loss (a per-sequence loss balances each micro-batch at least as tightly);
* no balancing: no statistic (routing may collapse); taken as the auxiliary loss, an
  optimistic floor (`NO_BALANCING_NOTE`);
* correlation of routing within a sequence (a document prefers some experts) would make (a)
  larger than multinomial at small micro-batches: no published per-micro-batch statistic was
  found, so it is not modelled (the short-micro-batch imbalance is a lower estimate).

Forced balance. Megatron's --moe-router-force-load-balancing replaces the router logits with
random normals (megatron/core/transformer/moe/router.py:856, moe_utils.py:1195, megatron-core
0.19.2): uniform routing, part (a) alone. torchtitan's debug.moe_force_load_balance assigns
round robin (torchtitan/models/common/moe.py:225, 0.3.0): exactly balanced, imb = 1.

Capacity (token drop, Megatron moe_utils.apply_router_token_dropping): an expert keeps at most
c = capacity_factor x its mean rows. The busiest rank's load M is taken as normal with the mean
imb and the standard deviation of the maximum of ep ranks; its work is E[min(M, c)] (closed
form). With one expert per rank this is exact (the maximum of the cut loads is the cut of the
maximum); with several, cutting each expert first would give less: this is the upper side. With
--moe-pad-expert-input-to-capacity every expert computes c exactly: imb = imb_mem = c.

Memory. Dropless buffers grow with the rows that arrive. The verdict budgets what the run holds
in steady state (`TrainSpec.routing_memory = "steady"`): the expected busiest rank, imb_mem = imb,
from the steady-state statistic above (MaxVio_global is measured on the trained model, under its
balancing). A burst above it -- early training, before the balancing settles, or an unlucky batch --
is the tail: the `MEMORY_QUANTILE` quantile of the maximum of ep ranks (a design choice, not a
published figure: one layer's micro-batch in 10^4), budgeted where `routing_memory = "tail"` (the
headroom choice) and otherwise reported as a warning with the probability that the busiest rank's
rows pass the level at which the stage would overflow (`exceed_probability`; planner.costmodel.tail).
Capacity: at most c. No rank can receive more than all rows of its EP group that can reach
it: ep x min(K, n_l) / K (both are capped there).
"""
from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from planner.specs.kinds import NO_BALANCING_NOTE  # noqa: F401  (the note the readers add)

MAXVIO_GLOBAL = {"aux-loss": 0.52, "seq-aux-loss": 0.52, "aux-free": 0.04, "none": 0.52}
MAXVIO_EXPERTS = 64              # routed experts of the models MaxVio was measured on (Wang et al. 2024)
MEMORY_QUANTILE = 1 - 1e-4       # memory budgets this quantile of the busiest rank (design choice)


@lru_cache(maxsize=4096)
def max_z_moments(n: int) -> tuple[float, float]:
    """(mean, standard deviation) of the maximum of n iid standard normals ((0, 1) for n = 1), by
    quadrature of its density n phi(x) Phi(x)^(n-1)."""
    if n <= 1:
        return 0.0, 1.0
    x = np.linspace(-9.0, 9.0, 3601)
    phi = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    w = n * phi * cdf ** (n - 1) * (x[1] - x[0])
    mean = float(np.sum(x * w))
    return mean, math.sqrt(max(float(np.sum(x * x * w)) - mean * mean, 0.0))


def expected_max_z(n: int) -> float:
    """E[max of n iid standard normals] (0 for n = 1)."""
    return max_z_moments(n)[0]


@lru_cache(maxsize=4096)
def quantile_max_z(n: int, q: float = MEMORY_QUANTILE) -> float:
    """The q quantile of the maximum of n iid standard normals: Phi^-1(q^(1/n))."""
    return NormalDist().inv_cdf(q ** (1.0 / max(n, 1)))


def _per_n(fn, n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, float)
    uniq, inv = np.unique(np.rint(n).astype(int), return_inverse=True)
    return np.array([fn(int(k)) for k in uniq])[inv].reshape(n.shape)


def _norm_cdf(x):
    # Abramowitz & Stegun 7.1.26 erf (|error| < 1.5e-7), vectorised
    z = np.abs(x) / math.sqrt(2)
    t = 1 / (1 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = 1 - poly * np.exp(-z * z)
    return 0.5 * (1 + np.sign(x) * erf)


def expert_sigma(balancing: str) -> float:
    """Standard deviation of one expert's popularity / mean (s_e) under a balancing kind."""
    return MAXVIO_GLOBAL[balancing] / expected_max_z(MAXVIO_EXPERTS)


def rank_spread(rows, experts: int, ep, sigma_e: float) -> np.ndarray:
    """Standard deviation of one EP rank's load / mean: sampling (a) and popularity (b)."""
    ep = np.maximum(np.asarray(ep, float), 1.0)
    rows = np.maximum(np.asarray(rows, float), 1.0)
    n_l = experts / ep
    popularity = sigma_e ** 2 * (experts - n_l) / (max(experts - 1, 1) * n_l)
    return np.sqrt(popularity + (1 - 1 / ep) / rows)


def min_expected(u, s, c):
    """E[min(X, c)] for X ~ N(u, s^2)."""
    s = np.maximum(s, 1e-12)
    a = (u - c) / s
    return u - ((u - c) * _norm_cdf(a) + s * np.exp(-0.5 * a * a) / math.sqrt(2 * math.pi))


def balancing_of(train, moe) -> str:
    """The balancing kind: the job's, else aux-free where the model's router carries an expert bias
    (DeepSeek-V3's e_score_correction_bias), else an auxiliary loss."""
    if train.balancing is not None:
        return train.balancing
    return "aux-free" if moe is not None and moe.router_bias else "aux-loss"


def imbalance(train, moe, rows, ep) -> tuple[np.ndarray, np.ndarray]:
    """(imb, imb_mem): the busiest EP rank's expected rows / mean (compute, all-to-all bytes) and
    the rows its memory is budgeted for / mean, per candidate (`rows` R and `ep` arrays); `moe`
    the model's MoESpec (None: dense)."""
    rows, ep = np.broadcast_arrays(np.asarray(rows, float), np.asarray(ep, float))
    one = np.ones(rows.shape)
    experts, top_k = (moe.experts, moe.top_k) if moe is not None else (0, 0)
    if not experts or not top_k:
        return one, one
    n_l = experts / np.maximum(ep, 1)
    cap = np.maximum(ep * np.minimum(top_k, n_l) / top_k, 1.0)           # every row of the group
    forced = train.routing == "forced"
    if train.moe_imbalance is not None and not forced:
        imb = one * train.moe_imbalance
        mem = imb
        sigma_e = 0.0
    else:
        if forced and train.forced_routing == "round-robin":
            return one, one                                             # round robin: exact balance
        sigma_e = 0.0 if forced else expert_sigma(balancing_of(train, moe))
        s = rank_spread(rows, experts, ep, sigma_e)
        imb = np.minimum(1 + _per_n(expected_max_z, ep) * s, cap)
        mem = np.minimum(1 + _per_n(quantile_max_z, ep) * s, cap) if train.routing_memory == "tail" else imb
    cf = train.capacity_factor
    if cf is None:
        return imb, mem
    if train.capacity_pad:
        return one * cf, one * cf
    # the busiest rank's load M ~ N(imb, (s * sd of the maximum of ep)^2); its work E[min(M, c)]
    spread = s * _per_n(lambda k: max_z_moments(k)[1], ep) if train.moe_imbalance is None or forced else 0 * one
    return np.minimum(min_expected(imb, spread, cf), cf), np.minimum(mem, cf)


def busiest_expert(train, moe, rows, ep) -> np.ndarray:
    """The busiest expert's rows / an expert's mean (the slowest member of a grouped GEMM):
    1 + z_E sqrt(s_e^2 + n_l / R), capped by the capacity factor."""
    if moe is None or not moe.experts:
        return np.ones(np.shape(rows))
    experts = moe.experts
    forced = train.routing == "forced"
    sigma_e = 0.0 if forced else expert_sigma(balancing_of(train, moe))
    n_l = experts / np.maximum(np.asarray(ep, float), 1)
    out = 1 + expected_max_z(experts) * np.sqrt(sigma_e ** 2 + n_l / np.maximum(np.asarray(rows, float), 1.0))
    return np.minimum(out, train.capacity_factor) if train.capacity_factor else out


def exceed_probability(train, moe, rows, ep, level, layers=1) -> np.ndarray:
    """The probability that the busiest of ep ranks receives more than `level` x the mean rows, on
    average over `layers` MoE layers (1: one layer's micro-batch): 1 - Phi((level - 1) / s_n)^ep, s_n the
    rank's spread (`rank_spread`) under the run's balancing (forced: sampling alone) over sqrt(layers):
    different layers' experts are different experts, taken as independent."""
    rows, ep, level = np.broadcast_arrays(*(np.asarray(a, float) for a in (rows, ep, level)))
    if moe is None or not moe.experts:
        return np.zeros(rows.shape)
    sigma_e = 0.0 if train.routing == "forced" else expert_sigma(balancing_of(train, moe))
    s = np.maximum(rank_spread(rows, moe.experts, ep, sigma_e) / np.sqrt(np.maximum(layers, 1)), 1e-12)
    upper = np.vectorize(lambda z: 0.5 * math.erfc(z / math.sqrt(2)))((level - 1) / s)   # one rank above
    return -np.expm1(np.maximum(ep, 1) * np.log1p(-np.minimum(upper, 1 - 1e-16)))

"""Lower bounds on the step time of every tuple, vectorised, valid for every choice the
stage model can make (so a tuple whose bound cannot beat the incumbent is skipped
without a CP-SAT call, and the search stays exact).

Relaxation: per layer kind, the layers are a fluid with the cheapest weights,
activations and time of any folding; the other kind's layers are dropped (which only
frees memory); the memory a budget then forces to be freed costs at least the cheapest
time per byte any recompute option offers. All numbers are the stage model's own
coefficients (`planner.solve.space.Tables`), read per (tuple, fold) row.
"""
from __future__ import annotations

import numpy as np

from planner import costmodel as cm
from planner.costmodel import step
from planner.costmodel.names import DENSE_MODULES, MOE_MODULES, PERSISTENT_TERMS
from planner.solve.space import Tables, searchable_modules
from planner.solve.lagrangian import lagrangian  # noqa: F401  (the memory budget's Lagrangian floor, re-exported)

class _Rows:
    """Per-row coefficients the bounds read (float arrays over rows), each made when it is
    read. Only those the bounds read row by row more than once are kept; the others are
    reduced per tuple where they are read and dropped (at 10^6 rows each is ~16 MB: kept
    all together they set the search's peak memory). The time pieces are the step rule's
    (`time(part)`: planner.costmodel.step.stage_time over one part's coefficients)."""

    KEEP = frozenset({"w_m", "t_m", "a_m", "af_m", "c_m", "red_m"})
    # name: (what, part); what is a tuple of memory terms or the name of a stage-time piece
    SUMS = dict(w_d=(PERSISTENT_TERMS, "L_d"), w_m=(PERSISTENT_TERMS, "L_m"), a_d=(("act_mb",), "L_d"),
                a_m=(("act_mb",), "L_m"), t_d=("busy", "L_d"), t_m=("busy", "L_m"), rc_d=("busy", "Lf_d"),
                rc_m=("busy", "Lf_m"), c_d=("window", "L_d"), c_m=("window", "L_m"), rcw_d=("window", "Lf_d"),
                rcw_m=("window", "Lf_m"), first=(PERSISTENT_TERMS, "e_f"), last=(PERSISTENT_TERMS, "e_l"),
                t_const=("busy", "const"), red_d=("reduction", "L_d"), red_m=("reduction", "L_m"),
                red_first=("reduction", "e_f"), red_last=("reduction", "e_l"), o_d=("opt", "L_d"), o_m=("opt", "L_m"),
                o_first=("opt", "e_f"), o_last=("opt", "e_l"))
    COMBOS = dict(
        base=lambda g: g(PERSISTENT_TERMS, "const") + np.minimum(0.0, g(PERSISTENT_TERMS, "h_m")),
        t_last=lambda g: g("busy", "e_l") + g("busy", "e_f"),
        af_d=lambda g: g(("act_mb",), "L_d") + g(("act_mb",), "Lf_d"),
        af_m=lambda g: g(("act_mb",), "L_m") + g(("act_mb",), "Lf_m"))

    def __init__(self, tab: Tables):
        self._tab, self.n, self._kept = tab, tab.n_rows, {}

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._kept:
            return self._kept[name]
        value = self.COMBOS[name](self.read) if name in self.COMBOS else self.read(*self.SUMS[name])
        if name in self.KEEP:
            self._kept[name] = value
        return value

    def read(self, what, part) -> np.ndarray:
        """Memory terms' sum (`what` a tuple) or a stage-time piece (`what` its name)."""
        return self.time(part).piece(what) if isinstance(what, str) else self.sum(what, part)

    def time(self, part: str) -> step.StageTime:
        """The stage-time pieces' coefficient `part` over rows (each made when read)."""
        return step.stage_time(lambda w: self.sum(w, part))

    def sum(self, terms, part) -> np.ndarray:
        """The float sum of `terms`' part over rows; the parts that are one number for every
        row (broadcast columns of the tables) are added as that number, and a sum of them
        alone stays a broadcast view."""
        const, acc = self._tab.split_sum(terms, part)
        acc = None if acc is None else acc.astype(float)
        if acc is None:
            return np.broadcast_to(np.float64(const), (self.n,))
        if const:
            acc += const
        return acc


def _module_rate(problem, tab: Tables, r: _Rows, kind: str) -> np.ndarray:
    """Per row: the least time per freed byte of any searchable module of a layer kind
    (inf when none frees anything)."""
    rate = np.full(r.n, np.inf)
    mods = searchable_modules(problem, tab) if r.n else ()
    for k in mods:
        if k not in (DENSE_MODULES if kind == "d" else MOE_MODULES):
            continue
        save = -r.sum(("act_mb",), f"r_{kind}_{k}")
        cost = r.time(f"r_{kind}_{k}").busy
        rate = np.minimum(rate, np.where(save > 0, cost / np.maximum(save, 1e-9), np.inf))
    return rate


def _min_recompute(n, cost, cap_free, cap_full):
    """Fewest recomputed layers (fractional), per row, to place n layers on P stages where
    stage i holds cap_free[i] layers without recompute and up to cap_full[i] layers when
    each layer beyond cap_free costs cost[i] recomputed layers: a separable convex LP,
    solved greedily (cheapest segments first), vectorised over rows. inf if even full
    recompute cannot place n layers."""
    free = np.clip(cap_free, 0, None)
    extra = np.clip(np.clip(cap_full, 0, None) - free, 0, None)
    left = n - free.sum(1)
    order = np.argsort(cost, axis=1)
    c_sorted = np.take_along_axis(cost, order, 1)
    e_sorted = np.take_along_axis(extra, order, 1)
    before = np.cumsum(e_sorted, 1) - e_sorted
    take = np.clip(np.minimum(e_sorted, left[:, None] - before), 0, None)
    need = np.where(left <= 0, 0.0, (take * c_sorted).sum(1))
    return np.where(extra.sum(1) < left - 1e-9, np.inf, need)


def _inflight_matrix(p: int, v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """In-flight micro-batches (in units of a stage's layers) of every stage, for rows of
    (vpp, micro-batches) sharing pp = p."""
    out = np.empty((len(v), p))
    pairs, inv = np.unique(np.stack([v, m], 1), axis=0, return_inverse=True)
    for j, (vv, mm) in enumerate(pairs):
        out[inv.ravel() == j] = [cm.chunks(p, int(vv), int(mm), i) / vv for i in range(p)]
    return out


class _PerTuple:
    """Reductions of row arrays to one value per tuple (min / max over its folds)."""

    def __init__(self, tab: Tables):
        self.T = len(tab.tuples)
        self.lens = tab.lens
        self.empty = self.lens == 0
        self.starts = np.where(self.empty, 0, tab.starts)

    def min(self, arr):
        if len(arr) == 0:
            return np.full(self.T, np.inf)
        return np.where(self.empty, np.inf, np.minimum.reduceat(arr, self.starts))

    def max(self, arr):
        if len(arr) == 0:
            return np.full(self.T, -np.inf)
        return np.where(self.empty, -np.inf, np.maximum.reduceat(arr, self.starts))

    def first(self, arr):
        return arr[self.starts] if len(arr) else np.zeros(self.T)


FILL_ROWS = 1 << 15      # at 10^6 rows x 32 stages one (rows, p) float array is 256 MiB of fresh memory


def _moe_fill(tab, r, pt, P, V, M, extras_of, n_moe, a_min, budget):
    """Least total MoE-layer time per tuple when each folding f can hold at most cap_f MoE
    layers: cap_f = what all P stages could hold under f alone (least activations, the
    lightest extras). Giving every folding the whole capacity relaxes "one folding per
    stage", so the greedy fill (fastest folding first) is a valid lower bound; it stops
    the bound from using a fast folding that cannot hold a layer (e.g. ep=1 with 256
    experts). Also returns whether the foldings together can hold every MoE layer."""
    tix = tab.row_tuple()
    if len(tix) == 0:                                # no folding survives (e.g. a fixed ep that divides nothing)
        return np.full(pt.T, np.inf), np.zeros(pt.T, bool)
    cap = np.zeros(len(tix))
    for p_val in np.unique(P):
        ts = np.flatnonzero(P == p_val)
        k = _inflight_matrix(int(p_val), V[ts], M[ts])
        room = np.full((pt.T, int(p_val)), np.nan)
        kk = np.full((pt.T, int(p_val)), np.nan)
        room[ts], kk[ts] = budget - extras_of(ts, int(p_val)), k
        rows = np.flatnonzero(P[tix] == p_val)
        for lo in range(0, len(rows), FILL_ROWS):        # (rows, p) temporaries a few MiB at a time
            rr = rows[lo:lo + FILL_ROWS]
            per = room[tix[rr]] / (r.w_m[rr, None] + kk[tix[rr]] * a_min[rr, None])
            cap[rr] = np.clip(per, 0, None).sum(1)
    order = np.lexsort((r.t_m, tix))                 # by tuple, then fastest folding first
    tix_s, cap_s, t_s = tix[order], cap[order], r.t_m[order]
    seg_cum = np.cumsum(cap_s)
    seg_base = np.where(pt.lens > 0, (seg_cum - cap_s)[np.minimum(pt.starts, max(len(cap_s) - 1, 0))], 0)
    before = seg_cum - cap_s - seg_base[tix_s]
    take = np.clip(np.minimum(cap_s, n_moe - before), 0, None)
    total = np.bincount(tix_s, weights=take * t_s, minlength=pt.T)     # (sums in row order, as np.add.at)
    held = np.bincount(tix_s, weights=take, minlength=pt.T)
    return total, held >= n_moe - 1e-6


def bounds(problem, tab: Tables, parts: dict = None) -> tuple[np.ndarray, np.ndarray]:
    """(step-time lower bound [ns], memory lower bound [0 or inf]) per tuple; a tuple whose
    layers cannot be placed even under full recompute gets an infinite memory bound."""
    is_moe = problem.model.moe_layers()
    L, n_moe = len(is_moe), sum(is_moe)
    n_dense = L - n_moe
    budget = problem.cluster.memory_budget_gib * cm.GiB
    allowed = set(problem.train.recompute)
    r, pt = _Rows(tab), _PerTuple(tab)
    P = np.array([tu.pp for tu in tab.tuples])
    V = np.array([tu.vpp for tu in tab.tuples])
    M = np.array([tu.num_microbatches for tu in tab.tuples])
    w_first, w_last, base = pt.min(r.first), pt.min(r.last), pt.min(r.base)

    def extras_of(ts, p_val):
        ex = np.repeat(base[ts, None], p_val, 1)
        ex[:, 0] += w_first[ts]
        ex[:, -1] += w_last[ts]
        return ex

    t_d, t_m = pt.first(r.t_d), pt.min(r.t_m)
    full_ok, sel_ok = "full" in allowed, "selective" in allowed
    mods = searchable_modules(problem, tab)
    mod_save = lambda kind, names: -sum((r.sum(("act_mb",), f"r_{kind}_{k}") for k in mods if k in names),
                                        np.zeros(r.n))
    # the least activations a layer of each kind can keep (full recompute, or every module)
    least = lambda a, af, save: np.minimum(af if full_ok else a, a - save if sel_ok else a)
    save_d = mod_save("d", DENSE_MODULES) if sel_ok else np.zeros(r.n)
    save_m = mod_save("m", MOE_MODULES) if sel_ok else np.zeros(r.n)
    a_min_d = least(r.a_d, r.af_d, save_d)
    a_min_m = least(r.a_m, r.af_m, save_m)
    # Recompute's cost per freed byte of a layer is at least the cheapest option's rate, and
    # beyond what its modules can free (s) at least rc / (a - af - s): every option (nothing,
    # a module set, full recompute) lies above both lines, so the cost of freeing F bytes
    # over N layers is at least max(rate F, tail (F - N s)) (convex: Jensen over the layers).
    tail = {}
    for kind, a, af, rc, save in (("d", r.a_d, r.af_d, r.rc_d, save_d), ("m", r.a_m, r.af_m, r.rc_m, save_m)):
        s_row = np.clip(save, 0, None)
        beyond = a - af - s_row
        tail[kind] = (pt.max(s_row), pt.min(np.where(beyond > 0, rc / np.where(beyond > 0, beyond, 1), np.inf)))
    work = n_dense * t_d + pt.first(r.t_const) * P + pt.min(r.t_last)
    fold_ok = np.ones(pt.T, bool)
    if n_moe:
        moe_time, fold_ok = _moe_fill(tab, r, pt, P, V, M, extras_of, n_moe, a_min_m, budget)
        work = work + moe_time
    t_layer_min = np.minimum(t_d if n_dense else np.inf, t_m if n_moe else np.inf)
    biggest = np.maximum(t_d if n_dense else 0, t_m if n_moe else 0)
    t_lb = np.maximum(np.maximum(work / P, biggest), np.ceil(L / P) * t_layer_min + pt.first(r.t_const))
    # the other pieces that pace a micro-batch (zero2/zero3 traffic) run beside it: the
    # stage is at least that long
    for piece in step.PACE[1:]:
        x = lambda part: r.time(part).piece(piece)
        side = n_dense * pt.first(x("L_d")) + n_moe * (pt.min(x("L_m")) if n_moe else 0) \
            + pt.min(x("e_f") + x("e_l") + x("const"))
        t_lb = np.maximum(t_lb, side / P)
    feasible = ~pt.empty & fold_ok
    module_rate = {kind: pt.min(_module_rate(problem, tab, r, kind)) for kind, n_type in (("d", n_dense), ("m", n_moe))
                   if n_type}
    fluid = _fluid(r, pt, a_min_d, a_min_m, module_rate, n_dense, n_moe)
    r_min = _recompute_floor(allowed, budget, P, V, M, pt, extras_of, fluid, tail, work, t_lb, feasible,
                             {"d": n_dense, "m": n_moe})
    d_lb = _reduction_bound(problem, tab, r, pt, P, V, M, L, n_dense, n_moe, r_min)
    o_layer = np.minimum(pt.first(r.o_d) if n_dense else np.inf, pt.min(r.o_m) if n_moe else np.inf)
    o_tot = n_dense * pt.first(r.o_d) + (n_moe * pt.min(r.o_m) if n_moe else 0) + pt.min(r.o_first) + pt.min(r.o_last)
    o_lb = np.maximum(o_tot / P, np.ceil(L / P) * o_layer)
    step_lb = step.step_floor(t_lb, d_lb, o_lb, M, P, V)
    if parts is not None:
        parts.update(t_lb=t_lb, d_lb=d_lb, o_lb=o_lb, work=work)
    return np.where(feasible, step_lb, np.inf), np.where(feasible, 0.0, np.inf)


def _recompute_floor(allowed, budget, P, V, M, pt, extras_of, fluid, tail, work, t_lb, feasible, counts):
    """Per pipeline depth: the least recompute the budget forces on each layer kind (the
    fluid layers placed greedily, cheapest first) and the least time it costs, raised into
    `t_lb` (in place); tuples that cannot place their layers even under full recompute are
    marked infeasible. Returns the least count of recomputed layers per tuple."""
    n_dense, n_moe = counts["d"], counts["m"]
    full_ok = "full" in allowed
    r_min = np.zeros(pt.T)
    for p_val in np.unique(P):
        rows = np.flatnonzero((P == p_val) & ~pt.empty)
        if len(rows) == 0:
            continue
        k = _inflight_matrix(int(p_val), V[rows], M[rows])
        room = budget - extras_of(rows, int(p_val))
        need_time, need_count = np.zeros(len(rows)), np.zeros(len(rows))
        for kind, n_type in (("d", n_dense), ("m", n_moe)):
            if n_type == 0:
                continue
            a, w, af, rate = fluid[kind]
            w_, a_, af_ = w[rows, None], a[rows, None], af[rows, None]
            cap_free = room / (w_ + k * a_) if "none" in allowed else np.zeros_like(room)
            cap_full = room / (w_ + k * af_)
            cap_full = np.where(cap_full >= V[rows, None], cap_full, 0)
            delta = np.maximum(a_ - af_, 1e-9)
            need = _min_recompute(np.full(len(rows), float(n_type)), (w_ + k * a_) / (k * delta), cap_free, cap_full)
            if "none" not in allowed:
                need = np.where(np.isfinite(need), float(n_type), need)
            bad = ~np.isfinite(need) | (room < 0).any(1)
            feasible[rows[bad]] = False
            freed = np.where(np.isfinite(need), need, 0) * delta[:, 0]        # bytes, at least
            need_time = np.maximum(need_time, freed * rate[rows])
            if full_ok:
                s_max, r_tail = tail[kind][0][rows], tail[kind][1][rows]
                over = freed - n_type * s_max
                need_time = np.maximum(need_time, np.where(over > 0, over * np.where(np.isfinite(r_tail), r_tail, 0), 0))
            need_count = np.maximum(need_count, np.where(np.isfinite(need), need, 0))
        t_lb[rows] = np.maximum(t_lb[rows], (work[rows] + need_time) / p_val)
        r_min[rows] = need_count
    return r_min


def _fluid(r, pt, a_min_d, a_min_m, module_rate, n_dense, n_moe) -> dict:
    """Per layer kind, per tuple: the fluid layer's activations, weights, least activations and
    the least time per freed byte (read once, not once per pipeline depth)."""
    out = {}
    for kind, n_type in (("d", n_dense), ("m", n_moe)):
        if n_type:
            a, w, af, rc = ((pt.first(r.a_d), pt.first(r.w_d), pt.first(a_min_d), pt.first(r.rc_d)) if kind == "d"
                            else (pt.min(r.a_m), pt.min(r.w_m), pt.min(a_min_m), pt.min(r.rc_m)))
            with np.errstate(invalid="ignore"):        # inf - inf where a tuple has no row (never read)
                out[kind] = (a, w, af, np.minimum(rc / np.maximum(a - af, 1e-9), module_rate[kind]))
    return out


def _reduction_bound(problem, tab, r, pt, P, V, M, L, n_dense, n_moe, r_min):
    """Exposed gradient reduction: some stage exposes at least the mean excess of
    reduction over its compute window. Recompute widens the window but lengthens the
    bottleneck more when it is steep (weight V*M+P-1 >= V), so the bound holds at the least
    recompute memory forces; otherwise the window is taken at its widest."""
    red = (n_dense * pt.first(r.red_d) + (n_moe * pt.min(r.red_m) if n_moe else 0) + pt.min(r.red_first)
           + pt.min(r.red_last))
    c_m = pt.max(r.c_m) if n_moe else 0
    rc_max = np.maximum(pt.first(r.rcw_d) if n_dense else 0, pt.max(r.rcw_m) if n_moe else 0)
    rc_min = np.minimum(pt.first(r.rc_d) if n_dense else np.inf, pt.min(r.rc_m) if n_moe else np.inf)
    steep = step.bubble_factor(M, P, V) * rc_min >= rc_max
    if searchable_modules(problem, tab):
        steep = np.zeros_like(steep, bool)            # a cheap module widens the window too
    r_win = np.where(steep, r_min, L)
    t_last = pt.max(r.t_last)
    window = n_dense * pt.first(r.c_d) + n_moe * c_m + t_last + r_win * rc_max + _module_window(problem, tab, r, pt, L)
    d_lb = np.maximum(0.0, (red - window) / P)
    ex_d = pt.first(r.red_d) - pt.first(r.c_d) - rc_max if n_dense else np.full(pt.T, np.inf)
    ex_m = (pt.min(r.red_m - r.c_m) - rc_max) if n_moe else np.full(pt.T, np.inf)
    return np.maximum(d_lb, np.ceil(L / P) * np.clip(np.minimum(ex_d, ex_m), 0, None) - t_last)


def _module_window(problem, tab, r: _Rows, pt, L) -> np.ndarray:
    """The most compute all searchable modules add to a stage's window (every layer)."""
    mods = searchable_modules(problem, tab)
    per_layer = np.zeros(pt.T)
    for kind, names in (("d", DENSE_MODULES), ("m", MOE_MODULES)):
        extra = sum(np.clip(r.time(f"r_{kind}_{k}").window, 0, None) for k in mods if k in names)
        if not np.isscalar(extra):
            per_layer = np.maximum(per_layer, pt.max(extra))
    return L * per_layer

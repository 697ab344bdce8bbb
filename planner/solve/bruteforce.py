"""Brute-force reference: every layout of a problem, scored by the cost model — no
bounds, no CP-SAT, no coefficient table, and none of the search's enumeration. For tests
(same optimum as `planner.solve.search`) and benchmarks (the speed ratio). Exponential:
keep it to small problems, or cap it.

The space is enumerated here, plainly and from the problem alone (`naive_points`): every
(tp, cp, dp, pp) whose product is the world, every (Ulysses, ring) split of cp (the CP
kind is the split's), every rank order, micro-batch, vpp and sharding; per stage, every
(etp, ep, edp) folding, every contiguous split, full recompute count and set of recompute
modules. Legality is the rule table's (planner.layout's and the target engine's:
`EngineConstraints.degree_violations`), asked once per whole point; the
search's pruning (its enumeration, its de-duplication of rank orders, its dominated
foldings) is not used, so a tuple the search omits shows up as a better brute-force
optimum. The one restriction shared with the search is its stated scope: tp and etp stay
inside an NVLink domain (expert or dense TP across nodes is never planned).

Each stage option is scored by the cost model's direct per-stage function
(`planner.costmodel.stage`, the one `evaluate` calls) and whole layouts by
`planner.costmodel.step_time`; it shares nothing with the compiled coefficients the
stage model reads, so a slip in those makes `solver == brute force` fail. The only
reduction is exact: per stage, options dominated in (time, exposed reduction, optimizer
step, memory, recompute) are dropped before the product over stages (the objective is
monotone in the first three, the tie-break's order in the others).

The plan it settles on (`BruteResult.tie_layout`) follows planner/solve/tiebreak.py's order
over every layout within its reach of the fastest, scored here: the same window
(`tiebreak.window`) and the same key (`tiebreak.order_key`), the layouts its own.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations, product
from typing import Optional

import numpy as np

from planner import costmodel as cm
from planner.costmodel.names import PERSISTENT_TERMS
from planner.engines import EngineConstraints, constraints
from planner.layout.placement import range_kinds_hold
from planner.layout import ORDERS, SHARDINGS, Layout, Stage, dense_strides
from planner.layout.rules import layout_of
from planner.specs import Problem
from planner.specs.kinds import MASTERS, cp_kind_of
import planner.solve.tiebreak as tiebreak
from planner.solve.sanity import tuple_flags
from planner.solve.tiebreak import REACH


def _divisors(n: int) -> list[int]:
    return [k for k in range(1, n + 1) if n % k == 0]


@dataclass(frozen=True)
class Point:
    """One whole-model choice of the brute force (the per-stage split, folding and
    recompute are enumerated per point)."""
    tp: int
    cp: int
    dp: int
    pp: int
    vpp: int
    cp_kind: str
    cp_ulysses: int
    cp_ring: int
    order: str
    micro_batch: int
    num_microbatches: int
    sharding: str

    @property
    def stage_ranks(self) -> int:
        return self.tp * self.cp * self.dp

    def strides(self) -> dict[str, int]:
        return dense_strides(self.order, {"tp": self.tp, "cp": self.cp, "dp": self.dp})


def naive_points(problem: Problem, where: Optional[dict] = None,
                 engine: Optional[EngineConstraints] = None) -> list[Point]:
    """Every point the rule table allows: the product of every choice, then the rules
    (`where`: only the points whose fields given there take those values; `engine`: the
    target's constraints, default the problem's target's)."""
    engine = engine or constraints(problem.train.target)
    tr, n = problem.train, problem.cluster.gpus
    gpn, gb = problem.cluster.domain_used, tr.global_batch
    out = []
    for tp, cp, dp, pp in product(_divisors(n), repeat=4):
        if tp * cp * dp * pp != n or tp > gpn:             # scope: tensor parallel inside a domain
            continue
        splits = [(cp_kind_of(u, cp // u), u, cp // u) for u in _divisors(cp)]
        for (kind, cu, cr), order, mb, vpp, sh in product(splits, ORDERS, tr.micro_batches,
                                                          range(1, tr.max_vpp + 1), tr.allowed_shardings):
            if gb % (dp * mb):
                continue                                   # micro-batches per step must be a whole number
            pt = Point(tp, cp, dp, pp, vpp, kind, cu, cr, order, mb, gb // (dp * mb), sh)
            if where and any(getattr(pt, k) != v for k, v in where.items()):
                continue
            if not engine.degree_violations(problem, world=n, master=tr.master, **pt.__dict__):
                out.append(pt)
    return out


def naive_folds(problem: Problem, pt: Point, engine: Optional[EngineConstraints] = None) -> list[tuple[int, int, int]]:
    """Every (etp, ep, edp) factoring of the stage's ranks the fold rules allow (etp inside
    a node: the search's scope)."""
    engine = engine or constraints(problem.train.target)
    n, gpn = pt.stage_ranks, problem.cluster.domain_used
    return [(etp, ep, n // (etp * ep)) for etp in _divisors(n) for ep in _divisors(n // etp)
            if etp <= gpn and not engine.degree_violations(problem, "fold", tp=pt.tp, cp=pt.cp, dp=pt.dp,
                                                            etp=etp, ep=ep, edp=n // (etp * ep))]


@dataclass
class BruteResult:
    best_ns: Optional[float]          # step time (ns) of the optimum, None if nothing fits
    layout: Optional[Layout]
    tuples: int                       # tuples enumerated (after `where`)
    wall_s: float
    capped: bool                      # stopped by max_tuples / time_limit before the end
    tuples_done: int = 0
    tie_layout: Optional[Layout] = None   # the layout planner/solve/tiebreak.py's order puts first; None
                                          # when capped or when more than MAX_TIES layouts tie (not settled)

    @property
    def tuples_total(self) -> int:
        return self.tuples


# Layouts within the tie-break's reach of the fastest that the brute force keeps for `_settle`: a
# reference run on a small problem keeps them all; a large, time-capped one (benchmarks/plan_speed.py's
# 64-GPU row) would keep millions (8 GiB in a minute) and settle them long past its time limit, so past
# this many it stops keeping them and reports no tie layout.
MAX_TIES = 100_000


def _splits(L: int, P: int, minimum: int):
    """Every contiguous split of L layers into P stages of at least `minimum` layers."""
    short = L - P * (minimum - 1)
    if short < P:
        return
    for cuts in combinations(range(1, short), P - 1):
        yield (0, *(c + (i + 1) * (minimum - 1) for i, c in enumerate(cuts)), L)


def _pareto(opts, dims: int = 3):
    """Options (t, d, o, payload, ...) not beaten on all of their first `dims` values (t, d, o,
    and where given memory and recompute), the first of ties kept."""
    if not opts:
        return []
    opts.sort(key=lambda o: (o[0], o[1], o[2]))
    a = np.array([[o[k] for k in range(dims) if k != 3] for o in opts])
    le = (a[:, None, :] <= a[None, :, :]).all(-1)            # le[g, f]: g is no worse than f everywhere
    earlier = np.arange(len(a))[:, None] < np.arange(len(a))[None, :]
    beaten = (le & ((a[:, None, :] < a[None, :, :]).any(-1) | earlier)).any(0)
    return [o for o, b in zip(opts, beaten) if not b]


def module_sets(problem: Problem) -> list[tuple[str, ...]]:
    """Every set of recompute modules a stage may run (those allowed that the model has)."""
    if "selective" not in problem.train.recompute:
        return [()]
    m = problem.model
    has = {"mlp": not all(m.moe_layers()), "moe_act": m.is_moe, "shared_experts": bool(m.moe and m.moe.shared_experts),
           "mla_up_proj": m.attention == "mla", "core_attn": True, "layernorm": True,
           "op": True}                                                 # torchtitan's per-op AC: every layer has one
    mods = [k for k in problem.train.recompute_modules if has.get(k, False)]
    # per-op AC replaces the layer's save set: it does not combine with a module (planner.layout.values)
    return [c for n in range(len(mods) + 1) for c in combinations(mods, n) if "op" not in c or len(c) == 1]


def model_forms(problem: Problem, vpp: int, engine: EngineConstraints) -> list[tuple]:
    """Every recompute an engine with one form for the whole model (Megatron's flags) can say, as
    (N, modules): no recompute (0, ()), selective modules (0, S), or block recompute of N layers per
    chunk (N, ()); a stage's full count is then engine.block_full(n, N, vpp)."""
    allowed = set(problem.train.recompute)
    out = [(0, ())] if "none" in allowed else []
    if "selective" in allowed:
        out += [(0, mods) for mods in module_sets(problem) if mods]
    if "full" in allowed:
        out += [(N, ()) for N in engine.block_counts(problem.model.layers, vpp)]
    return out


class _Scorer:
    """Stage options of one tuple, scored with the cost model's per-stage function."""

    def __init__(self, problem: Problem, tu, fl):
        self.problem, self.tu, self.fl = problem, tu, fl
        self.base = cm.model_values(problem)
        self.is_moe = problem.model.moe_layers()
        self.budget = problem.cluster.memory_budget_gib * cm.GiB
        allowed = set(problem.train.recompute)
        self.full_ok, self.none_ok = "full" in allowed, "none" in allowed
        self.sets = module_sets(problem)

    def inputs(self, fold_index: list[int]) -> dict[str, np.ndarray]:
        """The cost model's layout symbols (`costmodel.layout_values`) of this point under
        the foldings `fold_index`, one row each."""
        tu, n = self.tu, len(fold_index)
        st = tu.strides()
        x = {k: np.full(n, float(v)) for k, v in dict(
            tp=tu.tp, cp=tu.cp, dp=tu.dp, pp=tu.pp, vpp=tu.vpp, cu=tu.cp_ulysses, cr=tu.cp_ring,
            micro_batch=tu.micro_batch, num_microbatches=tu.num_microbatches, s_tp=st["tp"], s_cp=st["cp"],
            s_dp=st["dp"], sharding=SHARDINGS.index(tu.sharding),
            master=float(MASTERS.index(self.problem.train.master))).items()}
        for j, axis in enumerate(("etp", "ep", "edp")):
            x[axis] = np.array([self.fl[f][j] for f in fold_index], float)
        return cm.layout_values(self.problem, x)

    def signature(self) -> tuple:
        """Everything the cost model reads of this point: two points with the same
        signature score every split alike (the cost model is a pure function of it)."""
        x = self.inputs(list(range(len(self.fl))))
        return (self.tu.pp, self.tu.vpp, self.tu.num_microbatches,
                *((k, np.asarray(x[k], float).tobytes()) for k in sorted(x)))

    def options(self, i: int, lo: int, hi: int, only=None):
        """The stage's undominated options; `only` = (layers fully recomputed, modules): that
        recompute alone (one form for the whole model)."""
        tu, P = self.tu, self.tu.pp
        flags = self.is_moe[lo:hi]
        nm, n = sum(flags), hi - lo
        nd = n - nm
        if only is not None and only[0] and sum(flags[:only[0]]) != min(only[0], nm):
            return []     # Megatron's block recompute (first layers) would take other layers than MoE-first
        cand = []
        for f in range(len(self.fl)):
            for rf in (range(n + 1 if self.full_ok else 1) if only is None else [only[0]]):
                fm = min(rf, nm)
                for mods in (self.sets if only is None else [only[1]]):
                    if not self.none_ok and rf < n and not mods:
                        continue
                    cand.append((f, rf, fm, rf - fm, mods))
        if not cand:
            return []
        x = self.inputs([c[0] for c in cand])
        ints = {"L_d": nd, "L_m": nm, "e_f": int(i == 0), "e_l": int(i == P - 1), "h_m": int(nm > 0)}
        vals = {**self.base, **x, **{k: float(v) for k, v in ints.items()}}
        vals["Lf_d"] = np.array([c[3] for c in cand], float)
        vals["Lf_m"] = np.array([c[2] for c in cand], float)
        counts = [cm.module_counts(c[4], nd - c[3], nm - c[2]) for c in cand]
        for key in counts[0]:
            vals[key] = np.array([r[key] for r in counts], float)
        r = cm.stage(vals)
        k = cm.inflight(P, tu.vpp, tu.num_microbatches, i)
        mem = sum(r[t] for t in PERSISTENT_TERMS) + k * r["act_mb"]
        # the stage time of each candidate, as the cost model's step rule reads it
        st = cm.step.stage_time(lambda w: sum(c * r[t] for t, c in w.items()), self.problem.train.overlap_grad_reduce)
        t_stage, excess, opt = (np.broadcast_to(x, mem.shape) for x in (st.micro_batch(np.maximum), st.excess, st.opt))
        rc = lambda j: (cand[j][1], sum(counts[j].values()))          # full layers, module-layers
        opts = [(float(t_stage[j]), float(max(0.0, excess[j])), float(opt[j]), cand[j], float(mem[j]),
                 *rc(j)) for j in np.flatnonzero(mem <= self.budget)]
        return _pareto(opts, dims=7)

    def layout(self, bnds, combo) -> Layout:
        tu = self.tu
        stages = []
        for i, (_, _, _, (f, rf, _, _, mods), *_) in enumerate(combo):
            n = bnds[i + 1] - bnds[i]
            etp, ep, edp = self.fl[f]
            stages.append(Stage(index=i, layers=(bnds[i], bnds[i + 1]), etp=etp, ep=ep, edp=edp, recompute_full=rf,
                                recompute_selective=(n - rf) if mods else 0, recompute_modules=mods or ("core_attn",)))
        return layout_of(tu, self.problem, stages)


def brute_force(problem: Problem, max_tuples: Optional[int] = None, time_limit: Optional[float] = None,
                where: Optional[dict] = None, engine: Optional[EngineConstraints] = None) -> BruteResult:
    """`where` pins point fields (as planner.solve.search's `fixed`); `engine`: the target's
    constraints (planner.engines.constraints; default the problem's target's)."""
    engine = engine or constraints(problem.train.target)
    t0 = time.perf_counter()
    over = lambda: time_limit is not None and time.perf_counter() - t0 > time_limit
    tuples = naive_points(problem, where, engine)
    capped = False
    if max_tuples is not None and len(tuples) > max_tuples:
        tuples, capped = tuples[:max_tuples], True
    best: list = []                                    # [(step seconds, layout)] once one fits
    ties: list = []                                    # [(step s, peak, scorer, bounds, combo)] near the best
    seen: set = set()
    overflow: list = []                                # non-empty once more than MAX_TIES layouts tied
    done = 0
    for tu in tuples:
        if over():
            capped = True
            break
        done += 1
        fl = naive_folds(problem, tu, engine)
        # uniform expert fold: an engine that sets EP / ETP once runs one folding in every stage
        groups = [[f] for f in fl] if engine.uniform_fold else [fl]
        # one recompute form for the model (Megatron's: its recompute.py block_counts / block_full)
        forms = model_forms(problem, tu.vpp, engine) if engine.one_recompute_form else [None]
        for sc in (_Scorer(problem, tu, g) for g in groups if g):
            sig = sc.signature()
            if sig in seen:               # an earlier point bound the same inputs: it scored the same
                continue
            seen.add(sig)
            if _best_of(sc, forms, best, over, ties, engine.block_full, overflow):
                capped = True
                break
    wall = time.perf_counter() - t0
    top = best[0] if best else None
    settle = top and not capped and not overflow
    return BruteResult(top[0] * 1e9 if top else None, top[1] if top else None, len(tuples), wall, capped, done,
                       _settle(problem, ties, top[0]) if settle else None)


def _settle(problem: Problem, ties: list, fastest: float) -> Layout:
    """planner/solve/tiebreak.py's first plan among the scored layouts: the sane window, then
    the least peak, recompute and simplicity (tiebreak.order_key on the layout itself)."""
    rows = [r for r in ties if r[0] < fastest * (1 + tiebreak.REACH)]
    cap, sane = tiebreak.window(problem, [(r[0] * 1e9, r[2].tu) for r in rows])
    rows = [r for r in rows if r[0] * 1e9 < cap and not (sane and tuple_flags(problem, r[2].tu))]
    least = min(tiebreak.memory_step(problem, r[1]) for r in rows)
    layouts = [r[2].layout(r[3], r[4]) for r in rows if tiebreak.memory_step(problem, r[1]) == least]
    return min(layouts, key=lambda L: (tiebreak.order_key(problem, L, cm.evaluate(problem, L)),
                                       cm.evaluate(problem, L).step_time))


def _best_of(sc: _Scorer, forms: list, best: list, over, ties: list, block_full=None, overflow=None) -> bool:
    """Score every split of one point under each recompute form (`block_full`: the engine's, for forms
    other than None); keep the fastest layout in `best` (replaced only by a strictly faster one) and the
    layouts near it in `ties` until MAX_TIES (then `overflow` is non-empty and `ties` no longer kept). True
    when stopped by the clock."""
    overflow = [] if overflow is None else overflow
    tu, L = sc.tu, sc.problem.model.layers
    memo: dict = {}
    # vpp > 1: the splits whose ranks' interleaved chunks hold the kinds of their ranges (the
    # search's space, planner.layout.placement.range_kinds_hold), scored by range below
    least_first = range_kinds_hold(sc.is_moe, tu.vpp) if tu.pp > 1 else 0
    for bnds in _splits(L, tu.pp, tu.vpp):
        if over():
            return True
        if least_first is None or bnds[1] < least_first:
            continue
        for form in forms:
            per_stage = []
            for i in range(tu.pp):
                n = bnds[i + 1] - bnds[i]
                only = None if form is None else (form[0] and block_full(n, form[0], tu.vpp), form[1])
                key = (i, bnds[i], bnds[i + 1], only)
                if key not in memo:
                    memo[key] = [] if only is not None and only[0] is None else \
                        sc.options(i, bnds[i], bnds[i + 1], only)
                per_stage.append(memo[key])
            if any(not o for o in per_stage):
                continue
            for n_combo, combo in enumerate(product(*per_stage)):
                if n_combo % 4096 == 4095 and over():
                    return True
                step, _, _ = cm.step_time(tu.num_microbatches, tu.pp, tu.vpp, [o[0] for o in combo],
                                          [0.0] * tu.pp, [o[1] for o in combo], [o[2] for o in combo])
                if not best or step < best[0][0]:
                    best[:] = [(step, sc.layout(bnds, combo))]
                    ties[:] = [r for r in ties if r[0] < step * (1 + REACH)]
                if step < best[0][0] * (1 + REACH):
                    if len(ties) >= MAX_TIES:          # too many to settle: stop keeping them, say so
                        overflow.append(True)
                        ties.clear()
                    if not overflow:
                        ties.append((step, max(o[4] for o in combo), sc, bnds, combo))
    return False

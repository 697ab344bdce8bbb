"""The outer search space: every legal degree tuple, and its per-layer cost tables.

A *tuple* fixes (tp, cp, dp, pp, vpp, cp kind and split, rank order, micro-batch); the
expert folding (etp, ep, edp) is chosen per stage by the inner model, from the *folds*
of the tuple: every factoring of tp*cp*dp that the model allows.

`tables(problem, tuples)` evaluates the cost model once, vectorised, over every
(tuple, fold) pair and returns integer tables (bytes, nanoseconds) that both the CP-SAT
stage model and the brute-force reference read, so the two optimise the same numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from planner import costmodel as cm
from planner.specs import Problem

NS = 1e9          # seconds -> integer nanoseconds


def divisors(n: int) -> list[int]:
    return [k for k in range(1, n + 1) if n % k == 0]


@dataclass(frozen=True)
class Tuple:
    tp: int
    cp: int
    dp: int
    pp: int
    vpp: int
    cp_kind: str
    cu: int
    cr: int
    order: str
    micro_batch: int
    num_microbatches: int

    @property
    def stage_ranks(self) -> int:
        return self.tp * self.cp * self.dp

    def strides(self) -> dict[str, int]:
        size = {"tp": self.tp, "cp": self.cp, "dp": self.dp}
        out, s = {}, 1
        for ax in self.order.split("-")[:-1]:
            out[ax] = s
            s *= size[ax]
        return out


def _orders(tp: int, cp: int, dp: int, cu: int, gpn: int) -> list[str]:
    """Rank orders that differ in which groups stay inside a node. The cost model sees
    an order only through that (tp, Ulysses part of cp, ring part of cp, dp x cp), so
    orders with the same four answers cost the same: keep the first of each."""
    size = {"tp": tp, "cp": cp, "dp": dp}
    seen, out = set(), []
    for perm in permutations(("tp", "cp", "dp")):
        stride, acc = {}, 1
        for ax in perm:
            stride[ax] = acc
            acc *= size[ax]
        key = (stride["tp"] * tp <= gpn or tp == 1, stride["cp"] * cu <= gpn or cu == 1,
               stride["cp"] * cp <= gpn or cp == cu,
               max(stride["dp"] * dp, stride["cp"] * cp) <= gpn or dp * cp == 1)
        if key in seen:
            continue
        seen.add(key)
        out.append("-".join(perm) + "-pp")
    return out


def folds(problem: Problem, stage_ranks: int) -> list[tuple[int, int, int]]:
    """(etp, ep, edp) with etp*ep*edp == stage_ranks that the model allows."""
    moe = problem.model.moe
    if moe is None or not problem.model.is_moe:
        return [(1, 1, stage_ranks)]
    gpn = problem.cluster.gpus_per_node
    out = []
    for etp in divisors(stage_ranks):
        if moe.expert_ffn_hidden % etp or etp > gpn:
            continue
        for ep in divisors(stage_ranks // etp):
            if moe.experts % ep:
                continue
            out.append((etp, ep, stage_ranks // (etp * ep)))
    return out


def enumerate_tuples(problem: Problem) -> list[Tuple]:
    """Every legal tuple (the rules of planner/layout.py applied to the degrees)."""
    mo, tr = problem.model, problem.train
    n, gpn = problem.cluster.gpus, problem.cluster.gpus_per_node
    gb = tr.global_batch
    out = []
    for tp in divisors(n):
        if tp > gpn or mo.heads % tp or (mo.attention == "gqa" and mo.kv_heads % tp and tp % mo.kv_heads):
            continue
        for pp in divisors(n // tp):
            if pp > mo.layers:
                continue
            for cp in divisors(n // (tp * pp)):
                dp = n // (tp * pp * cp)
                if gb % dp:
                    continue
                if cp > 1 and tr.seq % (cp * (tp if tr.sequence_parallel else 1)):
                    continue
                kinds = []
                heads_tp = mo.heads // tp
                if cp == 1:
                    kinds = [("ring", 1, 1)]
                else:
                    if "ring" in tr.cp_kinds and tr.seq % (2 * cp) == 0:
                        kinds.append(("ring", 1, cp))
                    if "ulysses" in tr.cp_kinds and heads_tp % cp == 0:
                        kinds.append(("ulysses", cp, 1))
                    if "hybrid" in tr.cp_kinds:
                        for cu in divisors(cp):
                            cr = cp // cu
                            if 2 <= cu and 2 <= cr and heads_tp % cu == 0 and tr.seq % (2 * cr) == 0:
                                kinds.append(("hybrid", cu, cr))
                for mb in tr.micro_batches:
                    if (gb // dp) % mb:
                        continue
                    m = gb // (dp * mb)
                    for vpp in range(1, tr.max_vpp + 1):
                        if vpp > 1 and (pp < 2 or m % pp or mo.layers < pp * vpp):
                            continue
                        for kind, cu, cr in kinds:
                            for order in _orders(tp, cp, dp, cu, gpn):
                                out.append(Tuple(tp, cp, dp, pp, vpp, kind, cu, cr, order, mb, m))
    return out


@dataclass
class Tables:
    """Integer cost tables of (tuple, fold) rows. Index rows with `rows[t]` (a slice)."""
    tuples: list[Tuple]
    folds: list[list[tuple[int, int, int]]]
    rows: list[slice]
    # per row (bytes / nanoseconds)
    w_dense: np.ndarray
    w_moe: np.ndarray
    a_dense: np.ndarray
    a_moe: np.ndarray
    a_full: np.ndarray
    a_sel: np.ndarray
    t_dense: np.ndarray
    t_moe: np.ndarray
    c_dense: np.ndarray          # compute-only part of t_dense (the DP overlap window)
    c_moe: np.ndarray
    rc_dense: np.ndarray
    rc_moe: np.ndarray
    rc_sel: np.ndarray
    w_first: np.ndarray
    w_last: np.ndarray
    a_last: np.ndarray
    t_last: np.ndarray
    buf_dense: np.ndarray
    buf_moe: np.ndarray
    dp_dense: np.ndarray
    dp_moe_dense: np.ndarray
    edp_moe: np.ndarray
    dp_first: np.ndarray
    dp_last: np.ndarray
    t_pp: np.ndarray
    o_dense: np.ndarray          # optimizer step per step (ns) of one layer's / the extras' params
    o_moe: np.ndarray
    o_first: np.ndarray
    o_last: np.ndarray
    has_dp: np.ndarray
    has_edp: np.ndarray


def tables(problem: Problem, tuples: list[Tuple], fold_filter=None) -> Tables:
    fold_cache: dict[int, np.ndarray] = {}
    fold_lists, rows, counts = [], [], []
    start = 0
    for tu in tuples:
        key = tu if fold_filter is not None else tu.stage_ranks
        if key not in fold_cache:
            fl = [f for f in folds(problem, tu.stage_ranks) if fold_filter is None or fold_filter(tu, f)]
            fold_cache[key] = (np.asarray(fl, float).reshape(-1, 3), fl)
        fl, fl_list = fold_cache[key]
        fold_lists.append(fl_list)
        rows.append(slice(start, start + len(fl)))
        counts.append(len(fl))
        start += len(fl)
    counts = np.asarray(counts)
    def row(tu):
        st = tu.strides()
        return (tu.tp, tu.cp, tu.dp, tu.pp, tu.vpp, tu.cu, tu.cr, tu.micro_batch, tu.num_microbatches,
                st["tp"], st["cp"], st["dp"])
    per_tuple = np.array([row(tu) for tu in tuples], float)
    rep = np.repeat(per_tuple, counts, axis=0)
    fold_rows = (np.concatenate([fold_cache[tu if fold_filter is not None else tu.stage_ranks][0] for tu in tuples])
                 if tuples else np.zeros((0, 3)))
    names = ("tp", "cp", "dp", "pp", "vpp", "cu", "cr", "micro_batch", "num_microbatches", "s_tp", "s_cp", "s_dp")
    cols = {n: rep[:, i] for i, n in enumerate(names)}
    cols.update(etp=fold_rows[:, 0], ep=fold_rows[:, 1], edp=fold_rows[:, 2])
    x = {k: np.asarray(v, float) for k, v in cols.items()}
    lt = cm.layer_terms(problem, x)
    r = lt.raw
    mem = lambda a: np.ceil(np.asarray(a, float)).astype(np.int64)
    ns = lambda a: np.rint(np.asarray(a, float) * NS).astype(np.int64)
    # compute-only (the DP overlap window) = time minus the per-layer exposed comm
    c_dense = lt.t_dense - (lt.comm["tp_dense"] + lt.comm["cp"])
    c_moe = lt.t_moe - (lt.comm["tp_moe"] + lt.comm["cp"] + lt.comm["ep"])
    tp = x["tp"]
    # last-stage extras, with the tied-embedding rule of costmodel.evaluate
    tied = problem.model.tied_embeddings
    mo = problem.model
    return Tables(
        tuples=tuples, folds=fold_lists, rows=rows,
        w_dense=mem(lt.w_dense), w_moe=mem(lt.w_moe), a_dense=mem(lt.a_dense), a_moe=mem(lt.a_moe),
        a_full=mem(lt.a_full), a_sel=np.floor(lt.a_sel_saving).astype(np.int64),
        t_dense=ns(lt.t_dense), t_moe=ns(lt.t_moe), c_dense=ns(c_dense), c_moe=ns(c_moe),
        rc_dense=ns(lt.rc_dense), rc_moe=ns(lt.rc_moe), rc_sel=ns(lt.rc_sel),
        w_first=mem(lt.w_first), w_last=mem(lt.w_last), a_last=mem(lt.a_last), t_last=ns(lt.t_last),
        buf_dense=mem(lt.buf_dense), buf_moe=mem(lt.buf_moe),
        dp_dense=ns(lt.dp_dense), dp_moe_dense=ns(lt.dp_moe_dense), edp_moe=ns(lt.edp_moe),
        dp_first=ns(lt.dp_first), dp_last=ns(lt.dp_last), t_pp=ns(lt.pp_time),
        o_dense=ns(lt.o_dense), o_moe=ns(lt.o_moe), o_first=ns(lt.o_first), o_last=ns(lt.o_last),
        has_dp=(x["dp"] * x["cp"] > 1), has_edp=(x["edp"] > 1),
    )
    return tab


_FOLD_COSTS = ("w_moe", "a_moe", "t_moe", "rc_moe", "edp_moe", "buf_moe", "w_last", "a_last", "t_last", "dp_last",
               "w_first", "dp_first", "o_moe", "o_first", "o_last")


def undominated(tab: Tables, ti: int) -> list[int]:
    """Rows of tuple ti whose fold no other fold of the tuple beats or ties on every cost
    (with a compute window no smaller): the stage model never needs the others."""
    sl = tab.rows[ti]
    block = np.stack([getattr(tab, n)[sl] for n in _FOLD_COSTS] + [-tab.c_moe[sl]], axis=1)
    n = len(block)
    le = (block[:, None, :] <= block[None, :, :]).all(-1)        # le[g, f]: g <= f everywhere
    lt = (block[:, None, :] < block[None, :, :]).any(-1)
    earlier = np.arange(n)[:, None] < np.arange(n)[None, :]
    dominated = ((le & lt) | (le & earlier)).any(0)
    return [sl.start + i for i in range(n) if not dominated[i]]

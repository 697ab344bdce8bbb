"""Context parallelism as each engine runs it (planner.specs.cp_impl, planner.costmodel.cp_terms): the
causal load of each balancing scheme against a count of the causal mask, the exposed K/V traffic of
each implementation against the arithmetic of its collectives, the gathered K/V's memory, the
FlexAttention kernel against the paper's ratios, and each engine's config read and written with its
implementation."""
import numpy as np
import pytest

import planner.costmodel.compile as cc
from planner import costmodel as cm
from planner.audit import detect
from planner.audit.audit import run_audit
from planner.engines import constraints, export
from planner.layout import Layout, uniform_stages
from planner.specs import make_problem
from planner.specs.cp_impl import CP_TERMS, FLEX_BWD_OF_FUSED, FLEX_FWD_OF_FUSED, causal_imbalance, causal_share
from planner.specs.kinds import CP_BALANCES, CP_COMMS


def _chunks(balance, c, S):
    """Token ranges per rank: head-tail = chunks r and 2c-1-r of 2c (torch _HeadTailLoadBalancer,
    TE / Megatron zig-zag), none = chunk r of c."""
    if balance == "none":
        return [[range(r * S // c, (r + 1) * S // c)] for r in range(c)]
    k = S // (2 * c)
    return [[range(r * k, (r + 1) * k), range((2 * c - 1 - r) * k, (2 * c - r) * k)] for r in range(c)]


@pytest.mark.parametrize("balance", CP_BALANCES)
@pytest.mark.parametrize("c", [2, 3, 4, 8])
def test_causal_share_counts_the_mask(balance, c):
    """Each rank's share of the causal triangle: its queries' visible keys (j <= i) counted one by one
    over all query-key pairs of the mask, in the limit of many tokens (the exact share of a token grid
    differs by the diagonal, O(1/S))."""
    S = 2 * c * 64
    total = S * (S + 1) / 2
    for r, ranges in enumerate(_chunks(balance, c, S)):
        counted = sum(i + 1 for rg in ranges for i in rg) / total
        assert counted == pytest.approx(causal_share(balance, r, c), abs=2 / S)
    imb = max(sum(i + 1 for rg in ranges for i in rg) for ranges in _chunks(balance, c, S)) / (total / c)
    assert imb == pytest.approx(causal_imbalance(balance, c), abs=4 * c / S)


def test_vocabularies_once():
    assert tuple(CP_TERMS) == CP_COMMS
    assert set(CP_BALANCES) == {"headtail", "none"}


def _problem(target="megatron", gpus=8, seq="128k", **kw):
    return make_problem(model="llama3-8b", gpu="h100-sxm", gpus=gpus, seq=seq, global_batch=gpus,
                        memory_gib=10_000, **{**constraints(target).train_defaults(), **kw})


def _layout(p, cp=8, tp=1, comm="p2p", balance="headtail", full=0):
    dp = p.cluster.gpus // (cp * tp)
    return Layout(world=p.cluster.gpus, tp=tp, cp=cp, dp=dp, micro_batch=1, num_microbatches=p.train.global_batch // dp,
                  cp_comm=comm, cp_balance=balance, sharding="zero1",
                  stages=uniform_stages(p.model.layers, 1, recompute_full=full))


def _terms(p, L):
    vals = {**cm.model_values(p), **cm.layout_values(p, cm.layout_vector(L))}
    return {k: float(np.asarray(v).ravel()[0]) for k, v in cc.formulas(vals).items()}


def test_unbalanced_attention_runs_at_the_last_ranks_pace():
    """T_core without load balancing = T_core with head-tail x (2c - 1) / c: the last rank holds
    (2c - 1) / c^2 of the causal triangle (counted above)."""
    p = _problem()
    for c in (2, 4, 8):
        bal, unbal = (_terms(p, _layout(p, cp=c, balance=b))["T_core"] for b in ("headtail", "none"))
        assert unbal / bal == pytest.approx((2 * c - 1) / c, rel=1e-9)


def test_exposed_kv_traffic_per_implementation():
    """The exposed K/V traffic of one layer against the arithmetic of each engine's collectives: K and V
    of this rank are 2 bytes x S/c tokens x 2 x kv heads x head dim; an all-gather or reduce-scatter
    of the whole K/V over c ranks moves (c - 1) x that at the ring's bus bandwidth plus c - 1 hops."""
    p = _problem()
    gpu, m, c = p.cluster.gpu, p.model, 8
    kv = 2 * (p.train.seq // c) * 2 * m.kv_heads * m.head_dim
    W = gpu.intra_node_bw * gpu.bus_efficiency
    gather = (c - 1) * kv / W + (c - 1) * gpu.latency_s
    t = {comm: _terms(p, _layout(p, cp=c, comm=comm)) for comm in CP_COMMS}
    step = t["p2p"]["T_core"] / c
    # TE allgather: gather forward, gather + reduce-scatter backward, none overlapped
    assert t["ag-te"]["X_ring_exposed"] == pytest.approx(3 * gather, rel=1e-9)
    # torch FlexAttention CP: gather forward (kept), reduce-scatter backward
    assert t["ag-flex"]["X_ring_exposed"] == pytest.approx(2 * gather, rel=1e-9)
    # p2p: each pass behind its own step (3 (c-1) passes' worth, forward + backward)
    assert t["p2p"]["X_ring_exposed"] == pytest.approx(3 * (c - 1) * max(0.0, kv / W + gpu.latency_s - step), abs=1e-12)
    # SDPA all-gather rotation: the gather behind the first block (forward, and 2x in backward), fp32 dK/dV passes
    want = (max(0.0, gather - step) + max(0.0, gather - 2 * step)
            + (c - 1) * max(0.0, 2 * kv / W + gpu.latency_s - 2 * step))
    assert t["ag-ring"]["X_ring_exposed"] == pytest.approx(want, rel=1e-9, abs=1e-12)
    # the gathered K/V that FlexAttention saves for backward: (c - 1) x this rank's K/V per layer
    assert t["ag-flex"]["A_attn"] - t["p2p"]["A_attn"] == pytest.approx((c - 1) * kv, rel=1e-9)
    # a full recompute repeats the exposed forward gather (ag-te / ag-flex), not the hidden passes
    assert (t["ag-te"]["X_ring_rc"], t["ag-flex"]["X_ring_rc"], t["p2p"]["X_ring_rc"]) == \
        (pytest.approx(gather), pytest.approx(gather), 0.0)


def test_flex_kernel_is_the_papers_share_of_the_fused_curve():
    """FlexAttention forward at 85%, backward at 76% of the fused (FlashAttention-3 on H100) kernel
    (arXiv 2412.05496): one forward F and backward 2F take F/0.85 + 2F/0.76 fused-kernel times."""
    gpu = _problem().cluster.gpu
    fused, half = gpu.attention_curve("fused")
    flex, half_flex = gpu.attention_curve("flex")
    F = 1.0
    assert 3 * F / flex == pytest.approx(F / (FLEX_FWD_OF_FUSED * fused) + 2 * F / (FLEX_BWD_OF_FUSED * fused))
    assert half_flex == half


def test_each_target_prices_its_own_cp():
    """The same layout: Megatron's p2p ring hides its passes at 128k; torchtitan 0.3's FlexAttention
    CP all-gathers K/V in the open and runs a slower kernel, so it costs more; TE's allgather costs
    more than the ring; an unbalanced mask costs more than head-tail."""
    mp, tp = _problem("megatron"), _problem("torchtitan")
    assert (mp.train.cp_comm, tp.train.cp_comm, tp.train.attention_kernel) == ("p2p", "ag-flex", "flex")
    ring = cm.evaluate(mp, _layout(mp, comm="p2p"))
    assert ring.exposed["cp"] < 0.01 * ring.step_time
    allgather = cm.evaluate(mp, _layout(mp, comm="ag-te"))
    assert allgather.exposed["cp"] > 0 and allgather.step_time > ring.step_time
    fused = tp.model_copy(update={"train": tp.train.model_copy(update={"attention_kernel": "fused"})})
    flex = cm.evaluate(tp, _layout(tp, comm="ag-flex"))
    gathered, passed = (cm.evaluate(fused, _layout(tp, comm=k)) for k in ("ag-flex", "p2p"))
    assert flex.step_time > gathered.step_time > passed.step_time      # the kernel, then the exposed all-gather
    unbalanced = cm.evaluate(mp, _layout(mp, comm="p2p", balance="none"))
    assert unbalanced.step_time > ring.step_time
    # the targets' rules keep plans to what the engine runs
    assert any(v.rule == "target.cp_comm" for v in constraints("megatron").violations(_layout(mp, comm="ag-flex"), mp))
    assert any(v.rule == "target.cp_comm" for v in constraints("torchtitan").violations(_layout(tp, comm="p2p"), tp))
    assert not [v for v in constraints("olmo-core").violations(_layout(mp, comm="p2p"), mp) if v.rule == "target.cp_comm"]


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


MEGATRON = """#!/bin/bash
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\
  --group-query-attention --num-query-groups 8 --ffn-hidden-size 14336 --swiglu --seq-length 131072 \\
  --max-position-embeddings 131072 --micro-batch-size 1 --global-batch-size 8 --context-parallel-size 8 {flag} \\
  --position-embedding-type rope --normalization RMSNorm --untie-embeddings-and-output-weights --bf16
"""


@pytest.mark.parametrize("flag, comm", [("", "p2p"), ("--cp-comm-type p2p", "p2p"), ("--cp-comm-type allgather", "ag-te")])
def test_audit_reads_megatron_cp_comm_type(tmp_path, flag, comm):
    cfg = detect.load(_write(tmp_path, "train.sh", MEGATRON.format(flag=flag)))
    assert cfg.extra["cp_comm"] == comm
    rep = run_audit(cfg, _problem(), search=False)
    assert rep.layout.cp_comm == comm and rep.problem.train.cp_comm == comm
    assert rep.estimate.step_time == pytest.approx(cm.evaluate(rep.problem, rep.layout).step_time)


TOML = """[job]
description = "cp"
[model]
name = "llama3"
flavor = "8B"
[training]
seq_len = 131072
local_batch_size = 1
[parallelism]
data_parallel_shard_degree = 1
context_parallel_degree = 8
{rotate}
"""


@pytest.mark.parametrize("rotate, comm", [("", "ag-ring"), ('context_parallel_rotate_method = "allgather"', "ag-ring"),
                                          ('context_parallel_rotate_method = "alltoall"', "p2p")])
def test_audit_reads_torchtitan_02_rotate_method(tmp_path, rotate, comm):
    cfg = detect.load(_write(tmp_path, "job.toml", TOML.format(rotate=rotate)))
    assert (cfg.extra["cp_comm"], cfg.extra["cp_balance"]) == (comm, "headtail")


def test_export_round_trips_the_cp_implementation(tmp_path):
    """Megatron: a plan priced as TE's allgather CP is written as --cp-comm-type allgather and read
    back as it; torchtitan 0.3: a plan is FlexAttention CP, and its unbalanced form is written as
    context_parallel_load_balancer = None and read back (the engines' judges check the files:
    tests/test_engine_megatron.py, tests/test_engine_torchtitan.py)."""
    from megatron_cases import make
    plan = make("llama3-8b", 16, "64k", 16, tp=2, cp=4, full=[32], comm="ag-te")
    path = export.write(plan, "megatron", str(tmp_path / "train.sh"))[0]
    assert "--cp-comm-type allgather" in open(path).read()
    rep = run_audit(detect.load(path), plan.problem, search=False)
    assert rep.layout.cp_comm == "ag-te"
    assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=0.01)
    tt = make("llama3-8b", 16, "64k", 16, cp=4, full=[32], target="torchtitan", sharding="zero3")
    L = tt.layout.model_copy(update={"cp_balance": "none"})
    tt = type(tt)(tt.problem, L, cm.evaluate(tt.problem, L), {})
    path, = export.write(tt, "torchtitan", str(tmp_path / "job.py"))
    assert "context_parallel_load_balancer = None" in open(path).read()
    cfg = detect.load(path)
    assert (cfg.extra["cp_comm"], cfg.extra["cp_balance"], cfg.extra["attention_kernel"]) == ("ag-flex", "none", "flex")


def test_layout_string_carries_the_cp_implementation():
    from planner.layout.strings import parse
    cfg = parse("tp=1,cp=8,dp=1,cp_comm=ag-te,cp_balance=none")
    assert (cfg.extra["cp_comm"], cfg.extra["cp_balance"]) == ("ag-te", "none")
    from planner.layout.foreign import AuditParseError
    with pytest.raises(AuditParseError, match="cp_comm must be one of p2p, ag-ring, ag-te, ag-flex, got 'ring'"):
        parse("tp=1,cp=8,cp_comm=ring")


def test_nemo_long_sequence_rows():
    """benchmarks/fidelity_cp.py: Llama-2-7B as its config.json gives it has 6,738,415,616 parameters
    (the count of meta-llama/Llama-2-7b-hf's weights); one GPU per 1k tokens, 4M-token batches; a row
    with CP is planned with the p2p ring NeMo's Megatron path runs."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import fidelity_cp as f
    assert cm.param_counts(f.LLAMA2_7B)["total"] == 6_738_415_616
    assert all(r.gpus == r.seq_k for r in f.RUNS)
    assert all((f.BATCH_TOKENS // r.seq) * r.seq == 4 * 2 ** 20 for r in f.RUNS)
    row = f.evaluate(next(r for r in f.RUNS if r.cp == 2), time_limit=5)
    assert row.tflops_est > 0 and row.run.problem().train.cp_comm == "p2p"


def test_audit_reads_olmo_core_zig_zag_as_the_p2p_ring(tmp_path):
    """OLMo-core's ring CP is the zig_zag strategy (ring-flash-attn's zigzag ring, p2p); its export
    writes it and the reader prices it so."""
    from test_engine_olmo_core import ENGINE, hand_plan
    plan = hand_plan("llama3-8b", 32, "16k", "2M", tp=2, cp=2, pp=2, split=[15, 17], full=[8, 8])
    path = tmp_path / "train.py"
    path.write_text(export.render(plan, ENGINE)["train.py"])
    assert "zig_zag" in path.read_text()
    cfg = detect.load(str(path))
    assert (cfg.cp, cfg.extra["cp_comm"], cfg.extra["cp_balance"]) == (2, "p2p", "headtail")

"""Routing as a job input: the expert-load skew model (planner/costmodel/routing.py)
against outside numbers, forced vs dropless vs capacity on one MoE model, the CLI and the Megatron reader."""
import math

import numpy as np
import pytest

from planner import costmodel as cm
from planner.costmodel import routing
from planner.layout import Layout, Stage
from planner.specs import make_problem
from planner.specs.types import SpecError


def test_max_of_normals_closed_form():
    # the maximum of two standard normals: mean 1/sqrt(pi), variance 1 - 1/pi (closed form)
    mean, sd = routing.max_z_moments(2)
    assert mean == pytest.approx(1 / math.sqrt(math.pi), rel=1e-4)
    assert sd == pytest.approx(math.sqrt(1 - 1 / math.pi), rel=1e-3)


@pytest.mark.parametrize("experts,ep,rows,sigma", [(8, 8, 8192, 0.0), (64, 8, 4096, 0.2), (128, 16, 32768, 0.1)])
def test_busiest_rank_matches_a_simulation(experts, ep, rows, sigma):
    """The busiest rank under multinomial routing with normal expert popularity, simulated."""
    rng = np.random.default_rng(0)
    busiest = []
    for _ in range(300):
        pop = np.clip(1 + sigma * rng.standard_normal(experts), 0.01, None)
        pop = pop / pop.sum()
        counts = rng.multinomial(rows * ep, pop)
        busiest.append(counts.reshape(ep, -1).sum(1).max() / rows)
    model = 1 + routing.expected_max_z(ep) * float(routing.rank_spread(rows, experts, ep, sigma))
    assert model == pytest.approx(np.mean(busiest), rel=0.02)


def test_forced_matches_deepseek_v3_profile():
    """DeepSeek-V3's training profile (REFERENCE.md: EP64, forced balance, 4,096 tokens x top-8):
    ~32.3k rows on one rank's 4 experts, inside the forced model's memory band around 32,768."""
    p = make_problem(model="deepseek-v3", gpus=64, seq=4096, global_batch=64, routing="forced", routing_memory="tail")
    imb, mem = routing.imbalance(p.train, p.model.moe, np.array([4096 * 8.0]), np.array([64.0]))
    lo = 2 - float(mem[0])
    assert lo * 32768 < 32.3e3 < float(mem[0]) * 32768 and float(imb[0]) < 1.02


def _layout(p, ep, mb=1):
    n = p.model.layers
    st = (Stage(index=0, layers=(0, n), etp=1, ep=ep, edp=p.cluster.gpus // ep),)
    return Layout(world=p.cluster.gpus, tp=1, cp=1, dp=p.cluster.gpus, pp=1, micro_batch=mb,
                  num_microbatches=p.train.global_batch // (p.cluster.gpus * mb), sharding="zero1",
                  master=p.train.master, stages=st)


def _step(model, seq, ep, **train):
    p = make_problem(model=model, gpus=16, seq=seq, global_batch=64, memory_gib=10_000, **train)
    return cm.evaluate(p, _layout(p, ep)).step_time


def test_forced_faster_and_dropless_closer_at_longer_sequences():
    """On Qwen3-30B-A3B (EP16): forced > dropless in throughput; the gap shrinks as tokens per
    EP rank grow with the sequence (the MoE share of the step shrinks)."""
    ratios = []
    for seq in (4096, 16384, 65536):
        forced, dropless = _step("qwen3-30b-a3b", seq, 16, routing="forced"), _step("qwen3-30b-a3b", seq, 16)
        assert dropless > forced
        ratios.append(dropless / forced)
    assert ratios[0] > ratios[1] > ratios[2] > 1


def test_dropless_imbalance_falls_with_rows():
    p = make_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, global_batch=16)
    imb, _ = routing.imbalance(p.train, p.model.moe, np.array([256.0, 4096.0, 65536.0]), np.array([16.0] * 3))
    assert imb[0] > imb[1] > imb[2] > 1


MOE = make_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, global_batch=16).model.moe
MIXTRAL = make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=8).model.moe


def test_balancing_orders_the_imbalance():
    rows, ep = np.array([32768.0]), np.array([16.0])
    got = {b: float(routing.imbalance(make_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, global_batch=16,
                                                   balancing=b).train, MOE, rows, ep)[0][0])
           for b in ("aux-loss", "aux-free")}
    forced = make_problem(model="qwen3-30b-a3b", gpus=16, seq=4096, global_batch=16, routing="forced").train
    assert got["aux-loss"] > got["aux-free"] > float(routing.imbalance(forced, MOE, rows, ep)[0][0]) > 1


def test_capacity_bounds_work_and_memory():
    base = dict(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=8)
    rows, ep = np.array([8192.0]), np.array([8.0])
    drop = make_problem(**base).train
    d_imb, d_mem = routing.imbalance(drop, MIXTRAL, rows, ep)
    for cf in (1.0, 1.25, 2.0, 5.0):
        t = make_problem(**base, routing=f"capacity={cf}").train
        imb, mem = routing.imbalance(t, MIXTRAL, rows, ep)
        assert imb[0] <= min(cf, d_imb[0]) + 1e-9 and mem[0] <= cf + 1e-9
    t5 = make_problem(**base, routing="capacity=5").train
    assert routing.imbalance(t5, MIXTRAL, rows, ep)[0][0] == pytest.approx(d_imb[0], rel=1e-3)
    pad = make_problem(**base, routing="capacity=1.5", capacity_pad=True).train
    assert tuple(float(x[0]) for x in routing.imbalance(pad, MIXTRAL, rows, ep)) == (1.5, 1.5)
    # capacity 1 -> 5 costs throughput when routing is not forced
    assert _step("mixtral-8x7b", 4096, 8, routing="capacity=5") > _step("mixtral-8x7b", 4096, 8, routing="capacity=1")


def test_routing_spec_errors_are_one_line():
    with pytest.raises(SpecError, match="routing"):
        make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=8, routing="capacity=0")
    with pytest.raises(SpecError, match="capacity"):
        make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=8, routing="capacity")
    t = make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=8, capacity_factor=1.25).train
    assert (t.routing, t.capacity_factor) == ("capacity", 1.25)


def test_expert_bias_router_defaults_to_aux_free():
    ds = make_problem(model="deepseek-v3", gpus=64, seq=4096, global_batch=64)
    assert ds.model.moe.router_bias and routing.balancing_of(ds.train, ds.model.moe) == "aux-free"
    assert routing.balancing_of(ds.train, MOE) == "aux-loss"


_MEGATRON = ("--num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --micro-batch-size 1 "
             "--global-batch-size 16 --bf16 --num-experts 8 --moe-router-topk 2 --moe-ffn-hidden-size 1024 "
             "--moe-grouped-gemm --expert-model-parallel-size 8 --use-distributed-optimizer ")


@pytest.mark.parametrize("flags,want", [
    ("", ("dropless", None, False, "none")),
    ("--moe-aux-loss-coeff 1e-2", ("dropless", None, False, "aux-loss")),
    ("--moe-router-force-load-balancing", ("forced", None, False, "none")),
    ("--moe-expert-capacity-factor 1.0 --moe-pad-expert-input-to-capacity --moe-aux-loss-coeff 1e-2",
     ("capacity", 1.0, True, "aux-loss")),
    ("--moe-expert-capacity-factor -1 --moe-router-enable-expert-bias", ("dropless", None, False, "aux-free")),
    ("--moe-router-load-balancing-type seq_aux_loss --moe-aux-loss-coeff 1e-4", ("dropless", None, False,
                                                                                "seq-aux-loss")),
])
def test_megatron_audit_reads_the_routing(flags, want, tmp_path):
    from planner.audit import detect
    from planner.audit.audit import run_audit
    path = tmp_path / "train.args"
    path.write_text(_MEGATRON + flags + "\n")
    cfg = detect.load(str(path), gpus=8)
    rep = run_audit(cfg, make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=16), search=False)
    t = rep.problem.train
    assert (t.routing, t.capacity_factor, t.capacity_pad, t.balancing) == want
    shown = " ".join(s for s, _, _ in rep.unmodelled)
    assert "force-load-balancing" not in shown and "pad-expert-input" not in shown


def test_megatron_audit_prices_forced_faster(tmp_path):
    from planner.audit import detect
    from planner.audit.audit import run_audit
    p = make_problem(model="mixtral-8x7b", gpus=8, seq=4096, global_batch=16)
    steps = {}
    for name, flags in (("dropless", "--moe-aux-loss-coeff 1e-2"), ("forced", "--moe-router-force-load-balancing")):
        path = tmp_path / f"{name}.args"
        path.write_text(_MEGATRON + flags + "\n")
        steps[name] = run_audit(detect.load(str(path), gpus=8), p, search=False).estimate.step_time
    assert steps["forced"] < steps["dropless"]


def test_olmo_core_reads_router_keywords():
    import ast
    from planner.engines.olmo_core import read
    calls = lambda text: read._calls(ast.parse(text), {})
    assert read._routing(calls("MoERouterConfig(top_k=8, uniform_expert_assignment=True, bias_gamma=1e-4)")) == \
        {"routing": "forced", "balancing": "aux-free"}
    assert read._routing(calls("build_qwen3_moe_config(router_aux_loss_weight=None)")) == {"balancing": "none"}
    assert read._routing(calls("build_qwen3_moe_config(router_aux_loss_weight=0.01)")) == {"balancing": "aux-loss"}


def test_megatron_export_refuses_aux_free_on_a_softmax_router():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    import megatron_cases as mc
    from planner.engines import export
    from planner.plan import Plan
    p = mc.make("mixtral-8x7b", 16, "4k", 32, pp=2, fold=(1, 8))
    pr = p.problem.model_copy(update={"train": p.problem.train.model_copy(update={"balancing": "aux-free"})})
    with pytest.raises(export.ExportError, match="sigmoid router"):
        export.render(Plan(pr, p.layout, p.estimate, {}), "megatron")

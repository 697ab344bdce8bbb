"""Memory formulas against outside numbers: Korthikanti et al. 2022 (per-layer activation
formulas, Figure 1's 530B figures), Megatron's distributed-optimizer bytes, and bytes
measured in torch with saved_tensors_hooks."""
import numpy as np
import pytest

from planner import costmodel as cm
from planner.layout import Layout, uniform_stages
from planner.specs import ModelSpec, make_problem

GPT530 = ModelSpec(name="gpt-530b", layers=105, hidden=20480, heads=128, kv_heads=128, head_dim=160, vocab=51200,
                   ffn_hidden=4 * 20480, gated=False, norm="layernorm", linear_bias=True, tied_embeddings=True)


def gpt_problem(gpus, seq=2048, batch=280, sp=True, **kw):
    return make_problem(model=GPT530, gpu="a100-80g", gpus=gpus, seq=seq, global_batch=batch, memory_gib=1e6,
                        flash_attention=False, dropout=True, sequence_parallel=sp, distributed_optimizer=False, **kw)


def terms(problem, tp, cp=1, etc=None):
    x = dict(tp=[tp], cp=[cp], dp=[1], pp=[1], vpp=[1], etp=[1], ep=[1], edp=[tp * cp], cu=[1], cr=[cp],
             micro_batch=[1], num_microbatches=[1], s_tp=[1], s_cp=[tp], s_dp=[tp * cp])
    return cm.layer_terms(problem, {k: np.asarray(v, float) for k, v in x.items()})


@pytest.mark.parametrize("t", [1, 2, 8])
def test_korthikanti_per_layer_formulas(t):
    s, b, h, a = 2048, 1, 20480, 128
    sbh = s * b * h
    # TP with sequence parallel: sbh(34/t + 5as/(ht)); selective: sbh 34/t; full: 2sbh/t
    lt = terms(gpt_problem(8, sp=True), t)
    assert float(lt.a_dense[0]) == pytest.approx(sbh * (34 / t + 5 * a * s / (h * t)), rel=1e-12)
    assert float(lt.a_dense[0] - lt.a_sel_saving[0]) == pytest.approx(sbh * 34 / t, rel=1e-12)
    assert float(lt.a_full[0]) == pytest.approx(2 * sbh / (t if t > 1 else 1), rel=1e-12)
    # TP without sequence parallel: sbh(10 + 24/t + 5as/(ht))
    lt = terms(gpt_problem(8, sp=False), t)
    assert float(lt.a_dense[0]) == pytest.approx(sbh * (10 + 24 / t + 5 * a * s / (h * t)), rel=1e-12)


def _fig1(sp, recompute):
    p = gpt_problem(280, sp=sp)
    st = uniform_stages(105, 35)
    if recompute == "selective":
        st = tuple(s.model_copy(update={"recompute_selective": s.num_layers}) for s in st)
    L = Layout(world=280, tp=8, cp=1, dp=1, pp=35, vpp=3, micro_batch=1, num_microbatches=280, stages=st)
    return cm.evaluate(p, L)


def test_korthikanti_figure1_activations_530b():
    # 530B, TP8 PP35, interleaved (3 chunks, Table 5): first-stage activations
    assert _fig1(False, "none").stages[0].activations / cm.GiB == pytest.approx(114.0, rel=0.05)
    assert _fig1(True, "selective").stages[0].activations / cm.GiB == pytest.approx(23.08, rel=0.05)


def test_korthikanti_figure1_params_and_optimizer_530b():
    # 31.64 GiB of parameters + optimizer state per GPU (a middle stage, 18 bytes/param)
    st = _fig1(True, "selective").stages[17]
    assert (st.weights + st.grads + st.optimizer) / cm.GiB == pytest.approx(31.64, rel=0.05)


@pytest.mark.parametrize("d", [1, 2, 8, 64])
def test_megatron_distributed_optimizer_bytes(d):
    # Megatron-LM docs: bf16 params + fp32 grads with the distributed optimizer: 6 + 12/d
    vals = cm.unit_values(GPT530, Z_d=d, Z_e=d, b_g=4)
    r = cm.evaluate_formulas(vals)
    assert float(r["Bpp_dense"]) == pytest.approx(6 + 12 / d)
    assert float(r["Bpp_expert"]) == pytest.approx(6 + 12 / d)


def test_dense_states_shard_over_dp_cp_experts_over_edp():
    m = ModelSpec(name="m", layers=4, hidden=256, heads=4, kv_heads=4, head_dim=64, vocab=1000,
                  moe=dict(experts=8, top_k=2, expert_ffn_hidden=512))
    p = make_problem(model=m, gpus=8, seq=4096, global_batch=8, memory_gib=1000)
    def opt(cp, dp, ep, edp):
        L = Layout(world=8, tp=1, cp=cp, dp=dp, pp=1, cp_kind="ring", cp_ring=cp, micro_batch=1,
                   num_microbatches=8 // dp, stages=uniform_stages(4, 1, fold=(1, ep, edp)))
        return cm.evaluate(p, L).stages[0].optimizer
    pc = cm.param_counts(m)
    experts = 4 * pc["experts_per_layer"]
    dense = pc["total"] - experts
    assert opt(2, 4, 8, 1) == pytest.approx(12 * dense / 8 + 12 * experts / 8)      # ep8: each rank 1 expert, edp 1
    assert opt(2, 4, 2, 4) == pytest.approx(12 * dense / 8 + 12 * (experts / 2) / 4)

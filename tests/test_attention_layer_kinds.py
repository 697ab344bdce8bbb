"""The attention layer kinds priced by the keys each query sees (planner.costmodel.attention_kinds):
each kind's attention FLOPs against a brute-force count of the (query, key) pairs its mask keeps,
the Hugging Face fixtures' models through the whole cost model, and full-attention models unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import planner.costmodel.compile as cc
from planner.costmodel import flops_per_token, model_values, param_counts
from planner.costmodel.attention_kinds import attention_factor, keys_seen
from planner.costmodel.values import unit_values
from planner.specs import make_problem
from planner.specs.hfconfig import read_hf_config

HF = Path(__file__).resolve().parents[1] / "examples" / "models" / "hf"


def _pairs(kind: str, S: int, w: int) -> int:
    """(query, key) pairs the layer's mask keeps, counted on the S x S grid (0-based positions)."""
    q, k = np.meshgrid(np.arange(S), np.arange(S), indexing="ij")
    causal = k <= q
    if kind == "full":
        return int(causal.sum())
    if kind == "sliding":                    # torchtitan's sliding_window_mod: q - kv < window
        return int((causal & (q - k < w)).sum())
    if kind == "chunked":                    # Llama-4's chunked mask: the same chunk of w tokens
        return int((causal & (q // w == k // w)).sum())
    if kind == "sparse":                     # top-w of each query's causal prefix
        return int(np.minimum(causal.sum(axis=1), w).sum())
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["full", "sliding", "chunked", "sparse"])
@pytest.mark.parametrize("S,w", [(64, 16), (100, 7), (48, 48), (30, 64), (257, 32)])
def test_keys_per_query_match_a_brute_force_count_of_the_mask(kind, S, w):
    assert keys_seen(kind, S, w) * S == pytest.approx(_pairs(kind, S, w), rel=1e-12)


def _hf(name):
    return read_hf_config(json.loads((HF / f"{name}.json").read_text()), name)


def _core(model, seq):
    """The cost model's attention core FLOPs (forward, one sequence on one GPU) through model_values."""
    p = make_problem(model=model, gpus=8, seq=seq, global_batch=8 * seq)
    vals = {**unit_values(p.model), **model_values(p), "b": 1.0}
    return float(cc.formulas(vals)["Fl_attn_core"])


# Llama-4's 8,192-token chunks make its brute-force count take ~2 minutes on 2 cores: the full matrix runs it
@pytest.mark.parametrize("name", ["gpt-oss-120b", "gpt-oss-20b",
                                  pytest.param("llama-4-scout-17b-16e", marks=pytest.mark.full_matrix)])
def test_a_models_attention_flops_follow_its_layers_masks(name):
    """Fl_attn_core of the model's mix of layers over the same model with full attention
    everywhere = the brute-force pairs summed over its layers / the full layers' pairs."""
    model, _ = _hf(name)
    full = model.model_copy(update={"layer_attention": None, "attention_window": 0})
    S = 2048 if model.attention_window < 1024 else 16384
    pairs = sum(_pairs(k, S, model.attention_window) for k in model.layer_attention)
    expect = pairs / (model.layers * _pairs("full", S, 0))
    assert _core(model, S) / _core(full, S) == pytest.approx(expect, rel=1e-9)
    assert expect < 0.75                                        # the window is well inside S


def test_a_full_attention_models_core_is_the_causal_triangle_unchanged():
    """k_f = 1 for a full-only model: the core is S^2 a (d_qk + d_v) b / t forward, as before."""
    p = make_problem(model="llama3-8b", gpus=8, seq=8192, global_batch=64)
    assert model_values(p)["k_f"] == 1.0
    m = p.model
    assert _core(m, 8192) == pytest.approx(8192 * 8192 * m.heads * 2 * m.head_dim, rel=1e-12)
    assert flops_per_token(m, 8192) == pytest.approx(
        6 * param_counts(m)["active"] + 3 * m.layers * 8192 * m.heads * 2 * m.head_dim, rel=1e-12)


def test_sparse_attention_prices_the_indexer_and_top_k_in_the_absorbed_form():
    model, notes = _hf("deepseek-v3.2-exp")
    cfg = json.loads((HF / "deepseek-v3.2-exp.json").read_text())
    S, topk = 16384, cfg["index_topk"]
    dense = model.model_copy(update={"sparse_attention_topk": 0, "sparse_indexer_heads": 0, "sparse_indexer_dim": 0})
    # definition: top-k pairs x heads x 2 (QK + PV) x 2 FLOPs x (the absorbed latent key and value dims),
    # plus the indexer's causal pairs x its heads x its dim x 2 FLOPs
    main = _pairs("sparse", S, topk) * cfg["num_attention_heads"] * 2 * (
        2 * cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"])
    indexer = S * S / 2 * cfg["index_n_heads"] * cfg["index_head_dim"] * 2
    dense_flops = _pairs("full", S, 0) * cfg["num_attention_heads"] * 2 * (
        cfg["qk_nope_head_dim"] + cfg["qk_rope_head_dim"] + cfg["v_head_dim"])
    # the cost model's full causal triangle is S^2 / 2 pairs, the brute force S (S + 1) / 2
    scale = (S / 2) / ((S + 1) / 2)
    assert _core(dense, S) == pytest.approx(dense_flops * scale, rel=1e-9)
    assert _core(model, S) == pytest.approx(main * scale + indexer, rel=1e-9)
    assert any("indexer" in n for n in notes)


def test_the_indexers_parameters_are_counted():
    model, _ = _hf("deepseek-v3.2-exp")
    cfg = json.loads((HF / "deepseek-v3.2-exp.json").read_text())
    n, d, h = cfg["index_n_heads"], cfg["index_head_dim"], cfg["hidden_size"]
    # wq_b (q latent -> n d), wk (h -> d), weights_proj (h -> n), k_norm LayerNorm (weight + bias)
    per_layer = cfg["q_lora_rank"] * n * d + h * d + h * n + 2 * d
    bare = model.model_copy(update={"sparse_attention_topk": 0, "sparse_indexer_heads": 0, "sparse_indexer_dim": 0})
    assert param_counts(model)["total"] - param_counts(bare)["total"] == cfg["num_hidden_layers"] * per_layer
    assert 0.84e9 < cfg["num_hidden_layers"] * per_layer < 0.86e9


def test_a_sparse_topk_without_the_indexer_dims_is_refused_in_one_line():
    from planner.specs.types import ModelSpec
    model, _ = _hf("deepseek-v3.2-exp")
    with pytest.raises(ValueError, match="sparse_indexer_heads"):
        ModelSpec(**{**model.model_dump(), "sparse_indexer_heads": 0})


def test_megatron_refuses_sliding_layers_under_the_p2p_ring_in_one_line():
    """Transformer Engine's CP asserts sliding windows run with all_gather or a2a, not p2p."""
    from planner.engines import constraints
    from planner.layout import Layout, uniform_stages
    model, _ = _hf("gpt-oss-20b")
    p = make_problem(model=model, gpu="h100-sxm", gpus=8, seq=32768, global_batch=8, memory_gib=10_000,
                     **constraints("megatron").train_defaults())

    def rules(comm, cp=8):
        L = Layout(world=8, tp=1, cp=cp, dp=8 // cp, micro_batch=1, num_microbatches=8 * cp // 8, cp_comm=comm,
                   cp_balance="headtail", sharding="zero1", stages=uniform_stages(model.layers, 1))
        return [v for v in constraints("megatron").violations(L, p) if v.rule == "target.cp_window"]
    bad = rules("p2p")
    assert len(bad) == 1 and "12 sliding-window layers" in bad[0].message and "\n" not in bad[0].message
    assert rules("ag-te") == [] and rules("p2p", cp=1) == []


def test_olmo_core_refuses_sliding_layers_under_its_zig_zag_ring():
    """ai2-olmo-core's dispatch_ring_flash_attn raises for a window with the zig_zag strategy."""
    import inspect

    from olmo_core.nn.attention import flash_attn_api
    from planner.engines import constraints
    from planner.layout import Layout, uniform_stages
    assert "SWA is currently not supported" in inspect.getsource(flash_attn_api.dispatch_ring_flash_attn)
    model, _ = _hf("gpt-oss-20b")
    p = make_problem(model=model, gpu="h100-sxm", gpus=8, seq=32768, global_batch=8, memory_gib=10_000,
                     **constraints("olmo-core").train_defaults())
    L = Layout(world=8, tp=1, cp=8, dp=1, micro_batch=1, num_microbatches=8, cp_comm="p2p", cp_balance="headtail",
               sharding="zero1", stages=uniform_stages(model.layers, 1))
    bad = [v for v in constraints("olmo-core").violations(L, p) if v.rule == "target.cp_window"]
    assert len(bad) == 1 and "12 sliding-window layers" in bad[0].message


def test_the_bundle_target_refuses_layer_kinds_it_does_not_build_in_one_line(capsys):
    """The bundle's attention is full causal in every layer: a sliding-window model has no bundle
    plan, and the search says why in one line (an engine target plans it)."""
    from planner.cli import main
    path = str(HF / "gpt-oss-20b.json")
    main(["plan", "--model", path, "--gpus", "8", "--seq", "8k", "--no-engines"])
    out = capsys.readouterr()
    lines = [ln for ln in (out.out + out.err).splitlines() if "full causal attention in every layer" in ln]
    assert len(lines) == 1 and "12 sliding / chunked layers" in lines[0]


def test_torchtitan_refuses_the_sparse_attention_indexer_it_does_not_build():
    import importlib.util
    from pathlib import Path as P

    from planner.engines import constraints
    root = P(importlib.util.find_spec("torchtitan").origin).parent
    assert not any("indexer" in f.read_text(errors="ignore") for f in (root / "models").rglob("*.py"))
    model, _ = _hf("deepseek-v3.2-exp")
    p = make_problem(model=model, gpu="h100-sxm", gpus=64, seq=4096, global_batch=64, memory_gib=10_000,
                     **constraints("torchtitan").train_defaults())
    bad = constraints("torchtitan").degree_violations(p, world=64)
    # target.model refuses it too (no registry model of that name); the indexer rule says why in its own words
    by_rule = {v.rule: v.message for v in bad}
    assert "target.attention_layers" in by_rule and "top-2048" in by_rule["target.attention_layers"]

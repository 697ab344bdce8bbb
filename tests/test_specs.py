import json

import pytest

from planner.specs import SpecError, from_hf_config, load_model, make_problem, parse_size


@pytest.mark.parametrize("text,value", [("128k", 131072), ("1M", 1048576), ("4096", 4096), (2048, 2048), ("4M", 4194304)])
def test_parse_size(text, value):
    assert parse_size(text) == value


@pytest.mark.parametrize("text", ["12q", "0", "-4", "1.5k3", "", "k"])
def test_parse_size_rejects(text):
    with pytest.raises(SpecError, match="seq"):
        parse_size(text, "seq")


def test_global_batch_tokens_or_sequences():
    assert make_problem(seq="128k", global_batch="4M").train.global_batch == 32
    assert make_problem(seq=2048, global_batch=2520).train.global_batch == 2520


@pytest.mark.parametrize("kwargs,needle", [
    (dict(gpus=0), "gpus: must be a positive integer"),
    (dict(gpus=7), "gpus(7) does not divide gpus_per_node(8)"),
    (dict(gpus=12), "gpus(12) is not a multiple of gpus_per_node(8)"),
    (dict(model="nope"), "unknown model preset 'nope'"),
    (dict(gpu="tpu"), "gpu: unknown GPU preset 'tpu'"),
    (dict(seq="128k", global_batch="100k"), "is not a multiple of seq(131072)"),
    (dict(memory_fraction=1.5), "memory_fraction"),
])
def test_problem_errors_are_one_line(kwargs, needle):
    with pytest.raises(SpecError) as e:
        make_problem(**kwargs)
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


def test_model_rules():
    from planner.specs import ModelSpec
    with pytest.raises(ValueError, match=r"kv_heads\(5\) does not divide heads\(32\)"):
        ModelSpec(layers=2, hidden=64, heads=32, kv_heads=5, head_dim=2, vocab=10, ffn_hidden=8)
    with pytest.raises(ValueError, match=r"top_k\(9\) exceeds experts\(8\)"):
        ModelSpec(layers=2, hidden=64, heads=4, kv_heads=4, head_dim=16, vocab=10,
                  moe=dict(experts=8, top_k=9, expert_ffn_hidden=8))


HF = {
    "mixtral": {"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                "num_key_value_heads": 8, "vocab_size": 32000, "intermediate_size": 14336, "num_local_experts": 8,
                "num_experts_per_tok": 2, "tie_word_embeddings": False},
    "qwen3_moe": {"model_type": "qwen3_moe", "num_hidden_layers": 48, "hidden_size": 2048, "num_attention_heads": 32,
                  "num_key_value_heads": 4, "head_dim": 128, "vocab_size": 151936, "intermediate_size": 6144,
                  "moe_intermediate_size": 768, "num_experts": 128, "num_experts_per_tok": 8,
                  "decoder_sparse_step": 1, "mlp_only_layers": [], "tie_word_embeddings": False},
    "deepseek_v3": {"model_type": "deepseek_v3", "num_hidden_layers": 61, "hidden_size": 7168,
                    "num_attention_heads": 128, "num_key_value_heads": 128, "vocab_size": 129280,
                    "intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256,
                    "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
                    "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
                    "v_head_dim": 128, "scoring_func": "sigmoid", "topk_method": "noaux_tc",
                    "num_nextn_predict_layers": 1, "tie_word_embeddings": False},
    "olmoe": {"model_type": "olmoe", "num_hidden_layers": 16, "hidden_size": 2048, "num_attention_heads": 16,
              "num_key_value_heads": 16, "vocab_size": 50304, "intermediate_size": 1024, "num_experts": 64,
              "num_experts_per_tok": 8, "tie_word_embeddings": False},
    "llama": {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
              "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 14336, "tie_word_embeddings": False},
}
PRESET = {"mixtral": "mixtral-8x7b", "qwen3_moe": "qwen3-30b-a3b", "deepseek_v3": "deepseek-v3",
          "olmoe": "olmoe-1b-7b", "llama": "llama3-8b"}


@pytest.mark.parametrize("kind", sorted(HF))
def test_hf_config_import_matches_preset(kind, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(HF[kind]))
    got = load_model(str(path)).model_dump(exclude={"name"})
    want = load_model(PRESET[kind]).model_dump(exclude={"name"})
    assert got == want


def test_hf_config_missing_field(tmp_path):
    cfg = dict(HF["llama"])
    del cfg["vocab_size"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    with pytest.raises(SpecError, match="lacks 'vocab_size'"):
        load_model(str(path))

"""The models torchtitan 0.3.0 builds from its own registry, as the 0.3 exporter reads it. The torchtitan
target plans any model (torchtitan is extended by registering a model of one's own); the export writes
the registry's models and refuses others, or a sequence above the model's RoPE table, in one line."""
from __future__ import annotations

# models whose 0.3 registry config runs FlexAttention (deepseek_v3_671b: attn_backend="flex",
# models/deepseek_v3/config_registry.py:207-210): CP all-gathers their K/V, no rotate method applies
FLEX = frozenset({"deepseek-v3"})

# torchtitan 0.3.0's model packages with a config registry (torchtitan/models/<pkg>/config_registry.py)
PACKAGES = ("deepseek_v3", "gpt_oss", "kimi_k2_7", "llama3", "qwen3_5", "qwen3")

# foldplan preset -> (torchtitan model package, flavour, registry function to start from, RoPE max_seq_len)
# RoPE maxima: models/llama3/__init__.py:138 (131072), models/qwen3/__init__.py:284 (40960),
# models/deepseek_v3/__init__.py:358 (4096 * 4) in torchtitan 0.3.0
REGISTRY = {
    "llama3-8b": ("llama3", "8B", "llama3_8b", 131072),
    "llama3-70b": ("llama3", "70B", "llama3_70b", 131072),
    # llama3_405b() itself builds a float8 converter (needs torchao, and is not what the plan priced):
    # start from llama3_70b(), whose other settings are the FILL lines' to replace anyway
    "llama3.1-405b": ("llama3", "405B", "llama3_70b", 131072),
    "qwen3-30b-a3b": ("qwen3", "30B-A3B", "qwen3_30b_a3b", 40960),
    "qwen3-235b-a22b": ("qwen3", "235B-A22B", "qwen3_30b_a3b", 40960),
    "deepseek-v3": ("deepseek_v3", "671B", "deepseek_v3_671b", 16384),
}


def unsupported(problem) -> str | None:
    """Why torchtitan 0.3 cannot train this problem's model as planned, or None."""
    pr = problem
    reg = REGISTRY.get(pr.model.name)
    if reg is None:
        return (f"model {pr.model.name} has no torchtitan flavour in 0.3's registry (these have: "
                f"{', '.join(sorted(REGISTRY))})")
    pkg, flavor, _, rope_max = reg
    if pr.train.seq > rope_max:
        return (f"seq {pr.train.seq} is above the RoPE maximum {rope_max} of torchtitan's {pkg} {flavor} "
                f"(models/common/decoder.py:163-172 refuses it)")
    if pr.train.capacity_factor is not None:
        return f"capacity_factor {pr.train.capacity_factor} has no torchtitan key (its MoE is dropless)"
    return None

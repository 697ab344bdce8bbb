"""Per-step metrics (one JSON line per step) and the model FLOPs behind MFU."""
import json
import resource

import torch


def flops_per_token(cfg, seq: int) -> float:
    """Training FLOPs per token: 6 * active parameters (forward 2, backward 4;
    PaLM, Chowdhery et al. 2022, appendix B) + causal attention 6 * L * h * d * S
    (nanoGPT's 12 L H Q T, halved for the causal mask). Embedding lookup excluded."""
    H, h, hk, d, V = cfg["hidden"], cfg["heads"], cfg["kv_heads"], cfg["head_dim"], cfg["vocab"]
    attn = 2 * H * h * d + 2 * H * hk * d
    active = V * H                                          # the head
    for moe in cfg["is_moe"]:
        if moe:
            ffn = cfg["top_k"] * 3 * H * cfg["expert_ffn"] + 3 * H * cfg["shared_ffn"] + cfg["experts"] * H
        else:
            ffn = (3 if cfg["gated"] else 2) * H * cfg["ffn_hidden"]
        active += attn + ffn
    return 6.0 * active + 6.0 * cfg["layers"] * h * d * seq


def peak_memory_gib(device) -> float:
    """CUDA: max allocated by the caching allocator; CPU: the process's max RSS."""
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2 ** 30
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20   # KiB -> GiB


class MetricsFile:
    def __init__(self, path):
        self.f = open(path, "a") if path else None

    def write(self, **row):
        if self.f:
            self.f.write(json.dumps(row) + "\n")
            self.f.flush()

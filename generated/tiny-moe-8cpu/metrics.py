"""Per-step metrics (one JSON line per step); MFU's model FLOPs are layout.FLOPS_PER_TOKEN."""
import json
import resource

import torch


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

"""Hosts and NVLink domains: the facts a cluster keeps apart, and the labels per
GPU architecture.

A host holds `gpus_per_node` GPUs (what torchrun's --nproc-per-node and SLURM's --gpus-per-node
count: 8 on HGX, 4 on a GB200 / GB300 compute tray); an NVLink domain holds `gpus_per_domain`
(8 on HGX: the host; 72 on an NVL72 rack), of which a job uses `used_per_domain` (racks keep
spares: 64 of 72). Rank r sits in domain r // used_per_domain (planner.layout.grid.domain_of):
bandwidth reads the domain, launch scripts the host.

What is legal: a job takes whole hosts (gpus a multiple of gpus_per_node, or a divisor of it
below one host), a domain's used part is whole hosts, and a job may end in a part-filled
domain (128 GPUs on NVL72 racks: 72 + 56, or 64 + 64 with --used-per-domain 64).
"""
from __future__ import annotations

from typing import Optional

ARCHS = ("ampere", "hopper", "blackwell", "cdna3")
ARCH_LABELS = {"ampere": "Ampere", "hopper": "Hopper", "blackwell": "Blackwell", "cdna3": "CDNA 3"}
# what reports call the fused attention kernel of each architecture's preset curve
# the architectures whose fused curve is cuDNN's attention, the kernel the bundle runs there
# (planner/bundle/templates/cp/kernels.py: compute capability 9.0 and newer)
CUDNN_ATTENTION_ARCHS = ("hopper", "blackwell")
FUSED_ATTENTION = {"ampere": "FlashAttention-2 on Ampere", "hopper": "cuDNN / FlashAttention-3 on Hopper",
                   "blackwell": "cuDNN fused attention on Blackwell", "cdna3": "CK flash-attention on CDNA 3"}


def domain_defaults(d: dict, gpu) -> dict:
    """ClusterSpec's raw fields with the domain filled in: where the GPU preset's domain is one
    host, --gpus-per-node sets the domain too (its meaning before hosts and domains were apart);
    on a rack-scale preset the domain is the preset's. The used part defaults to the domain."""
    d = dict(d)
    if d.get("gpus_per_domain") is None and isinstance(d.get("gpus_per_node"), int):
        d["gpus_per_domain"] = gpu.domain if gpu.domain > gpu.gpus_per_node else d["gpus_per_node"]
    if d.get("used_per_domain") is None:
        d["used_per_domain"] = d.get("gpus_per_domain")
    return d


def domain_error(c) -> Optional[str]:
    """One line naming the field, the arithmetic and the flag that fixes it; None when legal."""
    n, g, dom, used = c.gpus, c.gpus_per_node, c.gpus_per_domain, c.used_per_domain
    if used > dom:
        return (f"used_per_domain({used}) exceeds gpus_per_domain({dom}): a job cannot use more GPUs of an NVLink "
                f"domain than it has (--used-per-domain)")
    if used % g:
        host = f"; a {c.gpu.name} host holds {c.gpu.gpus_per_node}" if c.gpu.domain > c.gpu.gpus_per_node else ""
        return (f"used_per_domain({used}) is not a multiple of gpus_per_node({g}): a job takes whole hosts of a "
                f"domain; --gpus-per-node is the host (torchrun --nproc-per-node{host}); to use {g} GPUs of each "
                f"{dom}-GPU NVLink domain pass --used-per-domain {g}")
    if n > g and n % g:
        return f"gpus({n}) is not a multiple of gpus_per_node({g}): a job takes whole hosts"
    if n < g and g % n:
        return f"gpus({n}) does not divide gpus_per_node({g})"
    return None

"""Hardware spec values: one accelerator kind (GPUSpec, from presets/gpus/*.yaml) and the GPUs of one
job (ClusterSpec: how many, per host and per NVLink domain, and the memory budget). Split from
`planner.specs.types`, which re-exports both; import them from `planner.specs`."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field, model_validator

from planner.specs.domains import ARCH_LABELS, ARCHS, FUSED_ATTENTION, domain_defaults, domain_error
from planner.specs.types_base import SpecError, _Spec
from planner.specs.cp_impl import FLEX_OF_FUSED

# --------------------------------------------------------------------------- cluster

class GPUSpec(_Spec):
    """One accelerator kind, from the vendor's datasheet (see presets/gpus/*.yaml for sources)."""
    name: str = Field(..., description="preset name")
    memory_gib: float = Field(..., gt=0, description="HBM per GPU in GiB (2^30 bytes)")
    peak_flops: float = Field(..., gt=0, description="dense (not sparse) BF16 tensor FLOP/s")
    hbm_bw: float = Field(..., gt=0, description="HBM bandwidth, bytes/s")
    hbm_efficiency: float = Field(0.8, gt=0, le=1, description="achieved fraction of hbm_bw in elementwise kernels")
    intra_node_bw: float = Field(..., gt=0, description="scale-up link bandwidth per GPU, one direction, bytes/s")
    inter_node_bw: float = Field(..., gt=0, description="scale-out NIC bandwidth per GPU, one direction, bytes/s")
    # rack-scale NVLink domains(planner/specs/domains.py): host and domain apart
    gpus_per_node: int = Field(8, gt=0, description="GPUs per host (torchrun --nproc-per-node): HGX 8, GB200 4")
    gpus_per_domain: Optional[int] = Field(None, gt=0, description="GPUs per NVLink domain (None: the host)")
    arch: Optional[Literal[ARCHS]] = Field(None, description="GPU architecture (labels per architecture)")
    compute_capability: Optional[tuple[int, int]] = Field(None, description=(
        "CUDA compute capability (major, minor), as NVIDIA's table gives it (developer.nvidia.com/cuda-gpus): "
        "what an engine's start-up checks ask torch.cuda; None: not a CUDA GPU"))
    latency_s: float = Field(5e-6, ge=0, description="latency per collective hop, seconds")
    compute_efficiency: float = Field(..., gt=0, le=1, description="achievable fraction of peak in large GEMMs")
    attention_efficiency: float = Field(..., gt=0, le=1, description="achievable fraction of peak in fused attention")
    bus_efficiency: float = Field(0.8, gt=0, le=1, description="achieved fraction of link bandwidth in collectives")
    sm_count: int = Field(132, gt=0, description="streaming multiprocessors (compute units): GEMM wave quantisation")
    gemm_tile: tuple[int, int] = Field((128, 256), description="output tile (rows x cols) of the large bf16 GEMM "
                                                                "kernels: GEMM tile and wave quantisation")
    gemm_epilogue: bool = Field(False, description=(
        "GEMMs write each output tile to HBM after its K loop (the epilogue, at the achieved HBM bandwidth), "
        "which slows short K loops: priced where a kernel-level table measures it (Hopper: DeepGEMM's FP8 "
        "tables, tests/test_kernels.py); False: no such measurement for this GPU, not priced"))
    attention_half_block: float = Field(400.0, gt=0, description=(
        "block length (tokens) at which the fused causal attention kernel reaches half its long-block "
        "throughput: attention efficiency x L / (L + this)"))
    flash2_attention_efficiency: Optional[float] = Field(None, gt=0, le=1, description=(
        "attention efficiency of FlashAttention-2 (PyTorch SDPA's flash backend) where the preset's own "
        "curve is a faster fused kernel (cuDNN / FlashAttention-3 on Hopper); TrainSpec.attention_kernel "
        "flash2 reads it. None: this preset has no FlashAttention-2 curve"))
    flash2_attention_half_block: Optional[float] = Field(None, gt=0, description=(
        "FlashAttention-2's half-throughput block length (tokens), as attention_half_block"))
    torch_grouped_mm_efficiency: Optional[float] = Field(None, gt=0, le=1, description=(
        "fraction of the bf16 peak that torch._grouped_mm (the routed experts' kernel of torchtitan and the "
        "bundle: TrainSpec.expert_gemm torch) reaches forward + backward, where a kernel-level benchmark "
        "publishes it; None: no such measurement for this GPU, the experts run at compute_efficiency"))
    # FP8 / MXFP8 precisions(planner.specs.precision)
    fp8_peak_flops: Optional[float] = Field(None, gt=0, description="dense FP8 tensor FLOP/s (None: no FP8 tensor cores)")
    fp8_compute_efficiency: Optional[float] = Field(None, gt=0, le=1, description="achievable fraction of the FP8 peak in large FP8 GEMMs")
    fp8_deepgemm_efficiency: Optional[float] = Field(None, gt=0, le=1, description=(
        "the same for DeepSeek's DeepGEMM kernels (DeepSeek-V3's training stack), where published: the "
        "kernel-level check of its profile reads it (tests/test_kernels.py); None: not published for this GPU"))
    mxfp8: bool = Field(False, description="MX (block-scaled) FP8 tensor cores (Blackwell)")
    memory_source: str = Field("", description="what reports memory_gib (nvidia-smi / rocm-smi total)")
    reserve_gib: float = Field(..., ge=0, description="CUDA/HIP context + NCCL buffers before the first tensor, GiB")
    allocator_margin: float = Field(0.056, ge=0, le=1, description="caching allocator: reserved bytes over allocated")
    source: str = Field("", description="where the figures come from")

    def attention_curve(self, kernel: str) -> tuple[float, float]:
        """(efficiency, half block) of the fused causal attention kernel ``kernel`` (TrainSpec.attention_kernel)."""
        if kernel == "fused":
            return self.attention_efficiency, self.attention_half_block
        if kernel == "flex":        # FlexAttention: a share of the fused curve (planner.specs.cp_impl)
            return self.attention_efficiency * FLEX_OF_FUSED, self.attention_half_block
        if self.flash2_attention_efficiency is None:
            raise SpecError(f"attention_kernel: gpu {self.name!r} has no flash2 curve (its preset sets no "
                            f"flash2_attention_efficiency); use attention_kernel fused")
        return self.flash2_attention_efficiency, self.flash2_attention_half_block or self.attention_half_block

    def expert_gemm_efficiency(self, kernel: str) -> float:
        """The bf16 efficiency of the routed experts' grouped GEMMs run by ``kernel`` (TrainSpec.expert_gemm):
        torch._grouped_mm's measured fraction where the preset has one, else the GEMMs' compute_efficiency."""
        if kernel == "torch" and self.torch_grouped_mm_efficiency is not None:
            return self.torch_grouped_mm_efficiency
        return self.compute_efficiency

    def attention_name(self, kernel: str) -> str:
        """How reports name the kernel ``kernel`` on this GPU (the fused kernel per architecture)."""
        if kernel == "flex":
            return f"FlexAttention (a share of the {self.name} preset's fused curve)"
        return ("FlashAttention-2" if kernel == "flash2" else
                f"the {self.name} preset's fused attention ({FUSED_ATTENTION.get(self.arch, 'the fused kernel')})")

    domain = property(lambda self: self.gpus_per_domain or self.gpus_per_node, doc="GPUs per NVLink domain")
    arch_label = property(lambda self: ARCH_LABELS.get(self.arch, "unknown architecture"))

    @property
    def allocatable_gib(self) -> float:
        """Peak allocated bytes (GiB) the GPU can hold: (total - context) / (1 + allocator margin)."""
        return (self.memory_gib - self.reserve_gib) / (1 + self.allocator_margin)


# The GPU figures a plan file records (Problem.to_dict) and reads back (problem_from_dict): every field the
# cost model may read, so that a plan re-estimated from its file, on a calibrated preset file too, is the
# plan that was written. The GPU's name and sources are recorded apart; per-host counts are the cluster's.
GPU_RECORDED = tuple(k for k in GPUSpec.model_fields
                     if k not in ("name", "memory_source", "source", "gpus_per_node", "gpus_per_domain"))


class ClusterSpec(_Spec):
    """The GPUs of one job."""
    gpu: GPUSpec = Field(..., description="accelerator kind")
    gpus: int = Field(..., gt=0, description="GPUs in the job (world size N)")
    # rack-scale NVLink domains(planner/specs/domains.py)
    gpus_per_node: int = Field(..., gt=0, description=(
        "GPUs per host (torchrun --nproc-per-node): launch scripts read it; where the preset's NVLink domain is "
        "one host (HGX) it sets the domain too, as it always did"))
    gpus_per_domain: Optional[int] = Field(None, gt=0, description="GPUs per NVLink domain (HGX 8, NVL72 72)")
    used_per_domain: Optional[int] = Field(None, gt=0, description=(
        "GPUs of each NVLink domain the job uses (64 of 72: spares); rank r in domain r // this: bandwidth reads it"))
    memory_budget_gib: float = Field(..., gt=0, description="memory a plan may use per GPU, GiB (after reserve)")

    _defaults = model_validator(mode="before")(classmethod(lambda cls, d: domain_defaults(d, d["gpu"]) if isinstance(
        d, dict) and isinstance(d.get("gpu"), GPUSpec) else d))
    domain_used = property(lambda self: self.used_per_domain, doc="rank r sits in NVLink domain r // this")

    @model_validator(mode="after")
    def _check(self):
        if (err := domain_error(self)) is not None:
            raise ValueError(err)
        return self

"""The Megatron-LM flags the audit reads, and the scanner that collects them from a command line.

Flag names follow megatron/training/arguments.py; a Megatron flag spelled with underscores is
refused as Megatron's argparse refuses it (the launchers' own flags, ``--nproc_per_node``, take
either spelling), and the older / newer spellings in ``ALIASES`` map onto one name. Last occurrence wins,
as with argparse. Every flag that is not in these tables is kept, in order, as an
ignored flag; ``EFFECTS`` names the flags that change memory or step time, so the
audit can say what an estimate that does not model them would miss.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.shell import Field, unresolved
from planner.layout.foreign import AuditParseError

# Flags that take no value.
BOOL = {
    "sequence-parallel", "use-distributed-optimizer", "swiglu", "untie-embeddings-and-output-weights",
    "bf16", "fp16", "group-query-attention", "overlap-p2p-comm", "no-overlap-p2p-communication",
    "recompute-activations",
    "account-for-embedding-in-pipeline-split", "account-for-loss-in-pipeline-split",
    "multi-latent-attention", "qk-layernorm", "moe-router-enable-expert-bias", "standalone",
    "use-megatron-fsdp", "use-torch-fsdp2", "grad-reduce-in-bf16", "cross-entropy-loss-fusion",
    "optimizer-cpu-offload", "cpu-offloading", "fine-grained-activation-offloading",
    "moe-pad-expert-input-to-capacity", "moe-router-force-load-balancing", "fp8-param-gather",
    "use-precision-aware-optimizer", "overlap-grad-reduce", "overlap-param-gather",
    "moe-shared-expert-overlap", "overlap-moe-expert-parallel-comm", "delay-wgrad-compute",
    "moe-permute-fusion", "use-flash-attn", "no-gradient-accumulation-fusion", "fp8", "deepspeed",
    "no-pipeline-parallel", "disable-bias-linear", "add-bias-linear",
    # Megatron-DeepSpeed
    "checkpoint-activations", "deepspeed-activation-checkpointing", "disable-moe-token-dropping",
    "enable-expert-tensor-parallelism", "no-query-key-layer-scaling",
}
# Flags with one or more values (nargs="+").
LIST = {"hierarchical-context-parallel-sizes", "cp-comm-type", "recompute-modules", "offload-modules",
        "moe-router-load-balancing-type", "moe-aux-loss-coeff"}
# Valued flags read by the audit (bool and list flags above, plus these).
VALUED = {
    "tensor-model-parallel-size", "pipeline-model-parallel-size", "context-parallel-size",
    "expert-model-parallel-size", "expert-tensor-parallel-size",
    "num-layers", "hidden-size", "ffn-hidden-size", "num-attention-heads", "num-query-groups",
    "kv-channels", "seq-length", "encoder-seq-length", "micro-batch-size", "global-batch-size",
    "num-experts", "moe-router-topk", "moe-ffn-hidden-size", "moe-shared-expert-intermediate-size",
    "moe-layer-freq", "moe-expert-capacity-factor", "moe-router-score-function",
    "recompute-granularity", "recompute-method", "recompute-num-layers",
    "num-layers-per-virtual-pipeline-stage", "num-virtual-stages-per-pipeline-rank",
    "decoder-first-pipeline-num-layers", "decoder-last-pipeline-num-layers",
    "pipeline-model-parallel-layout",
    "vocab-size", "padded-vocab-size", "normalization", "q-lora-rank", "kv-lora-rank",
    "qk-head-dim", "qk-pos-emb-head-dim", "qk-nope-head-dim", "qk-rope-head-dim", "v-head-dim", "mtp-num-layers",
    "data-parallel-sharding-strategy", "moe-token-dispatcher-type", "fp8-format", "fp8-recipe",
    "optimizer-offload-fraction", "cpu-offloading-num-layers", "main-grads-dtype", "exp-avg-dtype",
    "exp-avg-sq-dtype", "main-params-dtype", "num-distributed-optimizer-instances",
    "cross-entropy-fusion-impl", "tokenizer-type", "tokenizer-model", "make-vocab-size-divisible-by",
    "vocab-file", "moe-expert-parallel-size", "ds-sequence-parallel-size", "zero-stage", "optimizer",
    "outer-dp-sharding-strategy", "moe-router-padding-for-fp8", "moe-flex-dispatcher-backend",
    "moe-enable-deepep", "merge-file", "moe-token-drop-policy",
    # Megatron-DeepSpeed
    "topk", "expert-interval", "moe-train-capacity-factor", "mlp-type", "deepspeed-config",
    "checkpoint-num-layers", "num-key-value-heads",
}
# torchrun's (and the deepspeed launcher's) own flags: read for the world size, never a parse error.
LAUNCHER = {"nproc-per-node", "nnodes", "node-rank", "master-addr", "master-port", "rdzv-endpoint",
            "rdzv-backend", "rdzv-id", "max-restarts", "log-dir", "redirects", "tee", "role", "include",
            "hostfile", "num-gpus", "num-nodes"}
ALIASES = {"deepspeed-config": "deepspeed-config", "deepspeed_config": "deepspeed-config",
           "num-layers-in-first-pipeline-stage": "decoder-first-pipeline-num-layers",
           "num-layers-in-last-pipeline-stage": "decoder-last-pipeline-num-layers",
           "num-gpus": "nproc-per-node", "num-nodes": "nnodes"}
# Integers the audit reads must be sane before any arithmetic runs on them.
INT_LIMIT = 2**31 - 1

# What a flag changes that an estimate may not model: (memory | time | memory and time, what).
EFFECTS = {
    "recompute-modules": ("memory and time", "recomputes these modules instead of storing their activations"),
    "optimizer-cpu-offload": ("memory and time", "moves optimizer state to host memory (less GPU memory, "
                                                 "host-device copies each step)"),
    "optimizer-offload-fraction": ("memory and time", "the share of optimizer state kept on the host"),
    "cpu-offloading": ("memory and time", "offloads activations (or weights) of some layers to the host"),
    "cpu-offloading-num-layers": ("memory and time", "layers whose activations go to the host"),
    "fine-grained-activation-offloading": ("memory and time", "offloads chosen modules' activations to the host"),
    "offload-modules": ("memory and time", "modules whose activations go to the host"),
    "fp8": ("memory and time", "FP8 GEMMs (an older spelling; --fp8-format is what is read as the precision)"),
    "grad-reduce-in-bf16": ("memory and time", "reduces gradients in bf16: half the data-parallel bytes"),
    "cross-entropy-loss-fusion": ("memory and time", "fused cross entropy: the fp32 logits are not kept whole"),
    "cross-entropy-fusion-impl": ("memory and time", "which fused cross-entropy kernel runs"),
    "use-megatron-fsdp": ("memory and time", "Megatron FSDP shards states over data-parallel ranks"),
    "use-torch-fsdp2": ("memory and time", "PyTorch FSDP2 shards parameters, gradients and states"),
    "data-parallel-sharding-strategy": ("memory and time", "what Megatron FSDP shards"),
    # the dispatcher, its flex backend and the EP overlap are read into the layout (read_dispatch.py);
    # only a backend the cost model does not price stays an effect
    "moe-flex-dispatcher-backend": ("time", "the flex dispatcher's communication library (NCCL EP is not priced)"),
    "moe-router-padding-for-fp8": ("time", "pads routing maps for FP8 GEMMs"),
    "use-precision-aware-optimizer": ("memory", "optimizer state in lower precision"),
    "main-grads-dtype": ("memory", "the dtype of the main gradients"),
    "main-params-dtype": ("memory", "the dtype of the fp32 master weights"),
    "exp-avg-dtype": ("memory", "the dtype of Adam's first moment"),
    "exp-avg-sq-dtype": ("memory", "the dtype of Adam's second moment"),
    "num-distributed-optimizer-instances": ("memory and time", "several distributed-optimizer replicas: "
                                                               "states sharded over a part of dp"),
    "moe-shared-expert-overlap": ("time", "overlaps shared experts with dispatch"),
    "optimizer": ("memory and time", "the optimizer (Adam is modelled; others keep other states)"),
    "mlp-type": ("memory and time", "residual MoE (PR-MoE): a dense MLP beside the experts"),
    "deepspeed-config": ("memory and time", "ZeRO stage, offload and batch live in the DeepSpeed JSON "
                                            "(audit it too, with --tp/--pp/--ep)"),
}

# Values of an EFFECTS flag that are what the estimate assumes anyway (no effect to report).
MODELLED_VALUES = {
    "moe-flex-dispatcher-backend": {"deepep", "hybridep"}, "optimizer": {"adam"}, "main-grads-dtype": {"fp32"},
    "main-params-dtype": {"fp32"}, "exp-avg-dtype": {"fp32"}, "exp-avg-sq-dtype": {"fp32"},
    "num-distributed-optimizer-instances": {"1"}, "optimizer-offload-fraction": {"0", "0.0"},
    "cpu-offloading-num-layers": {"0"}, "mlp-type": {"standard"},
}


@dataclass
class Flag:
    values: list[str]
    line: int


class Flags:
    """The flags of a script (last occurrence wins) and the flags it does not read, in order."""

    def __init__(self, path: str):
        self.path = path
        self.flags: dict[str, Flag] = {}
        self.unknown: dict[str, None] = {}

    def scan(self, fields: list[Field]) -> None:
        i = 0
        while i < len(fields):
            f = fields[i]
            i += 1
            if not f.text.startswith("--") or len(f.text) < 3:
                continue
            raw, eq, inline = f.text[2:].partition("=")
            name = raw.replace("_", "-")
            if name != raw and raw not in ALIASES and name not in LAUNCHER and name in BOOL | VALUED | LIST:
                # torchrun takes --nproc_per_node; Megatron's argparse knows only the dashed spelling
                raise AuditParseError(self.path, f.line, f"--{raw}: Megatron's argument parser refuses the "
                                                         f"underscore spelling (write --{name})")
            name = ALIASES.get(name, name)
            values: list[str] = [inline] if eq else []
            known = name in BOOL or name in VALUED or name in LIST or name in LAUNCHER
            if not eq and name not in BOOL:
                while i < len(fields) and not fields[i].text.startswith("--"):
                    values.append(fields[i].text)
                    i += 1
                    if name not in LIST and known:
                        break
            if known:
                self.flags[name] = Flag(values, f.line)
            else:
                self.unknown[f"--{name}"] = None

    def has(self, name: str) -> bool:
        return name in self.flags

    def line(self, name: str) -> int | None:
        return self.flags[name].line if name in self.flags else None

    def raw(self, name: str) -> str | None:
        flag = self.flags.get(name)
        if flag is None:
            return None
        if not flag.values:
            raise AuditParseError(self.path, flag.line, f"--{name} needs a value")
        self.check_resolved(name, flag.values[0])
        return flag.values[0]

    def strings(self, name: str) -> list[str] | None:
        flag = self.flags.get(name)
        if flag is None:
            return None
        for v in flag.values:
            self.check_resolved(name, v)
        return list(flag.values)

    def ints(self, name: str) -> list[int] | None:
        flag = self.flags.get(name)
        if flag is None:
            return None
        return [self._int(name, v) for v in flag.values]

    def int(self, name: str) -> int | None:
        value = self.raw(name)
        return None if value is None else self._int(name, value)

    def float(self, name: str) -> float | None:
        value = self.raw(name)
        if value is None:
            return None
        try:
            out = float(value)
        except ValueError:
            out = float("nan")
        if not out == out or out in (float("inf"), float("-inf")) or len(value) > 40:
            raise AuditParseError(self.path, self.flags[name].line,
                                  f"--{name} expects a finite number, got {value[:40]!r}")
        return out

    def check_resolved(self, name: str, value: str) -> None:
        bad = unresolved(value)
        if bad:
            kind = "command substitution" if bad[0].startswith("$(") and not bad[0].startswith("$((") \
                else "arithmetic" if bad[0].startswith("$((") else "shell variable"
            raise AuditParseError(self.path, self.flags[name].line,
                                  f"unresolvable {kind} {bad[0][:60]} in --{name} (pass --env NAME=VALUE)")

    def _int(self, name: str, value: str) -> int:
        self.check_resolved(name, value)
        text = value.strip()
        if not (text.lstrip("-").isdigit() and len(text) <= 12):
            raise AuditParseError(self.path, self.flags[name].line,
                                  f"--{name} expects an integer, got {value[:40]!r}")
        out = int(text)
        if not 0 <= out <= INT_LIMIT:
            raise AuditParseError(self.path, self.flags[name].line,
                                  f"--{name} {out} is out of range (0 .. {INT_LIMIT})")
        return out

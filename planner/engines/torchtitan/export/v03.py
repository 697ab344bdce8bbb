"""A plan as a torchtitan 0.3.0 config module: the form 0.3 loads (torchtitan/config/manager.py:
`--module M --config F` imports M, or M.config_registry, and calls F() for a `Trainer.Config`;
command-line overrides follow). The module builds on torchtitan's own registry function for the
model (models/<model>/config_registry.py) and sets what the plan decided on top of it:

* the model as `model_registry(flavor)` with no converters (the 405B registry config turns float8
  and async TP on, which the estimate does not model), and the chunked loss sized for it;
* `ParallelismConfig` degrees: FSDP2 over dp (dp_shard = dp, as the cost model shards dense state
  over dp x cp: torchtitan's fsdp mesh is dp_shard x cp, parallel_dims.py build_mesh), "always" /
  "never" reshard for zero3 / zero2; DDP is dp_replicate = dp; TP, CP, PP, EP (0.3 has no expert-TP
  degree: its experts shard over efsdp x ep = dp_shard * cp * tp, configs.py:254-260);
* per-stage layers as module_fqns_per_model_part, the last part ending in `norm`, `lm_head`
  (0.3's module name: distributed/pipeline_parallel.py:396);
* activation checkpointing as its policy config (distributed/activation_checkpoint.py:334-339):
  None, FullAC (every block) or SelectiveAC (per-op); 0.3 has no every-k-th-block form;
* `training.disable_cuda_graphs` with PP or EP (trainer.py:179-210 refuses CUDA graphs with either);
* torch.compile on the model only (the fused kernels the torchtitan target assumes; eager loss).

What 0.3 cannot say is refused in one line (ExportError): expert TP, every-k-th-block AC, a
sequence above the model's RoPE maximum (models/common/decoder.py:163-172 refuses it), a model with
no registry flavour. The training settings a job needs are written as marked lines to fill.
"""
from __future__ import annotations

from planner.engines.torchtitan import export as toml_export
from planner.engines.torchtitan import recompute

VERSION = "torchtitan 0.3.0"
FUNCTION = "foldplan_config"
from planner.engines.torchtitan import models  # noqa: E402
from planner.engines.torchtitan.models import FLEX, REGISTRY  # noqa: E402,F401  (the one table)
from planner.engines.errors import ExportError
from planner.engines.torchtitan.export.precision import v03_converters

FILL = [
    ('config.hf_assets_path = "<tokenizer / HF assets folder>"', "tokenizer"),
    ('config.dataloader.dataset = "<dataset name>"', "data"),
    ("config.optimizer = default_adamw(lr=<peak LR>)", "optimizer and peak LR"),
    ("config.lr_scheduler.warmup_steps = <steps>; config.lr_scheduler.decay_type = \"cosine\"", "LR schedule"),
    ("config.training.steps = <iterations>", "iterations"),
    ('config.checkpoint.folder = "<save folder>"; config.checkpoint.interval = <steps>', "checkpoint save"),
    ('config.checkpoint.initial_load_path = "<checkpoint to start from>"', "checkpoint load"),
]


def _refuse(why: str):
    raise ExportError(f"export --to torchtitan (0.3): {why}")


def model_parts(L, layers: int) -> list[list[str]]:
    parts = toml_export.model_parts(L, layers)
    parts[-1][-1] = "lm_head"
    return parts


def settings(plan) -> dict:
    """What the module sets: {"imports", "base", "flavor", "lines"} (lines: Python statements)."""
    pr, L = plan.problem, plan.layout
    why = models.unsupported(pr)
    if why:
        _refuse(why)
    pkg, flavor, base, rope_max = REGISTRY[pr.model.name]
    s0 = L.stages[0]
    if pr.model.moe is not None and s0.etp > 1:
        _refuse(f"expert TP {s0.etp}: torchtitan 0.3 has no expert-TP degree (experts shard over efsdp x ep; "
                f"0.2 has one: --to torchtitan-0.2)")
    form, why = recompute.form(L)
    if why:
        _refuse(why)
    if form["mode"] == "selective" and form["option"] != "op":
        _refuse(f"full AC on every k-th block (k = {form['option']}): 0.3 checkpoints every block (FullAC) or per op "
                f"(SelectiveAC); 0.2 has it: --to torchtitan-0.2")
    p = "config.parallelism."
    mtp = f", num_mtp_layers={pr.model.mtp_layers}" if pr.model.mtp_layers else ""   # deepseek_v3/__init__.py:616-622
    conv_import, conv = v03_converters(plan)
    lines = [f"config.model_spec = model_registry({flavor!r}{mtp}{conv})",
             "config.loss = ChunkedLossWrapper.Config(loss_fn=CrossEntropyLoss.Config("
             "global_vocab_size=decoder_vocab_size(config.model_spec)))",
             f"{p}data_parallel_replicate_degree = {L.dp if L.sharding == 'none' else 1}",
             f"{p}data_parallel_shard_degree = {1 if L.sharding == 'none' else L.dp}",
             f"{p}tensor_parallel_degree = {L.tp}", f"{p}context_parallel_degree = {L.cp}",
             f"{p}pipeline_parallel_degree = {L.pp}",
             f"{p}expert_parallel_degree = {s0.ep if pr.model.moe is not None else 1}"]
    if L.cp > 1:        # config/configs.py:235: "headtail" (default) or None
        lines.append(f"{p}context_parallel_load_balancer = {_balancer(L)!r}")
    if L.sharding != "none":
        lines.append(f"{p}fsdp_reshard_after_forward = {('always' if L.sharding == 'zero3' else 'never')!r}")
    if L.pp > 1:
        lines += [f"{p}pipeline_parallel_schedule = {('Interleaved1F1B' if L.vpp > 1 else '1F1B')!r}",
                  f"{p}pipeline_parallel_microbatch_size = {L.micro_batch}",
                  f"{p}module_fqns_per_model_part = {model_parts(L, pr.model.layers)!r}"]
    local = L.micro_batch * L.num_microbatches if L.pp > 1 else L.micro_batch
    if L.master not in ("fp32", "bf16"):        # configs.py TrainingConfig.dtype: float32 (FSDP2 mixed) | bfloat16
        _refuse(f"master {L.master}: torchtitan stores fp32 parameters under FSDP2 mixed precision (master fp32) "
                f"or everything in bf16 (training.dtype = 'bfloat16', master bf16)")
    if L.master == "bf16":
        lines.append('config.training.dtype = "bfloat16"')
    lines += [f"config.training.seq_len = {pr.train.seq}", f"config.training.local_batch_size = {local}",
              f"config.training.global_batch_size = {L.dp * L.micro_batch * L.num_microbatches}",
              f"config.training.disable_cuda_graphs = {L.pp > 1 or (s0.ep > 1 and pr.model.moe is not None)}",
              "config.compile = CompileConfig(enable=True, components=['model'])",
              *(["config.debug.moe_force_load_balance = True"]        # configs.py:365: round-robin routing
                if pr.model.moe is not None and pr.train.routing == "forced" else []),
              "config.activation_checkpoint = " + {"none": "None", "full": "FullAC.Config()",
                                                   "selective": "SelectiveAC.Config()"}[form["mode"]]]
    return {"pkg": pkg, "base": base, "lines": lines, "imports": [conv_import] if conv_import else []}


def _balancer(L):
    """context_parallel_load_balancer of the plan's cp_balance (None: contiguous chunks)."""
    return "headtail" if L.cp_balance == "headtail" else None


def render(plan, name: str) -> dict[str, str]:
    s, e, L = settings(plan), plan.estimate, plan.layout
    nproc = min(plan.problem.cluster.gpus_per_node, L.world)
    head = [f'"""foldplan plan for {VERSION}: {plan.problem.model.name} on {L.world} x '
            f'{plan.problem.cluster.gpu.name}; estimate {e.step_time:.3f} s per step, peak '
            f'{e.peak_bytes / 2**30:.1f} GiB.', "",
            f"Run from the folder holding this file ({L.world // nproc} node(s) of {nproc}):",
            f"    PYTHONPATH=. torchrun --nproc-per-node {nproc} -m torchtitan.train --module {name} "
            f"--config {FUNCTION}", "", "Fill the lines marked FILL before a real run."]
    if L.cp > 1:   # the plan's cp_comm ag-flex (target.cp_comm): what 0.3 runs for every language model
        head.append(f"CP: 0.3 runs FlexAttention with K/V all-gathered (distributed/context_parallel/api.py:57-78), "
                    f"as the plan prices it (cp_comm {L.cp_comm}, load balancer {_balancer(L)}).")
    if plan.problem.train.precision != "bf16":   # components/quantization/float8.py:25, 79: torchao's converters
        head.append(f"Requires torchao (the {plan.problem.train.precision} converters are torchao's: components/"
                    f"quantization/float8.py:25-79; torchtitan 0.3.0 pins the torchao nightly of its release, "
                    f"docs/release.md).")
    head.append('"""')
    body = [f"from torchtitan.models.{s['pkg']}.config_registry import {s['base']}",
            f"from torchtitan.models.{s['pkg']} import model_registry",
            "from torchtitan.components.loss import ChunkedLossWrapper, CrossEntropyLoss",
            "from torchtitan.components.optimizer import default_adamw  # noqa: F401  (FILL below)",
            "from torchtitan.config import CompileConfig",
            "from torchtitan.distributed.activation_checkpoint import FullAC, SelectiveAC  # noqa: F401",
            "from torchtitan.models.common.config_utils import decoder_vocab_size", *s["imports"], ""]
    body += ["",
            f"def {FUNCTION}():", f"    config = {s['base']}()", "    # the layout foldplan planned"]
    body += [f"    {line}" for line in s["lines"]]
    body.append("    # FILL: the training settings a job needs (until set, the registry function's values stand)")
    body += [f"    # FILL ({what}): {line}" for line, what in FILL]
    body.append("    return config")
    return {f"{name}.py": "\n".join(head + body) + "\n"}

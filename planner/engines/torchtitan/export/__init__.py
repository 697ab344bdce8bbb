"""A plan as a torchtitan job TOML (pytorch/torchtitan at 238fa99, the last commit whose job
config is TOML: torchtitan/config/job_config.py; line numbers in the comments).

* FSDP2 over all of dp (data_parallel_shard_degree = dp, no HSDP: the cost model shards dense
  state over dp x cp, which is torchtitan's "fsdp" mesh, parallel_dims.py:137);
  fsdp_reshard_after_forward "always" = zero3, "never" = zero2; DDP (sharding none) is
  data_parallel_replicate_degree = dp on a 1-D mesh;
* ring CP with context_parallel_rotate_method (job_config.py:446): "allgather" for a plan priced as
  SDPA's all-gather rotation (cp_comm ag-ring), else "alltoall" (KV shards passed round the ring, p2p;
  a 0.3 plan's ag-flex has no 0.2 form and is written as the ring, which costs no more);
* per-stage layers as module_fqns_per_model_part (job_config.py:367), one chunk per virtual
  stage, chunk k on rank k % pp (schedule Interleaved1F1B when vpp > 1, else 1F1B);
* [activation_checkpoint] mode none / full / selective with "op" or every k-th block
  (job_config.py:651-656);
* [compile] enable with components ["model"]: the elementwise ops fused, as the estimate of the
  torchtitan target assumes (TrainSpec.kernels "fused"); the loss stays eager, as its
  logit bytes assume (TrainSpec.logit_bytes).

The TOML holds no model shapes, only [model] name and flavor: a plan whose model is no
torchtitan flavour is refused.
"""
from __future__ import annotations

from planner.engines.torchtitan.read import TITAN_PRESETS
from planner.engines.torchtitan import recompute, vocab
from planner.engines.errors import ExportError
from planner.engines.torchtitan.export.precision import toml_tables


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)


def model_parts(L, layers: int) -> list[list[str]]:
    """module_fqns_per_model_part: part k holds the layers of virtual stage k = v * pp + r
    (Layout.virtual_stages; torchtitan places part k on rank k % pp, the "loop" style)."""
    parts = [[f"layers.{i}" for i in chunk] for chunk in L.virtual_stages]
    parts[0].insert(0, "tok_embeddings")
    parts[-1] += ["norm", "output"]
    assert sum(len(c) for c in L.virtual_stages) == layers
    return parts


def tables(plan) -> dict[str, dict]:
    pr, L = plan.problem, plan.layout
    flavour = {v: k for k, v in TITAN_PRESETS.items()}.get(pr.model.name)
    if flavour is None:
        known = ", ".join(sorted(TITAN_PRESETS.values()))
        raise ExportError(f"export --to torchtitan: model {pr.model.name} has no torchtitan flavour (a TOML names "
                          f"one; these have: {known})")
    name, flav = flavour.split(":")
    if pr.train.capacity_factor is not None:
        raise ExportError(f"export --to torchtitan: capacity_factor {pr.train.capacity_factor} has no torchtitan "
                          f"key (its MoE is dropless)")
    form, why = recompute.form(L)
    if why:
        raise ExportError(f"export --to torchtitan: {why}")
    s0 = L.stages[0]
    local = L.micro_batch * L.num_microbatches if L.pp > 1 else L.micro_batch
    key = vocab.key
    par = {key("dp_replicate"): L.dp if L.sharding == "none" else 1,
           key("dp_shard"): 1 if L.sharding == "none" else L.dp,
           key("tp"): L.tp, key("cp"): L.cp, key("pp"): L.pp}
    if L.sharding != "none":
        par[key("sharding")] = vocab.reshard(L.sharding)
    if L.cp > 1:
        par[key("cp_kind")] = "allgather" if L.cp_comm == "ag-ring" else vocab.rotate(L.cp_kind)
    if L.pp > 1:
        par["pipeline_parallel_schedule"] = "Interleaved1F1B" if L.vpp > 1 else "1F1B"
        par[key("micro_batch")] = L.micro_batch
        par["module_fqns_per_model_part"] = model_parts(L, pr.model.layers)
    if pr.model.moe is not None:
        par[key("ep")] = s0.ep
        par[key("etp")] = s0.etp
    ac = {"mode": form["mode"]}
    if form["mode"] == "selective":
        ac["selective_ac_option"] = form["option"]
    prec = toml_tables(plan)
    out = {"job": {"description": f"foldplan plan: {pr.model.name} on {L.world} x {pr.cluster.gpu.name}"},
           "model": {"name": name, "flavor": flav, **prec.pop("model", {})},
           "training": {"seq_len": pr.train.seq, "local_batch_size": local,
                        "global_batch_size": L.dp * L.micro_batch * L.num_microbatches},
           "parallelism": par, "activation_checkpoint": ac, "compile": {"enable": True, "components": ["model"]},
           **prec}
    if pr.model.moe is not None and pr.train.routing == "forced":    # 0.2.2 job_config.py:995: round robin
        out.setdefault("debug", {})["moe_force_load_balance"] = True
    return out


def render(plan, name: str) -> dict[str, str]:
    e = plan.estimate
    lines = [f"# torchtitan 0.2.2 job config written by foldplan export ({plan.layout.world} GPUs: "
             f"torchrun --nproc-per-node {min(plan.problem.cluster.gpus_per_node, plan.layout.world)} ...); "
             f"estimate {e.step_time:.3f} s per step, peak {e.peak_bytes / 2**30:.1f} GiB"]
    for section, values in tables(plan).items():
        lines += ["", f"[{section}]"] + [f"{k} = {_toml(v)}" for k, v in values.items()]
    lines += ["", "# FILL before a real run (until set, torchtitan's defaults stand):",
              '# [model] hf_assets_path = "<tokenizer / HF assets folder>"',
              '# [training] dataset = "<dataset>"   steps = <iterations>',
              "# [optimizer] lr = <peak LR>   [lr_scheduler] warmup_steps = <steps>",
              '# [checkpoint] enable = true   folder = "<save folder>"   interval = <steps>',
              '# [checkpoint] initial_load_path = "<checkpoint to start from>"']
    return {f"{name}.toml": "\n".join(lines) + "\n"}

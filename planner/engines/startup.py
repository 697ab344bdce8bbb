"""The rules each framework enforces at start-up, checked before a single GPU is booked.

``framework_rules(cfg, world)`` returns ``Finding``s with stable rule ids
(``<framework>.<check>``; ``layout.*`` and ``folding.*`` for the identities
every layout satisfies, DESIGN.md "Notation"). Each message shows the
arithmetic, each finding has a one-line fix. Sources of the rules:

* Megatron-LM: megatron/training/arguments.py (validate_args),
  megatron/core/parallel_state.py, megatron/core/transformer/transformer_config.py;
* torchtitan: torchtitan/distributed/parallel_dims.py (ParallelDims._validate);
* DeepSpeed: runtime/config.py (batch assertion), runtime/pipe/engine.py (ZeRO-2/3
  refused with pipeline parallelism), sequence/layer.py (Ulysses all-to-all);
The identities every layout satisfies (world product, folding, heads / tp, ep | experts,
CP splits, ...) are not re-checked here: ``audit.run_audit`` reports the violations of
planner.layout's one rule table, each once, with its id.

A rule whose inputs are unknown (``None``) is skipped, not guessed.
"""

from __future__ import annotations

from typing import Callable, Iterator

from planner.engines.foreign import Finding, ForeignConfig, exact_div, product


def framework_rules(cfg: ForeignConfig, world: int | None = None) -> list[Finding]:
    """Every framework rule that ``cfg`` breaks, plus notes; ``world`` overrides ``cfg.world``."""
    if world is not None and world != cfg.world:
        cfg = with_world(cfg, world)
    checks: dict[str, list[Callable[[ForeignConfig], Iterator[Finding]]]] = {
        "megatron": [_megatron],
        "torchtitan": [_torchtitan],
        "deepspeed": [_deepspeed],
        "foldplan": [],
        "layout": [],
    }
    out: list[Finding] = []
    for check in checks[cfg.format] + [_notes]:
        out.extend(check(cfg))
    return out


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    """Re-derive the degrees a framework computes from the world size."""
    if cfg.format == "megatron":
        return cfg.replace(world=world, dp=exact_div(world, product(cfg.tp, cfg.pp, cfg.cp)),
                           edp=exact_div(world, product(cfg.etp, cfg.ep, cfg.pp)))
    if cfg.format == "torchtitan" and cfg.extra.get("dp_shard", -1) == -1:
        rep = cfg.extra.get("dp_replicate", 1)
        shard = exact_div(world, product(rep, cfg.cp, cfg.tp, cfg.pp))
        dp = product(rep, shard)
        gb = cfg.global_batch if cfg.extra.get("global_batch_given") else product(cfg.extra.get("local_batch"), dp)
        return cfg.replace(world=world, dp=dp, edp=exact_div(product(cfg.tp, cfg.cp, dp), product(cfg.etp, cfg.ep)),
                           global_batch=gb, extra={**cfg.extra, "dp_shard": shard if shard else -1})
    if cfg.format == "deepspeed":
        dp = exact_div(world, product(cfg.tp, cfg.pp, cfg.cp))
        return cfg.replace(world=world, dp=dp, edp=exact_div(product(cfg.tp, cfg.cp, dp), cfg.ep))
    return cfg.replace(world=world)


def _err(rule: str, message: str, fix: str) -> Finding:
    return Finding("error", rule, message, fix)


def _warn(rule: str, message: str, fix: str) -> Finding:
    return Finding("warning", rule, message, fix)


def _up(x: int, d: int) -> int:
    """The smallest multiple of ``d`` that is >= ``x``."""
    return -(-x // d) * d


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _moe(cfg: ForeignConfig) -> dict:
    return cfg.model.get("moe") or {}


# ---------------------------------------------------------------------------
# Megatron-LM
# ---------------------------------------------------------------------------


def _megatron(c: ForeignConfig) -> Iterator[Finding]:
    at = c.where
    tp, pp, cp, ep, etp, world = c.tp or 1, c.pp or 1, c.cp or 1, c.ep or 1, c.etp or 1, c.world
    m, moe = c.model, _moe(c)
    layers, heads = m.get("layers"), m.get("heads")

    if world is not None:
        if world % (tp * pp * cp):
            yield _err("megatron.world_divisible",
                       f"{at('world', 'tp')}: world({world}) is not divisible by "
                       f"tp({tp})*pp({pp})*cp({cp})={tp * pp * cp}",
                       f"use a world size that is a multiple of {tp * pp * cp}, or change tp/pp/cp so "
                       f"their product divides {world}")
        if world % (etp * ep * pp):
            yield _err("megatron.expert_world_divisible",
                       f"{at('ep', 'world')}: world({world}) is not divisible by "
                       f"etp({etp})*ep({ep})*pp({pp})={etp * ep * pp}",
                       f"pick ep so that etp*ep*pp divides {world} "
                       f"(ep in {[d for d in _divisors(world // (etp * pp)) if d <= 256]})"
                       if world % (etp * pp) == 0 else f"make etp*pp divide {world}")

    if cp > 1 and c.cp_kind != "ring" and c.seq is not None and c.seq % (2 * cp):
        yield _err("megatron.cp_seq_divisible",
                   f"{at('seq')}: seq_length({c.seq}) is not divisible by 2*cp({cp})={2 * cp} "
                   f"(zig-zag context parallel cuts each sequence into 2*cp chunks)",
                   f"set --seq-length {_up(c.seq, 2 * cp)} (next multiple of {2 * cp}) or pad the data")

    experts = moe.get("experts")
    if ep > 1 and not experts:
        yield _err("megatron.ep_without_experts", f"{at('ep')}: ep({ep}) > 1 but --num-experts is not set",
                   "set --num-experts, or drop --expert-model-parallel-size")
    yield from _megatron_pipeline(c, layers, pp)

    hier = c.extra.get("hierarchical_cp_sizes")
    if c.cp_kind == "hybrid":
        if not hier:
            yield _err("megatron.hierarchical_cp",
                       f"{at('cp_kind')}: --cp-comm-type a2a+p2p needs --hierarchical-context-parallel-sizes",
                       f"add --hierarchical-context-parallel-sizes A R with A*R = cp({cp})")
        elif product(*hier) != cp:
            yield _err("megatron.hierarchical_cp",
                       f"{at('hierarchical_cp_sizes')}: hierarchical context parallel sizes "
                       f"{'*'.join(map(str, hier))}={product(*hier)} != cp({cp})",
                       f"make the sizes multiply to {cp}")
    if c.sequence_parallel and tp == 1:
        yield _warn("megatron.sequence_parallel_tp1",
                    f"{at('sequence_parallel')}: --sequence-parallel with tp(1): Megatron turns it off",
                    "drop --sequence-parallel, or use tp > 1")
    if ep > 1 and tp > 1 and not c.sequence_parallel:
        yield _err("megatron.moe_tp_needs_sp",
                   f"{at('ep', 'tp')}: expert parallelism ep({ep}) with tensor parallelism tp({tp}) needs "
                   f"--sequence-parallel (transformer_config.py raises ValueError)",
                   "add --sequence-parallel")

    freq = moe.get("layer_freq")
    if isinstance(freq, list) and layers is not None and len(freq) != layers:
        yield _err("megatron.moe_layer_freq_length",
                   f"{at('layer_freq')}: --moe-layer-freq lists {len(freq)} layers "
                   f"({len(freq) - sum(freq)} dense + {sum(freq)} MoE) but num_layers is {layers}",
                   f"give one entry per layer: {layers} entries")

    if c.dp and c.micro_batch and c.global_batch and c.global_batch % (c.micro_batch * c.dp):
        mb_dp = c.micro_batch * c.dp
        yield _err("megatron.global_batch_divisible",
                   f"{at('global_batch')}: global_batch_size({c.global_batch}) is not divisible by "
                   f"micro_batch_size({c.micro_batch})*dp({c.dp})={mb_dp}",
                   f"use --global-batch-size {_up(c.global_batch, mb_dp)} (next multiple of {mb_dp})")
    elif c.dp and c.micro_batch and c.global_batch and pp > 1:
        n_micro = c.global_batch // (c.micro_batch * c.dp)
        if n_micro < pp:
            yield _warn("megatron.microbatches_lt_pp",
                        f"{at('global_batch')}: {n_micro} micro-batches per step = global({c.global_batch}) / "
                        f"(micro({c.micro_batch})*dp({c.dp})) is less than pp({pp}): the pipeline never fills",
                        f"raise --global-batch-size to at least {pp * c.micro_batch * c.dp}")
        elif (c.vpp or 1) > 1 and n_micro % pp:
            yield _warn("megatron.interleaved_microbatches",
                        f"{at('global_batch')}: interleaved schedule with {n_micro} micro-batches, not a multiple "
                        f"of pp({pp}) (older Megatron-LM refuses this)",
                        f"use a global batch giving a multiple of {pp} micro-batches")


def _megatron_pipeline(c: ForeignConfig, layers: int | None, pp: int) -> Iterator[Finding]:
    at = c.where
    if layers is None:
        return
    first, last = c.first_stage_layers, c.last_stage_layers
    if first is not None or last is not None:
        given = [x for x in (first, last) if x is not None]
        middle_layers = layers - sum(given)
        middle_stages = pp - len(given)
        shown = " - ".join([f"layers({layers})"] + [f"{n}({x})" for n, x in (("first", first), ("last", last))
                                                    if x is not None])
        if pp < 2 or middle_layers < 0 or (middle_stages == 0 and middle_layers) or \
                (middle_stages > 0 and middle_layers % middle_stages):
            yield _err("megatron.pp_layers_divisible",
                       f"{at('first_stage_layers', 'last_stage_layers')}: uneven pipeline split: {shown} = "
                       f"{middle_layers} middle layers over pp({pp}) - {len(given)} = {middle_stages} middle stages "
                       f"is not a whole number per stage",
                       "change --decoder-first/last-pipeline-num-layers so the rest divides evenly")
        per_stage = exact_div(middle_layers, middle_stages) if middle_stages > 0 else None
    else:
        counted = layers + int(bool(c.extra.get("account_embedding"))) + int(bool(c.extra.get("account_loss")))
        if counted % pp:
            extra_terms = "".join(f" + 1 ({n})" for n, k in (("embedding", "account_embedding"),
                                                             ("loss", "account_loss")) if c.extra.get(k))
            yield _err("megatron.pp_layers_divisible",
                       f"{at('layers', 'pp')}: num_layers({layers}){extra_terms} = {counted} is not divisible by "
                       f"pp({pp})",
                       f"use pp in {[d for d in _divisors(counted) if d <= 64]}, or set "
                       f"--decoder-first/last-pipeline-num-layers for an uneven split")
        per_stage = exact_div(counted, pp)
    vpp_layers = c.extra.get("vpp_layers")
    if vpp_layers and per_stage is not None and per_stage % vpp_layers:
        yield _err("megatron.vpp_layers_divisible",
                   f"{at('vpp_layers')}: layers per pipeline stage {per_stage} is not divisible by "
                   f"num_layers_per_virtual_pipeline_stage({vpp_layers})",
                   f"use a virtual stage size in {_divisors(per_stage)}")
    interleaved = bool(vpp_layers) or (c.vpp or 1) > 1
    if interleaved and pp < 2:
        yield _err("megatron.vpp_needs_pp",
                   f"{at('vpp_layers', 'pp')}: the interleaved schedule needs pipeline parallelism; pp is {pp}",
                   "drop --num-layers-per-virtual-pipeline-stage, or use more pipeline stages")
    elif interleaved and pp == 2 and not c.extra.get("overlap_p2p"):
        # current Megatron-Core interleaves over 2 stages (its CI does); older releases asserted pp > 2
        yield _warn("megatron.vpp_pp2",
                    f"{at('vpp_layers', 'pp')}: interleaving over pp(2) without --overlap-p2p-comm: older "
                    f"Megatron-LM releases refuse it (pp > 2 required)", "check the Megatron-LM version you run")


# ---------------------------------------------------------------------------
# torchtitan
# ---------------------------------------------------------------------------


def _torchtitan(c: ForeignConfig) -> Iterator[Finding]:
    at = c.where
    tp, pp, cp, ep, etp, world = c.tp or 1, c.pp or 1, c.cp or 1, c.ep or 1, c.etp or 1, c.world
    rep, shard = c.extra.get("dp_replicate", 1), c.extra.get("dp_shard", -1)
    if world is not None:
        if shard == -1:
            if world % (rep * cp * tp * pp):
                yield _err("torchtitan.world_product",
                           f"{at('tp', 'pp')}: data_parallel_shard_degree=-1 but WORLD_SIZE({world}) is not divisible "
                           f"by dp_replicate({rep})*cp({cp})*tp({tp})*pp({pp})={rep * cp * tp * pp}",
                           f"make the fixed degrees' product divide {world}")
        elif rep * shard * cp * tp * pp != world:
            yield _err("torchtitan.world_product",
                       f"{at('dp_shard', 'tp')}: dp_replicate({rep}) * dp_shard({shard}) * cp({cp}) * tp({tp}) * "
                       f"pp({pp}) = {rep * shard * cp * tp * pp} != WORLD_SIZE({world})",
                       "set data_parallel_shard_degree = -1 to use the leftover ranks")
    if ep > 1:
        if etp not in (1, tp):
            yield _err("torchtitan.etp_one_or_tp",
                       f"{at('etp')}: expert_tensor_parallel_degree({etp}) must be 1 or "
                       f"tensor_parallel_degree({tp})",
                       f"set expert_tensor_parallel_degree to 1 or {tp}")
        if shard != -1:
            region, shown = (shard * cp * tp, f"dp_shard({shard})*cp({cp})*tp({tp})") if etp == 1 \
                else (shard * cp, f"dp_shard({shard})*cp({cp})")
            if region % ep:
                yield _err("torchtitan.ep_divides_region",
                           f"{at('ep')}: ep({ep}) must divide {shown} = {region} (EP reuses those ranks"
                           f"{'; with etp = tp it may not take tp ranks' if etp != 1 else ''})",
                           f"use ep in {[d for d in _divisors(region) if d > 1]}")
            borrow, bshown = (cp * tp, f"cp({cp})*tp({tp})") if etp == 1 else (cp, f"cp({cp})")
            if ep % borrow:
                yield _warn("torchtitan.ep_borrows_cp",
                            f"{at('ep')}: ep({ep}) is not a multiple of {bshown} = {borrow}; torchtitan versions "
                            f"with expert_tensor_parallel_degree require EP to take all of those ranks",
                            f"use ep a multiple of {borrow}")
    if c.seq is not None and (cp > 1 or tp > 1):
        d, shown = (2 * cp * tp, f"2*cp({cp})*tp({tp})") if cp > 1 else (tp, f"tp({tp})")
        if c.seq % d:
            yield _err("torchtitan.seq_divisible",
                       f"{at('seq')}: seq_len({c.seq}) is not divisible by {shown}={d}",
                       f"set seq_len = {_up(c.seq, d)}")
    local = c.extra.get("local_batch")
    if pp > 1 and local and c.micro_batch and local % c.micro_batch:
        yield _err("torchtitan.pp_microbatch",
                   f"{at('micro_batch')}: local_batch_size({local}) is not divisible by "
                   f"pipeline_parallel_microbatch_size({c.micro_batch})",
                   f"use a local batch that is a multiple of {c.micro_batch}")


# ---------------------------------------------------------------------------
# DeepSpeed
# ---------------------------------------------------------------------------


def _deepspeed(c: ForeignConfig) -> Iterator[Finding]:
    at = c.where
    tp, pp, sp, ep, world = c.tp or 1, c.pp or 1, c.cp or 1, c.ep or 1, c.world
    if world is not None and world % (tp * pp * sp):
        yield _err("deepspeed.world_divisible",
                   f"{c.path}: world({world}) is not divisible by tp({tp})*pp({pp})*sp({sp})={tp * pp * sp}",
                   f"use a world size that is a multiple of {tp * pp * sp}")
    gas = c.extra.get("gradient_accumulation_steps")
    train = c.extra.get("train_batch_size")
    micro = c.extra.get("micro_batch")
    if train and micro and gas and c.dp and train != micro * gas * c.dp:
        yield _err("deepspeed.batch_identity",
                   f"{at('global_batch')}: train_batch_size({train}) != micro({micro}) * "
                   f"gradient_accumulation_steps({gas}) * dp({c.dp}) = {micro * gas * c.dp}",
                   f"set train_batch_size to {micro * gas * c.dp}, or drop one of the three and let DeepSpeed derive it")
    if (c.zero_stage or 0) >= 2 and pp > 1:
        yield _err("deepspeed.zero_pipeline",
                   f"{at('zero_stage')}: ZeRO stage {c.zero_stage} with pipeline parallelism pp({pp}): "
                   f"DeepSpeed's pipeline engine accepts ZeRO 0 or 1 only",
                   "use zero_optimization.stage 1 with pipeline parallelism")
    if sp > 1 and c.seq is not None and c.seq % sp:
        yield _err("deepspeed.ulysses_seq",
                   f"{at('seq', 'cp')}: seq({c.seq}) is not divisible by sequence_parallel_size({sp})",
                   f"use seq {_up(c.seq, sp)}")
    if ep > 1 and c.dp and (c.dp * sp) % ep:
        yield _err("deepspeed.ep_divides_dp",
                   f"{at('ep')}: ep_size({ep}) does not divide the data-parallel ranks dp({c.dp})*sp({sp}) = "
                   f"{c.dp * sp} from which expert groups are carved",
                   f"use ep_size in {_divisors(c.dp * sp)}")


# ---------------------------------------------------------------------------
# for every format
# ---------------------------------------------------------------------------


def _notes(c: ForeignConfig) -> Iterator[Finding]:
    if c.world is None:
        yield Finding("info", "audit.world_unknown",
                      f"{c.path}: the number of GPUs is not known, so dp and edp are not either",
                      "pass --gpus N")
    if c.unknown_flags:
        yield Finding("info", f"{c.format}.unknown_flags",
                      f"{c.path}: ignored {len(c.unknown_flags)} setting(s) that change neither the layout, the "
                      f"memory nor the time the audit estimates: {', '.join(c.unknown_flags)}",
                      "nothing to do unless one of them changes the parallel layout, memory or time")

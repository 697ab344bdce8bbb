"""Megatron target plans exported and handed to Megatron's own code (tests/test_engine_megatron.py).

The four cases of tests/test_export.py's MEGATRON table, plus twelve more: DeepSeek-V3 with pp > 1 (MTP
on the last stage), Mixtral / Llama with virtual pipeline chunks, up to 1,024 ranks, every CP kind,
each sharding. `python tests/megatron_cases.py` prints the judge's table (exports tried / accepted).
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import costmodel as cm  # noqa: E402
from planner.engines import constraints  # noqa: E402
from planner.layout import Layout, Stage, cp_split  # noqa: E402
from planner.plan import Plan  # noqa: E402
from planner.specs import make_problem  # noqa: E402


def make(model, gpus, seq, gb, *, tp=1, cp=1, pp=1, vpp=1, kind="ring", cu=None, fold=None, split=None,
         sharding="zero1", mb=1, full=None, sel=None, mods=("core_attn",), gpu=None, check=True, target="megatron",
         routing=None, capacity_pad=False, comm=None):
    """One `target` plan (Megatron by default; the layout given, the estimate the cost model's)."""
    extra = {"gpu": gpu} if gpu else {}
    if routing:
        extra.update(routing=routing, capacity_pad=capacity_pad)
    p = make_problem(model=model, gpus=gpus, seq=seq, global_batch=gb, memory_gib=10_000, **extra,
                     **{**constraints(target).train_defaults(), **({"cp_comm": comm} if comm else {})})
    dp = gpus // (tp * cp * pp)
    sizes = split or [p.model.layers // pp + (1 if i < p.model.layers % pp else 0) for i in range(pp)]
    etp, ep = fold or (1, 1)
    stages, first = [], 0
    for i, n in enumerate(sizes):
        stages.append(Stage(index=i, layers=(first, first + n), etp=etp, ep=ep, edp=tp * cp * dp // (etp * ep),
                            recompute_full=full[i] if full else 0, recompute_selective=n if sel else 0,
                            recompute_modules=mods))
        first += n
    u, r = cp_split(kind, cp, cu)
    L = Layout(world=gpus, tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp, cp_kind=kind, cp_ulysses=u, cp_ring=r,
               micro_batch=mb, num_microbatches=p.train.global_batch // (dp * mb), sharding=sharding,
               master=p.train.master, cp_comm=p.train.cp_comm, cp_balance=p.train.cp_balance,
               stages=tuple(stages))
    if check:
        bad = constraints(target).violations(L, p)
        assert not bad, bad
    return Plan(p, L, cm.evaluate(p, L), {})


EXPORT_SUITE = {   # tests/test_export.py MEGATRON
    "dense-uneven-vpp-selective": dict(model="llama3-8b", gpus=32, seq="16k", gb=32, tp=2, cp=2, pp=4, vpp=2,
                                       split=[6, 9, 9, 8], sel=True, mods=("core_attn", "layernorm", "mlp")),
    "moe-ulysses-full-block": dict(model="mixtral-8x7b", gpus=64, seq="32k", gb=32, tp=2, cp=4, pp=2,
                                   kind="ulysses", fold=(1, 8), split=[15, 17], full=[3, 3], sharding="zero2",
                                   gpu="b200"),   # Megatron FSDP with TP / CP: Blackwell (target.fsdp_tp_cp)
    "moe-hybrid-zero3-moe_act": dict(model="olmoe-1b-7b", gpus=16, seq="32k", gb=16, cp=8, kind="hybrid", cu=2,
                                     fold=(1, 8), sel=True, mods=("moe_act", "layernorm"), sharding="zero3", gpu="b200"),
    "moe-ring-none": dict(model="olmoe-1b-7b", gpus=16, seq="8k", gb=32, cp=2, pp=2, fold=(1, 4), split=[7, 9],
                          sharding="none", mb=2),
}
MORE = {
    # MoE routing: forced balance; token drop padded to the capacity
    "mixtral-forced": dict(model="mixtral-8x7b", gpus=16, seq="4k", gb=32, pp=2, fold=(1, 8), routing="forced"),
    "olmoe-capacity-pad": dict(model="olmoe-1b-7b", gpus=8, seq="4k", gb=16, fold=(1, 8), routing="capacity=1.25",
                               capacity_pad=True),
    "deepseek-v3-pp8-mtp": dict(model="deepseek-v3", gpus=256, seq="4k", gb=256, pp=8, fold=(1, 32),
                                split=[7, 8, 8, 8, 8, 8, 7, 7], full=[7, 8, 8, 8, 8, 8, 7, 7]),
    "deepseek-v3-pp1-a2a": dict(model="deepseek-v3", gpus=64, seq="16k", gb=16, cp=4, kind="ulysses",
                                fold=(1, 64), full=[61]),
    "mixtral-vpp-tp2": dict(model="mixtral-8x7b", gpus=32, seq="8k", gb=32, tp=2, pp=4, vpp=2, fold=(2, 4),
                            sel=True, mods=("moe_act", "layernorm")),
    "mixtral-8x22b-pp2-vpp2": dict(model="mixtral-8x22b", gpus=64, seq="8k", gb=32, tp=4, pp=2, vpp=2, fold=(1, 8),
                                   full=[28, 28]),
    "llama3-70b-tp8-pp4-vpp2": dict(model="llama3-70b", gpus=64, seq="8k", gb=64, tp=8, pp=4, vpp=5,
                                    sel=True, mods=("core_attn",)),
    "llama3-70b-128k-ring": dict(model="llama3-70b", gpus=512, seq="128k", gb=32, tp=8, cp=16, pp=4, full=[20] * 4),
    # TE's all-gather CP (cp_comm ag-te): --cp-comm-type allgather
    "llama3-8b-64k-allgather": dict(model="llama3-8b", gpus=16, seq="64k", gb=16, tp=2, cp=4, full=[32], comm="ag-te"),
    "llama3-405b-1024": dict(model="llama3.1-405b", gpus=1024, seq="16k", gb=256, tp=8, cp=2, pp=8, vpp=2,
                             split=[15, 16, 16, 16, 16, 16, 16, 15], full=[15, 16, 16, 16, 16, 16, 16, 15]),
    "llama3-8b-fsdp": dict(model="llama3-8b", gpus=8, seq="8k", gb=16, sharding="zero3", gpu="h200"),
    "llama3-8b-a100-tp4": dict(model="llama3-8b", gpus=16, seq="8k", gb=16, tp=4, gpu="a100-80g",
                               sel=True, mods=("core_attn",)),
    "qwen3-30b-ep8": dict(model="qwen3-30b-a3b", gpus=16, seq="8k", gb=16, fold=(1, 8), sharding="zero2",
                          sel=True, mods=("moe_act",)),
    "qwen3-235b-tp4-pp4": dict(model="qwen3-235b-a22b", gpus=128, seq="8k", gb=64, tp=4, pp=4, fold=(1, 8),
                               split=[23, 24, 24, 23], full=[23, 24, 24, 23]),
    "qwen3-30b-b200-cp-a2a": dict(model="qwen3-30b-a3b", gpus=32, seq="32k", gb=16, cp=4, kind="ulysses",
                                  fold=(1, 16), gpu="b200"),
}
CASES = {**EXPORT_SUITE, **MORE}


def plans() -> dict:
    return {name: make(**kw) for name, kw in CASES.items()}


def payload(plan, files) -> tuple[dict, dict]:
    from planner import plan as planmod
    return json.loads(planmod.dumps([plan]))["plans"][0], files


def random_target_plans(seed: int, problems: int, top: int = 2) -> dict:
    """The best `top` plans of `problems` random problems (tests/test_solver.py's draw, on NVIDIA GPUs),
    each planned with --target megatron."""
    import random
    from planner.solve import targets
    from test_solver import random_problem
    rng, out, drawn = random.Random(seed), {}, 0
    while drawn < problems:
        p = random_problem(rng)
        if p.cluster.gpu.name.startswith("mi"):           # Megatron's CUDA path: NVIDIA GPUs only
            continue
        train = p.train.model_copy(update=constraints("megatron").train_defaults())
        p = p.model_copy(update={"train": type(p.train)(**train.model_dump())})
        res = targets.search(p, top=top, time_limit=5)
        for i, c in enumerate(res.plans):
            out[f"random{drawn}#{i}"] = Plan(p, c.layout, c.estimate, {})
        drawn += 1
    return out


def main(problems: int = 8, seed: int = 2029) -> None:
    from planner.engines import export
    from planner.engines.judge import judge
    ps = plans()
    rand = random_target_plans(seed, problems)
    cases = [payload(p, export.render(p, "megatron")) for p in [*ps.values(), *rand.values()]]
    verdicts = judge("megatron", cases)
    for name, v in zip([*ps, *rand], verdicts):
        print(f"{name:32s} {'accepted' if v['accepted'] else 'REFUSED: ' + str(v['reason'])}")
    fixed, drawn = verdicts[:len(ps)], verdicts[len(ps):]
    print(f"megatron ({verdicts[0]['engine']}): {sum(v['accepted'] for v in fixed)} of {len(fixed)} "
          f"exports accepted; random --target megatron plans: {sum(v['accepted'] for v in drawn)} of {len(drawn)}")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:3]))

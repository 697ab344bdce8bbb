"""The toy engine's configs: `*.toy` files of `key = value` lines (the degrees, the batch, the sequence)."""
from planner.engines.record import NO, SURE
from planner.layout.foreign import ForeignConfig

INTS = ("world", "tp", "cp", "dp", "pp", "etp", "ep", "edp", "micro_batch", "global_batch", "seq")


def claims(suffix: str, text: str) -> int:
    return SURE if suffix == ".toy" else NO


def load(text: str, source: str, *, world, env, overrides: dict, degrees: dict) -> ForeignConfig:
    kv = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    kv = {k.strip(): v.strip() for k, v in kv.items()}
    ints = {k: int(kv[k]) for k in INTS if k in kv}
    if world is not None:
        ints["world"] = world
    return ForeignConfig("toy", source, vpp=1, cp_kind="ring", recompute="none", sharding=kv.get("sharding"),
                         master=kv.get("master"), **ints)


def with_world(cfg: ForeignConfig, world: int) -> ForeignConfig:
    return cfg.replace(world=world)

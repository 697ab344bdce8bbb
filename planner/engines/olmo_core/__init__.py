"""OLMo-core (ai2-olmo-core 3.0.0) as a target, an export and an audit source."""

from planner.engines.record import Engine, Export

ENGINE = Engine("olmo-core", __name__, "OLMo-core", recompute=True, reader=True,
                exports=(Export("olmo-core", f"{__name__}.export", "an OLMo-core script", judge=f"{__name__}.judge",
                                probe="olmo_core"),))

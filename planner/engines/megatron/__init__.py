"""Megatron-LM (Megatron-Core): its rules (`rules`: the `target.*` rules and its start-up checks, one
table), its recompute forms (`recompute`), its flag vocabulary (`vocab`, read and written), its flags
read (`read`, `read_yaml`, `flags`, `model`, `pplayout`) and written (`export`)."""

from planner.engines.record import Engine, Export

ENGINE = Engine("megatron", __name__, "Megatron-LM", one_recompute_form=True, recompute=True, reader=True, log=True,
                exports=(Export("megatron", f"{__name__}.export", "Megatron-LM flags", judge=f"{__name__}.judge",
                                probe="megatron.training"),))

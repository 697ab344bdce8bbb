"""Megatron-LM (Megatron-Core): its rules (`rules`: the `target.*` rules and its start-up checks, one
table), its recompute forms (`recompute`), its flag vocabulary (`vocab`, read and written), its flags
read (`read`, `read_yaml`, `flags`, `model`, `pplayout`) and written (`export`)."""

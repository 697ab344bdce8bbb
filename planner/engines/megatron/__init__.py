"""Megatron-LM (Megatron-Core): its flags read (`read`, `read_yaml`, `flags`, `model`, `pplayout`) and
written (`export`)."""

"""torchtitan: its job TOML read (`read`) and written (`export`)."""

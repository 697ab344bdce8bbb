"""torchtitan: its rules (`rules`: the `target.*` rules and its start-up checks, one table), its
activation-checkpoint forms (`recompute`), its job-TOML vocabulary (`vocab`, read and written), its
job TOML read (`read`) and written (`export`)."""

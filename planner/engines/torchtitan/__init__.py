"""torchtitan: its rules (`rules`: the `target.*` rules and its start-up checks, one table), its
activation-checkpoint forms (`recompute`), its job-TOML vocabulary (`vocab`, read and written), its
configs read (`read`: 0.2 job TOML; `read.py03`: 0.3 config module, from its syntax tree) and written
(`export`: 0.2 job TOML; `export.v03`: 0.3 config module), and its own code as the judge of them
(`judge`, run by planner.engines.judge in a child process)."""

"""torchtitan: its rules (`rules`: the `target.*` rules and its start-up checks, one table), its
activation-checkpoint forms (`recompute`), its job-TOML vocabulary (`vocab`, read and written), its
configs read (`read`: 0.2 job TOML; `read.py03`: 0.3 config module, from its syntax tree) and written
(`export`: 0.2 job TOML; `export.v03`: 0.3 config module), and its own code as the judge of them
(`judge`, run by planner.engines.judge in a child process)."""

from planner.engines.record import Engine, Export

# 0.3 (the current release) writes a Python config module; 0.2's job TOML on request, judged by
# torchtitan 0.2 from .engines/torchtitan-0.2 (scripts/install_engines.sh)
ENGINE = Engine("torchtitan", __name__, "torchtitan", recompute=True, reader=True, log=True, exports=(
    Export("torchtitan", f"{__name__}.export.v03", "a torchtitan 0.3 config module", judge=f"{__name__}.judge",
           probe="torchtitan"),
    Export("torchtitan-0.2", f"{__name__}.export", "a torchtitan 0.2 TOML", judge=f"{__name__}.judge",
           probe="torchtitan", judge_path=(".engines/torchtitan-0.2",), refuse=f"{__name__}.rules:refused_by_0_2")))

"""DeepSpeed: its start-up rules (`rules`, one table) and its JSON config and launcher flags read (`read`)."""

from planner.engines.record import Engine

# read only: foldplan plans for no DeepSpeed target (its table has start-up rules only)
ENGINE = Engine("deepspeed", __name__, "DeepSpeed", target=False, reader=True)

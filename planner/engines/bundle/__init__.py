"""foldplan's own bundle as a target: its search defaults and the attention kernel it runs."""

from planner.engines.record import Engine

ENGINE = Engine("bundle", __name__, "foldplan's own bundle", own=True)

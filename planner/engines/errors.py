"""The one error `foldplan export` raises (both engine writers and the CLI read it here)."""


class ExportError(ValueError):
    """The plan cannot be written for the engine. One line, naming what it cannot express."""

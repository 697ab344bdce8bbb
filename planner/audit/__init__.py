"""`foldplan audit`: read a config someone runs, check it, compare it with the best plan.

One small parser per foreign format turns a file into a neutral ``ForeignConfig``
(``source.py``); ``detect.load`` picks the parser; ``rules.framework_rules``
checks the rules of the framework the config was written for.
"""

from .source import AuditParseError, Finding, ForeignConfig

__all__ = ["AuditParseError", "Finding", "ForeignConfig"]

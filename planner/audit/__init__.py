"""`foldplan audit`: read a config someone runs, check it, compare it with the best plan.

One small parser per foreign format turns a file into a neutral ``ForeignConfig``
(``source.py``); ``detect.load`` picks the parser; ``rules.framework_rules``
checks the rules of the framework the config was written for; ``audit.run_audit``
adds the layout rules, memory, the estimate, the best plan and the smallest change
(it imports the cost model and the solver, so it is not imported here).
"""

from .detect import load
from .rules import framework_rules
from .source import AuditParseError, Finding, ForeignConfig

__all__ = ["AuditParseError", "Finding", "ForeignConfig", "framework_rules", "load"]

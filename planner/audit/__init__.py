"""`foldplan audit`: read a config someone runs, check it, compare it with the best plan.

One small parser per foreign format turns a file into a neutral ``ForeignConfig``
(planner.layout.foreign); ``detect.load`` picks the parser; planner.engines.startup's
``framework_rules`` checks the start-up rules of the framework the config was written for
(that engine's rule table, planner/engines/<engine>/rules.py); ``audit.run_audit``
adds the layout rules, memory, the estimate, the best plan and the smallest change
(it imports the cost model and the solver, so it is not imported here). The names below
load on first use, so the CLI's parser can read ``options`` without the parsers.
"""
import importlib

_LAZY = {"load": ".detect", "framework_rules": "planner.engines.startup", "AuditParseError": "planner.layout.foreign",
         "Finding": "planner.layout.foreign", "ForeignConfig": "planner.layout.foreign"}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AuditParseError", "Finding", "ForeignConfig", "framework_rules", "load"]

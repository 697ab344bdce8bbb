"""The cost model: every formula written once, in sympy (`formulas`), compiled twice
(`compile`: direct numeric functions, and the linear coefficients the solver reads), bound
to problems and layouts (`values`), and assembled into per-stage estimates and the step
time (`assemble`, the step rule in `step`). `explain` prints each formula with its numbers.

The sympy side (`FORMULAS`, `STAGE`, `SYMBOL_DOC`, `explain_terms`) loads on first use:
planning reads only the compiled tables, cached on disk."""
import importlib

from planner.costmodel.assemble import (GiB, Estimate, StageEstimate, evaluate, fits, layer_terms, module_counts,
                                        stage_ints, stage_terms)
# the micro-batches in flight are the layout's (planner.layout.placement), named here for the search
from planner.layout.placement import inflight, inflight_chunks as chunks
from planner.costmodel import step
from planner.costmodel.step import step_time
from planner.costmodel.compile import coefficients, formulas as evaluate_formulas, stage
from planner.costmodel.values import (flops_per_token, layout_values, layout_vector, model_values, param_counts,
                                      sharding_values, training_flops, unit_values)

_LAZY = {"FORMULAS": "planner.costmodel.formula_table", "STAGE": "planner.costmodel.formulas",
         "SYMBOL_DOC": "planner.costmodel.names", "explain_terms": "planner.costmodel.explain"}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GiB", "Estimate", "StageEstimate", "chunks", "evaluate", "fits", "inflight", "layer_terms",
           "module_counts", "stage_ints", "stage_terms", "step", "step_time", "coefficients", "evaluate_formulas", "stage",
           "explain_terms", "FORMULAS", "STAGE", "SYMBOL_DOC", "flops_per_token", "layout_values", "layout_vector", "model_values",
           "param_counts", "sharding_values", "training_flops", "unit_values"]

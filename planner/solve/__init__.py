"""Search for the best layouts: outer enumeration + bounds (search.py), inner CP-SAT stage
model (stage_model.py), and a brute-force reference for tests and benchmarks (bruteforce.py)."""
from planner.solve.search import SearchResult, search_plans

__all__ = ["search_plans", "SearchResult"]

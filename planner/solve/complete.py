"""Complete a partial layout (an inline layout string) with its best split, folding,
recompute and sharding: a search with the given degrees fixed."""
from __future__ import annotations


def layout_from_string(text: str, problem):
    """Complete an inline layout string with its best split / recompute / kind / micro-batch."""
    from planner.layout import strings as layoutstr
    from planner.layout import LayoutError
    from planner.engines import constraints
    from planner.solve.search import search
    engine = constraints(problem.train.target)
    cfg = layoutstr.parse(text, world=problem.cluster.gpus)
    fixed = {k: getattr(cfg, k) for k in ("tp", "cp", "dp", "pp", "vpp", "cp_kind", "micro_batch", "etp", "ep", "edp")
             if getattr(cfg, k) is not None}
    if cfg.cp_ulysses is not None:
        fixed["cu"] = cfg.cp_ulysses
    if cfg.cp_ring is not None:
        fixed["cr"] = cfg.cp_ring
    if "order" in cfg.extra:
        fixed["order"] = cfg.extra["order"]
    res = search(problem, top=1, fixed=fixed, time_limit=30, engine=engine, settle=False)   # its fastest split
    if not res.plans:
        from planner.layout import Layout, Stage
        # say why: the rules first, then memory
        tp, cp, dp, pp = (fixed.get(k, 1) for k in ("tp", "cp", "dp", "pp"))
        ranks = tp * cp * dp
        st = tuple(Stage(index=i, layers=(i, i + 1), etp=fixed.get("etp", 1), ep=fixed.get("ep", 1),
                         edp=fixed.get("edp", max(1, ranks // (fixed.get("etp", 1) * fixed.get("ep", 1)))))
                   for i in range(pp))
        try:
            probe = Layout(world=tp * cp * dp * pp, tp=tp, cp=cp, dp=dp, pp=pp, stages=st,
                           cp_kind=fixed.get("cp_kind", "ring"),
                           cp_ulysses=fixed.get("cu", cp if fixed.get("cp_kind") == "ulysses" else 1),
                           cp_ring=fixed.get("cr", 1 if fixed.get("cp_kind") == "ulysses" else cp))
            # the rules of the degrees and the folding (the probe's split is a placeholder)
            bad = [v for v in engine.violations(probe, problem)
                   if engine.plan_rules.rules[v.rule].scope in ("degree", "fold") or v.rule == "stage.folding"]
        except ValueError as e:
            bad = [str(e).splitlines()[0]]
        if bad:
            raise LayoutError("layout: " + "; ".join(bad))
        raise LayoutError(f"layout: {text} does not fit {problem.cluster.memory_budget_gib:.1f} GiB per GPU "
                          f"with any split or recompute")
    return res.plans[0].layout, cfg.assumed

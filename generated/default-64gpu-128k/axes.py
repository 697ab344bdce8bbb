"""Every group of ranks from the degrees: each axis' stride and size, and the groups they make.

Pure Python that imports nothing, so that it runs in the launch bundle as it runs here:
codegen copies this file into every bundle as `axes.py`, where `layout.py` lists the bundle's
process groups with it, and `planner.layout.grid` builds `RankGrid` and the locality vector
on it. One function derives the groups of both (tests/test_bundle_grid.py compares them
group by group against the groups' definition).

Global rank r = pp_rank * (tp*cp*dp) + local; `local` decomposes over the dense order (its
first axis stride 1); cp's Ulysses part is the inner cp_ulysses ranks of a cp group and its
ring part steps over them; the expert view of a stage decomposes the same `local` as etp
(stride 1), ep, edp. The arithmetic takes numbers or numpy arrays alike (the search prices
thousands of layouts at once).
"""

# group kinds made of several axes: the dense-gradient group, and every rank of a stage
COMPOUND = {"dp_cp": ("dp", "cp"), "stage": ("tp", "cp", "dp")}
# every group kind, dense then expert
DENSE_KINDS = ("tp", "cp", "cp_ulysses", "cp_ring", "dp", "dp_cp", "stage", "pp")
EXPERT_KINDS = ("etp", "ep", "edp")


def dense_strides(order: str, sizes: dict) -> dict:
    """Stride of each dense axis for a rank order ("tp-cp-dp-pp": tp stride 1)."""
    out, acc = {}, 1
    for axis in order.split("-"):
        if axis == "pp":
            continue
        out[axis] = acc
        acc *= sizes[axis]
    return out


def axis_strides(x: dict) -> dict:
    """(stride, size) of every one-axis group, from a layout's degrees and dense strides
    (`x`: tp, cp, dp, pp, cu, cr, etp, ep, edp, s_tp, s_cp, s_dp; numbers or arrays)."""
    tp, cp, dp, cu, etp, ep = (x[k] for k in ("tp", "cp", "dp", "cu", "etp", "ep"))
    return {"tp": (x["s_tp"], tp), "cp": (x["s_cp"], cp), "dp": (x["s_dp"], dp),
            "cp_ulysses": (x["s_cp"], cu), "cp_ring": (x["s_cp"] * cu, x["cr"]),
            "pp": (tp * cp * dp, x["pp"]),
            "etp": (1, etp), "ep": (etp, ep), "edp": (etp * ep, x["edp"])}


def coordinate(axes: dict, axis: str, rank: int) -> int:
    """A rank's coordinate on one axis (`axes`: axis_strides' answer)."""
    stride, size = axes[axis]
    return rank // stride % size


def members(axes: dict, kind: str, rank: int) -> tuple:
    """The ranks of the `kind` group that `rank` belongs to, sorted: the ranks that differ
    from it only in the coordinates of the kind's axes (one axis, or COMPOUND's)."""
    parts = COMPOUND.get(kind, (kind,))
    if any(a not in axes for a in parts):
        raise KeyError(f"unknown group kind {kind!r}")
    start = rank - sum(coordinate(axes, a, rank) * axes[a][0] for a in parts)
    offsets = [0]
    for a in parts:
        stride, size = axes[a]
        offsets = [o + i * stride for o in offsets for i in range(size)]
    return tuple(sorted(start + o for o in offsets))


def groups(axes: dict, kind: str, ranks) -> list:
    """Every distinct `kind` group among `ranks`, each a sorted list, in sorted order (each
    group listed once, from its first rank: linear in the ranks, a dry run's world too)."""
    seen, out = set(), []
    for r in ranks:
        if r not in seen:
            g = members(axes, kind, r)
            seen.update(g)
            out.append(list(g))
    return sorted(out)

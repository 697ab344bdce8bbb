"""Every identity/rule of planner/layout/rules.py rejects the bad case with the arithmetic; the
rank grid reproduces Megatron-LM's grouping (shared/REFERENCE.md worked example)."""
import pytest

from planner.layout import Layout, LayoutError, RankGrid, Stage, check, kv_heads_note, uniform_stages
from planner.specs import ModelSpec, make_problem

MOE = ModelSpec(name="t", layers=8, hidden=512, heads=8, kv_heads=4, head_dim=64, vocab=1000,
                moe=dict(experts=8, top_k=2, expert_ffn_hidden=256))


def problem(gpus=16, seq=8192, batch=16, model=MOE, **kw):
    return make_problem(model=model, gpus=gpus, seq=seq, global_batch=batch, gpus_per_node=min(8, gpus), **kw)


def layout(world=16, tp=2, cp=2, dp=2, pp=2, fold=(1, 4, 2), mb=1, m=8, **kw):
    stages = kw.pop("stages", None) or uniform_stages(8, pp, fold=fold)
    base = dict(world=world, tp=tp, cp=cp, dp=dp, pp=pp, cp_kind="ring", cp_ulysses=1, cp_ring=cp,
                micro_batch=mb, num_microbatches=m, stages=stages)
    base.update(kw)
    return Layout(**base)


def test_good_layout_passes():
    check(layout(), problem())


@pytest.mark.parametrize("kw,pkw,needle", [
    (dict(dp=4), {}, "tp(2) * cp(2) * dp(4) * pp(2) = 32 != world(16)"),
    (dict(fold=(1, 2, 2)), {}, "folding etp(1) * ep(2) * edp(2) = 4 != tp(2) * cp(2) * dp(2) = 8"),
    (dict(fold=(1, 3, 1), tp=1, cp=3, dp=1, pp=1, world=3, m=16, stages=None), dict(gpus=3),
     "ep(3) does not divide experts(8)"),
    (dict(tp=3, cp=1, dp=1, pp=1, world=3, fold=(1, 1, 3), m=16), dict(gpus=3), "tp(3) does not divide heads(8)"),
    (dict(cp=4, cp_ring=4, dp=1, fold=(1, 8, 1), m=16), dict(seq=8188), "zig-zag ring needs 2*cp_ring(8) | seq(8188)"),
    (dict(cp_kind="ulysses", cp=4, cp_ulysses=4, cp_ring=1, tp=4, dp=1, pp=1, fold=(1, 8, 2), m=16), {},
     "Ulysses cp_ulysses(4) does not divide heads/tp(8/4=2)"),
    (dict(m=4), {}, "dp(2) * micro_batch(1) * num_microbatches(4) = 8 != global batch(16 sequences)"),
    (dict(vpp=2, pp=1, tp=2, cp=2, dp=4, m=4, fold=(1, 8, 2)), {}, "vpp(2) > 1 needs pp >= 2"),
])
def test_rules_reject_with_arithmetic(kw, pkw, needle):
    if kw.get("stages", 1) is None:
        kw.pop("stages")
    if kw.get("pp", 2) == 1 and "stages" not in kw:
        kw["stages"] = uniform_stages(8, 1, fold=kw.get("fold", (1, 4, 2)))
    with pytest.raises(LayoutError) as e:
        check(layout(**kw), problem(**pkw))
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("kw,needle", [
    (dict(cp_kind="ulysses"), "cp_kind ulysses needs cp_ulysses=2, cp_ring=1 (got 1, 2)"),
    (dict(cp=4, cp_kind="hybrid", cp_ulysses=1, cp_ring=4, dp=1, fold=(1, 8, 1), m=16),
     "hybrid CP needs cp_ulysses(1) >= 2 and cp_ring(4) >= 2"),
    (dict(cp_kind="zigzag"), "cp_kind 'zigzag' must be one of ring, ulysses, hybrid"),
])
def test_cp_kind_is_the_split(kw, needle):
    """The layout stores the CP split; a kind given with it must be the kind the split is."""
    with pytest.raises(ValueError) as e:
        layout(**kw)
    assert needle in str(e.value)


@pytest.mark.parametrize("cu,cr,kind", [(1, 1, "ring"), (1, 4, "ring"), (4, 1, "ulysses"), (2, 2, "hybrid")])
def test_cp_kind_derived_from_split(cu, cr, kind):
    cp = cu * cr
    L = layout(cp=cp, cp_kind=None, cp_ulysses=cu, cp_ring=cr, dp=8 // cp, fold=(1, 8, 1), m=16 // (8 // cp))
    assert L.cp_kind == kind and L.to_dict()["cp_kind"] == kind and Layout.from_dict(L.to_dict()) == L
    moved = L.model_copy(update={"cp_ulysses": cr, "cp_ring": cu})         # a copy's kind follows its split
    assert moved.cp_kind == {"ring": "ulysses" if cp > 1 else "ring", "ulysses": "ring", "hybrid": "hybrid"}[kind]


def test_tp_kv_heads_rule():
    m = MOE.model_copy(update={"kv_heads": 4, "heads": 12})
    L = layout(tp=8, cp=1, dp=1, pp=2, fold=(1, 8, 1), m=16)
    with pytest.raises(LayoutError, match=r"tp\(8\) does not divide heads\(12\)"):
        check(L, problem(model=m))
    ok = MOE.model_copy(update={"kv_heads": 2})       # tp 8 > kv 2: kv heads replicated (8 % 2 == 0)
    check(layout(tp=8, cp=1, dp=1, pp=2, fold=(1, 8, 1), m=16), problem(model=ok))


def test_kv_heads_note_says_divide_or_replicate():
    p = problem()
    assert "divided" in kv_heads_note(layout(), p)
    L = layout(cp_kind="ulysses", cp=4, cp_ulysses=4, cp_ring=1, tp=2, dp=1, fold=(1, 8, 1), m=16)
    assert "replicated" in kv_heads_note(L, p)


def test_stage_rules():
    bad = (Stage(index=0, layers=(0, 0), ep=4, edp=2), Stage(index=1, layers=(0, 8), ep=4, edp=2))
    with pytest.raises(LayoutError, match=r"stage 0 has 0 layers, needs >= 1"):
        check(layout(stages=bad), problem())
    gap = (Stage(index=0, layers=(0, 3), ep=4, edp=2), Stage(index=1, layers=(4, 8), ep=4, edp=2))
    with pytest.raises(LayoutError, match=r"stage 1 starts at layer 4, expected 3"):
        check(layout(stages=gap), problem())
    short = (Stage(index=0, layers=(0, 3), ep=4, edp=2), Stage(index=1, layers=(3, 7), ep=4, edp=2))
    with pytest.raises(LayoutError, match=r"stages cover layers \[0, 7\), model has 8"):
        check(layout(stages=short), problem())
    rc = (Stage(index=0, layers=(0, 4), ep=4, edp=2, recompute_full=3, recompute_selective=2),
          Stage(index=1, layers=(4, 8), ep=4, edp=2))
    with pytest.raises(LayoutError, match=r"recompute_full\(3\) \+ recompute_selective\(2\) > layers\(4\)"):
        check(layout(stages=rc), problem())


def test_per_stage_folding_allowed():
    st = (Stage(index=0, layers=(0, 4), etp=1, ep=8, edp=1), Stage(index=1, layers=(4, 8), etp=2, ep=2, edp=2))
    check(layout(stages=st), problem())


def test_megatron_worked_example_groups():
    # shared/REFERENCE.md: world 16, tp2 cp2 pp2 dp2, etp1 ep4 edp2, order tp-cp-ep-dp-pp
    L = layout(order="tp-cp-dp-pp")
    g = RankGrid(L, per_domain=8)
    assert g.groups("tp")[:2] == [(0, 1), (2, 3)]
    assert g.groups("cp")[:3] == [(0, 2), (1, 3), (4, 6)]
    assert g.groups("dp")[:2] == [(0, 4), (1, 5)]
    assert g.groups("ep")[:2] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert g.groups("edp")[:2] == [(0, 4), (1, 5)]
    assert g.groups("pp")[0] == (0, 8)
    assert g.group("dp_cp", 0).ranks == (0, 2, 4, 6)
    # every rank is in exactly one group per axis
    for axis in ("tp", "cp", "dp", "pp", "ep", "edp", "etp", "dp_cp"):
        flat = sorted(r for grp in g.groups(axis) for r in grp)
        assert flat == list(range(16)), axis


def test_group_node_locality():
    L = layout(order="dp-cp-tp-pp")           # tp has stride 4
    g = RankGrid(L, per_domain=4)
    assert g.group("dp", 0).intra_node and g.group("cp", 0).intra_node
    assert not g.group("tp", 0).intra_node
    assert not g.group("pp", 0).intra_node
    ep = g.group("ep", 0)                      # ranks 0..3 with etp 1: one node of 4
    assert ep.intra_node and ep.off_node_fraction == 0

"""Framework rules (each engine's start-up rules, planner/engines/<engine>/rules.py): the fixtures pass, broken variants fail with the right rule id.

Broken variants are made by editing the fixtures' text or environment, the way a user
would get them wrong.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.audit.detect import load
from planner.layout.foreign import AuditParseError
from planner.engines.startup import framework_rules

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "audit"
MIXTRAL = EXAMPLES / "megatron_mixtral_8x7b.sh"
DSV3 = EXAMPLES / "megatron_deepseek_v3.sh"
TITAN_ETP = EXAMPLES / "torchtitan_llama4_etp.toml"
TITAN_DSV3 = EXAMPLES / "torchtitan_deepseek_v3_16b.toml"
DS = EXAMPLES / "deepspeed_ulysses_moe.json"


def rules_of(findings, severity="error"):
    return {f.rule for f in findings if f.severity == severity}


def edited(tmp_path, src: Path, *pairs, name=None):
    text = src.read_text()
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert old in text, old
        text = text.replace(old, new)
    p = tmp_path / (name or src.name)
    p.write_text(text)
    return str(p)


def audit(path, world=None, **kw):
    return framework_rules(load(str(path), **kw), world)


def full_audit(cfg, model, gpus=None, seq=4096):
    """Every rule id the whole audit reports (framework rules + planner.layout's table), no search."""
    from planner.audit.audit import run_audit
    from planner.specs import make_problem
    problem = make_problem(model=model or "olmoe-1b-7b", gpus=gpus or cfg.world or 8, seq=cfg.seq or seq,
                           global_batch=cfg.global_batch or 64)
    return {f.rule for f in run_audit(cfg, problem, search=False).findings if f.severity == "error"}


@pytest.mark.parametrize("path,kw", [(MIXTRAL, {}), (DSV3, {}), (TITAN_ETP, {"gpus": 64}),
                                     (TITAN_DSV3, {"gpus": 8}), (DS, {"seq": 32768})])
def test_fixtures_have_no_errors_or_warnings(path, kw):
    findings = audit(path, **kw)
    assert rules_of(findings) == set() and rules_of(findings, "warning") == set()
    assert all(f.fix for f in findings)


# ---------------------------------------------------------------- Megatron-LM


def test_ep_not_dividing_experts(tmp_path):
    findings = audit(MIXTRAL, env={"EP": "3"})
    assert "megatron.expert_world_divisible" in rules_of(findings)
    msg = next(f.message for f in findings if f.rule == "megatron.expert_world_divisible")
    assert "world(32) is not divisible by etp(1)*ep(3)*pp(4)=12" in msg
    # ep | experts is planner.layout's rule (fold.ep_experts), reported once by the audit
    cfg = load(str(MIXTRAL), env={"EP": "3", "GPUS_PER_NODE": "12", "NNODES": "2"})
    ids = full_audit(cfg, "mixtral-8x7b")
    assert "layout.fold.ep_experts" in ids and "megatron.ep_divides_experts" not in ids


def test_seq_not_divisible_by_2cp(tmp_path):
    # ring CP: planner.layout's cp.ring_seq, once; the framework table no longer re-checks it
    path = edited(tmp_path, MIXTRAL, "--seq-length 4096", "--seq-length 8190 --context-parallel-size 4")
    assert rules_of(audit(path)) == set()
    ids = full_audit(load(path), "mixtral-8x7b")
    assert "layout.cp.ring_seq" in ids
    # all-to-all CP: Megatron's own 2*cp rule stays a framework rule
    path = edited(tmp_path, MIXTRAL, "--seq-length 4096", "--seq-length 8190 --context-parallel-size 4 "
                                                          "--cp-comm-type a2a", name="a2a.sh")
    f = next(f for f in audit(path) if f.rule == "megatron.cp_seq_divisible")
    assert "seq_length(8190) is not divisible by 2*cp(4)=8" in f.message and "--seq-length 8192" in f.fix


def test_world_not_divisible_by_tp_pp_cp():
    findings = audit(MIXTRAL, env={"GPUS_PER_NODE": "6", "NNODES": "1"})
    assert "megatron.world_divisible" in rules_of(findings)
    msg = next(f.message for f in findings if f.rule == "megatron.world_divisible")
    assert "world(6) is not divisible by tp(1)*pp(4)*cp(1)=4" in msg


def test_world_given_on_the_command_line_is_checked():
    assert "megatron.world_divisible" in rules_of(audit(MIXTRAL, world=30))
    assert rules_of(audit(MIXTRAL, world=64)) == set()


def test_tp_against_heads_and_query_groups():
    cfg = load(str(MIXTRAL), env={"TP": "3", "GPUS_PER_NODE": "12", "EP": "4"})
    ids = full_audit(cfg, "mixtral-8x7b")
    assert "layout.tp.heads" in ids and not {"megatron.heads_divisible_tp", "megatron.query_groups_tp"} & ids
    # tp=16 > 8 query groups: tp % groups == 0 is allowed (groups are replicated)
    ids = full_audit(load(str(MIXTRAL), env={"TP": "16", "GPUS_PER_NODE": "16", "EP": "1"}), "mixtral-8x7b")
    assert "layout.tp.kv_heads" not in ids


def test_moe_with_tp_needs_sequence_parallel(tmp_path):
    assert "megatron.moe_tp_needs_sp" in rules_of(audit(MIXTRAL, env={"TP": "2"}))
    path = edited(tmp_path, MIXTRAL, "--use-distributed-optimizer", "--use-distributed-optimizer --sequence-parallel")
    assert "megatron.moe_tp_needs_sp" not in rules_of(audit(path, env={"TP": "2"}))
    assert "megatron.sequence_parallel_tp1" in rules_of(audit(path), "warning")


def test_uneven_pipeline_split(tmp_path):
    findings = audit(DSV3, env={"PP_FIRST": "4"})
    assert rules_of(findings) == {"megatron.pp_layers_divisible"}
    msg = next(f.message for f in findings if f.rule == "megatron.pp_layers_divisible")
    assert "55 middle layers over pp(16) - 2 = 14 middle stages" in msg


def test_even_pipeline_split(tmp_path):
    path = edited(tmp_path, MIXTRAL, "PP=${PP:-4}", "PP=${PP:-4}\nPP=3")
    findings = audit(path, world=48)
    assert "megatron.pp_layers_divisible" in rules_of(findings)
    assert "num_layers(32) = 32 is not divisible by pp(3)" in " ".join(f.message for f in findings)
    path = edited(tmp_path, MIXTRAL, "--num-layers 32", "--num-layers 31 --account-for-embedding-in-pipeline-split",
                  name="acc.sh")
    assert "megatron.pp_layers_divisible" not in rules_of(audit(path))  # (31 + 1) % 4 == 0


def test_layer_freq_list_length(tmp_path):
    path = edited(tmp_path, DSV3, "[1]*58", "[1]*57")
    findings = audit(path)
    assert "megatron.moe_layer_freq_length" in rules_of(findings)
    assert "lists 60 layers (3 dense + 57 MoE) but num_layers is 61" in " ".join(f.message for f in findings)


def test_virtual_pipeline(tmp_path):
    path = edited(tmp_path, MIXTRAL, "--use-distributed-optimizer",
                  "--use-distributed-optimizer --num-layers-per-virtual-pipeline-stage 3")
    findings = audit(path)
    assert "megatron.vpp_layers_divisible" in rules_of(findings)  # 32/4 = 8 layers per stage, 8 % 3
    path = edited(tmp_path, MIXTRAL, "--use-distributed-optimizer",
                  "--use-distributed-optimizer --num-layers-per-virtual-pipeline-stage 4", name="v.sh")
    assert load(path).vpp == 2 and rules_of(audit(path)) == set()
    # pp 2: Megatron interleaves over 2 stages with its p2p overlap, which is on unless
    # --no-overlap-p2p-communication (arguments.py:966-975, megatron-core 0.19.2)
    assert "megatron.vpp_pp2" not in rules_of(audit(path, env={"PP": "2"}), "warning")
    off = edited(tmp_path, MIXTRAL, "--use-distributed-optimizer", "--use-distributed-optimizer "
                 "--num-layers-per-virtual-pipeline-stage 4 --no-overlap-p2p-communication", name="w.sh")
    assert "megatron.vpp_pp2" in rules_of(audit(off, env={"PP": "2"}))          # Megatron refuses it
    assert "megatron.vpp_needs_pp" in rules_of(audit(path, env={"PP": "1"}))


def test_hierarchical_cp(tmp_path):
    path = edited(tmp_path, MIXTRAL, "--seq-length 4096", "--seq-length 4096 --context-parallel-size 4 "
                                                          "--cp-comm-type a2a+p2p")
    assert "megatron.hierarchical_cp" in rules_of(audit(path))
    path = edited(tmp_path, MIXTRAL, "--seq-length 4096", "--seq-length 4096 --context-parallel-size 4 "
                  "--cp-comm-type a2a+p2p --hierarchical-context-parallel-sizes 2 3", name="h.sh")
    findings = audit(path)
    assert "hierarchical context parallel sizes 2*3=6 != cp(4)" in " ".join(f.message for f in findings)


def test_global_batch_divisibility(tmp_path):
    path = edited(tmp_path, MIXTRAL, "--global-batch-size 256", "--global-batch-size 100")
    findings = audit(path)
    assert "megatron.global_batch_divisible" in rules_of(findings)
    assert "global_batch_size(100) is not divisible by micro_batch_size(1)*dp(8)=8" in \
        " ".join(f.message for f in findings)
    path = edited(tmp_path, MIXTRAL, "--global-batch-size 256", "--global-batch-size 16", name="g.sh")
    assert "megatron.microbatches_lt_pp" in rules_of(audit(path), "warning")  # 16/8 = 2 < pp 4


def test_unknown_flags_and_unknown_world_are_info(tmp_path):
    p = tmp_path / "t.sh"
    p.write_text("python pretrain_gpt.py --num-layers 4 --lr 1e-4\n")
    findings = audit(p)
    assert rules_of(findings, "info") == {"megatron.unknown_flags", "audit.world_unknown"}
    assert rules_of(findings) == set()


# ---------------------------------------------------------------- torchtitan


def test_torchtitan_world_product(tmp_path):
    path = edited(tmp_path, TITAN_ETP, "data_parallel_shard_degree = -1", "data_parallel_shard_degree = 4")
    findings = audit(path, world=64)
    assert "torchtitan.world_product" in rules_of(findings)
    assert "dp_replicate(1) * dp_shard(4) * cp(2) * tp(4) * pp(1) = 32 != WORLD_SIZE(64)" in \
        " ".join(f.message for f in findings)
    assert "torchtitan.world_product" in rules_of(audit(TITAN_ETP, world=60))


def test_torchtitan_ep_region_and_etp(tmp_path):
    # etp == tp: EP may use dp_shard*cp = 8*2 = 16 ranks; ep 32 does not fit
    path = edited(tmp_path, TITAN_ETP, "expert_parallel_degree = 4", "expert_parallel_degree = 32")
    assert "torchtitan.ep_divides_region" in rules_of(audit(path, world=64))
    # etp == 1: the region grows to dp_shard*cp*tp = 64
    path = edited(tmp_path, TITAN_ETP, "expert_parallel_degree = 4", "expert_parallel_degree = 32",
                  "expert_tensor_parallel_degree = 4", "expert_tensor_parallel_degree = 1", name="e1.toml")
    assert rules_of(audit(path, world=64)) == set()
    path = edited(tmp_path, TITAN_ETP, "expert_tensor_parallel_degree = 4", "expert_tensor_parallel_degree = 2",
                  name="e2.toml")
    assert "torchtitan.etp_one_or_tp" in rules_of(audit(path, world=64))


def test_torchtitan_seq_and_model_shapes(tmp_path):
    path = edited(tmp_path, TITAN_ETP, "seq_len = 8192", "seq_len = 8200")
    findings = audit(path, world=64)
    assert "seq_len(8200) is not divisible by 2*cp(2)*tp(4)=16" in " ".join(f.message for f in findings)
    # heads / kv heads / experts against tp and ep: planner.layout's rules, once each
    cfg = load(str(TITAN_DSV3), gpus=8).replace(tp=2, dp=4, edp=1, ep=8)
    ids = full_audit(cfg, "olmoe-1b-7b")
    assert not {i for i in ids if i.startswith("layout.")}
    ids = full_audit(load(str(TITAN_DSV3), gpus=8).replace(ep=6, edp=None), "olmoe-1b-7b")
    assert "torchtitan.ep_divides_experts" not in ids and ("layout.fold.ep_experts" in ids or "audit.layout" in ids)


# ---------------------------------------------------------------- DeepSpeed


def _ds(tmp_path, **changes):
    doc = json.loads(DS.read_text())
    for k, v in changes.items():
        if "." in k:
            a, b = k.split(".")
            doc[a][b] = v
        else:
            doc[k] = v
    p = tmp_path / "ds.json"
    p.write_text(json.dumps(doc, indent=2))
    return p


def test_deepspeed_rules(tmp_path):
    assert "deepspeed.zero_pipeline" in rules_of(audit(DS, pp=2))
    assert "deepspeed.batch_identity" in rules_of(audit(_ds(tmp_path, train_batch_size=60), gpus=32))
    findings = audit(_ds(tmp_path, **{"moe.ep_size": 6}))
    assert "deepspeed.ep_divides_dp" in rules_of(findings)
    assert "deepspeed.ulysses_seq" in rules_of(audit(DS, seq=32766))
    assert "deepspeed.world_divisible" in rules_of(audit(DS, world=30))


# ---------------------------------------------------------------- layouts, plans, the folding identity


def test_layout_identities():
    ok = load("tp=1,cp=8,pp=4,dp=2,ep=16,edp=1,etp=1,cp_kind=ulysses,micro_batch=1")
    assert {i for i in full_audit(ok, "olmoe-1b-7b", gpus=64, seq=8192) if i.startswith("layout.")} == set()
    ids = full_audit(load("tp=2,cp=2,dp=2,pp=2,ep=4,edp=3"), "olmoe-1b-7b", gpus=16)
    assert "layout.stage.folding" in ids
    # a split that contradicts cp is refused by the layout grammar, naming the arithmetic
    with pytest.raises(AuditParseError, match=r"cp_ulysses\(2\) \* cp_ring\(2\) = 4 != cp\(8\)"):
        load("cp=8,cp_ulysses=2,cp_ring=2,dp=1")


def test_plan_rules(tmp_path):
    from test_audit_parsers import _plan
    stages = [{"index": 0, "layers": [0, 2], "etp": 1, "ep": 4, "edp": 1},
              {"index": 1, "layers": [2, 4], "etp": 1, "ep": 2, "edp": 3}]
    layout = {"world": 8, "tp": 2, "cp": 2, "dp": 1, "pp": 2, "vpp": 1, "cp_kind": "ring", "cp_ulysses": 1,
              "cp_ring": 2, "micro_batch": 1}
    p = tmp_path / "plan.json"
    p.write_text(json.dumps(_plan(layout, stages)))
    assert "layout.stage.folding" in full_audit(load(str(p)), None)


@settings(max_examples=40, deadline=None)
@given(tp=st.sampled_from([1, 2, 4]), cp=st.sampled_from([1, 2]), dp=st.sampled_from([1, 2, 4]),
       etp=st.sampled_from([1, 2]), ep=st.sampled_from([1, 2, 4, 8]), edp=st.one_of(st.none(), st.integers(1, 8)))
def test_folding_identity_fires_exactly_when_the_ranks_disagree(tp, cp, dp, etp, ep, edp):
    """Folding is planner.layout's rule (stage.folding); the audit reports it once, when the ranks disagree."""
    text = f"tp={tp},cp={cp},dp={dp},pp=1,etp={etp},ep={ep}" + (f",edp={edp}" if edp else "")
    dense = tp * cp * dp
    broken = (dense % (etp * ep) != 0) if edp is None else (etp * ep * edp != dense)
    try:
        ids = full_audit(load(text), "olmoe-1b-7b", gpus=dense, seq=4096)
    except AuditParseError as e:     # edp left out and not derivable: the grammar's completion refuses it
        assert broken and edp is None and "does not divide" in str(e)
        return
    assert ("layout.stage.folding" in ids or "audit.layout" in ids) == broken
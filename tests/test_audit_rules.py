"""Framework rules (planner/audit/rules.py): the fixtures pass, broken variants fail with the right rule id.

Broken variants are made by editing the fixtures' text or environment, the way a user
would get them wrong.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.audit.detect import load
from planner.audit.rules import framework_rules

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


@pytest.mark.parametrize("path,kw", [(MIXTRAL, {}), (DSV3, {}), (TITAN_ETP, {"gpus": 64}),
                                     (TITAN_DSV3, {"gpus": 8}), (DS, {"seq": 32768})])
def test_fixtures_have_no_errors_or_warnings(path, kw):
    findings = audit(path, **kw)
    assert rules_of(findings) == set() and rules_of(findings, "warning") == set()
    assert all(f.fix for f in findings)


# ---------------------------------------------------------------- Megatron-LM


def test_ep_not_dividing_experts(tmp_path):
    findings = audit(MIXTRAL, env={"EP": "3"})
    assert {"megatron.ep_divides_experts", "megatron.expert_world_divisible"} <= rules_of(findings)
    msg = next(f.message for f in findings if f.rule == "megatron.ep_divides_experts")
    assert "num_experts(8) is not divisible by ep(3)" in msg and "megatron_mixtral_8x7b.sh:91" in msg
    msg = next(f.message for f in findings if f.rule == "megatron.expert_world_divisible")
    assert "world(32) is not divisible by etp(1)*ep(3)*pp(4)=12" in msg


def test_seq_not_divisible_by_2cp(tmp_path):
    path = edited(tmp_path, MIXTRAL, "--seq-length 4096", "--seq-length 8190 --context-parallel-size 4")
    findings = audit(path)
    assert rules_of(findings) == {"megatron.cp_seq_divisible"}
    f = next(f for f in findings if f.rule == "megatron.cp_seq_divisible")
    assert "seq_length(8190) is not divisible by 2*cp(4)=8" in f.message
    assert "--seq-length 8192" in f.fix


def test_world_not_divisible_by_tp_pp_cp():
    findings = audit(MIXTRAL, env={"GPUS_PER_NODE": "6", "NNODES": "1"})
    assert "megatron.world_divisible" in rules_of(findings)
    msg = next(f.message for f in findings if f.rule == "megatron.world_divisible")
    assert "world(6) is not divisible by tp(1)*pp(4)*cp(1)=4" in msg


def test_world_given_on_the_command_line_is_checked():
    assert "megatron.world_divisible" in rules_of(audit(MIXTRAL, world=30))
    assert rules_of(audit(MIXTRAL, world=64)) == set()


def test_tp_against_heads_and_query_groups():
    findings = audit(MIXTRAL, env={"TP": "3", "GPUS_PER_NODE": "12", "EP": "4"})
    assert {"megatron.heads_divisible_tp", "megatron.query_groups_tp"} <= rules_of(findings)
    # tp=16 > 8 query groups: tp % groups == 0 is allowed (groups are replicated)
    assert "megatron.query_groups_tp" not in rules_of(audit(MIXTRAL, env={"TP": "16", "GPUS_PER_NODE": "16"}))


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
    assert "megatron.vpp_needs_pp" in rules_of(audit(path, env={"PP": "2"}))


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
    # the TOML has no shapes; with a model's shapes filled in, heads and experts are checked
    cfg = load(str(TITAN_DSV3), gpus=8).replace(model={"heads": 16, "kv_heads": 16, "moe": {"experts": 64}})
    assert rules_of(framework_rules(cfg)) == set()
    bad = cfg.replace(tp=3, ep=6, model={"heads": 16, "kv_heads": 16, "moe": {"experts": 64}})
    assert {"torchtitan.heads_divisible_tp", "torchtitan.kv_heads_divisible_tp",
            "torchtitan.ep_divides_experts"} <= rules_of(framework_rules(bad))


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
    assert {"deepspeed.ep_divides_experts", "deepspeed.ep_divides_dp", "folding.identity"} <= rules_of(findings)
    assert "deepspeed.ulysses_seq" in rules_of(audit(DS, seq=32766))
    cfg = load(str(DS)).replace(model={"heads": 30, "moe": {"experts": 64}})
    assert "deepspeed.ulysses_heads" in rules_of(framework_rules(cfg))
    assert "deepspeed.world_divisible" in rules_of(audit(DS, world=30))


# ---------------------------------------------------------------- layouts, plans, the folding identity


def test_layout_identities():
    assert rules_of(audit("tp=1,cp=8,pp=4,dp=2,ep=16,edp=1,etp=1,cp_kind=ulysses,micro_batch=1")) == set()
    findings = audit("tp=2,cp=2,dp=2,pp=2,ep=4,edp=3")
    assert rules_of(findings) == {"folding.identity"}
    assert "tp(2)*cp(2)*dp(2) = 8 != expert ranks etp(1)*ep(4)*edp(3) = 12" in findings[0].message
    assert "edp = 2" in findings[0].fix
    assert "layout.world_product" in rules_of(audit("world=100,tp=2,cp=2,dp=2,pp=2"))
    assert "layout.cp_split" in rules_of(audit("cp=8,cp_ulysses=2,cp_ring=2"))
    assert "folding.identity" in rules_of(audit("tp=2,cp=2,dp=2,ep=3"))  # 3 does not divide 8


def test_plan_rules(tmp_path):
    from test_audit_parsers import _plan
    stages = [{"index": 0, "layers": [0, 2], "etp": 1, "ep": 4, "edp": 1},
              {"index": 1, "layers": [2, 4], "etp": 1, "ep": 2, "edp": 3}]
    layout = {"world": 8, "tp": 2, "cp": 2, "dp": 1, "pp": 2, "vpp": 1, "cp_kind": "ring", "cp_ulysses": 1,
              "cp_ring": 2, "micro_batch": 1}
    p = tmp_path / "plan.json"
    p.write_text(json.dumps(_plan(layout, stages)))
    findings = audit(p)
    assert rules_of(findings) == {"folding.identity"}
    assert "stage 1" in findings[0].message
    stages[1].update(edp=2, layers=[3, 4])
    p.write_text(json.dumps(_plan(layout, stages)))
    assert rules_of(audit(p)) == {"foldplan.stage_layers"}


@settings(max_examples=80, deadline=None)
@given(tp=st.sampled_from([1, 2, 4, 8]), cp=st.sampled_from([1, 2, 4]), dp=st.sampled_from([1, 2, 3, 4, 8]),
       pp=st.sampled_from([1, 2, 4]), etp=st.sampled_from([1, 2]), ep=st.sampled_from([1, 2, 4, 8, 16]),
       edp=st.one_of(st.none(), st.integers(1, 16)))
def test_folding_identity_fires_exactly_when_the_ranks_disagree(tp, cp, dp, pp, etp, ep, edp):
    text = f"tp={tp},cp={cp},dp={dp},pp={pp},etp={etp},ep={ep}" + (f",edp={edp}" if edp else "")
    findings = framework_rules(load(text))
    dense = tp * cp * dp
    broken = (dense % (etp * ep) != 0) if edp is None else (etp * ep * edp != dense)
    assert ("folding.identity" in rules_of(findings)) == broken

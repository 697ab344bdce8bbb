"""Each engine's one rule table (planner/engines/<engine>/rules.py): every rule once, its plan-time
rules `target.*` and its start-up rules `<engine>.*`, each start-up finding carrying the id of the
rule that made it, and a rule that a plan and a config both meet answering the same on both."""
import random
from pathlib import Path

from planner.audit.detect import load
from planner.engines import constraints
from planner.layout.rules import TABLE
from planner.specs import ModelSpec, make_problem

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "audit"
CONFIGS = {"megatron": "megatron_mixtral_8x7b.sh", "torchtitan": "torchtitan_llama4_etp.toml",
           "deepspeed": "deepspeed_ulysses_moe.json"}


def test_each_rule_once_in_its_engines_table():
    for target in ("bundle", "megatron", "torchtitan", "deepspeed"):
        own = constraints(target).rules.rules
        assert not set(own) & set(TABLE.rules), target          # no engine restates an identity
        for r in own.values():
            assert (r.scope == "startup") == r.id.startswith(f"{target}."), r.id
            assert r.scope == "startup" or r.id.startswith("target."), r.id


def test_start_up_findings_carry_their_rules_id():
    rng = random.Random(5)
    fired = set()
    for engine, name in CONFIGS.items():
        cfg = load(str(EXAMPLES / name))
        rules = constraints(engine).rules.select("startup")
        for _ in range(300):
            tp, pp, cp, ep = (rng.choice([1, 2, 3, 4, 8]) for _ in range(4))
            bad = cfg.replace(tp=tp, pp=pp, cp=cp, ep=ep, etp=rng.choice([1, 2, tp]), world=rng.choice([6, 8, 30, 64]),
                              seq=rng.choice([4096, 8190, 8200]), micro_batch=rng.choice([1, 3]),
                              global_batch=rng.choice([256, 250]), dp=rng.choice([None, 2, 8]),
                              vpp=rng.choice([1, 2]), sequence_parallel=rng.random() < 0.5,
                              cp_kind=rng.choice(["ring", "ulysses", "hybrid"]))
            for r in rules:
                found = r.check(bad)
                if found is not None:
                    assert found.rule == r.id
                    fired.add(r.id)
    assert len(fired) >= 12, sorted(fired)                     # the draw reaches most rules


def test_megatron_cp_seq_one_condition_for_plans_and_configs():
    # arguments.py:1335: seq % (2 * cp) for every CP kind; the start-up reading leaves ring CP to
    # planner.layout's cp.ring_seq, which states the same arithmetic
    meg = constraints("megatron")
    startup = meg.rules.rules["megatron.cp_seq_divisible"]
    cfg = load(str(EXAMPLES / CONFIGS["megatron"]))
    model = ModelSpec(name="m", layers=4, hidden=1024, heads=8, kv_heads=8, head_dim=128, vocab=32000,
                      ffn_hidden=4096)
    for seq in (4096, 4100, 8190, 8192, 12288):
        p = make_problem(model=model, gpus=16, seq=seq, global_batch=16, **meg.train_defaults())
        for cp in (1, 2, 4, 8):
            plan = bool(meg.degree_violations(p, cp=cp))
            assert plan == bool(startup.check(cfg.replace(cp=cp, seq=seq, cp_kind="ulysses"))), (seq, cp)
            ring = TABLE.degree_violations(p, cp_ring=cp)
            assert plan == bool(ring), (seq, cp)


def test_torchtitan_etp_one_condition_where_ep_splits_experts():
    tt = constraints("torchtitan")
    startup = tt.rules.rules["torchtitan.etp_one_or_tp"]
    cfg = load(str(EXAMPLES / CONFIGS["torchtitan"]))
    moe = ModelSpec(name="m", layers=4, hidden=1024, heads=8, kv_heads=8, head_dim=128, vocab=32000,
                    ffn_hidden=0, moe=dict(experts=8, top_k=2, expert_ffn_hidden=2048))
    p = make_problem(model=moe, gpus=16, seq=4096, global_batch=16, **tt.train_defaults())
    for tp in (1, 2, 4):
        for ep in (2, 4, 8):
            for etp in (1, 2, 4):
                plan = bool(tt.degree_violations(p, "fold", tp=tp, cp=1, dp=16 // tp, etp=etp, ep=ep, edp=1))
                read = bool(startup.check(cfg.replace(tp=tp, ep=ep, etp=etp)))
                # the target (0.3) refuses all a 0.2 config's start-up rule does, and beyond it only the
                # expert TP = tp that 0.2 ran and 0.3 has no degree for
                assert plan >= read and (plan and not read) == (etp == tp > 1), (tp, ep, etp)


def test_megatron_vocabulary_is_what_the_scanner_reads():
    # a flag the exporter writes from the vocabulary is one the reader's scanner keeps (not "ignored")
    from planner.engines.megatron import flags, vocab
    known = flags.BOOL | flags.VALUED | flags.LIST
    written = [f.name for f in vocab.INTS.values()] + list(vocab.SWITCHES.values()) + list(vocab.RECOMPUTE.values()) \
        + [vocab.CP_COMM_FLAG, vocab.HIERARCHICAL_CP_FLAG, vocab.FSDP_STRATEGY_FLAG, vocab.CAPACITY_FACTOR_FLAG,
           vocab.PP_LAYOUT_FLAG]
    assert [n for n in written if n not in known] == []


def test_torchtitan_vocabulary_round_trips_its_value_tables():
    from planner.engines.torchtitan import vocab
    for sharding in ("zero2", "zero3"):
        assert vocab.RESHARD[vocab.reshard(sharding)] == sharding
    assert vocab.ROTATE[vocab.rotate("ring")] == "ring"
    assert {vocab.key(f) for f in ("tp", "cp", "pp", "ep", "etp", "dp_shard")} <= set(vocab.DEFAULTS)

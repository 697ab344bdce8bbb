"""planner.layout.divisibility owns Ulysses' head division and the sequence divisor: on random degree
tuples every rule table that states one (planner.layout's, Megatron's, OLMo-core's, torchtitan's) refuses
exactly where the owner does, the owner agrees with each engine's condition as its source states it,
the search never enumerates a CP split the owner refuses, and no module outside the owner restates the
arithmetic."""
import random
import re
import tokenize
from pathlib import Path
from types import SimpleNamespace as NS

from planner.engines import constraints
from planner.engines.megatron import rules as meg
from planner.engines.olmo_core import rules as olmo
from planner.engines.torchtitan import rules as titan
from planner.layout import rules as layout_rules
from planner.layout.divisibility import local_heads, seq_divisor, ulysses_divides
from planner.solve.space import _cp_kinds
from planner.specs import make_problem

N = 3000
POW2 = (1, 2, 4, 8, 16)


def _draws(seed=41):
    rng = random.Random(seed)
    for _ in range(N):
        heads = rng.choice((8, 12, 16, 24, 32, 40, 48, 64, 96, 128))
        kv = rng.choice([k for k in (1, 2, 4, 8, 16, 32, heads) if heads % k == 0])
        tp, u, r = rng.choice(POW2), rng.choice(POW2), rng.choice(POW2)
        seq = rng.choice((4096, 8192, 8188, 8200, 12288, 131072, 1000, 6144, 24))
        sp = rng.random() < 0.7
        attention = rng.choice(("gqa", "gqa", "mla"))
        pr = NS(model=NS(heads=heads, kv_heads=kv, attention=attention),
                train=NS(seq=seq, sequence_parallel=sp))
        x = NS(tp=tp, cp=u * r, cp_ulysses=u, cp_ring=r)
        yield x, pr


def _refuses(table, rule_id, x, pr) -> bool:
    return table.rules[rule_id].check(x, pr) is not None


def test_engine_conditions_as_their_sources_state_them():
    # the conditions as each engine's code writes them, against the owner's product
    for cp in (1, 2, 3, 4, 8):
        for tp in (1, 2, 4, 8):
            for sp in (False, True):
                # torchtitan 0.3.0 trainer.py:306-310
                assert seq_divisor(cp, tp, chunks=2, sequence_parallel=sp) == \
                    (tp if sp else 1) * (2 * cp if cp > 1 else 1)
        # megatron/training/arguments.py:1335-1338: seq_length % (2 * cp) when cp > 1
        for seq in (8188, 8192, 8200, 12288):
            assert (seq % seq_divisor(cp, chunks=2, sequence_parallel=False) != 0) == (cp > 1 and seq % (2 * cp) != 0)
    # TE's a2a / OLMo-core's all_to_all_cp2hp: heads.shape % cp_size == 0
    assert ulysses_divides(4, 8, 4) and not ulysses_divides(4, 8, 2) and ulysses_divides(1, 3)
    assert local_heads(32, 4) == 8 and local_heads(8, 16) == 8


def test_rule_tables_agree_with_the_owner():
    L, M, O, T = layout_rules.TABLE, meg.RULES, olmo.RULES, titan.RULES
    seen = dict.fromkeys(("uh", "mh", "oh", "rs", "st", "ms", "ts"), 0)
    for x, pr in _draws():
        m, t = pr.model, pr.train
        want = {
            "uh": (L, "cp.ulysses_heads", not ulysses_divides(x.cp_ulysses, local_heads(m.heads, x.tp))),
            "oh": (O, "target.ulysses_kv", not ulysses_divides(x.cp_ulysses, local_heads(m.kv_heads, x.tp))),
            "mh": (M, "target.cp_a2a_heads", m.heads % x.tp == 0
                   and not ulysses_divides(x.cp_ulysses, *meg.rank_heads(m, x.tp))),
            "rs": (L, "cp.ring_seq", t.seq % seq_divisor(x.cp_ring, chunks=2, sequence_parallel=False) != 0),
            "st": (L, "cp.seq_tp", x.cp > 1 and t.seq % seq_divisor(x.cp, x.tp, chunks=1,
                                                                     sequence_parallel=t.sequence_parallel) != 0),
            "ms": (M, "target.cp_seq", t.seq % seq_divisor(x.cp, chunks=2, sequence_parallel=False) != 0),
            "ts": (T, "target.seq", t.seq % seq_divisor(x.cp, x.tp, chunks=2,
                                                        sequence_parallel=t.sequence_parallel) != 0),
        }
        for key, (table, rid, refuse) in want.items():
            assert _refuses(table, rid, x, pr) == refuse, (rid, vars(x), vars(m), vars(t))
            seen[key] += refuse
    assert all(n > 50 for n in seen.values()), seen    # every rule both refused and accepted here
    assert all(n < N - 50 for n in seen.values()), seen


def test_megatron_rank_heads_is_attention_py():
    # megatron/core/transformer/attention.py:353-366 (megatron-core 0.19.2): kv groups below tp give
    # one kv head and heads / kv_groups query heads per rank; else heads / tp and kv / tp
    assert meg.rank_heads(NS(heads=32, kv_heads=8, attention="gqa"), 16) == (4, 1)
    assert meg.rank_heads(NS(heads=32, kv_heads=8, attention="gqa"), 2) == (16, 4)
    assert meg.rank_heads(NS(heads=128, kv_heads=1, attention="mla"), 8) == (16, 16)


def test_search_never_enumerates_a_split_the_owner_refuses():
    checked = 0
    for target in ("bundle", "megatron", "olmo-core"):
        engine = constraints(target)
        for seq in (8192, 8200):
            p = make_problem(model="llama3-8b", gpus=64, seq=seq, global_batch=64, gpus_per_node=8,
                             **engine.train_defaults())
            m = p.model
            for tp in (1, 2, 4, 8):
                for cp in (2, 4, 8):
                    for kind, u, r in _cp_kinds(p, tp, cp, engine):
                        checked += 1
                        assert ulysses_divides(u, local_heads(m.heads, tp)), (target, tp, u)
                        assert p.train.seq % seq_divisor(r, chunks=2, sequence_parallel=False) == 0
                        if target == "megatron":
                            assert p.train.seq % seq_divisor(cp, chunks=2, sequence_parallel=False) == 0
                        if target == "olmo-core":
                            assert ulysses_divides(u, local_heads(m.kv_heads, tp))
    assert checked > 20


ROOT = Path(__file__).resolve().parents[1] / "planner"
# the arithmetic restated in code (strings and comments aside): `% (2 * cp...)`, `seq % <cp or tp>`,
# `% (tp * U)`, `% cp_ulysses`
RESTATED = [re.compile(p) for p in (r"%\s*\(\s*2\s*\*\s*[\w.]*cp", r"seq\w*\s*%\s*\(?\s*[\w.]*(cp|tp)\b",
                                    r"%\s*\(\s*[\w.]*tp\s*\*\s*(U|[\w.]*cp_ulysses)\b",
                                    r"%\s*[\w.]*(cp_ulysses|\bU)\b")]


def _code(path: Path) -> list[tuple[int, str]]:
    """(line, code) of `path` with its strings and comments blanked."""
    lines = path.read_text().splitlines()
    cut = [list(line) for line in lines]
    with path.open() as fh:
        for tok in tokenize.generate_tokens(fh.readline):
            if tok.type in (tokenize.STRING, tokenize.COMMENT) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                (r0, c0), (r1, c1) = tok.start, tok.end
                for r in range(r0, r1 + 1):
                    a, b = (c0 if r == r0 else 0), (c1 if r == r1 else len(cut[r - 1]))
                    cut[r - 1][a:b] = " " * (b - a)
    return [(i, "".join(c)) for i, c in enumerate(cut, 1)]


def test_the_grep_sees_a_restatement():
    assert any(p.search("if c.seq % (2 * cp):") for p in RESTATED)
    assert any(p.search("if heads % (tp * U) or local % x.cp_ulysses:") for p in RESTATED)
    assert not any(p.search("if world % (tp * cp * pp):") for p in RESTATED)


def test_no_module_restates_the_arithmetic():
    # bundle/templates is the emitted, torch-only bundle (it imports nothing of planner's): its runtime
    # reshapes are the division itself; the compiled cost tables are generated
    owner = ROOT / "layout" / "divisibility.py"
    hits = []
    for f in ROOT.rglob("*.py"):
        if f == owner or "templates" in f.parts or "compiled" in f.parts:
            continue
        for i, line in _code(f):
            if any(p.search(line) for p in RESTATED):
                hits.append(f"{f.relative_to(ROOT.parent)}:{i}: {line.strip()}")
    assert not hits, "\n".join(hits)

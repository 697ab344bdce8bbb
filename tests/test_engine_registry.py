"""The engine list (planner.engines.REGISTRY) is the one place that names an engine: `export --to`, the
judges, `audit`'s detection, reading and start-up rules, `--format`, `--measured` logs and the CLI's help all
iterate it. A toy engine (tests/toy_engine/: its record, rule table, reader and exporter) added to the list
and nowhere else is picked up by every one of them; the same calls refuse it before it is added."""
import argparse

import pytest

import megatron_cases
import toy_engine
from planner import cli, engines
from planner.audit import detect
from planner.audit.audit import run_audit
from planner.engines import export
from planner.engines.errors import ExportError
from planner.engines.startup import framework_rules
from planner.layout.foreign import AuditParseError
from planner.specs import gpu_names, load_gpu
from planner.specs.kinds import TARGETS


@pytest.fixture
def toy(monkeypatch):
    """The one line a new engine adds: its record in REGISTRY."""
    monkeypatch.setattr(engines, "REGISTRY", (*engines.REGISTRY, toy_engine.ENGINE))
    yield toy_engine.ENGINE
    engines._BUILT.pop("toy", None)


def _plan(pp=1):
    return megatron_cases.make("llama3-8b", 8, "4k", 16, pp=pp, target="bundle")


def _help(command: str) -> tuple[str, dict]:
    """The subcommand's one-line help (as `foldplan --help` prints it) and its options by dest."""
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    line = next(a.help for a in sub._choices_actions if a.dest == command)
    return line, {a.dest: a for a in sub.choices[command]._actions}


def test_the_toy_is_nowhere_until_listed():
    line, opts = _help("export")
    assert "toy" not in opts["to"].choices and "toy layout" not in line
    assert "toy" not in _help("audit")[1]["format"].choices
    with pytest.raises(ExportError, match=r"^export --to: unknown engine 'toy' \(known: megatron, "):
        export.render(_plan(), "toy")
    assert detect.detect("job.toy", "tp = 1\n") == "layout"       # the toy file of one line reads as a layout string
    with pytest.raises(AuditParseError, match="cannot tell the format"):
        detect.detect("job.toy", "toy job\n")


def test_the_cli_help_lists_a_listed_engine(toy):
    line, opts = _help("export")
    assert "toy" in opts["to"].choices and "a toy layout file (--to toy)" in line
    line, opts = _help("audit")
    assert "toy" in opts["format"].choices and "Toy" in line
    assert "--target toy" not in cli.parser().format_help()        # the toy is no target (its record says so)


def test_export_detect_and_audit_of_a_listed_engine(toy, tmp_path):
    plan = _plan()
    files = export.write(plan, "toy", str(tmp_path / "train.toy"))
    assert files == [str(tmp_path / "train.toy")]
    cfg = detect.load(files[0])
    assert cfg.format == "toy"                                      # its reader's claim, before the layout string
    rep = run_audit(cfg, plan.problem, search=False)
    assert not rep.errors, [f.message for f in rep.errors]
    for k in ("world", "tp", "cp", "dp", "pp", "micro_batch", "sharding", "master"):
        assert getattr(rep.layout, k) == getattr(plan.layout, k), k
    assert rep.estimate.step_time == pytest.approx(plan.estimate.step_time, rel=1e-6)
    # its start-up rules run on its configs, and its reader re-derives the world
    assert [f.rule for f in framework_rules(cfg, world=7) if f.severity == "error"] == ["toy.even_world"]
    assert not [f for f in framework_rules(cfg) if f.severity == "error"]


def test_a_listed_engine_refuses_by_its_own_rule_table(toy):
    with pytest.raises(ExportError, match=r"^export --to toy: .*pp 1 only.*\(rule target.toy_pp"):
        export.render(_plan(pp=2), "toy")
    c = engines.constraints("toy")
    assert (c.order, c.uniform_fold, c.one_recompute_form) == (None, False, False)   # its table has no such rule


def test_order_and_uniform_folding_come_from_the_rule_tables():
    """An engine's rank order is the one order its target.order rule keeps; its one folding, its
    target.uniform_fold rule. The planner's own bundle has neither rule and runs any order, per-stage folds."""
    for e in engines.REGISTRY:
        c, table = engines.constraints(e.name), e.part("rules").RULES
        rule = table.rules.get("target.order")
        kept = [o for o in engines.ORDERS if rule and rule.check(type("X", (), {"order": o})(), None) is None]
        assert c.order == (kept[0] if rule else None) and (len(kept) == 1 or not rule), e.name
        assert c.uniform_fold == ("target.uniform_fold" in table.rules), e.name
    assert engines.constraints("megatron").order == "tp-cp-dp-pp"     # Megatron's tp-cp-ep-dp-pp without ep
    assert not engines.constraints("bundle").uniform_fold and engines.constraints("bundle").order is None


def test_the_targets_named_below_the_engines_are_the_listed_targets():
    assert engines.targets() == TARGETS
    assert set(engines.read_formats()) == {"megatron", "torchtitan", "olmo-core", "deepspeed"}


def test_every_cuda_gpu_preset_states_its_compute_capability():
    """NVIDIA's CUDA GPU table (developer.nvidia.com/cuda-gpus): the major version is the architecture
    (Ampere 8, Hopper 9, Blackwell 10); B300 / GB300 are 10.3. The Megatron judge and rules read it."""
    major = {"ampere": 8, "hopper": 9, "blackwell": 10}
    for name in gpu_names():
        g = load_gpu(name)
        if g.arch in major:
            assert g.compute_capability is not None and g.compute_capability[0] == major[g.arch], name
        else:
            assert g.compute_capability is None, name               # not a CUDA GPU
    assert load_gpu("b300").compute_capability == load_gpu("gb300-nvl72").compute_capability == (10, 3)


def test_the_bundles_limits_refuse_with_the_arithmetic():
    """The bundle's own limits (planner/engines/bundle/limits.py), read by codegen before it writes."""
    from types import SimpleNamespace
    from planner.engines.bundle.limits import limits
    dense = {"ffn_hidden": 14336, "head_dim": 128, "experts": 0}
    lay = SimpleNamespace(tp=2, cp=1, micro_batch=1, pp=4, num_microbatches=8)
    assert limits(dense, lay, 4096) is None
    assert limits(dense, SimpleNamespace(**{**vars(lay), "tp": 3}), 4096) == \
        "plan field problem.model.ffn_hidden: tp(3) must divide ffn_hidden(14336)"
    assert limits({**dense, "head_dim": 127}, lay, 4096).endswith("RoPE needs an even head_dim, got 127")
    assert limits({**dense, "experts": 8}, SimpleNamespace(**{**vars(lay), "cp": 4}), 6) == \
        "plan field layout.micro_batch: tp(2) must divide the rows a rank routes, micro_batch(1) * seq(6) / cp(4)"
    assert limits(dense, SimpleNamespace(**{**vars(lay), "num_microbatches": 2}), 4096) == \
        "plan field layout.num_microbatches: 2 < pp(4)"

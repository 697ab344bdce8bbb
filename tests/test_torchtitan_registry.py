"""torchtitan 0.3's own config_registry.py modules read as modules: a function picked with
`module.py::NAME` (torchtitan's `--config NAME`), the choices listed when none is named."""
import importlib.util
from pathlib import Path

import pytest

from planner.audit.detect import load
from planner.cli import main
from planner.layout.foreign import AuditParseError

REAL = Path(__file__).resolve().parent.parent / "examples" / "audit" / "real"
QWEN3 = REAL / "tt03_qwen3_config_registry.py"


def test_a_registry_module_needs_a_function_and_lists_them(capsys):
    assert main(["audit", str(QWEN3), "--gpus", "64", "--no-best"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "15 config functions" in err and "qwen3_30b_a3b" in err
    with pytest.raises(AuditParseError, match="no function nope"):
        load(f"{QWEN3}::nope", gpus=64)


def test_the_named_function_is_read():
    cfg = load(f"{QWEN3}::qwen3_32b", gpus=64)           # FSDP over every rank, FullAC, 2 x 4096 per rank
    assert (cfg.tp, cfg.dp, cfg.micro_batch, cfg.seq, cfg.recompute, cfg.model_name) == \
        (1, 64, 2, 4096, "full", "qwen3:32B")


def test_private_helpers_with_arguments_are_not_config_functions(capsys):
    assert main(["audit", str(REAL / "tt03_gpt_oss_config_registry.py"), "--gpus", "64", "--no-best"]) == 2
    err = capsys.readouterr().err
    assert "4 config functions" in err and "_gpt_oss_debugmodel" not in err


def test_a_name_on_another_format_is_refused(capsys):
    yaml = REAL / "ci_deepseek_proxy_fsdp_ep2_fsdp2.yaml"
    assert main(["audit", f"{yaml}::f", "--gpus", "8", "--no-best"]) == 2
    assert "names a function of a torchtitan config module" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("torchtitan") is None, reason="torchtitan not installed")
def test_a_wrapped_registry_function_is_read_through(tmp_path):
    # experiments/graph_trainer wraps a registry function: to_graph_trainer_config(qwen3_30b_a3b(), ...)
    mod = tmp_path / "graph.py"
    mod.write_text("from torchtitan.experiments.graph_trainer.trainer import GraphTrainer\n"
                   "from torchtitan.models.qwen3.config_registry import qwen3_30b_a3b\n\n"
                   "def mine() -> GraphTrainer.Config:\n"
                   "    config = to_graph_trainer_config(qwen3_30b_a3b(), model_registry)\n"
                   "    config.parallelism.tensor_parallel_degree = 2\n"
                   "    return config\n")
    cfg = load(str(mod), gpus=64)
    assert (cfg.tp, cfg.dp, cfg.micro_batch, cfg.seq, cfg.model_name) == (2, 32, 2, 4096, "qwen3:30B-A3B")

"""`foldplan audit` on the Megatron inputs it could not read before, each through the command line:
Megatron-LM's Megatron-FSDP DeepSeek-V3 sbatch example (an array expanded into a string that an sbatch
here-document runs with `bash -x -c`), an argument file with an unquoted `|` pipeline layout, and the
Megatron-MoE-ModelZoo launch scripts (`VARS bash sbatch_benchmarking.sh FLAGS`) with `--model`.
What each should read is written by hand from the file (examples/audit/real/expected.toml for the real
ones); the pipeline-layout case is also checked by Megatron's own code in test_megatron_argparse.py."""
from __future__ import annotations

import json
from pathlib import Path

from planner.cli import main

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "examples" / "audit" / "real"


def _audit(capsys, *argv) -> tuple[int, dict]:
    rc = main(["audit", *map(str, argv), "--no-best", "--json"])
    out = capsys.readouterr()
    return rc, json.loads(out.out) if out.out.strip().startswith("{") else {"err": out.err}


def _layout(rep: dict) -> dict:
    """The audited layout, with the expert degrees, the global batch and the layers of each pipeline rank."""
    lay = dict(rep["layout"])
    s0 = lay["stages"][0]
    lay.update(ep=s0["ep"], etp=s0["etp"], global_batch=lay["dp"] * lay["micro_batch"] * lay["num_microbatches"],
               stage_layers=[s["layers"][1] - s["layers"][0] for s in lay["stages"]],
               recompute_modules=s0["recompute_modules"])
    return lay


def _rules(report: dict, severity: str | None = None) -> set[str]:
    return {f["rule"] for f in report["findings"] if severity is None or f["severity"] == severity}


def test_megatron_fsdp_deepseek_v3_sbatch_heredoc(capsys):
    rc, rep = _audit(capsys, REAL / "mlm_fsdp_deepseek_v3_sbatch.sh", "--gpus", 256)
    assert "err" not in rep, rep
    lay = _layout(rep)
    assert (lay["tp"], lay["pp"], lay["ep"], lay["etp"], lay["dp"]) == (1, 1, 8, 1, 256)
    assert (lay["micro_batch"], lay["global_batch"], lay["sharding"]) == (4, 2048, "zero3")
    assert rep["problem"]["model"]["moe"]["experts"] == 256 and rep["problem"]["model"]["layers"] == 61
    # USE_MEGATRON_FSDP=0 takes the other branch: the distributed optimizer alone
    rc, rep = _audit(capsys, REAL / "mlm_fsdp_deepseek_v3_sbatch.sh", "--gpus", 256, "--env", "USE_MEGATRON_FSDP=0")
    assert rep["layout"]["sharding"] == "zero1"


def test_argument_file_with_an_unquoted_layout(capsys):
    rc, rep = _audit(capsys, ROOT / "examples" / "audit" / "megatron_layout_unquoted.args", "--gpus", 32)
    assert rc == 0, rep
    lay = _layout(rep)
    # "E,t*3|(t*3|)*6t*3,L": 8 entries of 3 layers over pp 4, vpp 2
    assert (lay["pp"], lay["vpp"], lay["stage_layers"]) == (4, 2, [6, 6, 6, 6])
    assert "megatron.pp_layers_divisible" not in _rules(rep)


def test_layout_with_mtp_no_false_divisibility_error(capsys, tmp_path):
    # 61 layers over pp 8 do not divide, and Megatron does not ask them to with a layout
    text = (REAL / "zoo_run_deepseek_v3_h100.sh").read_text()
    rc, rep = _audit(capsys, REAL / "zoo_run_deepseek_v3_h100.sh", "--model", "deepseek-v3")
    assert rc == 0 and not _rules(rep, "error"), rep
    assert "Et|(tt|)*30mL" in text
    # the same launch with the MTP entry dropped from its layout: Megatron refuses it, and so does the audit
    bad = tmp_path / "run.sh"
    bad.write_text(text.replace('"Et|(tt|)*30mL"', '"Et|(tt|)*30L"', 1))
    rc, rep = _audit(capsys, bad, "--model", "deepseek-v3")
    assert rc == 1 and "megatron.pp_layers_divisible" in _rules(rep, "error")
    assert any("MTP" in f["message"] for f in rep["findings"] if f["rule"] == "megatron.pp_layers_divisible")


def test_modelzoo_launch_script_with_model(capsys):
    rc, rep = _audit(capsys, REAL / "zoo_run_deepseek_v3_h100.sh", "--model", "deepseek-v3")
    lay = _layout(rep)
    assert (lay["world"], lay["tp"], lay["pp"], lay["vpp"], lay["ep"], lay["dp"]) == (1024, 2, 8, 4, 64, 64)
    assert lay["stage_layers"] == [7, 8, 8, 8, 8, 8, 8, 6]
    assert lay["global_batch"] == 8192 and sorted(lay["recompute_modules"]) == ["mla_up_proj", "mlp"]
    rc, rep = _audit(capsys, REAL / "zoo_run_qwen3_30b.sh", "--model", "qwen3-30b-a3b")
    assert "err" not in rep, rep
    assert "audit.model_invalid" not in _rules(rep)          # was: "a dense model needs ffn_hidden"
    lay = _layout(rep)
    assert (lay["world"], lay["ep"], lay["dp"]) == (32, 8, 32)
    assert rep["problem"]["model"]["moe"]["experts"] == 128


def test_modelzoo_launch_script_without_model_says_so(capsys):
    assert main(["audit", str(REAL / "zoo_run_qwen3_30b.sh"), "--no-best"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--model" in err[0]


def test_modelzoo_launch_script_reads_the_model_config_beside_it(capsys, tmp_path):
    # in a ModelZoo checkout the launcher reads model_configs/benchmarking/${MODEL}.yaml: so does the audit
    (tmp_path / "model_configs" / "benchmarking").mkdir(parents=True)
    (tmp_path / "best_practice" / "qwen3").mkdir(parents=True)
    (tmp_path / "model_configs" / "benchmarking" / "Qwen3-30B-A3B.yaml").write_text(
        (REAL / "zoo_Qwen3-30B-A3B.yaml").read_text())
    script = tmp_path / "best_practice" / "qwen3" / "run_30b.sh"
    script.write_text((REAL / "zoo_run_qwen3_30b.sh").read_text())
    rc, rep = _audit(capsys, script, "--env", "LAYERS_PER_VP=false", "--env", "MOE_TOKEN_DISPATCHER=alltoall",
                     "--env", "MOE_GROUPED_GEMM=true", "--env", "CP=1", "--env", "GBS=256")
    assert "err" not in rep, rep
    model = rep["problem"]["model"]
    assert (model["layers"], model["hidden"], model["moe"]["experts"]) == (48, 2048, 128)
    assert (_layout(rep)["ep"], _layout(rep)["global_batch"]) == (8, 256)
    assert "audit.model_from_preset" not in _rules(rep)      # the whole model came from the config


def test_modelzoo_launcher_uneven_split_from_its_variables(capsys, tmp_path):
    # sbatch_benchmarking.sh: NUM_LAYERS % PP != 0 and no layout -> --decoder-first/last-pipeline-num-layers
    script = tmp_path / "run.sh"
    script.write_text("export MODEL=DeepSeek-V3 MBS=1 SEQ_LEN=4096\n"
                      "PP=4 TP=1 EP=8 CP=1 NNODES=4 GBS=64 NUM_LAYERS=61 PP_FIRST=16 PP_LAST=15 "
                      "bash sbatch_benchmarking.sh --recompute-granularity full --recompute-method uniform "
                      "--recompute-num-layers 1\n")
    rc, rep = _audit(capsys, script, "--model", "deepseek-v3")
    lay = _layout(rep)
    assert (lay["world"], lay["pp"], lay["stage_layers"]) == (32, 4, [16, 15, 15, 15])
    assert "megatron.pp_layers_divisible" not in _rules(rep)


def test_flags_from_a_joined_string_point_at_the_line_that_writes_them():
    from planner.audit.detect import load
    path = REAL / "mlm_fsdp_deepseek_v3_sbatch.sh"
    rows = path.read_text().splitlines()
    cfg = load(str(path), gpus=256)
    for field, flag in (("tp", "--tensor-model-parallel-size"), ("sequence_parallel", "--sequence-parallel"),
                        ("sharding", "--data-parallel-sharding-strategy"), ("layers", "--num-layers")):
        assert rows[cfg.lines[field] - 1].split()[0] == flag, (field, cfg.lines[field])

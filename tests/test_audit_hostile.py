"""Bad and hostile inputs of every audit format: one line `foldplan: error: ...`, exit 2, no traceback, no hang."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEEP = 5000


def audit(*args, timeout=60):
    """`foldplan audit ARGS --no-best` in a subprocess; the timeout is a hang guard (a hang fails
    the test), not a speed budget: the cost of hostile input is measured in benchmarks/plan_speed.py."""
    return subprocess.run([sys.executable, "-m", "planner.cli", "audit", *args, "--no-best"], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


CASES = {
    "truncated.sh": 'torchrun pretrain_gpt.py --num-layers 32 "--hidden-size 4096\n',
    "truncated.toml": "[parallelism]\ntensor_parallel_degree = ",
    "truncated.json": '{"train_batch_size": 8, "zero_optimization": {"stage": ',
    "truncated.yaml": "MODEL_ARGS:\n  --num-layers: [1, 2\n",
    "binary.sh": "\x00\x01\x02binary",
    "huge_arith.sh": "TP=$((2**99999))\ntorchrun pretrain_gpt.py --tensor-model-parallel-size $TP --num-layers 2\n",
    "huge_literal.sh": "torchrun pretrain_gpt.py --num-layers " + "9" * 5000 + "\n",
    "huge_product.sh": "A=$((99999999999*99999999999*99999999999))\ntorchrun x.py --num-layers $A\n",
    "zero_stage5.json": '{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 5}}',
    "bad_ac.toml": '[parallelism]\ntensor_parallel_degree = 1\n[training]\nseq_len = 4096\n[activation_checkpoint]\nmode = "bogus"\n',
    "deep.json": "[" * DEEP + "]" * DEEP,
    "deep.toml": "a = " + "[" * DEEP + "]" * DEEP + "\n",
    "deep.yaml": "MODEL_ARGS: " + "[" * 2000 + "]" * 2000 + "\n",
    "bad_layout.sh": "torchrun x.py --num-layers 4 --pipeline-model-parallel-size 2 "
                     "--pipeline-model-parallel-layout '(t)*99999999999|t'\n",
    "bad_freq.sh": "torchrun x.py --num-layers 4 --num-experts 8 --moe-layer-freq '[1]*10**9'\n",
    "hf_config.json": '{"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 32, "hidden_size": 4096}',
    "no_shapes.sh": "torchrun x.py --tensor-model-parallel-size 2 --seq-length 4096\n",
    "unknown_key.toml": "[parallelism]\ntensor_parallel_degree = \"two\"\n[training]\nseq_len = 4096\n",
    "contradiction.toml": "[parallelism]\ndata_parallel_shard_degree = 0\n[training]\nseq_len = 4096\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_one_line_and_exit_2(tmp_path, name):
    path = tmp_path / name
    path.write_text(CASES[name]) if "\x00" not in CASES[name] else path.write_bytes(CASES[name].encode())
    proc = audit(str(path), "--gpus", "8")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (name, proc.returncode, proc.stderr[-500:], proc.stdout[-300:])
    assert len(lines) == 1 and lines[0].startswith("foldplan: error:"), (name, proc.stderr[-800:])
    assert "Traceback" not in proc.stderr


def test_hf_config_message_says_pass_it_as_model(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(CASES["hf_config.json"])
    proc = audit(str(path))
    assert proc.returncode == 2 and "--model" in proc.stderr and "Hugging Face" in proc.stderr


def test_no_shapes_names_model(tmp_path):
    path = tmp_path / "train.sh"
    path.write_text(CASES["no_shapes.sh"])
    proc = audit(str(path), "--gpus", "8")
    assert proc.returncode == 2 and "--model" in proc.stderr


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "dir"])
def test_fifo_device_and_directory_are_refused_without_blocking(tmp_path, special):
    if special == "fifo":
        target = tmp_path / "fifo.sh"
        os.mkfifo(target)
    elif special == "dir":
        target = tmp_path
    else:
        target = Path(special)
        if not target.exists():
            pytest.skip("no /dev/zero")
    proc = audit(str(target), "--gpus", "8", timeout=30)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_one_megabyte_single_line_script_is_read(tmp_path):
    # a quadratic reader would take ~1e12 steps on 1 MB and trip the subprocess's hang guard;
    # the linear scaling itself (8x the input, time ratio) is measured in benchmarks/plan_speed.py
    n = 96_000
    probe = ("import sys; from planner.shell import interpret; "
             "text = 'torchrun x.py ' + ' '.join(f'--a{i} {i}' for i in range(%d)) + '\\n'; "
             "assert len(text) > 1_000_000; interpret(text); print('read', len(text))" % n)
    r = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("read "), r.stderr[-800:]
    path = tmp_path / "long.sh"
    path.write_text("torchrun x.py --num-layers 2 " + " ".join(f"--x{i} {i}" for i in range(80_000)) + "\n")
    proc = audit(str(path), "--gpus", "8", timeout=120)
    assert proc.returncode == 2 and "--model" in proc.stderr

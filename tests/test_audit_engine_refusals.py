"""What Megatron's own argument validation refuses, the audit refuses: the same argument lists go
through megatron-core's parse_args / validate_args / TransformerConfig (planner/engines/megatron/judge.py,
in a child process) and through `foldplan audit`. A capacity factor of -1 Megatron takes as dropless
(TransformerConfig sets a negative factor to None): the audit reads it so and says so."""
import pytest

from planner.cli import main
from planner.engines.judge import available, judge

WHY = available("megatron")
BASE = ("--num-layers 8 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
        "--micro-batch-size 1 --tensor-model-parallel-size 1 --pipeline-model-parallel-size 2 --bf16 "
        "--tokenizer-type NullTokenizer --lr 1e-4 --train-iters 10 --transformer-impl local")
CASES = {   # name: (extra flags, refused by Megatron, what the audit's one line names)
    "gbs0": ("--global-batch-size 0 --vocab-size 32000", True, "--global-batch-size must be >= 1"),
    "both_vpp": ("--global-batch-size 8 --vocab-size 32000 --num-layers-per-virtual-pipeline-stage 2 "
                 "--num-virtual-stages-per-pipeline-rank 2", True, "both given"),
    "capacity_minus_one": ("--global-batch-size 8 --vocab-size 32000 --num-experts 8 --moe-router-topk 2 "
                           "--moe-expert-capacity-factor -1", False, None),
    "plain": ("--global-batch-size 8 --vocab-size 32000", False, None),
}


def _plan(world: int) -> dict:
    return {"layout": {"world": world}, "problem": {"cluster": {"gpu": "h100-sxm"}}}


@pytest.fixture(scope="module")
def verdicts():
    cases = [(_plan(8), {"x.args": f"{BASE} {extra}", "x.sh": "export CUDA_DEVICE_MAX_CONNECTIONS=1\n"})
             for extra, _, _ in CASES.values()]
    return dict(zip(CASES, judge("megatron", cases)))


@pytest.mark.skipif(WHY is not None, reason=str(WHY))
@pytest.mark.parametrize("name", CASES)
def test_audit_refuses_what_megatron_refuses(name, verdicts, tmp_path, capsys):
    extra, refused, needle = CASES[name]
    v = verdicts[name]
    assert v["accepted"] is not refused, v["reason"]
    script = tmp_path / "train.sh"
    script.write_text(f"torchrun pretrain_gpt.py {BASE} {extra}\n")
    code = main(["audit", str(script), "--gpus", "8", "--no-best"])
    out, err = capsys.readouterr()
    if refused:
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, (v["reason"], err)
    else:
        assert code in (0, 1), err
    if name == "capacity_minus_one":
        assert "dropless: --moe-expert-capacity-factor -1" in out


def test_vocab_size_zero_is_refused_in_one_line(tmp_path, capsys):
    # Megatron's argument checks accept --vocab-size 0 (megatron-core 0.19.2: parse_args, validate_args and
    # TransformerConfig pass it; the run fails once it builds the embedding or the tokenizer); the audit
    # cannot price a model without tokens and says so in one line
    script = tmp_path / "train.sh"
    script.write_text(f"torchrun pretrain_gpt.py {BASE} --global-batch-size 8 --vocab-size 0\n")
    assert main(["audit", str(script), "--gpus", "8", "--no-best"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--vocab-size must be >= 1, got 0" in err and len(err.splitlines()) == 1

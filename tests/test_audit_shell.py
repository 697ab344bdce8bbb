"""The launch-script reader (planner/shell/), checked against bash itself where bash exists."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.shell import interpret, unresolved

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "audit"
BASH = shutil.which("bash")


def last_command(text: str, env: dict | None = None) -> list[str]:
    return [f.text for f in interpret(text, env).commands[-1]]


def bash_args(text: str, launcher: str, env: dict) -> list[str]:
    """What bash passes to ``launcher`` when it runs ``text`` (the launcher replaced by a printer)."""
    script = f'{launcher}() {{ printf "%s\\0" "$@"; }}\n' + text
    out = subprocess.run([BASH, "-c", script], env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return out.split("\0")[:-1]


def test_variables_defaults_export_and_arithmetic():
    sh = interpret(
        "export NNODES=4\n"
        "GPUS_PER_NODE=${GPUS_PER_NODE:-8}\n"
        "WORLD=$((NNODES*GPUS_PER_NODE))\n"
        "W2=$(( $NNODES * ${GPUS_PER_NODE} + 1 ))\n"
        "TP=${TP:-${DEFAULT_TP:-2}}\n"
        "DIV=$((7/2)) NEG=$(( -7 / 2 )) MOD=$(( -7 % 3 ))\n"
    )
    got = {k: v.value for k, v in sh.vars.items() if k not in ("@", "*", "#")}   # no script arguments
    assert got == {"NNODES": "4", "GPUS_PER_NODE": "8", "WORLD": "32", "W2": "33", "TP": "2",
                   "DIV": "3", "NEG": "-3", "MOD": "-1"}


def test_arrays_append_continuations_comments_and_lines():
    text = (
        "A=(\n"                          # 1
        "  --num-layers 32   # layers\n"  # 2
        "  --hidden-size=4096\n"          # 3
        ")\n"                             # 4
        "A+=(--swiglu)\n"                 # 5
        "python pretrain_gpt.py \\\n"     # 6
        '   "${A[@]}" \\\n'               # 7
        "   --seq-length 4096\n"          # 8
    )
    fields = interpret(text).commands[-1]
    assert [f.text for f in fields] == ["python", "pretrain_gpt.py", "--num-layers", "32", "--hidden-size=4096",
                                        "--swiglu", "--seq-length", "4096"]
    assert [f.line for f in fields][2:] == [2, 2, 3, 5, 8, 8]


def test_string_variable_flags_keep_their_lines():
    text = 'ARGS="\n    --num-layers 61 \\\n    --hidden-size 7168"\nrun $ARGS\n'
    fields = interpret(text).commands[-1]
    assert [(f.text, f.line) for f in fields] == [("run", 4), ("--num-layers", 2), ("61", 2),
                                                  ("--hidden-size", 3), ("7168", 3)]


def test_unset_variables_and_command_substitution_are_marked_unresolved():
    fields = last_command("run --tp $TP_SIZE --save $(date +%s) --x ${Y:?need Y}")
    assert unresolved(fields[2]) == ["$TP_SIZE"]
    assert unresolved(fields[4]) == ["$(date +%s)"]
    assert unresolved(fields[6]) == ["${Y:?need Y}"]
    assert unresolved(last_command("run $((A*2))")[1]) == ["$A"]


def test_if_with_a_known_test_takes_one_branch_and_an_unknown_test_takes_both():
    text = ('VPP=""\nif [ -n "$VPP" ]; then\n  X=1\nelse\n  X=2\nfi\n'
            'if [[ "$MODE" == fast ]]; then Y=1; fi\n'
            'if [[ "$(hostname)" == fast ]]; then W=1; fi\n'
            'N=3\nif test $N -gt 2; then Z=big; elif [ $N -eq 2 ]; then Z=two; else Z=small; fi\n')
    sh = interpret(text)
    assert sh.vars["X"].value == "2"
    assert "Y" not in sh.vars          # $MODE unset: empty, as bash has it, so the test is false
    assert sh.vars["W"].value == "1"   # $(hostname) cannot be known: the branch is read
    assert sh.vars["Z"].value == "big"


def test_unquoted_list_expression_stays_one_word():
    assert last_command("run --moe-layer-freq ([0]*3+[1]*58) --x 1") == [
        "run", "--moe-layer-freq", "([0]*3+[1]*58)", "--x", "1"]


@pytest.mark.skipif(BASH is None, reason="bash not installed")
@pytest.mark.parametrize("name,launcher", [("megatron_mixtral_8x7b.sh", "torchrun"),
                                           ("megatron_deepseek_v3.sh", "srun")])
def test_fixture_arguments_match_what_bash_passes(name, launcher):
    text = (EXAMPLES / name).read_text()
    env = {"WANDB_API_KEY": ""}
    ours = last_command(text, env)
    assert ours[0] == launcher
    assert ours[1:] == bash_args(text, launcher, env)


@pytest.mark.skipif(BASH is None, reason="bash not installed")
@settings(max_examples=60, deadline=None)
@given(st.recursive(
    st.integers(min_value=-50, max_value=50).map(str) | st.sampled_from(["A", "B", "$A", "${B}"]),
    lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"),
    max_leaves=6))
def test_arithmetic_matches_bash(expr):
    text = f"A=7\nB=-3\nR=$(( {expr} ))\n"
    proc = subprocess.run([BASH, "-c", text + 'printf "%s" "$R"'], capture_output=True, text=True, timeout=30)
    ours = interpret(text).vars["R"].value
    if proc.returncode != 0 or "division by 0" in proc.stderr:  # bash fails; we leave it unresolved
        assert unresolved(ours)
    else:
        assert ours == proc.stdout


@pytest.mark.skipif(BASH is None, reason="bash not installed")
@pytest.mark.parametrize("text", [
    'A=("--vocab-size 128256" --x "a b")\nrun ${A[@]} "${A[@]}" "${A[*]}" pre${A[@]}post\n',
    'B="--num-layers 4  --hidden 8"\nrun $B "$B" ${B}x\n',
    'E=()\nrun ${E[@]} "${E[@]}" --y\n',
    'run "$@" $@ $* "$*" $# --z\n',
])
def test_word_splitting_of_arrays_and_strings_matches_bash(text):
    assert last_command(text)[1:] == bash_args(text, "run", {})


def test_heredocs_eval_and_bash_c_are_read():
    text = ("TP=4\nsbatch <<EOF\n#!/bin/bash\n# it's an apostrophe in a comment\nX=\\$TP\n"
            "srun python pretrain_gpt.py --tensor-model-parallel-size $TP --seq-length \\$X\nEOF\n"
            "cat > notes.txt <<'END'\nit's --num-layers 9\nEND\n"
            'eval "torchrun --nnodes 2 --num-layers 3"\n'
            'srun bash -c "python a.py --hidden-size 16"\n')
    cmds = [[f.text for f in c] for c in interpret(text).commands]
    assert cmds == [["srun", "python", "pretrain_gpt.py", "--tensor-model-parallel-size", "4", "--seq-length", "4"],
                    ["torchrun", "--nnodes", "2", "--num-layers", "3"],
                    ["python", "a.py", "--hidden-size", "16"]]


def test_huge_arithmetic_is_unresolved_not_computed():
    sh = interpret("R=$((2**99999))\nS=$((9999999999*9999999999*9999999999))\nT=$((2**62))\n")
    assert unresolved(sh.vars["R"].value) and unresolved(sh.vars["S"].value)
    assert sh.vars["T"].value == str(2**62)


def test_pinned_env_stands_in_for_a_command_substitution():
    sh = interpret("NUM_GPUS=$(nvidia-smi -L | wc -l)\nN=$((NUM_GPUS/8))\n", pinned={"NUM_GPUS": "64"})
    assert sh.vars["NUM_GPUS"].value == "64" and sh.vars["N"].value == "8"


def test_argument_file_words_keep_pipes_and_inner_hashes():
    from planner.shell.argfile import interpret_args, is_argument_file
    text = ("# written by hand\n--data-path /a#b --x \"1 # 2\" # a comment\n"
            "--pipeline-model-parallel-layout Et|(tt|)*3L \\\n  --tp $TP --m 'q#'\n")
    assert is_argument_file(text, ".txt") and is_argument_file("run --x 1\n", ".args")
    assert not is_argument_file("torchrun --x 1\n", ".sh")
    words = [f.text for f in interpret_args(text, {"TP": "4"}).commands[0]]
    assert words == ["--data-path", "/a#b", "--x", "1 # 2", "--pipeline-model-parallel-layout", "Et|(tt|)*3L",
                     "--tp", "4", "--m", "q#"]


def test_audit_passes_positional_arguments_to_the_script(tmp_path, capsys):
    from planner.cli import main
    script = tmp_path / "run.sh"
    script.write_text('ENV=$1\nif [ $ENV = dsw ]; then GPUS=8; else GPUS=${WORLD}; fi\nTP=${2}\nPP=${11:-1}\n'
                      'torchrun --nproc_per_node $GPUS pretrain_gpt.py --tensor-model-parallel-size $TP '
                      '--pipeline-model-parallel-size $PP --num-layers 8 --hidden-size 512 --num-attention-heads 8 '
                      '--seq-length 1024 --micro-batch-size 1 --global-batch-size 8 --vocab-size 32000\n')
    assert main(["audit", str(script), "--no-best", "--json", "--", "dsw", "4"]) in (0, 1)
    out = capsys.readouterr().out
    import json
    doc = json.loads(out)
    assert '"tp": 4' in json.dumps(doc) and '"world": 8' in json.dumps(doc)
    assert main(["audit", "tp=2,pp=1,dp=4", "--gpus", "8", "--no-best", "--", "x"]) == 2
    assert "script arguments" in capsys.readouterr().err

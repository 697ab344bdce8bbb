"""The shell forms foldplan's launch-script reader (planner/shell/) reads, one row each: a script
ending in a `run ...` command, the environment and the positional arguments it starts with, and
what the form means. tests/test_shell_forms.py runs each row through bash and through foldplan
and compares the words `run` receives; `python tests/shell_forms.py` prints docs/shell-forms.md's table."""

# (script, env, args, what it shows)
FORMS = [
    ("run ${X:-d}", {}, [], "default of an unset variable"),
    ("X=\nrun ${X:-d}", {}, [], ":- also replaces an empty value"),
    ("X=\nrun ${X-d} end", {}, [], "- replaces only an unset one"),
    ("run ${X:=d} $X", {}, [], ":= assigns the default"),
    ("X=v\nrun ${X:+alt} ${Y:+alt} end", {}, [], ":+ gives the word only when set"),
    ("run ${X:-$Y}", {"Y": "v"}, [], "a default that is itself a variable"),
    ("run ${X:-${Y:-z}}", {}, [], "nested defaults"),
    ("if [ -z ${X} ]; then Y=1; else Y=2; fi\nrun $Y", {}, [], "[ -z $X ] with X unset: [ -z ], true"),
    ("if [ -n ${X} ]; then Y=1; else Y=2; fi\nrun $Y", {}, [], "[ -n $X ] with X unset: [ -n ], also true"),
    ('if [ -n "${X}" ]; then Y=1; else Y=2; fi\nrun $Y', {}, [], '[ -n "$X" ] quoted: false'),
    ("if [[ -n ${X} ]]; then Y=1; else Y=2; fi\nrun $Y", {}, [], "[[ ]] splits no word: false"),
    ("if [[ -z $X ]]; then Y=1; else Y=2; fi\nrun $Y", {"X": "a"}, [], "[[ -z ]] of a set variable"),
    ('if [ -z "$X" ]; then Y=1; else Y=2; fi\nrun $Y', {"X": "a"}, [], "the environment decides"),
    ("if [ -z $MP ]; then\n  MP=1\nfi\nrun --mp $MP", {}, [], "a default set by an if (Pai-Megatron-Patch)"),
    ('if [ "$X" = fast ]; then Y=1; elif [ "$X" = slow ]; then Y=2; else Y=3; fi\nrun $Y', {"X": "slow"}, [],
     "elif"),
    ("if [ $N -gt 2 ]; then Y=big; else Y=small; fi\nrun $Y", {"N": "3"}, [], "integer tests"),
    ("if test $N -eq 2; then Y=two; fi\nrun $Y end", {"N": "2"}, [], "test"),
    ("ENV=$1\nif [ $ENV = dsw ]; then M=a; else M=b; fi\nrun $M $2", {}, ["dsw", "A3B"], "positional arguments"),
    ('run "$@" $#', {}, ["a", "b c"], '"$@": one word per argument'),
    ("run $*", {}, ["a", "b c"], "$*: split"),
    ('set -- x y z\nshift\nrun "$@" $1 $#', {}, ["a"], "set -- and shift"),
    ('shift 2\nrun "$@"', {}, ["a", "b", "c"], "shift N"),
    ('A=(1 "2 3")\nrun ${A[@]}', {}, [], "an unquoted array splits"),
    ('A=(1 "2 3")\nrun "${A[@]}"', {}, [], "a quoted array keeps its elements"),
    ('A=(1 "2 3")\nrun "${A[*]}"', {}, [], '"${A[*]}" joins them'),
    ("A=(--x 1)\nA+=(--y 2)\nrun ${A[1]} ${#A[@]}", {}, [], "+= on an array, an element, its length"),
    ("X=a\nX+=b\nrun $X ${#X}", {}, [], "+= on a string, its length"),
    ("N=${N:-2}\nrun $((N*4)) $(( (N+1) % 2 ))", {}, [], "arithmetic on a defaulted variable"),
    ("run $((7/2)) $((-7/2)) $((2**10))", {}, [], "integer arithmetic"),
    ('X="--a 1"\nrun $X "$X"', {}, [], "an unquoted value splits, a quoted one does not"),
    ("export TP=4\nrun --tp $TP", {}, [], "export"),
    ("TP=2 true\nrun ${TP:-none}", {}, [], "an assignment before a command is for that command only"),
]


def _table() -> str:
    import os
    import subprocess
    rows = ["| form | environment | arguments | bash (and foldplan) passes to `run` | what it shows |",
            "|---|---|---|---|---|"]
    for script, env, args, what in FORMS:
        full = 'run() { printf "%s\\0" "$@"; }\n' + script
        out = subprocess.run(["bash", "-c", full, "script", *args], env={"PATH": os.environ["PATH"], **env},
                             capture_output=True, text=True, check=True).stdout.split("\0")[:-1]
        cell = lambda s: s.replace("\n", "; ").replace("|", "\\|")  # noqa: E731
        rows.append(f"| `{cell(script)}` | {' '.join(f'{k}={v}' for k, v in env.items()) or '-'} | "
                    f"{' '.join(repr(a) for a in args) or '-'} | {' '.join(repr(w) for w in out) or '(none)'} | {what} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(_table())

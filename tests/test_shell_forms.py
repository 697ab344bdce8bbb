"""Each shell form of tests/shell_forms.py (docs/shell-forms.md) read by foldplan as bash runs it:
the words the final `run` command receives are the same."""
import os
import shutil
import subprocess

import pytest

from planner.shell import interpret
from tests.shell_forms import FORMS

BASH = shutil.which("bash")


def bash_words(script: str, env: dict, args: list) -> list[str]:
    full = 'run() { printf "%s\\0" "$@"; }\n' + script
    out = subprocess.run([BASH, "-c", full, "script", *args], env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return out.split("\0")[:-1]


def foldplan_words(script: str, env: dict, args: list) -> list[str]:
    runs = [c for c in interpret(script, env, args=args).commands if c and c[0].text == "run"]
    return [f.text for f in runs[-1][1:]]


@pytest.mark.skipif(BASH is None, reason="bash not installed")
@pytest.mark.parametrize("script, env, args, what", FORMS, ids=[f[3] for f in FORMS])
def test_shell_form_reads_as_bash_runs_it(script, env, args, what):
    assert foldplan_words(script, env, args) == bash_words(script, env, args), what


def test_the_forms_table_in_docs_lists_every_form():
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "shell-forms.md").read_text()
    for script, *_ in FORMS:
        assert script.replace("\n", "; ").replace("|", "\\|") in doc, script

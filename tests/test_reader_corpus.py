"""The reader corpus command (scripts/reader_corpus.py): every file read right or refused in one line,
no misread, at least 30 real configs from at least 6 public sources."""
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("reader_corpus", ROOT / "scripts" / "reader_corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)


def test_the_corpus_has_no_misread_and_every_refusal_is_one_line(capsys):
    assert corpus.main() == 0
    out = capsys.readouterr().out.splitlines()
    files = [ln for ln in out if ln.startswith(("read right", "misread", "refused"))]
    assert not [ln for ln in files if ln.startswith("misread")]
    real = [ln for ln in files if "[Hugging Face" not in ln]
    sources = {ln.split("[", 1)[1].split("]", 1)[0] for ln in real}
    assert len(real) >= 30 and len(sources) >= 6, (len(real), sources)
    for ln in files:                                           # a refusal names the key or flag it stops at
        if ln.startswith("refused"):
            assert re.search(r"config\.json \w+:|--[\w-]+|\w+\(\)", ln), ln

"""Hostile inputs by class, run through foldplan's own command line in-process, counted.

    python benchmarks/hostile_inputs.py            # the table of counts per class
    python benchmarks/hostile_inputs.py --list     # every case with its outcome

Each case is a bad input and the field its one-line error must name. Outcomes: ``traceback``
(an exception escapes ``planner.cli.main``, or no answer in HANG_S seconds), ``accepted`` (exit 0 on a bad input),
``unnamed`` (refused, but the message does not name the field), ``ok``. The classes are
those of the hostile-input runs on the layout grammar, plan files, spec files and scripts:
tests/test_hostile_classes.py asserts every class at zero.
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROBLEM = ["--model", "olmoe-1b-7b", "--gpus", "8", "--seq", "8k", "--global-batch", "64"]
BIG = "9" * 5000


#: seconds one case may take before it counts as a hang (a traceback: the user gets no answer)
HANG_S = 60


class _Hang(BaseException):
    pass


def _alarm(*_):
    raise _Hang()


def run(argv: list[str]) -> tuple[str, int | None, str]:
    import signal
    from planner import cli
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_S)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 2
    except _Hang:
        return "traceback", None, f"no answer in {HANG_S} s"
    except BaseException as e:          # noqa: BLE001 - a traceback is what is counted
        return "traceback", None, f"{type(e).__name__}: {str(e)[:200]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    text = err.getvalue()
    return ("traceback" if "Traceback" in text else "ok"), rc, text


def _plan_doc(tmp: Path) -> dict:
    path = tmp / "good.json"
    if not path.exists():
        out = io.StringIO()
        from planner import cli
        with contextlib.redirect_stdout(out):
            assert cli.main(["plan", *PROBLEM, "--json", "--top", "1", "--time-limit", "10", "--no-engines"]) == 0
        path.write_text(out.getvalue())
    return json.loads(path.read_text())


def _write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text)
    return str(p)


def _plan_file(tmp: Path, name: str, change) -> str:
    doc = _plan_doc(tmp)
    change(doc["plans"][0])
    return _write(tmp, name, json.dumps(doc))


def _set(path: str, value):
    def change(plan):
        *head, last = path.split(".")
        d = plan
        for k in head:
            d = d[int(k)] if isinstance(d, list) else d[k]
        if isinstance(d, list):
            d[int(last)] = value
        else:
            d[last] = value
    return change


def _drop(path: str):
    def change(plan):
        *head, last = path.split(".")
        d = plan
        for k in head:
            d = d[int(k)] if isinstance(d, list) else d[k]
        del d[last]
    return change


def cases(tmp: Path) -> dict[str, list[tuple[list[str], str]]]:
    """class -> [(argv, the field the error must name)]."""
    plan = lambda name, change: _plan_file(tmp, name, change)
    out: dict[str, list] = {}
    files = [("stages_object.json", _set("layout.stages", {"0": {"index": 0}}), "stages"),
             ("layers_missing.json", _drop("layout.stages.0.layers"), "layers"),
             ("layers_strings.json", _set("layout.stages.0.layers", ["0", "16"]), "layers"),
             ("solver_junk.json", _set("solver", "junk"), "solver"),
             ("pp_huge.json", _set("layout.pp", 1.8e11), "pp"),
             ("pp_huge_int.json", _set("layout.pp", 180_000_000_000), "pp"),
             ("tp_bool.json", _set("layout.tp", True), "tp"),
             ("stage_layers_float.json", _set("layout.stages.0.layers", [0.5, 16]), "layers")]
    out["plan file"] = [(cmd + [plan(n, c)] + tail, f) for n, c, f in files
                        for cmd, tail in ((["audit"], ["--no-best"]), (["explain"], []))]
    big_plan = _write(tmp, "big_tp.json", (tmp / "good.json").read_text().replace('"tp": 1', f'"tp": {BIG}', 1))
    out["5,000-digit integer"] = [
        (["audit", big_plan, "--no-best"], "tp"), (["explain", big_plan], "tp"),
        (["audit", _write(tmp, "big.toml", f"[parallelism]\ntensor_parallel_degree = {BIG}\n[training]\n"
                                           f"seq_len = 4096\n"), "--model", "llama3-8b", "--gpus", "8", "--no-best"],
         "tensor_parallel_degree"),
        (["plan", "--model", _write(tmp, "big_model.yaml", f"layers: {BIG}\nhidden: 4096\nheads: 32\n"
                                                           f"kv_heads: 8\nffn: 14336\nvocab: 128256\n")], "layers"),
        (["audit", _write(tmp, "big_ds.json", f'{{"train_batch_size": {BIG}}}'), "--model", "llama3-8b",
          "--seq", "4096", "--gpus", "8", "--no-best"], "train_batch_size"),
        (["plan", *PROBLEM, "--fix", f"tp={BIG}"], "tp")]
    out["non-ASCII digits"] = [
        (["explain", "--layout", "tp=²", *PROBLEM], "tp"), (["explain", "--layout", "tp=٢", *PROBLEM], "tp"),
        (["explain", "--layout", "pp=２", *PROBLEM], "pp"), (["plan", *PROBLEM, "--fix", "tp=²"], "tp"),
        (["compare", "cp=²", *PROBLEM], "cp"), (["audit", "tp=٢", *PROBLEM, "--no-best"], "tp"),
        (["plan", "--model", "olmoe-1b-7b", "--gpus", "٨", "--seq", "8k"], "gpus")]
    hf = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 4, "hidden_size": 512,
          "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000}
    moe = {**hf, "model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2}
    (tmp / "hf_noffn").mkdir(exist_ok=True)
    out["HF config without FFN sizes"] = [
        (["plan", "--model", _write(tmp, "hf_noffn/config.json", json.dumps(hf)), "--gpus", "8", "--seq", "4k"],
         "intermediate_size"),
        (["plan", "--model", _write(tmp, "hf_moe_noffn.json", json.dumps(moe)), "--gpus", "8", "--seq", "4k"],
         "intermediate_size")]
    out["contradicting layout strings"] = [
        (["explain", "--layout", "tp=2,num_microbatches=3", *PROBLEM], "num_microbatches"),
        (["explain", "--layout", "tp=1,micro_batch=2,num_microbatches=8", *PROBLEM], "num_microbatches"),
        (["explain", "--layout", "cp=8,cp_ulysses=3", *PROBLEM], "cp_ulysses"),
        (["explain", "--layout", "cp=4,cp_ulysses=2,cp_ring=4", *PROBLEM], "cp_ulysses"),
        (["compare", "cp=4,cp_kind=ulysses,cp_ring=2", *PROBLEM], "cp_kind"),
        (["audit", "tp=2,num_microbatches=5", *PROBLEM, "--no-best"], "num_microbatches"),
        (["audit", "cp=8,cp_ulysses=3", *PROBLEM, "--no-best"], "cp_ulysses"),
        (["plan", *PROBLEM, "--fix", "cp=8,cp_ulysses=3"], "cp_ulysses")]
    nan_plan = _write(tmp, "nan_seq.json", (tmp / "good.json").read_text().replace('"seq": 8192', '"seq": NaN', 1))
    inf_plan = _write(tmp, "inf_tp.json", (tmp / "good.json").read_text().replace('"tp": 1', '"tp": Infinity', 1))
    out["NaN / Infinity"] = [
        (["explain", nan_plan], "seq"), (["audit", nan_plan, "--no-best"], "seq"),
        (["explain", inf_plan], "tp"), (["audit", inf_plan, "--no-best"], "tp"),
        (["plan", "--model", _write(tmp, "nan_model.yaml", "layers: 4\nhidden: .nan\nheads: 8\nkv_heads: 8\n"
                                                           "ffn: 2048\nvocab: 32000\n"), "--gpus", "8"], "hidden"),
        (["plan", "--model", _write(tmp, "inf_model.json", '{"layers": 4, "hidden": Infinity, "heads": 8, '
                                                           '"kv_heads": 8, "ffn": 2048, "vocab": 32000}'),
          "--gpus", "8"], "hidden"),
        (["audit", _write(tmp, "nan_ds.json", '{"train_batch_size": NaN}'), "--model", "llama3-8b", "--seq",
          "4096", "--gpus", "8", "--no-best"], "train_batch_size")]
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    out["YAML anchor bomb"] = [
        (["plan", "--model", _write(tmp, "bomb_model.yaml", bomb + "layers: 4\n"), "--gpus", "8"], "model"),
        (["audit", _write(tmp, "bomb.yaml", "MODEL_ARGS:\n  --num-layers: 4\n" + "".join(
            "  " + line + "\n" for line in bomb.splitlines())), "--model", "llama3-8b", "--seq", "4096", "--gpus",
          "8", "--no-best"], "bomb.yaml")]
    deep = "${A:-" * 3000 + "4" + "}" * 3000
    out["deep shell defaults"] = [
        (["audit", _write(tmp, "deep_default.sh", f"torchrun pretrain_gpt.py --num-layers {deep} --hidden-size "
                                                  f"4096\n"), "--model", "llama3-8b", "--seq", "4096", "--gpus", "8",
          "--no-best"], "deep_default.sh"),
        (["audit", _write(tmp, "deep_default2.sh", f"TP={deep}\ntorchrun pretrain_gpt.py "
                                                   f"--tensor-model-parallel-size $TP\n"), "--model", "llama3-8b",
          "--seq", "4096", "--gpus", "8", "--no-best"], "deep_default2.sh")]
    out["--memory-fraction"] = [(["plan", *PROBLEM, "--memory-fraction", v], "memory_fraction") for v in
                                ("1e-300", "0", "nan", "inf", "-1", "1e300", "5e-324")]
    return out


def main(argv=None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        _plan_doc(tmp)
        counts: dict[str, dict[str, int]] = {}
        for cls, items in cases(tmp).items():
            c = counts.setdefault(cls, {"cases": 0, "traceback": 0, "accepted": 0, "unnamed": 0})
            for args, field in items:
                kind, rc, err = run(args)
                if kind == "ok" and rc == 0:
                    kind = "accepted"
                elif kind == "ok" and field.lower() not in err.lower().replace("-", "_") \
                        and field.lower() not in err.lower():
                    kind = "unnamed"
                c["cases"] += 1
                if kind != "ok":
                    c[kind] += 1
                if "--list" in argv:
                    shown = " ".join(a if len(a) < 60 else a[:57] + "..." for a in args)
                    print(f"{kind:9s} {cls:30s} {shown}\n          {err.strip()[:300]}")
    if "--list" not in argv or "--table" in argv:
        print(f"{'class':30s} {'cases':>5s} {'traceback':>9s} {'accepted':>8s} {'unnamed':>7s}")
        for cls, c in counts.items():
            print(f"{cls:30s} {c['cases']:5d} {c['traceback']:9d} {c['accepted']:8d} {c['unnamed']:7d}")
    return counts


if __name__ == "__main__":
    main()

"""Bundle rendering: refusals, atomic writes, shell safety, determinism."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import model, plan  # noqa: E402
from test_bundle_grid import load_layout  # noqa: E402

from planner.bundle import codegen  # noqa: E402
from planner import plan as planmod  # noqa: E402
from planner.cli import main as cli_main  # noqa: E402
from planner.bundle.codegen import BundleError, render_bundle  # noqa: E402
from planner.specs import ModelSpec  # noqa: E402

SCRIPTS = ["launch/torchrun.sh", "launch/slurm.sbatch", "launch/local_cpu.sh", "launch/calibrate.sh"]


def test_bundle_contents(tmp_path):
    p = plan(cp=2, dp=2)
    out = render_bundle(p, tmp_path / "b")
    for f in ["plan.json", "README.md", "mesh.py", "layout.py", "train.py", "cp/ring.py", "cp/ulysses.py",
              "moe/dispatch.py", "pipeline.py", "dataparallel.py", *SCRIPTS]:
        assert (out / f).is_file(), f
    readme = (out / "README.md").read_text()
    total = p.estimate.to_dict()["memory_gib_by_stage"][0]["total"]
    assert "tiny-moe" in readme and f"{total:.2f}" in readme and ">= 2.8" in readme
    # plan.json is this one plan, loadable by foldplan (explain / audit / bundle)
    assert json.loads((out / "plan.json").read_text())["schema"] == planmod.SCHEMA
    assert planmod.load(str(out / "plan.json"))[0].layout == p.layout


def test_render_is_deterministic(tmp_path):
    d = plan(pp=2, cp=2, split=[1, 3])
    a, b = codegen.render_files(d), codegen.render_files(d)
    assert a == b


def test_templates_hold_no_logic():
    for p in codegen.TEMPLATES.rglob("*"):
        if p.is_file() and "__pycache__" not in p.parts:     # bytecode of a run from the folder is no template
            assert "{%" not in p.read_text(), f"{p}: templates only substitute"


def _plan_file(tmp_path, mutate) -> Path:
    d = planmod.document([plan(cp=4)])
    mutate(d["plans"][0])
    f = tmp_path / "plan.json"
    f.write_text(json.dumps(d))
    return f


@pytest.mark.parametrize("mutate,field", [
    (lambda p: p["layout"].pop("cp"), "world(4)"),
    (lambda p: p["layout"].update(world=7), "world(7)"),
    (lambda p: p["layout"]["stages"][0].update(ep=3), "ep(3)"),
    (lambda p: p["layout"].update(order="tp-dp-pp"), "order"),
    (lambda p: p["problem"]["train"].update(seq=60), "seq(60)"),
    (lambda p: p["problem"]["model"]["moe"].update(top_k=9), "top_k(9)"),
])
def test_bad_plan_file_names_the_field(tmp_path, capsys, mutate, field):
    """One validation, planner.plan.load's: `foldplan bundle` fails with one line, writes nothing."""
    f = _plan_file(tmp_path, mutate)
    assert cli_main(["bundle", str(f), "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err.strip()
    assert field in err and "\n" not in err, err
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("kw,field", [
    (dict(tp=8, model=model(ffn_hidden=100)), "problem.model.ffn_hidden"),
    (dict(model=model(head_dim=7)), "problem.model.head_dim"),
    (dict(pp=2, num_microbatches=1), "layout.num_microbatches"),
    (dict(tp=4, cp=2, seq=4, sequence_parallel=False), "layout.micro_batch"),
])
def test_what_the_bundle_cannot_run_names_the_field(tmp_path, kw, field):
    with pytest.raises(BundleError) as e:
        render_bundle(plan(**kw), tmp_path / "b")
    assert field in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "b").exists()


def test_bad_schema_and_index(tmp_path, capsys):
    f = tmp_path / "plan.json"
    f.write_text(json.dumps({"schema": "x", "plans": []}))
    with pytest.raises(planmod.PlanFileError, match="schema"):
        planmod.load(str(f))
    f.write_text(planmod.dumps([plan()]))
    assert cli_main(["bundle", str(f), "--out", str(tmp_path / "b"), "--index", "3"]) == 2
    assert "no plan at index 3" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_existing_dir_needs_force(tmp_path):
    out = tmp_path / "b"
    out.mkdir()
    (out / "keep.txt").write_text("old")
    with pytest.raises(BundleError) as e:
        render_bundle(plan(), out)
    assert str(e.value) == f"out: {out} exists and is not empty (use --force)"
    assert (out / "keep.txt").read_text() == "old"
    render_bundle(plan(), out, force=True)
    assert not (out / "keep.txt").exists() and (out / "train.py").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]          # no temp leftovers


def test_empty_existing_dir_is_fine(tmp_path):
    (tmp_path / "b").mkdir()
    render_bundle(plan(), tmp_path / "b")
    assert (tmp_path / "b" / "train.py").is_file()


def test_failure_midway_keeps_old_bundle(tmp_path, monkeypatch):
    out = render_bundle(plan(cp=2), tmp_path / "b")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    real = codegen.write_files

    def half_then_fail(root, files):
        real(root, dict(list(files.items())[:3]))
        raise RuntimeError("disk full")

    monkeypatch.setattr(codegen, "write_files", half_then_fail)
    with pytest.raises(RuntimeError, match="disk full"):
        render_bundle(plan(cp=4), out, force=True)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


def test_failure_at_rename_restores_old_bundle(tmp_path, monkeypatch):
    out = render_bundle(plan(cp=2), tmp_path / "b")
    before = (out / "layout.py").read_bytes()
    real_rename, calls = codegen.os.rename, []

    def rename(a, b):
        calls.append((a, b))
        if len(calls) == 2:            # old bundle moved aside, new one not yet in place
            raise OSError("killed")
        return real_rename(a, b)

    monkeypatch.setattr(codegen.os, "rename", rename)
    with pytest.raises(OSError, match="killed"):
        render_bundle(plan(cp=4), out, force=True)
    assert (out / "layout.py").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


NASTY = "my model $(touch pwned) `touch pwned2` $HOME 'quoted' \"dq\" ; rm -rf x"


def test_shell_scripts_are_safe(tmp_path):
    out = render_bundle(plan(cp=2, dp=2, model=model(name=NASTY)), tmp_path / "b")
    shellcheck = shutil.which("shellcheck")
    for s in SCRIPTS:
        subprocess.run(["bash", "-n", str(out / s)], check=True)
        if shellcheck:
            r = subprocess.run([shellcheck, "-s", "bash", str(out / s)], capture_output=True, text=True)
            assert r.returncode == 0, r.stdout
        # the name comes back verbatim, nothing in it runs
        line = next(l for l in (out / s).read_text().splitlines() if l.startswith("PLAN_MODEL="))
        r = subprocess.run(["bash", "-c", line + '\nprintf %s "$PLAN_MODEL"'], cwd=tmp_path,
                           capture_output=True, text=True, check=True)
        assert r.stdout == NASTY
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "pwned2").exists()


def test_rank_grid_follows_the_plan_order(tmp_path):
    """order names the dense axes innermost first; experts: etp stride 1, then ep, then edp."""
    p = plan(tp=2, cp=2, dp=2, pp=2, order="cp-tp-dp-pp", split=[1, 3], folds=[(1, 4, 2), (2, 2, 2)],
             num_microbatches=2)
    lay = load_layout(render_bundle(p, tmp_path / "b") / "layout.py")
    ranks, groups = lay.RANKS, lay.GROUPS
    for r, c in enumerate(ranks):
        assert r == c["pp"] * 8 + c["cp"] + 2 * c["tp"] + 4 * c["dp"]
        local = r % 8
        e = c["experts"][c["pp"]]
        assert local == e["etp"] + e["etp_size"] * (e["ep"] + e["ep_size"] * e["edp"])
    assert groups["tp"][0] == [0, 2] and groups["cp"][0] == [0, 1] and groups["dp"][0] == [0, 4]
    assert groups["pp"][0] == [0, 8]
    assert groups["experts"][0]["ep"][0] == [0, 1, 2, 3] and groups["experts"][0]["edp"][0] == [0, 4]
    assert groups["experts"][1]["etp"][0] == [8, 9] and groups["experts"][1]["ep"][0] == [8, 10]
    assert groups["expert_grid"] is None          # stages fold differently
    for name in ("tp", "cp", "dp", "dp_cp", "stage", "pp"):
        members = sorted(r for g in groups[name] for r in g)
        assert members == list(range(16)), name  # every rank in exactly one group


def test_stage_recompute_and_moe_flags():
    p = plan(pp=2, cp=2, split=[1, 3], recompute=[(0, 1), (2, 1)], num_microbatches=2)
    st = codegen.derive(p)["stages"]
    assert st[0]["layers"] == [0] and st[0]["is_moe"] == [False] and st[0]["recompute"] == ["selective"]
    # full recompute: MoE layers first (1, 2), then dense; selective: next in layer order (3)
    assert st[1]["layers"] == [1, 2, 3] and st[1]["recompute"] == ["full", "full", "selective"]


def test_layer_freq_list_and_int():
    assert codegen.model_dims(plan().problem.model)["is_moe"] == [False, True, True, True]
    m = model()
    m["moe"]["layer_freq"] = [1, 0, 1, 0]
    assert codegen.model_dims(ModelSpec(**m))["is_moe"] == [True, False, True, False]
    m["moe"].update(layer_freq=2, first_dense_layers=1)
    assert codegen.model_dims(ModelSpec(**m))["is_moe"] == [False, False, True, False]


def test_dense_model_without_expert_folding(tmp_path):
    p = plan(cp=2, dp=2, model=model(moe=None, name="dense"))
    ctx = codegen.derive(p)
    assert ctx["model"]["is_moe"] == [False] * 4
    assert (ctx["stages"][0]["etp"], ctx["stages"][0]["ep"], ctx["stages"][0]["edp"]) == (1, 1, 4)
    render_bundle(p, tmp_path / "b")


def test_vpp_deals_layers_in_virtual_stage_order():
    """pp=2, vpp=2, stages of 3 and 5 layers: chunks of [1, 2] layers on rank 0 (the later chunk
    heavier) and [3, 2] on the last rank (the earlier heavier), dealt in virtual-stage order; rank p
    holds chunks p and p + pp."""
    p = plan(pp=2, vpp=2, split=[3, 5], model=model(layers=8), num_microbatches=2, recompute=[(1, 0), (0, 2)])
    st = codegen.derive(p)["stages"]
    assert [(s["index"], s["pp_rank"], s["layers"]) for s in st] == [
        (0, 0, [0]), (1, 1, [1, 2, 3]), (2, 0, [4, 5]), (3, 1, [6, 7])]
    assert st[0]["recompute"] == ["none"] and st[2]["recompute"] == ["full", "none"]   # MoE layer 4 first
    assert st[1]["recompute"] == ["selective", "selective", "none"] and st[3]["recompute"] == ["none"] * 2


# ---------------------------------------------------------------- a templates directory that cannot render

def _templates_copy(tmp_path) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(codegen.TEMPLATES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _refused(tmp_path, monkeypatch, root, *, via_cli=False, capsys=None) -> str:
    """render_bundle (or `foldplan bundle`) with codegen reading templates from root: the error
    line; nothing written next to OUT."""
    monkeypatch.setattr(codegen, "TEMPLATES", root)
    out = tmp_path / "out" / "b"
    out.parent.mkdir()
    if via_cli:
        f = tmp_path / "plan.json"
        f.write_text(planmod.dumps([plan(cp=2)]))
        assert cli_main(["bundle", str(f), "--out", str(out)]) != 0
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in err[0], err
        message = err[0]
    else:
        with pytest.raises(BundleError) as e:
            render_bundle(plan(cp=2), out)
        message = str(e.value)
        assert "\n" not in message
    assert list(out.parent.iterdir()) == [], "a refused bundle left files behind"
    return message


@pytest.mark.parametrize("state", ["missing", "empty", "only_caches"])
def test_missing_or_empty_templates_are_refused(tmp_path, monkeypatch, state):
    root = tmp_path / "templates"
    if state != "missing":
        root.mkdir()
    if state == "only_caches":
        (root / "__pycache__").mkdir()
        (root / "__pycache__" / "train.cpython-311.pyc").write_bytes(b"\0")
    message = _refused(tmp_path, monkeypatch, root)
    assert message.startswith("templates: ") and "missing or holds no files" in message


@pytest.mark.parametrize("breakage,words", [
    (lambda r: (r / "layout.py.j2").write_text("MODEL = {{ no_such_value }}\n"), "layout.py.j2 does not render"),
    (lambda r: (r / "README.md.j2").write_text("# {{ model_name \n"), "README.md.j2 line 1 does not render"),
    (lambda r: (r / "launch" / "torchrun.sh.j2").write_bytes(b"\xff\xfe\x00bad"), "torchrun.sh.j2 does not render"),
    (lambda r: (r / "train.py").unlink(), "lacks train.py"),
])
def test_a_template_that_does_not_render_is_refused(tmp_path, monkeypatch, breakage, words):
    root = _templates_copy(tmp_path)
    breakage(root)
    message = _refused(tmp_path, monkeypatch, root)
    assert message.startswith("templates: ") and words in message, message


def test_cli_bundle_with_broken_templates_exits_nonzero_and_writes_nothing(tmp_path, monkeypatch, capsys):
    root = _templates_copy(tmp_path)
    (root / "mesh.py").unlink()
    line = _refused(tmp_path, monkeypatch, root, via_cli=True, capsys=capsys)
    assert line.startswith("foldplan: error: templates:") and "lacks mesh.py" in line, line


def test_the_shipped_templates_render_every_required_file():
    files = codegen.render_files(plan(pp=2, cp=2, split=[1, 3]))
    assert set(codegen.REQUIRED) <= set(files)
    # every template became one file (plus plan.json and the planner modules), no name lost or doubled
    rels = codegen.template_paths(codegen.TEMPLATES)
    assert sorted(files) == sorted({"plan.json", *codegen.MODULES} | {r[:-3] if r.endswith(".j2") else r for r in rels})

"""The bundle's MFU counts the planner's model FLOPs: codegen writes the cost model's
`flops_per_token` of the planned model and of the `--tiny` model into layout.py, and the
tiny model's ModelSpec is the model the bundle runs (its runtime dimensions round-trip)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bundle_plans import MODEL, model, plan  # noqa: E402
from test_bundle_grid import load_layout  # noqa: E402

from planner import costmodel as cm  # noqa: E402
from planner.bundle import codegen  # noqa: E402
from planner.bundle.tiny import tiny_spec  # noqa: E402

PLANS = {
    "moe_shared": lambda: plan(tp=2, cp=2, folds=[(1, 2, 2)]),
    "dense_tied": lambda: plan(dp=2, model=model(moe=None, tied_embeddings=True)),
    "moe_no_shared_ulysses": lambda: plan(cp=2, cp_kind="ulysses",
                                          model=model(moe={**MODEL["moe"], "shared_experts": 0,
                                                           "shared_ffn_hidden": 0}), folds=[(1, 2, 1)]),
}


@pytest.mark.parametrize("name", list(PLANS))
def test_bundle_flops_are_the_planners(name, tmp_path):
    p = PLANS[name]()
    lay = load_layout(codegen.render_bundle(p, tmp_path / "b") / "layout.py")
    m = p.problem.model
    assert lay.FLOPS_PER_TOKEN["model"] == cm.flops_per_token(m, lay.TRAIN["seq"])
    assert lay.FLOPS_PER_TOKEN["tiny"] == cm.flops_per_token(tiny_spec(m, lay.TINY), lay.TINY_TRAIN["seq"])
    # the tiny ModelSpec is the model the bundle runs: codegen's runtime dimensions of it are TINY's
    back = codegen.model_dims(tiny_spec(m, lay.TINY))
    assert {k: v for k, v in back.items() if k != "name"} == {k: v for k, v in lay.TINY.items() if k != "name"}
    assert lay.FLOPS_PER_TOKEN["tiny"] < lay.FLOPS_PER_TOKEN["model"]


def test_no_template_counts_flops_itself():
    # one count of the model's FLOPs: the planner's, written into layout.py
    for path in codegen.TEMPLATES.rglob("*.py"):
        text = path.read_text()
        assert "def flops_per_token" not in text and "6.0 * active" not in text, path

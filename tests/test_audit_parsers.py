"""Parsers of foreign configs (planner/audit): each fixture read into the numbers its framework would use.

Model shapes are checked against the published config.json values (REFERENCE.md table),
not against the parser's own output.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.audit import AuditParseError
from planner.audit.detect import load
from planner.engines.megatron.read import layer_freq

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "audit"


def fixture(name: str) -> str:
    return str(EXAMPLES / name)


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(p)


# ---------------------------------------------------------------- Megatron-LM


def test_megatron_mixtral_fixture():
    c = load(fixture("megatron_mixtral_8x7b.sh"))
    assert c.format == "megatron"
    assert (c.world, c.tp, c.pp, c.cp, c.ep, c.etp) == (32, 1, 4, 1, 8, 1)
    assert (c.dp, c.edp) == (8, 1)  # 32/(1*4*1), 32/(1*8*4)
    assert (c.seq, c.micro_batch, c.global_batch) == (4096, 1, 256)
    m = c.model
    # Mixtral-8x7B config.json: 32 layers, 4096 hidden, 32 heads, 8 kv heads, 14336 expert FFN, 8 experts top-2
    assert (m["layers"], m["hidden"], m["heads"], m["kv_heads"], m["head_dim"]) == (32, 4096, 32, 8, 128)
    assert m["moe"]["experts"] == 8 and m["moe"]["top_k"] == 2 and m["moe"]["expert_ffn_hidden"] == 14336
    assert m["ffn_hidden"] == 0  # every layer is MoE (plan-schema)
    assert m["gated"] is True and m["tied_embeddings"] is False
    assert c.distributed_optimizer is True and c.sequence_parallel is False
    assert "--moe-grouped-gemm" in c.unknown_flags and "--lr" in c.unknown_flags
    assert "--nproc-per-node" not in c.unknown_flags
    assert c.where("seq").endswith("megatron_mixtral_8x7b.sh:36")


def test_megatron_deepseek_v3_fixture():
    c = load(fixture("megatron_deepseek_v3.sh"))
    assert (c.world, c.tp, c.pp, c.ep, c.dp, c.edp) == (1024, 1, 16, 64, 64, 1)
    assert (c.first_stage_layers, c.last_stage_layers) == (3, 2)
    m = c.model
    # DeepSeek-V3 config.json: 61 layers, 7168 hidden, 128 heads, 256 experts top-8, 2048 expert FFN, 3 dense
    assert (m["layers"], m["hidden"], m["heads"], m["ffn_hidden"], m["vocab"]) == (61, 7168, 128, 18432, 129280)
    moe = m["moe"]
    assert (moe["experts"], moe["top_k"], moe["expert_ffn_hidden"], moe["shared_ffn_hidden"]) == (256, 8, 2048, 2048)
    assert moe["layer_freq"] == [0] * 3 + [1] * 58 and moe["first_dense_layers"] == 3
    assert m["attention"] == "mla" and m["mla"] == {"q_lora_rank": 1536, "kv_lora_rank": 512,
                                                   "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                                                   "v_head_dim": 128}
    assert m["mtp_layers"] == 1 and c.recompute == "selective"
    assert c.vpp == 1  # VPP="" so the `if [[ -n "${VPP}" ]]` branch is not taken
    assert "world" in c.lines and c.extra["world_source"] == "NNODES x GPUS_PER_NODE"


def test_megatron_flag_forms_and_defaults(tmp_path):
    text = ("--num-layers=24\n--hidden-size 2048\n--num-attention-heads 16\n"
            "--tensor-model-parallel-size=2 --context-parallel-size 2 --cp-comm-type a2a+p2p\n"
            "--hierarchical-context-parallel-sizes 2 1\n--seq-length 8192\n")
    c = load(write(tmp_path, "args.txt", text), world=16)
    assert (c.tp, c.cp, c.pp, c.dp, c.world) == (2, 2, 1, 4, 16)
    assert c.cp_kind == "hybrid" and (c.cp_ulysses, c.cp_ring) == (2, 1)
    assert c.model["hidden"] == 2048 and c.model["kv_heads"] == 16  # MHA without --group-query-attention
    assert c.model["ffn_hidden"] == 4 * 2048  # Megatron's GeLU default
    assert any(a.startswith("pp=1") for a in c.assumed)
    assert c.global_batch == 4  # micro(1) * dp(4), Megatron's default
    with pytest.raises(AuditParseError, match="--hidden_size: Megatron's argument parser refuses"):
        load(write(tmp_path, "u.args", text.replace("--hidden-size", "--hidden_size")), world=16)
    assert c.lines["tp"] == 4


def test_megatron_newer_pipeline_split_names(tmp_path):
    c = load(write(tmp_path, "t.sh", "python x.py --num-layers 10 --pipeline-model-parallel-size 3 "
                                     "--num-layers-in-first-pipeline-stage 2 --num-layers-in-last-pipeline-stage=4\n"))
    assert (c.first_stage_layers, c.last_stage_layers) == (2, 4)


@pytest.mark.parametrize("flag,kind", [("p2p", "ring"), ("a2a", "ulysses"), ("allgather", "allgather")])
def test_megatron_cp_comm_types(tmp_path, flag, kind):
    c = load(write(tmp_path, "t.sh", f"python pretrain_gpt.py --context-parallel-size 4 --cp-comm-type {flag}\n"))
    assert c.cp_kind == kind


def test_megatron_unresolvable_variable_is_a_one_line_error(tmp_path):
    text = "#!/bin/bash\nTP=2\n\n" + "\n" * 8 + "torchrun pretrain_gpt.py \\\n  --tensor-model-parallel-size $TP_SIZE\n"
    path = write(tmp_path, "train.sh", text)
    with pytest.raises(AuditParseError) as e:
        load(path)
    assert str(e.value) == f"{path}:13: unresolvable shell variable $TP_SIZE in --tensor-model-parallel-size (pass --env NAME=VALUE)"
    assert "\n" not in str(e.value)
    # the same script with TP_SIZE in the environment
    assert load(path, env={"TP_SIZE": "4"}).tp == 4


def test_megatron_unresolved_values_of_flags_it_does_not_read_are_fine(tmp_path):
    c = load(write(tmp_path, "t.sh", "python pretrain_gpt.py --num-layers 2 --save $CKPT --data-path $(ls /d)\n"))
    assert c.model["layers"] == 2 and "--save" in c.unknown_flags


def test_megatron_command_substitution_in_a_model_flag(tmp_path):
    path = write(tmp_path, "t.sh", "L=$(cat layers.txt)\npython x.py --num-layers $L\n")
    with pytest.raises(AuditParseError, match=r"t\.sh:2: unresolvable command substitution \$\(cat layers\.txt\) "
                                              r"in --num-layers"):
        load(path)


def test_megatron_non_integer_and_missing_values(tmp_path):
    with pytest.raises(AuditParseError, match=r":1: --num-layers expects an integer, got 'many'"):
        load(write(tmp_path, "a.sh", "python x.py --num-layers many\n"))
    with pytest.raises(AuditParseError, match=r":1: --seq-length needs a value"):
        load(write(tmp_path, "b.sh", "python x.py --seq-length --num-layers 2\n"))


def test_megatron_world_sources(tmp_path):
    base = "python pretrain_gpt.py --num-layers 8\n"
    assert load(write(tmp_path, "a.sh", "WORLD_SIZE=16\n" + base)).world == 16
    assert load(write(tmp_path, "b.sh", "NUM_NODES=2\nGPUS_PER_NODE=4\n" + base)).world == 8
    assert load(write(tmp_path, "c.sh", "torchrun --nproc-per-node=8 --nnodes 3 " + base)).world == 24
    c = load(write(tmp_path, "d.sh", base))
    assert c.world is None and c.dp is None
    assert load(write(tmp_path, "e.sh", "WORLD_SIZE=16\n" + base), world=64).world == 64
    assert load(write(tmp_path, "f.sh", "deepspeed --num_nodes 2 --num_gpus 4 " + base)).world == 8


def test_moe_layer_freq_is_evaluated_safely():
    assert layer_freq("([0]*3+[1]*58)") == [0, 0, 0] + [1] * 58
    assert layer_freq("[1,0]*2") == [1, 0, 1, 0]
    assert layer_freq("2") == 2
    for bad in ("__import__('os').system('true')", "[0]*10**9", "[1]*1000000", "[2]*3", "[x]*2", "len([1])"):
        with pytest.raises((ValueError, SyntaxError)):
            layer_freq(bad)


def test_moe_layer_freq_code_is_a_parse_error_not_executed(tmp_path):
    path = write(tmp_path, "t.sh", "python x.py --num-experts 8 --moe-layer-freq \"__import__('os').getcwd()\"\n")
    with pytest.raises(AuditParseError, match=r"t\.sh:1: --moe-layer-freq .* is not an int or a list expression"):
        load(path)


@settings(max_examples=40, deadline=None)
@given(tp=st.sampled_from([1, 2, 4, 8]), pp=st.sampled_from([1, 2, 3, 4]), cp=st.sampled_from([1, 2, 4]),
       ep=st.sampled_from([1, 2, 8]), nodes=st.integers(1, 8), style=st.sampled_from(["array", "string", "inline"]),
       eq=st.booleans())
def test_megatron_degrees_round_trip_through_script_styles(tmp_path_factory, tp, pp, cp, ep, nodes, style, eq):
    sep = "=" if eq else " "
    flags = [f"--tensor-model-parallel-size{sep}${{TP}}", f"--pipeline-model-parallel-size{sep}$PP",
             f"--context-parallel-size{sep}{cp}", f"--expert-model-parallel-size {ep}", "--num-experts 8",
             "--num-layers 12"]
    head = f"NNODES={nodes}\nGPUS_PER_NODE=8\nTP=${{TP:-{tp}}}\nexport PP={pp}\n"
    if style == "array":
        body = "ARGS=(\n" + "\n".join("  " + f for f in flags) + "\n)\ntorchrun --nnodes $NNODES pretrain_gpt.py \"${ARGS[@]}\"\n"
    elif style == "string":
        body = 'ARGS="' + " \\\n  ".join(flags) + '"\ntorchrun pretrain_gpt.py $ARGS\n'
    else:
        body = "torchrun pretrain_gpt.py \\\n  " + " \\\n  ".join(flags) + "\n"
    c = load(write(tmp_path_factory.mktemp("s"), "train.sh", head + body))
    world = nodes * 8
    assert (c.tp, c.pp, c.cp, c.ep, c.etp, c.world) == (tp, pp, cp, ep, tp, world)
    assert c.dp == (world // (tp * pp * cp) if world % (tp * pp * cp) == 0 else None)
    assert c.edp == (world // (tp * ep * pp) if world % (tp * ep * pp) == 0 else None)


# ---------------------------------------------------------------- torchtitan


def test_torchtitan_deepseek_v3_16b_fixture():
    c = load(fixture("torchtitan_deepseek_v3_16b.toml"), gpus=8)
    assert c.format == "torchtitan" and c.model_name == "deepseek_v3:16B"
    assert (c.world, c.tp, c.cp, c.pp, c.dp, c.ep, c.etp, c.edp) == (8, 1, 1, 1, 8, 8, 1, 1)
    assert (c.seq, c.micro_batch, c.global_batch) == (4096, 8, 64)
    assert c.recompute == "selective" and c.extra["dp_shard"] == 8
    # fsdp_reshard_after_forward = "default" without PP: parameters resharded after forward (zero3)
    assert "parallelism.fsdp_reshard_after_forward" not in c.unknown_flags
    assert c.sharding == "zero3" and c.master == "fp32"


def test_torchtitan_needs_world_for_leftover_shard():
    c = load(fixture("torchtitan_deepseek_v3_16b.toml"))
    assert c.world is None and c.dp is None and c.edp is None
    assert any("data_parallel_shard_degree=-1" in a for a in c.assumed)


def test_torchtitan_llama4_etp_fixture():
    c = load(fixture("torchtitan_llama4_etp.toml"), world=64)
    # dp_shard = 64/(1*2*4*1) = 8; edp = tp*cp*dp/(etp*ep) = 4*2*8/(4*4) = 4
    assert (c.tp, c.cp, c.dp, c.etp, c.ep, c.edp) == (4, 2, 8, 4, 4, 4)
    assert c.cp_kind == "allgather" and c.recompute == "full" and c.global_batch == 64


def test_torchtitan_explicit_shard_gives_the_world(tmp_path):
    text = "[parallelism]\ndata_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 4\n" \
           "tensor_parallel_degree = 2\n[training]\nseq_len = 2048\nlocal_batch_size = 1\n"
    c = load(write(tmp_path, "j.toml", text))
    assert (c.world, c.dp, c.lines["dp_shard"]) == (16, 8, 3)


def test_torchtitan_truncated_toml_is_a_one_line_error(tmp_path):
    text = Path(fixture("torchtitan_llama4_etp.toml")).read_text()
    cut = text[: text.index("expert_parallel_degree") + len("expert_parallel_deg")]
    path = write(tmp_path, "cut.toml", cut)
    with pytest.raises(AuditParseError) as e:
        load(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:{cut.count(chr(10)) + 1}: invalid TOML") and "\n" not in msg


def test_torchtitan_bad_types(tmp_path):
    with pytest.raises(AuditParseError, match=r"j\.toml:2: tensor_parallel_degree must be an integer"):
        load(write(tmp_path, "j.toml", '[parallelism]\ntensor_parallel_degree = "4"\n'))
    with pytest.raises(AuditParseError, match=r"data_parallel_shard_degree must be -1 or >= 1, got 0"):
        load(write(tmp_path, "k.toml", "[parallelism]\ndata_parallel_shard_degree = 0\n"))


@pytest.mark.parametrize("extra,kernels", [
    ("", "eager"),                                                        # torchtitan's default: no compile
    ("[compile]\nenable = true\n", "fused"),                            # components default to model + loss
    ("[compile]\nenable = true\ncomponents = [\"loss\"]\n", "eager"),  # the model itself not compiled
    ("[compile]\nenable = false\ncomponents = [\"model\"]\n", "eager"),
    ("[training]\ncompile = true\n", "fused"),                          # the older key
])
def test_torchtitan_compile_sets_the_kernels(tmp_path, extra, kernels):
    base = "[parallelism]\ndata_parallel_shard_degree = 8\n"
    c = load(write(tmp_path, "j.toml", base + extra))
    assert c.extra["kernels"] == kernels
    assert any("kernels=eager" in a for a in c.assumed) == (extra == "")
    with pytest.raises(AuditParseError, match=r"j2\.toml:4: compile\.enable must be true or false"):
        load(write(tmp_path, "j2.toml", base + '[compile]\nenable = "yes"\n'))


# ---------------------------------------------------------------- DeepSpeed


def test_deepspeed_ulysses_moe_fixture():
    c = load(fixture("deepspeed_ulysses_moe.json"), seq=32768)
    assert c.format == "deepspeed" and c.cp_kind == "ulysses"
    # dp = 64 / (1 * 8) = 8; world = dp * tp * pp * sp = 8 * 1 * 1 * 4
    assert (c.world, c.dp, c.cp, c.ep, c.etp, c.edp) == (32, 8, 4, 8, 1, 4)
    assert (c.zero_stage, c.micro_batch, c.global_batch, c.seq) == (2, 1, 64, 32768)
    assert c.model["moe"] == {"experts": 64, "top_k": 2} and c.extra["capacity_factor"] == 1.25


def test_deepspeed_world_from_the_command_line_and_derived_batch(tmp_path):
    path = write(tmp_path, "ds.json", json.dumps({"train_batch_size": 256, "train_micro_batch_size_per_gpu": 2,
                                                  "zero_optimization": {"stage": 3}}))
    c = load(path, gpus=16, tp=2)
    assert (c.world, c.tp, c.dp, c.micro_batch, c.global_batch) == (16, 2, 8, 2, 256)


@pytest.mark.parametrize("zero, overlap, want", [(0, None, False), (0, True, False), (1, None, False),
                                                 (2, None, False), (2, True, True), (3, None, True),
                                                 (3, False, False)])
def test_deepspeed_overlap_comm_as_its_config_validator_defaults_it(tmp_path, zero, overlap, want):
    # DeepSpeedZeroConfig: overlap_comm None -> stage == 3; without ZeRO the engine all-reduces
    # after the backward
    z = {"stage": zero, **({} if overlap is None else {"overlap_comm": overlap})}
    path = write(tmp_path, "ds.json", json.dumps({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 1,
                                                  "gradient_accumulation_steps": 1, "zero_optimization": z}))
    assert load(path, seq=4096).overlap_grad_reduce is want


def test_deepspeed_invalid_json(tmp_path):
    path = write(tmp_path, "ds.json", '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2\n}\n')
    with pytest.raises(AuditParseError, match=r"ds\.json:5: invalid JSON: Expecting ',' delimiter"):
        load(path)


# ---------------------------------------------------------------- layout strings and plans


def test_layout_string_defaults():
    c = load("tp=8,cp=16,pp=16,dp=8,vpp=2")
    assert c.format == "layout" and c.path == "<layout>"
    assert (c.world, c.vpp, c.etp, c.ep, c.edp, c.cp_kind) == (16384, 2, 1, 1, 1024, "ring")
    assert "edp=1024: tp * cp * dp / (etp * ep)" in c.assumed


def test_layout_string_full():
    c = load("tp=1,cp=8,pp=4,dp=2,ep=16,edp=1,etp=1,cp_kind=ulysses,micro_batch=1")
    assert (c.tp, c.cp, c.pp, c.dp, c.ep, c.edp, c.etp, c.cp_kind, c.micro_batch) == (
        1, 8, 4, 2, 16, 1, 1, "ulysses", 1)
    assert (c.cp_ulysses, c.cp_ring, c.world) == (8, 1, 64)


def test_layout_string_dp_from_world():
    assert load("tp=4,pp=2", gpus=64).dp == 8


def test_layout_string_errors():
    with pytest.raises(AuditParseError, match=r"<layout>: unknown layout key 'tensor'; .*\(known: world, tp"):
        load("tp=2,tensor=4")
    with pytest.raises(AuditParseError, match=r"tp must be an integer from 1 to 1048576, got 'x'"):
        load("tp=x,pp=2")
    with pytest.raises(AuditParseError, match=r"cp_kind must be one of"):
        load("cp=2,cp_kind=zigzag")


def _plan(layout: dict, stages: list[dict]) -> dict:
    model = {"name": "tiny-moe", "layers": 4, "hidden": 256, "heads": 8, "kv_heads": 4, "head_dim": 32,
             "vocab": 1000, "ffn_hidden": 0, "gated": True, "tied_embeddings": False,
             "moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": 512, "layer_freq": 1}}
    return {"schema": "foldplan.plans/1", "plans": [{
        "problem": {"model": model, "cluster": {"gpu": "h100-sxm", "gpus": 8, "gpus_per_node": 8,
                                                       "memory_budget_gib": 70.0},
                    "train": {"seq": 4096, "global_batch_tokens": 4096 * 16}},
        "layout": {**layout, "stages": stages}}]}


def test_foldplan_plan_file(tmp_path):
    stages = [{"index": 0, "layers": [0, 2], "etp": 1, "ep": 4, "edp": 1},
              {"index": 1, "layers": [2, 4], "etp": 1, "ep": 2, "edp": 2}]
    layout = {"world": 8, "tp": 2, "cp": 2, "dp": 1, "pp": 2, "vpp": 1, "cp_kind": "ring", "cp_ulysses": 1,
              "cp_ring": 2, "order": "tp-cp-dp-pp", "micro_batch": 1, "num_microbatches": 16}
    c = load(write(tmp_path, "plan.json", json.dumps(_plan(layout, stages))))
    assert c.format == "foldplan" and c.model_name == "tiny-moe"
    assert (c.world, c.tp, c.cp, c.dp, c.pp, c.ep, c.edp) == (8, 2, 2, 1, 2, 4, 1)
    assert (c.global_batch, c.seq, c.first_stage_layers, c.last_stage_layers) == (16, 4096, 2, 2)
    assert len(c.stages) == 2 and c.model["moe"]["experts"] == 8


def test_foldplan_plan_file_without_plans(tmp_path):
    path = write(tmp_path, "plan.json", json.dumps({"schema": "foldplan.plans/1", "plans": []}))
    with pytest.raises(AuditParseError, match="holds no plans"):
        load(path)


# ---------------------------------------------------------------- detection and unreadable inputs


@pytest.mark.parametrize("name,fmt", [("megatron_mixtral_8x7b.sh", "megatron"), ("megatron_deepseek_v3.sh", "megatron"),
                                      ("torchtitan_deepseek_v3_16b.toml", "torchtitan"),
                                      ("deepspeed_ulysses_moe.json", "deepspeed")])
def test_auto_detection(name, fmt):
    assert load(fixture(name), gpus=64).format == fmt


def test_detection_by_content(tmp_path):
    assert load(write(tmp_path, "config", '{"train_batch_size": 8}')).format == "deepspeed"
    assert load(write(tmp_path, "layout.txt", "tp=2,pp=2\n")).format == "layout"
    assert load(write(tmp_path, "job", "[parallelism]\ntensor_parallel_degree = 2\n")).format == "torchtitan"
    with pytest.raises(AuditParseError, match="cannot tell the format"):
        load(write(tmp_path, "notes.txt", "just words\n"))


def test_binary_undecodable_missing_and_directory(tmp_path):
    with pytest.raises(AuditParseError, match=r"bin\.sh:2: binary file \(NUL byte\)"):
        load(write(tmp_path, "bin.sh", b"#!/bin/bash\n\x7fELF\x00\x01\x02"))
    with pytest.raises(AuditParseError, match=r"latin\.sh:1: not UTF-8 text \(byte 0xe9"):
        load(write(tmp_path, "latin.sh", b"# caf\xe9\n--num-layers 2\n"))
    with pytest.raises(AuditParseError, match=r"nope\.sh: no such file"):
        load(str(tmp_path / "nope.sh"))
    with pytest.raises(AuditParseError, match="is a directory"):
        load(str(tmp_path))
    for err_src in (b"#!/bin/bash\n\x7fELF\x00", b"\xff\xfe"):
        try:
            load(write(tmp_path, "x.sh", err_src))
        except AuditParseError as e:
            assert "\n" not in str(e)


def test_unterminated_quote_and_array(tmp_path):
    with pytest.raises(AuditParseError, match=r"q\.sh:2: unterminated double quote"):
        load(write(tmp_path, "q.sh", 'A=1\nB="--num-layers 2\n'))
    with pytest.raises(AuditParseError, match=r"a\.sh:1: unterminated array"):
        load(write(tmp_path, "a.sh", "ARGS=(\n --num-layers 2\n"))


def test_overrides_are_recorded_and_unknown_ones_refused():
    c = load(fixture("megatron_mixtral_8x7b.sh"), seq=32768, global_batch=64)
    assert (c.seq, c.global_batch) == (32768, 64) and "seq" not in c.lines
    assert "seq=32768: given on the command line" in c.assumed
    with pytest.raises(TypeError):
        load(fixture("megatron_mixtral_8x7b.sh"), flavour="x")
    with pytest.raises(TypeError):
        load(fixture("megatron_mixtral_8x7b.sh"), tp=2)


# ---------------------------------------------------------------- robustness: a config or one line, never a crash

_SHELL_BITS = list("$ {}()\"'\\\n#=-:+*[];&|`0123456789abTPX_") + [
    "--num-layers ", "--tensor-model-parallel-size ", "${TP:-", "$((", "ARGS=(", '"${ARGS[@]}"', "--moe-layer-freq ",
    "--num-experts 8 ", 'if [ -n "$X" ]; then ', "fi\n", "export ", "--context-parallel-size=", "--cp-comm-type "]
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 70000), st.sampled_from(["auto", "x", "ring", "full"]),
                  st.floats(allow_nan=False, allow_infinity=False))
_JSON = st.recursive(_LEAF, lambda c: st.lists(c, max_size=3) | st.dictionaries(
    st.sampled_from(["stage", "ep_size", "num_experts", "top_k", "stages", "autotp_size", "size", "enabled",
                     "capacity_factor"]), c, max_size=4), max_leaves=8)
_DS_KEYS = ["train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "zero_optimization",
            "bf16", "moe", "tensor_parallel", "pipeline", "sequence_parallel_size", "sequence_parallel"]
_TT_KEYS = ["data_parallel_replicate_degree", "data_parallel_shard_degree", "tensor_parallel_degree",
            "context_parallel_degree", "context_parallel_rotate_method", "pipeline_parallel_degree",
            "pipeline_parallel_microbatch_size", "expert_parallel_degree", "expert_tensor_parallel_degree"]


def _config_or_one_line(path, **kw):
    from planner.engines.startup import framework_rules
    try:
        framework_rules(load(path, **kw))
    except AuditParseError as e:
        assert "\n" not in str(e) and str(e).startswith(path)


def _toml(v):
    return json.dumps(v) if isinstance(v, (int, float, str)) and not isinstance(v, bool) else \
        ("true" if v else "false") if isinstance(v, bool) else None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SHELL_BITS), max_size=50).map("".join))
def test_any_shell_text_gives_a_config_or_a_one_line_error(tmp_path_factory, text):
    _config_or_one_line(write(tmp_path_factory.mktemp("f"), "t.sh", text))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_DS_KEYS), _JSON, max_size=6), st.one_of(st.none(), st.integers(1, 64)))
def test_any_deepspeed_json_gives_a_config_or_a_one_line_error(tmp_path_factory, doc, world):
    _config_or_one_line(write(tmp_path_factory.mktemp("f"), "ds.json", json.dumps(doc)), world=world)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_TT_KEYS), _LEAF, max_size=8),
       st.dictionaries(st.sampled_from(["seq_len", "local_batch_size", "global_batch_size"]), _LEAF, max_size=3),
       st.one_of(st.none(), _LEAF), st.one_of(st.none(), st.integers(1, 64)))
def test_any_torchtitan_toml_gives_a_config_or_a_one_line_error(tmp_path_factory, par, train, top, world):
    lines = [f"activation_checkpoint = {_toml(top)}"] if _toml(top) else []
    lines += ["[parallelism]"] + [f"{k} = {_toml(v)}" for k, v in par.items() if _toml(v)]
    lines += ["[training]"] + [f"{k} = {_toml(v)}" for k, v in train.items() if _toml(v)]
    _config_or_one_line(write(tmp_path_factory.mktemp("f"), "j.toml", "\n".join(lines) + "\n"), world=world)

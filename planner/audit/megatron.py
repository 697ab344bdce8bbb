"""Megatron-LM launch scripts and argument files -> ForeignConfig.

The script is read by ``shell.interpret`` (variables, defaults, arrays,
arithmetic); the ``--flag value`` / ``--flag=value`` pairs of every command are
then matched against the Megatron-LM (megatron/training/arguments.py) and
torchrun flags below. Underscores in flag names are read as dashes. Flags this
module does not read are kept in ``unknown_flags``. A flag it reads whose value
holds an unresolvable shell expression (``--tensor-model-parallel-size
$TP_SIZE`` with ``TP_SIZE`` never set) is an ``AuditParseError``.

Defaults applied when a flag is absent are Megatron's own, and each is listed in
``assumed``: tp = pp = cp = ep = 1, etp = tp, micro-batch 1, global batch =
micro-batch x dp, cp comm type p2p (ring), top-k 2, MoE on every layer.

``extra`` keys: ``vpp_layers`` (--num-layers-per-virtual-pipeline-stage),
``hierarchical_cp_sizes``, ``overlap_p2p`` (--overlap-p2p-comm),
``account_embedding`` / ``account_loss`` (--account-for-embedding/loss-in-
pipeline-split), ``capacity_factor``, ``dtype``, ``cp_comm_types`` (when
--cp-comm-type lists one per layer), ``world_source``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .shell import Field, ShellSyntaxError, interpret, unresolved
from .source import AuditParseError, ForeignConfig, exact_div, product

# Flags that take no value.
_BOOL = {
    "sequence-parallel", "use-distributed-optimizer", "swiglu", "untie-embeddings-and-output-weights",
    "bf16", "fp16", "group-query-attention", "overlap-p2p-comm", "recompute-activations",
    "account-for-embedding-in-pipeline-split", "account-for-loss-in-pipeline-split",
    "multi-latent-attention", "qk-layernorm", "moe-router-enable-expert-bias", "standalone",
}
# Flags with one or more values (nargs="+").
_LIST = {"hierarchical-context-parallel-sizes", "cp-comm-type"}
# Valued flags read by this module (bool and list flags above, plus these).
_VALUED = {
    "tensor-model-parallel-size", "pipeline-model-parallel-size", "context-parallel-size",
    "expert-model-parallel-size", "expert-tensor-parallel-size",
    "num-layers", "hidden-size", "ffn-hidden-size", "num-attention-heads", "num-query-groups",
    "kv-channels", "seq-length", "encoder-seq-length", "micro-batch-size", "global-batch-size",
    "num-experts", "moe-router-topk", "moe-ffn-hidden-size", "moe-shared-expert-intermediate-size",
    "moe-layer-freq", "moe-expert-capacity-factor", "moe-router-score-function",
    "recompute-granularity", "recompute-method", "recompute-num-layers",
    "num-layers-per-virtual-pipeline-stage", "num-virtual-stages-per-pipeline-rank",
    "decoder-first-pipeline-num-layers", "decoder-last-pipeline-num-layers",
    "vocab-size", "padded-vocab-size", "normalization", "q-lora-rank", "kv-lora-rank",
    "qk-head-dim", "qk-pos-emb-head-dim", "v-head-dim", "mtp-num-layers",
}
# torchrun's own flags: read for the world size, never a parse error.
_LAUNCHER = {"nproc-per-node", "nnodes", "node-rank", "master-addr", "master-port", "rdzv-endpoint",
             "rdzv-backend", "rdzv-id", "max-restarts", "log-dir", "redirects", "tee", "role"}
_NODES = ("NNODES", "NUM_NODES", "N_NODES", "NNODE", "NODES", "SLURM_NNODES", "SLURM_JOB_NUM_NODES")
_PER_NODE = ("GPUS_PER_NODE", "NPROC_PER_NODE", "NGPUS_PER_NODE", "NUM_GPUS_PER_NODE", "GPU_PER_NODE",
             "NGPU_PER_NODE", "SLURM_GPUS_ON_NODE", "GPUS")
_CP_KIND = {"p2p": "ring", "a2a": "ulysses", "allgather": "allgather", "a2a+p2p": "hybrid"}
# Other spellings of flags read here: Megatron-Core's newer names for the uneven pipeline
# split, and the `deepspeed` launcher's --num_gpus / --num_nodes for torchrun's flags.
_ALIASES = {"num-layers-in-first-pipeline-stage": "decoder-first-pipeline-num-layers",
            "num-layers-in-last-pipeline-stage": "decoder-last-pipeline-num-layers",
            "num-gpus": "nproc-per-node", "num-nodes": "nnodes"}


@dataclass
class _Flag:
    values: list[str]
    line: int


class _Flags:
    """The flags of a script, last occurrence wins (as with argparse)."""

    def __init__(self, path: str):
        self.path = path
        self.flags: dict[str, _Flag] = {}
        self.unknown: dict[str, None] = {}

    def scan(self, fields: list[Field]) -> None:
        i = 0
        while i < len(fields):
            f = fields[i]
            i += 1
            if not f.text.startswith("--") or len(f.text) < 3:
                continue
            name, eq, inline = f.text[2:].partition("=")
            name = name.replace("_", "-")
            name = _ALIASES.get(name, name)
            values: list[str] = [inline] if eq else []
            if not eq and name not in _BOOL:
                while i < len(fields) and not fields[i].text.startswith("--"):
                    values.append(fields[i].text)
                    i += 1
                    if name not in _LIST and name not in _LAUNCHER and name in _VALUED:
                        break
            if name in _BOOL or name in _VALUED or name in _LIST or name in _LAUNCHER:
                self.flags[name] = _Flag(values, f.line)
            else:
                self.unknown[f"--{name}"] = None

    def has(self, name: str) -> bool:
        return name in self.flags

    def line(self, name: str) -> int | None:
        return self.flags[name].line if name in self.flags else None

    def raw(self, name: str) -> str | None:
        flag = self.flags.get(name)
        if flag is None:
            return None
        if not flag.values:
            raise AuditParseError(self.path, flag.line, f"--{name} needs a value")
        self._check_resolved(name, flag, flag.values[0])
        return flag.values[0]

    def ints(self, name: str) -> list[int] | None:
        flag = self.flags.get(name)
        if flag is None:
            return None
        return [self._int(name, flag, v) for v in flag.values]

    def int(self, name: str) -> int | None:
        value = self.raw(name)
        return None if value is None else self._int(name, self.flags[name], value)

    def float(self, name: str) -> float | None:
        value = self.raw(name)
        if value is None:
            return None
        try:
            return float(value)
        except ValueError:
            raise AuditParseError(self.path, self.flags[name].line,
                                  f"--{name} expects a number, got {value!r}") from None

    def _check_resolved(self, name: str, flag: _Flag, value: str) -> None:
        bad = unresolved(value)
        if bad:
            kind = "command substitution" if bad[0].startswith("$(") and not bad[0].startswith("$((") \
                else "shell variable"
            raise AuditParseError(self.path, flag.line, f"unresolvable {kind} {bad[0]} in --{name}")

    def _int(self, name: str, flag: _Flag, value: str) -> int:
        self._check_resolved(name, flag, value)
        try:
            return int(value)
        except ValueError:
            raise AuditParseError(self.path, flag.line, f"--{name} expects an integer, got {value!r}") from None


def layer_freq(expr: str) -> int | list[int]:
    """``--moe-layer-freq``: an int, or a list expression such as ``([0]*3+[1]*58)``.

    Evaluated with ``ast``; only list literals of ints, ``+`` and ``*`` by an int
    are allowed, and lists stay under 100 000 entries.
    """
    text = expr.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    node = ast.parse(text, mode="eval").body

    def ev(n: ast.AST) -> int | list[int]:
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.List) and all(isinstance(e, ast.Constant) and type(e.value) is int for e in n.elts):
            return [e.value for e in n.elts]
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Mult)):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add) and type(a) is type(b):
                out = a + b
            elif isinstance(n.op, ast.Mult) and isinstance(a, list) != isinstance(b, list):
                lst, k = (a, b) if isinstance(a, list) else (b, a)
                if k < 0 or len(lst) * k > 100_000:
                    raise ValueError("list too long")
                out = lst * k
            else:
                raise ValueError("unsupported operands")
            if isinstance(out, list) and len(out) > 100_000:
                raise ValueError("list too long")
            return out
        raise ValueError(f"unsupported expression {type(n).__name__}")

    value = ev(node)
    if isinstance(value, list) and any(v not in (0, 1) for v in value):
        raise ValueError("entries must be 0 or 1")
    return value


def parse(text: str, path: str, world: int | None = None, env: dict[str, str] | None = None) -> ForeignConfig:
    """Read a Megatron-LM launch script / argument file. ``world`` overrides the script's GPU count."""
    try:
        sh = interpret(text, env)
    except ShellSyntaxError as e:
        raise AuditParseError(path, e.line, e.what) from None
    flags = _Flags(path)
    for command in sh.commands:
        flags.scan(command)
    if not any(name in flags.flags for name in _VALUED | _BOOL):
        raise AuditParseError(path, None, "no Megatron-LM flags found (expected e.g. --num-layers, "
                                          "--tensor-model-parallel-size)")
    assumed: list[str] = []
    lines: dict[str, int] = {}
    extra: dict = {}

    def get(name: str, fld: str, default=None, note: str = ""):
        value = flags.int(name)
        if value is None:
            if default is not None:
                assumed.append(f"{fld}={default}: --{name} not given ({note or 'Megatron default'})")
            return default
        lines[fld] = flags.line(name)
        return value

    tp = get("tensor-model-parallel-size", "tp", 1)
    pp = get("pipeline-model-parallel-size", "pp", 1)
    cp = get("context-parallel-size", "cp", 1)
    ep = get("expert-model-parallel-size", "ep", 1)
    etp = get("expert-tensor-parallel-size", "etp", tp, "Megatron sets it to tp")
    micro = get("micro-batch-size", "micro_batch", 1)
    global_batch = get("global-batch-size", "global_batch")
    seq = get("seq-length", "seq")
    if seq is None:
        seq = get("encoder-seq-length", "seq")

    if world is not None:
        extra["world_source"] = "given"
    else:
        world, world_line, source = _world(sh, flags)
        if world is not None:
            extra["world_source"] = source
            if world_line:
                lines["world"] = world_line
    if world is None:
        assumed.append("world unknown: the script does not say how many GPUs (pass --gpus)")
    dp = exact_div(world, tp * pp * cp)
    edp = exact_div(world, etp * ep * pp)
    if global_batch is None and dp is not None:
        global_batch = micro * dp
        assumed.append(f"global_batch={global_batch}: --global-batch-size not given (micro-batch x dp)")

    # context parallel flavour
    cp_kind = cp_ulysses = cp_ring = None
    kinds = flags.flags["cp-comm-type"].values if flags.has("cp-comm-type") else []
    for v in kinds:
        flags._check_resolved("cp-comm-type", flags.flags["cp-comm-type"], v)
    if len(set(kinds)) > 1:
        extra["cp_comm_types"] = list(kinds)
        assumed.append(f"cp comm type per layer {kinds}: audited as {kinds[0]}")
    kind = kinds[0] if kinds else "p2p"
    if kind not in _CP_KIND:
        raise AuditParseError(path, flags.line("cp-comm-type"),
                              f"--cp-comm-type {kind!r} is not one of {', '.join(_CP_KIND)}")
    if kinds:
        lines["cp_kind"] = flags.line("cp-comm-type")
    hier = flags.ints("hierarchical-context-parallel-sizes")
    if hier is not None:
        extra["hierarchical_cp_sizes"] = hier
        lines["hierarchical_cp_sizes"] = flags.line("hierarchical-context-parallel-sizes")
    if cp > 1:
        cp_kind = _CP_KIND[kind]
        if not kinds:
            assumed.append("cp_kind=ring: --cp-comm-type not given (Megatron default p2p)")
        if cp_kind == "ring":
            cp_ulysses, cp_ring = 1, cp
        elif cp_kind == "ulysses":
            cp_ulysses, cp_ring = cp, 1
        elif cp_kind == "hybrid" and hier:
            cp_ulysses, cp_ring = hier[0], product(*hier[1:])

    # pipeline
    first = get("decoder-first-pipeline-num-layers", "first_stage_layers")
    last = get("decoder-last-pipeline-num-layers", "last_stage_layers")
    layers = get("num-layers", "layers")
    vpp_layers = get("num-layers-per-virtual-pipeline-stage", "vpp_layers")
    vpp = get("num-virtual-stages-per-pipeline-rank", "vpp")
    if vpp_layers is not None:
        extra["vpp_layers"] = vpp_layers
        vpp = exact_div(exact_div(layers, pp), vpp_layers)
    elif vpp is None:
        vpp = 1
    extra["overlap_p2p"] = flags.has("overlap-p2p-comm")
    extra["account_embedding"] = flags.has("account-for-embedding-in-pipeline-split")
    extra["account_loss"] = flags.has("account-for-loss-in-pipeline-split")
    schedule = None if pp == 1 else ("interleaved-1f1b" if (vpp or 1) > 1 or vpp_layers else "1f1b")

    # memory savers
    recompute = flags.raw("recompute-granularity")
    if recompute is None:
        recompute = "selective" if flags.has("recompute-activations") else "none"
    else:
        lines["recompute"] = flags.line("recompute-granularity")
    if recompute not in ("none", "selective", "full"):
        raise AuditParseError(path, flags.line("recompute-granularity"),
                              f"--recompute-granularity {recompute!r} is not full or selective")

    for key, name in (("dtype", "bf16"), ("dtype", "fp16")):
        if flags.has(name):
            extra[key] = name
    for name in ("sequence-parallel", "use-distributed-optimizer"):
        if flags.has(name):
            lines[name.replace("use-", "").replace("-", "_")] = flags.line(name)
    if flags.has("moe-expert-capacity-factor"):
        extra["capacity_factor"] = flags.float("moe-expert-capacity-factor")

    model, model_lines = _model(flags, layers, path, assumed)
    lines.update(model_lines)
    unknown = tuple(k for k in flags.unknown)
    return ForeignConfig(
        format="megatron", path=path,
        tp=tp, cp=cp, dp=dp, pp=pp, vpp=vpp, etp=etp, ep=ep, edp=edp,
        cp_kind=cp_kind, cp_ulysses=cp_ulysses, cp_ring=cp_ring, world=world,
        micro_batch=micro, global_batch=global_batch, seq=seq,
        recompute=recompute, recompute_method=flags.raw("recompute-method"),
        recompute_num_layers=flags.int("recompute-num-layers"),
        sequence_parallel=flags.has("sequence-parallel"),
        distributed_optimizer=flags.has("use-distributed-optimizer"),
        pp_schedule=schedule, first_stage_layers=first, last_stage_layers=last,
        model=model, extra=extra, unknown_flags=unknown, lines=lines, assumed=tuple(assumed),
    )


def _world(sh, flags: _Flags) -> tuple[int | None, int | None, str | None]:
    """GPUs in the job: torchrun's --nnodes x --nproc-per-node, else WORLD_SIZE, else NNODES x GPUS_PER_NODE."""

    def as_int(text: str | None) -> int | None:
        if text is None or unresolved(text):
            return None
        text = text.split(":")[-1]  # elastic "1:4" -> the maximum
        return int(text) if text.isdigit() else None

    def var(name: str) -> tuple[int | None, int]:
        v = sh.vars.get(name)
        if v is None or isinstance(v.value, list):
            return None, 0
        return as_int(v.value), v.line

    if flags.has("nproc-per-node"):
        per = flags.flags["nproc-per-node"]
        per_node = as_int(per.values[0] if per.values else None)
        nodes_flag = flags.flags.get("nnodes")
        nodes = as_int(nodes_flag.values[0] if nodes_flag and nodes_flag.values else None) \
            if nodes_flag else 1
        if per_node and nodes:
            return per_node * nodes, per.line, "torchrun --nnodes x --nproc-per-node"
    world, line = var("WORLD_SIZE")
    if world:
        return world, line, "WORLD_SIZE"
    for n in _NODES:
        nodes, nline = var(n)
        if nodes is None:
            continue
        for g in _PER_NODE:
            per_node, _ = var(g)
            if per_node:
                return nodes * per_node, nline, f"{n} x {g}"
    return None, None, None


def _model(flags: _Flags, layers: int | None, path: str, assumed: list[str]) -> tuple[dict, dict]:
    """Model hyperparameters named like docs/plan-schema.md; only what the flags say or imply."""
    model: dict = {}
    lines: dict = {}

    def put(key: str, flag: str, value) -> None:
        if value is not None:
            model[key] = value
            if flags.line(flag):
                lines[key] = flags.line(flag)

    put("layers", "num-layers", layers)
    hidden = flags.int("hidden-size")
    heads = flags.int("num-attention-heads")
    put("hidden", "hidden-size", hidden)
    put("heads", "num-attention-heads", heads)
    if flags.has("group-query-attention"):
        groups = flags.int("num-query-groups")
        if groups is None:
            groups = 1
            assumed.append("kv_heads=1: --group-query-attention without --num-query-groups (Megatron default)")
        put("kv_heads", "num-query-groups", groups)
    elif heads is not None:
        model["kv_heads"] = heads
    head_dim = flags.int("kv-channels")
    if head_dim is None and hidden and heads:
        head_dim = hidden // heads
    put("head_dim", "kv-channels", head_dim)
    gated = flags.has("swiglu")
    model["gated"] = gated
    model["tied_embeddings"] = not flags.has("untie-embeddings-and-output-weights")
    ffn = flags.int("ffn-hidden-size")
    if ffn is None and hidden:
        ffn = int(4 * hidden * 2 / 3 / 64) * 64 if gated else 4 * hidden
        assumed.append(f"ffn_hidden={ffn}: --ffn-hidden-size not given (Megatron default for "
                       f"{'SwiGLU' if gated else 'GeLU'})")
    vocab = flags.int("vocab-size") or flags.int("padded-vocab-size")
    put("vocab", "vocab-size" if flags.has("vocab-size") else "padded-vocab-size", vocab)
    norm = flags.raw("normalization")
    if norm:
        model["norm"] = "rmsnorm" if norm.lower() == "rmsnorm" else "layernorm"
    if flags.has("qk-layernorm"):
        model["qk_norm"] = True
    if flags.has("multi-latent-attention"):
        model["attention"] = "mla"
        model["mla"] = {k: flags.int(f) for k, f in (
            ("q_lora_rank", "q-lora-rank"), ("kv_lora_rank", "kv-lora-rank"),
            ("qk_nope_head_dim", "qk-head-dim"), ("qk_rope_head_dim", "qk-pos-emb-head-dim"),
            ("v_head_dim", "v-head-dim"))}
        if model["mla"]["qk_nope_head_dim"] and model["mla"]["qk_rope_head_dim"]:
            # plan-schema: for MLA the q/k head dim is the nope + rope parts
            model["head_dim"] = model["mla"]["qk_nope_head_dim"] + model["mla"]["qk_rope_head_dim"]
    mtp = flags.int("mtp-num-layers")
    if mtp is not None:
        model["mtp_layers"] = mtp
    experts = flags.int("num-experts")
    if experts is None:
        put("ffn_hidden", "ffn-hidden-size", ffn)
        return model, lines
    lines["experts"] = flags.line("num-experts")
    top_k = flags.int("moe-router-topk")
    if top_k is None:
        top_k = 2
        assumed.append("top_k=2: --moe-router-topk not given (Megatron default)")
    freq_text = flags.raw("moe-layer-freq")
    freq: int | list[int] = 1
    if freq_text is not None:
        try:
            freq = layer_freq(freq_text)
        except (ValueError, SyntaxError) as e:
            raise AuditParseError(path, flags.line("moe-layer-freq"),
                                  f"--moe-layer-freq {freq_text!r} is not an int or a list expression ({e})") from None
        lines["layer_freq"] = flags.line("moe-layer-freq")
    first_dense = 0
    if isinstance(freq, list):
        while first_dense < len(freq) and freq[first_dense] == 0:
            first_dense += 1
    every_layer_moe = freq == 1 or (isinstance(freq, list) and all(freq))
    expert_ffn = flags.int("moe-ffn-hidden-size") or ffn
    shared = flags.int("moe-shared-expert-intermediate-size") or 0
    model["moe"] = {
        "experts": experts, "top_k": top_k, "expert_ffn_hidden": expert_ffn,
        "shared_experts": 1 if shared else 0, "shared_ffn_hidden": shared,
        "first_dense_layers": first_dense, "layer_freq": freq,
    }
    score = flags.raw("moe-router-score-function")
    if score:
        model["moe"]["router_score"] = score
    if flags.has("moe-router-enable-expert-bias"):
        model["moe"]["router_bias"] = True
    # plan-schema: ffn_hidden is the dense FFN width, 0 when every layer is MoE
    model["ffn_hidden"] = 0 if every_layer_moe else ffn
    if not every_layer_moe and flags.has("ffn-hidden-size"):
        lines["ffn_hidden"] = flags.line("ffn-hidden-size")
    return model, lines

"""A torchtitan 0.3 config module (what `--module M --config F` loads: torchtitan/config/manager.py)
-> ForeignConfig, read from its syntax tree: the file is never run. Running it would import
torchtitan and execute whatever the user's module does at import; reading the tree needs neither,
so the audit works where torchtitan is not installed and on files from anyone.

What is read, in the config function (the last top-level `def` that returns a variable, or the one
`--config` names): the registry function it starts from (`config = llama3_70b()`), then in order
`config.<section>.<key> = <literal>`, `config.<section> = <Class>(key=<literal>, ...)`,
`config.model_spec = model_registry("<flavor>", converters=[...])` and
`config.activation_checkpoint = FullAC.Config() | SelectiveAC.Config() | MemoryBudgetAC.Config(...)
| None`. Sections: parallelism, training, compile (torchtitan/config/configs.py), activation_checkpoint
(distributed/activation_checkpoint.py:334-339). The registry function's own settings are read the same
way from torchtitan's source when torchtitan is installed (found, not imported); otherwise the keys
the file does not set take ParallelismConfig's defaults, and the audit lists them as assumed.
A value that is not a literal (a variable, a call) is an error naming the line.
"""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from planner.engines.torchtitan import read as toml_read
from planner.layout.foreign import AuditParseError, ForeignConfig
from planner.engines.torchtitan.models import PACKAGES

_SECTIONS = {"parallelism", "training", "compile", "debug"}
_AC = {"FullAC": "full", "SelectiveAC": "selective", "MemoryBudgetAC": "memory_budget"}


def looks_like(text: str) -> bool:
    return "torchtitan" in text and ("def " in text) and ("import" in text)


class _Reader:
    def __init__(self, path: str):
        self.path = path
        self.doc: dict[str, dict] = {s: {} for s in (*_SECTIONS, "activation_checkpoint", "model")}
        self.where: dict[str, int] = {}

    def literal(self, node, what: str):
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise AuditParseError(self.path, node.lineno, f"{what} is not a literal (the audit reads the file, "
                                                          f"it does not run it)") from None

    def put(self, section: str, key: str, node) -> None:
        self.doc[section][key] = self.literal(node, f"{section}.{key}")
        self.where[f"{section}.{key}"] = node.lineno

    def call(self, target: list[str], value) -> None:
        """`config.<target> = <value>` with target split at dots."""
        if target[0] in _SECTIONS and len(target) == 2:
            self.put(target[0], target[1], value)
        elif target[0] in _SECTIONS and len(target) == 1 and isinstance(value, ast.Call):
            self.doc[target[0]] = {}
            for kw in value.keywords:
                self.put(target[0], kw.arg, kw.value)
        elif target == ["activation_checkpoint"]:
            self.ac(value)
        elif target == ["model_spec"] and isinstance(value, ast.Call):
            self.model_spec(value)
        elif target == ["loss"]:
            self.loss(value)

    def loss(self, value) -> None:
        """`config.loss = ChunkedLossWrapper.Config(...)` (the registry functions' loss: lm_head + loss chunk
        by chunk, torchtitan/components/loss.py:567) or another loss (the logits kept whole, upcast)."""
        cls = _chain(value.func) if isinstance(value, ast.Call) else None
        self.doc["model"]["loss"] = "chunked" if cls and "ChunkedLossWrapper" in cls else "upcast"
        self.where["model.loss"] = value.lineno

    def ac(self, value) -> None:
        if isinstance(value, ast.Constant) and value.value is None:
            mode = "none"
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and isinstance(value.func.value, ast.Name) and value.func.value.id in _AC:
            mode = _AC[value.func.value.id]
        else:
            raise AuditParseError(self.path, value.lineno, "activation_checkpoint must be None, FullAC.Config(), "
                                                           "SelectiveAC.Config() or MemoryBudgetAC.Config(...)")
        self.doc["activation_checkpoint"] = {"mode": mode, **({"selective_ac_option": "op"}
                                                               if mode == "selective" else {})}
        self.where["activation_checkpoint.mode"] = value.lineno

    def model_spec(self, value) -> None:
        if value.args and isinstance(value.args[0], ast.Constant):
            self.doc["model"]["flavor"] = value.args[0].value
            self.where["model.flavor"] = value.lineno
        for kw in value.keywords:
            if kw.arg == "converters" and isinstance(kw.value, ast.List):
                names = [e.func.value.id if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
                         and isinstance(e.func.value, ast.Name) else ast.unparse(e) for e in kw.value.elts]
                self.doc["model"]["converters"] = names
                self.doc["model"]["converter_args"] = {         # the literal keywords of each <Converter>.Config(...)
                    n: {k.arg: k.value.value for k in e.keywords if isinstance(k.value, ast.Constant)}
                    for n, e in zip(names, kw.value.elts) if isinstance(e, ast.Call)}

    def body(self, fn: ast.FunctionDef, var: str | None) -> str | None:
        """Read the statements of `fn` on the config variable; returns that variable's name."""
        for st in ast.walk(fn):
            self.rotate(st)
            if isinstance(st, ast.Return) and isinstance(st.value, ast.Call):
                self.returned_call(st.value)
            if not isinstance(st, ast.Assign) or len(st.targets) != 1:
                continue
            t, value = st.targets[0], st.value
            if isinstance(t, ast.Name) and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                    and var is None and value.func.id != "model_registry":
                var, self.base = t.id, value.func.id
                inner = value.args[0] if value.args else None      # to_graph_trainer_config(qwen3_14b(), ...)
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                    self.base = inner.func.id
                continue
            chain = _chain(t)
            if chain and chain[0] == var:
                self.call(chain[1:], value)
            elif isinstance(t, ast.Name) and t.id == "model_spec" and isinstance(value, ast.Call):
                self.model_spec(value)
        return var

    def rotate(self, st) -> None:
        """`set_rotate_method("alltoall" | "allgather")`: torch's CP rotate method, which 0.3 leaves at
        torch's default (all-gather) unless the module sets it."""
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and _chain(st.value.func) \
                and _chain(st.value.func)[-1] == "set_rotate_method" and st.value.args:
            self.put("parallelism", "context_parallel_rotate_method", st.value.args[0])

    def returned_call(self, call: ast.Call) -> None:
        """A registry function's `return Trainer.Config(parallelism=..., training=..., ...)`."""
        if _chain(call.func) and _chain(call.func)[-1].endswith("Config"):
            self.returned = True
        for kw in call.keywords:
            if kw.arg in _SECTIONS and isinstance(kw.value, ast.Call):
                for k in kw.value.keywords:
                    self.put(kw.arg, k.arg, k.value)
            elif kw.arg == "activation_checkpoint":
                self.ac(kw.value)
            elif kw.arg == "loss":
                self.loss(kw.value)


def _chain(node) -> list[str] | None:
    out = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    return [node.id, *reversed(out)] if isinstance(node, ast.Name) else None


def _registry_source(pkg: str) -> Path | None:
    """torchtitan/models/<pkg>/config_registry.py where torchtitan is installed (its top package is found,
    nothing imported)."""
    spec = importlib.util.find_spec("torchtitan")
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(list(spec.submodule_search_locations)[0]) / "models" / pkg / "config_registry.py"
    return p if p.is_file() else None


def _functions(tree) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _config_functions(fns: dict) -> list[str]:
    """The functions `--config NAME` can call: public, no argument without a default, and annotated to
    return a trainer's config (`Trainer.Config`, `FluxTrainer.Config`, `TransformersBackendConfig`)."""
    def returns_config(f) -> bool:
        chain = _chain(f.returns) if f.returns is not None else None
        return bool(chain) and chain[-1].endswith("Config")
    return [name for name, f in fns.items() if not name.startswith("_") and returns_config(f)
            and len(f.args.args) + len(f.args.posonlyargs) == len(f.args.defaults)]


def _pick(fns: dict, config: str | None, path: str) -> ast.FunctionDef:
    """The function `--module M --config F` would call: the one named, else the module's only config
    function, else the last function (a module of one's own); several config functions need a name."""
    if config:
        if config not in fns:
            raise AuditParseError(path, None, f"no function {config}() in the module (config functions: "
                                              f"{', '.join(_config_functions(fns)) or ', '.join(fns)})")
        return fns[config]
    configs = _config_functions(fns)
    if len(configs) > 1:
        raise AuditParseError(path, None, f"{len(configs)} config functions: name one, {path}::NAME "
                                          f"({', '.join(configs)})")
    return fns[configs[0]] if configs else list(fns.values())[-1]


def _package(tree, path: str, fn_name: str) -> str | None:
    """torchtitan's model package: `from torchtitan.models.<pkg>...`, else the folder of a registry module
    (torchtitan/models/<pkg>/config_registry.py), else the package the function's name starts with."""
    pkg = next((n.module.split(".")[2] for n in tree.body if isinstance(n, ast.ImportFrom) and n.module
                and n.module.startswith("torchtitan.models.") and n.module.count(".") >= 2
                and n.module.split(".")[2] != "common"), None)          # models/common: shared helpers
    parent = Path(path).parent
    if pkg is None and parent.parent.name == "models":
        pkg = parent.name
    if pkg is None:
        pkg = next((k for k in sorted(PACKAGES, key=len, reverse=True) if fn_name.startswith(k)), None)
    return pkg


def parse(text: str, path: str, world: int | None = None, config: str | None = None) -> ForeignConfig:
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        raise AuditParseError(path, e.lineno, f"invalid Python: {e.msg}") from None
    fns = _functions(tree)
    if not fns:
        raise AuditParseError(path, None, "no function: not a torchtitan config module")
    fn = _pick(fns, config, path)
    pkg = _package(tree, path, fn.name)
    r = _Reader(path)
    r.base, r.returned = None, False
    for st in tree.body:
        r.rotate(st)
    first = r.body(fn, None)
    notes = []
    base_fn = fns.get(r.base)
    src = _registry_source(pkg) if pkg and r.base and base_fn is None else None
    if src is not None:
        base = _Reader(str(src))
        bfn = _functions(ast.parse(src.read_text())).get(r.base)
        if bfn is not None:
            base.base, base.returned = None, False
            base.body(bfn, None)
            for sec, vals in base.doc.items():
                r.doc[sec] = {**vals, **r.doc[sec]}
            notes.append(f"{r.base}() read from {src} (torchtitan's own registry function)")
    elif r.base:
        notes.append(f"{r.base}() not read (torchtitan not installed here): keys the file does not set "
                     f"take ParallelismConfig's defaults")
    if first is None and not r.returned:
        raise AuditParseError(path, fn.lineno, f"{fn.name}() starts from no registry function (config = f()) "
                                               f"and returns no Trainer.Config(...)")
    notes.append(f"config function {fn.name}()")
    if not r.doc["parallelism"] and not r.doc["training"]:
        raise AuditParseError(path, fn.lineno, f"{fn.name}() sets no parallelism or training values the audit reads "
                                               f"(ParallelismConfig / TrainingConfig keywords, config.parallelism.*)")
    if pkg:
        r.doc["model"]["name"] = pkg
    return toml_read.parse_doc(r.doc, r.where, path, world, "torchtitan 0.3 config module (read, not run)",
                               tuple(notes))

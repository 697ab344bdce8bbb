"""The presets' catalogue: model and GPU presets as YAML data in `planner/specs/presets/`, and
model files (a Hugging Face config.json or a foldplan model YAML/JSON) read safely."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import yaml

from planner import safeio
from planner.safeio.console import did_you_mean
from planner.specs.types import GPU_RECORDED, PRESETS, ClusterSpec, GPUSpec, ModelSpec, Problem, SpecError, TrainSpec, build
from planner.specs.hfconfig import read_hf_config


def model_names() -> list[str]:
    return sorted(p.stem for p in (PRESETS / "models").glob("*.yaml"))


def gpu_names() -> list[str]:
    return sorted(p.stem for p in (PRESETS / "gpus").glob("*.yaml"))


@lru_cache(maxsize=None)
def _read_yaml(path: str) -> dict:
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise SpecError(f"{path}: expected a mapping of fields")
    return data


def budget_note(cluster) -> str:
    """How the budget is derived, in one line (plans and reports say which figure it is)."""
    g = cluster.gpu
    return (f"budget {cluster.memory_budget_gib:.1f} GiB of allocated tensors per GPU "
            f"(allocatable {g.allocatable_gib:.1f} = ({g.memory_gib:.2f} GiB total - {g.reserve_gib:.1f} context/NCCL) "
            f"/ (1 + {g.allocator_margin:.3f} allocator margin))")


def load_gpu(name: str) -> GPUSpec:
    """A preset name, or a preset file of the same schema (`foldplan calibrate --out my-cluster.yaml`)."""
    path = PRESETS / "gpus" / f"{name}.yaml"
    if not path.exists() and Path(name).suffix in (".yaml", ".yml", ".json"):
        return _gpu_file(Path(name))
    if not path.exists():
        raise SpecError(f"gpu: unknown GPU preset {name!r}{did_you_mean(name, gpu_names())} "
                        f"(presets: {', '.join(gpu_names())}; `foldplan gpus` lists them)")
    data = dict(_read_yaml(str(path)))
    data.pop("published", None)
    return build(GPUSpec, {"name": name, **data}, f"gpu {name}")


def _read_mapping(path: Path, field: str, what: str) -> dict:
    """A spec file as a mapping: a regular file, bounded in size and depth (never a FIFO or /dev/zero),
    JSON or YAML by its suffix; anything else one line naming `field`."""
    try:
        text = safeio.read_text_limited(path, field, safeio.MAX_SPEC_BYTES)
        data = (safeio.load_json if path.suffix == ".json" else safeio.load_yaml)(text, f"{field}: {path.name}")
    except safeio.InputError as e:
        raise SpecError(str(e)) from None
    if not isinstance(data, dict):
        raise SpecError(f"{field}: {path.name} should hold a mapping of {what}")
    return data


def _gpu_file(path: Path) -> GPUSpec:
    """A GPU preset file: named by its file name (plan files accept such a name with every GPU field beside
    it); its `calibration` provenance (and `published`) set aside."""
    if not path.exists():
        raise SpecError(f"gpu: file {path} not found (a preset name, or a preset YAML such as foldplan calibrate writes)")
    data = _read_mapping(path, "gpu", "GPUSpec fields")
    data = {k: v for k, v in data.items() if k not in ("published", "calibration", "name")}
    if isinstance(data.get("gemm_tile"), list):
        data["gemm_tile"] = tuple(data["gemm_tile"])
    return build(GPUSpec, {"name": path.name, **data}, f"gpu {path.name}")


def load_model(name_or_path: str) -> ModelSpec:
    """A preset name, a Hugging Face config.json, or a foldplan model YAML/JSON."""
    path = Path(name_or_path)
    if name_or_path in model_names():
        data = dict(_read_yaml(str(PRESETS / "models" / f"{name_or_path}.yaml")))
        data.pop("published", None)
        return build(ModelSpec, {"name": name_or_path, **data}, f"model {name_or_path}")
    if not path.exists():       # a preset name mistyped (deepseek-v3.1), or a spec file that is not there
        hint = did_you_mean(name_or_path, model_names())
        if path.suffix.lower() in (".json", ".yaml", ".yml") and not hint:
            raise SpecError(f"model: file {name_or_path} not found")
        raise SpecError(f"model: unknown model preset {name_or_path!r}{hint} (presets: {', '.join(model_names())}; "
                        f"or a config.json / model.yaml file)")
    data = _read_mapping(path, "model", "fields")
    if "hidden_size" in data or "model_type" in data or "text_config" in data:
        spec, notes = read_hf_config(data, name=path.stem if path.stem != "config" else path.parent.name or "hf")
        for note in notes:
            _warn_once(f"foldplan: warning: model {spec.name}: {note}")
        return spec
    data.pop("published", None)
    return build(ModelSpec, {"name": path.stem, **data}, f"model {path.name}")


_WARNED: set = set()


def _warn_once(line: str) -> None:
    """A note of a model file on stderr, once per process (the command line reads a model more than once)."""
    if line not in _WARNED:
        _WARNED.add(line)
        print(line, file=sys.stderr)


def published(name: str) -> dict:
    """The published figures recorded beside a model preset (for tests and reports)."""
    raw = dict(_read_yaml(str(PRESETS / "models" / f"{name}.yaml")).get("published", {}))
    return {k: (float(v) if k != "source" else v) for k, v in raw.items()}


def problem_from_dict(d: dict) -> Problem:
    """A Problem back from its `Problem.to_dict()` form (a plan file's `problem`)."""
    c = d["cluster"]
    gpu = load_gpu(c["gpu"]) if c["gpu"] in gpu_names() else None
    fields = {k: c[k] for k in GPU_RECORDED if k != "memory_gib" and k in c}
    for k in ("gemm_tile", "compute_capability"):
        if isinstance(fields.get(k), list):
            fields[k] = tuple(fields[k])
    if gpu is None:
        gpu = GPUSpec(name=c["gpu"], memory_gib=c["memory_gib"], **{"hbm_bw": 1e12, **fields})
    else:
        gpu = gpu.model_copy(update={"memory_gib": c.get("memory_gib", gpu.memory_gib), **fields})
    return Problem(model=ModelSpec(**d["model"]),
                   cluster=ClusterSpec(gpu=gpu, gpus=c["gpus"], gpus_per_node=c["gpus_per_node"],
                                       gpus_per_domain=c.get("gpus_per_domain"), used_per_domain=c.get("used_per_domain"),
                                       memory_budget_gib=c["memory_budget_gib"]),
                   train=TrainSpec(**d["train"]))

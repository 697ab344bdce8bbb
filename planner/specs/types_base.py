"""The base of every spec value (frozen, no extra keys, bounded fields: planner.safeio.validate) and the
one-line error every spec raises. Re-exported by `planner.specs.types`."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from planner.safeio import validate


class SpecError(ValueError):
    """A spec could not be built. The message is one line, naming the field."""


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    # every field of every spec: no bool for a number, inside planner.safeio.validate.BOUNDS
    @field_validator("*", mode="before")
    @classmethod
    def _raw(cls, v, info):
        return validate.spec_field_before(cls.__name__, info.field_name, cls.model_fields[info.field_name].annotation, v)

    @field_validator("*", mode="after")
    @classmethod
    def _bounded(cls, v, info):
        return validate.spec_field_after(cls.__name__, info.field_name, v)


# --------------------------------------------------------------------------- errors

def one_line(err: ValidationError, prefix: str = "") -> str:
    """pydantic's multi-line report -> `field: message` on one line."""
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"])
        msg = e["msg"].removeprefix("Value error, ")
        parts.append(f"{prefix}{loc}: {msg}" if loc else f"{prefix.rstrip('.') + ': ' if prefix else ''}{msg}")
    return "; ".join(parts)


def build(cls, data: dict, what: str):
    try:
        return cls(**data)
    except ValidationError as e:
        raise SpecError(f"{what}: {one_line(e)}") from None
    except TypeError as e:
        raise SpecError(f"{what}: {e}") from None

"""Frozen means frozen: no attribute of a value object can be set or deleted."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import TypeVar

__all__ = ["refuse_changes"]

_Class = TypeVar("_Class", bound=type)


def _refuse_assignment(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def refuse_changes(cls: _Class) -> _Class:
    """Make every assignment and deletion on ``cls`` raise ``FrozenInstanceError``.

    On Python 3.11 the methods that ``@dataclass(frozen=True, slots=True)``
    generates raise a TypeError for a name that is not a field (they call
    super() with the class from before slots rebuilt it). These replace them.
    """
    cls.__setattr__ = _refuse_assignment  # type: ignore[assignment]
    cls.__delattr__ = _refuse_deletion  # type: ignore[assignment]
    return cls

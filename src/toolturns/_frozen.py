"""Frozen means frozen: no attribute of a value object can be set or deleted,
and no state can be set on one but through the checks its constructor makes."""

from __future__ import annotations

import sys
from dataclasses import FrozenInstanceError
from typing import Any, TypeVar

from ._errors import describe
from ._json import ErrorFactory

__all__ = ["pickled_fields", "refuse_changes", "refuse_rebuild", "unfrozen_twin"]

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


def unfrozen_twin(cls: type) -> Any:
    """A class with the slots of ``cls`` in the same layout and none of its refusals, or None.

    A trusted constructor sets a value on a twin (plain attribute stores, the
    cheapest writes CPython has: a slot setter called per field costs about
    twice as much) and then makes it a ``cls`` by assigning ``__class__``
    once, which CPython allows between classes of one slot layout. None where
    that is not CPython with its GIL (a free-threaded build changes a class
    under a lock): construct there through the slots' own setters.
    """
    if sys.implementation.name != "cpython" or not getattr(sys, "_is_gil_enabled", lambda: True)():
        return None
    return type(f"_Unfrozen{cls.__name__}", (), {"__slots__": cls.__slots__})  # type: ignore[attr-defined]


# -- unpickling -----------------------------------------------------------------
#
# Pickle sets a value's state without its constructor: a value object checks
# that state as its constructor checks arguments, so a tampered pickle raises
# the value's own error instead of giving a value no constructor would build.


def refuse_rebuild(value: object, slot: str) -> None:
    """Refuse to set the state of a value whose ``slot`` is set: that would change a built value."""
    try:
        getattr(value, slot)
    except AttributeError:  # an empty instance, as pickle makes before setting its state
        return
    raise FrozenInstanceError(f"cannot set the state of a built {type(value).__name__}")


def pickled_fields(
    state: object, fields: tuple[str, ...], error: ErrorFactory, *, added: tuple[object, ...] = ()
) -> list[Any]:
    """The field values of a dataclass's pickled state, a list of them in field order, for its
    constructor to check.

    ``added`` are the defaults of the last fields, added after the first
    release: its pickles list the fields before them only.
    """
    oldest = len(fields) - len(added)
    if type(state) is not list or not oldest <= len(state) <= len(fields):
        count = f"{oldest} to {len(fields)}" if added else str(oldest)
        raise error(
            "",
            f"must be pickled as a list of {count} values, the fields in order ({', '.join(fields)})",
            describe(state),
        )
    return [*state, *added[len(state) - oldest :]]

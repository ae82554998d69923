"""Frozen means frozen: no attribute of a value object can be set or deleted,
and no state can be set on one but through the checks its constructor makes.

Also the value classes' own ``@dataclass``: ``value_class`` (see there), which
gives a class what ``@dataclass(frozen=True, slots=True)`` gives it without
importing ``dataclasses`` (with ``inspect``, ``ast``, ``dis`` and ``tokenize``,
a third of what ``import toolturns`` cost).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar

from ._errors import describe
from ._json import ErrorFactory

__all__ = [
    "field",
    "pickled_fields",
    "refuse_changes",
    "refuse_rebuild",
    "slot_names",
    "unfrozen_twin",
    "value_class",
]

_Class = TypeVar("_Class", bound=type)


def _frozen_error(message: str) -> Exception:
    # dataclasses.FrozenInstanceError, the class users catch, imported when
    # first raised: importing dataclasses costs more than the rest of toolturns.
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


def _refuse_assignment(self: object, name: str, value: object) -> None:
    raise _frozen_error(f"cannot assign to field {name!r}")


def _refuse_deletion(self: object, name: str) -> None:
    raise _frozen_error(f"cannot delete field {name!r}")


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
    raise _frozen_error(f"cannot set the state of a built {type(value).__name__}")


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


# -- value classes: a dataclass without dataclasses -------------------------------------------
#
# ``@value_class(...)`` takes the arguments of ``@dataclass`` and, to type
# checkers, is ``@dataclass`` itself. At run time it makes what the
# dataclass would (slots, ``__match_args__``, ``__eq__`` and ``__hash__``,
# ``__repr__``, the pickled state as a list of the fields in order, frozen-ness),
# except ``__init__``, which a class whose dataclass made one writes by hand.
#
# ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` read a
# class's ``__dataclass_fields__``: there, a descriptor builds the real ones on
# first access (by then the caller has imported dataclasses). It declares a
# throwaway twin of the class, its annotations and options, as a dataclass
# and takes the twin's fields and params: they are the ones the class itself
# would have had, without a copy of dataclasses' rules here.
#
# The class body is written as for ``@dataclass``: ``InitVar[...]``
# annotations (text, never evaluated: the module has
# ``from __future__ import annotations``) and ``field(init=False)`` (this
# module's, at run time a marker) mean what they mean there.

if TYPE_CHECKING:
    from dataclasses import dataclass as value_class
    from dataclasses import field
else:

    def field(*, init: bool) -> object:
        """``dataclasses.field(init=False)``: a field the constructor does not take."""
        return _NOT_INIT

    def value_class(*, frozen: bool, slots: bool, **options: bool) -> Callable[[type], type]:
        """``@dataclass(frozen=True, slots=True, **options)`` without importing dataclasses."""
        return lambda cls: _value_class(cls, {"frozen": frozen, "slots": slots, **options})


_NOT_INIT = object()
_FIELDS = "__dataclass_fields__"
_PARAMS = "__dataclass_params__"


def _value_class(cls: type, options: dict[str, bool]) -> type:
    annotations: dict[str, str] = cls.__annotations__  # its own (not inspect's: it imports ast)
    hidden = tuple(name for name in annotations if cls.__dict__.get(name) is _NOT_INIT)
    initvars = tuple(name for name, text in annotations.items() if text.startswith("InitVar["))
    stored = tuple(name for name in annotations if name not in initvars)
    skipped = {*hidden, "__dict__", "__weakref__"}
    namespace = {name: value for name, value in cls.__dict__.items() if name not in skipped}
    make: Callable[[type], type] = lambda owner: _twin(owner, annotations, hidden, initvars, options)  # noqa: E731
    namespace.update(
        __qualname__=cls.__qualname__,
        __slots__=stored,
        __match_args__=tuple(name for name in annotations if name not in hidden),
        __replace__=_replace,
        __dataclass_fields__=_Metadata(make),
        __dataclass_params__=_Metadata(make),
    )
    values = attrgetter(*stored)
    namespace.setdefault("__getstate__", lambda self: list(values(self)))
    namespace.setdefault("__setstate__", lambda self, state: _set_state(self, stored, state))
    if options.get("eq", True):
        namespace["__eq__"] = lambda self, other: (
            values(self) == values(other) if other.__class__ is self.__class__ else NotImplemented
        )
        namespace["__hash__"] = lambda self: hash(values(self))
    if options.get("repr", True):
        namespace["__repr__"] = recursive_repr()(lambda self: _repr(self, stored))
    return refuse_changes(type(cls)(cls.__name__, cls.__bases__, namespace))


def _set_state(self: object, names: tuple[str, ...], state: list[Any]) -> None:
    # The dataclass's own unpickling: the fields in order, set as they are.
    for name, value in zip(names, state, strict=False):
        object.__setattr__(self, name, value)


def _repr(self: object, names: tuple[str, ...]) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
    return f"{type(self).__qualname__}({shown})"


def _replace(self: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace(self, **changes)``: ``copy.replace`` (Python 3.13) calls it."""
    import dataclasses

    return dataclasses.replace(self, **changes)


class _Metadata:
    """A value class's ``__dataclass_fields__`` or ``__dataclass_params__``, made on first access.

    Both come from one twin: the first read of either puts the twin's two on
    the class in place of both descriptors.
    """

    def __init__(self, make: Callable[[type], type]) -> None:
        self._make = make

    def __set_name__(self, owner: type, name: str) -> None:
        self._owner, self._name = owner, name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        twin = self._make(self._owner)
        for name in (_FIELDS, _PARAMS):
            setattr(self._owner, name, getattr(twin, name))
        return getattr(twin, self._name)


def _twin(
    cls: type,
    annotations: dict[str, str],
    hidden: tuple[str, ...],
    initvars: tuple[str, ...],
    options: dict[str, bool],
) -> type:
    """A dataclass declared as ``cls`` was: its fields are ``cls``'s, its params too."""
    import dataclasses

    namespace: dict[str, Any] = {
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        # InitVar as the class itself (the text would be looked up in the module, which has no InitVar).
        "__annotations__": {
            name: dataclasses.InitVar if name in initvars else text for name, text in annotations.items()
        },
    }
    for name in initvars:
        namespace[name] = getattr(cls, name)  # its default: the property replace() reads it from
    for name in hidden:
        namespace[name] = dataclasses.field(init=False)
    twin: type = dataclasses.dataclass(**options)(type(cls.__name__, (), namespace))
    for each in getattr(twin, _FIELDS).values():
        each.type = annotations[each.name]  # the annotation's text, as the class's own dataclass had it
    return twin


def slot_names(cls: type) -> tuple[str, ...]:
    """The fields a value class stores, in order: its slots."""
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    return names

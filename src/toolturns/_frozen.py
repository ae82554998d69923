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
    "name_slots",
    "pickled_fields",
    "refuse_changes",
    "refuse_rebuild",
    "slot_names",
    "to_class",
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
    """Make every assignment and deletion on ``cls`` raise ``FrozenInstanceError``,
    for a field's name or any other (where Python 3.11's frozen dataclass
    methods raised a TypeError for a name that is not a field)."""
    cls.__setattr__ = _refuse_assignment  # type: ignore[assignment]
    cls.__delattr__ = _refuse_deletion  # type: ignore[assignment]
    return cls


#: object's own setter of ``__class__``, past a frozen class's ``__setattr__``: ``to_class(value, twin)``.
to_class = object.__dict__["__class__"].__set__


def unfrozen_twin(cls: type) -> Any:
    """The class that holds the slots of ``cls`` without its refusals (its base), or None.

    A trusted constructor sets a value on a twin (plain attribute stores, the
    cheapest writes CPython has: a slot setter called per field costs about
    twice as much) and then makes it a ``cls`` by assigning ``__class__``
    once, which CPython allows between classes of one slot layout. The twin
    is the base that declares the slots, ``cls`` adding none (``value_class``
    makes such a base, ``ToolCall`` declares its own): between a class and
    such a base CPython proves the layout the same at once, where between
    two classes that each declare the slots it compares their slot names,
    about 40 ns more a switch. None where that is not CPython with its GIL
    (a free-threaded build changes a class under a lock): construct there
    through the slots' own setters.

    An ``__init__``, whose instance exists already, makes it the twin with
    ``to_class`` (the frozen class refuses every setattr, ``__class__`` too),
    stores its checked values, and assigns ``cls`` back; only an instance of
    ``cls`` itself, as a subclass's layout may differ, and only once nothing
    is left to raise.
    """
    if sys.implementation.name != "cpython" or not getattr(sys, "_is_gil_enabled", lambda: True)():
        return None
    twin: type = cls.__base__  # type: ignore[assignment]
    # (CPython's sizes: another interpreter may not say what a class's instances hold.)
    if cls.__basicsize__ != twin.__basicsize__ or "__dict__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} must add no slots and no __dict__ to its base")
    return twin


def name_slots(cls: type) -> None:
    """Name in ``cls`` the slots its base declares for it, as a class that declares its own does.

    ``__slots__`` names its fields, as the dataclass's does (a name there no
    longer makes a slot once the class is made). ``__slotnames__`` is what
    ``copyreg`` would otherwise gather from every class of the MRO, the
    base's names and the class's again.
    """
    base: Any = cls.__base__
    names: tuple[str, ...] = base.__slots__
    cls.__slots__ = names  # type: ignore[attr-defined]
    cls.__slotnames__ = list(names)  # type: ignore[attr-defined]


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
# The slots are declared on a base of the class's own, which has none of its
# refusals: the twin a trusted constructor builds a value on (``unfrozen_twin``).
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
    # The fields' values as a tuple, in C (attrgetter of one name gives the value itself).
    getter = attrgetter(*stored)
    values = getter if len(stored) > 1 else lambda self: (getter(self),)

    def make_twin(owner: type) -> type:
        return _twin(owner, annotations, hidden, initvars, options)

    def __eq__(self: object, other: object) -> bool:
        return values(self) == values(other) if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self: object) -> int:
        return hash(values(self))

    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in stored)
        return f"{type(self).__qualname__}({shown})"

    def __getstate__(self: object) -> list[Any]:
        return list(values(self))

    def __setstate__(self: object, state: list[Any]) -> None:
        for name, value in zip(stored, state, strict=False):  # as the dataclass's: set as they are
            object.__setattr__(self, name, value)

    skipped = {*hidden, "__dict__", "__weakref__"}
    namespace = {name: value for name, value in cls.__dict__.items() if name not in skipped}
    namespace.update(
        # InitVar[T] as T: a constructor argument that a property of the same name gives
        # back. (typing.get_type_hints would look InitVar up where it looks the rest up,
        # and toolturns does not import dataclasses.)
        __annotations__={
            name: text[len("InitVar[") : -1] if name in initvars else text
            for name, text in annotations.items()
        },
        __qualname__=cls.__qualname__,
        __slots__=(),  # the base's, below
        __match_args__=tuple(name for name in annotations if name not in hidden),
        __replace__=_replace,
        __dataclass_fields__=_Metadata(make_twin),
        __dataclass_params__=_Metadata(make_twin),
    )
    namespace.setdefault("__getstate__", __getstate__)
    namespace.setdefault("__setstate__", __setstate__)
    if options.get("eq", True):
        namespace.update(__eq__=__eq__, __hash__=__hash__)
    if options.get("repr", True):
        namespace["__repr__"] = recursive_repr()(__repr__)
    # The slots on a base of their own, with no refusals: the class's twin (unfrozen_twin). Its
    # qualified name is the way to it from the class, which pickle follows (the slots' own
    # descriptors pickle as the attribute of their class).
    base = type(
        f"_{cls.__name__}Slots",
        cls.__bases__,
        {"__slots__": stored, "__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}.__base__"},
    )
    made = refuse_changes(type(cls)(cls.__name__, (base,), namespace))
    name_slots(made)
    return made


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

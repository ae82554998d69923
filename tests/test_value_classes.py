"""The public value classes behave as the dataclasses they were declared as.

``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``, the
classes' ``__match_args__``, slots, equality, hashing, repr, pickles and
frozen-ness are pinned here, field by field, as ``@dataclass`` made them:
so that what the classes are built with at import can change without
users seeing a difference. And ``import toolturns`` stays light: it loads
neither ``dataclasses`` nor the modules that come with it.
"""

from __future__ import annotations

import copy
import copyreg
import dataclasses
import inspect
import pickle
import struct
import subprocess
import sys
import typing
from dataclasses import InitVar
from typing import Any

import pytest

import toolturns
from toolturns import (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidMessage,
    InvalidTool,
    PartialToolCall,
    Problem,
    RepairAction,
    Repaired,
    StreamSnapshot,
    TextPart,
    Tool,
    ToolCall,
)
from toolturns._frozen import field, value_class

PNG = "iVBORw0KGgo="

# Per class: the __dataclass_params__ flags (init, repr, eq), then each entry
# of __dataclass_fields__ in order: name, annotation text, kind ("field" or
# "initvar") and the field's init flag.
SHAPES: dict[type, tuple[tuple[bool, bool, bool], tuple[tuple[str, str, str, bool], ...]]] = {
    TextPart: (
        (False, False, True),
        (("text", "str", "field", True), ("provider_data", "Mapping[str, Any]", "field", True)),
    ),
    ImagePart: (
        (False, False, False),
        (
            ("url", "str | None", "field", True),
            ("data", "InitVar[str | None]", "initvar", True),
            ("media_type", "str | None", "field", True),
            ("detail", "str | None", "field", True),
            ("provider_data", "Mapping[str, Any]", "field", True),
            ("_text", "str | None", "field", False),
            ("_start", "int", "field", False),
        ),
    ),
    FilePart: (
        (False, False, False),
        (
            ("data", "InitVar[str | None]", "initvar", True),
            ("url", "str | None", "field", True),
            ("file_id", "str | None", "field", True),
            ("media_type", "str | None", "field", True),
            ("filename", "str | None", "field", True),
            ("provider_data", "Mapping[str, Any]", "field", True),
            ("_text", "str | None", "field", False),
            ("_start", "int", "field", False),
        ),
    ),
    AudioPart: (
        (False, False, True),
        (
            ("data", "str", "field", True),
            ("format", "str", "field", True),
            ("provider_data", "Mapping[str, Any]", "field", True),
        ),
    ),
    ChatMessage: (
        (False, False, True),
        (
            ("role", "Role", "field", True),
            ("content", "str | tuple[ContentPart, ...]", "field", True),
            ("tool_calls", "tuple[ToolCall, ...] | None", "field", True),
            ("tool_call_id", "str | None", "field", True),
            ("name", "str | None", "field", True),
            ("is_error", "bool", "field", True),
            ("extra", "Mapping[str, Any]", "field", True),
            ("provider_data", "Mapping[str, Any]", "field", True),
        ),
    ),
    Tool: (
        (False, False, False),
        (
            ("name", "str", "field", True),
            ("description", "str", "field", True),
            ("parameters", "InitVar[Mapping[str, JSONInput] | None]", "initvar", True),
            ("parameters_json", "str", "field", False),
            ("strict", "bool | None", "field", True),
            ("extra", "Extra", "field", True),
        ),
    ),
    Problem: (
        (True, True, True),
        (
            ("index", "int | None", "field", True),
            ("path", "str", "field", True),
            ("code", "str", "field", True),
            ("message", "str", "field", True),
        ),
    ),
    RepairAction: (
        (True, True, True),
        (("index", "int", "field", True), ("code", "str", "field", True), ("did", "str", "field", True)),
    ),
    Repaired: (
        (True, True, True),
        (
            ("messages", "list[ChatMessage]", "field", True),
            ("actions", "tuple[RepairAction, ...]", "field", True),
        ),
    ),
    PartialToolCall: (
        (True, True, True),
        (
            ("id", "str | None", "field", True),
            ("name", "str | None", "field", True),
            ("arguments_json", "str", "field", True),
        ),
    ),
    StreamSnapshot: (
        (True, True, True),
        (
            ("content", "str", "field", True),
            ("tool_calls", "tuple[PartialToolCall, ...]", "field", True),
            ("finish_reason", "str | None", "field", True),
        ),
    ),
}

# A value of each class, and a change dataclasses.replace makes to it.
VALUES: dict[type, tuple[Any, dict[str, Any]]] = {
    TextPart: (
        TextPart("hi", provider_data={"anthropic": {"cache_control": {"type": "ephemeral"}}}),
        {"text": "bye"},
    ),
    ImagePart: (ImagePart(data=PNG, media_type="image/png", detail="low"), {"detail": "high"}),
    FilePart: (FilePart(url=f"data:application/pdf;base64,{PNG}", filename="a.pdf"), {"filename": "b.pdf"}),
    AudioPart: (AudioPart(data=PNG, format="wav"), {"format": "mp3"}),
    ChatMessage: (ChatMessage("user", "hi", name="ann", extra={"weight": 1}), {"content": "bye"}),
    Tool: (Tool("get_time", "Now", {"type": "object", "properties": {}}, strict=True), {"name": "get_date"}),
    Problem: (Problem(2, "messages[2]", "orphan_result", "answers no call"), {"index": None}),
    RepairAction: (RepairAction(1, "orphan_result", "removed it"), {"did": "moved it"}),
    Repaired: (
        Repaired([ChatMessage.user("hi")], (RepairAction(1, "orphan_result", "removed it"),)),
        {"actions": ()},
    ),
    PartialToolCall: (PartialToolCall("call_1", "get_time", '{"tz'), {"arguments_json": '{"tz": 1}'}),
    StreamSnapshot: (
        StreamSnapshot("Let me", (PartialToolCall("c", None, ""),), None),
        {"finish_reason": "stop"},
    ),
}

CLASSES = list(SHAPES)


def _plain(value: object) -> object:
    # What asdict() makes of a field's value: a dict of a dataclass value, in tuples too.
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # ChatMessage, RepairAction...
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _tupled(value: object) -> object:
    # What astuple() makes of a field's value.
    if isinstance(value, (tuple, list)):
        return type(value)(_tupled(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(_tupled(getattr(value, f.name)) for f in dataclasses.fields(value))
    return value


def test_every_public_dataclass_is_pinned() -> None:
    public = {getattr(toolturns, name) for name in toolturns.__all__}
    assert {cls for cls in public if isinstance(cls, type) and dataclasses.is_dataclass(cls)} == set(SHAPES)
    assert not dataclasses.is_dataclass(ToolCall)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_dataclass_fields_and_params(cls: type) -> None:
    (init, repr_, eq), shape = SHAPES[cls]
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert (params.init, params.repr, params.eq, params.order, params.unsafe_hash, params.frozen) == (
        init,
        repr_,
        eq,
        False,
        False,
        True,
    )
    entries = list(cls.__dataclass_fields__.values())  # type: ignore[attr-defined]
    assert [(f.name, f.type, f.init) for f in entries] == [
        (name, text, init) for name, text, _, init in shape
    ]
    for f, (name, _, kind, _) in zip(entries, shape, strict=True):
        assert (f.repr, f.compare, f.hash, f.kw_only, dict(f.metadata)) == (True, True, None, False, {})
        assert f.default_factory is dataclasses.MISSING
        # An InitVar's default is the property of its name, which replace() reads.
        assert f.default is (getattr(cls, name) if kind == "initvar" else dataclasses.MISSING)
        assert isinstance(f.default, property) == (kind == "initvar")
    stored = [name for name, _, kind, _ in shape if kind == "field"]
    assert [f.name for f in dataclasses.fields(cls)] == stored
    assert cls.__slots__ == tuple(stored)  # type: ignore[attr-defined]
    # One slot a field (held by the class's base, its twin): none declared twice, each
    # named once where copyreg looks, and each slot's descriptor found by pickle.
    assert cls.__basicsize__ == object.__basicsize__ + len(stored) * struct.calcsize("P")
    assert copyreg._slotnames(cls) == stored  # type: ignore[attr-defined]
    for name in stored:
        assert pickle.loads(pickle.dumps(getattr(cls, name))) is getattr(cls, name)
    assert cls.__match_args__ == tuple(name for name, _, _, init in shape if init)  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(cls)
    assert not hasattr(VALUES[cls][0], "__dict__")
    assert not hasattr(VALUES[cls][0], "__weakref__")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_values_behave_as_dataclass_values(cls: type) -> None:
    value, change = VALUES[cls]
    assert dataclasses.is_dataclass(VALUES[cls][0])
    assert [f.name for f in dataclasses.fields(value)] == [f.name for f in dataclasses.fields(cls)]
    assert dataclasses.replace(value) == value
    changed = dataclasses.replace(value, **change)
    assert changed != value
    for name, new in change.items():
        assert getattr(changed, name) == new
    assert dataclasses.replace(changed, **{name: getattr(value, name) for name in change}) == value
    fields = dataclasses.fields(value)
    assert dataclasses.asdict(value) == {f.name: _plain(getattr(value, f.name)) for f in fields}
    assert dataclasses.astuple(value) == tuple(_tupled(getattr(value, f.name)) for f in fields)
    if cls is Repaired:  # its messages are a list, so it is unhashable, as the dataclass would be
        with pytest.raises(TypeError, match="unhashable"):
            hash(value)
    else:
        assert hash(copy.copy(value)) == hash(value)
    assert copy.deepcopy(value) == value
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(value, protocol)) == value
    first = fields[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, first, getattr(value, first))
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(value, first)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.not_a_field = 1
    assert value != object()
    assert value.__eq__(object()) is NotImplemented


def test_replace_reads_an_initvar_from_its_property_and_checks_again() -> None:
    part, _ = VALUES[FilePart]
    assert dataclasses.replace(part, filename="b.pdf").data_url == part.data_url
    with pytest.raises(InvalidMessage, match="media_type"):
        dataclasses.replace(ImagePart(data=PNG, media_type="image/png"), media_type="text/plain")
    tool, _ = VALUES[Tool]
    assert dataclasses.replace(tool, parameters=None).parameters == {"type": "object", "properties": {}}
    with pytest.raises(InvalidTool, match="name"):
        dataclasses.replace(tool, name="a b")
    # ValueError until Python 3.13, TypeError since: whichever dataclasses raises.
    with pytest.raises((ValueError, TypeError), match="init=False"):
        dataclasses.replace(tool, parameters_json="{}")
    with pytest.raises((ValueError, TypeError), match="init=False"):
        dataclasses.replace(part, _start=0)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_replace_dunder_is_dataclasses_replace(cls: type) -> None:
    # What Python 3.13's dataclasses give each class, for copy.replace().
    value, change = VALUES[cls]
    assert value.__replace__(**change) == dataclasses.replace(value, **change)


def test_equality_hashing_and_repr_are_the_dataclass_ones() -> None:
    problem = Problem(2, "messages[2]", "orphan_result", "answers no call")
    assert problem == Problem(2, "messages[2]", "orphan_result", "answers no call")
    assert hash(problem) == hash((2, "messages[2]", "orphan_result", "answers no call"))
    assert (
        repr(problem)
        == "Problem(index=2, path='messages[2]', code='orphan_result', message='answers no call')"
    )
    snapshot = VALUES[StreamSnapshot][0]
    assert repr(snapshot) == (
        "StreamSnapshot(content='Let me', tool_calls=(PartialToolCall(id='c', name=None, arguments_json=''),), "
        "finish_reason=None)"
    )
    assert hash(TextPart("hi")) == hash(("hi", TextPart("hi").provider_data))
    assert ChatMessage("user", "hi") != ChatMessage("user", "ho")
    assert Problem(1, "p", "c", "m") == Problem(index=1, path="p", code="c", message="m")
    with pytest.raises(TypeError):
        Problem(1, "p", "c")  # type: ignore[call-arg]


def test_pickled_state_is_the_fields_in_order() -> None:
    # What earlier releases wrote and read: the dataclass's list of field values.
    for cls in (Problem, PartialToolCall, StreamSnapshot, TextPart, AudioPart, ChatMessage, Tool):
        value = VALUES[cls][0]
        assert value.__reduce_ex__(2)[2] == [getattr(value, f.name) for f in dataclasses.fields(cls)]
    problem = Problem.__new__(Problem)
    problem.__setstate__([1, "p", "c", "m"])  # type: ignore[attr-defined]
    assert problem == Problem(1, "p", "c", "m")


def test_match_args_match_positionally() -> None:
    match VALUES[Problem][0]:
        case Problem(index, path, code, message):
            assert (index, path, code, message) == (2, "messages[2]", "orphan_result", "answers no call")
    match ImagePart(data=PNG, media_type="image/png"):
        case ImagePart(None, data, media_type):
            assert (data, media_type) == (PNG, "image/png")


def test_a_user_dataclass_may_extend_one() -> None:
    @dataclasses.dataclass(frozen=True)
    class Noted(Problem):
        note: str = ""

    noted = Noted(1, "p", "c", "m", note="n")
    assert [f.name for f in dataclasses.fields(noted)] == ["index", "path", "code", "message", "note"]
    assert repr(noted).startswith("test_a_user_dataclass_may_extend_one.<locals>.Noted(index=1")


def _public_callables() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    for name in toolturns.__all__:
        value = getattr(toolturns, name)
        if inspect.isfunction(value):
            found.append((name, value))
        elif isinstance(value, type):
            for attribute, member in vars(value).items():
                if isinstance(member, property):
                    member = member.fget
                member = getattr(member, "__func__", member)
                if inspect.isfunction(member):
                    found.append((f"{name}.{attribute}", member))
    return found


@pytest.mark.parametrize(
    ("name", "function"), [pytest.param(name, function, id=name) for name, function in _public_callables()]
)
def test_type_hints_of_every_public_callable_resolve(name: str, function: Any) -> None:
    hints = typing.get_type_hints(function)
    assert set(hints) <= {*inspect.signature(function).parameters, "return"}, name


@pytest.mark.parametrize(
    "cls",
    [value for name in toolturns.__all__ if isinstance(value := getattr(toolturns, name), type)],
    ids=str,
)
def test_type_hints_of_every_public_class_resolve(cls: type) -> None:
    """Its annotations name what its attributes hold; a value class's name its fields (and the
    properties of its constructor-only arguments: ImagePart's ``data``, Tool's ``parameters``)."""
    hints = typing.get_type_hints(cls)
    if dataclasses.is_dataclass(cls):
        assert {field.name for field in dataclasses.fields(cls)} <= set(hints)
        assert set(hints) <= {*inspect.signature(cls).parameters, *cls.__slots__}  # type: ignore[attr-defined]
    for name, hint in hints.items():
        assert not isinstance(hint, str), (cls, name)


def test_import_loads_no_dataclasses() -> None:
    """``import toolturns`` leaves ``dataclasses`` and what comes with it unloaded."""
    code = "import sys, toolturns; print(' '.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "toolturns" in loaded
    heavy = {
        "dataclasses",
        "inspect",
        "ast",
        "dis",
        "tokenize",
        "copy",
        "datetime",
        "base64",
        "struct",
        "importlib",
    }
    assert loaded & heavy == set()


def test_value_class_gives_what_dataclass_gives() -> None:
    """One field, an InitVar read from a property, a field the constructor does not take."""

    def declare(decorator: Any, hidden: Any) -> Any:
        class Base:
            __slots__ = ()

            @property
            def doubled(self) -> int:
                return 2 * self.one  # type: ignore[attr-defined, no-any-return]

        class One(Base):
            one: int
            doubled: InitVar[int]  # type: ignore[assignment]  # the dataclass finds InitVar in this module
            kept: int = hidden(init=False)

            def __init__(self, one: int, doubled: int | None = None) -> None:
                object.__setattr__(self, "one", one)
                object.__setattr__(self, "kept", one if doubled is None else doubled)

        return decorator(frozen=True, slots=True)(One)

    ours, real = declare(value_class, field), declare(dataclasses.dataclass, dataclasses.field)
    for attribute in ("__slots__", "__match_args__"):
        assert getattr(ours, attribute) == getattr(real, attribute)
    assert repr(ours.__dataclass_params__) == repr(real.__dataclass_params__)
    assert [repr(f) for f in ours.__dataclass_fields__.values()] == [
        repr(f).replace(repr(real.doubled), repr(ours.doubled)) for f in real.__dataclass_fields__.values()
    ]
    for cls in (ours, real):
        value = cls(3)
        assert (value.__getstate__(), hash(value), value == cls(3), value == cls(4)) == (
            [3, 3],
            hash((3, 3)),
            True,
            False,
        )
        assert repr(value).endswith("One(one=3, kept=3)")
        assert dataclasses.replace(value).kept == 6  # replace() passes doubled, read from the property
        assert dataclasses.replace(value, one=1, doubled=4).kept == 4


def test_value_class_of_one_field_compares_as_a_tuple() -> None:
    @value_class(frozen=True, slots=True)
    class Single:
        value: float

        def __init__(self, value: float) -> None:
            object.__setattr__(self, "value", value)

    nan = float("nan")
    assert Single(nan) == Single(nan)  # (nan,) == (nan,): the same object
    assert Single(1.0).__getstate__() == [1.0]
    assert hash(Single(1.0)) == hash((1.0,))
    assert repr(Single(1.0)).endswith("Single(value=1.0)")

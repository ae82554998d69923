"""Unit tests for toolturns._extra.Extra: the read-only mapping of unmodelled wire keys."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any

import pytest

from toolturns import InvalidMessage, InvalidToolCall, MessageError
from toolturns._extra import EMPTY, Extra

RESERVED = frozenset({"role", "content"})
NOT_JSON = "must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None)"


def build(values: object, path: str = "extra") -> Extra:
    """Extra.build with the test's reserved keys and InvalidMessage errors."""
    return Extra.build(values, path=path, reserved=RESERVED, error=InvalidMessage)


def build_error(values: object, path: str = "extra") -> MessageError:
    """The error Extra.build raises for ``values``."""
    with pytest.raises(MessageError) as info:
        build(values, path)
    assert type(info.value) is InvalidMessage
    return info.value


# -- build: accepting side ----------------------------------------------------


def test_build_keeps_json_values() -> None:
    """build keeps each key with its JSON value."""
    extra = build({"weight": 1, "meta": {"tags": ["a", "é"]}, "score": 0.5, "note": "x"})
    assert extra.to_dict() == {"weight": 1, "meta": {"tags": ["a", "é"]}, "score": 0.5, "note": "x"}
    assert list(extra) == ["weight", "meta", "score", "note"]
    assert len(extra) == 4


@pytest.mark.parametrize("values", [None, {}, MappingProxyType({}), Extra(), EMPTY], ids=repr)
def test_build_of_nothing_is_the_shared_empty_extra(values: object) -> None:
    """None and empty mappings give the one shared EMPTY."""
    assert build(values) is EMPTY


def test_empty_is_an_empty_falsy_extra() -> None:
    """EMPTY is an Extra with no keys, falsy, equal to {}."""
    assert isinstance(EMPTY, Extra)
    assert len(EMPTY) == 0
    assert not EMPTY
    assert EMPTY == {}
    assert list(EMPTY) == []


def test_build_returns_an_extra_unchanged() -> None:
    """An Extra passed to build is already valid and is returned as it is."""
    extra = build({"weight": 0})
    assert build(extra) is extra


@pytest.mark.parametrize("value", [None, "", [], (), {}, MappingProxyType({})], ids=repr)
def test_build_drops_values_that_carry_nothing(value: object) -> None:
    """None and empty strings, lists, tuples and mappings are dropped."""
    extra = build({"empty": value, "kept": 1})
    assert extra.to_dict() == {"kept": 1}
    assert "empty" not in extra
    assert build({"empty": value}) is EMPTY


@pytest.mark.parametrize(
    ("value", "decoded"),
    [
        (0, 0),
        (0.0, 0.0),
        (False, False),
        (" ", " "),
        ("0", "0"),
        ([None], [None]),
        ({"a": None}, {"a": None}),
        ((0,), [0]),
    ],
    ids=repr,
)
def test_build_keeps_zero_false_and_non_empty_values(value: object, decoded: object) -> None:
    """0, false and non-empty values carry something and are kept (weight: 0 matters)."""
    extra = build({"k": value})
    assert "k" in extra
    assert extra["k"] == decoded
    assert type(extra["k"]) is type(decoded)


def test_build_accepts_mappings_that_are_not_dicts() -> None:
    """The values may come in any Mapping, and hold non-dict mappings and tuples."""
    extra = build(MappingProxyType({"meta": MappingProxyType({"t": (1, 2)})}))
    assert extra == {"meta": {"t": [1, 2]}}


def test_build_copies_the_values() -> None:
    """Changing the mapping passed to build changes nothing in the Extra."""
    values: dict[str, Any] = {"meta": {"tags": ["a"]}}
    extra = build(values)
    values["meta"]["tags"].append("b")
    values["new"] = 1
    assert extra == {"meta": {"tags": ["a"]}}


# -- build: rejecting side ----------------------------------------------------


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([("a", 1)], "extra: must be a mapping of str to JSON, got list"),
        ("weight", "extra: must be a mapping of str to JSON, got 'weight'"),
        (5, "extra: must be a mapping of str to JSON, got 5"),
        ({1: "x"}, "extra: keys must be strings, got 1"),
        ({None: "x"}, "extra: keys must be strings, got None"),
        ({"role": "user"}, "extra.role: is a modelled field, not an extra key, got 'user'"),
        ({"content": None}, "extra.content: is a modelled field, not an extra key, got None"),
        ({"w": float("nan")}, "extra.w: must be a finite number, got nan"),
        ({"w": float("inf")}, "extra.w: must be a finite number, got inf"),
        ({"w": {1, 2}}, f"extra.w: {NOT_JSON}, got set"),
        ({"w": b"x"}, f"extra.w: {NOT_JSON}, got bytes"),
        ({"w": {"a": [1, {2: 3}]}}, "extra.w.a[1]: keys must be strings, got 2"),
    ],
)
def test_build_rejects_what_is_not_extra_json(values: object, message: str) -> None:
    """Non-mappings, non-str keys, modelled keys and values that are not JSON are rejected with their path."""
    assert str(build_error(values)) == message


def test_build_rejects_values_nested_too_deeply() -> None:
    """A value nested 100,000 levels deep (built iteratively) is a clean error."""
    value: dict[str, Any] = {}
    for _ in range(100_000):
        value = {"a": value}
    error = build_error({"meta": value})
    assert str(error) == (
        "extra.meta: must nest at most 500 levels deep (a circular structure never ends), got dict"
    )


def test_build_paths_from_an_empty_path_are_the_keys() -> None:
    """With an empty base path, errors name the key alone."""
    assert str(build_error({"w": {1}}, path="")) == f"w: {NOT_JSON}, got set"
    assert str(build_error({"role": 1}, path="")) == "role: is a modelled field, not an extra key, got 1"
    assert str(build_error([], path="")) == "must be a mapping of str to JSON, got list"


def test_build_raises_the_error_type_it_is_given() -> None:
    """The caller chooses the error type through the factory."""
    with pytest.raises(InvalidToolCall, match=r"^extra\.id: is a modelled field, not an extra key, got 'x'$"):
        Extra.build({"id": "x"}, path="extra", reserved=frozenset({"id"}), error=InvalidToolCall)


# -- reading ------------------------------------------------------------------


def test_lookups_return_fresh_copies() -> None:
    """Every lookup decodes a new value, so changing it changes nothing."""
    extra = build({"meta": {"tags": ["a"]}})
    first = extra["meta"]
    first["tags"].append("b")
    first["new"] = 1
    assert extra["meta"] == {"tags": ["a"]}
    assert extra["meta"] is not extra["meta"]
    got = extra.get("meta")
    assert got is not None
    got["tags"].clear()
    for value in extra.values():
        value["tags"].append("c")
    assert extra["meta"] == {"tags": ["a"]}


def test_to_dict_is_a_fresh_dict() -> None:
    """to_dict returns a new plain dict of decoded values each time."""
    extra = build({"meta": {"tags": ["a"]}, "w": 0})
    first = extra.to_dict()
    assert type(first) is dict
    assert first == {"meta": {"tags": ["a"]}, "w": 0}
    first["meta"]["tags"].append("b")
    first["x"] = 1
    assert extra.to_dict() == {"meta": {"tags": ["a"]}, "w": 0}
    assert extra.to_dict() is not extra.to_dict()


def test_mapping_protocol() -> None:
    """An Extra is a Mapping: len, iteration in insertion order, in, get, items."""
    extra = build({"b": 1, "a": [2]})
    assert isinstance(extra, Mapping)
    assert len(extra) == 2
    assert list(extra) == ["b", "a"]
    assert "a" in extra
    assert "c" not in extra
    not_a_str: object = 1
    assert not_a_str not in extra
    assert extra.get("c") is None
    assert extra.get("c", 5) == 5
    assert dict(extra.items()) == {"b": 1, "a": [2]}
    assert dict(extra) == {"b": 1, "a": [2]}


def test_missing_key_raises_key_error() -> None:
    """Looking up a key that is not there raises KeyError, as any Mapping does."""
    with pytest.raises(KeyError):
        _ = build({"a": 1})["b"]


# -- equality and hash --------------------------------------------------------


def test_extras_with_the_same_values_are_equal_in_any_order() -> None:
    """Extras compare by value, whatever the key order; equal ones hash alike."""
    a = build({"a": 1, "b": {"x": 1, "y": [1, 2]}})
    b = build({"b": {"y": [1, 2], "x": 1}, "a": 1})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_extras_compare_by_json_value_not_text() -> None:
    """Extras holding the same values in different JSON layouts are equal and hash alike."""
    a = Extra({"m": '{"x": 1, "y": 2}'})
    b = Extra({"m": '{"y":2,"x":1}'})
    assert a == b
    assert hash(a) == hash(b)
    assert a == b  # again, from the cached keys


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"a": True}, {"a": 1}),
        ({"a": 1}, {"a": 1.0}),
        ({"a": 1}, {"a": 2}),
        ({"a": 1}, {"b": 1}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ({"a": [1, 2]}, {"a": [2, 1]}),
    ],
)
def test_extras_with_different_values_differ(one: dict[str, Any], other: dict[str, Any]) -> None:
    """Different keys or values make different extras; JSON true and 1, and 1 and 1.0, differ."""
    assert build(one) != build(other)


def test_an_extra_equals_a_plain_mapping_of_the_same_values() -> None:
    """An Extra compares equal to a dict or other mapping with the same decoded values."""
    extra = build({"w": 0, "meta": {"t": (1,)}})
    assert extra == {"meta": {"t": [1]}, "w": 0}
    plain = {"w": 0, "meta": {"t": [1]}}
    assert plain == extra  # the reflected comparison
    assert extra == MappingProxyType({"w": 0, "meta": {"t": [1]}})
    assert extra != {"w": 1, "meta": {"t": [1]}}
    assert extra != {"w": 0}
    assert build({}) == {}


@pytest.mark.parametrize("other", [None, 0, "w", [("w", 0)], {("w", 0)}], ids=repr)
def test_an_extra_is_not_equal_to_other_types(other: object) -> None:
    """Compared with something that is not a mapping, an Extra is simply not equal."""
    extra = build({"w": 0})
    assert extra != other
    assert (extra == other) is False


def test_hash_of_the_empty_extra() -> None:
    """EMPTY hashes, and equals a freshly made empty Extra."""
    assert hash(EMPTY) == hash(Extra())
    assert Extra() == EMPTY


# -- repr ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "text"),
    [
        ({"weight": 0, "note": None}, "Extra({'weight': 0})"),
        ({"meta": {"t": (1, "é")}}, "Extra({'meta': {'t': [1, 'é']}})"),
        ({}, "Extra({})"),
    ],
)
def test_repr_shows_the_decoded_values(values: dict[str, Any], text: str) -> None:
    """repr shows the decoded values like a dict."""
    assert repr(build(values)) == text


# -- read-only ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["_values", "_key", "weight"])
def test_attributes_cannot_be_assigned(name: str) -> None:
    """Assigning any attribute raises FrozenInstanceError (an AttributeError), as for every value object."""
    extra = build({"weight": 0})
    with pytest.raises(FrozenInstanceError, match=f"^cannot assign to field '{name}'$"):
        setattr(extra, name, {})
    assert extra == {"weight": 0}


def test_items_cannot_be_assigned_or_deleted() -> None:
    """An Extra has no item assignment or deletion, and no instance dict."""
    extra = build({"weight": 0})
    assert not hasattr(extra, "__setitem__")
    assert not hasattr(extra, "__delitem__")
    assert not hasattr(extra, "__dict__")
    with pytest.raises(TypeError):
        extra["weight"] = 1  # type: ignore[index]
    assert extra["weight"] == 0


# -- pickle and copy ----------------------------------------------------------


@pytest.mark.parametrize(
    "values", [{}, {"weight": 0}, {"meta": {"t": [1, "é", None]}, "ok": False}], ids=repr
)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_extras_pickle(values: dict[str, Any], protocol: int) -> None:
    """An Extra survives pickling with every protocol: same type, values and hash."""
    extra = build(values)
    back = pickle.loads(pickle.dumps(extra, protocol=protocol))
    assert type(back) is Extra
    assert back == extra
    assert hash(back) == hash(extra)
    assert back.to_dict() == extra.to_dict()


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_extras_copy(clone: Any) -> None:
    """copy.copy and copy.deepcopy give an equal Extra."""
    extra = build({"meta": {"t": [1]}})
    back = clone(extra)
    assert type(back) is Extra
    assert back == extra


def test_attributes_cannot_be_deleted() -> None:
    """Deleting a private attribute of an Extra is refused, so the shared EMPTY cannot be broken."""
    with pytest.raises(FrozenInstanceError, match=r"^cannot delete field '_values'$"):
        del EMPTY._values
    assert len(EMPTY) == 0


def test_an_extra_built_for_one_owner_is_checked_again_for_another() -> None:
    """A call's extra holding 'content' cannot be passed on as a message's extra: the key is reserved there."""
    foreign = Extra.build({"content": "sneaky"}, path="", reserved=frozenset({"id"}), error=InvalidToolCall)
    with pytest.raises(InvalidMessage) as caught:
        Extra.build(foreign, path="extra", reserved=frozenset({"content"}), error=InvalidMessage)
    assert str(caught.value) == "extra.content: is a modelled field, not an extra key, got 'sneaky'"

"""Unit tests for toolturns._errors: the hierarchy, messages, paths and value descriptions."""

from __future__ import annotations

import copy
import pickle

import pytest

import toolturns
from toolturns import InvalidArguments, InvalidMessage, InvalidToolCall, MessageError
from toolturns._errors import describe, join_path

ALL_ERRORS = (MessageError, InvalidMessage, InvalidToolCall, InvalidArguments)


def test_message_error_is_a_value_error() -> None:
    """MessageError is the base of the hierarchy and a ValueError."""
    assert issubclass(MessageError, ValueError)
    with pytest.raises(ValueError, match=r"^id: must be a non-empty string, got ''$"):
        raise MessageError("id", "must be a non-empty string", "''")


@pytest.mark.parametrize("kind", [InvalidMessage, InvalidToolCall, InvalidArguments])
def test_every_specific_error_derives_from_message_error(kind: type[MessageError]) -> None:
    """InvalidMessage, InvalidToolCall and InvalidArguments are MessageError subclasses."""
    assert issubclass(kind, MessageError)
    assert kind is not MessageError


def test_specific_errors_are_distinct() -> None:
    """No specific error derives from another, so callers can tell them apart."""
    specific = (InvalidMessage, InvalidToolCall, InvalidArguments)
    for one in specific:
        for other in specific:
            assert issubclass(one, other) == (one is other)


@pytest.mark.parametrize("kind", ALL_ERRORS)
def test_errors_are_exported_under_the_public_module(kind: type[MessageError]) -> None:
    """The error classes are re-exported by toolturns and report it as their module."""
    assert getattr(toolturns, kind.__name__) is kind
    assert kind.__module__ == "toolturns"
    assert kind.__name__ in toolturns.__all__


@pytest.mark.parametrize("kind", ALL_ERRORS)
def test_error_carries_path_rule_and_got(kind: type[MessageError]) -> None:
    """An error keeps path, rule and got as attributes and in args."""
    error = kind("tool_calls[1].function.name", "must be a non-empty string", "5")
    assert error.path == "tool_calls[1].function.name"
    assert error.rule == "must be a non-empty string"
    assert error.got == "5"
    assert error.args == ("tool_calls[1].function.name", "must be a non-empty string", "5")


def test_got_defaults_to_none() -> None:
    """Without a value to show, got is None."""
    error = InvalidMessage("tool_call_id", "is required on tool messages")
    assert error.got is None


@pytest.mark.parametrize(
    ("path", "rule", "got", "text"),
    [
        (
            "tool_calls[1].function.arguments",
            "must be a JSON object",
            "array",
            "tool_calls[1].function.arguments: must be a JSON object, got array",
        ),
        ("id", "must be a non-empty string", "''", "id: must be a non-empty string, got ''"),
        ("tool_call_id", "is required on tool messages", None, "tool_call_id: is required on tool messages"),
        ("", "must be an object", "list", "must be an object, got list"),
        ("", "must be an object", None, "must be an object"),
        ("x", "must be y", "", "x: must be y, got "),
    ],
)
def test_str_is_path_rule_got(path: str, rule: str, got: str | None, text: str) -> None:
    """str(error) reads 'path: rule, got value', leaving out an empty path and a missing value."""
    assert str(MessageError(path, rule, got)) == text


def test_invalid_arguments_defaults_call_details_to_none() -> None:
    """InvalidArguments carries call_id, name and raw, each None unless given."""
    error = InvalidArguments("arguments", "must be a JSON object", "array")
    assert (error.call_id, error.name, error.raw) == (None, None, None)
    error = InvalidArguments("arguments", "must be a JSON object", "array", call_id="c1", name="f", raw="[1]")
    assert (error.call_id, error.name, error.raw) == ("c1", "f", "[1]")
    assert str(error) == "arguments: must be a JSON object, got array"


@pytest.mark.parametrize(
    ("prefix", "path", "joined"),
    [
        ("tool_calls[1]", "id", "tool_calls[1].id"),
        ("tool_calls", "[1]", "tool_calls[1]"),
        ("tool_calls", "[1].function.name", "tool_calls[1].function.name"),
        ("function", "", "function"),
        ("", "id", "id"),
        ("", "[0]", "[0]"),
        ("", "", ""),
    ],
)
def test_join_path(prefix: str, path: str, joined: str) -> None:
    """join_path puts a dot between names, none before an index, and skips empty parts."""
    assert join_path(prefix, path) == joined


def test_with_prefix_returns_a_prefixed_copy() -> None:
    """with_prefix returns an error of the same type with the prefixed path; the original is unchanged."""
    error = InvalidToolCall("id", "must be a non-empty string", "''")
    moved = error.with_prefix("tool_calls[1]")
    assert type(moved) is InvalidToolCall
    assert moved is not error
    assert str(moved) == "tool_calls[1].id: must be a non-empty string, got ''"
    assert (moved.path, moved.rule, moved.got) == ("tool_calls[1].id", "must be a non-empty string", "''")
    assert moved.args == ("tool_calls[1].id", "must be a non-empty string", "''")
    assert str(error) == "id: must be a non-empty string, got ''"
    assert error.path == "id"


def test_with_prefix_on_an_empty_path_uses_the_prefix() -> None:
    """An error about the value itself gets the prefix as its whole path."""
    moved = InvalidToolCall("", "must be an object", "list").with_prefix("tool_calls[0]")
    assert str(moved) == "tool_calls[0]: must be an object, got list"


def test_with_prefix_keeps_the_call_details_of_invalid_arguments() -> None:
    """with_prefix on InvalidArguments keeps call_id, name and raw."""
    error = InvalidArguments("arguments", "must be a JSON object", "array", call_id="c1", name="f", raw="[1]")
    moved = error.with_prefix("function")
    assert type(moved) is InvalidArguments
    assert isinstance(moved, InvalidArguments)
    assert (moved.call_id, moved.name, moved.raw) == ("c1", "f", "[1]")
    assert str(moved) == "function.arguments: must be a JSON object, got array"


@pytest.mark.parametrize("kind", ALL_ERRORS)
def test_errors_pickle(kind: type[MessageError]) -> None:
    """Every error survives pickling with its type, attributes and message."""
    error = kind("tool_calls[1].id", "must be a non-empty string", "''")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is kind
    assert (back.path, back.rule, back.got) == (error.path, error.rule, error.got)
    assert str(back) == str(error)


def test_invalid_arguments_pickles_with_call_details() -> None:
    """A pickled InvalidArguments (also a prefixed copy) keeps call_id, name and raw."""
    error = InvalidArguments("arguments", "must be a JSON object", "array", call_id="c1", name="f", raw="[1]")
    for original in (error, error.with_prefix("function")):
        back = pickle.loads(pickle.dumps(original))
        assert type(back) is InvalidArguments
        assert (back.call_id, back.name, back.raw) == ("c1", "f", "[1]")
        assert str(back) == str(original)
    copied = copy.copy(error)
    assert (copied.call_id, copied.name, copied.raw, str(copied)) == ("c1", "f", "[1]", str(error))


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "None"),
        ("", "''"),
        ("x", "'x'"),
        ("it's", '"it\'s"'),
        (5, "5"),
        (-5, "-5"),
        (True, "True"),
        (False, "False"),
        (1.5, "1.5"),
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        ([1, 2], "list"),
        ((1, 2), "tuple"),
        ({"a": 1}, "dict"),
        ({1, 2}, "set"),
        (b"a", "bytes"),
        (object(), "object"),
        (1j, "complex"),
    ],
)
def test_describe_shows_scalars_by_repr_and_the_rest_by_type(value: object, shown: str) -> None:
    """describe shows None, str, int, float and bool by repr, anything else by its type name."""
    assert describe(value) == shown


def test_describe_names_a_custom_object_and_says_what_to_pass_instead() -> None:
    """A caller's own class is described by its name, with what toolturns reads in its place."""

    class Point:
        pass

    assert describe(Point()) == "Point (an object, not JSON data: pass e.g. its .model_dump() or .to_dict())"


def test_describe_keeps_a_short_string_whole() -> None:
    """A value whose repr is at most 60 characters is shown whole."""
    value = "a" * 58  # repr is 60 characters
    assert describe(value) == repr(value)


def test_describe_cuts_a_long_string() -> None:
    """A value whose repr is longer than 60 characters is cut and its length given."""
    value = "a" * 59  # repr is 61 characters
    assert describe(value) == "'" + "a" * 59 + "... (61 characters)"
    assert describe("b" * 1_000_000) == "'" + "b" * 59 + "... (1000002 characters)"


def test_describe_cuts_a_long_integer() -> None:
    """An integer of up to 240 bits is shown by repr, cut like a string when long."""
    value = 2**240 - 1
    assert value.bit_length() == 240
    text = repr(value)
    assert describe(value) == f"{text[:60]}... ({len(text)} characters)"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2**240, "an integer of 241 bits"),
        (-(2**240), "an integer of 241 bits"),
        (10**5000, f"an integer of {(10**5000).bit_length()} bits"),
    ],
    ids=["2**240", "-2**240", "10**5000"],
)
def test_describe_gives_the_size_of_a_huge_integer(value: int, shown: str) -> None:
    """A huge integer is described by its size, never by repr (which raises past 4300 digits)."""
    assert describe(value) == shown

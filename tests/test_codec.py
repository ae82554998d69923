"""The helpers every provider codec shares (toolturns._codec)."""

from __future__ import annotations

import pytest

from toolturns import InvalidArguments, InvalidMessage, ToolCall
from toolturns.providers._native import is_generated_id, kept
from toolturns.providers._shared import (
    RAW_ARGUMENTS_KEY,
    arguments_for_object_wire,
    arguments_from_object_wire,
    at,
    generated_id,
)


def test_at_prefixes_the_path_of_errors_raised_inside() -> None:
    """Errors raised inside `at(prefix)` carry the prefix in their path; their type is kept."""
    with pytest.raises(InvalidMessage) as caught, at("messages[3]"):
        raise InvalidMessage("content", "must be a string", "5")
    assert str(caught.value) == "messages[3].content: must be a string, got 5"


def test_arguments_for_an_object_wire_are_the_decoded_object() -> None:
    """A call with JSON-object arguments gives them decoded."""
    call = ToolCall("c", "f", {"city": "Paris"})
    assert arguments_for_object_wire(call, provider="Anthropic", keep_invalid=False) == {"city": "Paris"}


@pytest.mark.parametrize("raw", ['{"city": "Par', "[1]"])
def test_malformed_arguments_raise_rather_than_become_empty(raw: str) -> None:
    """Text that is not a JSON object never silently becomes {}: it raises, naming call, name, raw and the opt-in."""
    call = ToolCall("call_9", "get_weather", raw)
    with pytest.raises(InvalidArguments) as caught:
        arguments_for_object_wire(call, provider="Gemini", keep_invalid=False)
    error = caught.value
    assert (error.call_id, error.name, error.raw, error.path) == ("call_9", "get_weather", raw, "arguments")
    assert "to be sent as Gemini's arguments object" in error.rule
    assert "keep_invalid_arguments=True" in error.rule


def test_the_opt_in_wraps_raw_text_and_reading_unwraps_it() -> None:
    """keep_invalid wraps the raw text under the documented key; reading back restores it exactly."""
    call = ToolCall("c", "f", '{"city": "Par')
    wrapped = arguments_for_object_wire(call, provider="Ollama", keep_invalid=True)
    assert wrapped == {RAW_ARGUMENTS_KEY: '{"city": "Par'}
    assert arguments_from_object_wire(wrapped) == '{"city": "Par'


@pytest.mark.parametrize(
    "value", [{"city": "Paris"}, {RAW_ARGUMENTS_KEY: 5}, {RAW_ARGUMENTS_KEY: "x", "other": 1}, [], None]
)
def test_reading_leaves_anything_else_as_it_is(value: object) -> None:
    """Only an object holding exactly the raw key with a string is unwrapped."""
    assert arguments_from_object_wire(value) is value


def test_generated_ids_are_deterministic_and_differ_by_seed() -> None:
    """The same seed gives the same id; another seed or provider another one."""
    first = generated_id("gemini", 0, 1, "f", {"a": 1})
    assert first == generated_id("gemini", 0, 1, "f", {"a": 1})
    assert first.startswith("call_")
    assert len(first) == len("call_") + 24
    assert first != generated_id("gemini", 0, 2, "f", {"a": 1})
    assert first != generated_id("ollama", 0, 1, "f", {"a": 1})


def test_a_generated_id_is_marked_for_its_provider_only() -> None:
    """kept(..., generated_id=True) marks a call for one provider; is_generated_id reads that mark."""
    call = ToolCall("call_x", "f", provider_data=kept("gemini", generated_id=True))
    assert is_generated_id(call, "gemini")
    assert not is_generated_id(call, "ollama")
    assert not is_generated_id(ToolCall("call_x", "f"), "gemini")

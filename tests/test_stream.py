"""The life cycle every StreamAssembler shares (toolturns._stream.Assembler)."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from toolturns import ChatMessage, InvalidStream, MessageError, PartialToolCall, StreamSnapshot
from toolturns.providers._stream import Assembler, _differ


class _Echo(Assembler):
    """A toy provider: items {"text": ...} add text, {"call": [id, name, args]} a call, {"end": reason} ends."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.calls: list[PartialToolCall] = []

    def _feed(self, item: dict[str, Any]) -> None:
        if "bad" in item:
            raise InvalidStream("bad", "is not an item this provider sends", repr(item["bad"]))
        self.texts.append(item.get("text", ""))
        if "call" in item:
            self.calls.append(PartialToolCall(*item["call"]))
        if "end" in item:
            self.finish_reason = item["end"]
            self._ended = True

    def _build(self) -> ChatMessage:
        return ChatMessage.assistant(self._content())

    def _content(self) -> str:
        return "".join(self.texts)

    def _partial_calls(self) -> list[PartialToolCall]:
        return list(self.calls)


def test_message_before_anything_was_fed_is_an_error() -> None:
    """message() on a fresh assembler raises InvalidStream saying nothing was fed."""
    with pytest.raises(InvalidStream, match="has no items yet"):
        _Echo().message()


def test_items_are_assembled_and_the_end_is_recorded() -> None:
    """Items feed in order; the closing item sets ended and finish_reason."""
    stream = _Echo()
    stream.feed({"text": "Hel"})
    before = stream.ended
    stream.feed({"text": "lo", "end": "stop"})
    assert (before, stream.ended) == (False, True)
    assert stream.finish_reason == "stop"
    assert stream.message() == ChatMessage.assistant("Hello")


def test_feeding_after_the_end_is_an_error_naming_the_item() -> None:
    """An item after the closing one is refused, with its position in the path."""
    stream = _Echo()
    stream.feed({"end": "stop"})
    with pytest.raises(InvalidStream) as caught:
        stream.feed({"text": "late"})
    assert str(caught.value) == "item[1]: must not follow the end of the stream, got dict"


@pytest.mark.parametrize("item", [[], "data: {}", None, 5])
def test_an_item_that_is_not_an_object_is_refused(item: object) -> None:
    """Every item is a decoded JSON object; anything else is an InvalidStream at item[N]."""
    stream = _Echo()
    stream.feed({"text": "a"})
    with pytest.raises(InvalidStream) as caught:
        stream.feed(item)
    assert caught.value.path == "item[1]"


def test_provider_errors_get_the_item_position_in_their_path() -> None:
    """An error raised while taking an item is prefixed with item[N]; the item is not counted."""
    stream = _Echo()
    with pytest.raises(InvalidStream) as caught:
        stream.feed({"bad": 1})
    assert str(caught.value) == "item[0].bad: is not an item this provider sends, got 1"
    with pytest.raises(InvalidStream, match="has no items yet"):
        stream.message()


def test_snapshot_shows_the_stream_so_far_without_disturbing_it() -> None:
    """snapshot() returns text, partial calls and finish_reason so far; assembly goes on unchanged."""
    stream = _Echo()
    stream.feed({"text": "Look", "call": ["call_1", "get_weather", '{"city": "Pa']})
    snapshot = stream.snapshot()
    assert snapshot == StreamSnapshot(
        "Look", (PartialToolCall("call_1", "get_weather", '{"city": "Pa'),), None
    )
    stream.feed({"text": "ing", "end": "stop"})
    assert stream.snapshot().content == "Looking"
    assert snapshot.content == "Look"
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.content = "x"  # type: ignore[misc]


def test_invalid_stream_carries_the_providers_error_and_pickles() -> None:
    """InvalidStream is a MessageError with provider_error, and survives pickling."""
    error = InvalidStream(
        "item[3]", "is an error event", "'overloaded_error'", provider_error={"type": "overloaded"}
    )
    assert isinstance(error, MessageError)
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.provider_error) == (str(error), {"type": "overloaded"})


def test_values_too_deep_to_compare_are_not_the_same() -> None:
    """Comparing a kept value with the next one too deep for the interpreter says they differ, not RecursionError."""

    def deep() -> list[Any]:
        value: list[Any] = []
        for _ in range(100_000):
            value = [value]
        return value

    assert _differ(deep(), deep())
    assert not _differ([[1]], [[1]])

"""Unit tests for ``toolturns.parse_sse``: raw Server-Sent Events lines into the items to feed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toolturns import InvalidStream, parse_sse


def test_data_lines_become_items() -> None:
    """Each event's data is decoded into one item, in order."""
    lines = ['data: {"a": 1}', "", 'data: {"b": 2}', ""]
    assert list(parse_sse(lines)) == [{"a": 1}, {"b": 2}]


def test_done_ends_the_iteration() -> None:
    """OpenAI's closing 'data: [DONE]' ends the items; nothing after it is read."""
    lines = ['data: {"a": 1}', "", "data: [DONE]", "", 'data: {"b": 2}', "", "data: not json", ""]
    assert list(parse_sse(lines)) == [{"a": 1}]


def test_comments_are_skipped() -> None:
    """Comment lines (': ping', ': OPENROUTER PROCESSING') carry nothing."""
    lines = [": ping", 'data: {"a": 1}', ": keep-alive", "", ":", ""]
    assert list(parse_sse(lines)) == [{"a": 1}]


def test_event_id_and_retry_lines_are_skipped() -> None:
    """event:, id: and retry: lines are not data: Anthropic repeats the event name in the data's type."""
    lines = ["event: message_start", "id: 7", "retry: 3000", 'data: {"type": "message_start"}', ""]
    assert list(parse_sse(lines)) == [{"type": "message_start"}]


def test_blank_keep_alives_give_nothing() -> None:
    """Blank lines between events, or before any, are keep-alives."""
    assert list(parse_sse(["", "", 'data: {"a": 1}', "", "", "\r\n", ""])) == [{"a": 1}]
    assert list(parse_sse(["", "\n"])) == []


def test_multi_line_data_is_joined_with_newlines() -> None:
    """The data: lines of one event are joined with a newline before decoding."""
    lines = ["data: {", 'data:   "a":', "data: [1,", "data: 2]}", ""]
    assert list(parse_sse(lines)) == [{"a": [1, 2]}]


def test_crlf_and_lf_line_endings() -> None:
    """Lines may still end in CRLF or LF (a file or socket iterated by line)."""
    lines = ['data: {"a": 1}\r\n', "\r\n", 'data: {"b": 2}\n', "\n", "data: [DONE]\r\n"]
    assert list(parse_sse(lines)) == [{"a": 1}, {"b": 2}]


def test_data_without_a_space_after_the_colon() -> None:
    """'data:{...}' is data too; the one optional space is removed, not required."""
    assert list(parse_sse(['data:{"a": 1}', "", "data:[DONE]"])) == [{"a": 1}]


def test_stream_ending_without_a_blank_line() -> None:
    """The last event is given even when the stream ends without its closing blank line."""
    assert list(parse_sse(['data: {"a": 1}', "", 'data: {"b": 2}'])) == [{"a": 1}, {"b": 2}]


def test_bad_json_names_the_line_where_the_event_started() -> None:
    """Data that is not JSON raises InvalidStream at line[N], after the good items before it."""
    items = parse_sse(['data: {"a": 1}', "", ": ping", 'data: {"b": ', "data: ", ""])
    assert next(items) == {"a": 1}
    with pytest.raises(InvalidStream) as caught:
        next(items)
    assert caught.value.path == "line[3]"
    assert caught.value.rule.startswith("must be JSON data")
    assert caught.value.got == repr('{"b": \n')


@pytest.mark.parametrize("data", ["[1, 2]", '"text"', "42", "null", "true"])
def test_non_object_json_is_rejected(data: str) -> None:
    """JSON that is not an object is not a stream item."""
    with pytest.raises(InvalidStream, match=r"^line\[0\]: must be a JSON object"):
        list(parse_sse([f"data: {data}", ""]))


def test_deeply_nested_json_is_an_invalid_stream() -> None:
    """Data nested deeper than the decoder can go raises InvalidStream, not RecursionError."""
    with pytest.raises(InvalidStream, match=r"^line\[0\]: must be JSON data"):
        list(parse_sse(["data: " + "[" * 100_000 + "]" * 100_000]))


def test_lazy_over_a_generator_of_lines() -> None:
    """Lines are read one at a time: an item is given before the rest of the stream exists."""

    def lines() -> Iterator[str]:
        yield 'data: {"a": 1}'
        yield ""
        raise AssertionError("read too far")

    items = parse_sse(lines())
    assert next(items) == {"a": 1}


def test_a_whole_body_as_one_string_is_split_into_lines() -> None:
    """parse_sse(response.text) reads the events, CRLF or LF, as the body's lines would."""
    body = 'event: message_start\r\ndata: {"type": "message_start"}\r\n\r\n: ping\r\ndata: {"a": 1}\r\n\r\n'
    assert list(parse_sse(body)) == [{"type": "message_start"}, {"a": 1}]
    assert list(parse_sse(body)) == list(parse_sse(body.splitlines()))

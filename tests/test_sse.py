"""Unit tests for ``toolturns.parse_sse``: raw Server-Sent Events lines into the items to feed."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import requests

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


# -- bytes, line ends, and what is not a stream ------------------------------------------

_BODY = b'event: message_start\r\ndata: {"type": "message_start"}\r\n\r\n: ping\r\ndata: {"a": "\xc3\xa9"}\r\n\r\n'
_ITEMS = [{"type": "message_start"}, {"a": "é"}]


def _requests_response(body: bytes) -> requests.Response:
    """A requests Response reading ``body`` as it would off the socket."""
    response = requests.Response()
    response.raw = io.BytesIO(body)
    response.status_code = 200
    return response


def test_bytes_lines_as_requests_iter_lines_gives_them() -> None:
    """requests' iter_lines() yields bytes lines by default: they read as the same text lines would."""
    lines = list(_requests_response(_BODY).iter_lines())
    assert all(type(line) is bytes for line in lines)
    assert list(parse_sse(lines)) == _ITEMS


def test_a_whole_bytes_body_is_read() -> None:
    """A body as bytes (httpx's or requests' .content) reads as its text does."""
    assert httpx.Response(200, content=_BODY).content == _BODY
    assert list(parse_sse(_BODY)) == _ITEMS
    assert list(parse_sse(_BODY.decode())) == _ITEMS


def test_a_bytes_line_that_is_not_utf8_is_refused_with_its_line() -> None:
    """SSE is UTF-8: other bytes are an InvalidStream at their line, not a character made up."""
    with pytest.raises(InvalidStream) as caught:
        list(parse_sse([b'data: {"a": 1}', b"", b'data: {"b": "\xff"}', b""]))
    assert caught.value.path == "line[2]"
    assert caught.value.rule.startswith("must be UTF-8 text")
    with pytest.raises(InvalidStream, match=r"^line\[1\]: must be UTF-8 text"):
        list(parse_sse(b': ok\ndata: "\xe9"\n\n'))


@pytest.mark.parametrize(("lines", "got"), [(None, "None"), (5, "5"), (5.0, "5.0"), (object(), "object")])
def test_what_is_not_lines_or_a_body_is_refused(lines: Any, got: str) -> None:
    """None, a number, any non-iterable: an InvalidStream saying what parse_sse takes, at once."""
    with pytest.raises(InvalidStream) as caught:
        parse_sse(lines)
    assert (caught.value.path, caught.value.got) == ("lines", got)
    assert caught.value.rule.startswith("must be the lines of a Server-Sent Events stream")


@pytest.mark.parametrize(
    ("lines", "path", "got"), [([1, 2], "line[0]", "1"), (['data: {"a": 1}', "", None], "line[2]", "None")]
)
def test_an_item_that_is_not_a_line_is_refused(lines: list[Any], path: str, got: str) -> None:
    """A list of ints (iterating bytes gives ints), or a None among the lines: InvalidStream at that line."""
    with pytest.raises(InvalidStream) as caught:
        list(parse_sse(lines))
    assert (caught.value.path, caught.value.rule, caught.value.got) == (
        path,
        "must be a str or bytes line",
        got,
    )


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_body_is_split_only_at_cr_lf_and_crlf(separator: str) -> None:
    """U+2028, U+2029 and U+0085 may stand raw in a JSON string; SSE ends lines only at CR, LF, CRLF."""
    body = f'data: {{"a": "x{separator}y"}}\r\rdata: {{"b": 1}}\n\ndata: {{"c": 2}}\r\n\r\n'
    expected = [{"a": f"x{separator}y"}, {"b": 1}, {"c": 2}]
    assert list(parse_sse(body)) == expected
    assert list(parse_sse(body.encode())) == expected


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
def test_numbers_json_does_not_have_are_refused(number: str) -> None:
    """NaN, Infinity and numbers a double cannot hold are not JSON, as for every other reader."""
    with pytest.raises(InvalidStream) as caught:
        list(parse_sse([f'data: {{"a": {number}}}', ""]))
    assert caught.value.path == "line[0]"
    assert caught.value.rule.startswith("must be JSON data")


def test_a_leading_byte_order_mark_is_ignored() -> None:
    """SSE ignores one leading U+FEFF; it would otherwise hide the first line's field name."""
    assert list(parse_sse(b'\xef\xbb\xbfdata: {"a": 1}\n\n')) == [{"a": 1}]
    assert list(parse_sse(["\ufeffdata: {}", "", "\ufeffdata: {}", ""])) == [{}]

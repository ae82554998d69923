"""The fuzz targets' invariants (fuzz/invariants.py), checked fast with hypothesis.

The fuzz runs in fuzz/ search for minutes with coverage guidance; these run
the same checks on every test run, on arbitrary JSON and on the targets' seeds
with a few random edits inside, so a regression shows without atheris.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fuzz import tool_targets
from fuzz.cli import SOURCES, check_cli, cli_input, cli_seeds
from fuzz.invariants import (
    CODECS,
    Codec,
    check_message,
    check_request,
    check_response,
    check_sent_back,
    check_sse,
    check_stream,
    check_transcripts,
    check_trim,
    sse_reference,
)
from fuzz.seeds import seeds
from fuzz.tool_targets import TOOL_TARGETS
from toolturns import ChatMessage, ToolCall, _cli, openai

from . import strategies as s

NAMES = sorted(CODECS)


def near_seeds(target: str) -> st.SearchStrategy[Any]:
    """Arbitrary JSON, or one of the target's seeds with one to three edits deep inside."""
    return st.one_of(s.arbitrary_json(), s.mutated(st.sampled_from(seeds(target))))


@settings(max_examples=60)
@given(near_seeds("message"))
def test_from_dict_keeps_the_fuzz_invariant(data: Any) -> None:
    """ChatMessage.from_dict reads or raises a MessageError, and what it reads round-trips."""
    check_message(data)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40)
@given(data=st.data())
def test_from_request_keeps_the_fuzz_invariant(name: str, data: st.DataObject) -> None:
    """Each codec's from_request reads or raises a MessageError; what it reads survives the
    OpenAI wire and its own wire with every call, result and text, and sends the same body again."""
    check_request(CODECS[name], data.draw(near_seeds(f"{name}_request")))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40)
@given(data=st.data())
def test_from_response_keeps_the_fuzz_invariant(name: str, data: st.DataObject) -> None:
    """Each codec's from_response gives an assistant turn or a MessageError, and the turn survives both wires."""
    check_response(CODECS[name], data.draw(near_seeds(f"{name}_response")))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40)
@given(data=st.data())
def test_stream_assembler_keeps_the_fuzz_invariant(name: str, data: st.DataObject) -> None:
    """Each StreamAssembler fed arbitrary or edited recorded streams works or raises a MessageError at
    every step; its message agrees with its snapshot and survives both wires."""
    items = data.draw(st.one_of(st.lists(s.arbitrary_json(), max_size=5), near_seeds(f"{name}_stream")))
    check_stream(CODECS[name], items)


_SSE_LINES = st.one_of(
    st.sampled_from(
        ["", ":", ": ping", "data", "data:", "data: [DONE]", "event: x", "id: 1", "data: {}", "data:{"]
    ),
    s.arbitrary_json().map(lambda value: "data: " + json.dumps(value)),
    s.unicode_text(max_size=8).map(lambda text: "data: " + text),
)


@settings(max_examples=100)
@given(st.lists(st.tuples(_SSE_LINES, st.sampled_from(["\n", "\r\n", "\r"])), max_size=8), st.booleans())
def test_parse_sse_keeps_the_fuzz_invariant(lines: list[tuple[str, str]], closed: bool) -> None:
    """parse_sse gives the events the format gives, or an InvalidStream at the line the bad event
    started on, whatever the line ends; its items written again read back the same."""
    text = "".join(line + end for line, end in lines)
    check_sse(text if closed else text.rstrip("\r\n"))


def test_sse_reference_reads_the_format() -> None:
    """The reference reader the sse target compares with: blank lines dispatch, comments and other
    fields are skipped, one space after the colon goes, data lines join, [DONE] ends."""
    lines = [": hi", "event: x", "data: {", "data:1}", "", "", "data", "", "data: [DONE]", "data: {}"]
    assert sse_reference(lines) == (["{\n1}", ""], [2, 6])


@settings(max_examples=40)
@given(near_seeds("transcript"))
def test_check_transcript_keeps_the_fuzz_invariant(value: Any) -> None:
    """check_transcript gives well-formed Problems for any list (InvalidTranscript otherwise), a target
    only adds problems, and a transcript clean for a target is one its to_request sends."""
    check_transcripts(value)


@settings(max_examples=40)
@given(near_seeds("trim"))
def test_trim_keeps_the_fuzz_invariant(value: Any) -> None:
    """trim keeps the system messages and whole trailing turns within the limits, or raises a MessageError."""
    check_trim(value)


# -- the invariants can fail ------------------------------------------------------------


def _lossy(drop_last_call: bool) -> Codec:
    """The OpenAI codec with a writer that loses something."""

    def to_request(messages: list[ChatMessage]) -> dict[str, Any]:
        body = openai.to_request(messages)
        if drop_last_call:
            for wire in body["messages"]:
                if wire.get("tool_calls") and len(wire["tool_calls"]) > 1:
                    wire["tool_calls"].pop()
        else:
            body["messages"][-1]["content"] = float("nan")
        return body

    base = CODECS["openai"]
    return Codec("lossy", base.from_request, base.from_response, to_request, base.stream, True, False)


def test_a_writer_that_drops_a_call_is_caught() -> None:
    """check_sent_back fails when the provider wire loses a call."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("a", "f"), ToolCall("b", "g")])
    with pytest.raises(AssertionError, match="lost data"):
        check_sent_back(_lossy(drop_last_call=True), [turn], may_refuse=False)


def test_a_writer_that_writes_nan_is_caught() -> None:
    """check_sent_back fails when a writer produces something that is not strict JSON."""
    with pytest.raises(AssertionError, match="not JSON"):
        check_sent_back(_lossy(drop_last_call=False), [ChatMessage.user("hi")], may_refuse=False)


def test_a_reader_raising_another_exception_escapes() -> None:
    """An exception that is not a MessageError is not swallowed: it is the finding."""

    def reader(body: object) -> list[ChatMessage]:
        raise KeyError("role")

    base = CODECS["openai"]
    broken = Codec("broken", reader, base.from_response, base.to_request, base.stream, True, True)
    with pytest.raises(KeyError):
        check_request(broken, [])


# -- the command line ---------------------------------------------------------------------------


def _cli_inputs() -> st.SearchStrategy[bytes]:
    """The cli target's inputs: its seeds, or an options byte and any lines."""
    seeded = cli_seeds(seeds("transcript"), {name: seeds(f"{name}_request") for name in SOURCES})
    lines = st.one_of(
        s.arbitrary_json().map(lambda value: json.dumps(value).encode()),
        st.binary(max_size=40),
        st.sampled_from([b"", b" ", b"\x0c", b"\xef\xbb\xbf[]", b'{"a": 1, "a": 2}', b"[" * 1100]),
    )
    made = st.builds(
        lambda options, items: cli_input(options, b"\n".join(items)),
        st.integers(0, 255),
        st.lists(lines, max_size=6),
    )
    return st.one_of(st.sampled_from(seeded), made)


@settings(max_examples=30, deadline=None)
@given(_cli_inputs())
@example(b"\x00PAR1")  # a plain file of Parquet's magic bytes only: read as Parquet, and not read
def test_the_command_line_keeps_the_fuzz_invariant(data: bytes) -> None:
    """check gives one printable line per problem, the same in text and JSON, with the status of its verdict
    and every line counted; convert to every provider writes bodies that read back the same."""
    check_cli(data)


def test_the_cli_invariant_catches_a_forged_report_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_cli fails when the text report is not escaped: a line separator in a key, which a
    path keeps (JSON escapes a newline, not U+2028), forges a line where a viewer breaks lines."""
    monkeypatch.setattr(_cli, "_report", lambda line: line + "\n")
    call = {"id": "c", "type": "function", "function": {"name": "f", "k\u2028forged:1: x": 1}}
    line = json.dumps(
        [{"role": "assistant", "content": None, "tool_calls": [call]}, {"role": "user", "content": "?"}]
    )
    with pytest.raises(AssertionError, match="is not the JSON problem"):
        check_cli(cli_input(0, line.encode()))


_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"


@pytest.mark.parametrize(
    "messages",
    [
        # An assistant's image: OpenAI's rules refuse it there (found by openai_request).
        [{"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": _PNG}}]}],
        # An image, then two text parts: Ollama sends the image and the text joined
        # (found by openai_request, sending what OpenAI read to Ollama).
        [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": _PNG}},
                    {"type": "text", "text": "What is "},
                    {"type": "text", "text": "in this?"},
                ],
            }
        ],
    ],
)
def test_the_request_invariant_takes_what_the_wires_say_of_parts(messages: list[dict[str, Any]]) -> None:
    """What the fuzzer found were gaps in the invariant, not in toolturns: a part OpenAI refuses
    in that role may be refused, and Ollama's one text and one list of images count as such."""
    check_request(CODECS["openai"], {"messages": messages})


@settings(max_examples=40)
@given(st.sampled_from(sorted(TOOL_TARGETS)), st.data())
def test_the_tool_runners_targets_keep_their_invariants(target: str, data: st.DataObject) -> None:
    """repair, mcp.tool / tool_result, Tool.validate and run_calls (issue #16's fuzz targets): a value
    or toolturns' own error for any input, and what each promises besides."""
    TOOL_TARGETS[target](data.draw(near_seeds(target)))


def test_the_repair_invariant_catches_a_repair_that_leaves_a_call_unanswered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A repair that changed nothing would leave the unanswered call: the invariant says so."""
    from toolturns import Repaired

    monkeypatch.setattr(tool_targets, "repair", lambda messages: Repaired(list(messages), ()))
    turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    with pytest.raises(AssertionError, match="left after repair"):
        tool_targets.check_repair(
            [ChatMessage.user("Time?").to_wire(), turn.to_wire(), ChatMessage.user("?").to_wire()]
        )

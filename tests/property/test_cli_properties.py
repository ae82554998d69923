"""Property tests of the command line: whatever the lines of a file hold, ``check`` and
``convert`` report and go on; they never crash, and never exit 2 on a readable file."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolturns import ChatMessage, Tool, ToolCall, anthropic, gemini, ollama, openai
from toolturns._cli import main
from toolturns.providers import PROVIDERS

from . import strategies as s

TARGETS = tuple(PROVIDERS)

# Each example writes a file and runs a whole command: fewer examples than the
# value-object properties, which run in microseconds.
FEW = settings(max_examples=40)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every example (hypothesis refuses function-scoped fixtures)."""
    return tmp_path_factory.mktemp("cli")


def run(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` with stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def _text(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


_MESSAGES = st.lists(
    st.one_of(s.message_dicts(), s.small_chat_messages().map(ChatMessage.to_wire)), max_size=5
)
_TOOLS = st.lists(
    st.one_of(
        st.builds(
            lambda name: openai.tool_definition(Tool(name)), st.sampled_from(["get_weather", "get_time"])
        ),
        s.arbitrary_json(),
    ),
    max_size=3,
)
# Lines as they come in real files: transcripts, near-transcripts, any JSON,
# native bodies of every provider, and bytes that are not even UTF-8.
_LINES = st.one_of(
    _MESSAGES.map(_text),
    st.fixed_dictionaries({"messages": _MESSAGES}, optional={"tools": _TOOLS}).map(_text),
    s.arbitrary_json().map(_text),
    s.mutated(st.builds(lambda m: {"messages": m}, _MESSAGES)).map(_text),
    st.binary(max_size=30),
)


@st.composite
def _native_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A provider's request body for a small tool exchange."""
    call = ToolCall("call_1", "get_weather", draw(s.argument_mappings(deep=False)))
    messages = [ChatMessage.user("Weather?"), ChatMessage.assistant_tool_calls([call])]
    if draw(st.booleans()):
        messages.append(ChatMessage.tool_result("call_1", draw(s.unicode_text())))
    codec = draw(st.sampled_from([openai, anthropic, gemini, ollama]))
    body: dict[str, Any] = codec.to_request(messages, tools=[Tool("get_weather")])
    return body


# Native bodies as they are, and with a mistake somewhere inside.
_NATIVE = st.one_of(_native_bodies(), s.mutated(_native_bodies())).map(_text)


def _file(folder: Path, lines: list[bytes]) -> tuple[str, list[bytes]]:
    """Write the lines; the path, and the file's lines as the CLI reads them (split at newlines only)."""
    data = b"\n".join(lines)
    if data.startswith((b"\x1f\x8b", b"PAR1")):
        # The gzip or Parquet magic: the file is read as gzip or Parquet, and a broken one is an
        # I/O error (status 2, tested apart; hypothesis found b"PAR1"). No JSON text starts so.
        data = b" " + data
    path = folder / "lines.jsonl"
    path.write_bytes(data)
    return str(path), data.split(b"\n")


def _blank(number: int, line: bytes) -> bool:
    """Whether the CLI skips the line: JSON's whitespace only (a line of vertical tabs is not
    blank, and not JSON either), after the byte order mark a file may start with."""
    if number == 1:
        line = line.removeprefix(b"\xef\xbb\xbf")
    return not line.strip(b" \t\r\n")


@FEW
@given(lines=st.lists(_LINES, max_size=6), target=st.sampled_from([None, *TARGETS]))
@example(lines=[b"\x0b"], target=None)  # found by hypothesis: not blank, and not JSON
@example(lines=[b"\xef\xbb\xbf"], target=None)  # found by hypothesis: a byte order mark only
@example(lines=[b"PAR1"], target=None)  # found by hypothesis: Parquet's magic bytes, which _file guards
def test_check_never_crashes(folder: Path, lines: list[bytes], target: str | None) -> None:
    """``check`` on any lines exits 0 or 1; every JSON output line names a line of the file."""
    argv = ["check", "--format", "json"] + (["--target", target] if target else [])
    path, read = _file(folder, lines)
    status, out, err = run([*argv, path])
    assert status in (0, 1), err
    # Split at newlines only: U+0085 and U+2028 may stand in output JSON as they are.
    numbers = {json.loads(text)["line"] for text in out.split("\n")[:-1]}
    assert numbers <= {number for number, line in enumerate(read, 1) if not _blank(number, line)}
    assert (status == 1) == bool(out)


@FEW
@given(
    lines=st.lists(st.one_of(_LINES, _NATIVE), max_size=6),
    source=st.sampled_from(TARGETS),
    target=st.sampled_from(TARGETS),
    keep=st.booleans(),
)
@example(lines=[b"\xef\xbb\xbf"], source="openai", target="openai", keep=False)  # found by hypothesis
@example(lines=[b"\x0b"], source="openai", target="openai", keep=False)
def test_convert_never_crashes(
    folder: Path, lines: list[bytes], source: str, target: str, keep: bool
) -> None:
    """``convert`` on any lines exits 0 or 1; each line is written as JSON or reported, never both."""
    argv = ["convert", "--from", source, "--to", target] + (["--keep-invalid-arguments"] if keep else [])
    path, read = _file(folder, lines)
    status, out, err = run([*argv, path])
    assert status in (0, 1), err
    written = [json.loads(text) for text in out.split("\n")[:-1]]
    skipped = err.split("\n")[:-2]  # the summary line, and the empty string after it
    assert len(written) + len(skipped) == sum(
        1 for number, line in enumerate(read, 1) if not _blank(number, line)
    )
    assert (status == 1) == bool(skipped)

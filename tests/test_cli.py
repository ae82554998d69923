"""The ``toolturns`` command line: ``check`` and ``convert`` in process (for coverage), the
real console script in subprocesses (exit codes, stdin, gzip, bad files, flat memory),
and the codecs' tool readers that ``convert --from`` uses."""

from __future__ import annotations

import contextlib
import gzip
import importlib
import io
import json
import os
import re
import runpy
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolturns
from toolturns import (
    ChatMessage,
    InvalidTool,
    InvalidTranscript,
    Tool,
    ToolCall,
    __version__,
    anthropic,
    gemini,
    ollama,
    openai,
)
from toolturns import _cli as cli
from toolturns._errors import describe
from toolturns.providers import PROVIDERS as REGISTRY
from toolturns.providers import Codec

TOOLTURNS = Path(sys.executable).parent / "toolturns"
#: Every registered wire's codec (OpenAI Responses included), by name.
PROVIDERS: dict[str, Codec] = {name: provider.codec for name, provider in REGISTRY.items()}

WEATHER = Tool(
    "get_weather",
    "Current weather in a city",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
PARIS = ToolCall("call_1", "get_weather", {"city": "Paris"})
GOOD = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather in Paris?"),
    ChatMessage.assistant_tool_calls([PARIS]),
    ChatMessage.tool_result("call_1", '{"temperature": 18}'),
    ChatMessage.assistant("18 °C in Paris."),
]
# The call is left unanswered: a user turn comes before its result.
UNANSWERED = [
    ChatMessage.user("Weather in Paris?"),
    ChatMessage.assistant_tool_calls([PARIS]),
    ChatMessage.user("Hello?"),
]
# Ends on the call turn: fine unless --no-pending.
PENDING = GOOD[:3]


# -- helpers ------------------------------------------------------------------------------


def line(
    messages: Sequence[ChatMessage], tools: Sequence[Tool] | None = None, **other: Any
) -> dict[str, Any]:
    """One fine-tuning line: ``{"messages": [...], "tools": [...]?}`` plus other keys."""
    value: dict[str, Any] = {"messages": [m.to_wire() for m in messages]}
    if tools is not None:
        value["tools"] = [openai.tool_definition(tool) for tool in tools]
    return {**value, **other}


def jsonl(*items: object) -> bytes:
    """JSONL bytes: a value per line, bytes and str lines written as they are."""
    lines = []
    for item in items:
        if isinstance(item, bytes):
            lines.append(item)
        elif isinstance(item, str):
            lines.append(item.encode())
        else:
            lines.append(json.dumps(item, ensure_ascii=False).encode())
    return b"".join(part + b"\n" for part in lines)


def write(path: Path, *items: object) -> str:
    """Write ``items`` as JSONL (gzip-compressed for a .gz name) and return the path as a str."""
    data = jsonl(*items)
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return str(path)


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` in process: its status, stdout and stderr."""
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def summary(err: str) -> str:
    """The summary line, with the time taken replaced by T."""
    return re.sub(r"in \d+\.\d s", "in T s", err.splitlines()[-1])


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves 0.1 s each time the CLI reads it: progress is due every other line."""
    now = [1000.0]

    def tick() -> float:
        now[0] += 0.1
        return now[0]

    monkeypatch.setattr(cli, "monotonic", tick)


def stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """Make ``data`` the process's standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# -- check: what it reports -----------------------------------------------------------------


def test_check_clean_file_exits_0_with_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file of valid transcripts prints nothing on stdout, a summary on stderr, and exits 0."""
    path = write(tmp_path / "data.jsonl", line(GOOD, [WEATHER]), line(GOOD))
    status, out, err = call(capsys, "check", path)
    assert (status, out) == (0, "")
    assert summary(err) == "checked 2 transcripts in T s: no problems"


def test_check_reports_file_line_path_code_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each problem is one line FILE:LINE: PATH: CODE: MESSAGE; problems found exit 1."""
    path = write(tmp_path / "data.jsonl", line(GOOD), line(UNANSWERED))
    status, out, err = call(capsys, "check", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:2: messages[1].tool_calls[0]: unanswered_call: call 'call_1' (get_weather) has no tool "
        "result before messages[2] (user); every call must be answered right after its assistant turn"
    ]
    assert summary(err) == "checked 2 transcripts in T s: 1 with problems"


def test_check_reads_bare_lists_and_ignores_other_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line may be a bare array of messages; keys other than messages and tools are ignored."""
    bare = [m.to_wire() for m in GOOD]
    path = write(tmp_path / "data.jsonl", bare, line(GOOD, weight=1, metadata={"source": "x"}))
    assert call(capsys, "check", path)[:2] == (0, "")


def test_check_skips_blank_lines_but_counts_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Blank and whitespace-only lines are not transcripts, but line numbers still count them."""
    path = write(tmp_path / "data.jsonl", line(GOOD), "", "  \t\r", line(UNANSWERED))
    status, out, err = call(capsys, "check", path)
    assert status == 1
    assert out.startswith(f"{path}:4: messages[1].tool_calls[0]: unanswered_call: ")
    assert summary(err) == "checked 2 transcripts in T s: 1 with problems"


def test_check_one_transcript_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary says "1 transcript", not "1 transcripts"."""
    path = write(tmp_path / "data.jsonl", line(UNANSWERED))
    assert summary(call(capsys, "check", path)[2]) == "checked 1 transcript in T s: 1 with problems"


def test_check_empty_file_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file has no transcripts and no problems."""
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    status, out, err = call(capsys, "check", str(path))
    assert (status, out, summary(err)) == (0, "", "checked 0 transcripts in T s: no problems")


def test_check_bad_lines_are_problems_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line that is not UTF-8 or not JSON is an invalid_json problem at that line; the lines after are checked."""
    path = write(
        tmp_path / "data.jsonl",
        b'{"messages": [{"role": "user", "content": "caf\xe9"}]}',
        '{"messages": [',
        '{"messages" [1]}',
        '{"messages": [{"role": "user", "content": NaN}]}',
        '{"messages": [{"role": "user", "content": 1e999}]}',
        "[" * 100_000 + "]" * 100_000,
        line(UNANSWERED),
    )
    status, out, _ = call(capsys, "check", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:1: line: invalid_json: must be UTF-8 text, got byte 0xe9 at byte 47 (invalid continuation byte)",
        f"{path}:2: line: invalid_json: is not JSON: Expecting value at the end of the line",
        f"{path}:3: line: invalid_json: is not JSON: Expecting ':' delimiter at character 13",
        f"{path}:4: line: invalid_json: is not JSON: NaN is not JSON",
        f"{path}:5: line: invalid_json: is not JSON: the number 1e999 is out of range",
        f"{path}:6: line: invalid_json: is not JSON toolturns reads: arrays and objects nest deeper than "
        f"toolturns' limit (about {sys.getrecursionlimit()} levels, Python's recursion limit)",
        f"{path}:7: messages[1].tool_calls[0]: unanswered_call: call 'call_1' (get_weather) has no tool "
        "result before messages[2] (user); every call must be answered right after its assistant turn",
    ]


def test_check_accepts_a_byte_order_mark_on_the_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A UTF-8 byte order mark at the start of the file (Windows editors write one) is not part of the JSON."""
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + jsonl(line(GOOD), line(GOOD)))
    assert call(capsys, "check", str(path))[:2] == (0, "")


def test_check_byte_order_mark_elsewhere_is_invalid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the file's first line may start with a byte order mark."""
    path = tmp_path / "bom.jsonl"
    path.write_bytes(jsonl(line(GOOD)) + b"\xef\xbb\xbf" + jsonl(line(GOOD)))
    status, out, _ = call(capsys, "check", str(path))
    assert (status, out) == (
        1,
        f"{path}:2: line: invalid_json: is not JSON: Expecting value at character 1\n",
    )


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        (42, "line", 'must be an array of messages or an object with a "messages" array, got number'),
        ("hello", "line", 'must be an array of messages or an object with a "messages" array, got string'),
        (None, "line", 'must be an array of messages or an object with a "messages" array, got null'),
        (
            {"conversation": []},
            "messages",
            'is required: a line must be an array of messages or an object with a "messages" array',
        ),
        ({"messages": {"role": "user"}}, "messages", "must be an array of messages, got object"),
        (
            {"messages": [], "tools": {"name": "x"}},
            "tools",
            "must be an array of tool definitions, got object",
        ),
    ],
)
def test_check_json_that_is_not_a_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object, path: str, message: str
) -> None:
    """JSON that holds no transcript is a not_a_transcript problem naming the key at fault."""
    file = write(tmp_path / "data.jsonl", json.dumps(value))
    status, out, _ = call(capsys, "check", file)
    assert (status, out) == (1, f"{file}:1: {path}: not_a_transcript: {message}\n")


def test_check_tools_null_is_no_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``"tools": null`` says the same as no tools key."""
    path = write(tmp_path / "data.jsonl", {**line(GOOD), "tools": None})
    assert call(capsys, "check", path)[:2] == (0, "")


def test_check_passes_tools_to_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The line's tools are checked with it: a call of a tool not defined is a problem."""
    path = write(tmp_path / "data.jsonl", line(GOOD, [Tool("get_time")]), line(GOOD, [WEATHER]))
    status, out, _ = call(capsys, "check", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:1: messages[2].tool_calls[0].function.name: unknown_tool: "
        "calls 'get_weather', which is not among the tools defined"
    ]


def test_check_target_adds_the_providers_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--target adds that provider's rules: an id over 40 characters is fine in general, not for OpenAI."""
    long_id = "call_" + "x" * 40
    messages = [
        ChatMessage.user("Weather in Paris?"),
        ChatMessage.assistant_tool_calls([ToolCall(long_id, "get_weather", {"city": "Paris"})]),
        ChatMessage.tool_result(long_id, "18"),
    ]
    path = write(tmp_path / "data.jsonl", line(messages))
    assert call(capsys, "check", path)[:2] == (0, "")
    status, out, _ = call(capsys, "check", "--target", "openai", path)
    assert status == 1
    assert out.startswith(f"{path}:1: messages[1].tool_calls[0].id: id_too_long: ")
    assert call(capsys, "check", "--target", "anthropic", path)[:2] == (0, "")


def test_check_no_pending_refuses_a_transcript_ending_on_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A transcript may end on a tool-call turn, unless --no-pending is given."""
    path = write(tmp_path / "data.jsonl", line(PENDING))
    assert call(capsys, "check", path)[:2] == (0, "")
    status, out, _ = call(capsys, "check", "--no-pending", path)
    assert status == 1
    assert out.startswith(f"{path}:1: messages[2].tool_calls[0]: unanswered_call: ")


def test_check_a_safety_net_for_invalid_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should check_transcript raise InvalidTranscript for a line, it becomes a not_a_transcript problem."""

    def refuse(messages: object, **options: object) -> list[object]:
        if messages:
            raise InvalidTranscript("messages", "must be refused here", "list")
        raise InvalidTranscript("", "must be refused too")

    monkeypatch.setattr(cli, "check_transcript", refuse)
    path = write(tmp_path / "data.jsonl", line(GOOD), [])
    status, out, _ = call(capsys, "check", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:1: messages: not_a_transcript: must be refused here, got list",
        f"{path}:2: line: not_a_transcript: must be refused too",
    ]


def test_check_json_format_is_one_object_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--format json writes one compact JSON object per problem: file, line, index, path, code, message."""
    path = write(tmp_path / "data.jsonl", "not json", line(GOOD), line(UNANSWERED))
    status, out, _ = call(capsys, "check", "--format", "json", path)
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == (
        f'{{"file":"{path}","line":1,"index":null,"path":"line","code":"invalid_json",'
        '"message":"is not JSON: Expecting value at character 1"}'
    )
    assert [json.loads(text) for text in lines[1:]] == [
        {
            "file": path,
            "line": 3,
            "index": 1,
            "path": "messages[1].tool_calls[0]",
            "code": "unanswered_call",
            "message": "call 'call_1' (get_weather) has no tool result before messages[2] (user); "
            "every call must be answered right after its assistant turn",
        }
    ]


def test_check_json_format_keeps_non_ascii_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON output is UTF-8 text, not \\u escapes."""
    messages = [{"role": "user", "content": "Météo ?"}, {"role": "assistant", "content": "☀", "name": ""}]
    path = write(tmp_path / "données.jsonl", messages)
    _, out, _ = call(capsys, "check", "--format", "json", path)
    assert json.loads(out)["file"] == path
    assert "données" in out


def test_check_quiet_prints_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--quiet prints no problems and no summary: the exit status says it all."""
    clean = write(tmp_path / "clean.jsonl", line(GOOD))
    broken = write(tmp_path / "broken.jsonl", line(UNANSWERED), "nope")
    assert call(capsys, "check", "--quiet", clean) == (0, "", "")
    assert call(capsys, "check", "-q", broken) == (1, "", "")


def test_check_many_files_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Several files are checked in order; the summary counts them all."""
    first = write(tmp_path / "a.jsonl", line(UNANSWERED))
    second = write(tmp_path / "b.jsonl", line(GOOD), line(UNANSWERED))
    status, out, err = call(capsys, "check", first, second)
    assert status == 1
    assert [text.split(": ")[0] for text in out.splitlines()] == [f"{first}:1", f"{second}:2"]
    assert summary(err) == "checked 3 transcripts in T s: 2 with problems"


# -- check: where it reads from -------------------------------------------------------------


def test_check_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``-`` reads standard input, shown as <stdin> in problem lines."""
    stdin(monkeypatch, jsonl(line(GOOD), line(UNANSWERED)))
    status, out, _ = call(capsys, "check", "-")
    assert status == 1
    assert out.startswith("<stdin>:2: messages[1].tool_calls[0]: unanswered_call: ")
    assert not sys.stdin.closed  # the process's stdin is not ours to close


def test_check_reads_gzip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file whose name ends in .gz is decompressed as it is read."""
    path = write(tmp_path / "data.jsonl.gz", line(GOOD), line(UNANSWERED))
    status, out, _ = call(capsys, "check", path)
    assert status == 1
    assert out.startswith(f"{path}:2: messages[1].tool_calls[0]: unanswered_call: ")


def test_check_missing_file_and_directory_exit_2_and_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that cannot be opened is reported on stderr; the other files are still checked; exit 2."""
    missing = str(tmp_path / "missing.jsonl")
    broken = write(tmp_path / "broken.jsonl", line(UNANSWERED))
    status, out, err = call(capsys, "check", missing, str(tmp_path), broken)
    assert status == 2
    assert out.startswith(f"{broken}:1: ")
    assert err.splitlines()[:2] == [
        f"toolturns: {missing}: No such file or directory",
        f"toolturns: {tmp_path}: Is a directory",
    ]
    assert summary(err) == "2 files not read; checked 1 transcript in T s: 1 with problems"


def test_check_unreadable_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file without read permission is an I/O error."""
    path = tmp_path / "secret.jsonl"
    write(path, line(GOOD))

    def refuse(name: str, mode: str) -> Any:
        # What open() raises for a file without read permission (chmod 0 does
        # not stop root, and the tests may run as root).
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(cli, "open", refuse, raising=False)
    status, _, err = call(capsys, "check", str(path))
    assert status == 2
    assert err.startswith(f"toolturns: {path}: Permission denied\n")


def test_check_bad_gzip_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A gzip file cut short or corrupt is an I/O error; the lines read before it are checked."""
    truncated = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress(jsonl(line(UNANSWERED), *[line(GOOD)] * 2000))
    truncated.write_bytes(whole[: len(whole) // 2])
    corrupt = tmp_path / "corrupt.jsonl.gz"
    corrupt.write_bytes(whole[:20] + b"\xff" * 200 + whole[220:])
    status, out, err = call(capsys, "check", str(truncated), str(corrupt))
    assert status == 2
    assert out.splitlines()[0].startswith(f"{truncated}:1: messages[1].tool_calls[0]: unanswered_call: ")
    lines = err.splitlines()
    assert (
        lines[0]
        == f"toolturns: {truncated}: Compressed file ended before the end-of-stream marker was reached"
    )
    assert lines[1].startswith(f"toolturns: {corrupt}: Error -3 while decompressing data")


def test_gzip_is_known_by_its_first_bytes_not_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain file named .gz is read as text; gzip named anything, or on stdin, is decompressed."""
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_bytes(jsonl(line(UNANSWERED)))
    shouting = tmp_path / "DATA.JSONL.GZ"
    shouting.write_bytes(gzip.compress(jsonl(line(UNANSWERED))))
    unnamed = tmp_path / "data"
    unnamed.write_bytes(gzip.compress(jsonl(line(UNANSWERED))))
    status, out, _ = call(capsys, "check", str(plain), str(shouting), str(unnamed))
    assert status == 1
    assert [row.split(": ")[0] for row in out.splitlines()] == [f"{plain}:1", f"{shouting}:1", f"{unnamed}:1"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(unnamed.read_bytes()))))
    status, out, _ = call(capsys, "check", "-")
    assert (status, out.split(": ")[0]) == (1, "<stdin>:1")


def test_an_empty_file_saved_with_a_byte_order_mark_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file holding only a UTF-8 BOM (an empty file saved by Notepad) has no transcript: exit 0."""
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\xef\xbb\xbf")
    status, out, err = call(capsys, "check", str(path))
    assert (status, out) == (0, "")
    assert summary(err) == "checked 0 transcripts in T s: no problems"


# -- progress ---------------------------------------------------------------------------------


def test_progress_on_a_terminal_is_redrawn_and_cleared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clock: None
) -> None:
    """On a terminal, stderr shows lines read and lines/s in place, cleared before problems and the summary."""
    path = write(tmp_path / "data.jsonl", *[line(GOOD)] * 5, line(UNANSWERED))
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["check", path]) == 1
    shown = terminal.getvalue()
    assert re.fullmatch(
        r"(\r\d+ lines read, \d+ lines/s *)+\r +\r" r"checked 6 transcripts in \d+\.\d s: 1 with problems\n",
        shown,
    ), shown
    assert "\r2 lines read, " in shown
    assert capsys.readouterr().out.startswith(f"{path}:6: ")


def test_progress_clears_itself_before_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clock: None
) -> None:
    """An error message on the terminal starts on a clean line, not after the progress text."""
    path = write(tmp_path / "data.jsonl", *[line(GOOD)] * 4)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["check", path, str(tmp_path / "missing.jsonl")]) == 2
    assert re.search(
        r"lines/s *\r +\rtoolturns: \S+missing.jsonl: No such file or directory\n", terminal.getvalue()
    )


def test_no_progress_when_stderr_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: None
) -> None:
    """Redirected to a file or a pipe, stderr gets the summary only, no progress."""
    path = write(tmp_path / "data.jsonl", *[line(GOOD)] * 5)
    _, _, err = call(capsys, "check", path)
    assert "\r" not in err
    assert err.count("\n") == 1


def test_no_progress_when_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: None) -> None:
    """--quiet draws no progress, even on a terminal."""
    path = write(tmp_path / "data.jsonl", *[line(GOOD)] * 5)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["check", "--quiet", path]) == 0
    assert terminal.getvalue() == ""


# -- the parser -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["check"],
        ["frobnicate", "x"],
        ["check", "--target", "mistral", "x.jsonl"],
        ["check", "--format", "yaml", "x.jsonl"],
        ["convert", "x.jsonl"],
        ["convert", "--to", "cohere", "x.jsonl"],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """A usage error prints the usage on stderr and returns 2 (no SystemExit escapes main)."""
    status, out, err = call(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: toolturns")


def test_version_and_help_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints "toolturns <version>"; --help lists the commands; both return 0."""
    assert call(capsys, "--version") == (0, f"toolturns {__version__}\n", "")
    status, out, _ = call(capsys, "--help")
    assert status == 0
    assert "check" in out
    assert "convert" in out
    status, out, _ = call(capsys, "check", "--help")
    assert status == 0
    assert all(option in out for option in ("--target", "--format", "--quiet", "--no-pending", "FILE"))


# -- run(): the console script's entry --------------------------------------------------------


def test_run_exits_with_mains_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """run() reads sys.argv and exits with main's status."""
    path = write(tmp_path / "data.jsonl", line(UNANSWERED))
    monkeypatch.setattr(sys, "argv", ["toolturns", "check", path])
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 1
    assert capsys.readouterr().out.startswith(f"{path}:1: ")


def test_run_writes_utf8_to_a_text_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """run() writes UTF-8 whatever the locale's encoding, and a lone surrogate as its JSON escape."""
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="latin-1"))
    path = write(tmp_path / "data.jsonl", '[{"role": "user", "content": "☀ \\ud800"}]')
    monkeypatch.setattr(sys, "argv", ["toolturns", "convert", "--to", "openai", path])
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 0
    written = raw.getvalue().decode("utf-8")
    assert written == '{"messages":[{"role":"user","content":"☀ \\ud800"}]}\n'
    assert json.loads(written)["messages"][0]["content"] == "☀ \ud800"


def test_run_takes_any_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stdout that cannot be reconfigured (a plain StringIO) is written as it is."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "argv", ["toolturns", "check", write(tmp_path / "data.jsonl", line(UNANSWERED))])
    with pytest.raises(SystemExit):
        cli.run()
    assert "unanswered_call" in out.getvalue()


class ClosedPipe(io.StringIO):
    """A stdout whose reader went away: writing raises BrokenPipeError."""

    def __init__(self, fileno: int) -> None:
        super().__init__()
        self._fileno = fileno

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        return self._fileno


def test_run_closed_pipe_exits_2_quietly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the reader of stdout goes away (| head), run() exits 2 without a traceback, stdout on /dev/null."""
    with open(tmp_path / "stdout", "wb") as target:
        monkeypatch.setattr(sys, "stdout", ClosedPipe(target.fileno()))
        monkeypatch.setattr(
            sys, "argv", ["toolturns", "check", write(tmp_path / "data.jsonl", line(UNANSWERED))]
        )
        with pytest.raises(SystemExit) as stop:
            cli.run()
    assert stop.value.code == 2
    assert capsys.readouterr().err == ""


def test_run_broken_pipe_with_stdout_closed_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken pipe with no stdout to point at /dev/null (started with >&-) is still status 2,
    not an AttributeError out of the handler."""

    def broken_pipe(argv: Sequence[str] | None = None) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "main", broken_pipe)
    monkeypatch.setattr(sys, "stdout", None)
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 2
    assert capsys.readouterr().err == ""


def test_run_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C ends the run with status 130 and a newline, not a traceback."""

    def interrupted(argv: Sequence[str] | None = None) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted)
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 130
    assert capsys.readouterr().err == "\n"


class FullDisk(io.StringIO):
    """A stdout on a full disk: writing raises OSError ENOSPC."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_run_output_that_cannot_be_written_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failed write of the output (a full disk) is an I/O error, status 2, never 1 ("lines skipped")."""
    monkeypatch.setattr(sys, "stdout", FullDisk())
    monkeypatch.setattr(
        sys, "argv", ["toolturns", "convert", "--to", "openai", write(tmp_path / "d.jsonl", line(GOOD))]
    )
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 2
    assert capsys.readouterr().err == "toolturns: No space left on device\n"


def test_run_a_bug_exits_2_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unexpected exception is shown, and the status is 2: status 1 would read as "problems found"."""

    def broken(argv: Sequence[str] | None = None) -> int:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "main", broken)
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Traceback")
    assert err.endswith("ZeroDivisionError: a bug\n")


def test_run_with_stderr_and_stdin_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Started with stderr closed (2>&-) the run still gives its status; stdin closed (<&-) is unreadable."""
    monkeypatch.setattr(sys, "stderr", None)
    monkeypatch.setattr(sys, "argv", ["toolturns", "check", write(tmp_path / "d.jsonl", line(GOOD))])
    with pytest.raises(SystemExit) as stop:
        cli.run()
    assert stop.value.code == 0
    assert sys.stderr.name == os.devnull  # where run() sent the reports
    sys.stderr.close()  # run() leaves it open for the life of the process
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    monkeypatch.setattr(sys, "stdin", None)
    assert cli.main(["check", "-"]) == 2
    assert errors.getvalue().startswith("toolturns: <stdin>: standard input is closed\n")


def test_python_m_toolturns_runs_the_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m toolturns`` is the same command line."""
    monkeypatch.setattr(sys, "argv", ["toolturns", "--version"])
    # Imported as a module before (see the next test), it is in sys.modules: runpy warns about that.
    monkeypatch.delitem(sys.modules, "toolturns.__main__", raising=False)
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("toolturns", run_name="__main__")
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"toolturns {toolturns.__version__}\n"


def test_importing_toolturns_main_runs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing ``toolturns.__main__`` (as documentation tools do) does not run the command line."""
    monkeypatch.delitem(sys.modules, "toolturns.__main__", raising=False)
    monkeypatch.setattr(sys, "argv", ["toolturns", "--version"])
    module = importlib.import_module("toolturns.__main__")
    assert module.run is cli.run


# -- convert ----------------------------------------------------------------------------------


@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_writes_one_request_body_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """Each line becomes that provider's to_request body, compact JSON, in order; other keys are not carried."""
    path = write(
        tmp_path / "data.jsonl", line(GOOD, [WEATHER], model="gpt-4o"), [m.to_wire() for m in PENDING]
    )
    status, out, err = call(capsys, "convert", "--to", target, path)
    assert status == 0
    codec = PROVIDERS[target]
    expected = [codec.to_request(GOOD, tools=[WEATHER]), codec.to_request(PENDING)]
    assert [json.loads(text) for text in out.splitlines()] == expected
    assert out.splitlines()[0] == json.dumps(expected[0], ensure_ascii=False, separators=(",", ":"))
    assert summary(err) == "read 2 transcripts in T s: 2 converted, 0 skipped"


def test_convert_skips_lines_it_cannot_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line that cannot be converted is reported on stderr as FILE:LINE: PATH: MESSAGE and skipped; exit 1."""
    orphan = [ChatMessage.user("Hi"), ChatMessage.tool_result("call_9", "18")]
    path = write(
        tmp_path / "data.jsonl",
        line(GOOD),
        "{oops",
        {"conversation": []},
        "",
        [{"role": "user", "content": 5}],
        line(orphan),
        {"messages": [], "tools": [{"type": "function", "function": {"name": "bad name"}}]},
        line(GOOD),
    )
    status, out, err = call(capsys, "convert", "--to", "anthropic", path)
    assert status == 1
    assert len(out.splitlines()) == 2
    assert err.splitlines()[:-1] == [
        f"{path}:2: line: is not JSON: Expecting property name enclosed in double quotes at character 2",
        f'{path}:3: messages: is required: a line must be an array of messages or an object with a "messages" array',
        f"{path}:5: messages[0].content: must be a string or a list of content parts, got 5",
        f"{path}:6: messages[1].tool_call_id: must follow an assistant turn with tool calls ("
        "Anthropic answers 400: 'Each tool_result block must have a corresponding tool_use block in the "
        "previous message'), got 'call_9'",
        f"{path}:7: tools[0].function.name: must match ^[a-zA-Z0-9_.:-]{{1,128}}$, got 'bad name'",
    ]
    assert summary(err) == "read 7 transcripts in T s: 2 converted, 5 skipped"


def test_convert_error_without_a_path_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error about the whole line (its path is empty) is reported at ``line``."""
    path = write(tmp_path / "data.jsonl", "[5]", '"text"')
    status, _, err = call(capsys, "convert", "--from", "gemini", "--to", "openai", path)
    assert status == 1
    assert err.splitlines()[:2] == [
        f"{path}:1: contents[0]: must be a Content object, got 5",
        f"{path}:2: line: must be a request body ({{\"contents\": [...]}}) or an array of contents, got 'text'",
    ]


def test_convert_keep_invalid_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed arguments skip the line for object wires, unless --keep-invalid-arguments wraps them."""
    broken = [
        ChatMessage.user("Weather?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", '{"city": "Par')]),
    ]
    path = write(tmp_path / "data.jsonl", line(broken))
    status, out, err = call(capsys, "convert", "--to", "ollama", path)
    assert (status, out) == (1, "")
    assert err.startswith(f"{path}:1: messages[1].tool_calls[0].arguments: must be valid JSON")
    status, out, _ = call(capsys, "convert", "--to", "ollama", "--keep-invalid-arguments", path)
    assert status == 0
    assert json.loads(out) == ollama.to_request(broken, keep_invalid_arguments=True)
    # The OpenAI wire carries the text as it is, with or without the option.
    for options in ([], ["--keep-invalid-arguments"]):
        status, out, _ = call(capsys, "convert", "--to", "openai", *options, path)
        assert (status, json.loads(out)) == (0, openai.to_request(broken))


def test_check_and_convert_refuse_arguments_an_object_would_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repeated key is inexact_arguments for check --target anthropic and skips the line in
    convert --to gemini, both naming the flag; with it, convert sends the text exactly, wrapped."""
    raw = '{"city": "Paris", "city": "Rome"}'
    messages = [
        ChatMessage.user("Weather?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", raw)]),
        ChatMessage.tool_result("call_1", "18"),
    ]
    path = write(tmp_path / "data.jsonl", line(messages))
    assert call(capsys, "check", path)[:2] == (0, "")
    status, out, _ = call(capsys, "check", "--target", "anthropic", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:1: messages[1].tool_calls[0].function.arguments: inexact_arguments: repeated key 'city': "
        "anthropic carries arguments as an object, which holds one value per key and numbers as doubles, "
        "so this text cannot be sent as it is (convert --keep-invalid-arguments sends it exactly, wrapped)"
    ]
    status, out, err = call(capsys, "convert", "--to", "gemini", path)
    assert (status, out) == (1, "")
    assert err.startswith(
        f"{path}:1: messages[1].tool_calls[0].arguments: repeated key 'city': gemini carries arguments as an "
        "object, which holds one value per key and numbers as doubles (--keep-invalid-arguments sends the text "
        "exactly, wrapped as {'_toolturns_raw_arguments': text}), got "
    )
    status, out, _ = call(capsys, "convert", "--to", "gemini", "--keep-invalid-arguments", path)
    assert status == 0
    assert json.loads(out) == gemini.to_request(messages, keep_invalid_arguments=True)
    assert gemini.from_request(json.loads(out))[1] == messages[1]
    turn = gemini.from_request(json.loads(out))[1]
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments_json == raw


def test_convert_refuses_a_number_an_object_would_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1e-400 is not sent to Gemini as 0.0: the line is skipped, naming the number."""
    messages = [
        ChatMessage.user("Where?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "locate", '{"lat": 1e-400}')]),
    ]
    path = write(tmp_path / "data.jsonl", line(messages))
    status, out, err = call(capsys, "convert", "--to", "gemini", path)
    assert (status, out) == (1, "")
    assert err.startswith(
        f"{path}:1: messages[1].tool_calls[0].arguments.lat: the number 1e-400 would be sent as 0.0: "
    )
    status, out, _ = call(capsys, "check", "--target", "gemini", "--format", "json", path)
    assert status == 1
    assert [json.loads(row)["code"] for row in out.splitlines()] == ["inexact_arguments"]


@pytest.mark.parametrize("source", list(PROVIDERS))
@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_from_each_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, target: str
) -> None:
    """--from reads each line as that provider's request body, messages and tools, model and options aside."""
    codec = PROVIDERS[source]
    body = {"model": "some-model", **codec.to_request(GOOD, tools=[WEATHER, Tool("get_time")])}
    path = write(tmp_path / "data.jsonl", body, codec.to_request(PENDING))
    status, out, err = call(capsys, "convert", "--from", source, "--to", target, path)
    assert status == 0, err
    expected = [
        PROVIDERS[target].to_request(codec.from_request(body), tools=[WEATHER, Tool("get_time")]),
        PROVIDERS[target].to_request(codec.from_request(codec.to_request(PENDING))),
    ]
    assert [json.loads(text) for text in out.splitlines()] == expected


def test_convert_from_a_bare_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bare list of native messages is read too (no tools then)."""
    native = anthropic.to_request(GOOD[1:])["messages"]
    path = write(tmp_path / "data.jsonl", native)
    status, out, _ = call(capsys, "convert", "--from", "anthropic", "--to", "openai", path)
    assert (status, json.loads(out)) == (0, openai.to_request(GOOD[1:]))


@pytest.mark.parametrize(
    ("source", "tools", "error"),
    [
        ("ollama", {"name": "x"}, "tools: must be an array of tool definitions, got dict"),
        ("openai", [{"type": "function", "function": 5}], "tools[0].function: must be an object, got 5"),
        (
            "anthropic",
            [{"name": "web_search", "type": "web_search_20250305"}],
            "tools[0].type: must be 'custom'",
        ),
        (
            "gemini",
            [{"googleSearch": {}}],
            "tools[0].googleSearch: is a Gemini tool, not a function declaration",
        ),
    ],
)
def test_convert_tools_in_the_wrong_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, tools: object, error: str
) -> None:
    """Tools are read in the source provider's own shape; a tool that does not read skips the line."""
    body = {**PROVIDERS[source].to_request(GOOD), "tools": tools}
    path = write(tmp_path / "data.jsonl", body)
    status, out, err = call(capsys, "convert", "--from", source, "--to", "openai", path)
    assert (status, out) == (1, "")
    assert err.startswith(f"{path}:1: {error}")


def test_convert_io_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """convert reports a file it cannot read, converts the others (stdin too), and exits 2."""
    stdin(monkeypatch, jsonl(line(GOOD)))
    status, out, err = call(capsys, "convert", "--to", "gemini", str(tmp_path / "missing.jsonl"), "-")
    assert status == 2
    assert json.loads(out) == gemini.to_request(GOOD)
    assert err.splitlines()[0] == f"toolturns: {tmp_path / 'missing.jsonl'}: No such file or directory"
    assert summary(err) == "1 file not read; read 1 transcript in T s: 1 converted, 0 skipped"


def test_convert_progress_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clock: None
) -> None:
    """convert shows progress on a terminal too, cleared before a skipped line's report."""
    path = write(tmp_path / "data.jsonl", *[line(GOOD)] * 4, "nope")
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["convert", "--to", "openai", path]) == 1
    assert re.search(r"lines/s *\r +\r\S+:5: line: is not JSON", terminal.getvalue())


# -- reading tools in each provider's shape -----------------------------------------------------

TOOLS = [
    Tool("get_time"),
    Tool("get_forecast", "The forecast for the next days"),
    WEATHER,
    Tool("search", "", {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}),
]


def test_anthropic_reads_back_its_tool_definitions() -> None:
    """anthropic.read_tools(tool_definition(t)) == t, also through to_request's tools."""
    assert anthropic.read_tools([anthropic.tool_definition(tool) for tool in TOOLS]) == TOOLS
    assert anthropic.read_tools(anthropic.to_request([], tools=TOOLS)["tools"]) == TOOLS
    custom = {
        "type": "custom",
        "name": "get_time",
        "input_schema": {},
        "cache_control": {"type": "ephemeral"},
    }
    assert anthropic.read_tools([custom, {**custom, "description": None}]) == [Tool("get_time")] * 2


@pytest.mark.parametrize(
    ("tools", "error"),
    [
        ({"name": "x"}, "tools: must be an array of tool definitions, got dict"),
        (["x"], "tools[0]: must be an object (a tool definition), got 'x'"),
        (
            [{"type": "bash_20250124", "name": "bash"}],
            "tools[0].type: must be 'custom' or absent: a server tool is Anthropic's own and cannot be carried "
            "elsewhere, got 'bash_20250124'",
        ),
        ([{"name": "x"}], "tools[0].input_schema: is required (Anthropic answers 400 without it)"),
        (
            [{"name": "x", "input_schema": {}, "title": "X"}],
            "tools[0].title: is not a key of a tool toolturns carries (name, description, input_schema, strict), "
            "got 'X'",
        ),
        (
            [{"name": "x y", "input_schema": {}}],
            "tools[0].name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'x y'",
        ),
        (
            [{"name": "x", "description": 5, "input_schema": {}}],
            "tools[0].description: must be a string, got 5",
        ),
        (
            [{"name": "x", "input_schema": {"type": "array"}}],
            "tools[0].input_schema.type: must be 'object' (arguments are a JSON object), got 'array'",
        ),
        (
            [{"name": "x", "input_schema": []}],
            "tools[0].input_schema: must be a JSON-schema object (a mapping) or None, got list",
        ),
    ],
)
def test_anthropic_tool_errors_name_the_native_path(tools: object, error: str) -> None:
    """A tool definition that does not read raises InvalidTool with its native path."""
    with pytest.raises(InvalidTool) as raised:
        anthropic.read_tools(tools)
    assert str(raised.value) == error


def test_gemini_reads_back_its_tool_definitions() -> None:
    """gemini.read_tools over tool_definition(t) == t; snake_case, single objects and parametersJsonSchema too."""
    assert gemini.read_tools([{"functionDeclarations": [gemini.tool_definition(t) for t in TOOLS]}]) == TOOLS
    assert gemini.read_tools(gemini.to_request([], tools=TOOLS)["tools"]) == TOOLS
    snake = {"function_declarations": {"name": "get_weather", "description": "Current weather in a city",
                                       "parameters_json_schema": WEATHER.parameters}}  # fmt: skip
    assert gemini.read_tools(snake) == [WEATHER]
    assert gemini.read_tools([{"functionDeclarations": []}, {}]) == []


@pytest.mark.parametrize(
    ("tools", "error"),
    [
        ("x", "tools: must be an array of Tool objects, got 'x'"),
        ([5], "tools[0]: must be a Tool object, got 5"),
        (
            [{"functionDeclarations": [], "codeExecution": {}}],
            "tools[0].codeExecution: is a Gemini tool, not a function declaration: it cannot be carried elsewhere, "
            "got dict",
        ),
        (
            [{"functionDeclarations": 5}],
            "tools[0].functionDeclarations: must be an array of declarations, got 5",
        ),
        (
            [{"functionDeclarations": [{"name": "x", "behavior": "NON_BLOCKING"}]}],
            "tools[0].functionDeclarations[0].behavior: is not a key of a function declaration toolturns carries "
            "(name, description, parameters or parametersJsonSchema), got 'NON_BLOCKING'",
        ),
        (
            [{"functionDeclarations": [{"name": "x", "parameters": {}, "parametersJsonSchema": {}}]}],
            "tools[0].functionDeclarations[0].parametersJsonSchema: must not be given with parameters "
            "(Gemini takes one or the other)",
        ),
        (
            [{"functionDeclarations": [{"name": "get weather"}]}],
            "tools[0].functionDeclarations[0].name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'get weather'",
        ),
        (
            # Gemini's Schema spells types in capitals: "ARRAY" reads as JSON Schema's "array".
            [{"functionDeclarations": [{"name": "x", "parameters": {"type": "ARRAY"}}]}],
            "tools[0].functionDeclarations[0].parameters.type: must be 'object' (arguments are a JSON object), "
            "got 'array'",
        ),
        (
            [{"functionDeclarations": [{"name": "x", "parametersJsonSchema": {"type": "string"}}]}],
            "tools[0].functionDeclarations[0].parametersJsonSchema.type: must be 'object' (arguments are a JSON "
            "object), got 'string'",
        ),
    ],
)
def test_gemini_tool_errors_name_the_native_path(tools: object, error: str) -> None:
    """A Gemini tool that does not read raises InvalidTool with its native path."""
    with pytest.raises(InvalidTool) as raised:
        gemini.read_tools(tools)
    assert str(raised.value) == error


# -- the real console script, in subprocesses ---------------------------------------------------


def script(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``toolturns`` console script."""
    assert TOOLTURNS.exists(), f"{TOOLTURNS} is missing: install the package (pip install -e .)"
    return subprocess.run(
        [str(TOOLTURNS), *args],
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_script_exit_codes_and_output(tmp_path: Path) -> None:
    """The console script exits 0 on a clean file, 1 with problem lines, 2 on a usage error."""
    clean = write(tmp_path / "clean.jsonl", line(GOOD), line(PENDING))
    broken = write(tmp_path / "broken.jsonl", line(GOOD), line(UNANSWERED))
    run = script("check", clean)
    assert (run.returncode, run.stdout) == (0, "")
    assert re.fullmatch(r"checked 2 transcripts in \d+\.\d s: no problems\n", run.stderr)
    run = script("check", broken)
    assert run.returncode == 1
    assert run.stdout.startswith(f"{broken}:2: messages[1].tool_calls[0]: unanswered_call: call 'call_1'")
    assert run.stdout.count("\n") == 1
    run = script("check", "--target", "nobody", clean)
    assert run.returncode == 2
    assert "invalid choice: 'nobody'" in run.stderr
    assert script("--version").stdout == f"toolturns {__version__}\n"


def test_script_reads_stdin(tmp_path: Path) -> None:
    """``toolturns check -`` reads standard input."""
    run = script("check", "--format", "json", "-", stdin=jsonl(line(GOOD), line(UNANSWERED)))
    assert run.returncode == 1
    problem = json.loads(run.stdout)
    assert (problem["file"], problem["line"], problem["code"]) == ("<stdin>", 2, "unanswered_call")


def test_script_reads_gzip(tmp_path: Path) -> None:
    """The console script reads .gz files."""
    path = write(tmp_path / "data.jsonl.gz", line(GOOD), line(UNANSWERED), line(GOOD))
    run = script("check", path)
    assert run.returncode == 1
    assert run.stdout.startswith(f"{path}:2: ")
    assert "checked 3 transcripts" in run.stderr


def test_script_malformed_line_in_the_middle(tmp_path: Path) -> None:
    """A malformed line is reported at its number, and the lines after it are still checked."""
    path = write(tmp_path / "data.jsonl", line(GOOD), '{"messages": [}', line(GOOD), line(UNANSWERED))
    run = script("check", path)
    assert run.returncode == 1
    assert [text.split(": ")[:3] for text in run.stdout.splitlines()] == [
        [f"{path}:2", "line", "invalid_json"],
        [f"{path}:4", "messages[1].tool_calls[0]", "unanswered_call"],
    ]
    assert "checked 4 transcripts" in run.stderr
    assert "2 with problems" in run.stderr


def test_script_empty_missing_and_directory(tmp_path: Path) -> None:
    """An empty file is clean (exit 0); a missing file or a directory is an I/O error (exit 2), no traceback."""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    run = script("check", str(empty))
    assert (run.returncode, run.stdout) == (0, "")
    assert "checked 0 transcripts" in run.stderr
    run = script("check", str(tmp_path / "missing.jsonl"))
    assert run.returncode == 2
    assert run.stderr.startswith(f"toolturns: {tmp_path / 'missing.jsonl'}: No such file or directory\n")
    run = script("check", str(tmp_path), str(empty))
    assert run.returncode == 2
    assert run.stderr.startswith(f"toolturns: {tmp_path}: Is a directory\n")
    assert "Traceback" not in run.stderr


def test_script_convert(tmp_path: Path) -> None:
    """``toolturns convert`` writes the bodies on stdout, reports skipped lines on stderr, exits 1 if any."""
    path = write(tmp_path / "data.jsonl", line(GOOD, [WEATHER]), "[", line(GOOD))
    run = script("convert", "--to", "anthropic", path)
    assert run.returncode == 1
    assert [json.loads(text) for text in run.stdout.splitlines()] == [
        anthropic.to_request(GOOD, tools=[WEATHER]),
        anthropic.to_request(GOOD),
    ]
    assert run.stderr.startswith(f"{path}:2: line: is not JSON: Expecting value at the end of the line\n")


def test_python_m_toolturns(tmp_path: Path) -> None:
    """``python -m toolturns`` is the same command line as the script."""
    path = write(tmp_path / "data.jsonl", line(UNANSWERED))
    run = subprocess.run(
        [sys.executable, "-m", "toolturns", "check", "--quiet", path],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (run.returncode, run.stdout, run.stderr) == (1, "", "")


def test_script_stops_quietly_when_the_reader_goes_away(tmp_path: Path) -> None:
    """``toolturns check big | head -1``: the script stops with status 2 and no traceback."""
    path = write(tmp_path / "broken.jsonl", *[line(UNANSWERED)] * 5000)
    with subprocess.Popen(
        [str(TOOLTURNS), "check", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        assert child.stdout is not None
        assert child.stderr is not None
        child.stdout.readline()
        child.stdout.close()  # as head does after its line
        error = child.stderr.read()
        status = child.wait(timeout=60)
    assert status == 2
    assert error == b""


# The wrapper runs the command as its only child and reports the child's peak
# resident memory (ru_maxrss: KiB on Linux), which a process cannot measure
# for itself after the fact.
PEAK = """
import resource, subprocess, sys
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_kib(*command: str | Path) -> int:
    """The peak resident memory, in KiB, of the largest process ``command`` ran (itself or a
    worker), on a file of ``generate``: its status is 1, every tenth transcript having an
    unanswered call."""
    run = subprocess.run(
        [sys.executable, "-c", PEAK, *map(str, command)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    status, kib = map(int, run.stdout.split())
    assert status == 1
    return kib


def generate(path: Path, megabytes: int) -> int:
    """Write about ``megabytes`` MB of realistic transcripts (every tenth with a problem) in chunks; the line count."""
    lines = 0
    with path.open("wb") as out:
        while out.tell() < megabytes * 1_000_000:
            chunk = []
            for _ in range(200):
                lines += 1
                city = f"City number {lines} " + "é" * (lines % 50)
                call = ToolCall(f"call_{lines}", "get_weather", {"city": city, "days": lines % 7})
                messages = [
                    ChatMessage.system("You are a weather assistant. " * 20),
                    ChatMessage.user(f"What is the weather in {city}? " * 5),
                    ChatMessage.assistant_tool_calls([call]),
                    *([] if lines % 10 == 0 else [ChatMessage.tool_result(call.id, '{"temperature": 18}')]),
                    ChatMessage.user("Thanks, and tomorrow?"),
                    ChatMessage.assistant("Tomorrow looks much the same: " + "sunny and mild. " * 30),
                ]
                chunk.append(json.dumps(line(messages, [WEATHER]), ensure_ascii=False))
            out.write(("\n".join(chunk) + "\n").encode())
    return lines


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the bounds are in KiB, the unit of ru_maxrss on Linux (macOS reports bytes); CI runs on Linux",
)
def test_script_memory_stays_flat_on_a_large_file(tmp_path: Path) -> None:
    """Checking a 50 MB file takes about the memory of checking a 1 MB one: lines are read one at a time."""
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    generate(small, 1)
    count = generate(large, 50)
    assert large.stat().st_size > 50_000_000
    small_kib, large_kib = peak_kib(TOOLTURNS, "check", small), peak_kib(TOOLTURNS, "check", large)
    assert count > 10_000
    assert large_kib - small_kib < 30 * 1024, (small_kib, large_kib)


def test_convert_carries_strict_where_the_target_does_and_refuses_other_tool_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenAI's strict goes to OpenAI and Anthropic; a key a Tool does not carry skips the line."""
    strict = {"type": "function", "function": {"name": "f", "strict": True, "parameters": {"type": "object"}}}
    extra = {"type": "function", "function": {"name": "f"}, "cache": 1}
    bare = {"name": "f", "parameters": {"type": "object"}, "strict": True}
    path = write(
        tmp_path / "tools.jsonl",
        *(
            json.dumps({"messages": [{"role": "user", "content": "q"}], "tools": [t]})
            for t in (strict, extra, bare)
        ),
    )
    status, out, err = call(capsys, "convert", "--to", "openai", path)
    assert status == 1
    assert [json.loads(line)["tools"][0]["function"]["strict"] for line in out.splitlines()] == [True, True]
    assert err.splitlines()[0] == (
        f"{path}:2: tools[0].cache: is not a key of a tool toolturns carries (function, type), got 1"
    )
    status, out, _ = call(capsys, "convert", "--to", "anthropic", path)
    assert [json.loads(line)["tools"][0]["strict"] for line in out.splitlines()] == [True, True]


_UNSUPPORTED_LINE = {
    "messages": [
        {"role": "user", "content": "q", "name": "ann", "weight": 0},
        {"role": "assistant", "content": "a"},
    ],
    "tools": [{"type": "function", "function": {"name": "f", "strict": True}}],
}


def test_check_and_convert_agree_on_what_a_target_cannot_carry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check --target reports each thing the target's request cannot carry; convert skips the line."""
    path = write(tmp_path / "names.jsonl", json.dumps(_UNSUPPORTED_LINE))
    status, out, _ = call(capsys, "check", "--target", "gemini", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}:1: tools[0].function.strict: unsupported: Gemini cannot carry strict=True (Invalid JSON payload "
        "received. Unknown name ...: Cannot find field.); convert --drop-unsupported leaves it out",
        f"{path}:1: messages[0].name: unsupported: Gemini cannot carry the name 'ann' (Invalid JSON payload "
        "received. Unknown name ...: Cannot find field.); convert --drop-unsupported leaves it out",
        f"{path}:1: messages[0].weight: unsupported: Gemini cannot carry the key 'weight' (Invalid JSON payload "
        "received. Unknown name ...: Cannot find field.); convert --drop-unsupported leaves it out",
    ]
    status, out, err = call(capsys, "convert", "--to", "gemini", path)
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == (
        f"{path}:1: messages[0].name: Gemini cannot carry the name 'ann' (Invalid JSON payload received. Unknown "
        "name ...: Cannot find field.); --drop-unsupported drops it"
    )
    # OpenAI carries all of it; its strict mode wants even an empty object closed.
    status, out, _ = call(capsys, "check", "--target", "openai", path)
    assert (status, [line.split(": ")[1:3] for line in out.splitlines()]) == (
        1,
        [["tools[0].function.parameters.additionalProperties", "strict_schema"]],
    )


def test_convert_drop_unsupported_reports_each_drop_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under --drop-unsupported the line converts, and stderr names every key left out, at its line."""
    path = write(tmp_path / "names.jsonl", json.dumps(_UNSUPPORTED_LINE))
    status, out, err = call(capsys, "convert", "--to", "ollama", "--drop-unsupported", path)
    assert status == 0
    assert json.loads(out) == {
        "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}],
        "tools": [
            {
                "type": "function",
                "function": {"name": "f", "parameters": {"type": "object", "properties": {}}},
            }
        ],
    }
    assert err.splitlines()[:3] == [
        f"{path}:1: messages[0].name: dropped the name 'ann'",
        f"{path}:1: messages[0].weight: dropped the key 'weight'",
        f"{path}:1: tools[0].strict: dropped strict=True",
    ]


def test_messages_name_the_flag_not_the_python_keyword(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check and convert say --keep-invalid-arguments where the library would say keep_invalid_arguments=True."""
    line = {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{"},
                    }
                ],
            },
        ]
    }
    path = tmp_path / "data.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert cli.main(["check", "--target", "ollama", str(path)]) == 1
    out = capsys.readouterr().out
    assert "(convert --keep-invalid-arguments sends it wrapped)" in out
    assert "keep_invalid_arguments" not in out
    assert cli.main(["convert", "--to", "ollama", str(path)]) == 1
    err = capsys.readouterr().err
    assert "--keep-invalid-arguments sends the text wrapped" in err
    assert "keep_invalid_arguments" not in err


# -- hostile input: lines too long, memory that stays flat ---------------------------------------

TOO_LONG = "is longer than %d bytes (toolturns' --max-line-bytes limit); skipped unread"


def test_a_line_over_the_limit_is_a_problem_at_its_line_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line longer than --max-line-bytes is line_too_long at its number; the rest of the file and the
    other files are still read, and convert skips it with the same reason."""
    long = {**line(GOOD), "padding": "x" * 5000}
    first = write(tmp_path / "first.jsonl", line(GOOD), long, line(GOOD), line(UNANSWERED))
    second = write(tmp_path / "second.jsonl", long, line(UNANSWERED))
    status, out, err = call(capsys, "check", "--max-line-bytes", "4096", first, second)
    assert status == 1
    assert [text.split(": ")[:3] for text in out.splitlines()] == [
        [f"{first}:2", "line", "line_too_long"],
        [f"{first}:4", "messages[1].tool_calls[0]", "unanswered_call"],
        [f"{second}:1", "line", "line_too_long"],
        [f"{second}:2", "messages[1].tool_calls[0]", "unanswered_call"],
    ]
    assert out.splitlines()[0] == f"{first}:2: line: line_too_long: {TOO_LONG % 4096}"
    assert summary(err) == "checked 6 transcripts in T s: 4 with problems"
    status, out, err = call(capsys, "convert", "--to", "anthropic", "--max-line-bytes", "4096", first)
    assert status == 1
    assert len(out.splitlines()) == 3
    assert err.splitlines()[0] == f"{first}:2: line: {TOO_LONG % 4096}"
    assert call(capsys, "check", first)[1].count("line_too_long") == 0  # the default limit is far above


@pytest.mark.parametrize(
    ("data", "too_long"),
    [
        (b"[]" + b" " * 98 + b"\n", False),  # 100 bytes and its newline: at the limit
        (b"[]" + b" " * 98 + b"\r\n", True),  # the carriage return is a byte of the line
        (b"[]" + b" " * 98, False),  # the last line, without a newline
        (b"[]" + b" " * 99 + b"\n", True),
        (b"[]" + b" " * 99, True),
    ],
)
def test_the_line_limit_counts_the_bytes_before_the_newline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, too_long: bool
) -> None:
    """--max-line-bytes N takes a line of N bytes (its newline not counted) and refuses N + 1."""
    path = tmp_path / "data.jsonl"
    path.write_bytes(b"[]\n" + data)
    status, out, _ = call(capsys, "check", "--max-line-bytes", "100", str(path))
    assert (status, out) == (1, f"{path}:2: line: line_too_long: {TOO_LONG % 100}\n") if too_long else (0, "")


@pytest.mark.parametrize("value", ["0", "-5", "ten", "1.5"])
def test_max_line_bytes_must_be_a_positive_integer(capsys: pytest.CaptureFixture[str], value: str) -> None:
    """--max-line-bytes takes a whole number of bytes, at least 1: anything else is a usage error."""
    status, out, err = call(capsys, "check", "--max-line-bytes", value, "x.jsonl")
    assert (status, out) == (2, "")
    assert "--max-line-bytes: must be a whole number of bytes, at least 1" in err


def test_the_default_line_limit_is_documented() -> None:
    """The default limit is 64 MiB, and docs/cli.md says so."""
    assert cli.MAX_LINE_BYTES == 64 * 1024 * 1024
    assert "64 MiB" in (Path(__file__).parent.parent / "docs" / "cli.md").read_text("utf-8")


class Endless(io.RawIOBase):
    """``size`` bytes of one byte value, made as they are read: a bounded /dev/zero."""

    def __init__(self, size: int, byte: bytes = b"\0") -> None:
        self.left = size
        self.byte = byte

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.left)
        buffer[:count] = self.byte * count
        self.left -= count
        return count


def peak_bytes(monkeypatch: pytest.MonkeyPatch, source: Any, *argv: str) -> tuple[int, int, str]:
    """main(argv) reading ``source`` as standard input: its status, its peak of traced memory, its stdout."""
    import tracemalloc

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(source), encoding="utf-8"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    tracemalloc.start()
    try:
        status = cli.main(list(argv))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return status, peak, out.getvalue()


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_memory_stays_flat_on_a_line_that_never_ends(
    monkeypatch: pytest.MonkeyPatch, compressed: bool
) -> None:
    """NUL bytes and no newline (a /dev/zero, a gzip bomb of zeros): reading 4x as much peaks at about the same
    memory, the line is reported too long, and the run ends with its summary."""

    def source(size: int) -> Any:
        if not compressed:
            return Endless(size)
        return io.BytesIO(gzip.compress(b"\0" * size, compresslevel=1))

    results = [
        peak_bytes(monkeypatch, source(size), "check", "--max-line-bytes", "65536", "-")
        for size in (4_000_000, 16_000_000)
    ]
    for status, _, out in results:
        assert (status, out) == (1, f"<stdin>:1: line: line_too_long: {TOO_LONG % 65536}\n")
    small, large = (peak for _, peak, _ in results)
    assert large < small * 1.5 + 100_000, (small, large)


def test_memory_stays_flat_on_many_long_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines over the limit, one after another: 4x as many peak at about the same memory, each is reported."""

    def source(lines: int) -> Any:
        return io.BytesIO((b"[" + b"1," * 50_000 + b"1]\n") * lines)

    results = [
        peak_bytes(monkeypatch, source(lines), "check", "--max-line-bytes", "1000", "-") for lines in (10, 40)
    ]
    assert [out.count("line_too_long") for _, _, out in results] == [10, 40]
    small, large = (peak for _, peak, _ in results)
    assert large < small * 1.5 + 100_000, (small, large)


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the bounds are in KiB, the unit of ru_maxrss on Linux (macOS reports bytes); CI runs on Linux",
)
def test_script_memory_stays_flat_on_a_pipe_of_zeros(tmp_path: Path) -> None:
    """The console script reading a pipe of NUL bytes with no newline (a bounded /dev/zero): 4x as much input
    takes about the same peak memory, and the next file is still read."""
    good = write(tmp_path / "good.jsonl", line(UNANSWERED))
    feeder = "import sys; sys.stdout.buffer.write(bytes(int(sys.argv[1])))"
    # Runs the command as its only child, its stdin a pipe from a feeder process (a grandchild of
    # the wrapper, so not counted in ru_maxrss), and reports what it did as JSON.
    wrapper = f"""
import json, resource, subprocess, sys
feed = subprocess.Popen([sys.executable, "-c", {feeder!r}, sys.argv[1]], stdout=subprocess.PIPE)
run = subprocess.run(sys.argv[2:], stdin=feed.stdout, capture_output=True, text=True)
feed.wait()
print(json.dumps([run.returncode, run.stdout, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))
"""

    def peak(size: int) -> tuple[int, str, int]:
        command = [str(TOOLTURNS), "check", "--max-line-bytes", "1048576", "-", good]
        done = subprocess.run(
            [sys.executable, "-c", wrapper, str(size), *command], capture_output=True, check=True, timeout=300
        )
        status, out, kib = json.loads(done.stdout)
        return status, out, kib

    small, large = peak(50_000_000), peak(200_000_000)
    assert small[:2] == large[:2]
    assert small[0] == 1
    assert small[1].splitlines() == [
        f"<stdin>:1: line: line_too_long: {TOO_LONG % 1048576}",
        f"{good}:1: messages[1].tool_calls[0]: unanswered_call: call 'call_1' (get_weather) has no tool "
        "result before messages[2] (user); every call must be answered right after its assistant turn",
    ]
    assert large[2] - small[2] < 10 * 1024, (small[2], large[2])


# -- hostile input: a report no input can forge -------------------------------------------------------

# Every untrusted string the text report shows: a tool name, a role, keys of a function and of a tool
# definition, a call id, each with a newline that would start a forged report line, an ESC sequence,
# and other characters that are not printable.
FORGED = "\n/etc/passwd:1: line: invalid_json: forged\x1b[2J\x07\u2028\x85\u202e\ud800"
_HOSTILE_LINES = [
    {
        "messages": [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c" + FORGED, "type": "function", "function": {"name": "f" + FORGED}}],
            },
            {"role": "user", "content": "again"},
        ]
    },
    {"messages": [{"role": "r" + FORGED, "content": "x"}, {"role": "tool", "content": "t"}]},
    {
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "k" + FORGED: 1}}],
            }
        ]
    },
    {
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "function", "function": {"name": "f"}, "k" + FORGED: 1}],
    },
    {
        "messages": [{"role": "user", "content": "q", "name": "n" + FORGED, "k" + FORGED: 1}],
        "tools": [{"type": "function", "function": {"name": "f", "strict": True}}],
    },
    [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": "id" + FORGED, "content": "t"}],
]


def hostile_file(tmp_path: Path, name: str = "data.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(b"".join(json.dumps(value).encode() + b"\n" for value in _HOSTILE_LINES))
    return str(path)


def assert_one_line_each(report: str, count: int) -> None:
    """``count`` report lines, each printable: no control character, no line separator, no lone surrogate."""
    lines = report.split("\n")
    assert lines.pop() == ""
    assert len(lines) == count, lines
    for text in lines:
        assert text.isprintable(), text
        assert len(text.splitlines()) == 1


@pytest.mark.parametrize("target", [None, *PROVIDERS])
def test_the_text_report_escapes_every_untrusted_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str | None
) -> None:
    """Names, roles, keys and ids that hold newlines, ESC sequences or other unprintable characters are
    escaped in the text report: one problem is always one line, as with --format json."""
    path = hostile_file(tmp_path)
    options = [] if target is None else ["--target", target]
    status, out, _ = call(capsys, "check", "--format", "json", *options, path)
    problems = [json.loads(text) for text in out.splitlines()]
    assert status == 1
    status, out, _ = call(capsys, "check", *options, path)
    assert status == 1
    assert_one_line_each(out, len(problems))
    for text, problem in zip(out.splitlines(), problems, strict=True):
        assert text.startswith(f"{path}:{problem['line']}: ")
    # A key in a path is its JSON text (a newline as \n); what JSON leaves as it is, the report escapes.
    assert (
        'function["k\\n/etc/passwd:1: line: invalid_json: forged\\u001b[2J\\u0007\\u2028\\x85\\u202e\\ud800"]'
        in out
    )


def test_the_unanswered_call_names_an_unprintable_tool_name_quoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call name that is not plain printable text is shown quoted and escaped in unanswered_call."""
    path = hostile_file(tmp_path)
    out = call(capsys, "check", path)[1]
    assert out.splitlines()[0] == (
        f"{path}:1: messages[1].tool_calls[0]: unanswered_call: call {describe('c' + FORGED)} "
        f"({describe('f' + FORGED)}) has no tool result before messages[2] (user); every call must be "
        "answered right after its assistant turn"
    )


def test_json_format_escapes_unprintable_characters_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--format json writes every character that is not printable as its JSON escape: the same values,
    and lines that neither a terminal nor str.splitlines() can split."""
    path = hostile_file(tmp_path)
    status, out, _ = call(capsys, "check", "--format", "json", "--target", "gemini", path)
    assert status == 1
    lines = out.split("\n")[:-1]
    assert_one_line_each(out, len(lines))
    assert all(text.isascii() or text.isprintable() for text in lines)
    # The same value back: a key in a path is its JSON text.
    assert any(json.dumps("k" + FORGED, ensure_ascii=False) in json.loads(text)["path"] for text in lines)


def captured(*argv: str) -> tuple[int, str, str]:
    """``main(argv)`` writing to StringIOs, which take any str (capsys' streams refuse a lone surrogate)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_convert_escapes_its_skip_and_drop_reports(tmp_path: Path) -> None:
    """convert's skipped lines and --drop-unsupported's dropped keys are one escaped line each."""
    path = hostile_file(tmp_path)
    for target in PROVIDERS:
        for drop in ([], ["--drop-unsupported"]):
            status, out, err = captured("convert", "--to", target, *drop, path)
            assert status in (0, 1)
            reports = err.split("\n")[:-2]  # the summary last
            assert_one_line_each("".join(text + "\n" for text in reports), len(reports))
            assert all(text.startswith(f"{path}:") for text in reports)
            assert len(out.splitlines()) + sum(": dropped " not in text for text in reports) == len(
                _HOSTILE_LINES
            )
    reported = captured("convert", "--to", "gemini", "--drop-unsupported", path)[2].splitlines()
    assert f"{path}:5: messages[0].name: dropped the name {'n' + FORGED!r}" in reported
    key = json.dumps("k" + FORGED, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\x85", "\\x85")
    key = key.replace("\u202e", "\\u202e").replace("\ud800", "\\ud800")
    # The key as a value is shown: cut past 60 characters (a 1 MB key must not flood the report).
    assert f"{path}:5: messages[0][{key}]: dropped the key {describe('k' + FORGED)}" in reported


def test_file_names_are_escaped_in_every_report(tmp_path: Path) -> None:
    """A file name with a newline or an ESC sequence is escaped where it is shown: problems, unreadable files."""
    path = hostile_file(tmp_path, "a\nb\x1b[2J.jsonl")
    shown = path.replace("\n", "\\n").replace("\x1b", "\\x1b")
    status, out, err = captured("check", path, path + "\n.missing")
    assert status == 2
    assert out.splitlines()[0].startswith(f"{shown}:1: ")
    assert err.splitlines()[0] == f"toolturns: {shown}\\n.missing: No such file or directory"
    status, _, err = captured("convert", "--to", "openai", path)
    assert err.splitlines()[0].startswith(f"{shown}:2: ")


def test_problem_messages_shorten_long_values() -> None:
    """A 1 MB id, name or role is shown cut, as MessageError shows values: a message stays short."""
    from toolturns import check_transcript

    huge = "x" * 1_000_000
    calls = [ToolCall(huge + "1", huge), ToolCall(huge + "2", "get_weather")]
    messages: list[object] = [
        ChatMessage.user("q"),
        ChatMessage.assistant_tool_calls(calls),
        {"role": "tool", "tool_call_id": huge + "1", "content": "r", "name": "get_time"},
        {"role": huge, "content": 5},
        ChatMessage.tool_result(huge + "3", "r"),
        ChatMessage.tool_result(huge + "1", "r"),
        ChatMessage.assistant_tool_calls([ToolCall(huge + "2", "get_weather")]),
    ]
    tools = [Tool(huge[:64]), Tool(huge[:64]), {"type": "function", "function": {"name": "f"}, "cache": huge}]
    for target in (None, *PROVIDERS):
        problems = check_transcript(messages, tools=tools, target=target, allow_pending=False)
        codes = {problem.code for problem in problems}
        assert {"unanswered_call", "orphan_result", "duplicate_result", "duplicate_call_id"} <= codes
        assert {"result_name_mismatch", "unknown_tool", "duplicate_tool", "invalid_message"} <= codes
        for problem in problems:
            assert len(problem.message) < 600, (problem.code, problem.message[:200])
            assert len(problem.path) < 200, problem.path[:200]


# -- hostile input: the edges of the command line ------------------------------------------------------


def test_check_quiet_with_stdout_closed_gives_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Started with stdout closed (>&-), --quiet writes nothing there: the status is the verdict. A run that
    must write there fails as an I/O error (2), without a traceback."""
    path = write(tmp_path / "data.jsonl", line(UNANSWERED))
    monkeypatch.setattr(sys, "stdout", None)
    for argv, status in (
        (["check", "-q", path], 1),
        (["check", path], 2),
        (["convert", "--to", "openai", path], 2),
    ):
        monkeypatch.setattr(sys, "argv", ["toolturns", *argv])
        with pytest.raises(SystemExit) as stop:
            cli.run()
        assert stop.value.code == status
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert err == ("" if status == 1 else "toolturns: standard output is closed\n")


def test_script_with_stdout_closed(tmp_path: Path) -> None:
    """The console script with its stdout closed: check -q exits with the verdict, 1."""
    path = write(tmp_path / "data.jsonl", line(UNANSWERED))
    run = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" >&-', str(TOOLTURNS), "check", "-q", path],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (run.returncode, run.stderr) == (1, "")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("a\0b.jsonl", "is not a file name: it holds a NUL byte"),
        ("a\ud800b.jsonl", "is not a file name: the file system cannot spell '\\ud800'"),
    ],
)
def test_main_reports_a_name_no_file_can_have_and_goes_on(tmp_path: Path, name: str, reason: str) -> None:
    """main() given a file name with a NUL byte or a lone surrogate reports it as not read and reads the rest."""
    good = write(tmp_path / "data.jsonl", line(UNANSWERED))
    status, out, err = captured("check", name, good)
    assert status == 2
    assert out.startswith(f"{good}:1: messages[1].tool_calls[0]: unanswered_call: ")
    shown = name.replace("\0", "\\x00").replace("\ud800", "\\ud800")
    assert err.splitlines()[0] == f"toolturns: {shown}: {reason}"
    assert summary(err) == "1 file not read; checked 1 transcript in T s: 1 with problems"


@pytest.mark.parametrize("blank", [b"\x0b", b"\x0c", b" \x0c ", b"\x1c", b"\x85"])
def test_only_json_white_space_makes_a_blank_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blank: bytes
) -> None:
    """A line of vertical tabs or form feeds is not blank (JSON's white space is space, tab, CR, LF): it is
    invalid JSON, at its line."""
    path = tmp_path / "data.jsonl"
    path.write_bytes(b" \t\r\n" + blank + b"\n" + jsonl(line(GOOD)))
    status, out, err = call(capsys, "check", str(path))
    assert status == 1
    assert out.startswith(f"{path}:2: line: invalid_json: ")
    assert summary(err) == "checked 2 transcripts in T s: 1 with problems"


def test_a_line_of_form_feeds_is_not_json_at_its_first_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reason names the character: white space to Python's str.strip() is not JSON's."""
    path = write(tmp_path / "data.jsonl", b"\x0c\x0c")
    assert (
        call(capsys, "check", path)[1]
        == f"{path}:1: line: invalid_json: is not JSON: Expecting value at character 1\n"
    )


DUPLICATE = (
    "is a key its object already has: JSON readers keep one of the values (Python's the last), so the line does "
    "not say one thing"
)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"messages": [{"role": "user", "role": "assistant", "content": "x"}]}', "messages[0].role"),
        ('{"messages": [], "messages": [{"role": "user", "content": "x"}]}', "messages"),
        ('[{"role": "user", "content": "x", "content": "y"}]', "messages[0].content"),
        (
            '{"messages": [{"role": "user", "content": "x"}], "tools": [{"a b": 1, "a b": 2}]}',
            'tools[0]["a b"]',
        ),
        # the first repeat in the order of the text, not the first object to close
        ('{"a": 1, "a": {"x": 1, "x": 2}, "messages": []}', "a"),
        ('{"a": {"x": 1, "x": 2}, "b": 1, "b": 2, "messages": []}', "a.x"),
        ('{"messages": [[{"k": [{"z": 0, "z": 0}]}]]}', "messages[0][0].k[0].z"),
        ('  {"messages":[{"role":"user","content":"x","role" : "user"}]}  ', "messages[0].role"),
    ],
)
def test_check_reports_a_repeated_key_and_convert_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, path: str
) -> None:
    """A key repeated in an object is duplicate_key at the first repeat, with its path; convert skips the line."""
    file = write(tmp_path / "data.jsonl", text)
    assert call(capsys, "check", file)[:2] == (1, f"{file}:1: {path}: duplicate_key: {DUPLICATE}\n")
    status, out, err = call(capsys, "convert", "--to", "anthropic", file)
    assert (status, out, err.splitlines()[0]) == (1, "", f"{file}:1: {path}: {DUPLICATE}")


def test_a_repeated_key_is_found_on_a_line_like_the_last(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tools sent again with every line are read fast; a repeat inside them, or around them, is still found."""
    tools = json.dumps([openai.tool_definition(WEATHER)])
    messages = json.dumps([m.to_wire() for m in GOOD])
    repeated = tools.replace('"type": "function"', '"type": "function", "type": "function"', 1)
    assert repeated != tools
    lines = [
        f'{{"messages": {messages}, "tools": {tools}}}',
        f'{{"messages": {messages}, "tools": {tools}}}',
        f'{{"messages": {messages}, "tools": {repeated}}}',
        f'{{"messages": {messages}, "tools": {tools}, "tools": {tools}}}',
        f'{{"messages": {messages}, "tools": {tools}}}',
        f'{{"messages": {messages}, "tools": {tools} , "x": 1, "x": 2}}',
        f'{{"messages": {messages}, "tools": {tools}}} ',
    ]
    path = write(tmp_path / "data.jsonl", *lines)
    status, out, _ = call(capsys, "check", path)
    assert status == 1
    assert [text.split(": ")[:3] for text in out.splitlines()] == [
        [f"{path}:3", "tools[0].type", "duplicate_key"],
        [f"{path}:4", "tools", "duplicate_key"],
        [f"{path}:6", "x", "duplicate_key"],
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"messages": [{"role": "user", "content": "x", "n": ' + "7" * 5000 + "}]}",
            "is not JSON toolturns reads: an integer of 5000 digits, over toolturns' limit of 4300 digits",
        ),
        (
            '[{"role": "user", "content": "x", "n": -' + "7" * 4301 + "}]",
            "is not JSON toolturns reads: an integer of 4301 digits, over toolturns' limit of 4300 digits",
        ),
        (
            '{"messages": ' + "[" * 990 + "]" * 990 + "}",
            "is not JSON toolturns reads: arrays and objects nest deeper than toolturns' limit (about "
            f"{sys.getrecursionlimit()} levels, Python's recursion limit)",
        ),
    ],
)
def test_limits_are_named_as_toolturns_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    """A 5000-digit integer or ~990 levels of nesting say which limit was hit, and that it is toolturns',
    with no advice meant for Python programmers."""
    path = write(tmp_path / "data.jsonl", text)
    status, out, _ = call(capsys, "check", path)
    assert (status, out) == (1, f"{path}:1: line: invalid_json: {message}\n")
    assert "sys.set_int_max_str_digits" not in out
    assert (
        call(
            capsys,
            "check",
            write(tmp_path / "ok.jsonl", '[{"role": "user", "content": "x", "n": ' + "7" * 4300 + "}]"),
        )[0]
        == 0
    )


def test_no_arguments_prints_the_help_and_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``toolturns`` alone prints the whole help on stderr, and exits 2: 0 would read as "nothing found"."""
    status, out, err = call(capsys)
    assert (status, out) == (2, "")
    assert err.startswith("usage: toolturns")
    assert "check     report every problem" in err
    assert "convert   write each transcript" in err
    assert "docs/cli.md" in err
    monkeypatch.setattr(sys, "argv", ["toolturns"])
    assert cli.main() == 2


@pytest.mark.parametrize("command", ["check", "convert"])
def test_each_command_help_has_examples_and_the_docs(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """``toolturns check --help`` and ``convert --help`` show examples, the exit statuses and where the docs are."""
    status, out, _ = call(capsys, command, "--help")
    assert status == 0
    assert "\nexamples:\n" in out
    assert f"\n  toolturns {command} " in out
    assert "exit status: 0" in out
    assert "docs/cli.md" in out
    assert "--max-line-bytes N" in out


@pytest.mark.parametrize("examples", [cli._CHECK_EXAMPLES, cli._CONVERT_EXAMPLES], ids=["check", "convert"])
def test_every_example_of_the_help_is_a_command_line_that_parses(examples: str) -> None:
    """Each example, up to its redirection or comment, is a valid command line; convert's
    name every --from."""
    lines = [line.strip() for line in examples.splitlines() if line.startswith("  toolturns ")]
    sources = set()
    for example in lines:
        argv = shlex.split(example.split(" > ")[0].split(" && ")[0].split("#")[0])[1:]
        options = cli._parser().parse_args(argv)
        sources.add(getattr(options, "source", None))
    assert len(lines) >= 3
    if examples is cli._CONVERT_EXAMPLES:
        assert {"openai", "anthropic", "sharegpt"} <= sources


def test_the_summary_starts_with_the_files_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run that could not read a file says so in the summary's first words: the counts are not the whole."""
    good = write(tmp_path / "data.jsonl", line(GOOD))
    missing = str(tmp_path / "missing.jsonl")
    assert summary(call(capsys, "check", missing, good, missing)[2]) == (
        "2 files not read; checked 1 transcript in T s: no problems"
    )
    assert summary(call(capsys, "convert", "--to", "openai", missing, good)[2]) == (
        "1 file not read; read 1 transcript in T s: 1 converted, 0 skipped"
    )


# -- the fast reading of a line never misses a repeated key ---------------------------------------------


class Obj(list):  # type: ignore[type-arg]
    """An object as the generator builds it: (key, value) pairs, a key possibly repeated."""


_KEYS = st.sampled_from(["a", "role", "a b", "é", ":", "\\u003a"])
_TOP_KEYS = st.lists(st.sampled_from(["messages", "tools", "x", "a"]), max_size=3)
_STRINGS = st.text(alphabet=':{}[]",\\ ab\u003a', max_size=4)
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), _STRINGS)


def _values(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.lists(st.tuples(_KEYS, inner), max_size=4).map(Obj)
        ),
        max_leaves=10,
    )


@st.composite
def _dumped(draw: st.DrawFn, value: Any) -> str:
    """``value`` as JSON text in a layout drawn for each place: compact, spaced, with newlines and tabs."""
    space = st.sampled_from(["", "", " ", "\t", "\n ", "\r\n"])
    if isinstance(value, Obj):
        items = [
            draw(space)
            + _key(key, escaped=draw(st.booleans()))
            + draw(space)
            + ":"
            + draw(space)
            + draw(_dumped(item))
            for key, item in value
        ]
        return "{" + ",".join(items) + draw(space) + "}"
    if isinstance(value, list):
        return "[" + ",".join(draw(space) + draw(_dumped(item)) for item in value) + draw(space) + "]"
    return json.dumps(value, ensure_ascii=draw(st.booleans()))


def _key(key: str, *, escaped: bool) -> str:
    """A key as JSON text, its colons escaped when ``escaped``: the same key, spelled another way."""
    text = json.dumps(key)
    return text.replace(":", "\\u003a") if escaped else text


@st.composite
def _lines(draw: st.DrawFn) -> list[str]:
    """A few lines sharing top-level values (as a dataset's tools are), their keys repeated here and there."""
    shared = draw(st.lists(_values(_LEAVES), min_size=1, max_size=3))
    texts = [draw(_dumped(value)) for value in shared]
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(_dumped(draw(_values(_LEAVES)))))
            continue
        keys = draw(_TOP_KEYS)
        values = [
            draw(st.sampled_from(texts)) if draw(st.booleans()) else draw(_dumped(draw(_values(_LEAVES))))
            for _ in keys
        ]
        pairs = [f"{json.dumps(key)}:{value}" for key, value in zip(keys, values, strict=True)]
        lines.append(
            draw(st.sampled_from(["", " "]))
            + "{"
            + ",".join(pairs)
            + "}"
            + draw(st.sampled_from(["", " ", "\n"]))
        )
    return lines


def _first_repeat(text: str) -> str | None:
    """The reference: the path of the first key an object already has, in text order, read recursively."""
    from toolturns._json import join_key

    def walk(node: Any, path: str) -> str | None:
        if isinstance(node, Obj):
            seen = set()
            for key, child in node:
                if key in seen:
                    return join_key(path, key)
                seen.add(key)
                found = walk(child, join_key(path, key))
                if found is not None:
                    return found
        elif isinstance(node, list):
            for index, child in enumerate(node):
                found = walk(child, join_key(path, index))
                if found is not None:
                    return found
        return None

    value = json.loads(text, object_pairs_hook=Obj)
    return walk(value, "" if isinstance(value, Obj) else "messages")


def test_a_value_whose_text_came_twice_before_is_the_value_it_gave_then() -> None:
    """The tools sent again with every line are decoded the first two times only; from the
    third on, a line's value is the one the last line with tools gave (read, never changed),
    lines without tools between them or not; tools that differ are decoded again. Every line
    gives what json.loads gives."""
    tools = json.dumps([openai.tool_definition(WEATHER)])
    other = tools.replace("weather", "weather now")
    messages = json.dumps([m.to_wire() for m in GOOD])
    decoded = cli._Decoder(cli.MAX_LINE_BYTES)
    values = []
    for text in [tools, tools, None, tools, tools, other, other, None, other, " 70000", " 70000", " 70000"]:
        line = (
            f'{{"messages": {messages}}}' if text is None else f'{{"messages": {messages}, "tools": {text}}}'
        )
        value = decoded(line.encode())
        assert isinstance(value, dict)
        assert value == json.loads(line)
        if text is not None:
            values.append(value["tools"])
    shared = [values[i] is values[i - 1] for i in range(1, len(values))]
    assert shared == [False, True, True, False, False, True, False, False, False]
    # Only a value whose text repeats is held between lines, not a line's messages.
    decoded(f'{{"messages": {messages}, "tools": {tools}}}'.encode())
    decoded(b'{"messages": [], "tools": []}')
    assert decoded._values == {}
    # A number's text says nothing of where it ends: 7, then 70, are read as they are.
    for number in [7, 70, 70, 7, 700]:
        line = f'{{"messages": [], "n": {number}}}'
        assert decoded(line.encode()) == {"messages": [], "n": number}


@given(_lines())
@settings(max_examples=400, deadline=None)
def test_the_fast_reading_never_misses_a_repeated_key(lines: list[str]) -> None:
    """Line after line (the fast reading remembers the last line's top-level values), a line gives its value
    when no key repeats, and duplicate_key at the first repeat when one does, whatever the layout."""
    decoded = cli._Decoder(cli.MAX_LINE_BYTES)
    for text in lines:
        repeat = _first_repeat(text)
        if repeat is None:
            assert decoded(text.encode()) == json.loads(text)
        else:
            with pytest.raises(cli._BadLine) as refused:
                decoded(text.encode())
            assert (refused.value.code, refused.value.path) == ("duplicate_key", repeat), text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"messages": []} x', "Extra data at character 18"),
        ("[] []", "Extra data at character 4"),
        ('{"messages": [] "tools": []}', "Expecting ',' delimiter at character 17"),
        ('{"messages": [], }', "Expecting property name enclosed in double quotes at character 18"),
        ('{"messages" []}', "Expecting ':' delimiter at character 13"),
        ('{"messages": [}', "Expecting value at character 15"),
        ('{"messages": []', "Expecting ',' delimiter at the end of the line"),
        ('{"messages', "Invalid control character at the end of the line"),  # the newline, in the string
        ('{"messages": ["\\x"]}', "Invalid \\escape at character 16"),
        ("{", "Expecting property name enclosed in double quotes at the end of the line"),
        ("{}", None),
        ("5", None),
    ],
)
def test_a_line_that_is_not_json_says_what_json_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, reason: str | None
) -> None:
    """The reason a line is not JSON is the decoder's, where it found it, however the line was read."""
    path = write(tmp_path / "data.jsonl", text)
    out = call(capsys, "check", path)[1]
    if reason is None:
        assert ": not_a_transcript: " in out
    else:
        assert out == f"{path}:1: line: invalid_json: is not JSON: {reason}\n"


def test_each_provider_takes_its_own_tool_names_through_convert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fuzz finding (cli, a wrong invariant): Ollama's bodies read back to Ollama, but a tool name Ollama
    takes and OpenAI does not (a colon in it) skips that line on the way to OpenAI, with its path."""
    body = {
        "messages": [{"role": "user", "content": "Flights?"}],
        "tools": [
            {"type": "function", "function": {"name": ":search_flights", "parameters": {"type": "object"}}}
        ],
    }
    path = write(tmp_path / "ollama.jsonl", body)
    status, out, _ = call(capsys, "convert", "--from", "ollama", "--to", "ollama", path)
    assert status == 0
    assert json.loads(out)["tools"][0]["function"]["name"] == ":search_flights"
    status, out, err = call(capsys, "convert", "--from", "ollama", "--to", "openai", path)
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == (
        f"{path}:1: tools[0].name: must match ^[a-zA-Z0-9_-]{{1,64}}$ for openai, got ':search_flights'"
    )


def test_a_line_of_white_space_over_the_limit_is_too_long(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fuzz finding (cli, a wrong invariant): a line over --max-line-bytes is not read to see whether it is
    blank, so even one of spaces is line_too_long, and counted as a transcript; a shorter one is blank."""
    path = tmp_path / "data.jsonl"
    path.write_bytes(b" " * 1025 + b"\n" + b" " * 1024 + b"\n" + jsonl(line(GOOD)) + b" " * 1100)
    status, out, err = call(capsys, "check", "--max-line-bytes", "1024", str(path))
    assert (status, out.splitlines()) == (
        1,
        [
            f"{path}:1: line: line_too_long: {TOO_LONG % 1024}",
            f"{path}:4: line: line_too_long: {TOO_LONG % 1024}",
        ],
    )
    assert summary(err) == "checked 3 transcripts in T s: 2 with problems"

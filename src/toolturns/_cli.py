"""The ``toolturns`` command line: ``check`` and ``convert`` over JSONL files of transcripts.

Each line of a file is one transcript: ``{"messages": [...], "tools": [...]}``
(OpenAI's fine-tuning format; other keys are ignored) or a bare array of
messages. Files are read in binary one line at a time, so memory stays flat
however large the file; each line is decoded on its own, so one bad line is
reported and the run goes on. ``main`` is the entry point for code (tests,
benchmarks); ``run`` is the console script.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import gzip
import json
import os
import sys
import traceback
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from time import monotonic
from typing import Any, NoReturn, TextIO

from . import __version__
from ._errors import InvalidTranscript, MessageError
from ._json import JSON, decode, json_kind
from ._transcript import Problem, check_transcript
from .providers import PROVIDERS

__all__ = ["main", "run"]

# Exit statuses: the convention of grep and diff.
_CLEAN, _FOUND, _TROUBLE = 0, 1, 2

#: Seconds between two redraws of the progress line.
PROGRESS_EVERY = 0.2

# Decoded lines are written back compact and in UTF-8, as they are usually read.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

_LINE_SHAPE = 'an array of messages or an object with a "messages" array'


# -- the command line --------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: the process's arguments); return the exit status.

    Writes problems and converted bodies to ``sys.stdout`` and reports, the
    summary and progress to ``sys.stderr``, as they are when called.

    Returns:
        0 when nothing was found, 1 when problems were found (``check``) or
        lines skipped (``convert``), 2 for a usage error or a file that could
        not be read.
    """
    parser = _parser()
    try:
        options = parser.parse_args(argv)
    except SystemExit as stop:
        # argparse exits on --help, --version and usage errors; a caller in
        # the same process gets the status instead of a SystemExit.
        return int(stop.code or 0)
    command: Callable[[argparse.Namespace], int] = options.command
    return command(options)


def run() -> NoReturn:
    """The ``toolturns`` console script and ``python -m toolturns``: ``main()``, then exit with its status."""
    stdout = sys.stdout
    if hasattr(stdout, "reconfigure"):
        # Output lines are JSON or name JSON paths: UTF-8 whatever the locale.
        # A lone surrogate (valid in a JSON string escape) can only sit inside
        # a JSON string, where the escape Python writes for it is the JSON
        # escape, so the line stays valid JSON and nothing is lost.
        stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    if sys.stderr is None:  # started with stderr closed (2>&-): reports go nowhere, not into a crash
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    try:
        status = main()
        sys.stdout.flush()  # a closed pipe shows here, not in a traceback at exit
    except BrokenPipeError:
        # The reader went away (toolturns check ... | head): the run did not
        # finish. Point stdout at /dev/null so the flush at exit stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = _TROUBLE
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        status = 130  # the shell's status for a run ended by Ctrl-C (128 + SIGINT)
    except OSError as error:  # writing the output failed: a full disk, a closed stdout
        sys.stderr.write(f"toolturns: {_reason(error)}\n")
        status = _TROUBLE
    except Exception:  # a bug: show it, but never as status 1, which means "problems found"
        traceback.print_exc()
        status = _TROUBLE
    sys.exit(status)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolturns",
        description="Check and convert JSONL files of chat transcripts with tool calls.",
        epilog="Exit status: 0 nothing found, 1 problems found or lines skipped, 2 usage or I/O error.",
    )
    parser.add_argument("--version", action="version", version=f"toolturns {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    check = commands.add_parser(
        "check",
        help="report every problem a provider would refuse, one line each",
        description="Report every problem of each transcript, one line each, on standard output.",
    )
    check.set_defaults(command=_check)
    check.add_argument("--target", choices=tuple(PROVIDERS), help="add that provider's own rules")
    check.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: FILE:LINE: PATH: CODE: MESSAGE (default); json: one JSON object per problem",
    )
    check.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print no problems, summary or progress: the exit status says",
    )
    check.add_argument(
        "--no-pending",
        action="store_true",
        help="a transcript may not end on an assistant turn whose calls have no results",
    )
    _add_files(check)

    convert = commands.add_parser(
        "convert",
        help="write each transcript as a provider's request body, one per line",
        description="Write each transcript as a native request body (messages and tools), one per line.",
    )
    convert.set_defaults(command=_convert)
    convert.add_argument(
        "--to", required=True, choices=tuple(PROVIDERS), dest="target", help="the provider to write"
    )
    convert.add_argument(
        "--from",
        choices=tuple(PROVIDERS),
        default="openai",
        dest="source",
        help="the provider whose request bodies the lines are (default: openai, the fine-tuning format)",
    )
    convert.add_argument(
        "--keep-invalid-arguments",
        action="store_true",
        help='send arguments that are not a JSON object as {"_toolturns_raw_arguments": text} instead of skipping',
    )
    convert.add_argument(
        "--drop-unsupported",
        action="store_true",
        help="leave out what the target cannot carry (names, extra keys, strict, Ollama's images) instead "
        "of skipping the line; each drop is reported",
    )
    _add_files(convert)
    return parser


def _add_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="JSONL file, one transcript per line; .gz files are decompressed; - reads standard input",
    )


# -- check -------------------------------------------------------------------------------


def _check(options: argparse.Namespace) -> int:
    write = sys.stdout.write
    as_json = options.format == "json"
    counts = _Counts()
    progress = _Progress(sys.stderr, enabled=not options.quiet)
    for name in options.files:
        shown = _shown(name)
        try:
            for number, raw in _lines(name, progress, counts):
                problems = _problems(raw, number, options.target, not options.no_pending)
                if not problems:
                    continue
                counts.failed += 1
                if options.quiet:
                    continue
                progress.clear()
                for problem in problems:
                    write(_json_line(shown, number, problem) if as_json else f"{shown}:{number}: {problem}\n")
        except _UnreadableFile as error:
            counts.unreadable += 1
            progress.clear()
            sys.stderr.write(f"toolturns: {shown}: {error}\n")
    progress.clear()
    if not options.quiet:
        found = f"{counts.failed} with problems" if counts.failed else "no problems"
        sys.stderr.write(f"checked {_count(counts.lines, 'transcript')} in {counts.elapsed()}: {found}")
        sys.stderr.write(_not_read(counts) + "\n")
    if counts.unreadable:
        return _TROUBLE
    return _FOUND if counts.failed else _CLEAN


def _problems(raw: bytes, number: int, target: str | None, allow_pending: bool) -> list[Problem]:
    """The problems of one line: of the line itself, or of the transcript it holds."""
    try:
        messages, tools = _transcript(_decoded(raw))
        problems = check_transcript(messages, target=target, tools=tools, allow_pending=allow_pending)
        return [_in_cli_words(problem) for problem in problems]
    except _BadLine as error:
        return [Problem(None, error.path, error.code, error.message)]
    except InvalidTranscript as error:  # the line's shape is checked first; this is a safety net
        return [Problem(None, error.path or "line", "not_a_transcript", error.reason)]


# A message written for Python callers names the keyword; the command line's
# user needs the flag: check's problems name convert's, convert's its own.
_IN_CLI_WORDS = {
    "keep_invalid_arguments=True": ("convert --keep-invalid-arguments", "--keep-invalid-arguments"),
    "to_request(..., drop_unsupported=True)": ("convert --drop-unsupported", "--drop-unsupported"),
    "drop_unsupported=True": ("convert --drop-unsupported", "--drop-unsupported"),
}


def _cli_words(message: str, *, in_convert: bool) -> str:
    for python, (from_check, from_convert) in _IN_CLI_WORDS.items():
        if python in message:
            message = message.replace(python, from_convert if in_convert else from_check)
    return message


def _in_cli_words(problem: Problem) -> Problem:
    message = _cli_words(problem.message, in_convert=False)
    if message == problem.message:
        return problem
    return Problem(problem.index, problem.path, problem.code, message)


def _json_line(shown: str, number: int, problem: Problem) -> str:
    fields = {
        "file": shown,
        "line": number,
        "index": problem.index,
        "path": problem.path,
        "code": problem.code,
        "message": problem.message,
    }
    return _ENCODER.encode(fields) + "\n"


# -- convert -----------------------------------------------------------------------------


def _convert(options: argparse.Namespace) -> int:
    write = sys.stdout.write
    counts = _Counts()
    progress = _Progress(sys.stderr, enabled=True)
    for name in options.files:
        shown = _shown(name)
        try:
            for number, raw in _lines(name, progress, counts):
                try:
                    body, dropped = _converted(raw, number, options)
                except _BadLine as error:
                    where, reason = error.path, error.message
                except MessageError as error:
                    where, reason = error.path or "line", _cli_words(error.reason, in_convert=True)
                else:
                    progress.clear()  # stdout may be the same terminal
                    for path, what in dropped:
                        sys.stderr.write(f"{shown}:{number}: {path}: dropped {what}\n")
                    write(_ENCODER.encode(body) + "\n")
                    continue
                counts.failed += 1
                progress.clear()
                sys.stderr.write(f"{shown}:{number}: {where}: {reason}\n")
        except _UnreadableFile as error:
            counts.unreadable += 1
            progress.clear()
            sys.stderr.write(f"toolturns: {shown}: {error}\n")
    progress.clear()
    written = counts.lines - counts.failed
    sys.stderr.write(
        f"read {_count(counts.lines, 'transcript')} in {counts.elapsed()}: "
        f"{written} converted, {counts.failed} skipped{_not_read(counts)}\n"
    )
    if counts.unreadable:
        return _TROUBLE
    return _FOUND if counts.failed else _CLEAN


def _converted(
    raw: bytes, number: int, options: argparse.Namespace
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """One line as the request body of ``options.target`` (its messages and tools, nothing else),
    and what ``--drop-unsupported`` left out of it, as (path, what)."""
    value = _decoded(raw)
    source: str = options.source
    messages: JSON
    tools: JSON
    if source == "openai":
        messages, tools = _transcript(value)
    else:
        # A native body (or a bare list, which from_request reads too); other
        # keys (model, options) are not messages and are not carried.
        messages, tools = value, value.get("tools") if isinstance(value, dict) else None
    reader = PROVIDERS[source].codec
    read_messages = reader.from_request(messages)
    read_tools = None if tools is None else reader.read_tools(tools)
    target: str = options.target
    body = PROVIDERS[target].codec.to_request(
        read_messages,
        tools=read_tools,
        keep_invalid_arguments=options.keep_invalid_arguments,
        drop_unsupported=options.drop_unsupported,
    )
    if not options.drop_unsupported:
        return body, []
    from .providers._shared import unsupported

    return body, unsupported(read_messages, read_tools or (), target)


# -- reading lines -----------------------------------------------------------------------


class _UnreadableFile(Exception):
    """A file that could not be opened or read to its end; the reason is the message."""


class _BadLine(Exception):
    """A line that holds no transcript: not UTF-8, not JSON, or not the shape of one."""

    def __init__(self, path: str, code: str, message: str) -> None:
        super().__init__(path, code, message)
        self.path = path
        self.code = code
        self.message = message


def _shown(name: str) -> str:
    return "<stdin>" if name == "-" else name


_GZIP_MAGIC = b"\x1f\x8b"


def _binary_input(name: str, files: ExitStack) -> Iterable[bytes]:
    """The bytes of a file or of standard input (``-``), decompressed when they are gzip.

    Gzip is recognised by its first two bytes, not by the name: ``DATA.JSONL.GZ``
    and ``zcat``-less pipes (``toolturns check - < data.gz``) work too.
    """
    if name == "-":
        if sys.stdin is None:  # the process was started with stdin closed (<&-)
            raise OSError(errno.EBADF, "standard input is closed")
        stream: Any = sys.stdin.buffer  # not closed here: it is the process's
    else:
        stream = files.enter_context(open(name, "rb"))  # noqa: SIM115 - closed by the ExitStack
    peek = getattr(stream, "peek", None)
    start = peek(2)[:2] if peek is not None else b""
    if start == _GZIP_MAGIC or (peek is None and name.endswith(".gz")):
        return files.enter_context(gzip.GzipFile(fileobj=stream, mode="rb"))
    return stream  # type: ignore[no-any-return]


def _lines(name: str, progress: _Progress, counts: _Counts) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of a file and their numbers (from 1, blank lines counted), one at a time.

    A UTF-8 byte order mark at the start of the file is dropped: editors on
    Windows start UTF-8 files with one, even empty ones.

    Raises:
        _UnreadableFile: the file cannot be opened, or reading it fails midway (a
            truncated or corrupt gzip file); the lines before were given.
    """
    try:
        with ExitStack() as files:
            for number, raw in enumerate(_binary_input(name, files), 1):
                counts.read += 1
                progress.update(counts.read)
                if number == 1 and raw.startswith(codecs.BOM_UTF8):
                    raw = raw[len(codecs.BOM_UTF8) :]
                if not raw or raw.isspace():
                    continue
                counts.lines += 1
                yield number, raw
    except (OSError, EOFError, zlib.error) as error:
        raise _UnreadableFile(_reason(error)) from None


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror  # "No such file or directory", as a shell says it
    return str(error)  # gzip: "Not a gzipped file (b'{\"')", "Compressed file ended before..."


def _decoded(raw: bytes) -> JSON:
    """The JSON value of a line, or _BadLine (code ``invalid_json``) saying why it is none."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _BadLine(
            "line",
            "invalid_json",
            f"must be UTF-8 text, got byte {raw[error.start]:#04x} at byte {error.start + 1} ({error.reason})",
        ) from None
    try:
        return decode(text)
    except json.JSONDecodeError as error:
        # A position past the last character (the newline) says the line was cut short.
        where = (
            "at the end of the line" if error.pos >= len(text.rstrip()) else f"at character {error.pos + 1}"
        )
        raise _BadLine("line", "invalid_json", f"is not JSON: {error.msg} {where}") from None
    except ValueError as error:  # NaN, a number out of range, nesting too deep
        raise _BadLine("line", "invalid_json", f"is not JSON: {error}") from None


def _transcript(value: JSON) -> tuple[list[JSON], list[JSON] | None]:
    """The messages and tools of a decoded line, or _BadLine (code ``not_a_transcript``)."""
    if isinstance(value, list):
        return value, None
    if not isinstance(value, dict):
        raise _BadLine("line", "not_a_transcript", f"must be {_LINE_SHAPE}, got {json_kind(value)}")
    if "messages" not in value:
        raise _BadLine("messages", "not_a_transcript", f"is required: a line must be {_LINE_SHAPE}")
    messages = value["messages"]
    if not isinstance(messages, list):
        raise _BadLine(
            "messages", "not_a_transcript", f"must be an array of messages, got {json_kind(messages)}"
        )
    tools = value.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise _BadLine(
            "tools", "not_a_transcript", f"must be an array of tool definitions, got {json_kind(tools)}"
        )
    return messages, tools


# -- counting and progress ---------------------------------------------------------------


class _Counts:
    """What a run has seen so far, for the summary and the progress line."""

    __slots__ = ("failed", "lines", "read", "start", "unreadable")

    def __init__(self) -> None:
        self.start = monotonic()
        self.read = 0  # lines read, blank ones included
        self.lines = 0  # transcripts: non-blank lines
        self.failed = 0  # lines with problems, or skipped
        self.unreadable = 0  # files that could not be read to the end

    def elapsed(self) -> str:
        return f"{monotonic() - self.start:.1f} s"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _not_read(counts: _Counts) -> str:
    return f"; {_count(counts.unreadable, 'file')} not read" if counts.unreadable else ""


class _Progress:
    """A line on a terminal's stderr, redrawn in place: lines read so far, and how fast.

    Drawn only when the stream is a terminal (a log file or a pipe would fill
    with carriage returns), at most every ``PROGRESS_EVERY`` seconds, and
    cleared before anything else is written to the terminal.
    """

    __slots__ = ("_next", "_start", "_stream", "_width")

    def __init__(self, stream: TextIO | None, *, enabled: bool) -> None:
        self._stream = stream
        self._start = monotonic()
        # A disabled line is never due: one comparison per line, no branch.
        shown = enabled and stream is not None and stream.isatty()  # None: stderr was closed (2>&-)
        self._next = self._start + PROGRESS_EVERY if shown else float("inf")
        self._width = 0  # of the text on screen; 0 when nothing is shown

    def update(self, lines: int) -> None:
        now = monotonic()
        if now < self._next:
            return
        self._next = now + PROGRESS_EVERY
        assert self._stream is not None  # a line with no stream is never due
        text = f"{_count(lines, 'line')} read, {lines / (now - self._start):.0f} lines/s"
        self._stream.write("\r" + text.ljust(self._width))
        self._stream.flush()
        self._width = len(text)

    def clear(self) -> None:
        if self._width and self._stream is not None:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0

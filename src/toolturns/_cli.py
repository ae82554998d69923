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
import io
import json
import os
import re
import stat
import sys
import traceback
import zlib
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack
from time import monotonic
from typing import Any, NamedTuple, NoReturn, TextIO, TypeAlias, cast

from . import __version__
from ._errors import InvalidTranscript, MessageError, describe
from ._json import _DECODER, _SCAN, JSON, join_key, json_kind, unpadded
from ._transcript import Problem, check_transcript
from .providers import PROVIDERS

__all__ = ["main", "run"]

# Exit statuses: the convention of grep and diff.
_CLEAN, _FOUND, _TROUBLE = 0, 1, 2

#: Seconds between two redraws of the progress line.
PROGRESS_EVERY = 0.2

#: The longest line read, in bytes, its line end not counted (``--max-line-bytes``):
#: twice the largest request a provider takes (Anthropic's 32 MB), so that any
#: line a provider could be sent is read, while one line never holds more memory.
MAX_LINE_BYTES = 64 * 1024 * 1024

# Bytes read at a time while skipping the rest of a line over the limit.
_SKIP_CHUNK = 1024 * 1024

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
    arguments = sys.argv[1:] if argv is None else list(argv)
    if not arguments:
        # No command is a usage error (status 0 would say "nothing found"), but
        # the whole help says more than argparse's one line about it.
        parser.print_help(sys.stderr)
        return _TROUBLE
    try:
        options = parser.parse_args(arguments)
    except SystemExit as stop:
        # argparse exits on --help, --version and usage errors; a caller in
        # the same process gets the status instead of a SystemExit.
        return int(stop.code or 0)
    command: Callable[[argparse.Namespace], int] = options.command
    return command(options)


def run() -> NoReturn:
    """The ``toolturns`` console script and ``python -m toolturns``: ``main()``, then exit with its status."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)  # a TextIOWrapper's, not every stream's
    if reconfigure is not None:
        # Output lines are JSON or name JSON paths: UTF-8 whatever the locale.
        # A lone surrogate (valid in a JSON string escape) can only sit inside
        # a JSON string, where the escape Python writes for it is the JSON
        # escape, so the line stays valid JSON and nothing is lost.
        reconfigure(encoding="utf-8", errors="backslashreplace")
    if sys.stderr is None:  # started with stderr closed (2>&-): reports go nowhere, not into a crash
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    try:
        status = main()
        if sys.stdout is not None:  # None: started with stdout closed (>&-); main() said so if it wrote
            sys.stdout.flush()  # a closed pipe shows here, not in a traceback at exit
    except BrokenPipeError:
        # The reader went away (toolturns check ... | head): the run did not
        # finish. Point stdout at /dev/null so the flush at exit stays quiet.
        if sys.stdout is not None:  # None: started with >&-, so the pipe that broke was another
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
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


_DOCS = "Documentation: docs/cli.md in the toolturns source (the sdist and the repository)."

_CHECK_EXAMPLES = """\
examples:
  toolturns check data.jsonl                         # every problem, one line each
  toolturns check --target anthropic data.jsonl.gz   # add Anthropic's own rules
  zcat logs-*.jsonl.gz | toolturns check -           # standard input
  toolturns check --format json data.jsonl > problems.jsonl
  toolturns check --quiet data.jsonl && echo clean   # the exit status only

exit status: 0 no problems, 1 problems found, 2 usage error or a file not read.
"""

_CONVERT_EXAMPLES = """\
examples:
  toolturns convert --to gemini data.jsonl > gemini.jsonl
  toolturns convert --from anthropic --to openai requests.jsonl > openai.jsonl
  toolturns convert --to ollama --drop-unsupported data.jsonl > ollama.jsonl
  toolturns convert --from sharegpt --to openai sharegpt.jsonl > openai.jsonl

exit status: 0 every line converted, 1 lines skipped, 2 usage error or a file not read.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolturns",
        description="Check and convert JSONL files of chat transcripts with tool calls.",
        epilog="Exit status: 0 nothing found, 1 problems found or lines skipped, 2 usage or I/O error. "
        "Run 'toolturns COMMAND --help' for examples. " + _DOCS,
    )
    parser.add_argument("--version", action="version", version=f"toolturns {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    check = commands.add_parser(
        "check",
        help="report every problem a provider would refuse, one line each",
        description="Report every problem of each transcript, one line each, on standard output.",
        epilog=_CHECK_EXAMPLES + "\n" + _DOCS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
        epilog=_CONVERT_EXAMPLES + "\n" + _DOCS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    convert.set_defaults(command=_convert)
    convert.add_argument(
        "--to", required=True, choices=tuple(PROVIDERS), dest="target", help="the provider to write"
    )
    convert.add_argument(
        "--from",
        choices=(*PROVIDERS, "sharegpt"),
        default="openai",
        dest="source",
        help="the provider whose request bodies the lines are (default: openai, the fine-tuning format), "
        "or sharegpt: ShareGPT conversations with LLaMA-Factory's function_call and observation turns",
    )
    convert.add_argument(
        "--keep-invalid-arguments",
        action="store_true",
        help='send arguments that are not a JSON object as {"_toolturns_raw_arguments": text} instead of skipping',
    )
    convert.add_argument(
        "--drop-unsupported",
        action="store_true",
        help="leave out what the target cannot carry (names, extra keys, strict) instead "
        "of skipping the line; each drop is reported",
    )
    _add_files(convert)
    return parser


def _add_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=_job_count,
        default=1,
        metavar="N",
        help="work in N processes, this one and N-1 workers (default: 1; 0: one per core); "
        "the output is the same, in the same order",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=_line_limit,
        default=MAX_LINE_BYTES,
        metavar="N",
        help=f"a longer line is reported (line_too_long) and skipped unread (default: {MAX_LINE_BYTES}, 64 MiB)",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="JSONL file, one transcript per line; .gz files are decompressed; - reads standard input",
    )


_DIGITS = re.compile(r"[0-9]{1,30}")


def _line_limit(text: str) -> int:
    """The value of --max-line-bytes: a whole number of bytes, at least 1."""
    if not _DIGITS.fullmatch(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of bytes, at least 1, got {text!r}")
    return int(text)


def _job_count(text: str) -> int:
    """The value of --jobs: a whole number of processes, 0 for one per core."""
    if not _DIGITS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"must be a whole number of processes, 0 for one per core, got {text!r}"
        )
    return int(text) or _cores()


def _cores() -> int:
    """The cores this process may use (3.13's ``os.process_cpu_count`` sees an affinity mask)."""
    count: Callable[[], int | None] = getattr(os, "process_cpu_count", os.cpu_count)
    return count() or 1


# -- check -------------------------------------------------------------------------------


def _check(options: argparse.Namespace) -> int:
    if options.jobs > 1:
        return _in_parallel(options, _check_summary)
    write = _output()
    as_json = options.format == "json"
    counts = _Counts()
    progress = _Progress(sys.stderr, enabled=not options.quiet)
    decoded = _Decoder(options.max_line_bytes)
    target, allow_pending = options.target, not options.no_pending  # read once, not a line
    for name in options.files:
        shown = _shown(name)
        try:
            for number, raw in _lines(name, options.max_line_bytes, progress, counts):
                problems = _problems(decoded, raw, target, allow_pending)
                if not problems:
                    continue
                counts.failed += 1
                if options.quiet:
                    continue
                progress.clear()
                write(_problem_lines(shown, number, problems, as_json))
        except _UnreadableFile as error:
            counts.unreadable += 1
            progress.clear()
            sys.stderr.write(_report(f"toolturns: {shown}: {error}"))
    progress.clear()
    return _check_summary(options, counts)


def _problem_lines(shown: str, number: int, problems: list[Problem], as_json: bool) -> str:
    """The report of one line's problems: a line each, as text or JSON."""
    if as_json:
        return "".join(_json_line(shown, number, problem) for problem in problems)
    return "".join(_report(f"{shown}:{number}: {problem}") for problem in problems)


def _check_summary(options: argparse.Namespace, counts: _Counts) -> int:
    """Write check's last line (unless quiet); return the exit status."""
    if not options.quiet:
        found = f"{counts.failed} with problems" if counts.failed else "no problems"
        sys.stderr.write(
            f"{_not_read(counts)}checked {_count(counts.lines, 'transcript')} in {counts.elapsed()}: {found}\n"
        )
    if counts.unreadable:
        return _TROUBLE
    return _FOUND if counts.failed else _CLEAN


def _problems(decoded: _Decoder, raw: _Line, target: str | None, allow_pending: bool) -> list[Problem]:
    """The problems of one line: of the line itself, or of the transcript it holds."""
    try:
        messages, tools = _transcript(decoded(raw))
        problems = check_transcript(messages, target=target, tools=tools, allow_pending=allow_pending)
        return [_in_cli_words(problem) for problem in problems] if problems else problems
    except _BadLine as error:
        return [Problem(None, error.path, error.code, error.message)]
    except InvalidTranscript as error:  # the line's shape is checked first; this is a safety net
        return [Problem(None, error.path or "line", "not_a_transcript", error.reason)]


def _output() -> Callable[[str], object]:
    """How to write to standard output; when it is closed (``>&-``), a write is an I/O error,
    so that a run that writes nothing there (``--quiet``) still gives its verdict."""
    if sys.stdout is not None:
        return sys.stdout.write

    def closed(text: str) -> NoReturn:
        raise OSError(errno.EBADF, "standard output is closed")

    return closed


def _report(line: str) -> str:
    """One line of a text report, every character that is not printable (controls, line and
    paragraph separators, bidirectional overrides, lone surrogates) escaped as repr() escapes it
    (``\\n``, ``\\x1b``, ``\\u2028``): a name, key or id from a file cannot start another line
    or reach the terminal as a control sequence."""
    if not line.isprintable():
        line = "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
    return line + "\n"


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
    return _json_text(fields)


def _json_text(value: object) -> str:
    """``value`` as one compact line of JSON and its newline, every character that is not
    printable as its escape: the encoder escapes the C0 controls, this the rest (DEL, C1
    controls such as CSI, line separators, bidirectional overrides, lone surrogates), so that
    neither a terminal nor ``str.splitlines()`` can take the line apart. The value is the same."""
    line = _ENCODER.encode(value)
    if not line.isprintable():
        line = "".join(char if char.isprintable() else _ASCII.encode(char)[1:-1] for char in line)
    return line + "\n"


_ASCII = json.JSONEncoder()  # ensure_ascii: the \\u escape (a surrogate pair beyond U+FFFF)


# -- convert -----------------------------------------------------------------------------


def _convert(options: argparse.Namespace) -> int:
    if options.jobs > 1:
        return _in_parallel(options, _convert_summary)
    write = _output()
    counts = _Counts()
    progress = _Progress(sys.stderr, enabled=True)
    decoded = _Decoder(options.max_line_bytes)
    for name in options.files:
        shown = _shown(name)
        try:
            for number, raw in _lines(name, options.max_line_bytes, progress, counts):
                reports, body = _convert_line(decoded, raw, options, shown, number)
                progress.clear()  # stdout may be the same terminal
                if reports:
                    sys.stderr.write(reports)
                if body is None:
                    counts.failed += 1
                else:
                    write(body)
        except _UnreadableFile as error:
            counts.unreadable += 1
            progress.clear()
            sys.stderr.write(_report(f"toolturns: {shown}: {error}"))
    progress.clear()
    return _convert_summary(options, counts)


def _convert_line(
    decoded: Callable[[Any], JSON], raw: Any, options: argparse.Namespace, shown: str, number: int
) -> tuple[str, str | None]:
    """One line converted: what to report of it on stderr (what was dropped, or why it was
    skipped), and its body as a line of output, None when it is skipped."""
    try:
        body, dropped = _converted(decoded(raw), options)
    except _BadLine as error:
        where, reason = error.path, error.message
    except MessageError as error:
        where, reason = error.path or "line", _cli_words(error.reason, in_convert=True)
    else:
        reports = "".join(_report(f"{shown}:{number}: {path}: dropped {what}") for path, what in dropped)
        return reports, _json_text(body)
    return _report(f"{shown}:{number}: {where}: {reason}"), None


def _convert_summary(options: argparse.Namespace, counts: _Counts) -> int:
    """Write convert's last line; return the exit status."""
    written = counts.lines - counts.failed
    sys.stderr.write(
        f"{_not_read(counts)}read {_count(counts.lines, 'transcript')} in {counts.elapsed()}: "
        f"{written} converted, {counts.failed} skipped\n"
    )
    if counts.unreadable:
        return _TROUBLE
    return _FOUND if counts.failed else _CLEAN


def _converted(value: JSON, options: argparse.Namespace) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """One line's value as the request body of ``options.target`` (its messages and tools, nothing
    else), and what ``--drop-unsupported`` left out of it, as (path, what)."""
    source: str = options.source
    messages: JSON
    tools: JSON
    if source == "sharegpt":  # an input format, not a wire: its own reader, imported when asked
        from . import _sharegpt

        read_messages, read_tools = _sharegpt.read(value)
    else:
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


# -- in worker processes: --jobs N ------------------------------------------------------

#: The raw bytes of lines sent to a worker at a time: enough to make a batch's cost
#: (a pickle, a pipe, a wake-up) small against checking its lines.
BATCH_BYTES = 512 * 1024

#: Batches sent to the workers and not yet written, per worker: enough to keep each busy
#: while the output of the oldest is written, few enough to keep memory bounded.
IN_FLIGHT = 3


def _in_parallel(options: argparse.Namespace, summary: Callable[[argparse.Namespace, _Counts], int]) -> int:
    """Run check or convert in ``options.jobs`` processes: this one and ``jobs - 1`` workers.

    This process reads the files and hands them in batches to the workers; when as many
    batches as they can keep busy with are on their way, it checks (or converts) the next
    batch itself, its share of the work, instead of waiting. What each batch gives is
    written here, in the order of the lines, as one process writes it.

    A batch of a regular file is a ``_Span``, where its lines lie, and the process that
    checks it reads them: reading every line here, and pickling, piping and unpickling a
    worker's, cost this process as much as a fifth of its time. Other input (standard
    input, gzip, Parquet) goes as the lines themselves.
    """
    import signal
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing import get_context

    # POSIX only (Windows has no signal mask; a worker there ignores Ctrl-C from its initializer on).
    mask: Callable[[int, set[int]], set[int]] = getattr(signal, "pthread_sigmask", _no_mask)

    write = _output()
    counts = _Counts()
    progress = _Progress(sys.stderr, enabled=not getattr(options, "quiet", False))
    job = _job_of(options)
    # Each batch's outcome in the order of the lines, a worker's to come or this process's,
    # with the batch: a span a worker could not read is read here.
    pending: deque[tuple[Future[_Outcome | None] | _Outcome | None, str, _Batch | _Span]] = deque()
    away = 0  # the futures among them
    most_away = IN_FLIGHT * (options.jobs - 1)
    most_pending = IN_FLIGHT * options.jobs  # this process's share is waited for too
    # (Forking, multiprocessing flushes stdout and stderr first: a worker does not write what
    # this process had buffered a second time.)
    workers = ProcessPoolExecutor(
        options.jobs - 1,
        mp_context=get_context(_start_method()),
        initializer=_start_worker,
        initargs=(options,),
    )

    def write_next() -> None:
        nonlocal away
        outcome, shown, batch = pending.popleft()
        if isinstance(outcome, Future):
            away -= 1
            outcome = outcome.result()
        if outcome is None:
            outcome = _done(job, shown, batch)
        if outcome is None:
            assert isinstance(batch, _Span)  # only a span reads differently the second time
            raise _Changed(f"changed while it was read: lines {batch.before + 1}-{batch.last} moved")
        transcripts, (failed, pieces) = outcome
        counts.lines += transcripts
        counts.failed += failed
        for to_stderr, text in pieces:
            progress.clear()
            (sys.stderr.write if to_stderr else write)(text)

    def send(shown: str, batch: _Batch | _Span) -> None:
        nonlocal away
        if len(pending) >= most_pending:  # memory stays bounded: the oldest is written first
            write_next()
        if away < most_away:
            # Workers are started in submit() (forked all at the first, spawned one by one as
            # they are due). Ctrl-C reaches every process of the terminal's group, and one
            # that is still importing would die with a traceback: it starts with Ctrl-C
            # blocked (the mask outlives fork and exec) and ignores it from its initializer
            # on. Here a Ctrl-C meanwhile waits, and comes right after.
            previous = mask(getattr(signal, "SIG_BLOCK", 0), {signal.SIGINT})
            try:
                pending.append((workers.submit(_work, shown, batch), shown, batch))
            finally:
                mask(getattr(signal, "SIG_SETMASK", 2), previous)
            away += 1
        else:
            pending.append((_done(job, shown, batch), shown, batch))
        while pending and not (isinstance(pending[0][0], Future) and not pending[0][0].done()):
            write_next()

    finished = False
    try:
        for name in options.files:
            shown = _shown(name)
            try:
                for batch in _batches(name, options.max_line_bytes, progress, counts):
                    send(shown, batch)
                while pending:  # a file's lines are all written before what is said of the file
                    write_next()
            except _UnreadableFile as error:
                if isinstance(error, _Changed):  # what comes after the lines that moved is not written
                    away -= sum(isinstance(outcome, Future) for outcome, _, _ in pending)
                    pending.clear()
                while pending:
                    write_next()
                counts.unreadable += 1
                progress.clear()
                sys.stderr.write(_report(f"toolturns: {shown}: {error}"))
        finished = True
    finally:
        # On Ctrl-C or a closed pipe, what was not started is dropped; each worker ends
        # after its batch (they ignore Ctrl-C: this process stops them), and the
        # interpreter waits for them at exit, so none is left behind.
        workers.shutdown(wait=finished, cancel_futures=True)
    progress.clear()
    return summary(options, counts)


def _start_method() -> str:
    """How the workers start: forked on Linux from a process with no other thread, which is
    the command line's (a worker starts in milliseconds, with everything imported); spawned
    anywhere else, since a fork copies no thread but the caller's, and a lock another thread
    held stays held in the copy (a test runner, a notebook, a server), and macOS's system
    libraries are not safe across a fork. A spawned worker starts a new interpreter and
    imports toolturns: about 0.1 s, a twentieth of checking 200 MB in two processes."""
    import threading

    return "fork" if sys.platform == "linux" and threading.active_count() == 1 else "spawn"


def _no_mask(how: int, signals: set[int]) -> set[int]:
    return set()


# A batch: lines and their numbers, as _lines gives them.
_Batch: TypeAlias = "list[tuple[int, _Line]]"


class _Span(NamedTuple):
    """Where a batch's lines lie in a regular file: from byte ``start``, after line ``before``
    (``_numbered`` counts on from it), to line ``last``; the longest line read is ``limit``
    bytes."""

    name: str
    start: int
    before: int
    last: int
    limit: int


def _batches(name: str, limit: int, progress: _Progress, counts: _Counts) -> Iterator[_Batch | _Span]:
    """The lines of a file in batches of about ``BATCH_BYTES``: for a regular file, uncompressed,
    spans (``_Span``), whose lines the process that checks them reads itself; for other input
    (standard input, gzip, Parquet), the lines as ``_lines`` gives them (and ``_LINE_COST`` a
    line, so that batches of tiny or skipped lines stay bounded too).

    Raises:
        _UnreadableFile: as ``_lines``; the lines before were given, in a last batch.
    """
    batch: _Batch = []
    size = 0
    failure: _UnreadableFile | None = None
    try:
        with ExitStack() as files:
            stream = _binary_input(name, files)
            lines: Iterator[tuple[int, _Line]]
            if _in_place(name, stream):
                failed_at = yield from _spans(name, stream, limit, progress, counts)
                if failed_at is None:
                    return
                # Reading a span failed: the rest line by line, as one process reads it,
                # so that the lines before the failure are given.
                lines = _numbered(stream.readline, limit, failed_at, progress, counts)
            else:
                lines = _read(stream, limit, progress, counts)
            for number, raw in lines:
                batch.append((number, raw))
                size += _LINE_COST + (len(raw) if raw is not None else 0)
                if size >= BATCH_BYTES:
                    yield batch
                    batch, size = [], 0
    except _READ_ERRORS as error:
        failure = _UnreadableFile(_reason(error))
    except _UnreadableFile as error:  # Parquet's
        failure = error
    if batch:
        yield batch
    if failure is not None:
        raise failure


def _in_place(name: str, stream: Any) -> bool:
    """Whether another process can read the lines of ``stream`` by opening ``name``: a regular
    file, not compressed."""
    if name == "-" or not isinstance(stream, io.BufferedReader) or _is_parquet(stream):
        return False
    return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)


def _spans(
    name: str, stream: Any, limit: int, progress: _Progress, counts: _Counts
) -> Generator[_Span, None, int | None]:
    """The spans of an open regular file, each ``BATCH_BYTES`` and on to the end of the line it
    stops in (a line too long is skipped unread, as ``_lines`` skips it): only its line ends
    are counted here. Returns None at the end of the file, or the number of the last line of
    the spans given when reading failed, the file at the start of the next."""
    number = 0
    while True:
        start = stream.tell()
        try:
            data = stream.read(BATCH_BYTES)
            if not data:
                return None
            ends = data.count(b"\n")
            if not data.endswith(b"\n"):
                ends += 1  # the line it stops in, read to its end (or the file's)
                _skip_rest(stream.readline)
        except OSError:
            stream.seek(start)
            return number
        counts.read += ends
        progress.update(counts.read)
        yield _Span(name, start, number, number + ends, limit)
        number += ends


# What one line costs a batch besides its bytes.
_LINE_COST = 64

# What checking or converting a batch gives: the lines that failed, and the text to write,
# to stderr (True) or stdout (False), in order.
_Done = tuple[int, list[tuple[bool, str]]]

# What a batch gave, with the transcripts (non-blank lines) of a span, which only the
# process that checked it has counted (a batch of lines was counted as it was read).
_Outcome = tuple[int, _Done]

# The worker's command, set by _start_worker.
_job: Callable[[str, _Batch], _Done]


def _start_worker(options: argparse.Namespace) -> None:
    """Set up a worker process for ``options``' command."""
    import signal

    # Ctrl-C reaches every process of the terminal's group: the main one stops the run.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _job
    _job = _job_of(options)


def _job_of(options: argparse.Namespace) -> Callable[[str, _Batch], _Done]:
    """What checks or converts a batch of lines for ``options``' command, in any process."""
    return _checker(options) if options.command is _check else _converter(options)


def _work(shown: str, batch: _Batch | _Span) -> _Outcome | None:
    return _done(_job, shown, batch)


def _done(job: Callable[[str, _Batch], _Done], shown: str, batch: _Batch | _Span) -> _Outcome | None:
    """``job`` of a batch, the lines of a span read first; None when a span no longer reads."""
    if not isinstance(batch, _Span):
        return 0, job(shown, batch)
    lines = _span_lines(batch)
    if lines is None:
        return None
    return len(lines), job(shown, lines)


def _span_lines(span: _Span) -> _Batch | None:
    """The lines of a span, as ``_lines`` gave them; None when the file no longer holds them
    (it was removed or truncated meanwhile)."""
    lines: _Batch = []
    counts = _Counts()
    quiet = _Progress(None, enabled=False)
    try:
        with open(span.name, "rb") as file:
            file.seek(span.start)
            for number, raw in _numbered(file.readline, span.limit, span.before, quiet, counts):
                if number > span.last:  # the span's last lines were blank
                    return lines
                lines.append((number, raw))
                if number == span.last:
                    return lines
    except OSError:
        return None
    # The file ended: after the span's lines (its last ones blank, and maybe blank lines past
    # it), or before them (it was truncated).
    return lines if counts.read >= span.last - span.before else None


def _checker(options: argparse.Namespace) -> Callable[[str, _Batch], _Done]:
    decoded = _Decoder(options.max_line_bytes)
    target, allow_pending, as_json, quiet = (
        options.target,
        not options.no_pending,
        options.format == "json",
        options.quiet,
    )

    def check(shown: str, batch: _Batch) -> _Done:
        failed = 0
        report: list[str] = []
        for number, raw in batch:
            problems = _problems(decoded, raw, target, allow_pending)
            if problems:
                failed += 1
                if not quiet:
                    report.append(_problem_lines(shown, number, problems, as_json))
        return failed, [(False, "".join(report))] if report else []

    return check


def _converter(options: argparse.Namespace) -> Callable[[str, _Batch], _Done]:
    decoded = _Decoder(options.max_line_bytes)

    def convert(shown: str, batch: _Batch) -> _Done:
        failed = 0
        pieces: list[tuple[bool, str]] = []
        for number, raw in batch:
            reports, body = _convert_line(decoded, raw, options, shown, number)
            if reports:
                pieces.append((True, reports))
            if body is None:
                failed += 1
            else:
                pieces.append((False, body))
        return failed, _joined(pieces)

    return convert


def _joined(pieces: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """The pieces with each run of pieces to the same stream joined into one."""
    from itertools import groupby

    return [(to_stderr, "".join(text for _, text in run)) for to_stderr, run in groupby(pieces, _stream_of)]


def _stream_of(piece: tuple[bool, str]) -> bool:
    return piece[0]


# -- reading lines -----------------------------------------------------------------------


# What the reader gives for each line: its bytes, a Parquet row, or None for a line too long to read.
_Line: TypeAlias = "bytes | _Row | None"


class _UnreadableFile(Exception):
    """A file that could not be opened or read to its end; the reason is the message."""


class _Changed(_UnreadableFile):
    """A file whose lines were no longer where they had been read (--jobs): it was truncated,
    or removed, meanwhile."""


class _BadLine(Exception):
    """A line that holds no transcript: too long, not UTF-8, not JSON, or not the shape of one."""

    def __init__(self, path: str, code: str, message: str) -> None:
        super().__init__(path, code, message)
        self.path = path
        self.code = code
        self.message = message


def _shown(name: str) -> str:
    return "<stdin>" if name == "-" else name


_GZIP_MAGIC = b"\x1f\x8b"


def _binary_input(name: str, files: ExitStack) -> Any:
    """The bytes of a file or of standard input (``-``), decompressed when they are gzip: a binary stream.

    Gzip is recognised by its first two bytes, not by the name: ``DATA.JSONL.GZ``
    and ``zcat``-less pipes (``toolturns check - < data.gz``) work too.
    """
    if name == "-":
        if sys.stdin is None:  # the process was started with stdin closed (<&-)
            raise OSError(errno.EBADF, "standard input is closed")
        stream: Any = sys.stdin.buffer  # not closed here: it is the process's
    else:
        try:
            stream = files.enter_context(open(name, "rb"))  # noqa: SIM115 - closed by the ExitStack
        except ValueError as error:  # main(["check", "a\0b"]): no command line can pass such a name
            raise _UnreadableFile(_not_a_file_name(error)) from None
    peek = getattr(stream, "peek", None)
    start = peek(2)[:2] if peek is not None else b""
    if start == _GZIP_MAGIC or (peek is None and name.endswith(".gz")):
        return files.enter_context(gzip.GzipFile(fileobj=stream, mode="rb"))
    return stream


def _not_a_file_name(error: ValueError) -> str:
    if isinstance(error, UnicodeEncodeError):  # a lone surrogate, not one that os.fsdecode made
        return f"is not a file name: the file system cannot spell {describe(error.object[error.start])}"
    return "is not a file name: it holds a NUL byte"


def _lines(name: str, limit: int, progress: _Progress, counts: _Counts) -> Iterator[tuple[int, _Line]]:
    """The non-blank lines of a file and their numbers (from 1, blank lines counted), one at a time;
    None for a line longer than ``limit`` bytes, which is skipped without being held.

    Lines are read ``limit`` + 1 bytes at most, and the rest of a longer one in
    chunks, so memory stays flat whatever the input: a 4 GB line, gzip of
    zeros, /dev/zero. Blank means JSON white space only (space, tab, CR, LF):
    a line of form feeds is not blank, and not JSON either. A UTF-8 byte order
    mark at the start of the file is dropped: editors on Windows start UTF-8
    files with one, even empty ones.

    Raises:
        _UnreadableFile: the file cannot be opened, or reading it fails midway (a
            truncated or corrupt gzip file); the lines before were given.
    """
    try:
        with ExitStack() as files:
            yield from _read(_binary_input(name, files), limit, progress, counts)
    except _READ_ERRORS as error:
        raise _UnreadableFile(_reason(error)) from None


def _read(stream: Any, limit: int, progress: _Progress, counts: _Counts) -> Iterator[tuple[int, _Line]]:
    """``_lines`` of an open stream: its Parquet rows, or its lines."""
    if _is_parquet(stream):
        return _rows(stream, progress, counts)
    return _numbered(stream.readline, limit, 0, progress, counts)


_READ_ERRORS = (OSError, EOFError, zlib.error)


def _numbered(
    readline: Callable[[int], bytes], limit: int, number: int, progress: _Progress, counts: _Counts
) -> Iterator[tuple[int, bytes | None]]:
    """``_lines`` of what ``readline`` reads, the line before the first one being ``number``."""
    # Not a call a line when the progress line is not shown (stderr a file or a pipe).
    update = progress.update if progress.shown else None
    while raw := readline(limit + 1):
        number += 1
        counts.read += 1
        if update is not None:
            update(counts.read)
        if len(raw) > limit and not raw.endswith(b"\n"):
            counts.lines += 1
            raw = b""  # not held while the line is reported
            yield number, None
            _skip_rest(readline)
            continue
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        if not raw or (raw.isspace() and not raw.strip(_JSON_SPACE)):  # isspace(): a quick no
            continue
        counts.lines += 1
        yield number, raw


_JSON_SPACE = b" \t\r\n"


def _skip_rest(readline: Callable[[int], bytes]) -> None:
    """Read past the end of the current line, a chunk at a time, keeping nothing."""
    while (chunk := readline(_SKIP_CHUNK)) and not chunk.endswith(b"\n"):
        pass


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror  # "No such file or directory", as a shell says it
    return str(error)  # gzip: "Not a gzipped file (b'{\"')", "Compressed file ended before..."


# -- reading Parquet --------------------------------------------------------------------

_PARQUET_MAGIC = b"PAR1"

#: Rows read from a Parquet file at a time: what is held of it while they are checked.
PARQUET_BATCH_ROWS = 256

_PARQUET_COLUMNS = ("messages", "tools")


def _is_parquet(stream: Any) -> bool:
    """A Parquet file starts with its magic bytes (and ends with them, after its footer)."""
    peek = getattr(stream, "peek", None)
    return peek is not None and bytes(peek(4)[:4]) == _PARQUET_MAGIC


def _rows(stream: Any, progress: _Progress, counts: _Counts) -> Iterator[tuple[int, _Row]]:
    """The rows of a Parquet file and their numbers (from 1), a record batch at a time, as
    ``_lines`` gives lines: only the ``messages`` and ``tools`` columns are read."""
    try:
        import pyarrow.parquet as parquet  # type: ignore[import-untyped]
        from pyarrow import ArrowException
    except ImportError:
        raise _UnreadableFile("reading Parquet needs pyarrow: pip install 'toolturns[parquet]'") from None
    if not stream.seekable():  # the footer, which says where everything is, comes last
        raise _UnreadableFile("is Parquet, which is read from a file, not a pipe: name the file")
    try:
        table = parquet.ParquetFile(stream)
        names = table.schema_arrow.names
        if "messages" not in names:
            raise _UnreadableFile(
                f"has no 'messages' column, which holds the transcripts (its columns: {', '.join(names)})"
            )
        columns = [column for column in _PARQUET_COLUMNS if column in names]
        number = 0
        for batch in table.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns):
            values = [batch.column(column).to_pylist() for column in columns]
            size = batch.nbytes // max(batch.num_rows, 1)
            for row in zip(*values, strict=True):
                number += 1
                counts.read += 1
                counts.lines += 1
                progress.update(counts.read)
                yield number, _Row(dict(zip(columns, row, strict=True)), size)
    except ArrowException as error:  # not Parquet after all, cut short, corrupt
        raise _UnreadableFile(f"is not Parquet toolturns reads: {error}") from None


class _Row:
    """A Parquet row: its ``messages`` and ``tools`` as pyarrow gives them, which are the keys
    of a JSONL line; a column of JSON text is read as the text of that key's value.

    A struct column gives every row every field it has in any row, ``None`` where a row has
    none: a user message gets ``"tool_calls": None``, a tool's schema the ``properties`` of
    every other tool, as ``"city": None``. Arrow cannot say "absent": those nulls are read
    as ``_unpadded`` says. (JSON text says what it means: its nulls stay.)
    """

    __slots__ = ("_size", "_values")

    def __init__(self, values: dict[str, Any], size: int) -> None:
        self._values = values
        self._size = size

    def __len__(self) -> int:
        """Its share of its record batch's bytes: what a line's length is to a batch of work."""
        return self._size

    def __getstate__(self) -> tuple[dict[str, Any], int]:
        return self._values, self._size

    def __setstate__(self, state: tuple[dict[str, Any], int]) -> None:
        self._values, self._size = state

    def value(self) -> dict[str, Any]:
        """The row as a decoded line, or _BadLine when a column of JSON text is not JSON."""
        return {
            key: _careful(value, column=key) if isinstance(value, str) else _unpadded(key, value)
            for key, value in self._values.items()
        }


def _unpadded(column: str, value: Any) -> Any:
    """A Parquet cell read as ``toolturns.datasets`` reads one: Arrow's null padding left out
    of tool definitions, at any depth; messages as they are, since the readers take a null
    key of a message, call or part as none, and a null argument has a meaning."""
    return unpadded(value) if column == "tools" else value


# -- decoding a line -------------------------------------------------------------------

# Reads the string token whose opening quote is just before the index: (its value, the index after it).
_STRING: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_WHITE = " \t\n\r"  # JSON's white space, nothing else
# Skips JSON's white space; it matches anywhere, if only the empty string.
_SPACE = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)


class _Slow(ValueError):
    """The fast reading of a line stops here: a key repeats, or something the careful reading explains."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Slow
    return value


# The decoder of _json (no NaN, no float out of range) refusing a repeated key.
_UNIQUE_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(
    parse_float=_DECODER.parse_float, parse_constant=_DECODER.parse_constant, object_pairs_hook=_unique_keys
).scan_once  # type: ignore[attr-defined]


class _Decoder:
    """The JSON values of the lines of one run, or ``_BadLine`` saying why a line has none.

    A key repeated in an object is refused (``duplicate_key``): ``json`` keeps
    the last value silently, another reader the first. Seeing every object's
    keys costs a Python call per object; most of a dataset's objects are the
    tool definitions sent again with every line. So the top-level object is
    read key by key, and a value whose text is exactly that of the same key
    the last time a line had it (the tools, usually) is known to repeat no
    key and is decoded at full speed; every other value is decoded with the
    check. An object or array whose text came the two times before is not
    decoded at all: it is the value it gave then (its text says where it
    ends), which the command only reads. Not the second time: a tool list is
    remembered by ``check_transcript`` when an equal list, not the same
    object, comes twice (``_transcript._LastTools``).
    A line that this reading does not take (not JSON, a repeated key, a
    scalar) is read again carefully, and what that finds is what is said.
    """

    __slots__ = ("_known", "_limit", "_repeated", "_values")

    def __init__(self, limit: int) -> None:
        self._limit = limit
        # For each top-level key, the text of its last value read (no key repeats in it); for
        # the keys whose text was the same as the time before, that value.
        self._known: dict[str, str] = {}
        self._values: dict[str, Any] = {}
        self._repeated: set[str] = set()

    def __call__(self, raw: _Line) -> JSON:
        if raw is None:
            raise _BadLine(
                "line",
                "line_too_long",
                f"is longer than {self._limit} bytes (toolturns' --max-line-bytes limit); skipped unread",
            )
        if isinstance(raw, _Row):  # read already
            return raw.value()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _BadLine(
                "line",
                "invalid_json",
                f"must be UTF-8 text, got byte {raw[error.start]:#04x} at byte {error.start + 1} ({error.reason})",
            ) from None
        try:
            return self._fast(text)
        except (ValueError, StopIteration, IndexError, RecursionError):  # _Slow, JSONDecodeError: ValueErrors
            return _careful(text)

    def _fast(self, text: str) -> JSON:
        # Most lines start with their value and end with it and a line feed: no regular
        # expression for the white space around it then.
        index = 0 if text[0] not in _WHITE else _SPACE(text, 0).end()
        if text.startswith("{", index):
            value, end = self._object(text, index)
        elif text.startswith("[", index):
            value, end = _UNIQUE_SCAN(text, index)
        else:  # a scalar holds no transcript: not worth a fast path
            raise _Slow
        size = len(text)
        if end != size and not (end == size - 1 and text[end] == "\n") and _SPACE(text, end).end() != size:
            raise _Slow
        return value

    def _object(self, text: str, index: int) -> tuple[dict[str, Any], int]:
        """The top-level object at ``index`` (a ``{``) and the index after it.

        Each step looks at one character and skips white space only when there is some:
        the layouts of json.dumps, compact or not, cost no regular expression.
        """
        # Kept across lines, changed in place: what a value read here gives is checked already.
        known, values, repeated = self._known, self._values, self._repeated
        value: dict[str, Any] = {}
        index += 1
        while True:
            if text[index] in _WHITE:
                index = index + 1 if text[index + 1] not in _WHITE else _SPACE(text, index).end()
            if text[index] != '"':
                raise _Slow  # "}" of an empty object too: rare enough for the careful reading
            key, index = _STRING(text, index + 1)
            if text[index] in _WHITE:
                index = index + 1 if text[index + 1] not in _WHITE else _SPACE(text, index).end()
            if text[index] != ":" or key in value:
                raise _Slow
            index += 1
            if text[index] in _WHITE:
                index = index + 1 if text[index + 1] not in _WHITE else _SPACE(text, index).end()
            same = known.get(key)
            # A JSON value's text says where it ends, so the value at index is that known
            # text when the text there starts with it; or, for a number, holds no object.
            if same is not None and text.startswith(same, index):
                if key in repeated and same[0] in "{[":  # the third time: the last value itself
                    item, end = values[key], index + len(same)
                else:
                    item, end = _SCAN(text, index)
                    if end - index == len(same):
                        repeated.add(key)
                        values[key] = item
                    else:  # a longer number
                        known[key] = text[index:end]
            else:
                item, end = _UNIQUE_SCAN(text, index)
                known[key] = text[index:end]
                # Only a value whose text repeats is kept: a line's messages are not held
                # while the next line is read.
                if key in repeated:
                    repeated.discard(key)
                    values.pop(key, None)
            value[key] = item
            index = end
            if text[index] in _WHITE:
                index = index + 1 if text[index + 1] not in _WHITE else _SPACE(text, index).end()
            if text[index] == "}":
                return value, index + 1
            if text[index] != ",":
                raise _Slow
            index += 1


class _Pairs(list[tuple[str, Any]]):
    """An object as the careful reading keeps it: its (key, value) pairs in order, repeats included."""


class _LongInteger(ValueError):
    def __init__(self, digits: int, limit: int) -> None:
        super().__init__(digits, limit)
        self.digits = digits
        self.limit = limit


def _integer(token: str) -> int:
    # Python refuses to read an integer of more than sys.get_int_max_str_digits()
    # digits, with advice for Python programmers: said here in the CLI's words.
    limit = sys.get_int_max_str_digits()
    digits = len(token) - token.startswith("-")
    if limit and digits > limit:
        raise _LongInteger(digits, limit)
    return int(token)


_PAIRS = json.JSONDecoder(
    parse_float=_DECODER.parse_float,
    parse_constant=_DECODER.parse_constant,
    parse_int=_integer,
    object_pairs_hook=_Pairs,
)


def _careful(text: str, column: str | None = None) -> JSON:
    """The value of a line the fast reading did not take, or the _BadLine that says why there is none.

    With ``column``, the text is the value of that key (a Parquet column of JSON text), and
    the paths start there.
    """
    where = "line" if column is None else column
    try:
        pairs = _PAIRS.decode(text)
        # A line's object is the root of its paths, a bare array is its messages.
        root = column if column is not None else "" if isinstance(pairs, _Pairs) else "messages"
        repeated = _first_repeat(pairs, root)
        if repeated is not None:
            raise _BadLine(
                repeated,
                "duplicate_key",
                "is a key its object already has: JSON readers keep one of the values (Python's the "
                "last), so the line does not say one thing",
            )
        value: JSON = _DECODER.decode(text)
        return value
    except json.JSONDecodeError as error:
        # A position past the last character (the newline) says the line was cut short.
        end = len(text.rstrip(" \t\r\n"))
        at = (
            f"at the end of the {'line' if column is None else 'text'}"
            if error.pos >= end
            else f"at character {error.pos + 1}"
        )
        what = error.msg.removesuffix(" at")  # "Unterminated string starting at", then where
        raise _BadLine(where, "invalid_json", f"is not JSON: {what} {at}") from None
    except _LongInteger as error:
        raise _BadLine(
            where,
            "invalid_json",
            f"is not JSON toolturns reads: an integer of {error.digits} digits, over toolturns' limit of "
            f"{error.limit} digits",
        ) from None
    except RecursionError:
        raise _BadLine(
            where,
            "invalid_json",
            "is not JSON toolturns reads: arrays and objects nest deeper than toolturns' limit (about "
            f"{sys.getrecursionlimit()} levels, Python's recursion limit)",
        ) from None
    except ValueError as error:  # NaN, a number out of range
        raise _BadLine(where, "invalid_json", f"is not JSON: {error}") from None


def _first_repeat(value: object, root: str) -> str | None:
    """The path of the first key of ``value`` (as ``_PAIRS`` reads it) that its object already has,
    in the order of the text; None when no key repeats. Iterative: any depth read is walked."""
    if not isinstance(value, list):
        return None
    stack: list[tuple[str, Iterator[tuple[str | int, Any]], set[str | int] | None]] = [
        (
            root,
            iter(value) if isinstance(value, _Pairs) else enumerate(value),
            set() if isinstance(value, _Pairs) else None,
        )
    ]
    while stack:
        path, items, keys = stack[-1]
        for key, child in items:
            if keys is not None:
                if key in keys:
                    return join_key(path, key)
                keys.add(key)
            if isinstance(child, list):
                objects = isinstance(child, _Pairs)
                stack.append(
                    (
                        join_key(path, key),
                        iter(child) if objects else enumerate(child),
                        set() if objects else None,
                    )
                )
                break
        else:
            stack.pop()
    return None


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
    """The first words of the summary when a file could not be read: the run is not whole."""
    return f"{_count(counts.unreadable, 'file')} not read; " if counts.unreadable else ""


class _Progress:
    """A line on a terminal's stderr, redrawn in place: lines read so far, and how fast.

    Drawn only when the stream is a terminal (a log file or a pipe would fill
    with carriage returns), at most every ``PROGRESS_EVERY`` seconds, and
    cleared before anything else is written to the terminal.
    """

    __slots__ = ("_next", "_start", "_stream", "_width", "shown")

    def __init__(self, stream: TextIO | None, *, enabled: bool) -> None:
        self._stream = stream
        self._start = monotonic()
        # A disabled line is never due: one comparison per update, no branch.
        self.shown = enabled and stream is not None and stream.isatty()  # None: stderr was closed (2>&-)
        self._next = self._start + PROGRESS_EVERY if self.shown else float("inf")
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

"""The ``cli`` fuzz target: the command line's line reader and ``convert``, on a file of any bytes.

One input is an options byte and the bytes of a file. The options say how the
file comes in (a file, gzip, gzip cut short, standard input), the line limit
(``--max-line-bytes``: the default, 64 or 1024) and the provider ``convert
--from`` reads the lines as. ``check_cli`` runs ``check`` (text and JSON) and
``convert`` to every provider, then converts what convert wrote again, and
asserts the command's promises (docs/cli.md): one problem is one printable
line, the text and JSON reports say the same, the exit status is the verdict,
every line is counted, and what convert writes reads back.

Standard library and toolturns only, as fuzz/invariants.py: the test suite runs
``check_cli`` with hypothesis (tests/property/test_fuzz_invariants.py).
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import io
import json
import random
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolturns._cli import main
from toolturns.providers import PROVIDERS

__all__ = ["SOURCES", "check_cli", "cli_input", "cli_seeds", "mutate_cli"]

#: What the options byte's bits 4-6 choose for ``convert --from`` (modulo their number).
SOURCES = tuple(PROVIDERS)
_FILE, _GZIP, _CUT_GZIP, _STDIN = range(4)  # bits 0-1: how the file comes in
_LIMITS = (None, 64, 1024, None)  # bits 2-3: --max-line-bytes, None for the default
_JSON_SPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"

_folder: Path | None = None


def _scratch() -> Path:
    """One folder for the files of every input of this process, removed at exit."""
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="toolturns-fuzz-cli-"))
        atexit.register(shutil.rmtree, _folder, True)
    return _folder


def cli_input(options: int, content: bytes) -> bytes:
    """An input of the target: the options byte, then the file's bytes."""
    return bytes([options & 0xFF]) + content


def _run(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """``main(argv)`` with stdout and stderr captured (and ``stdin`` as standard input)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(stdin)), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def _escaped(text: str) -> str:
    """The documented escaping of a text report line: each unprintable character as repr() writes it."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _pieces(content: bytes) -> list[bytes]:
    """The lines of ``content`` without their newlines, as the command numbers them (no empty last one)."""
    pieces = content.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return pieces


def _blank(piece: bytes, number: int) -> bool:
    if number == 1 and piece.startswith(_BOM):
        piece = piece[len(_BOM) :]
    return not piece.strip(_JSON_SPACE)


_CHECKED = re.compile(
    r"(?:(\d+) files? not read; )?checked (\d+) transcripts? in \d+\.\d s: (?:no problems|(\d+) with problems)"
)
_CONVERTED = re.compile(
    r"(?:(\d+) files? not read; )?read (\d+) transcripts? in \d+\.\d s: (\d+) converted, (\d+) skipped"
)


def _summary(pattern: re.Pattern[str], err: str) -> re.Match[str]:
    last = err.split("\n")[-2] if err.endswith("\n") else ""
    found = pattern.fullmatch(last)
    assert found is not None, f"no summary at the end of stderr: {err[-300:]!r}"
    return found


def _reports(err: str, shown: str) -> list[str]:
    """The lines of stderr before the summary, each a printable report about the file."""
    lines = err.split("\n")[:-2]
    for line in lines:
        assert line.isprintable(), f"a report line is not printable: {line!r}"
        assert line.startswith((f"{shown}:", f"toolturns: {shown}: ")), f"a report line about what? {line!r}"
    return lines


def check_cli(data: bytes) -> None:
    """``check`` and ``convert`` on the file ``data`` describes (``cli_input``): see the module docstring."""
    options, content = (data[0], data[1:]) if data else (0, b"")
    kind, limit = options & 3, _LIMITS[(options >> 2) & 3]
    source = SOURCES[(options >> 4) % len(SOURCES)]
    stdin = content if kind == _STDIN else None
    name, shown = "-", "<stdin>"
    if kind != _STDIN:
        path = _scratch() / "data.jsonl"
        packed = gzip.compress(content, compresslevel=1) if kind != _FILE else content
        path.write_bytes(packed[:-8] if kind == _CUT_GZIP else packed)  # no CRC, no length: cut short
        name = shown = str(path)
    # A plain file that starts like gzip is read as gzip, and is likely no gzip file at all; any
    # input that starts with Parquet's magic bytes (PAR1) is read as Parquet (docs/cli.md).
    readable = (kind in (_GZIP, _CUT_GZIP) or not content.startswith(b"\x1f\x8b")) and not content.startswith(
        b"PAR1"
    )
    unreadable = kind == _CUT_GZIP
    limited = [] if limit is None else ["--max-line-bytes", str(limit)]
    pieces = _pieces(content)
    # The transcripts: the lines that are not blank, and those over the limit, which are not read
    # to see whether they are (docs/cli.md).
    lines = [
        number
        for number, piece in enumerate(pieces, 1)
        if not _blank(piece, number) or (limit is not None and len(piece) > limit)
    ]

    # check, as text and as JSON: the same problems, one printable line each.
    status, text, err = _run(["check", *limited, name], stdin)
    json_status, as_json, json_err = _run(["check", "--format", "json", *limited, name], stdin)
    assert (status, err.count("\n")) == (json_status, json_err.count("\n")), "text and JSON runs differ"
    problems = [json.loads(line) for line in as_json.splitlines()]
    assert as_json.count("\n") == len(problems), "a JSON problem spans lines"
    assert text.count("\n") == len(problems), f"{text.count(chr(10))} text lines for {len(problems)} problems"
    for line, problem in zip(text.split("\n"), problems, strict=False):
        assert set(problem) == {"file", "line", "index", "path", "code", "message"}, problem
        assert problem["file"] == shown
        expected = _escaped(
            f"{problem['file']}:{problem['line']}: {problem['path']}: {problem['code']}: {problem['message']}"
        )
        assert line == expected, f"the text line {line!r} is not the JSON problem {expected!r}"
    for line in as_json.splitlines():
        assert line.isprintable(), f"a JSON line is not printable: {line!r}"
    numbers = [problem["line"] for problem in problems]
    assert numbers == sorted(numbers), "problems are not in line order"
    assert set(numbers) <= set(lines), "a problem at a blank line or past the end"
    too_long = {problem["line"] for problem in problems if problem["code"] == "line_too_long"}
    if limit is not None and readable and not unreadable:
        assert too_long == {n for n in lines if len(pieces[n - 1]) > limit}, (
            "line_too_long at the wrong lines"
        )
    elif limit is None:
        assert not too_long, "a line too long for the default limit"
    _reports(err, shown)
    summary = _summary(_CHECKED, err)
    if unreadable:
        assert status == 2, f"a gzip file cut short: status {status}"
        assert summary.group(1) == "1", f"a gzip file cut short, read: {err[-200:]!r}"
    elif readable:
        assert summary.group(1) is None, f"a readable file not read: {err[-200:]!r}"
        assert int(summary.group(2)) == len(lines), (
            f"{summary.group(2)} transcripts counted, {len(lines)} lines"
        )
        assert int(summary.group(3) or 0) == len(set(numbers)), "the lines with problems miscounted"
        assert status == (1 if problems else 0), f"status {status} with {len(problems)} problems"

    # convert from the source to every provider; what it writes reads back, to the same body.
    for target in PROVIDERS:
        status, out, err = _run(["convert", "--from", source, "--to", target, *limited, name], stdin)
        bodies = out.splitlines()
        assert out.count("\n") == len(bodies), "a body spans lines"
        for body in bodies:
            assert body.isprintable(), f"a body line is not printable: {body!r}"
            assert isinstance(json.loads(body), dict), "a body is not an object"
        skipped = _reports(err, shown)
        summary = _summary(_CONVERTED, err)
        assert int(summary.group(3)) == len(bodies), "the bodies miscounted"
        assert int(summary.group(4)) == len([line for line in skipped if not line.startswith("toolturns: ")])
        if readable and not unreadable:
            assert int(summary.group(2)) == len(lines), "transcripts miscounted"
            assert status == (1 if int(summary.group(4)) else 0), f"status {status}, {summary.group()}"
        if bodies:
            _reads_back(target, out)


def _reads_back(target: str, out: str) -> None:
    """What ``convert --to target`` wrote is ``target``'s request bodies: ``convert --from target`` reads
    every line and writes the very same bodies to ``target`` again. (Not to any other provider: each takes
    its own tool names, and Ollama's, ``a:b`` say, are not OpenAI's; docs/transcripts.md.)"""
    path = _scratch() / "written.jsonl"
    path.write_bytes(out.encode("utf-8"))
    status, again, err = _run(["convert", "--from", target, "--to", target, str(path)])
    assert (status, again) == (0, out), f"{target} bodies do not read back the same: {err[:300]!r}"


# -- seeds and mutations -----------------------------------------------------------------


def cli_seeds(transcripts: list[Any], bodies: dict[str, list[Any]]) -> list[bytes]:
    """Inputs to start from: dataset lines (``transcripts``, JSON values or raw text) in each way of
    coming in and with each limit, and each provider's request ``bodies`` read with ``--from`` it."""
    lines = [item if isinstance(item, str) else json.dumps(item, ensure_ascii=False) for item in transcripts]
    content = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    made = [cli_input(kind | limit << 2, content) for kind in range(4) for limit in range(3)]
    made.append(cli_input(0, _BOM + b"\n \t\r\n\x0c\n" + content[:2000] + b"\x00" * 3000))
    for number, source in enumerate(SOURCES):
        native = "\n".join(json.dumps(body, ensure_ascii=False) for body in bodies.get(source, []))
        made.append(cli_input(number << 4, native.encode("utf-8", "surrogatepass") + b"\n"))
    return made


def mutate_cli(
    data: bytes, rng: random.Random, mutate_json: Callable[[Any], Any], mutate_bytes: Callable[[bytes], bytes]
) -> bytes:
    """``data`` with its options changed, or one line edited as JSON (``mutate_json``), repeated,
    dropped, cut or made long; the byte mutations (``mutate_bytes``) for the rest."""
    options, content = (data[0], data[1:]) if data else (0, b"")
    choice = rng.randrange(6)
    if choice == 0:
        return cli_input(options ^ (1 << rng.randrange(7)), content)
    lines = content.split(b"\n")
    index = rng.randrange(len(lines))
    if choice == 1:
        try:
            value = json.loads(lines[index])
        except (ValueError, RecursionError):
            return mutate_bytes(data)
        try:
            edited = json.dumps(mutate_json(value), ensure_ascii=rng.random() < 0.5)
        except (ValueError, RecursionError):
            return mutate_bytes(data)
        lines[index] = edited.encode("utf-8", "surrogatepass")
    elif choice == 2:
        lines.insert(index, lines[index])
    elif choice == 3 and len(lines) > 1:
        del lines[index]
    elif choice == 4:
        lines[index] = lines[index][: rng.randrange(len(lines[index]) + 1)]
    else:
        lines[index] += rng.choice([b" ", b"\x00", b"x", b'"a"']) * rng.choice([1, 70, 1100])
    return cli_input(options, b"\n".join(lines))

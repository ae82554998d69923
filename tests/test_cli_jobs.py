"""``toolturns check --jobs N`` and ``convert --jobs N``: worker processes that change nothing
of the output (the same lines, in the same order, the same status), bounded batches, and no
worker left behind after Ctrl-C."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import gzip
import io
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolturns import _cli as cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = [
    ROOT / "examples" / "broken.jsonl",
    ROOT / "examples" / "transcripts.jsonl",
    ROOT / "tests" / "data" / "openai" / "vision_fine_tuning.jsonl",
]
TOOLTURNS = Path(sys.executable).parent / "toolturns"

# Every command line of both commands whose output differs: formats, targets, options.
COMMANDS = [
    ["check"],
    ["check", "--format", "json"],
    ["check", "--target", "gemini", "--no-pending"],
    ["check", "--target", "anthropic", "--quiet"],
    ["convert", "--to", "anthropic"],
    ["convert", "--to", "gemini", "--drop-unsupported"],
    ["convert", "--to", "ollama", "--keep-invalid-arguments"],
]


def timeless(err: str) -> str:
    """stderr with the time of the summary replaced: the one thing two runs may not share."""
    return re.sub(r" in \d+\.\d s: ", " in T s: ", err)


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, timeless(err)


def same_with_jobs(capsys: pytest.CaptureFixture[str], command: list[str], *files: str) -> None:
    alone = run(capsys, [*command, "--jobs", "1", *files])
    together = run(capsys, [*command, "--jobs", "2", *files])
    assert together == alone


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch per line or two, and few in flight: every path between batches is taken."""
    monkeypatch.setattr(cli, "BATCH_BYTES", 100)
    monkeypatch.setattr(cli, "IN_FLIGHT", 1)


@pytest.mark.usefixtures("small_batches")
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_the_output_with_jobs_is_the_output_of_one_process(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """All fixtures in one run (the workers are started once): stdout, stderr and status alike."""
    same_with_jobs(capsys, command, *map(str, FIXTURES))


@pytest.mark.usefixtures("small_batches")
def test_files_not_read_are_reported_in_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, and a gzip file cut short after some lines: their lines first, then what
    is said of the file, then the next file; status 2."""
    lines = (ROOT / "examples" / "broken.jsonl").read_bytes()
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(lines)[:-200])
    files = [str(cut), str(tmp_path / "missing.jsonl"), str(FIXTURES[0])]
    same_with_jobs(capsys, ["check"], *files)
    same_with_jobs(capsys, ["convert", "--to", "gemini"], *files)
    status, out, err = run(capsys, ["check", "--jobs", "2", *files])
    assert status == 2
    assert "toolturns: " + str(cut) + ": Compressed file ended before" in err
    assert out.startswith(str(cut) + ":1: ")


@pytest.mark.usefixtures("small_batches")
def test_too_long_lines_and_max_line_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes((ROOT / "examples" / "transcripts.jsonl").read_bytes() + b"[" * 5000 + b"\n\n[]\n")
    for command in (["check"], ["convert", "--to", "responses"]):
        same_with_jobs(capsys, [*command, "--max-line-bytes", "2000"], str(path))
    status, out, _ = run(capsys, ["check", "--jobs", "2", "--max-line-bytes", "2000", str(path)])
    assert status == 1
    assert ": line: line_too_long: is longer than 2000 bytes" in out


LINES = st.sampled_from(
    [
        b"",
        b"  \t",
        b'{"messages": [{"role": "user", "content": "Hi"}]}',
        b'[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]',
        b'{"messages": [{"role": "tool", "tool_call_id": "c1", "content": "18"}]}',
        b'{"messages": [{"role": "user", "content": "Hi"}',
        b'{"messages": [{"role": "user", "role": "user", "content": "Hi"}]}',
        b"\xff\xfe",
        b"42",
        b'{"messages": [{"role": "user", "content": "' + b"x" * 300 + b'"}]}',
        *(ROOT / "examples" / "broken.jsonl").read_bytes().splitlines()[:12],
    ]
)


@settings(max_examples=10)
@example(lines=[], batch=1, command=["check"], start=b"", end=b"\n\n  \n")  # spans of blank lines only
@given(
    lines=st.lists(LINES, max_size=40),
    batch=st.integers(1, 2000),
    command=st.sampled_from(COMMANDS),
    start=st.sampled_from([b"", codecs.BOM_UTF8, codecs.BOM_UTF8 * 2]),
    end=st.sampled_from([b"", b"\n", b"\r\n", b"\n\n  \n"]),
)
def test_any_file_gives_the_same_output_with_jobs(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    batch: int,
    command: list[str],
    start: bytes,
    end: bytes,
) -> None:
    """Generated files, batches of any size (--max-line-bytes 200 makes some lines too long), a
    byte order mark or two, any end: the spans the workers read hold the lines one process
    reads."""
    path = tmp_path_factory.mktemp("jobs") / "data.jsonl"
    path.write_bytes(start + b"\n".join(lines) + end)
    outputs = []
    saved = cli.BATCH_BYTES
    cli.BATCH_BYTES = batch  # the batches are made in this process
    try:
        for jobs in ("1", "2"):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main([*command, "--jobs", jobs, "--max-line-bytes", "200", str(path)])
            outputs.append((status, out.getvalue(), timeless(err.getvalue())))
    finally:
        cli.BATCH_BYTES = saved
    alone, together = outputs
    assert together == alone


def _spans(path: Path, batch: int, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setattr(cli, "BATCH_BYTES", batch)
    return list(cli._batches(str(path), 200, cli._Progress(None, enabled=False), cli._Counts()))


def test_a_span_reads_what_one_process_reads_and_nothing_once_the_file_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "data.jsonl"
    # Spans that end in blank lines, in the middle of the file and at its end.
    content = (ROOT / "examples" / "broken.jsonl").read_bytes().replace(b"\n", b"\n" + b" \n" * 40)
    path.write_bytes(content)
    spans = _spans(path, 300, monkeypatch)
    assert len(spans) > 3
    assert all(isinstance(span, cli._Span) for span in spans)
    lines = list(cli._lines(str(path), 200, cli._Progress(None, enabled=False), cli._Counts()))
    read = [cli._span_lines(span) for span in spans]
    assert [] in read  # a span of blank lines only, at the end: nothing moved
    assert [line for each in read for line in (each if each is not None else [None])] == lines
    # Truncated: the last span's lines are no longer all there; removed: none are.
    path.write_bytes(content[: spans[-1].start + 10])
    assert cli._span_lines(spans[-1]) is None
    assert cli._span_lines(spans[0]) == lines[: len(cli._span_lines(spans[0]) or [])]
    path.unlink()
    assert cli._span_lines(spans[0]) is None


class _FailingReads(io.BufferedReader):
    """A regular file whose read() fails from its ``good``-th call on, as a disk may; its
    readline() keeps working, so reading line by line gives the lines one process gives."""

    def __init__(self, path: str, good: int) -> None:
        super().__init__(io.FileIO(path))
        self.good = good

    def read(self, size: int | None = -1) -> bytes:
        self.good -= 1
        if self.good < 0:
            raise OSError(5, "Input/output error")
        return super().read(size)


@pytest.mark.parametrize("good", [0, 2])
def test_a_span_that_fails_to_read_is_read_again_line_by_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], good: int
) -> None:
    """The lines from the failed span on are read as one process reads them: the same output."""
    fixture = str(FIXTURES[0])
    alone = run(capsys, ["check", "--jobs", "1", fixture])
    opened = cli._binary_input

    def failing(name: str, files: contextlib.ExitStack) -> Any:
        opened(name, files).close()
        return files.enter_context(_FailingReads(name, good))

    monkeypatch.setattr(cli, "_binary_input", failing)
    monkeypatch.setattr(cli, "BATCH_BYTES", 2000)
    batches = list(
        cli._batches(fixture, cli.MAX_LINE_BYTES, cli._Progress(None, enabled=False), cli._Counts())
    )
    assert [type(batch) for batch in batches[:good]] == [cli._Span] * good
    assert batches[good:]
    assert all(isinstance(batch, list) for batch in batches[good:])
    assert run(capsys, ["check", "--jobs", "2", fixture]) == alone


class _Unreadable:
    """An executor whose workers cannot read a span (the file changed under them, say): what
    they give, a moment later, is None, as _work gives then."""

    def __init__(self, *args: object, **options: object) -> None:
        pass

    def submit(self, function: object, *args: object) -> Future[None]:
        future: Future[None] = Future()
        threading.Timer(0.02, future.set_result, (None,)).start()
        return future

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        pass


def test_a_span_a_worker_could_not_read_is_read_here(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = str(FIXTURES[0])
    alone = run(capsys, ["check", "--jobs", "1", fixture])
    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", _Unreadable)
    monkeypatch.setattr(cli, "BATCH_BYTES", 500)
    assert run(capsys, ["check", "--jobs", "2", fixture]) == alone
    # Not here either: the file is reported as changed, once, and nothing after the lines that
    # moved; then the next file.
    monkeypatch.setattr(cli, "_span_lines", lambda span: None)
    status, out, err = run(capsys, ["check", "--jobs", "2", fixture, fixture])
    assert status == 2
    assert out == ""
    assert err.count(f"toolturns: {fixture}: changed while it was read: lines 1-") == 2
    assert err.count("changed while it was read") == 2


@pytest.mark.parametrize(("text", "jobs"), [("1", 1), ("3", 3), ("0", cli._cores())])
def test_jobs_is_a_number_of_processes_0_for_each_core(text: str, jobs: int) -> None:
    assert cli._parser().parse_args(["check", "--jobs", text, "data.jsonl"]).jobs == jobs


def test_cores_are_what_the_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "process_cpu_count", lambda: 3, raising=False)
    assert cli._cores() == 3
    monkeypatch.setattr(os, "process_cpu_count", lambda: None, raising=False)
    assert cli._cores() == 1  # the count cannot be known: one process


@pytest.mark.parametrize("text", ["-1", "two", "1.5", ""])
def test_jobs_must_be_a_whole_number(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert cli.main(["check", "--jobs", text, "data.jsonl"]) == 2
    assert (
        f"argument --jobs: must be a whole number of processes, 0 for one per core, got {text!r}"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "argv", [["check", "--format", "json"], ["check", "--quiet"], ["convert", "--to", "gemini"]], ids=" ".join
)
def test_a_worker_ignores_ctrl_c_and_does_a_batch_as_one_process_would(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """What a worker process runs, here in this one: Ctrl-C is the main process's to handle.
    It checks a batch of lines, or reads the lines of a span and checks them."""
    fixture = str(FIXTURES[0])
    options = cli._parser().parse_args([*argv, fixture])
    quiet = cli._Progress(None, enabled=False)
    batch = list(cli._lines(fixture, cli.MAX_LINE_BYTES, quiet, cli._Counts()))
    [span] = cli._batches(fixture, cli.MAX_LINE_BYTES, quiet, cli._Counts())
    assert isinstance(span, cli._Span)
    previous = signal.getsignal(signal.SIGINT)
    try:
        cli._start_worker(options)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    # A span's transcripts are counted by the process that reads it, a batch's by the reader.
    outcome = cli._work(fixture, batch)
    assert outcome is not None
    counted, (failed, pieces) = outcome
    assert counted == 0
    assert cli._work(fixture, span) == (len(batch), (failed, pieces))
    _, out, err = run(capsys, [*argv, fixture])
    assert "".join(text for to_stderr, text in pieces if not to_stderr) == out
    assert "".join(text for to_stderr, text in pieces if to_stderr) == "".join(err.splitlines(True)[:-1])
    assert (
        f", {failed} skipped\n" in err or f": {failed} with problems\n" in err or (failed == 16 and not err)
    )
    # Runs of pieces to the same stream are joined: stdout and stderr alternate.
    assert all(a[0] != b[0] for a, b in itertools.pairwise(pieces))


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc (Linux)")
def test_ctrl_c_leaves_no_worker_behind(tmp_path: Path) -> None:
    """Ctrl-C on a terminal signals the whole process group: the run stops with status 130, and
    the workers end with it. Standard input stays open, so the run is surely midway."""
    lines = (ROOT / "examples" / "transcripts.jsonl").read_bytes() * 50
    with subprocess.Popen(
        [str(TOOLTURNS), "check", "--jobs", "3", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    ) as process:
        assert process.stdin is not None
        process.stdin.write(lines)
        process.stdin.flush()
        deadline = time.monotonic() + 60
        # The two workers (and, when they are spawned, the resource tracker).
        while len(workers := _children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=60) == 130
        assert process.stderr is not None
        assert b"Traceback" not in process.stderr.read()
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, workers))


def test_workers_are_forked_only_on_linux_from_a_process_with_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(sys, "platform", "linux")
    assert cli._start_method() == "fork"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cli._start_method() == "spawn"
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert cli._start_method() == "spawn"


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
@pytest.mark.parametrize("command", [["check"], ["convert", "--to", "anthropic"]], ids=" ".join)
def test_forked_workers_give_the_output_of_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """The command line is one thread: its workers are forked. Several spans each, and what
    this process wrote before is written once."""
    path = tmp_path / "data.jsonl"
    path.write_bytes((ROOT / "examples" / "broken.jsonl").read_bytes() * 400)
    alone = run(capsys, [*command, "--jobs", "1", str(path)])
    script = (
        "import sys; from toolturns import _cli; print('before', end='');"
        f" sys.exit(_cli.main({[*command, '--jobs', '2', str(path)]!r}))"
    )
    together = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (together.returncode, together.stdout, timeless(together.stderr)) == (
        alone[0],
        "before" + alone[1],
        alone[2],
    )
    assert path.stat().st_size > 4 * cli.BATCH_BYTES


def test_options_of_a_worker_pickle() -> None:
    """The options travel to each spawned worker: the command is known by name there."""
    import pickle

    options = cli._parser().parse_args(["check", "--jobs", "2", "x.jsonl"])
    copy = pickle.loads(pickle.dumps(options))
    assert isinstance(copy, argparse.Namespace)
    assert copy.command is cli._check


@pytest.mark.usefixtures("small_batches")
def test_without_a_signal_mask_as_on_windows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has no pthread_sigmask: the workers are spawned all the same."""
    monkeypatch.delattr(signal, "pthread_sigmask")
    same_with_jobs(capsys, ["check"], str(FIXTURES[0]))


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the bounds are in KiB, the unit of ru_maxrss on Linux (macOS reports bytes); CI runs on Linux",
)
def test_memory_with_jobs_stays_flat_on_a_large_file(tmp_path: Path) -> None:
    """A 30 MB file takes each process of ``--jobs 2`` about the memory a 1 MB file does: the
    lines travel in batches, a few in flight per worker, never the whole file."""
    from tests.test_cli import generate, peak_kib

    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    generate(small, 1)
    generate(large, 30)
    # The largest of the command and its workers.
    small_kib = peak_kib(TOOLTURNS, "check", "--jobs", "2", small)
    large_kib = peak_kib(TOOLTURNS, "check", "--jobs", "2", large)
    assert large_kib - small_kib < 20 * 1024, (small_kib, large_kib)


def test_the_reader_going_away_stops_the_workers_quietly(tmp_path: Path) -> None:
    """``toolturns check --jobs 2 big | head -1``: status 2, no traceback, no worker left."""
    path = tmp_path / "broken.jsonl"
    path.write_bytes((b'[{"role": "tool", "tool_call_id": "c", "content": "18"}]\n') * 20_000)
    with subprocess.Popen(
        [str(TOOLTURNS), "check", "--jobs", "2", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        assert child.stdout is not None
        assert child.stderr is not None
        child.stdout.readline()
        workers = _children(child.pid)
        child.stdout.close()  # as head does after its line
        error = child.stderr.read()
        status = child.wait(timeout=60)
    assert status == 2
    assert error == b""
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, workers))

"""``toolturns check`` and ``convert`` on Parquet files (the ``parquet`` extra): rows read in
record batches as the lines of a JSONL file, struct columns padded with nulls, JSON-text
columns, ``FILE:ROW:`` locations, and the error without pyarrow."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolturns import _cli as cli
from toolturns.providers import PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
CLEAN = [
    json.loads(line) for line in (ROOT / "examples" / "transcripts.jsonl").read_text("utf-8").splitlines()
]


def timeless(err: str) -> str:
    return re.sub(r" in \d+\.\d s: ", " in T s: ", err)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, timeless(err)


def parquet(path: Path, rows: list[dict[str, Any]], **options: Any) -> str:
    pq.write_table(pa.Table.from_pylist(rows), path, **options)
    return str(path)


def jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), "utf-8")
    return str(path)


def as_json_text(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its messages and tools as JSON text: how datasets store values of mixed types."""
    return {key: None if value is None else json.dumps(value) for key, value in row.items()}


def _transcript_line(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None
    return {"messages": value["messages"], "tools": value.get("tools")}


# The lines of examples/broken.jsonl that are objects with messages: one for most problem codes.
BROKEN = [
    row
    for text in (ROOT / "examples" / "broken.jsonl").read_text("utf-8").splitlines()
    if (row := _transcript_line(text)) is not None
]


def test_struct_columns_padded_with_nulls_read_as_absent_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Arrow gives every message every key of the struct (``"tool_calls": None`` on a user
    message, ``"tool_call_id": None``, ``"name": None``): the bundled transcripts stay clean."""
    path = parquet(tmp_path / "clean.parquet", CLEAN, row_group_size=7)
    first = pq.read_table(path).column("messages").to_pylist()[0][0]
    assert first["tool_calls"] is None  # the padding is there
    assert run(capsys, "check", path) == (0, "", "checked 40 transcripts in T s: no problems\n")
    assert run(capsys, "check", "--target", "gemini", path)[0] == 0


@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_a_parquet_file_as_its_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    from_parquet = run(capsys, "convert", "--to", target, parquet(tmp_path / "d.parquet", CLEAN))
    from_jsonl = run(capsys, "convert", "--to", target, jsonl(tmp_path / "d.jsonl", CLEAN))
    assert from_parquet == from_jsonl
    assert from_parquet[1].count("\n") == 40


def test_arguments_stored_as_structs_keep_their_nulls_as_convert_batch_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Arguments as objects: Arrow gives each call a null for every argument another call has,
    and a null argument means something, so it is kept, by the command line and by
    ``toolturns.datasets.convert_batch`` alike; a tool's null padding is left out by both."""
    from toolturns.datasets import convert_batch

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"id": f"call_{name}", "type": "function", "function": {"name": name, "arguments": arguments}}

    def tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
        schema = {"type": "object", "properties": properties}
        return {"type": "function", "function": {"name": name, "parameters": schema}}

    rows = [
        {
            "messages": [
                {"role": "user", "content": "Weather and time?"},
                {"role": "assistant", "content": None, "tool_calls": [call("a", {"city": "Oslo"})]},
                {"role": "tool", "tool_call_id": "call_a", "content": "-2 C"},
                {"role": "assistant", "content": None, "tool_calls": [call("b", {"tz": None, "n": 1})]},
                {"role": "tool", "tool_call_id": "call_b", "content": "09:00"},
            ],
            "tools": [tool("a", {"city": {"type": "string"}}), tool("b", {"tz": {"type": "string"}})],
        }
    ]
    path = parquet(tmp_path / "d.parquet", rows)
    stored = pq.read_table(path).to_pylist()[0]
    assert stored["messages"][1]["tool_calls"][0]["function"]["arguments"] == {
        "city": "Oslo",
        "tz": None,
        "n": None,
    }
    assert stored["tools"][0]["function"]["parameters"]["properties"]["tz"] is None  # padding
    status, out, _ = run(capsys, "convert", "--to", "anthropic", path)
    assert status == 0
    [batch_body] = convert_batch(pq.read_table(path).to_pydict(), to="anthropic")["body"]
    assert json.loads(out) == json.loads(batch_body)
    body = json.loads(out)
    assert body["messages"][1]["content"][0]["input"] == {"city": "Oslo", "tz": None, "n": None}
    assert body["tools"][0]["input_schema"]["properties"] == {"city": {"type": "string"}}


@pytest.mark.parametrize(
    "command", [["check"], ["check", "--target", "anthropic"], ["convert", "--to", "gemini"]]
)
def test_json_text_columns_give_the_problems_of_the_same_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Values of mixed types do not fit a column of one type, so datasets keep them as JSON text:
    each row then says what the same line of a JSONL file says, at ``FILE:ROW:``."""
    assert len(BROKEN) > 20
    rows = [as_json_text(row) for row in BROKEN]
    status, out, err = run(capsys, *command, parquet(tmp_path / "d.parquet", rows))
    expected = run(capsys, *command, jsonl(tmp_path / "d.parquet", BROKEN))  # the same name
    assert (status, out, err) == expected
    assert status == 1
    assert re.search(r"d\.parquet:\d+: messages", out + err)


def test_rows_are_numbered_from_1_across_batches_and_row_groups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "PARQUET_BATCH_ROWS", 3)
    rows = [as_json_text(row) for row in CLEAN]
    rows[9]["messages"] = '[{"role": "tool", "tool_call_id": "call_9", "content": "18"}]'
    rows[30]["messages"] = "[1"
    path = parquet(tmp_path / "d.parquet", rows, row_group_size=7)
    status, out, err = run(capsys, "check", "--format", "json", path)
    assert status == 1
    assert [(p["line"], p["path"], p["code"]) for p in map(json.loads, out.splitlines())] == [
        (10, "messages[0].tool_call_id", "result_before_call"),
        (31, "messages", "invalid_json"),
    ]
    assert err == "checked 40 transcripts in T s: 2 with problems\n"


@pytest.mark.parametrize(
    ("column", "text", "path", "code", "message"),
    [
        (
            "messages",
            "[1",
            "messages",
            "invalid_json",
            "is not JSON: Expecting ',' delimiter at the end of the text",
        ),
        ("messages", "{}", "messages", "not_a_transcript", "must be an array of messages, got object"),
        ("tools", '[{"a": 1, "a": 2}]', "tools[0].a", "duplicate_key", "is a key its object already has"),
        ("tools", '{"a": 1, "a": 2}', "tools.a", "duplicate_key", "is a key its object already has"),
        ("tools", '"x"', "tools", "not_a_transcript", "must be an array of tool definitions, got str"),
        ("tools", "NaN", "tools", "invalid_json", "is not JSON: NaN is not JSON"),
        (
            "tools",
            "[" * 5000,
            "tools",
            "invalid_json",
            "is not JSON toolturns reads: arrays and objects nest deeper",
        ),
        (
            "tools",
            "1" * 5000,
            "tools",
            "invalid_json",
            "is not JSON toolturns reads: an integer of 5000 digits",
        ),
    ],
)
def test_json_text_that_does_not_read_is_a_problem_of_its_column(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    column: str,
    text: str,
    path: str,
    code: str,
    message: str,
) -> None:
    row = {"messages": '[{"role": "user", "content": "Hi"}]', "tools": None, column: text}
    status, out, _ = run(capsys, "check", parquet(tmp_path / "d.parquet", [row]))
    assert status == 1
    assert out.startswith(f"{tmp_path / 'd.parquet'}:1: {path}: {code}: {message}"), out


def test_a_null_row_and_no_tools_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = parquet(
        tmp_path / "d.parquet", [{"messages": [{"role": "user", "content": "Hi"}]}, {"messages": None}]
    )
    assert run(capsys, "check", path) == (
        1,
        f"{path}:2: messages: not_a_transcript: must be an array of messages, got null\n",
        "checked 2 transcripts in T s: 1 with problems\n",
    )


def test_a_file_without_a_messages_column_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = parquet(tmp_path / "d.parquet", [{"conversations": "[]", "id": 1}])
    status, out, err = run(capsys, "check", path)
    assert (status, out) == (2, "")
    assert err.startswith(
        f"toolturns: {path}: has no 'messages' column, which holds the transcripts (its columns: conversations, id)\n"
    )
    assert run(capsys, "check", "--jobs", "2", path) == (status, out, err)


def test_a_corrupt_parquet_file_is_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.parquet"
    path.write_bytes(b"PAR1 and then no Parquet at all\n")
    status, _, err = run(capsys, "check", str(path))
    assert status == 2
    assert err.startswith(f"toolturns: {path}: is not Parquet toolturns reads: ")


def test_standard_input_a_file_but_not_a_pipe(tmp_path: Path) -> None:
    path = parquet(tmp_path / "d.parquet", CLEAN)
    with open(path, "rb") as file:
        redirected = subprocess.run(
            [sys.executable, "-m", "toolturns", "check", "-"],
            stdin=file,
            capture_output=True,
            text=True,
            check=False,
        )
    assert (redirected.returncode, redirected.stderr[:22]) == (0, "checked 40 transcripts")
    piped = subprocess.run(
        [sys.executable, "-m", "toolturns", "check", "-"],
        input=Path(path).read_bytes(),
        capture_output=True,
        check=False,
    )
    assert piped.returncode == 2
    assert piped.stderr.decode().startswith(
        "toolturns: <stdin>: is Parquet, which is read from a file, not a pipe: name the file\n"
    )


# pyarrow made unimportable, as where the extra is not installed.
WITHOUT_PYARROW = """
import sys
sys.modules["pyarrow"] = None
from toolturns._cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_without_pyarrow_the_error_names_the_extra(tmp_path: Path) -> None:
    path = parquet(tmp_path / "data.parquet", CLEAN)
    other = jsonl(tmp_path / "data.jsonl", CLEAN)
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_PYARROW, "check", path, other],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2  # a file not read; the JSONL file is checked all the same
    assert run.stderr.splitlines()[0] == (
        f"toolturns: {path}: reading Parquet needs pyarrow: pip install 'toolturns[parquet]'"
    )
    assert "1 file not read; checked 40 transcripts" in run.stderr


def test_without_pyarrow_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = parquet(tmp_path / "data.parquet", CLEAN)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert run(capsys, "check", path) == (
        2,
        "",
        f"toolturns: {path}: reading Parquet needs pyarrow: pip install 'toolturns[parquet]'\n"
        "1 file not read; checked 0 transcripts in T s: no problems\n",
    )


def test_a_pipe_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = Path(parquet(tmp_path / "d.parquet", [{"messages": "[]"}])).read_bytes()
    reader, writer = os.pipe()
    os.write(writer, data)
    os.close(writer)
    with open(reader, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(pipe))
        status, _, err = run(capsys, "check", "-")
    assert status == 2
    assert err.startswith("toolturns: <stdin>: is Parquet, which is read from a file, not a pipe")


def test_importing_the_cli_does_not_import_pyarrow() -> None:
    code = "import sys, toolturns._cli; print('pyarrow' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "False\n"


def test_jobs_on_a_parquet_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows travel to the workers in batches, as lines do, and come back in order."""
    monkeypatch.setattr(cli, "PARQUET_BATCH_ROWS", 5)
    monkeypatch.setattr(cli, "BATCH_BYTES", 3000)
    path = parquet(tmp_path / "d.parquet", [as_json_text(row) for row in BROKEN + CLEAN], row_group_size=11)
    for command in (["check"], ["convert", "--to", "ollama"]):
        alone = run(capsys, *command, "--jobs", "1", path)
        assert run(capsys, *command, "--jobs", "2", path) == alone
        assert alone[0] == 1


def test_a_row_pickles_for_the_workers() -> None:
    row = cli._Row({"messages": "[]", "tools": None}, 12)
    copy = pickle.loads(pickle.dumps(row))
    assert (copy.value(), len(copy)) == ({"messages": [], "tools": None}, 12)


@settings(max_examples=30)
@given(
    texts=st.lists(
        st.tuples(
            st.one_of(
                st.none(),
                st.text(max_size=40),
                st.recursive(st.none(), lambda c: st.lists(c)).map(json.dumps),
            ),
            st.one_of(st.none(), st.text(max_size=40)),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_any_json_text_columns_give_problems_not_exceptions(
    tmp_path_factory: pytest.TempPathFactory, texts: list[tuple[str | None, str | None]]
) -> None:
    path = tmp_path_factory.mktemp("parquet") / "d.parquet"
    pq.write_table(
        pa.table({"messages": pa.array([m for m, _ in texts], pa.string()), "tools": [t for _, t in texts]}),
        path,
    )
    counts = cli._Counts()
    rows = list(cli._lines(str(path), cli.MAX_LINE_BYTES, cli._Progress(None, enabled=False), counts))
    assert [number for number, _ in rows] == list(range(1, len(texts) + 1))
    decoded = cli._Decoder(cli.MAX_LINE_BYTES)
    for _, row in rows:
        for problem in cli._problems(decoded, row, None, True):
            assert problem.code  # every row is clean or has problems, never an exception

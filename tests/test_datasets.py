"""toolturns.datasets: check_batch and convert_batch on plain column batches (every shape a
dataset engine hands over), and for real on Hugging Face ``datasets`` Datasets loaded from
JSONL and Parquet files, under ``map(num_proc=2)``, and on a local Ray cluster."""

from __future__ import annotations

import functools
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import datasets  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from toolturns import ChatMessage, InvalidTranscript, MessageError, Tool, ToolCall, check_transcript, openai
from toolturns.datasets import check_batch, convert_batch
from toolturns.providers import PROVIDERS

WEATHER = Tool(
    "get_weather",
    "Current weather in a city",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
TIME = Tool(
    "get_time",
    "",
    {"type": "object", "properties": {"tz": {"type": "string", "enum": ["UTC", "CET"]}}},
    strict=True,
)
TOOLS = [openai.tool_definition(WEATHER), openai.tool_definition(TIME)]
PARIS = ToolCall("call_1", "get_weather", {"city": "Paris"})
GOOD = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather in Paris?"),
    ChatMessage.assistant_tool_calls([PARIS]),
    ChatMessage.tool_result("call_1", '{"temperature": 18}'),
    ChatMessage.assistant("18 °C in Paris."),
]
UNANSWERED = [*GOOD[1:3], ChatMessage.user("Hello?")]
NAMED = [ChatMessage.user("Hi", name="bob"), ChatMessage.assistant("Hello.")]

#: Rows of the fine-tuning format, as a JSONL file holds them: each wire dict as it is.
ROWS: list[dict[str, Any]] = [
    {"messages": [m.to_wire() for m in GOOD], "tools": TOOLS},
    {"messages": [m.to_wire() for m in UNANSWERED], "tools": TOOLS[:1]},
    {"messages": [m.to_wire() for m in NAMED], "tools": None},
    {
        "messages": [
            {"role": "user", "content": "Time?"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "get_time", "arguments": '{"tz": '}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "12:00"},
        ],
        "tools": TOOLS[1:],
    },
]


def expected(row: dict[str, Any], target: str | None = None) -> list[dict[str, Any]]:
    """check_transcript's problems of a row, as the problems column holds them."""
    return [
        {"index": p.index, "path": p.path, "code": p.code, "message": p.message}
        for p in check_transcript(row["messages"], tools=row["tools"], target=target)
    ]


def columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {key: [row[key] for row in rows] for key in rows[0]}


def problems(result: dict[str, list[Any]]) -> list[list[dict[str, Any]]]:
    assert set(result) == {"problems", "clean"}
    assert all(type(text) is str for text in result["problems"])
    assert all(type(clean) is bool for clean in result["clean"])
    found = [json.loads(text) for text in result["problems"]]
    assert result["clean"] == [not row for row in found]
    return found


# -- check_batch: every shape of a row -------------------------------------------------------


@pytest.mark.parametrize("target", [None, *PROVIDERS])
def test_list_columns_give_check_transcripts_problems(target: str | None) -> None:
    found = problems(check_batch(columns(ROWS), target=target))
    assert found == [expected(row, target) for row in ROWS]
    if target is None:
        assert found[0] == []
        assert [p["code"] for p in found[1]] == ["unanswered_call"]


def test_json_text_columns_read_as_the_lists_they_spell() -> None:
    texts = {
        "messages": [json.dumps(row["messages"]) for row in ROWS],
        "tools": [json.dumps(row["tools"]) for row in ROWS],
    }
    assert texts["tools"][2] == "null"
    assert problems(check_batch(texts, target="anthropic")) == [expected(row, "anthropic") for row in ROWS]


def test_arguments_as_json_text_or_as_objects_are_read() -> None:
    as_object = json.loads(json.dumps(ROWS[0]))
    as_object["messages"][2]["tool_calls"][0]["function"]["arguments"] = {"city": "Paris"}
    assert ROWS[0]["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"city":"Paris"}'
    assert problems(check_batch(columns([ROWS[0], as_object]), target="anthropic")) == [[], []]
    # Text that is no object is what the target refuses: the same problem as check_transcript's.
    found = problems(check_batch(columns(ROWS[3:]), target="anthropic"))
    assert found == [expected(ROWS[3], "anthropic")]
    assert found[0][0]["code"] == "invalid_arguments"


def padded(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows as Arrow gives them back: one struct type for every row, null for each missing key."""
    return pa.Table.from_pylist(rows).to_pylist()  # type: ignore[no-any-return]


def test_arrow_null_padding_reads_as_absent() -> None:
    rows = padded(ROWS)
    # What Arrow made of them: nulls where a row never had the key, in the messages and
    # in the tool definitions (a property another tool has, a keyword another schema has).
    assert rows[2]["messages"][0]["tool_calls"] is None
    assert rows[0]["messages"][1]["tool_call_id"] is None
    weather = rows[0]["tools"][0]["function"]
    assert weather["strict"] is None
    assert weather["parameters"]["properties"]["tz"] is None
    assert rows[3]["tools"][0]["function"]["parameters"]["required"] is None
    for target in (None, *PROVIDERS):
        assert problems(check_batch(columns(rows), target=target)) == [expected(row, target) for row in ROWS]


def test_convert_batch_reads_arrow_padded_tools_as_the_definitions_written() -> None:
    rows = padded(ROWS)
    for target in PROVIDERS:
        bodies = convert_batch(columns(rows), to=target, keep_invalid_arguments=True, drop_unsupported=True)
        for row, body in zip(ROWS, bodies["body"], strict=True):
            assert (None if body is None else json.loads(body)) == codec_body(row, target)


def codec_body(row: dict[str, Any], to: str) -> dict[str, Any] | None:
    """What the codec makes of a row with both options on, as convert_batch is called above; None
    when it refuses the row."""
    try:
        return PROVIDERS[to].codec.to_request(
            openai.from_request(row["messages"]),
            tools=None if row["tools"] is None else openai.read_tools(row["tools"]),
            keep_invalid_arguments=True,
            drop_unsupported=True,
        )
    except MessageError:
        return None


@pytest.mark.parametrize(
    ("cell", "path", "code", "message"),
    [
        (None, "messages", "not_a_transcript", "must be an array of messages or its JSON text, got null"),
        (7, "messages", "not_a_transcript", "must be an array of messages or its JSON text, got number"),
        (
            {"role": "user"},
            "messages",
            "not_a_transcript",
            "must be an array of messages or its JSON text, got object",
        ),
        (
            '{"role": "user"}',
            "messages",
            "not_a_transcript",
            "must be an array of messages or its JSON text, got object",
        ),
        (
            "[{",
            "messages",
            "invalid_json",
            "is not JSON text: Expecting property name enclosed in double quotes at character 3",
        ),
        ("[NaN]", "messages", "invalid_json", "is not JSON text: NaN is not JSON"),
        ("[" * 100_000, "messages", "invalid_json", "is not JSON text toolturns reads: nested too deeply"),
        (
            '[{"role": "user", "content": "a", "role": "tool"}]',
            "messages[0].role",
            "duplicate_key",
            "is a key its object already has: JSON readers keep one of the values (Python's the last), so the text does not say one thing",
        ),
        (b"[]", "messages", "not_a_transcript", "must be an array of messages or its JSON text, got bytes"),
    ],
)
def test_a_messages_cell_that_does_not_read_is_a_problem_of_its_row(
    cell: object, path: str, code: str, message: str
) -> None:
    batch = {"messages": [[{"role": "user", "content": "Hi"}], cell, "[]"]}
    result = check_batch(batch)
    assert problems(result) == [[], [{"index": None, "path": path, "code": code, "message": message}], []]


def test_a_tools_cell_that_does_not_read_is_a_problem_of_its_row() -> None:
    hi = [{"role": "user", "content": "Hi"}]
    batch = {"messages": [hi, hi, hi, hi], "tools": [{"type": "function"}, "[1", '{"a": 1, "a": 2}', "null"]}
    assert problems(check_batch(batch)) == [
        [
            {
                "index": None,
                "path": "tools",
                "code": "not_a_transcript",
                "message": "must be an array of tool definitions, its JSON text or null, got object",
            }
        ],
        [
            {
                "index": None,
                "path": "tools",
                "code": "invalid_json",
                "message": "is not JSON text: Expecting ',' delimiter at character 3",
            }
        ],
        [
            {
                "index": None,
                "path": "tools.a",
                "code": "duplicate_key",
                "message": "is a key its object already has: JSON readers keep one of the values (Python's the last), so the text does not say one thing",
            }
        ],
        [],
    ]


def test_a_repeated_key_in_text_that_is_also_not_json_is_not_json() -> None:
    # The repeat is found first by the fast reading; the careful one then says what is wrong,
    # as the command line does.
    found = problems(check_batch({"messages": ['[{"a": 1, "a": 2}, NaN]', '[{"a": 1, "a": 2}, [[1]]]']}))
    assert [(p["path"], p["code"], p["message"]) for p in found[0]] == [
        ("messages", "invalid_json", "is not JSON text: NaN is not JSON")
    ]
    assert [(p["path"], p["code"]) for p in found[1]] == [("messages[0].a", "duplicate_key")]


def test_tuples_and_other_columns_are_read() -> None:
    batch = {"messages": (tuple(m.to_wire() for m in GOOD),), "tools": (tuple(TOOLS),), "id": ["a"]}
    assert problems(check_batch(batch)) == [[]]
    assert problems(
        check_batch({"chat": [[m.to_wire() for m in UNANSWERED]]}, column="chat", tools_column=None)
    ) == [expected({"messages": [m.to_wire() for m in UNANSWERED], "tools": None})]


def test_allow_pending_is_check_transcripts() -> None:
    pending = [[m.to_wire() for m in GOOD[:3]]]
    assert problems(check_batch({"messages": pending})) == [[]]
    found = problems(check_batch({"messages": pending}, allow_pending=False))
    assert [p["code"] for p in found[0]] == ["unanswered_call"]


def test_tools_column_none_reads_no_tools_and_the_default_may_be_missing() -> None:
    rows = [{"messages": [m.to_wire() for m in GOOD], "tools": []}]
    assert [p["code"] for p in problems(check_batch(columns(rows)))[0]] == ["unknown_tool"]
    assert problems(check_batch(columns(rows), tools_column=None)) == [[]]
    assert problems(check_batch({"messages": [rows[0]["messages"]]})) == [[]]


# -- pandas, pyarrow and numpy batches -------------------------------------------------------


def test_pandas_and_pyarrow_batches_give_the_same_columns() -> None:
    table = pa.Table.from_pylist(ROWS)
    want = [expected(row) for row in ROWS]
    assert problems(check_batch(table)) == want
    assert problems(check_batch(table.to_batches()[0])) == want
    frame = table.to_pandas()  # Arrow's lists become numpy arrays, at every depth
    assert type(frame["messages"][0]).__name__ == "ndarray"
    assert problems(check_batch(frame)) == want
    assert convert_batch(frame, to="gemini") == convert_batch(columns(ROWS), to="gemini")
    numpy_columns = {name: frame[name].to_numpy() for name in frame.columns}  # Ray's default format
    assert problems(check_batch(numpy_columns)) == want


class _NotColumns:
    def to_pydict(self) -> list[int]:
        return [1]


@pytest.mark.parametrize(
    ("batch", "message"),
    [
        (
            [1, 2],
            "batch: must be a mapping of column names to values, a pandas DataFrame or a pyarrow Table, got list",
        ),
        (
            _NotColumns(),
            "batch: must give its columns as a mapping, got _NotColumns (an object, not JSON data: pass e.g. its .model_dump() or .to_dict())",
        ),
        ({"text": ["a"]}, "column: must name a column of the batch (the columns: 'text'), got 'messages'"),
        ({}, "column: must name a column of the batch (the columns: none), got 'messages'"),
        ({"messages": "[]"}, "column: must name a column of values, one per row; 'messages' holds, got '[]'"),
        ({"messages": 3}, "column: must name a column of values, one per row; 'messages' holds, got 3"),
        (
            {"messages": [[]], "tools": [None, None]},
            "tools_column: must have as many rows as column 'messages' (1), got 2 rows in 'tools'",
        ),
    ],
)
def test_a_batch_that_is_not_columns_raises_invalid_transcript(batch: object, message: str) -> None:
    for function in (check_batch, functools.partial(convert_batch, to="openai")):
        with pytest.raises(InvalidTranscript) as error:
            function(batch)
        assert str(error.value) == message


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"target": "claude"},
            "target: must be one of 'openai', 'anthropic', 'gemini', 'ollama', 'responses', got 'claude'",
        ),
        (
            {"tools_column": "functions"},
            "tools_column: must name a column of the batch (the columns: 'messages'), got 'functions'",
        ),
        ({"column": 1}, "column: must be a column name (a string), got 1"),
        ({"tools_column": ["tools"]}, "tools_column: must be a column name (a string), got list"),
        ({"allow_pending": 1}, "allow_pending: must be a boolean, got 1"),
    ],
)
def test_bad_check_arguments_raise_invalid_transcript(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidTranscript) as error:
        check_batch({"messages": [[]]}, **options)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"to": None}, "to: must be one of 'openai', 'anthropic', 'gemini', 'ollama', 'responses', got None"),
        (
            {"to": "ollama", "keep_invalid_arguments": "yes"},
            "keep_invalid_arguments: must be a boolean, got 'yes'",
        ),
        ({"to": "ollama", "drop_unsupported": 0}, "drop_unsupported: must be a boolean, got 0"),
    ],
)
def test_bad_convert_arguments_raise_invalid_transcript(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidTranscript) as error:
        convert_batch({"messages": [[]]}, **options)
    assert str(error.value) == message


# -- convert_batch -------------------------------------------------------------------------


def test_convert_batch_gives_each_rows_body_or_why_not() -> None:
    result = convert_batch(columns(ROWS), to="anthropic")
    assert set(result) == {"body", "error", "dropped"}
    assert result["dropped"] == ["[]"] * 4
    want = PROVIDERS["anthropic"].codec.to_request(GOOD, tools=[WEATHER, TIME])
    assert result["body"][0] is not None
    assert json.loads(result["body"][0]) == want
    assert result["error"][:2] == [None, None]
    # Anthropic cannot carry a message's name; and arguments that are not an object cannot be sent.
    assert result["body"][2:] == [None, None]
    assert result["error"][2] is not None
    assert result["error"][2].startswith("messages[0].name: Anthropic cannot carry the name 'bob'")
    assert result["error"][3] is not None
    assert result["error"][3].startswith("messages[1].tool_calls[0].arguments: must be valid JSON")


def test_convert_batch_options_are_the_codecs() -> None:
    result = convert_batch(columns(ROWS), to="anthropic", keep_invalid_arguments=True, drop_unsupported=True)
    assert result["error"] == [None] * 4
    assert json.loads(result["dropped"][2]) == [{"path": "messages[0].name", "what": "the name 'bob'"}]
    assert result["dropped"][3] == "[]"
    sent = json.loads(result["body"][3])
    assert sent["messages"][1]["content"][0]["input"] == {"_toolturns_raw_arguments": '{"tz": '}


def test_convert_batch_says_why_a_cell_does_not_read() -> None:
    result = convert_batch({"messages": ["[1", None, "[]"], "tools": ["[]", None, "{}"]}, to="openai")
    assert result == {
        "body": [None, None, None],
        "error": [
            "messages: is not JSON text: Expecting ',' delimiter at character 3",
            "messages: must be an array of messages or its JSON text, got null",
            "tools: must be an array of tool definitions, its JSON text or null, got object",
        ],
        "dropped": ["[]", "[]", "[]"],
    }
    # A message that does not read: its path, as the codec says it.
    result = convert_batch({"messages": ['[{"role": "robot", "content": "x"}]']}, to="openai")
    assert result["error"][0] is not None
    assert result["error"][0].startswith("messages[0].role: ")


# -- picklable, for num_proc and remote workers ----------------------------------------------


def test_the_functions_and_partials_of_them_pickle() -> None:
    batch = columns(ROWS)
    for function in (check_batch, convert_batch):
        assert pickle.loads(pickle.dumps(function)) is function
    anthropic_check = pickle.loads(pickle.dumps(functools.partial(check_batch, target="anthropic")))
    assert anthropic_check(batch) == check_batch(batch, target="anthropic")
    to_gemini = pickle.loads(pickle.dumps(functools.partial(convert_batch, to="gemini")))
    assert to_gemini(batch) == convert_batch(batch, to="gemini")


def test_import_toolturns_does_not_import_the_module_nor_it_a_dataset_library() -> None:
    code = (
        "import sys, toolturns\n"
        "assert 'toolturns.datasets' not in sys.modules\n"
        "import toolturns.datasets\n"
        "print(sorted({'datasets', 'pyarrow', 'pandas', 'numpy', 'ray'} & set(sys.modules)))\n"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert output.stdout == "[]\n"


# -- a real Hugging Face Dataset -------------------------------------------------------------

#: The rows written to files: the fine-tuning rows, and ones that do not read.
FILE_ROWS: list[dict[str, Any]] = [*ROWS, {"messages": [{"role": "user", "content": 5}], "tools": None}]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), "utf-8")
    return path


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    # Parquet keeps one type per column: content is text or null everywhere here.
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.mark.parametrize("kind", ["json", "parquet"])
def test_a_dataset_mapped_with_two_processes_gives_check_transcripts_problems(
    kind: str, tmp_path: Path
) -> None:
    rows = FILE_ROWS[:-1] if kind == "parquet" else FILE_ROWS  # content 5 is no string: not one Parquet type
    write = write_parquet if kind == "parquet" else write_jsonl
    data = write(tmp_path / f"data.{kind}", rows)
    dataset = datasets.load_dataset(
        kind, data_files=str(data), split="train", cache_dir=str(tmp_path / "cache")
    )
    checked = dataset.map(
        functools.partial(check_batch, target="anthropic"), batched=True, batch_size=2, num_proc=2
    )
    assert checked.column_names == ["messages", "tools", "problems", "clean"]
    assert checked.features["problems"].dtype == "string"
    assert checked.features["clean"].dtype == "bool"
    assert [json.loads(text) for text in checked["problems"]] == [expected(row, "anthropic") for row in rows]
    clean = checked.filter(lambda row: row["clean"])
    assert len(clean) == 1
    # The row as the dataset holds it, Arrow's nulls and all (a null property schema is none):
    # check_batch reads them as absent.
    assert check_batch({"messages": [clean[0]["messages"]], "tools": [clean[0]["tools"]]})["clean"] == [True]
    converted = dataset.map(
        functools.partial(convert_batch, to="anthropic", keep_invalid_arguments=True, drop_unsupported=True),
        batched=True,
        num_proc=2,
        remove_columns=dataset.column_names,
    )
    assert converted.column_names == ["body", "error", "dropped"]
    bodies = [None if body is None else json.loads(body) for body in converted["body"]]
    assert bodies == [codec_body(row, "anthropic") for row in rows]
    assert [error is None for error in converted["error"]] == [body is not None for body in bodies]
    assert [json.loads(text) for text in converted["dropped"]][2] == [
        {"path": "messages[0].name", "what": "the name 'bob'"}
    ]


def test_a_dataset_of_json_text_columns(tmp_path: Path) -> None:
    text_rows = [
        {"messages": json.dumps(row["messages"]), "tools": json.dumps(row["tools"])} for row in FILE_ROWS
    ]
    data = write_parquet(tmp_path / "text.parquet", text_rows)
    dataset = datasets.load_dataset(
        "parquet", data_files=str(data), split="train", cache_dir=str(tmp_path / "cache")
    )
    assert dataset.features["messages"].dtype == "string"
    checked = dataset.map(check_batch, batched=True)
    assert [json.loads(text) for text in checked["problems"]] == [expected(row) for row in FILE_ROWS]


# -- Ray Data, on a local cluster ------------------------------------------------------------

DOCS = Path(__file__).parent.parent / "docs" / "datasets.md"


def ray_script() -> str:
    """The Ray Data script of docs/datasets.md, as it is there."""
    section = DOCS.read_text("utf-8").split("## Ray Data", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_ray_data_map_batches_on_a_local_cluster(tmp_path: Path) -> None:
    """The documented script, then every batch format Ray hands over, in the same cluster."""
    # Ray reads JSONL with pyarrow, which refuses a column of mixed types (content 5 among texts).
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    formats = f"""
dataset = ray.data.read_json({str(data)!r})
for batch_format in ("default", "pandas", "pyarrow"):
    rows = dataset.map_batches(check_batch, batch_format=batch_format).take_all()
    print(json.dumps([json.loads(row["problems"]) for row in rows]))
"""
    script = ray_script()
    assert script.count("ray.shutdown()") == 1
    code = script.replace("ray.shutdown()", formats + "ray.shutdown()")
    # A process of its own: Ray's workers, threads and log handlers stay out of the test run.
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=240, check=False
    )
    assert output.returncode == 0, output.stderr[-3000:]
    documented, *lines = output.stdout.splitlines()
    assert documented == script.split("take_all()])  # ", 1)[1].split("\n", 1)[0] == "[True, False]"
    want = [expected(row) for row in ROWS]
    assert [json.loads(line) for line in lines] == [want, want, want]


# -- the tools of the row before -------------------------------------------------------------


def test_tools_equal_to_the_rows_before_give_the_same_problems_as_read_anew() -> None:
    bad = [{"type": "function", "function": {"name": "get weather"}}, TOOLS[0], TOOLS[0]]
    cells: list[Any] = [
        bad,
        json.loads(json.dumps(bad)),
        json.loads(json.dumps(bad)),
        TOOLS[:1],
        bad,
        bad,
        bad,
    ]
    texts = [json.dumps(cell) for cell in cells]
    messages = [[m.to_wire() for m in GOOD]] * len(cells)
    want = [expected({"messages": GOOD, "tools": cell}) for cell in cells]
    assert [len(found) for found in want] == [2, 2, 2, 0, 2, 2, 2]
    assert problems(check_batch({"messages": messages, "tools": cells})) == want
    assert problems(check_batch({"messages": messages, "tools": texts})) == want
    bodies = convert_batch({"messages": messages, "tools": texts}, to="ollama")["body"]
    assert [body is None for body in bodies] == [True, True, True, False, True, True, True]


def test_converted_tools_equal_in_python_but_not_in_json_are_each_their_own() -> None:
    # 1 == 1.0 == True in Python: a body keeps the row's own value.
    schemas = [
        {"type": "object", "properties": {"n": {"type": "number", "default": value}}}
        for value in (1, 1, 1.0, True)
    ]
    cells = [[{"type": "function", "function": {"name": "f", "parameters": schema}}] for schema in schemas]
    result = convert_batch(
        {"messages": [[{"role": "user", "content": "Hi"}]] * 4, "tools": cells}, to="ollama"
    )
    defaults = [
        json.loads(body)["tools"][0]["function"]["parameters"]["properties"]["n"]["default"]
        for body in result["body"]
    ]
    assert [type(value) for value in defaults] == [int, int, float, bool]


class Unequal:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = object.__hash__


def test_cycles_in_cells_are_problems_not_crashes() -> None:
    import numpy

    cycle: list[Any] = []
    cycle.append(cycle)
    hi = [{"role": "user", "content": "Hi"}]
    found = problems(check_batch({"messages": [hi], "tools": [[{"type": "function", "function": cycle}]]}))
    assert [p["path"] for p in found[0]] == ["tools[0].function"]
    # Tools whose comparison with the row before's fails: read again, and said what they are.
    found = problems(check_batch({"messages": [hi, hi], "tools": [[Unequal()], [Unequal()]]}))
    assert [[p["path"] for p in row] for row in found] == [["tools[0]"], ["tools[0]"]]
    array = numpy.empty(1, dtype=object)
    array[0] = cycle
    found = problems(check_batch({"messages": [array]}))
    assert found == [
        [
            {
                "index": None,
                "path": "messages",
                "code": "not_a_transcript",
                "message": "must be an array of messages or its JSON text, got ndarray",
            }
        ]
    ]


def test_a_tools_cell_equal_only_by_pythons_equality_is_read_again() -> None:
    """Rows with "minimum": 1 and then one with true (True == 1 in Python): the last row's own tools are
    checked, not the list read for the rows before."""

    def row(minimum: object) -> dict[str, Any]:
        parameters = {"type": "object", "properties": {"n": {"type": "number", "minimum": minimum}}}
        return {
            "messages": [{"role": "user", "content": "Hi"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": parameters}}],
        }

    rows = [row(1), row(1), row(1), row(True)]
    assert [[p["path"] for p in found] for found in problems(check_batch(columns(rows)))] == [
        [],
        [],
        [],
        ["tools[0].function.parameters.properties.n.minimum"],
    ]

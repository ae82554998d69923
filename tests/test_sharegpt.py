"""ShareGPT lines (LLaMA-Factory's ``sharegpt`` format) read by ``toolturns._sharegpt.read``, and
``toolturns convert --from sharegpt`` end to end: every mapping rule, every refusal with its path,
the ids, and the output passing ``toolturns check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    InvalidTranscript,
    MessageError,
    Tool,
    ToolCall,
    check_transcript,
    openai,
)
from toolturns._cli import main
from toolturns._sharegpt import read
from toolturns.providers import PROVIDERS

WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def turn(speaker: str, value: Any) -> dict[str, Any]:
    return {"from": speaker, "value": value}


def call(name: str = "get_weather", **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


def text(value: Any) -> str:
    return json.dumps(value)


# A LLaMA-Factory line with one call, then two parallel calls, as its glaive_toolcall demo has them.
PARALLEL = {
    "conversations": [
        turn("human", "Weather in Paris and Rome?"),
        turn("function_call", text(call(city="Paris"))),
        turn("observation", '{"temperature": 18}'),
        turn("gpt", "18 C in Paris. And Rome:"),
        turn("human", "Both again?"),
        turn("function_call", text([call(city="Paris"), call(city="Rome")])),
        turn("observation", text(["18 C", "24 C"])),
        turn("gpt", "Paris 18 C, Rome 24 C."),
    ],
    "system": "Be brief.",
    "tools": text([WEATHER]),
}


# -- the mapping -------------------------------------------------------------------------


def test_each_turn_maps_to_its_message() -> None:
    """system, human, function_call, observation and gpt become system, user, tool calls, results, assistant."""
    messages, tools = read(PARALLEL)
    assert messages == [
        ChatMessage.system("Be brief."),
        ChatMessage.user("Weather in Paris and Rome?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1_0", "get_weather", {"city": "Paris"})]),
        ChatMessage.tool_result("call_1_0", '{"temperature": 18}'),
        ChatMessage.assistant("18 C in Paris. And Rome:"),
        ChatMessage.user("Both again?"),
        ChatMessage.assistant_tool_calls(
            [
                ToolCall("call_5_0", "get_weather", {"city": "Paris"}),
                ToolCall("call_5_1", "get_weather", {"city": "Rome"}),
            ]
        ),
        ChatMessage.tool_result("call_5_0", "18 C"),
        ChatMessage.tool_result("call_5_1", "24 C"),
        ChatMessage.assistant("Paris 18 C, Rome 24 C."),
    ]
    assert tools == [Tool.from_dict(WEATHER)]


def test_the_system_turn() -> None:
    """A first turn from system is the system message, and the alternation is counted after it."""
    line = {"conversations": [turn("system", "Be brief."), turn("human", "Hi"), turn("gpt", "Hello")]}
    assert read(line) == (
        [ChatMessage.system("Be brief."), ChatMessage.user("Hi"), ChatMessage.assistant("Hello")],
        None,
    )


@pytest.mark.parametrize("system", [None, ""])
def test_an_empty_system_key_is_none(system: str | None) -> None:
    """ "" and null (Arrow's padding, LLaMA-Factory's default) are no system prompt, beside a system turn too."""
    assert read({"conversations": [turn("human", "Hi")], "system": system}) == (
        [ChatMessage.user("Hi")],
        None,
    )
    with_turn = {"conversations": [turn("system", "S"), turn("human", "Hi")], "system": system}
    assert read(with_turn)[0] == [ChatMessage.system("S"), ChatMessage.user("Hi")]


def test_user_and_assistant_are_human_and_gpt() -> None:
    """The spellings LLaMA-Factory's README retags with read as human and gpt."""
    line = {"conversations": [turn("user", "Hi"), turn("assistant", "Hello")]}
    assert read(line)[0] == [ChatMessage.user("Hi"), ChatMessage.assistant("Hello")]


@pytest.mark.parametrize("tools", [text([WEATHER]), [WEATHER]])
def test_tools_as_json_text_or_as_a_list(tools: Any) -> None:
    assert read({"conversations": [], "tools": tools})[1] == [Tool.from_dict(WEATHER)]


def test_tools_in_openai_shape() -> None:
    """An OpenAI definition reads as well as LLaMA-Factory's bare one."""
    definition = openai.tool_definition(Tool.from_dict(WEATHER))
    assert read({"conversations": [], "tools": text([definition])})[1] == [Tool.from_dict(WEATHER)]


@pytest.mark.parametrize("tools", [None, "", "[]", []])
def test_empty_tools_are_none(tools: Any) -> None:
    assert read({"conversations": [turn("human", "Hi")], "tools": tools})[1] is None


def test_arguments_as_text_are_kept_as_they_are() -> None:
    """Arguments given as JSON text travel as that text, byte for byte, as OpenAI's wire carries them."""
    line = {
        "conversations": [
            turn("human", "Hi"),
            turn("function_call", text({"name": "f", "arguments": '{"a": 1}'})),
        ]
    }
    assert read(line)[0][1].tool_calls == (ToolCall("call_1_0", "f", '{"a": 1}'),)


def test_a_call_may_end_the_conversation() -> None:
    """A fine-tuning example may end on the call it teaches: its calls stay pending."""
    line = {"conversations": [turn("human", "Hi"), turn("function_call", text(call(city="Paris")))]}
    messages, _ = read(line)
    assert messages[-1].tool_calls == (ToolCall("call_1_0", "get_weather", {"city": "Paris"}),)
    assert check_transcript(messages) == []


def test_null_keys_of_a_turn_are_no_keys() -> None:
    """Arrow pads a turn with null for the keys other rows have: those are not data."""
    line = {"conversations": [{"from": "human", "value": "Hi", "weight": None}]}
    assert read(line)[0] == [ChatMessage.user("Hi")]


def test_other_keys_of_a_line_are_metadata() -> None:
    """Keys such as id or source are not carried, as with every --from; empty media lists are no media."""
    line = {"conversations": [turn("human", "Hi")], "id": 7, "images": [], "chosen": None}
    assert read(line) == ([ChatMessage.user("Hi")], None)


# -- ids -----------------------------------------------------------------------------------


def test_ids_are_the_same_on_every_run() -> None:
    first, again = read(PARALLEL), read(json.loads(json.dumps(PARALLEL)))
    assert first == again


def test_ids_are_unique_within_a_line() -> None:
    messages, _ = read(PARALLEL)
    ids = [c.id for m in messages for c in m.tool_calls or ()]
    assert ids == ["call_1_0", "call_5_0", "call_5_1"]
    assert len(set(ids)) == len(ids)


# -- refusals ------------------------------------------------------------------------------

HI = turn("human", "Hi")
ONE_CALL = turn("function_call", text(call(city="Paris")))
TWO_CALLS = turn("function_call", text([call(city="Paris"), call(city="Rome")]))


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        (
            [HI],
            InvalidTranscript,
            'line: must be an object with a "conversations" array (a ShareGPT line), got array',
        ),
        (
            {"messages": []},
            InvalidTranscript,
            'conversations: is required: a line must be an object with a "conversations" array (a ShareGPT line)',
        ),
        ({"conversations": "Hi"}, InvalidTranscript, "conversations: must be an array of turns, got string"),
        ({"conversations": [HI], "system": 5}, InvalidTranscript, "system: must be a string, got 5"),
        (
            {"conversations": [turn("system", "A"), HI], "system": "B"},
            InvalidTranscript,
            "system: must not be given with a system turn (conversations[0]): LLaMA-Factory would use the turn "
            "and drop this, got 'B'",
        ),
        (
            {"conversations": [HI], "images": ["cat.png"]},
            InvalidTranscript,
            "images: holds media paths, which toolturns cannot carry (the <image> placeholders would stay text), "
            "got array",
        ),
        (
            {"conversations": [HI], "chosen": turn("gpt", "Yes")},
            InvalidTranscript,
            "chosen: holds a preference answer, which no request body carries, got object",
        ),
        (
            {"conversations": [HI, "Hello"]},
            InvalidMessage,
            'conversations[1]: must be an object {"from": ..., "value": ...}, got string',
        ),
        (
            {"conversations": [{"from": "human", "value": "Hi", "weight": 0}]},
            InvalidMessage,
            "conversations[0].weight: is not a key of a ShareGPT turn (from, value); toolturns would have to drop "
            "it, got number",
        ),
        (
            {"conversations": [{"from": "human", "value": "Hi", "a b": 0}]},
            InvalidMessage,
            'conversations[0]["a b"]: is not a key of a ShareGPT turn (from, value); toolturns would have to drop '
            "it, got number",
        ),
        (
            {"conversations": [turn("tool", "18 C")]},
            InvalidMessage,
            "conversations[0].from: must be one of 'system', 'human', 'user', 'gpt', 'assistant', "
            "'function_call', 'observation', got 'tool'",
        ),
        (
            {"conversations": [{"value": "Hi"}]},
            InvalidMessage,
            "conversations[0].from: must be one of 'system', 'human', 'user', 'gpt', 'assistant', "
            "'function_call', 'observation'",
        ),
        (
            {"conversations": [turn("human", ["Hi"])]},
            InvalidMessage,
            "conversations[0].value: must be a string, got list",
        ),
        ({"conversations": [{"from": "human"}]}, InvalidMessage, "conversations[0].value: must be a string"),
        (
            {"conversations": [HI, HI]},
            InvalidMessage,
            "conversations[1].from: must be 'gpt' or 'function_call' here: LLaMA-Factory's sharegpt format puts "
            "human and observation at odd positions and gpt and function_call at even ones (after a first system "
            "turn), got 'human'",
        ),
        (
            {"conversations": [turn("gpt", "Hello")]},
            InvalidMessage,
            "conversations[0].from: must be 'human' or 'observation' here: LLaMA-Factory's sharegpt format puts "
            "human and observation at odd positions and gpt and function_call at even ones (after a first system "
            "turn), got 'gpt'",
        ),
        (
            {"conversations": [HI, turn("gpt", "Hello"), turn("system", "S")]},
            InvalidMessage,
            "conversations[2].from: must be 'human' or 'observation' here",
        ),
        (
            {"conversations": [turn("observation", "18 C")]},
            InvalidMessage,
            "conversations[0].from: an observation must answer the function_call turn just before it; this one "
            "answers nothing, got 'observation'",
        ),
        (
            {"conversations": [HI, turn("gpt", "Hello"), turn("observation", "18 C")]},
            InvalidMessage,
            "conversations[2].from: an observation must answer the function_call turn just before it",
        ),
        (
            {"conversations": [HI, ONE_CALL, HI]},
            InvalidMessage,
            "conversations[2].from: must be 'observation': the calls of conversations[1] need their results right "
            "after them, got 'human'",
        ),
        (
            {"conversations": [HI, turn("function_call", "get_weather(Paris)")]},
            InvalidMessage,
            'conversations[1].value: must be the JSON text of a call {"name", "arguments"} or of a list of calls '
            "(Expecting value: line 1 column 1 (char 0)), got 'get_weather(Paris)'",
        ),
        (
            {"conversations": [HI, turn("function_call", '{"name": "f", "name": "g", "arguments": {}}')]},
            InvalidMessage,
            'conversations[1].value: must be the JSON text of a call {"name", "arguments"} or of a list of calls '
            "(duplicate key)",
        ),
        (
            {"conversations": [HI, turn("function_call", "[" * 100_000)]},
            InvalidMessage,
            'conversations[1].value: must be the JSON text of a call {"name", "arguments"} or of a list of '
            "calls (nested too deeply to decode)",
        ),
        (
            {"conversations": [HI, turn("function_call", "[]")]},
            InvalidMessage,
            "conversations[1].value: must hold at least one call, got an empty list",
        ),
        (
            {"conversations": [HI, turn("function_call", text(["get_weather"]))]},
            InvalidToolCall,
            'conversations[1].value[0]: must be an object {"name", "arguments"}, got string',
        ),
        (
            {"conversations": [HI, turn("function_call", text({**call(), "id": "call_9"}))]},
            InvalidToolCall,
            'conversations[1].value: must have only the keys "name" and "arguments", as a LLaMA-Factory call has, '
            "got 'id'",
        ),
        (
            {"conversations": [HI, turn("function_call", text({"name": "f"}))]},
            InvalidToolCall,
            "conversations[1].value.arguments: is required (LLaMA-Factory reads it from every call)",
        ),
        (
            {"conversations": [HI, turn("function_call", text({"name": "f", "arguments": [1]}))]},
            InvalidToolCall,
            "conversations[1].value.arguments: must be an object, or its JSON text, got array",
        ),
        (
            {"conversations": [HI, turn("function_call", text([call(), {"name": "", "arguments": {}}]))]},
            InvalidToolCall,
            "conversations[1].value[1].name: must be a non-empty string, got ''",
        ),
        (
            {"conversations": [HI, ONE_CALL, turn("observation", 18)]},
            InvalidMessage,
            "conversations[2].value: must be a string, got 18",
        ),
        (
            {"conversations": [HI, TWO_CALLS, turn("observation", "sunny")]},
            InvalidMessage,
            "conversations[2].value: must be the JSON text of a list of 2 strings, the results of the 2 calls "
            "before it (Expecting value: line 1 column 1 (char 0)), got 'sunny'",
        ),
        (
            {"conversations": [HI, TWO_CALLS, turn("observation", text(["18 C"]))]},
            InvalidMessage,
            "conversations[2].value: must be the JSON text of a list of 2 strings, the results of the 2 calls "
            "before it, got a list of 1",
        ),
        (
            {"conversations": [HI, TWO_CALLS, turn("observation", text({"Paris": "18 C"}))]},
            InvalidMessage,
            "conversations[2].value: must be the JSON text of a list of 2 strings, the results of the 2 calls "
            "before it, got object",
        ),
        (
            {"conversations": [HI, TWO_CALLS, turn("observation", text(["18 C", {"temperature": 24}]))]},
            InvalidMessage,
            "conversations[2].value[1]: must be a string, the result of call_1_1, got object",
        ),
        (
            {"conversations": [HI], "tools": "get_weather"},
            InvalidTool,
            "tools: must be the JSON text of a list of tool definitions (Expecting value: line 1 column 1 (char 0)), "
            "got 'get_weather'",
        ),
        (
            {"conversations": [HI], "tools": text(WEATHER)},
            InvalidTool,
            "tools: must be a list of tool definitions, or its JSON text, got object",
        ),
        (
            {"conversations": [HI], "tools": 5},
            InvalidTool,
            "tools: must be a list of tool definitions, or its JSON text, got number",
        ),
        (
            {"conversations": [HI], "tools": text([WEATHER, {"name": "get weather"}])},
            InvalidTool,
            "tools[1].name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'get weather'",
        ),
    ],
)
def test_a_line_that_does_not_read_says_where(line: Any, error: type[MessageError], message: str) -> None:
    with pytest.raises(error) as raised:
        read(line)
    assert type(raised.value) is error
    assert str(raised.value).startswith(message)


def test_numbers_that_are_not_json_in_a_call_are_refused() -> None:
    """A float out of range or an integer beyond Python's digit limit: the call's text does not read."""
    line = {"conversations": [HI, turn("function_call", '{"name": "f", "arguments": {"x": 1e999}}')]}
    with pytest.raises(
        InvalidMessage, match=r"^conversations\[1\]\.value: .*\(the number 1e999 is out of range\)"
    ):
        read(line)
    digits = '{"name": "f", "arguments": {"x": 1' + "0" * 5000 + "}}"
    with pytest.raises(InvalidMessage, match=r"^conversations\[1\]\.value: .*\(Exceeds the limit"):
        read({"conversations": [HI, turn("function_call", digits)]})


def test_python_values_that_are_not_json_are_refused() -> None:
    """read() called from Python may be given what no JSON line holds: refused, and said in Python's words."""
    with pytest.raises(InvalidTranscript, match=r"^line: must be an object .*, got tuple$"):
        read(("human", "Hi"))
    with pytest.raises(InvalidMessage, match=r"^conversations\[0\]: must be an object .*, got tuple$"):
        read({"conversations": [("human", "Hi")]})
    with pytest.raises(InvalidMessage, match=r"^conversations\[0\]: is not a key of a ShareGPT turn"):
        read({"conversations": [{"from": "human", "value": "Hi", 1: "x"}]})


# -- the result passes check -------------------------------------------------------------


@pytest.mark.parametrize("target", [None, *PROVIDERS])
def test_the_result_checks_clean_for_every_target(target: str | None) -> None:
    messages, tools = read(PARALLEL)
    assert check_transcript(messages, target=target, tools=tools) == []


# -- the command line ----------------------------------------------------------------------


def write(path: Path, *lines: Any) -> str:
    path.write_text(
        "".join((value if isinstance(value, str) else json.dumps(value)) + "\n" for value in lines)
    )
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_from_sharegpt(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    """Each line becomes the target's request body of what read() reads."""
    plain = {"conversations": [HI, turn("gpt", "Hello")]}
    path = write(tmp_path / "data.jsonl", PARALLEL, plain)
    status, out, err = run(capsys, "convert", "--from", "sharegpt", "--to", target, path)
    assert status == 0, err
    codec = PROVIDERS[target].codec
    messages, tools = read(PARALLEL)
    assert [json.loads(row) for row in out.splitlines()] == [
        codec.to_request(messages, tools=tools),
        codec.to_request(read(plain)[0]),
    ]
    assert err.startswith("read 2 transcripts in ")
    assert err.endswith(": 2 converted, 0 skipped\n")


def test_convert_reports_and_skips_lines_that_do_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line that does not read is reported with its number and path, skipped, and the status is 1."""
    not_json = {"conversations": [HI, turn("function_call", "get_weather(Paris)")]}
    orphan = {"conversations": [turn("observation", "18 C")]}
    path = write(tmp_path / "data.jsonl", PARALLEL, not_json, "", orphan, "[]", '{"conversations": [')
    status, out, err = run(capsys, "convert", "--from", "sharegpt", "--to", "anthropic", path)
    assert status == 1
    assert len(out.splitlines()) == 1
    reports = err.splitlines()
    assert reports[:3] == [
        f'{path}:2: conversations[1].value: must be the JSON text of a call {{"name", "arguments"}} or of a list '
        "of calls (Expecting value: line 1 column 1 (char 0)), got 'get_weather(Paris)'",
        f"{path}:4: conversations[0].from: an observation must answer the function_call turn just before it; this "
        "one answers nothing, got 'observation'",
        f'{path}:5: line: must be an object with a "conversations" array (a ShareGPT line), got array',
    ]
    assert reports[3].startswith(f"{path}:6: line: is not JSON: ")
    assert len(reports) == 5
    assert reports[-1].endswith(": 1 converted, 4 skipped")


def test_converted_output_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """convert --from sharegpt --to openai, then check --target each provider: no problems."""
    pending = {"conversations": [HI, ONE_CALL], "tools": [WEATHER]}
    path = write(tmp_path / "sharegpt.jsonl", PARALLEL, pending)
    status, out, _ = run(capsys, "convert", "--from", "sharegpt", "--to", "openai", path)
    assert status == 0
    converted = tmp_path / "openai.jsonl"
    converted.write_text(out)
    for target in PROVIDERS:
        status, problems, _ = run(capsys, "check", "--target", target, str(converted))
        assert (status, problems) == (0, ""), target


def test_sharegpt_is_an_input_only(capsys: pytest.CaptureFixture[str]) -> None:
    """--to sharegpt is a usage error: no provider takes ShareGPT as a request."""
    status, _, err = run(capsys, "convert", "--to", "sharegpt", "x.jsonl")
    assert status == 2
    assert "invalid choice: 'sharegpt'" in err

"""The fuzz targets of issue #16's readers: repair, MCP tools and results, schemas, the tool runner.

Each takes one decoded JSON value. The invariant of all of them is the
library's: any input gives a value or one of toolturns' own errors, and the
caller's input is never changed; each adds what its function promises.
"""

from __future__ import annotations

from typing import Any

from fuzz.invariants import check_error, check_problems, json_text, raised, read
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidTool,
    InvalidTranscript,
    Role,
    Tool,
    Toolbox,
    ToolCall,
    check_transcript,
    mcp,
    repair,
    run_calls,
)
from toolturns.providers import PROVIDERS

__all__ = ["TOOL_TARGETS"]

#: What repair makes whole: none of these may be left after it (unless a call id is shared).
_EXCHANGE_CODES = {
    "unanswered_call",
    "orphan_result",
    "late_result",
    "result_before_call",
    "duplicate_result",
}


def check_repair(value: object) -> None:
    """repair: a Repaired or a MessageError; the input unchanged; no exchange problem left (ids
    unique); repairing again does nothing; each action names a message of the input."""
    messages = value.get("messages") if isinstance(value, dict) else value
    before = json_text(value)
    if not isinstance(messages, (list, tuple)):
        raised(InvalidTranscript, lambda: repair(messages))  # type: ignore[arg-type]
        return
    repaired = read(lambda: repair(messages))
    assert json_text(value) == before, "repair changed its input"
    if repaired is None:
        return
    assert all(0 <= action.index < len(messages) for action in repaired.actions), repaired.actions
    again = repair(repaired.messages)
    assert again.actions == (), f"repairing twice changed more: {again.actions}"
    assert again.messages == repaired.messages
    problems = check_problems(check_transcript(repaired.messages), len(repaired.messages))
    codes = {problem.code for problem in problems}
    if "duplicate_call_id" not in codes:
        assert not codes & _EXCHANGE_CODES, f"left after repair: {codes & _EXCHANGE_CODES}"


def check_mcp_result(value: object) -> None:
    """mcp.tool_result: the tool turn answering the call, or a MessageError; every codec sends it
    (what its wire cannot carry refused with our error); the input unchanged."""
    before = json_text(value)
    result = read(lambda: mcp.tool_result("call_1", value))
    assert json_text(value) == before, "tool_result changed its input"
    if result is None:
        return
    assert result.role is Role.TOOL
    assert result.tool_call_id == "call_1"
    turn = ChatMessage.assistant_tool_calls([_CALL])
    exchange = [ChatMessage.user("go"), turn, result]
    for provider in PROVIDERS.values():
        codec = provider.codec
        read(lambda codec=codec: codec.to_request(exchange, drop_unsupported=True))  # type: ignore[misc]


def check_mcp_tool(value: object) -> None:
    """mcp.tool: a Tool or an InvalidTool; every codec writes it (or refuses with our error); a
    toolbox takes it, or refuses a schema that is not one with InvalidTool."""
    before = json_text(value)
    try:
        tool = mcp.tool(value)
    except InvalidTool as error:  # any other error escapes: a finding
        check_error(error)
        return
    assert json_text(value) == before, "tool changed its input"
    for provider in PROVIDERS.values():
        codec = provider.codec
        read(lambda codec=codec: codec.tool_definition(tool))  # type: ignore[misc]
    read(lambda: Toolbox((tool, _ok)))


def check_validate(value: object) -> None:
    """Tool.validate of ``{"schema", "arguments"}``: None, InvalidArguments (the arguments'
    fault) or InvalidTool (the schema's); the same answer twice (the compiled schema is cached)."""
    schema = value.get("schema") if isinstance(value, dict) else None
    arguments = value.get("arguments") if isinstance(value, dict) else value
    tool = read(lambda: Tool("t", parameters=schema))
    if tool is None:
        return
    first, second = _outcome(tool, arguments), _outcome(tool, arguments)
    assert first == second, f"validate answered {first}, then {second}"


def check_run_calls(value: object) -> None:
    """run_calls of the assistant turn ``value`` reads as: one result per call, in order, each a
    tool result for that call's id; never an exception."""
    turn = read(lambda: ChatMessage.from_dict(value))
    if turn is None or turn.role is not Role.ASSISTANT:
        return
    results = run_calls(turn, _TOOLBOX)
    calls = turn.tool_calls or ()
    assert [result.tool_call_id for result in results] == [call.id for call in calls]
    assert all(result.role is Role.TOOL for result in results)
    for call, result in zip(calls, results, strict=True):
        if call.name not in _NAMES:
            assert result.is_error, f"the unknown tool {call.name!r} was answered as a success"


def _outcome(tool: Tool, arguments: object) -> str:
    try:
        tool.validate(arguments)  # type: ignore[arg-type]  # any value: validate refuses what is not an object
    except (InvalidArguments, InvalidTool) as error:  # any other error escapes: a finding
        check_error(error)
        return f"{type(error).__name__}: {error}"
    return "valid"


def _echo(**arguments: Any) -> object:
    return arguments


def _ok(**arguments: Any) -> str:
    return "ok"


_CALL = ToolCall("call_1", "lookup")
_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}
_TOOLBOX = Toolbox(
    (Tool("get_weather", parameters=_SCHEMA), _echo),
    (Tool("get_time"), _ok),
    (Tool("search", parameters={"type": "object", "additionalProperties": {"type": "string"}}), _echo),
)
_NAMES = {tool.name for tool in _TOOLBOX.tools}

TOOL_TARGETS = {
    "repair": check_repair,
    "mcp_result": check_mcp_result,
    "mcp_tool": check_mcp_tool,
    "validate": check_validate,
    "run_calls": check_run_calls,
}

"""ShareGPT lines, as LLaMA-Factory's ``sharegpt`` format writes them, read into messages and tools.

This is what ``toolturns convert --from sharegpt`` reads. One line is::

    {"conversations": [{"from": "human", "value": "..."}, {"from": "gpt", "value": "..."}],
     "system": "...", "tools": "[...]"}

ShareGPT is an input format only: it is not a wire (no provider takes it as a
request, and nothing answers in it), so it is not in the registry and
``--to`` does not write it.

LLaMA-Factory's own words (``data/README.md``,
https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md) define it:
the format "allows the datasets have more roles, such as human, gpt,
observation and function", and "Note that the human and observation should
appear in odd positions, while gpt and function should appear in even
positions." A first turn whose ``from`` is ``system`` is the system prompt
(its ``system_tag``: "default: system, can override system column"). A
``function_call`` value is "tool arguments": the JSON text of one call
``{"name", "arguments"}``, or of a list of them (LLaMA-Factory's
``FunctionFormatter`` reads a list as a "parallel function call", and raises
"Invalid JSON format in function message" on text that is not JSON).

The mapping:

- ``system`` (the top-level key, or a first turn) is a system message;
- ``human`` is a user message, ``gpt`` an assistant message with text. ``user``
  and ``assistant`` are read as the same: LLaMA-Factory's tags make these
  words a dataset's own setting, and its README retags with exactly these two;
- ``function_call`` is an assistant turn with its calls, in order. Call ``N``
  (from 0) of the turn at ``conversations[T]`` gets the id ``call_T_N``: the
  same on every run, unique within the line, and valid on every wire;
- ``observation`` answers the ``function_call`` just before it: its value is
  the result's text after one call, and after a list of N calls the JSON text
  of a list of the N results in call order, one string each;
- ``tools``, JSON text of a list of tool definitions (or the list itself), is
  read with ``Tool.from_dict``: LLaMA-Factory's bare ``{name, description,
  parameters}`` and OpenAI's ``{"type": "function", "function": {...}}`` alike.

Decisions (documented in docs/cli.md, "ShareGPT input"):

- LLaMA-Factory's alternation is enforced. It is the format's one written rule,
  and LLaMA-Factory drops a line that breaks it ("Invalid role tag", "Skipping
  this abnormal example"), so converting such a line would pass on what the
  format refuses. Its other count, an even number of turns, is not: a
  preference dataset needs an odd one, and a transcript may end on any turn.
- Calls must be answered by the observation right after them, unless the
  conversation ends there (a fine-tuning example may end on the call it
  teaches, as ``check_transcript`` allows by default).
- Nothing is dropped silently: a key of a turn other than ``from`` and
  ``value`` is refused (``null``, Arrow's padding for a key a row never had,
  is no key), as are media (``images``, ``videos``, ``audios``) and preference
  answers (``chosen``, ``rejected``), which no request body carries. Other
  top-level keys are metadata and are not carried, as with every ``--from``.
- Empty ``system`` or ``tools`` (``""``, ``null``, ``[]``, ``"[]"``: what
  Arrow and LLaMA-Factory write for a row without) mean none.
"""

from __future__ import annotations

from typing import Any

from ._errors import (
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    InvalidTranscript,
    at,
    describe,
)
from ._json import decode, join_key, kind_of
from ._message import ChatMessage
from ._tool import Tool
from ._tool_call import ToolCall

__all__ = ["read"]

_SYSTEM, _HUMAN, _GPT, _CALL, _OBSERVATION = "system", "human", "gpt", "function_call", "observation"

# Each ``from`` toolturns knows, and what it is read as.
_SPEAKERS = {
    _SYSTEM: _SYSTEM,
    _HUMAN: _HUMAN,
    "user": _HUMAN,
    _GPT: _GPT,
    "assistant": _GPT,
    _CALL: _CALL,
    _OBSERVATION: _OBSERVATION,
}
_KNOWN = ", ".join(repr(speaker) for speaker in _SPEAKERS)

# LLaMA-Factory's alternation, counted from 0 after a first system turn: its odd
# positions (counted from 1) are toolturns' even ones.
_ALTERNATION = (
    (frozenset({_HUMAN, _OBSERVATION}), "'human' or 'observation'"),
    (frozenset({_GPT, _CALL}), "'gpt' or 'function_call'"),
)
_ALTERNATION_RULE = (
    "LLaMA-Factory's sharegpt format puts human and observation at odd positions and gpt and "
    "function_call at even ones (after a first system turn)"
)

_TURN_KEYS = ("from", "value")
_CALL_KEYS = frozenset({"name", "arguments"})

# Keys a line may have whose content no request body carries.
_NOT_CARRIED = {
    "images": "media paths, which toolturns cannot carry (the <image> placeholders would stay text)",
    "videos": "media paths, which toolturns cannot carry (the <video> placeholders would stay text)",
    "audios": "media paths, which toolturns cannot carry (the <audio> placeholders would stay text)",
    "chosen": "a preference answer, which no request body carries",
    "rejected": "a preference answer, which no request body carries",
}

_LINE_SHAPE = 'an object with a "conversations" array (a ShareGPT line)'


def read(value: object) -> tuple[list[ChatMessage], list[Tool] | None]:
    """The messages and tools of one decoded ShareGPT line (any value: what is not one is refused).

    >>> messages, tools = read({"conversations": [
    ...     {"from": "human", "value": "Weather in Paris?"},
    ...     {"from": "function_call", "value": '{"name": "get_weather", "arguments": {"city": "Paris"}}'},
    ...     {"from": "observation", "value": "18 C"}],
    ...     "tools": '[{"name": "get_weather", "parameters": {"type": "object"}}]'})
    >>> [message.role.value for message in messages]
    ['user', 'assistant', 'tool']
    >>> messages[1].tool_calls
    (ToolCall(id='call_1_0', name='get_weather', arguments='{"city":"Paris"}'),)
    >>> messages[2].tool_call_id
    'call_1_0'
    >>> [tool.name for tool in tools]
    ['get_weather']
    >>> read({"conversations": [{"from": "observation", "value": "18 C"}]})
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: conversations[0].from: an observation must answer the function_call turn just before it; this one answers nothing, got 'observation'

    Raises:
        InvalidTranscript: the line is not a ShareGPT line, or has what no request carries.
        InvalidMessage: a turn does not read: its shape, its place, its results.
        InvalidToolCall, InvalidArguments: a call of a ``function_call`` turn does not read.
        InvalidTool: the tools do not read.
    """
    if not isinstance(value, dict):
        raise InvalidTranscript("line", f"must be {_LINE_SHAPE}", kind_of(value))
    _refuse_not_carried(value)
    turns = value.get("conversations")
    if not isinstance(turns, list):
        rule = f"is required: a line must be {_LINE_SHAPE}" if turns is None else "must be an array of turns"
        raise InvalidTranscript("conversations", rule, None if turns is None else kind_of(turns))
    messages, start = _system(value.get("system"), turns)  # a system turn is not counted in the alternation
    calls: tuple[ToolCall, ...] = ()  # those of the function_call turn just read, until answered
    for index in range(start, len(turns)):
        where = f"conversations[{index}]"
        speaker, said, text = _turn(turns[index], where)
        allowed, spelled = _ALTERNATION[(index - start) % 2]
        if speaker not in allowed:
            raise InvalidMessage(
                f"{where}.from",
                f"must be {spelled} here: {_ALTERNATION_RULE}",
                describe(said),
            )
        if speaker == _OBSERVATION:
            messages.extend(_results(calls, text, where))
            calls = ()
        elif calls:  # human after a function_call: its calls would go unanswered
            raise InvalidMessage(
                f"{where}.from",
                f"must be 'observation': the calls of conversations[{index - 1}] need their results right "
                "after them",
                describe(said),
            )
        elif speaker == _CALL:
            calls = _calls(text, index)
            messages.append(ChatMessage.assistant_tool_calls(calls))
        elif speaker == _HUMAN:
            messages.append(ChatMessage.user(text))
        else:
            messages.append(ChatMessage.assistant(text))
    return messages, _tools(value.get("tools"))


def _refuse_not_carried(value: dict[str, Any]) -> None:
    for key, what in _NOT_CARRIED.items():
        given = value.get(key)
        if given is not None and given != [] and given != "":
            raise InvalidTranscript(key, f"holds {what}", kind_of(given))


def _system(system: object, turns: list[Any]) -> tuple[list[ChatMessage], int]:
    """The system message of a line, from its key or its first turn, as a list of none or one; and
    how many turns it took (1 for a system turn, else 0)."""
    if system is not None and not isinstance(system, str):
        raise InvalidTranscript("system", "must be a string", describe(system))
    first = _turn(turns[0], "conversations[0]") if turns else None
    if first is None or first[0] != _SYSTEM:
        return ([ChatMessage.system(system)] if system else []), 0
    if system:
        raise InvalidTranscript(
            "system",
            "must not be given with a system turn (conversations[0]): LLaMA-Factory would use the turn "
            "and drop this",
            describe(system),
        )
    return [ChatMessage.system(first[2])], 1


def _turn(turn: object, where: str) -> tuple[str, str, str]:
    """Who speaks in a turn (as ``_SPEAKERS`` reads it), its ``from`` as it is spelled, and its text."""
    if not isinstance(turn, dict):
        raise InvalidMessage(where, 'must be an object {"from": ..., "value": ...}', kind_of(turn))
    for key, item in turn.items():
        if key not in _TURN_KEYS and item is not None:  # None: Arrow's padding for a key this row lacks
            raise InvalidMessage(
                join_key(where, key) if isinstance(key, str) else where,
                "is not a key of a ShareGPT turn (from, value); toolturns would have to drop it",
                kind_of(item),
            )
    said = turn.get("from")
    speaker = _SPEAKERS.get(said) if isinstance(said, str) else None
    if speaker is None or not isinstance(said, str):
        raise InvalidMessage(
            f"{where}.from", f"must be one of {_KNOWN}", None if said is None else describe(said)
        )
    text = turn.get("value")
    if not isinstance(text, str):
        raise InvalidMessage(
            f"{where}.value", "must be a string", None if "value" not in turn else describe(text)
        )
    return speaker, said, text


def _calls(text: str, index: int) -> tuple[ToolCall, ...]:
    """The calls of the function_call turn at ``conversations[index]``, with their ids."""
    where = f"conversations[{index}].value"
    try:
        value = decode(text, exact=True)
    except ValueError as error:
        raise InvalidMessage(
            where,
            f'must be the JSON text of a call {{"name", "arguments"}} or of a list of calls ({error})',
            describe(text),
        ) from None
    if isinstance(value, list):
        if not value:
            raise InvalidMessage(where, "must hold at least one call, got an empty list")
        return tuple(_call(item, f"call_{index}_{n}", f"{where}[{n}]") for n, item in enumerate(value))
    return (_call(value, f"call_{index}_0", where),)


def _call(value: object, call_id: str, where: str) -> ToolCall:
    if not isinstance(value, dict):
        raise InvalidToolCall(where, 'must be an object {"name", "arguments"}', kind_of(value))
    for key in value:
        if key not in _CALL_KEYS:
            raise InvalidToolCall(
                where,
                'must have only the keys "name" and "arguments", as a LLaMA-Factory call has',
                describe(key),
            )
    if "arguments" not in value:
        raise InvalidToolCall(f"{where}.arguments", "is required (LLaMA-Factory reads it from every call)")
    arguments = value["arguments"]
    if not isinstance(arguments, (dict, str)):
        raise InvalidToolCall(f"{where}.arguments", "must be an object, or its JSON text", kind_of(arguments))
    with at(where):
        return ToolCall(call_id, value.get("name"), arguments)  # type: ignore[arg-type]  # checked by ToolCall


def _results(calls: tuple[ToolCall, ...], text: str, where: str) -> list[ChatMessage]:
    """The tool results an observation holds, one per call of the turn before it, in order."""
    if not calls:
        raise InvalidMessage(
            f"{where}.from",
            "an observation must answer the function_call turn just before it; this one answers nothing",
            describe(_OBSERVATION),
        )
    if len(calls) == 1:
        return [ChatMessage.tool_result(calls[0].id, text)]
    rule = f"must be the JSON text of a list of {len(calls)} strings, the results of the {len(calls)} calls before it"
    try:
        results = decode(text, exact=True)
    except ValueError as error:
        raise InvalidMessage(f"{where}.value", f"{rule} ({error})", describe(text)) from None
    if not isinstance(results, list) or len(results) != len(calls):
        got = f"a list of {len(results)}" if isinstance(results, list) else kind_of(results)
        raise InvalidMessage(f"{where}.value", rule, got)
    texts: list[str] = []
    for n, result in enumerate(results):
        if not isinstance(result, str):
            raise InvalidMessage(
                f"{where}.value[{n}]", f"must be a string, the result of {calls[n].id}", kind_of(result)
            )
        texts.append(result)
    return [ChatMessage.tool_result(call.id, result) for call, result in zip(calls, texts, strict=True)]


def _tools(tools: object) -> list[Tool] | None:
    """The tools of a line: its ``tools``, a list or the JSON text of one; None for none."""
    if isinstance(tools, str):
        if not tools:
            return None
        try:
            tools = decode(tools, exact=True)
        except ValueError as error:
            raise InvalidTool(
                "tools", f"must be the JSON text of a list of tool definitions ({error})", describe(tools)
            ) from None
    if tools is None or tools == []:
        return None
    if not isinstance(tools, list):
        raise InvalidTool("tools", "must be a list of tool definitions, or its JSON text", kind_of(tools))
    read: list[Tool] = []
    for n, definition in enumerate(tools):
        with at(f"tools[{n}]"):
            read.append(Tool.from_dict(definition))
    return read

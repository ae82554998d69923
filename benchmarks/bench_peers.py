"""toolturns side by side with peer libraries, on the rows of bench_wire.py and bench_stream.py.

Contenders, each run only when its library is installed (``pip install -e '.[bench]'``;
a missing one is listed with a note, and the run goes on with the others):

- baseline: the hand-written dicts, tuples and ``json`` of bench_wire.py and
  bench_stream.py, checking nothing. Every ratio is against it, in the same run.
- toolturns: the functions bench_wire.py and bench_stream.py time.
- openai: the SDK's pydantic models for the assistant turn
  (``ChatCompletionMessage``, ``ChatCompletionMessageFunctionToolCall``,
  ``model_validate``, and ``model_dump(exclude_unset=True, mode="json")``, which
  is how the SDK serialises a model it sends). The SDK has no runtime type for
  system, user and tool request messages (they are ``TypedDict``s, plain dicts),
  so those stay dicts, unchecked. W4 uses its public accumulator
  ``openai.lib.streaming.chat.ChatCompletionStreamState``, fed
  ``ChatCompletionChunk`` objects made the way its own stream makes them
  (``construct``, no validation).
- langchain-core: ``AIMessage`` with ``tool_calls``, ``ToolMessage``,
  ``convert_to_messages`` and ``convert_to_openai_messages``; W4 adds
  ``AIMessageChunk``s, each made from a chunk dict as langchain-openai does it
  (that package is not in the extra, so that small step is written here).
- pydantic-ai: ``ModelResponse`` with ``ToolCallPart``, ``ModelRequest`` with
  ``ToolReturnPart`` (and ``SystemPromptPart``, ``UserPromptPart``, ``TextPart``).
  Its OpenAI mapping is private (an async method of ``OpenAIChatModel``) and
  it has no reader of OpenAI request messages, so both directions are written
  here on its public methods (``args_as_json_str``, ``args_as_dict``,
  ``model_response_str``), mirroring what that private mapping emits. W4 uses
  ``ModelResponsePartsManager``, the accumulator behind every pydantic-ai
  streamed response (module ``pydantic_ai._parts_manager``).
- msgspec: ``Struct`` types for the OpenAI message shape, defined here;
  ``msgspec.convert`` to read the wire dicts (typed), ``msgspec.to_builtins``
  to write them, ``msgspec.json`` for arguments: the fastest typed
  decoder/encoder, as a compiled floor. On W4: chunks converted to structs,
  then the baseline's accumulator.

Rows (as in bench_wire.py / bench_stream.py): W1 build an assistant turn with
3 tool calls and the 3 results -> wire dicts; W2 wire -> objects, every call's
arguments decoded; W3 a 200-message transcript wire -> objects -> wire; W4 3
streamed calls, 68 chunks -> message, arguments decoded; the transcript check
(``toolturns check`` over a JSONL dataset against a pass that only decodes the
lines: no peer has a transcript checker); import time (``python -X
importtime``, fresh processes, best of 5).

Before timing, every contender's output is compared with the baseline's, and
each difference is listed per contender (``drops content: ""``,
``content: "" -> null``, ``re-serialises tool_calls[].function.arguments``...). A contender that differs is
still timed: its differences are the notes of its row. Timing is bench_wire.py's:
samples with the garbage collector off, every contender interleaved round by
round (the order rotating), the best sample and the median; ratio = contender /
baseline, of the minima and as the median of the per-round ratios.

Run from the repository root, in an environment with the bench extra::

    python benchmarks/bench_peers.py              # about 2 minutes
    python benchmarks/bench_peers.py --quick      # about 30 s, for a smoke test
    python benchmarks/bench_peers.py --markdown   # the tables as Markdown
    python benchmarks/bench_peers.py --profile W3 # cProfile of every contender on one row
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import importlib.metadata
import importlib.util
import io
import json
import os
import platform
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import GenericAlias
from typing import Any, Literal

import bench_check
import bench_stream
import bench_wire
from bench_wire import CALLS, RESULTS, Wire

import toolturns

Chunk = dict[str, Any]
#: What W4 assembles: per call (id, name, decoded arguments), in index order.
Calls = list[tuple[str, str, Any]]
ROWS = ("W1", "W2", "W3", "W4")
ROW_TITLES = {
    "W1": "W1 build 3 calls + 3 results -> wire",
    "W2": "W2 wire -> objects + arguments",
    "W3": "W3 200-message wire -> objects -> wire",
    "W4": "W4 3 streamed calls, 68 chunks -> message",
}


def _view(role: Any, content: Any, calls: Any, tool_call_id: Any = None, name: Any = None) -> Wire:
    """What a contender's objects hold after W2, as one dict to compare: the
    message fields, each call as (id, name, decoded arguments)."""
    view: Wire = {"role": role, "content": content}
    if name is not None:
        view["name"] = name
    if calls:
        view["tool_calls"] = [{"id": i, "name": n, "arguments": a} for i, n, a in calls]
    if tool_call_id is not None:
        view["tool_call_id"] = tool_call_id
    return view


@dataclass
class Contender:
    """One library doing the rows; a row it cannot do is None, with a note saying why."""

    name: str
    version: str
    #: Where its work runs: pure Python or compiled code.
    runs: str
    #: Import statements timed in fresh processes: the message types (W1-W3), everything the rows use.
    imports: tuple[str, str]
    w1: Callable[[], list[Wire]] | None = None
    #: W2 returns the contender's objects; view2 turns them into _view dicts (untimed).
    w2: Callable[[Sequence[Wire]], Any] | None = None
    view2: Callable[[Any], list[Wire]] | None = None
    w3: Callable[[Sequence[Wire]], list[Wire]] | None = None
    w4: Callable[[Sequence[Chunk]], Calls] | None = None
    #: Per row ("messages": W1-W3; "check"): what the contender does differently, or why a row is missing.
    notes: dict[str, str] = field(default_factory=dict)


# -- baseline and toolturns (from bench_wire.py / bench_stream.py) ------------------------


def _plain_views(messages: Sequence[bench_wire.Plain]) -> list[Wire]:
    return [_view(*message) for message in messages]


def baseline() -> Contender:
    return Contender(
        name="baseline",
        version=f"Python {platform.python_version()}",
        runs="Python dicts and tuples, json in C",
        imports=("import json", "import json"),
        w1=bench_wire.base_w1,
        w2=bench_wire.base_w2,
        view2=_plain_views,
        w3=bench_wire.base_w3,
        w4=bench_stream.base_assemble,
    )


def _toolturns_views(result: tuple[list[toolturns.ChatMessage], list[dict[str, Any]]]) -> list[Wire]:
    messages, decoded = result
    arguments = iter(decoded)
    return [
        _view(
            message.role.value,
            message.content,
            [(call.id, call.name, next(arguments)) for call in message.tool_calls or ()],
            message.tool_call_id,
            message.name,
        )
        for message in messages
    ]


def toolturns_contender() -> Contender:
    return Contender(
        name="toolturns",
        version=toolturns.__version__,
        runs="pure Python (json in C)",
        imports=("import toolturns", "import toolturns, toolturns.openai"),
        w1=bench_wire.tt_w1,
        w2=bench_wire.tt_w2,
        view2=_toolturns_views,
        w3=bench_wire.tt_w3,
        w4=bench_stream.tt_assemble,
    )


# -- peers --------------------------------------------------------------------------------


def _installed(distribution: str, module: str) -> str | None:
    """The distribution's version when ``module`` can be imported, else None."""
    if importlib.util.find_spec(module) is None:
        return None
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def openai_contender() -> Contender | None:
    version = _installed("openai", "openai")
    if version is None:
        return None
    chat = importlib.import_module("openai.types.chat")
    streaming = importlib.import_module("openai.lib.streaming.chat")
    message_type: Any = chat.ChatCompletionMessage
    # The function tool call got its own class when custom tools arrived; older SDKs have one class.
    call_type: Any = (
        getattr(chat, "ChatCompletionMessageFunctionToolCall", None) or chat.ChatCompletionMessageToolCall
    )
    tool_param: Any = chat.ChatCompletionToolMessageParam
    chunk_type: Any = chat.ChatCompletionChunk
    state_type: Any = streaming.ChatCompletionStreamState

    def w1() -> list[Wire]:
        turn = message_type(
            role="assistant",
            tool_calls=[
                call_type(id=i, type="function", function={"name": n, "arguments": json.dumps(a)})
                for i, n, a in CALLS
            ],
        )
        # The SDK's own serialisation of a model in a request body.
        wire: list[Wire] = [turn.model_dump(exclude_unset=True, mode="json")]
        wire.extend(tool_param(role="tool", content=c, tool_call_id=i) for i, c in RESULTS)
        return wire

    def w2(wire: Sequence[Wire]) -> tuple[list[Any], list[Any]]:
        messages = [message_type.model_validate(m) if m["role"] == "assistant" else m for m in wire]
        decoded = [
            json.loads(call.function.arguments)
            for m in messages
            if not isinstance(m, dict)
            for call in m.tool_calls or ()
        ]
        return messages, decoded

    def view2(result: tuple[list[Any], list[Any]]) -> list[Wire]:
        messages, decoded = result
        arguments = iter(decoded)
        views = []
        for m in messages:
            if isinstance(m, dict):
                views.append(_view(m["role"], m.get("content"), None, m.get("tool_call_id"), m.get("name")))
            else:
                calls = [(c.id, c.function.name, next(arguments)) for c in m.tool_calls or ()]
                views.append(_view(m.role, m.content, calls))
        return views

    def w3(wire: Sequence[Wire]) -> list[Wire]:
        return [
            message_type.model_validate(m).model_dump(exclude_unset=True, mode="json")
            if m["role"] == "assistant"
            else m
            for m in wire
        ]

    def w4(chunks: Sequence[Chunk]) -> Calls:
        state = state_type()
        for chunk in chunks:
            state.handle_chunk(chunk_type.construct(**chunk))
        message = state.get_final_completion().choices[0].message
        return [(c.id, c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or ()]

    return Contender(
        name="openai",
        version=version,
        runs="pydantic models: validation and dumps in pydantic-core (compiled)",
        imports=("import openai.types.chat", "import openai.types.chat, openai.lib.streaming.chat"),
        w1=w1,
        w2=w2,
        view2=view2,
        w3=w3,
        w4=w4,
        notes={
            "messages": "only assistant turns are checked: other roles are TypedDicts, kept as plain dicts",
            "check": "no transcript checker",
        },
    )


def langchain_contender() -> Contender | None:
    version = _installed("langchain-core", "langchain_core")
    if version is None:
        return None
    lc: Any = importlib.import_module("langchain_core.messages")
    tool_call_chunk: Any = importlib.import_module("langchain_core.messages.tool").tool_call_chunk

    def w1() -> list[Wire]:
        turn = lc.AIMessage(
            content="",
            tool_calls=[{"name": n, "args": a, "id": i, "type": "tool_call"} for i, n, a in CALLS],
        )
        results = [lc.ToolMessage(content=c, tool_call_id=i) for i, c in RESULTS]
        converted: list[Wire] = lc.convert_to_openai_messages([turn, *results])
        return converted

    def w2(wire: Sequence[Wire]) -> tuple[list[Any], list[Any]]:
        messages = lc.convert_to_messages(wire)
        decoded = [call["args"] for m in messages if isinstance(m, lc.AIMessage) for call in m.tool_calls]
        return messages, decoded

    roles = {"ai": "assistant", "human": "user", "system": "system", "tool": "tool"}

    def view2(result: tuple[list[Any], list[Any]]) -> list[Wire]:
        messages, _ = result
        views = []
        for m in messages:
            calls = [(c["id"], c["name"], c["args"]) for c in getattr(m, "tool_calls", ())]
            views.append(
                _view(roles.get(m.type, m.type), m.content, calls, getattr(m, "tool_call_id", None), m.name)
            )
        return views

    def w3(wire: Sequence[Wire]) -> list[Wire]:
        converted: list[Wire] = lc.convert_to_openai_messages(lc.convert_to_messages(wire))
        return converted

    def message_chunk(chunk: Chunk) -> Any:
        # What langchain-openai makes of one chat.completion.chunk (_convert_delta_to_message_chunk).
        choice = chunk["choices"][0]
        delta = choice["delta"]
        calls = [
            tool_call_chunk(
                name=(d.get("function") or {}).get("name"),
                args=(d.get("function") or {}).get("arguments"),
                id=d.get("id"),
                index=d["index"],
            )
            for d in delta.get("tool_calls") or ()
        ]
        metadata = {"finish_reason": choice["finish_reason"]} if choice.get("finish_reason") else {}
        return lc.AIMessageChunk(
            content=delta.get("content") or "", tool_call_chunks=calls, response_metadata=metadata
        )

    def w4(chunks: Sequence[Chunk]) -> Calls:
        message = message_chunk(chunks[0])
        for chunk in chunks[1:]:
            message = message + message_chunk(chunk)
        return [(c["id"], c["name"], c["args"]) for c in message.tool_calls]

    return Contender(
        name="langchain-core",
        version=version,
        runs="pydantic models (pydantic-core) and Python conversion code",
        imports=("import langchain_core.messages", "import langchain_core.messages"),
        w1=w1,
        w2=w2,
        view2=view2,
        w3=w3,
        w4=w4,
        notes={
            "W4": "chunk dict -> AIMessageChunk written here as langchain-openai does it",
            "check": "no transcript checker",
        },
    )


def pydantic_ai_contender() -> Contender | None:
    version = _installed("pydantic-ai-slim", "pydantic_ai")
    if version is None:
        return None
    pm: Any = importlib.import_module("pydantic_ai.messages")
    parts_manager: Any = importlib.import_module("pydantic_ai._parts_manager").ModelResponsePartsManager
    parameters: Any = importlib.import_module("pydantic_ai.models").ModelRequestParameters
    tool_call_part: Any = pm.ToolCallPart
    names = {i: n for i, n, _ in CALLS}

    def to_wire(messages: Sequence[Any]) -> list[Wire]:
        # What pydantic-ai's private OpenAIChatModel._map_messages emits for these
        # parts (same keys, same order), through the parts' public methods.
        wire: list[Wire] = []
        for message in messages:
            if isinstance(message, pm.ModelResponse):
                texts = [p.content for p in message.parts if isinstance(p, pm.TextPart)]
                calls = [
                    {
                        "id": p.tool_call_id,
                        "type": "function",
                        "function": {"name": p.tool_name, "arguments": p.args_as_json_str()},
                    }
                    for p in message.parts
                    if isinstance(p, tool_call_part)
                ]
                item: Wire = {"role": "assistant", "content": "\n\n".join(texts) if texts else None}
                if calls:
                    item["tool_calls"] = calls
                wire.append(item)
                continue
            for part in message.parts:
                if isinstance(part, pm.ToolReturnPart):
                    wire.append(
                        {
                            "role": "tool",
                            "tool_call_id": part.tool_call_id,
                            "content": part.model_response_str(),
                        }
                    )
                elif isinstance(part, pm.UserPromptPart):
                    wire.append({"role": "user", "content": part.content})
                else:
                    wire.append({"role": "system", "content": part.content})
        return wire

    def from_wire(wire: Sequence[Wire]) -> list[Any]:
        # pydantic-ai reads no OpenAI request messages: this is what its user writes.
        # Consecutive system/user/tool messages make one ModelRequest, as pydantic-ai
        # keeps history; a tool result needs its tool's name, looked up by call id.
        messages: list[Any] = []
        parts: list[Any] = []
        called: dict[str, str] = {}
        for item in wire:
            role = item["role"]
            if role == "assistant":
                if parts:
                    messages.append(pm.ModelRequest(parts=parts))
                    parts = []
                response_parts: list[Any] = (
                    [pm.TextPart(content=item["content"])] if item.get("content") else []
                )
                for call in item.get("tool_calls") or ():
                    called[call["id"]] = call["function"]["name"]
                    response_parts.append(
                        tool_call_part(
                            tool_name=call["function"]["name"],
                            args=call["function"]["arguments"],
                            tool_call_id=call["id"],
                        )
                    )
                messages.append(pm.ModelResponse(parts=response_parts))
            elif role == "tool":
                call_id = item["tool_call_id"]
                parts.append(
                    pm.ToolReturnPart(
                        tool_name=called[call_id], content=item["content"], tool_call_id=call_id
                    )
                )
            elif role == "user":
                parts.append(pm.UserPromptPart(content=item["content"]))
            else:
                parts.append(pm.SystemPromptPart(content=item["content"]))
        if parts:
            messages.append(pm.ModelRequest(parts=parts))
        return messages

    def w1() -> list[Wire]:
        response = pm.ModelResponse(
            parts=[tool_call_part(tool_name=n, args=a, tool_call_id=i) for i, n, a in CALLS]
        )
        request = pm.ModelRequest(
            parts=[pm.ToolReturnPart(tool_name=names[i], content=c, tool_call_id=i) for i, c in RESULTS]
        )
        return to_wire([response, request])

    def w2(wire: Sequence[Wire]) -> tuple[list[Any], list[Any]]:
        messages = from_wire(wire)
        decoded = [
            p.args_as_dict()
            for m in messages
            if isinstance(m, pm.ModelResponse)
            for p in m.parts
            if isinstance(p, tool_call_part)
        ]
        return messages, decoded

    def view2(result: tuple[list[Any], list[Any]]) -> list[Wire]:
        messages, decoded = result
        arguments = iter(decoded)
        views = []
        for m in messages:
            if isinstance(m, pm.ModelResponse):
                texts = [p.content for p in m.parts if isinstance(p, pm.TextPart)]
                calls = [
                    (p.tool_call_id, p.tool_name, next(arguments))
                    for p in m.parts
                    if isinstance(p, tool_call_part)
                ]
                views.append(_view("assistant", "\n\n".join(texts) if texts else None, calls))
                continue
            for part in m.parts:
                if isinstance(part, pm.ToolReturnPart):
                    views.append(_view("tool", part.content, None, part.tool_call_id))
                else:
                    role = "user" if isinstance(part, pm.UserPromptPart) else "system"
                    views.append(_view(role, part.content, None))
        return views

    def w3(wire: Sequence[Wire]) -> list[Wire]:
        return to_wire(from_wire(wire))

    def w4(chunks: Sequence[Chunk]) -> Calls:
        # The per-chunk calls of pydantic-ai's OpenAIStreamedResponse, on the chunk dicts.
        manager = parts_manager(model_request_parameters=parameters())
        for chunk in chunks:
            for choice in chunk["choices"]:
                for delta in choice["delta"].get("tool_calls") or ():
                    function = delta.get("function") or {}
                    manager.handle_tool_call_delta(
                        vendor_part_id=delta["index"],
                        tool_name=function.get("name"),
                        args=function.get("arguments"),
                        tool_call_id=delta.get("id"),
                    )
        return [
            (p.tool_call_id, p.tool_name, p.args_as_dict())
            for p in manager.get_parts()
            if isinstance(p, tool_call_part)
        ]

    return Contender(
        name="pydantic-ai",
        version=version,
        runs="Python dataclasses, not validated; arguments JSON in pydantic-core",
        imports=(
            "import pydantic_ai.messages",
            "import pydantic_ai.messages, pydantic_ai.models, pydantic_ai._parts_manager",
        ),
        w1=w1,
        w2=w2,
        view2=view2,
        w3=w3,
        w4=w4,
        notes={
            "messages": "OpenAI mapping written here on public methods (the library's is private and async)",
            "check": "no public transcript checker (its agent repairs dangling calls silently)",
        },
    )


def msgspec_contender() -> Contender | None:
    version = _installed("msgspec", "msgspec")
    if version is None:
        return None
    ms: Any = importlib.import_module("msgspec")
    unset: Any = ms.UNSET
    unset_type: Any = ms.UnsetType
    # defstruct and GenericAlias rather than class statements and list[...]: the
    # library is optional, so its types are Any to the type checker, which
    # accepts neither a class subclassing Any nor list[] of a variable.
    function_type = ms.defstruct("Function", [("name", str), ("arguments", str)])
    call_type = ms.defstruct(
        "ToolCall",
        [("id", str), ("type", Literal["function"], "function"), ("function", function_type)],
        kw_only=True,
    )
    message_type = ms.defstruct(
        "Message",
        [
            ("role", Literal["system", "developer", "user", "assistant", "tool"]),
            ("content", str | None),
            ("name", str | unset_type, unset),
            ("tool_calls", GenericAlias(list, call_type) | unset_type, unset),
            ("tool_call_id", str | unset_type, unset),
        ],
    )
    messages_type = GenericAlias(list, message_type)
    function_delta = ms.defstruct(
        "FunctionDelta", [("name", str | None, None), ("arguments", str | None, None)]
    )
    call_delta = ms.defstruct(
        "ToolCallDelta",
        [
            ("index", int),
            ("id", str | None, None),
            ("type", str | None, None),
            ("function", function_delta, None),
        ],
    )
    delta_type = ms.defstruct(
        "Delta",
        [
            ("role", str | None, None),
            ("content", str | None, None),
            ("tool_calls", GenericAlias(list, call_delta) | None, None),
        ],
    )
    choice_type = ms.defstruct(
        "Choice", [("index", int), ("delta", delta_type), ("finish_reason", str | None, None)]
    )
    chunk_type = ms.defstruct("Chunk", [("choices", GenericAlias(list, choice_type))])
    chunks_type = GenericAlias(list, chunk_type)
    encode = ms.json.encode
    decode = ms.json.decode
    convert = ms.convert
    to_builtins = ms.to_builtins

    def w1() -> list[Wire]:
        turn = message_type(
            role="assistant",
            content="",
            tool_calls=[call_type(id=i, function=function_type(n, encode(a).decode())) for i, n, a in CALLS],
        )
        results = [message_type(role="tool", content=c, tool_call_id=i) for i, c in RESULTS]
        wire: list[Wire] = to_builtins([turn, *results])
        return wire

    def w2(wire: Sequence[Wire]) -> tuple[list[Any], list[Any]]:
        messages = convert(wire, messages_type)
        decoded = [decode(c.function.arguments) for m in messages if m.tool_calls for c in m.tool_calls]
        return messages, decoded

    def view2(result: tuple[list[Any], list[Any]]) -> list[Wire]:
        messages, decoded = result
        arguments = iter(decoded)
        return [
            _view(
                m.role,
                m.content,
                [(c.id, c.function.name, next(arguments)) for c in m.tool_calls] if m.tool_calls else None,
                None if m.tool_call_id is unset else m.tool_call_id,
                None if m.name is unset else m.name,
            )
            for m in messages
        ]

    def w3(wire: Sequence[Wire]) -> list[Wire]:
        out: list[Wire] = to_builtins(convert(wire, messages_type))
        return out

    def w4(chunks: Sequence[Chunk]) -> Calls:
        # Typed chunks, then the baseline's accumulator over their attributes.
        calls: dict[int, list[Any]] = {}
        for chunk in convert(chunks, chunks_type):
            for choice in chunk.choices:
                for delta in choice.delta.tool_calls or ():
                    call = calls.get(delta.index)
                    function = delta.function
                    if call is None:
                        call = calls[delta.index] = [delta.id, function.name if function else None, []]
                    if function is not None and function.arguments:
                        call[2].append(function.arguments)
        return [(i, n, decode("".join(fragments))) for _, (i, n, fragments) in sorted(calls.items())]

    return Contender(
        name="msgspec",
        version=version,
        runs="compiled (C): Struct types defined here",
        imports=("import msgspec", "import msgspec, msgspec.json"),
        w1=w1,
        w2=w2,
        view2=view2,
        w3=w3,
        w4=w4,
        notes={
            "messages": "types only: no rule across fields (tool_call_id on tool, ids unique...)",
            "W1": "Struct() does not check types (only decoding does)",
            "W4": "no stream accumulator: typed chunks + the baseline's accumulator",
            "check": "no transcript checker",
        },
    )


PEERS: dict[str, Callable[[], Contender | None]] = {
    "openai": openai_contender,
    "langchain-core": langchain_contender,
    "pydantic-ai": pydantic_ai_contender,
    "msgspec": msgspec_contender,
}
DISTRIBUTIONS = {
    "openai": "openai",
    "langchain-core": "langchain-core",
    "pydantic-ai": "pydantic-ai-slim",
    "msgspec": "msgspec",
}


# -- the same output: differences described --------------------------------------------------


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def _layout(actual: str) -> str:
    """Which json.dumps layout the JSON text ``actual`` is, as far as its value tells."""
    value = json.loads(actual)
    for separators, ensure_ascii, name in (
        ((",", ":"), False, "compact, non-ASCII as is"),
        ((", ", ": "), False, "spaced, non-ASCII as is"),
        ((",", ":"), True, "compact, non-ASCII escaped"),
        ((", ", ": "), True, "spaced, non-ASCII escaped"),
    ):
        if actual == json.dumps(value, separators=separators, ensure_ascii=ensure_ascii):
            return name
    return "another layout"


def _same_json(expected: str, actual: str) -> bool:
    try:
        return bool(json.loads(expected) == json.loads(actual))
    except ValueError:
        return False


@dataclass
class _Found:
    """Differences found, each with its count, and key orders found (one per place)."""

    changes: dict[str, int] = field(default_factory=dict)
    orders: dict[str, str] = field(default_factory=dict)

    def add(self, description: str) -> None:
        self.changes[description] = self.changes.get(description, 0) + 1


def _diff(where: str, path: str, expected: Any, actual: Any, found: _Found) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            if key not in actual:
                found.add(f"{where}: drops {path}{key}: {_show(value)}")
            else:
                _diff(where, f"{path}{key}.", value, actual[key], found)
        for key, value in actual.items():
            if key not in expected:
                found.add(f"{where}: adds {path}{key}: {_show(value)}")
        common = [key for key in actual if key in expected]
        if common != [key for key in expected if key in actual]:
            found.orders.setdefault(f"{where} {path.rstrip('.')}".rstrip(), ", ".join(common))
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            found.add(f"{where}: {path.rstrip('.')} has {len(actual)} items instead of {len(expected)}")
        for e, a in zip(expected, actual, strict=False):
            _diff(where, f"{path.rstrip('.')}[].", e, a, found)
    elif expected != actual or type(expected) is not type(actual):
        name = path.rstrip(".")
        if isinstance(expected, str) and isinstance(actual, str) and _same_json(expected, actual):
            found.add(f"{where}: re-serialises {name} (same JSON value, {_layout(actual)})")
        else:
            found.add(f"{where}: {name}: {_show(expected)} -> {_show(actual)}")


def _kind(message: Any) -> str:
    if not isinstance(message, dict):
        return "message"
    role = message.get("role")
    if role == "assistant" and message.get("tool_calls"):
        return "assistant+calls"
    return str(role)


def differences(expected: Sequence[Any], actual: Sequence[Any]) -> list[str]:
    """Every way ``actual`` differs from ``expected`` (lists of wire or view dicts):
    one line per kind of difference and kind of message, with its count, then one
    line for the key orders that differ (JSON objects are unordered: no effect on
    the wire, but a byte-for-byte comparison of the body sees it)."""
    found = _Found()
    if len(expected) != len(actual):
        found.add(f"{len(actual)} messages instead of {len(expected)}")
    for e, a in zip(expected, actual, strict=False):
        _diff(_kind(e), "", e, a, found)
    lines = [f"{text} (x{count})" if count > 1 else text for text, count in found.changes.items()]
    if found.orders:
        lines.append("key order: " + "; ".join(f"{where} ({keys})" for where, keys in found.orders.items()))
    return lines


def _calls_view(calls: Calls) -> list[Wire]:
    return [{"id": i, "name": n, "arguments": a} for i, n, a in calls]


@dataclass
class Check:
    """What one contender produces on one row, against the baseline."""

    differences: list[str]
    #: Set when the contender raised: it is not timed on that row.
    error: str | None = None


def output(row: str, contender: Contender, inputs: Inputs) -> list[Any] | None:
    """What the contender produces on ``row``, in the form compared with the baseline's:
    wire dicts (W1, W3), views of the objects read (W2), the assembled calls (W4)."""
    if row == "W1" and contender.w1 is not None:
        return contender.w1()
    if row == "W2" and contender.w2 is not None and contender.view2 is not None:
        return contender.view2(contender.w2(inputs.w1))
    if row == "W3" and contender.w3 is not None:
        return contender.w3(inputs.transcript)
    if row == "W4" and contender.w4 is not None:
        return _calls_view(contender.w4(inputs.chunks))
    return None


def check_row(row: str, contender: Contender, expected: Sequence[Any], inputs: Inputs) -> Check | None:
    """Compare one contender's output on ``row`` with the baseline's (None: it has no such row)."""
    try:
        actual = output(row, contender, inputs)
    except Exception as error:  # a peer failing on the row is reported, not fatal
        return Check([], f"{type(error).__name__}: {error}")
    return None if actual is None else Check(differences(expected, actual))


# -- timing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    """The data every contender gets, built once before timing."""

    w1: list[Wire]
    transcript: list[Wire]
    chunks: list[Chunk]


def operation(row: str, contender: Contender, inputs: Inputs) -> Callable[[], object] | None:
    """The zero-argument operation timed for ``row``, or None when the contender has no such row."""
    if row == "W1":
        return contender.w1
    if row == "W2" and contender.w2 is not None:
        w2, wire = contender.w2, inputs.w1
        return lambda: w2(wire)
    if row == "W3" and contender.w3 is not None:
        w3, transcript = contender.w3, inputs.transcript
        return lambda: w3(transcript)
    if row == "W4" and contender.w4 is not None:
        w4, chunks = contender.w4, inputs.chunks
        return lambda: w4(chunks)
    return None


def measure_many(
    functions: Sequence[Callable[[], object]], *, repeat: int, seconds: float
) -> list[list[float]]:
    """Samples (seconds per call, GC off) of every function, interleaved: each
    round samples each once, starting one further along the list every round."""
    numbers = [bench_wire._calls_per_sample(function, seconds) for function in functions]
    samples: list[list[float]] = [[] for _ in functions]
    for round_ in range(repeat):
        for step in range(len(functions)):
            index = (round_ + step) % len(functions)
            samples[index].append(bench_wire._sample(functions[index], numbers[index]))
    return samples


@dataclass
class Timing:
    """One contender's samples on one row, with the baseline's of the same rounds."""

    samples: list[float]
    base: list[float]

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def ratio_best(self) -> float:
        return min(self.samples) / min(self.base)

    @property
    def ratio_median(self) -> float:
        return statistics.median(s / b for s, b in zip(self.samples, self.base, strict=True))


# -- import time -------------------------------------------------------------------------------

_IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)\s*$")


def _import_lines(code: str, env: dict[str, str]) -> list[tuple[int, int, str]]:
    """(cumulative µs, depth, module) of every line ``python -X importtime -c code`` prints."""
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True, env=env
    )
    lines = []
    for line in completed.stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            lines.append((int(match.group(2)), len(match.group(3)), match.group(4)))
    return lines


def import_times_ms(statements: Sequence[str], runs: int) -> list[float]:
    """Best of ``runs`` fresh processes: the time each import statement takes.

    The time of a statement is the sum of the cumulative times of the top-level
    modules it imports: the lines of ``python -X importtime`` that a bare
    interpreter (``-c pass``) does not print. Bytecode is cached in a temporary
    PYTHONPYCACHEPREFIX written by one warm-up run, as after an install
    (bench_wire.import_time_ms does the same). The statements take turns, run
    by run, so that a busy moment of the machine does not fall on one of them.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    best = [float("inf")] * len(statements)
    with tempfile.TemporaryDirectory() as prefix:
        env["PYTHONPYCACHEPREFIX"] = prefix
        startup = {name for _, _, name in _import_lines("pass", env)}
        for statement in statements:
            _import_lines(statement, env)  # writes the .pyc files
        for _ in range(runs):
            for index, statement in enumerate(statements):
                lines = _import_lines(statement, env)
                total = sum(c for c, depth, name in lines if depth == 1 and name not in startup) / 1000
                best[index] = min(best[index], total)
    return best


# -- the report ---------------------------------------------------------------------------------


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool, right: Sequence[bool]
) -> str:
    if markdown:
        lines = ["| " + " | ".join(headers) + " |"]
        lines.append("|" + "|".join("---:" if r else "---" for r in right) + "|")
        lines.extend("| " + " | ".join(row) + " |" for row in rows)
        return "\n".join(lines)
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True)
        )

    return "\n".join([line(headers), "-" * len(line(headers)), *(line(row) for row in rows)])


def _us(seconds: float) -> str:
    microseconds = seconds * 1e6
    return f"{microseconds:,.0f}" if microseconds >= 1000 else f"{microseconds:.1f}"


def report_row(
    row: str,
    contenders: Sequence[Contender],
    checks: dict[str, Check],  # no entry for the baseline, nor for a contender without the row
    timings: dict[str, Timing],
    markdown: bool,
) -> str:
    """One row's table, then its notes: every difference from the baseline, and why a contender is missing."""
    notes: list[str] = []
    table = []
    for contender in contenders:
        marks = []
        check = checks.get(contender.name)
        keys = ("messages", row) if row != "W4" else (row,)
        row_notes = [n for key in keys if (n := contender.notes.get(key))]
        if check is not None:
            row_notes += [f"differs: {d}" for d in check.differences]
            if check.error:
                row_notes.append(f"failed, not timed: {check.error}")
        for note in row_notes:
            notes.append(f"{contender.name}: {note}")
            marks.append(f"[{len(notes)}]")
        timing = timings.get(contender.name)
        if timing is None:
            cells = ["-", "-", "-", "-"]
        else:
            cells = [
                _us(timing.best),
                _us(timing.median),
                f"{timing.ratio_best:.2f}x",
                f"{timing.ratio_median:.2f}x",
            ]
        same = "-" if check is None or check.error else ("yes" if not check.differences else "no")
        table.append([contender.name, contender.version, *cells, same, " ".join(marks)])
    headers = ["contender", "version", "best µs", "median µs", "ratio best", "ratio median", "same", "notes"]
    text = [f"{'### ' if markdown else '== '}{ROW_TITLES[row]}", ""]
    text.append(_table(headers, table, markdown, [False, False, True, True, True, True, False, False]))
    if notes:
        text.append("")
        text.extend(f"{'- ' if markdown else ''}[{number}] {note}" for number, note in enumerate(notes, 1))
    return "\n".join(text)


def check_dataset_row(lines: int, rounds: int, contenders: Sequence[Contender], markdown: bool) -> str:
    """The transcript check: ``toolturns check`` against decoding the lines only (bench_check.py's
    contenders, smaller), and a note for every peer (none has a checker)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dataset.jsonl"
        size = bench_check.write_dataset(path, lines)
        if bench_check.baseline(path) != lines or bench_check.check(path) != 0:
            sys.exit("bench_peers: the dataset must decode and check clean before it is timed")
        base_times: list[float] = []
        tt_times: list[float] = []
        for round_ in range(rounds):
            pair: list[tuple[list[float], Callable[[], object]]] = [
                (base_times, lambda: bench_check.baseline(path)),
                (tt_times, lambda: bench_check.check(path)),
            ]
            for samples, function in pair if round_ % 2 == 0 else reversed(pair):
                start = time.perf_counter()
                function()
                samples.append(time.perf_counter() - start)
    table = [
        [
            "baseline (json.loads per line)",
            f"Python {platform.python_version()}",
            f"{min(base_times) / lines * 1e6:.1f}",
            "1.00x",
            "1.00x",
            "",
        ]
    ]
    timing = Timing(tt_times, base_times)
    table.append(
        [
            "toolturns check",
            toolturns.__version__,
            f"{timing.best / lines * 1e6:.1f}",
            f"{timing.ratio_best:.2f}x",
            f"{timing.ratio_median:.2f}x",
            "",
        ]
    )
    for contender in contenders:
        if contender.name not in ("baseline", "toolturns"):
            table.append([contender.name, contender.version, "-", "-", "-", contender.notes.get("check", "")])
    headers = ["contender", "version", "best µs/line", "ratio best", "ratio median", "note"]
    title = (
        f"Transcript check: {lines:,} JSONL lines ({size / 1e6:.1f} MB, examples/transcripts.jsonl repeated), "
        f"{rounds} interleaved rounds, GC on"
    )
    return "\n".join(
        [
            f"{'### ' if markdown else '== '}{title}",
            "",
            _table(headers, table, markdown, [False, False, True, True, True, False]),
        ]
    )


def profile(row: str, contenders: Sequence[Contender], inputs: Inputs, top: int) -> None:
    """cProfile of every contender on ``row``, by own time (read the shares, not the absolute times)."""
    for contender in contenders:
        function = operation(row, contender, inputs)
        if function is None:
            continue
        number = bench_wire._calls_per_sample(function, 0.5)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(number):
            function()
        profiler.disable()
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).strip_dirs().sort_stats("tottime").print_stats(top)
        table = stream.getvalue()
        print(f"== {row} {contender.name}: {number} operations under cProfile, sorted by own time")
        print(table[table.index("   ncalls") :].rstrip())
        print()


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (fewer, shorter samples)")
    parser.add_argument("--repeat", type=int, help="samples per contender and row (default 31, quick 5)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only these peers (repeatable)")
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated rows to time (default all)")
    parser.add_argument("--no-check", action="store_true", help="skip the transcript-check row")
    parser.add_argument("--no-import-time", action="store_true", help="skip the import-time measurement")
    parser.add_argument(
        "--profile", metavar="ROW", choices=ROWS, help="instead of timing, cProfile every contender"
    )
    options = parser.parse_args(argv)
    repeat = options.repeat or (5 if options.quick else 31)
    seconds = 0.01 if options.quick else 0.04
    rows = [r for r in options.rows.split(",") if r]
    if any(r not in ROWS for r in rows):
        parser.error(f"--rows: choose among {', '.join(ROWS)}")

    contenders = [baseline(), toolturns_contender()]
    missing = []
    for name, load in PEERS.items():
        if options.only and name not in options.only:
            continue
        try:
            peer = load()
        except Exception as error:  # a version whose API moved: say so, run the others
            missing.append(f"{name}: could not be set up ({type(error).__name__}: {error})")
            continue
        if peer is None:
            missing.append(f"{name}: not installed (pip install {DISTRIBUTIONS[name]}, or the bench extra)")
        else:
            contenders.append(peer)
    inputs = Inputs(
        w1=bench_wire.base_w1(), transcript=bench_wire.make_transcript(), chunks=bench_stream.w4_chunks()
    )
    # The baseline and toolturns must agree with their own benchmarks' checks first.
    bench_wire.check_same_output(inputs.transcript)

    if options.profile:
        profile(options.profile, contenders, inputs, top=14)
        return 0

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
        f"{os.cpu_count()} CPUs ({_cpu_model()}), {platform.platform()}"
    )
    print(
        f"{repeat} interleaved samples of ~{seconds * 1000:.0f} ms per contender and row; GC off while timing. "
        f"Ratios are against the baseline of the same run."
    )
    for contender in contenders:
        print(f"  {contender.name} {contender.version}: {contender.runs}")
    for line in missing:
        print(f"  {line}")
    print()

    base = contenders[0]
    for row in rows:
        expected = output(row, base, inputs)
        assert expected is not None  # the baseline does every row
        checks = {c.name: check for c in contenders[1:] if (check := check_row(row, c, expected, inputs))}
        # A contender that failed its check is not timed; one without the row has no operation.
        functions = {
            c.name: function
            for c in contenders
            if (function := operation(row, c, inputs)) and not (c.name in checks and checks[c.name].error)
        }
        samples = measure_many(list(functions.values()), repeat=repeat, seconds=seconds)
        timings = {name: Timing(s, samples[0]) for name, s in zip(functions, samples, strict=True)}
        print(report_row(row, contenders, checks, timings, options.markdown), flush=True)
        print()

    if not options.no_check:
        lines, rounds = (2_000, 3) if options.quick else (20_000, 5)
        print(check_dataset_row(lines, rounds, contenders, options.markdown), flush=True)
        print()

    if not options.no_import_time:
        runs = 3 if options.quick else 5
        statements = sorted({statement for c in contenders for statement in c.imports})
        times = dict(zip(statements, import_times_ms(statements, runs), strict=True))
        table = [
            [c.name, c.version, f"{times[c.imports[0]]:.1f}", f"{times[c.imports[1]]:.1f}", c.imports[1]]
            for c in contenders
        ]
        title = f"Import time (python -X importtime, best of {runs} fresh processes, bytecode cached)"
        print(f"{'### ' if options.markdown else '== '}{title}")
        print()
        headers = ["contender", "version", "message types ms", "all rows ms", "all rows import"]
        print(_table(headers, table, options.markdown, [False, False, True, True, False]))
        print()

    print("µs per operation: best sample (min), then the median sample.")
    print("ratio = contender / baseline: of the minima, then the median of the per-round ratios.")
    print("same: the contender's output equals the baseline's; every difference is in the notes.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

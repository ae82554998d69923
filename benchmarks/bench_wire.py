"""Speed of toolturns against a hand-written baseline, on the OpenAI Chat and Responses wires.

The baseline does the same work with plain dicts, tuples and ``json``, and
checks nothing: it is the floor a validating library is measured against.

Rows (one operation each):

- W1  build an assistant turn with 3 tool calls (arguments of 4-6 keys, nested
      lists and objects, non-ASCII text) and the 3 tool results answering it,
      and produce their wire dicts.
- W2  read those wire dicts into objects, decoding every call's arguments.
- W3  wire -> objects -> wire for a realistic 200-message transcript (system,
      user, assistant text, assistant turns with 1-3 calls, tool results).
      Both sides keep the arguments as text here, as the wire carries them.
- W3c W3 through the Chat codec: the transcript as a request body, read
      with ``openai.from_request`` and written with ``openai.to_request``
      (which check the transcript as a whole: ids, pairing, what the wire
      carries), against W3's baseline. The Responses rows go through their
      codec too: W3c is the Chat row to hold R3d beside.
- R2  (OpenAI Responses) W2 from a ``response`` body: its JSON text decoded,
      its output read (W1's three calls as function_call items, with their
      fc_ ids and status), every call's arguments decoded.
- R3  (OpenAI Responses) W3's transcript as a request body's ``input`` items
      (the assistant's replayed from ``response.output``, with their ids and
      status): JSON text -> messages (from_request) -> JSON text (to_request).
      The baseline groups the items into turns as toolturns does and keeps
      every key it does not model; it checks nothing.
- R2d, R3d  R2 and R3 from the dict json.loads gave, to the dict before
      json.dumps: the step W2 and W3 measure.
- W5  JSON text -> objects -> JSON text for a user turn with a question and a
      1 MB image as a base64 data: URL (OpenAI's image_url part): the parts
      read into plain values and written back, json.loads and json.dumps
      on both sides. The peak memory of one operation is measured for both
      (tracemalloc): toolturns must add no copy of the base64 text.

Both sides are first checked to produce the same output; the run stops if not.
Then each row is timed timeit-style (garbage collector off while timing), the
two contenders interleaved sample by sample so that a burst of noise on the
machine hits both. The table shows the best sample (min of N, the usual timeit
figure) and the median; the ratio is toolturns / baseline, from the minima and
as the median of the per-round ratios. Finally the import time of toolturns is
measured with ``python -X importtime`` in fresh processes (best of 5).

Run from the repository root::

    python benchmarks/bench_wire.py            # about 20 s
    python benchmarks/bench_wire.py --quick    # about 2 s, for a smoke test
    python benchmarks/bench_wire.py --profile  # where toolturns's time goes (cProfile)
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import toolturns
from toolturns import ChatMessage, ToolCall, openai, responses

Wire = dict[str, Any]

# -- the data ---------------------------------------------------------------

#: W1's three calls: (id, tool name, arguments), 4-6 keys each, nested lists
#: and objects, non-ASCII text (accents, CJK, an astral emoji).
CALLS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "call_8f2kq1Xa",
        "search_flights",
        {
            "origin": "Zürich",
            "destination": "São Paulo",
            "date": "2026-03-14",
            "passengers": [{"name": "Zoë Ægir", "age": 34}, {"name": "François Lefèvre", "age": 7}],
            "cabin": "économie",
            "filters": {"max_stops": 1, "airlines": ["LX", "LH", "TP"], "refundable": True},
        },
    ),
    (
        "call_p0x93aQr",
        "get_weather",
        {
            "city": "Kraków",
            "units": "metric",
            "days": 3,
            "fields": ["temperature", "wind", "précipitations"],
            "location": {"lat": 50.0647, "lon": 19.945},
        },
    ),
    (
        "call_Z7m2bdLk",
        "translate",
        {
            "text": "Wie spät ist es in Tōkyō? 東京は今何時ですか 🕒",
            "source": "de",
            "target": "ja",
            "glossary": {"Tōkyō": "東京", "spät": ["遅い", "遅く"]},
        },
    ),
)

#: W1's three results: (call id, content).
RESULTS: tuple[tuple[str, str], ...] = (
    (
        "call_8f2kq1Xa",
        json.dumps(
            [{"flight": "LX92", "depart": "22:15", "price": "1 234 CHF", "stops": 0}],
            ensure_ascii=False,
        ),
    ),
    ("call_p0x93aQr", "Kraków: 4 °C, wiatr 12 km/h, opady 30 %"),
    ("call_Z7m2bdLk", "東京は今何時ですか"),
)

_TOOLS = ("get_weather", "search_web", "read_file", "run_sql", "send_email", "translate", "get_time")
_WORDS = (
    "the report for Zürich shows 42 open tickets",
    "please summarise the last three meetings",
    "naïve approach: retry with back-off",
    "東京の天気はどうですか",
    "Größe und Preis der Bestellung",
    "ok",
    "I checked the logs; the job failed at 03:12 UTC with exit code 137.",
)


def _arguments(rng: random.Random) -> dict[str, Any]:
    """Arguments as a model writes them: a few keys, sometimes nested."""
    arguments: dict[str, Any] = {"query": rng.choice(_WORDS)}
    for key in rng.sample(["limit", "city", "tags", "options", "path", "lang"], rng.randint(0, 4)):
        if key == "limit":
            arguments[key] = rng.randint(1, 100)
        elif key == "tags":
            arguments[key] = [rng.choice(_WORDS)[:12] for _ in range(rng.randint(1, 3))]
        elif key == "options":
            arguments[key] = {"verbose": rng.random() < 0.5, "depth": rng.randint(1, 5), "ratio": 0.25}
        else:
            arguments[key] = rng.choice(_WORDS)
    return arguments


def make_image_turn(size: int = 1_000_000, seed: int = 5) -> str:
    """W5's input: one user turn, a question and a ``size``-byte image as a data: URL, as JSON text."""
    image = base64.b64encode(random.Random(seed).randbytes(size)).decode()
    return json.dumps(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What does this chart say about Q3?"},
                {
                    "type": "image_url",
                    "image_url": {"url": f"data:image/png;base64,{image}", "detail": "high"},
                },
            ],
        }
    )


def make_transcript(size: int = 200, seed: int = 2) -> list[Wire]:
    """A realistic OpenAI request transcript of exactly ``size`` messages."""
    rng = random.Random(seed)
    messages: list[Wire] = [{"role": "system", "content": "You are a careful assistant. Use the tools."}]
    counter = 0
    while True:
        episode: list[Wire] = [{"role": "user", "content": rng.choice(_WORDS)}]
        for _ in range(rng.choice((0, 1, 1, 2))):
            calls = []
            for _ in range(rng.randint(1, 3)):
                counter += 1
                calls.append(
                    {
                        "id": f"call_{counter:08x}Qz",
                        "type": "function",
                        # Models send the text with spaces; it is replayed as is.
                        "function": {"name": rng.choice(_TOOLS), "arguments": json.dumps(_arguments(rng))},
                    }
                )
            # A response's tool-call turn has content null; some have text.
            content = None if rng.random() < 0.7 else "Let me look that up."
            episode.append({"role": "assistant", "content": content, "tool_calls": calls})
            for call in calls:
                result = json.dumps({"ok": True, "items": [rng.choice(_WORDS)]}, ensure_ascii=False)
                episode.append({"role": "tool", "tool_call_id": call["id"], "content": result})
        episode.append({"role": "assistant", "content": rng.choice(_WORDS)})
        if len(messages) + len(episode) > size:
            break
        messages.extend(episode)
    while len(messages) < size:  # pad with short exchanges to the exact size
        role = "user" if messages[-1]["role"] != "user" else "assistant"
        messages.append({"role": role, "content": rng.choice(_WORDS)})
    return messages


# -- toolturns --------------------------------------------------------------


def tt_w1() -> list[Wire]:
    """W1 with toolturns: validated objects, then their wire dicts."""
    turn = ChatMessage.assistant_tool_calls([ToolCall(i, n, a) for i, n, a in CALLS])
    results = [ChatMessage.tool_result(i, c) for i, c in RESULTS]
    return [turn.to_wire(), *[result.to_wire() for result in results]]


def tt_w2(wire: Sequence[Wire]) -> tuple[list[ChatMessage], list[dict[str, Any]]]:
    """W2 with toolturns: messages read, every call's arguments decoded."""
    messages = [ChatMessage.from_dict(item) for item in wire]
    decoded = [call.arguments for message in messages for call in message.tool_calls or ()]
    return messages, decoded


def tt_w3(wire: Sequence[Wire]) -> list[Wire]:
    """W3 with toolturns: every message read, then written back."""
    return [message.to_wire() for message in [ChatMessage.from_dict(item) for item in wire]]


def tt_w3_codec(body: Wire) -> Wire:
    """W3c with toolturns: the request body read and written by the Chat codec."""
    return openai.to_request(openai.from_request(body))


def tt_w5(text: str) -> str:
    """W5 with toolturns: the turn read as a ChatMessage with its parts, then written back."""
    return json.dumps(tt_w5_dicts(json.loads(text)))


def tt_w5_dicts(item: Wire) -> Wire:
    """W5's step between the JSON texts, with toolturns."""
    return ChatMessage.from_dict(item).to_wire()


# -- the baseline: plain dicts, tuples and json, no validation ----------------

#: A message as plain data: (role, content, calls, tool_call_id, name), each
#: call (id, name, arguments) with arguments as text or decoded.
Plain = tuple[str, str, "tuple[tuple[str, str, Any], ...] | None", "str | None", "str | None"]


def base_w1() -> list[Wire]:
    """W1 by hand: the wire dicts built directly, arguments through json.dumps."""
    turn: Wire = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, n, a in CALLS
        ],
    }
    return [turn, *[{"role": "tool", "content": c, "tool_call_id": i} for i, c in RESULTS]]


def _base_read(item: Wire, decode: bool) -> Plain:
    calls = item.get("tool_calls")
    content = item.get("content")
    return (
        item["role"],
        "" if content is None else content,
        tuple(
            (
                call["id"],
                call["function"]["name"],
                json.loads(call["function"]["arguments"]) if decode else call["function"]["arguments"],
            )
            for call in calls
        )
        if calls
        else None,
        item.get("tool_call_id"),
        item.get("name"),
    )


def base_w2(wire: Sequence[Wire]) -> list[Plain]:
    """W2 by hand: plain tuples, every call's arguments through json.loads."""
    return [_base_read(item, True) for item in wire]


def _base_write(message: Plain) -> Wire:
    role, content, calls, tool_call_id, name = message
    wire: Wire = {"role": role, "content": content}
    if name is not None:
        wire["name"] = name
    if calls:
        wire["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
        ]
    if tool_call_id is not None:
        wire["tool_call_id"] = tool_call_id
    return wire


def base_w3(wire: Sequence[Wire]) -> list[Wire]:
    """W3 by hand: plain tuples (arguments kept as text), then wire dicts again."""
    return [_base_write(message) for message in [_base_read(item, False) for item in wire]]


def base_w3_codec(body: Wire) -> Wire:
    """W3c by hand: W3's baseline on the body's messages."""
    return {"messages": base_w3(body["messages"])}


def base_w5(text: str) -> str:
    """W5 by hand: each part read into a tuple, then its dict again; no check of anything."""
    return json.dumps(base_w5_dicts(json.loads(text)))


def base_w5_dicts(item: Wire) -> Wire:
    """W5's step between the JSON texts, by hand."""
    parts: list[tuple[str, str, str | None]] = []
    for part in item["content"]:
        if part["type"] == "text":
            parts.append(("text", part["text"], None))
        else:
            image = part["image_url"]
            parts.append(("image_url", image["url"], image.get("detail")))
    content: list[Wire] = []
    for kind, value, detail in parts:
        if kind == "text":
            content.append({"type": "text", "text": value})
        else:
            image_url: Wire = {"url": value}
            if detail is not None:
                image_url["detail"] = detail
            content.append({"type": "image_url", "image_url": image_url})
    return {"role": item["role"], "content": content}


def peak_bytes(function: Callable[[], object]) -> int:
    """The peak memory one call allocates, its result kept until the peak is read (tracemalloc)."""
    tracemalloc.start()
    try:
        result = function()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    return peak


# -- the Responses wire (R2, R3) ------------------------------------------------------

#: The keys a response object carries besides ``output`` (as gpt-4o-mini's in
#: tests/data/responses/response_function_call.json, without its tools).
RESPONSE_ENVELOPE: dict[str, Any] = {
    "id": "resp_0633efef9be07b3f00697055b509f481919987db82fc1022c9",
    "object": "response",
    "created_at": 1768969653,
    "status": "completed",
    "error": None,
    "incomplete_details": None,
    "instructions": None,
    "max_output_tokens": None,
    "model": "gpt-4o-mini-2024-07-18",
    "parallel_tool_calls": True,
    "previous_response_id": None,
    "reasoning": {"effort": None, "summary": None},
    "store": True,
    "temperature": 1,
    "text": {"format": {"type": "text"}, "verbosity": "medium"},
    "tool_choice": "auto",
    "top_p": 1,
    "truncation": "disabled",
    "metadata": {},
}
RESPONSE_USAGE: dict[str, Any] = {
    "input_tokens": 312,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 141,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 453,
}


def model_json(arguments: Any) -> str:
    """Argument text as models write it in a response: compact, non-ASCII kept as is."""
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))


def response_call_items() -> list[Wire]:
    """W1's three calls as a response's ``function_call`` output items, each with its ``fc_`` id and status."""
    return [
        {
            "type": "function_call",
            "id": f"fc_0633efef9be07b3f{number:02d}697055b5992081919d",
            "call_id": call_id,
            "name": name,
            "arguments": model_json(arguments),
            "status": "completed",
        }
        for number, (call_id, name, arguments) in enumerate(CALLS)
    ]


def make_response() -> str:
    """R2's input: a ``response`` body whose output is W1's three calls, as JSON text."""
    return json.dumps({**RESPONSE_ENVELOPE, "output": response_call_items(), "usage": RESPONSE_USAGE})


def make_responses_transcript(size: int = 200) -> str:
    """R3's input: W3's transcript as a Responses request body (``{"input": [...]}``), as JSON text.

    Items as a client holds them that appends each response's output to its
    next input: the user's messages and function_call_output items written
    by the caller, the assistant's messages and function_call items replayed
    from ``response.output`` with their ``msg_``/``fc_`` ids and status (each key in the order toolturns
    writes it, so that a round trip gives the same text back).
    """
    items: list[Wire] = []
    for number, message in enumerate(make_transcript(size)):
        role, content = message["role"], message.get("content")
        if role == "tool":
            items.append(
                {"type": "function_call_output", "call_id": message["tool_call_id"], "output": content}
            )
        elif role != "assistant":
            items.append({"type": "message", "role": role, "content": content})
        else:
            if content:
                items.append(
                    {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": content, "annotations": []}],
                        "id": f"msg_{number:04d}efef9be07b3f00697055b5",
                        "status": "completed",
                    }
                )
            for call in message.get("tool_calls") or ():
                items.append(
                    {
                        "type": "function_call",
                        "call_id": call["id"],
                        "name": call["function"]["name"],
                        "arguments": call["function"]["arguments"],
                        "id": "fc_" + call["id"][5:] + "f00697055b599",
                        "status": "completed",
                    }
                )
    return json.dumps({"model": "gpt-4o-mini", "input": items})


def tt_r2(text: str) -> tuple[ChatMessage, list[dict[str, Any]]]:
    """R2 with toolturns: the response's turn read, every call's arguments decoded."""
    return tt_r2_dicts(json.loads(text))


def tt_r2_dicts(body: Wire) -> tuple[ChatMessage, list[dict[str, Any]]]:
    """R2's step after the JSON text, with toolturns."""
    turn = responses.from_response(body)
    return turn, [call.arguments for call in turn.tool_calls or ()]


def tt_r3(text: str) -> str:
    """R3 with toolturns: every item read into messages, then written back."""
    return json.dumps(tt_r3_dicts(json.loads(text)))


def tt_r3_dicts(body: Wire) -> Wire:
    """R3's step between the JSON texts, with toolturns."""
    return responses.to_request(responses.from_request(body))


#: An item's keys the baseline models, as toolturns does; it keeps the others (``id``, ``status``) too.
_MESSAGE_KEYS = frozenset({"type", "role", "content"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output"})

#: A Responses call as plain data: (call_id, name, arguments, the item's other keys).
PlainCall = tuple[str, str, Any, dict[str, Any]]


def _others(item: Wire, modelled: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in item.items() if key not in modelled}


def _base_text(content: Any) -> str:
    """A message item's text: the string, or its output_text parts joined."""
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content if part["type"] == "output_text")


def base_r2(text: str) -> tuple[str, str, list[PlainCall], list[Wire]]:
    """R2 by hand: the output items read into a tuple, every call's arguments through json.loads.

    Keeps each call item's id and status, and every item of another type,
    as toolturns does; checks nothing.
    """
    return base_r2_dicts(json.loads(text))


def base_r2_dicts(body: Wire) -> tuple[str, str, list[PlainCall], list[Wire]]:
    """R2's step after the JSON text, by hand."""
    texts: list[str] = []
    calls: list[PlainCall] = []
    kept: list[Wire] = []
    for item in body["output"]:
        kind = item["type"]
        if kind == "function_call":
            calls.append(
                (item["call_id"], item["name"], json.loads(item["arguments"]), _others(item, _CALL_KEYS))
            )
        elif kind == "message" and not texts:
            texts.append(_base_text(item["content"]))
        else:
            kept.append(item)
    return "assistant", "".join(texts), calls, kept


#: A Responses turn as plain data: (kind, role, content, calls, call_id, the item's other keys).
PlainItem = tuple[str, str, Any, list[PlainCall], "str | None", dict[str, Any]]


def _base_read_items(items: Sequence[Wire]) -> list[PlainItem]:
    """Items grouped into turns as toolturns groups them: an assistant message and the calls after it."""
    turns: list[PlainItem] = []
    for item in items:
        kind = item.get("type", "message")
        if kind == "function_call":
            call = (item["call_id"], item["name"], item["arguments"], _others(item, _CALL_KEYS))
            if turns and turns[-1][0] == "turn":
                turns[-1][3].append(call)
            else:
                turns.append(("turn", "assistant", None, [call], None, {}))
        elif kind == "function_call_output":
            turns.append(("output", "tool", item["output"], [], item["call_id"], _others(item, _OUTPUT_KEYS)))
        elif item["role"] == "assistant":
            content = _base_parts(item["content"])
            turns.append(("turn", "assistant", content, [], None, _others(item, _MESSAGE_KEYS)))
        else:
            content = _base_parts(item["content"])
            turns.append(("message", item["role"], content, [], None, _others(item, _MESSAGE_KEYS)))
    return turns


def _base_parts(content: Any) -> Any:
    """A message's content: the string, or each text part as a (type, text, annotations) tuple."""
    if isinstance(content, str):
        return content
    return tuple((part["type"], part["text"], part.get("annotations")) for part in content)


def _base_write_parts(content: Any) -> Any:
    if isinstance(content, str):
        return content
    return [{"type": kind, "text": text, "annotations": annotations} for kind, text, annotations in content]


def _base_write_items(turns: Sequence[PlainItem]) -> list[Wire]:
    items: list[Wire] = []
    for kind, role, content, calls, call_id, others in turns:
        if kind == "output":
            items.append({"type": "function_call_output", "call_id": call_id, "output": content, **others})
            continue
        if content is not None:
            items.append({"type": "message", "role": role, "content": _base_write_parts(content), **others})
        for call_id_, name, arguments, call_others in calls:
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id_,
                    "name": name,
                    "arguments": arguments,
                    **call_others,
                }
            )
    return items


def base_r3(text: str) -> str:
    """R3 by hand: items read into plain tuples (grouped into turns, other keys kept), then written back."""
    return json.dumps(base_r3_dicts(json.loads(text)))


def base_r3_dicts(body: Wire) -> Wire:
    """R3's step between the JSON texts, by hand."""
    return {"input": _base_write_items(_base_read_items(body["input"]))}


# -- the same output on both sides -------------------------------------------


def _comparable(wire: Sequence[Wire]) -> list[Wire]:
    """Wire dicts with each call's arguments decoded, so that layout differences
    of the JSON text (spaces, escapes) do not count, and its value does."""
    out = []
    for item in wire:
        item = dict(item)
        if "tool_calls" in item:
            item["tool_calls"] = [
                {
                    **call,
                    "function": {**call["function"], "arguments": json.loads(call["function"]["arguments"])},
                }
                for call in item["tool_calls"]
            ]
        out.append(item)
    return out


def _as_plain(message: ChatMessage) -> Plain:
    calls = None
    if message.tool_calls:
        calls = tuple((call.id, call.name, call.arguments) for call in message.tool_calls)
    return (message.role.value, message.text, calls, message.tool_call_id, message.name)


def check_same_output(transcript: Sequence[Wire]) -> None:
    """Stop the run unless both sides produce the same output on every row."""
    problems = []
    w1 = tt_w1()
    if _comparable(w1) != _comparable(base_w1()):
        problems.append("W1: the wire dicts differ")
    tt_messages, tt_decoded = tt_w2(w1)
    base_messages = base_w2(w1)
    if [_as_plain(m) for m in tt_messages] != base_messages:
        problems.append("W2: the objects read differ")
    if tt_decoded != [call[2] for m in base_messages for call in m[2] or ()]:
        problems.append("W2: the decoded arguments differ")
    if tt_decoded != [arguments for _, _, arguments in CALLS]:
        problems.append("W2: the decoded arguments are not W1's input")
    w3 = tt_w3(transcript)
    if w3 != base_w3(transcript) or _comparable(w3) != _comparable(base_w3(transcript)):
        problems.append("W3: the wire dicts differ")
    expected = [{**m, "content": m["content"] or ""} if "tool_calls" in m else m for m in transcript]
    if w3 != expected:
        problems.append("W3: the round trip changed the transcript beyond content null -> ''")
    if tt_w3_codec({"messages": transcript}) != base_w3_codec({"messages": transcript}):
        problems.append("W3c: the request bodies differ")
    image_turn = make_image_turn(10_000)
    if tt_w5(image_turn) != base_w5(image_turn) or tt_w5(image_turn) != image_turn:
        problems.append("W5: the JSON text differs")
    problems.extend(_responses_problems(make_response(), make_responses_transcript()))
    if problems:
        sys.exit("bench_wire: not the same work, not timing it:\n  " + "\n  ".join(problems))


def _responses_problems(response: str, transcript: str) -> list[str]:
    """What R2 and R3 do differently on the two sides, or not as the rows say."""
    problems = []
    turn, decoded = tt_r2(response)
    calls = [
        (call.id, call.name, call.arguments, call.provider_data["responses"]["keys"])
        for call in turn.tool_calls or ()
    ]
    kept = list(turn.provider_data.get("responses", {}).get("items", ()))
    if ("assistant", turn.text, calls, kept) != base_r2(response):
        problems.append("R2: the turns read differ")
    if decoded != [arguments for _, _, arguments in CALLS]:
        problems.append("R2: the decoded arguments are not W1's")
    if tt_r3(transcript) != base_r3(transcript):
        problems.append("R3: the JSON text differs")
    if json.loads(tt_r3(transcript))["input"] != json.loads(transcript)["input"]:
        problems.append("R3: the round trip changed the items")
    if len(responses.from_request(json.loads(transcript))) != len(make_transcript()):
        problems.append("R3: the items are not W3's messages")
    return problems


# -- timing -------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One benchmark row: the two contenders doing the same work."""

    name: str
    toolturns: Callable[[], object]
    baseline: Callable[[], object]


@dataclass(frozen=True)
class Result:
    """The samples of one row, in seconds per operation."""

    row: Row
    toolturns: list[float]
    baseline: list[float]

    def ratios(self) -> list[float]:
        return [t / b for t, b in zip(self.toolturns, self.baseline, strict=True)]


def _sample(function: Callable[[], object], number: int) -> float:
    """Seconds per call over ``number`` calls, the garbage collector off (as timeit)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            function()
        return (time.perf_counter() - start) / number
    finally:
        if enabled:
            gc.enable()


def _calls_per_sample(function: Callable[[], object], seconds: float) -> int:
    """How many calls make one sample last about ``seconds`` (timeit.autorange-like)."""
    number = 1
    while True:
        elapsed = _sample(function, number) * number
        if elapsed >= seconds / 10:
            return max(1, round(number * seconds / elapsed))
        number *= 10


def measure(row: Row, *, repeat: int, seconds: float, number: int | None = None) -> Result:
    """Time both contenders, alternating which one goes first in each round: ``number`` calls a
    sample (by default as many as make a sample last about ``seconds``)."""
    contenders = (row.toolturns, row.baseline)
    numbers = [number or _calls_per_sample(function, seconds) for function in contenders]
    samples: list[list[float]] = [[], []]
    for round_ in range(repeat):
        order = (0, 1) if round_ % 2 == 0 else (1, 0)
        for index in order:
            samples[index].append(_sample(contenders[index], numbers[index]))
    return Result(row, samples[0], samples[1])


_IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")


def import_time_ms(runs: int = 5, *, cached: bool = True) -> tuple[float, float, list[tuple[int, str]]]:
    """Best of ``runs`` fresh processes: toolturns's cumulative and self import time.

    The cumulative figure of the top-level ``toolturns`` line of
    ``python -X importtime`` is its own time plus every module it imported
    first (its submodules and the stdlib modules it needs, json, dataclasses...).
    Also returns the slowest modules under it in the best run.

    ``cached``: measure with bytecode cached, as an installed package runs. The
    .pyc files go to a temporary PYTHONPYCACHEPREFIX (written by one warm-up
    run), so the source tree is not touched and PYTHONDONTWRITEBYTECODE, which
    would make every run compile toolturns from source, does not apply. Without
    it, the environment is used as it is.
    """
    env = dict(os.environ)
    command = [sys.executable, "-X", "importtime", "-c", "import toolturns"]
    with tempfile.TemporaryDirectory() as prefix:
        if cached:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = prefix
            subprocess.run(command, capture_output=True, check=True, env=env)  # writes the .pyc files
        best: tuple[float, float, list[tuple[int, str]]] | None = None
        for _ in range(runs):
            completed = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
            lines: list[tuple[int, int, int, str]] = []
            for line in completed.stderr.splitlines():
                match = _IMPORT_LINE.match(line)
                if match:
                    own, cumulative, indent, name = match.groups()
                    lines.append((int(own), int(cumulative), len(indent), name))
            # importtime prints a module after its children: the ones printed after
            # the previous top-level line and before toolturns are its children.
            top = next(i for i, line in enumerate(lines) if line[3] == "toolturns" and line[2] == 1)
            start = max((i for i in range(top) if lines[i][2] == 1), default=-1) + 1
            children = sorted(((line[0], line[3]) for line in lines[start:top]), reverse=True)
            figures = (lines[top][1] / 1000, lines[top][0] / 1000, children[:6])
            if best is None or figures[0] < best[0]:
                best = figures
    assert best is not None
    return best


def profile(rows: Sequence[Row], *, seconds: float, top: int = 15) -> None:
    """Print where toolturns's time goes on each row: cProfile, by own time.

    cProfile adds a cost to every Python call, so read the shares, not the
    absolute times; time a suspect with timeit before and after changing it.
    """
    for row in rows:
        number = _calls_per_sample(row.toolturns, seconds)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(number):
            row.toolturns()
        profiler.disable()
        stream = io.StringIO()
        stats = pstats.Stats(profiler, stream=stream)
        stats.strip_dirs().sort_stats("tottime").print_stats(top)
        table = stream.getvalue()
        print(f"== {row.name}: toolturns, {number} operations under cProfile, sorted by own time")
        print(table[table.index("   ncalls") :].rstrip())
        print()


# -- the report -----------------------------------------------------------------


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (fewer, shorter samples)")
    parser.add_argument("--repeat", type=int, help="samples per contender and row (default 41, quick 7)")
    parser.add_argument("--no-import-time", action="store_true", help="skip the import-time measurement")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead of timing, show where toolturns's time goes (cProfile)",
    )
    options = parser.parse_args(argv)
    repeat = options.repeat or (7 if options.quick else 41)
    seconds = 0.01 if options.quick else 0.05

    transcript = make_transcript()
    check_same_output(transcript)
    image_turn = make_image_turn()
    w1 = base_w1()
    response, responses_transcript = make_response(), make_responses_transcript()
    body, request = json.loads(response), json.loads(responses_transcript)
    chat_body: Wire = {"messages": transcript}
    rows = [
        Row("W1 build 3 calls + 3 results -> wire", tt_w1, base_w1),
        Row("W2 wire -> objects + arguments", lambda: tt_w2(w1), lambda: base_w2(w1)),
        Row("W3 200-message wire -> objects -> wire", lambda: tt_w3(transcript), lambda: base_w3(transcript)),
        Row(
            "W3c W3 through openai.from/to_request",
            lambda: tt_w3_codec(chat_body),
            lambda: base_w3_codec(chat_body),
        ),
        Row("R2 response JSON -> turn + arguments", lambda: tt_r2(response), lambda: base_r2(response)),
        Row(
            "R3 200-message JSON -> objects -> JSON",
            lambda: tt_r3(responses_transcript),
            lambda: base_r3(responses_transcript),
        ),
        # The same steps without the JSON text, as W2 and W3 measure them.
        Row("R2d R2 from the decoded body", lambda: tt_r2_dicts(body), lambda: base_r2_dicts(body)),
        Row("R3d R3 from the decoded body", lambda: tt_r3_dicts(request), lambda: base_r3_dicts(request)),
        Row(
            "W5 1 MB image turn, JSON -> objects -> JSON",
            lambda: tt_w5(image_turn),
            lambda: base_w5(image_turn),
        ),
    ]

    if options.profile:
        profile(rows, seconds=0.2 if options.quick else 1.0)
        return 0

    calls = sum(len(m.get("tool_calls") or ()) for m in transcript)
    print(
        f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(f"W3 transcript: {len(transcript)} messages, {calls} tool calls")
    print(
        f"{repeat} interleaved samples of ~{seconds * 1000:.0f} ms per contender and row; GC off while timing"
    )
    print()
    header = (
        f"{'row':<42}{'toolturns µs':>14}{'(median)':>10}{'baseline µs':>13}{'(median)':>10}"
        f"{'ratio':>8}{'(median)':>10}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        result = measure(row, repeat=repeat, seconds=seconds)
        print(
            f"{row.name:<42}{_us(min(result.toolturns)):>14}{_us(statistics.median(result.toolturns)):>10}"
            f"{_us(min(result.baseline)):>13}{_us(statistics.median(result.baseline)):>10}"
            f"{min(result.toolturns) / min(result.baseline):>7.2f}x"
            f"{statistics.median(result.ratios()):>9.2f}x",
            flush=True,
        )
    # The JSON steps allocate the same on both sides: what differs is the step between them,
    # measured on the dict json.loads gave, kept alive as a caller keeps its input.
    item = json.loads(image_turn)
    tt_peak, base_peak = peak_bytes(lambda: tt_w5_dicts(item)), peak_bytes(lambda: base_w5_dicts(item))
    print()
    print(
        f"W5 peak memory of the dict -> objects -> dict step (tracemalloc): toolturns {tt_peak / 1e3:.1f} kB, "
        f"baseline {base_peak / 1e3:.1f} kB (the base64 text is {len(image_turn) / 1e6:.2f} MB: "
        "a copy of it would show as that much)"
    )
    print()
    print("µs per operation: best sample (min), then the median sample.")
    print("ratio = toolturns / baseline: of the minima, then the median of the per-round ratios.")

    if not options.no_import_time:
        total, own, children = import_time_ms()
        print()
        print(
            f"import toolturns: {total:.1f} ms total (python -X importtime: the cumulative time of the "
            f"top-level toolturns entry, best of 5 fresh processes, bytecode cached as when installed)"
        )
        print(
            f"  {own:.2f} ms in toolturns/__init__ itself; the slowest modules it imported first: "
            + ", ".join(f"{n} {t / 1000:.2f}" for t, n in children)
        )
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            uncached, _, _ = import_time_ms(cached=False)
            print(
                f"  {uncached:.1f} ms as this environment runs it (PYTHONDONTWRITEBYTECODE: compiled each time)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

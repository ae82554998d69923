"""Speed of toolturns' stream assembly against a hand-written accumulator, on OpenAI Chat chunks and Responses events.

The baseline is the dict accumulator people write by hand: calls keyed by
``index``, id and name set once, argument fragments appended to lists and
joined once, then ``json.loads``. It checks nothing: it is the floor a
validating assembler is measured against.

Rows:

- W4  one assistant turn with 3 tool calls (W1's calls of bench_wire.py:
      arguments of 4-6 keys, nested, non-ASCII) streamed as OpenAI
      ``chat.completion.chunk`` items: a role chunk, per call a first chunk
      with id, type and name, then the argument text in 8-character fragments,
      and a finish chunk. One operation feeds every chunk to
      ``openai.StreamAssembler``, takes ``.message()`` and decodes every call's
      ``.arguments``; the baseline does the same work with dicts and lists.
- R4  the same three calls streamed as OpenAI Responses events, after a short
      text: ``response.created`` and ``.in_progress``, a message item (added,
      its output_text part added, text deltas, done events), per call a
      function_call item (added, the argument text in 8-character deltas,
      ``function_call_arguments.done``, ``output_item.done``), and
      ``response.completed`` with the whole output. One operation feeds every
      event to ``responses.StreamAssembler``, takes ``.message()`` and decodes
      every call's ``.arguments``. The baseline keys items by
      ``output_index`` and appends the deltas; it trusts them, and reads
      neither the done events nor the completed response's output (toolturns
      checks every event and reads the done items).
- R4k R4 against a baseline that keeps what toolturns keeps, checking
      nothing still: it copies each response envelope (less its output) and
      each item it is given (the caller may reuse its dicts), takes an
      item's done form over its added one, and reads the turn from the done
      items, keeping each item's type, id and status for replay. A
      reference beside R4, not a row with a target: it says how much of
      R4's ratio is checking and building objects, and how much the work
      the R4 baseline leaves out.
- Scaling: one call whose arguments are ~1 MB of JSON text in 8-character
  fragments, against ~100 KB: time(1 MB) / time(100 KB) for each contender,
  one assembly a sample for both sizes. Assembly that is linear in the
  stream gives about 10x (the target is at most 11x); one that re-joins the
  text on every fragment grows quadratically.

The chunks are decoded dicts, built before timing (as ``parse_sse`` gives
them): the SSE parsing and ``json.loads`` of each line are not timed. Both
sides are first checked to assemble the same calls (ids, names, decoded
arguments); the run stops if not. Timing is bench_wire.py's: timeit-style
samples with the garbage collector off, the contenders interleaved sample by
sample, the best sample (min) and the median, the ratio as the median of the
per-round ratios.

Run from the repository root::

    python benchmarks/bench_stream.py            # about 16 s (W4, R4, R4k, scaling)
    python benchmarks/bench_stream.py --quick    # about 2-3 s, for a smoke test
    python benchmarks/bench_stream.py --profile  # where toolturns' time goes on W4 and R4 (cProfile)
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from typing import Any

import bench_wire
from bench_wire import Result, Row, measure

import toolturns
from toolturns import openai, responses

Chunk = dict[str, Any]
#: What both sides must produce: per call (id, name, decoded arguments), in index order.
Calls = list[tuple[str, str, Any]]

FRAGMENT = 8  # characters of argument text per chunk

# -- the chunks ---------------------------------------------------------------------

# The envelope every chat.completion.chunk carries (shared, as a decoder would
# give equal values; the assemblers only read "choices").
_ENVELOPE: dict[str, Any] = {
    "id": "chatcmpl-AbC123xyzStreamBench",
    "object": "chat.completion.chunk",
    "created": 1764480000,
    "model": "gpt-4o-2024-08-06",
    "system_fingerprint": "fp_50cad350e4",
}


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> Chunk:
    return {
        **_ENVELOPE,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}],
    }


def make_chunks(calls: Sequence[tuple[str, str, str]], fragment: int = FRAGMENT) -> list[Chunk]:
    """The decoded chunks of one streamed tool-call turn, as OpenAI sends them.

    ``calls``: (id, name, argument JSON text); the text is cut every
    ``fragment`` characters.
    """
    chunks = [_chunk({"role": "assistant", "content": None, "refusal": None})]
    for index, (call_id, name, text) in enumerate(calls):
        first = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        chunks.append(_chunk({"tool_calls": [first]}))
        for start in range(0, len(text), fragment):
            piece = {"index": index, "function": {"arguments": text[start : start + fragment]}}
            chunks.append(_chunk({"tool_calls": [piece]}))
    chunks.append(_chunk({}, "tool_calls"))
    return chunks


def w4_chunks() -> list[Chunk]:
    """W4's stream: bench_wire's W1 calls, 8 characters of arguments per chunk."""
    return make_chunks([(i, n, bench_wire.model_json(a)) for i, n, a in bench_wire.CALLS])


def big_arguments(rows: int) -> dict[str, Any]:
    """Large arguments (a batch insert), about 100 characters per row."""
    return {
        "table": "bookings",
        "on_conflict": "update",
        "rows": [
            {
                "id": n,
                "guest": "Zoë Ægir" if n % 2 else "François Lefèvre",
                "city": ("Kraków", "São Paulo", "東京", "Zürich")[n % 4],
                "nights": n % 9 + 1,
                "tags": ["late check-in", "🕒"] if n % 3 else [],
                "paid": n % 5 != 0,
            }
            for n in range(rows)
        ],
    }


def scaling_chunks(rows: int) -> tuple[list[Chunk], int]:
    """One call with ``big_arguments(rows)``: its chunks and its argument length in characters."""
    text = bench_wire.model_json(big_arguments(rows))
    return make_chunks([("call_bulk0001", "insert_rows", text)]), len(text)


# -- the Responses events (R4) -------------------------------------------------------

#: R4's text before the calls: 24 characters, 3 deltas.
R4_TEXT = "Let me check all three."


def _obfuscation(sequence: int) -> str:
    """The padding key OpenAI adds to each delta event (the assemblers ignore it)."""
    return f"H2d0mf8T{sequence:04d}"


def responses_events(
    text: str, calls: Sequence[tuple[str, str, str]], fragment: int = FRAGMENT
) -> list[Chunk]:
    """The decoded events of one streamed Responses turn: a message item with ``text``,
    then a function_call item per call, cut every ``fragment`` characters, as OpenAI sends
    them (added, deltas, done for each part and item; a created, in_progress and completed
    response around them, the response's keys as ``bench_wire.RESPONSE_ENVELOPE``).
    """
    events: list[Chunk] = []

    def event(kind: str, **keys: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **keys})

    def deltas(kind: str, whole: str, **keys: Any) -> None:
        for start in range(0, len(whole), fragment):
            event(kind, delta=whole[start : start + fragment], obfuscation=_obfuscation(len(events)), **keys)

    envelope = {**bench_wire.RESPONSE_ENVELOPE, "status": "in_progress", "output": [], "usage": None}
    event("response.created", response=envelope)
    event("response.in_progress", response=envelope)
    message_id = "msg_0775572d10a16b66006a8d8528e8a887d2"
    where = {"item_id": message_id, "output_index": 0}
    event(
        "response.output_item.added",
        output_index=0,
        item={
            "id": message_id,
            "type": "message",
            "status": "in_progress",
            "content": [],
            "role": "assistant",
        },
    )
    event(
        "response.content_part.added",
        **where,
        content_index=0,
        part={"type": "output_text", "annotations": [], "text": ""},
    )
    deltas("response.output_text.delta", text, **where, content_index=0, logprobs=[])
    event("response.output_text.done", **where, content_index=0, text=text, logprobs=[])
    part = {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
    event("response.content_part.done", **where, content_index=0, part=part)
    message = {
        "id": message_id,
        "type": "message",
        "status": "completed",
        "content": [part],
        "role": "assistant",
    }
    event("response.output_item.done", output_index=0, item=message)
    output: list[dict[str, Any]] = [message]
    for index, (call_id, name, arguments) in enumerate(calls, start=1):
        item_id = f"fc_0775572d10a16b66006a8d8528e8a887d{index:02d}"
        added = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": call_id,
            "name": name,
        }
        event("response.output_item.added", output_index=index, item=added)
        deltas("response.function_call_arguments.delta", arguments, item_id=item_id, output_index=index)
        event(
            "response.function_call_arguments.done", arguments=arguments, item_id=item_id, output_index=index
        )
        done = {**added, "status": "completed", "arguments": arguments}
        event("response.output_item.done", output_index=index, item=done)
        output.append(done)
    completed = {**bench_wire.RESPONSE_ENVELOPE, "output": output, "usage": bench_wire.RESPONSE_USAGE}
    event("response.completed", response=completed)
    decoded: list[Chunk] = json.loads(
        json.dumps(events)
    )  # no dict shared between events, as parse_sse gives them
    return decoded


def r4_events() -> list[Chunk]:
    """R4's stream: a short text, then W4's three calls, 8 characters of arguments per delta."""
    return responses_events(R4_TEXT, [(i, n, bench_wire.model_json(a)) for i, n, a in bench_wire.CALLS])


#: What both sides must produce on R4: the turn's text and its calls.
Turn = tuple[str, Calls]


def tt_responses_assemble(events: Sequence[Chunk]) -> Turn:
    """toolturns: feed every event, take the message, decode every call's arguments."""
    stream = responses.StreamAssembler()
    for event in events:
        stream.feed(event)
    message = stream.message()
    return message.text, [(call.id, call.name, call.arguments) for call in message.tool_calls or ()]


def base_responses_assemble(events: Sequence[Chunk]) -> Turn:
    """By hand: items keyed by output_index, text and argument fragments appended and joined once.

    It trusts the deltas: the ``.done`` events' repeated text and the
    completed response's output are not read (toolturns checks each event
    and reads the done items), and nothing is checked.
    """
    items: dict[int, dict[str, Any]] = {}
    fragments: dict[int, list[str]] = {}
    for event in events:
        kind = event["type"]
        if kind == "response.function_call_arguments.delta" or kind == "response.output_text.delta":
            fragments[event["output_index"]].append(event["delta"])
        elif kind == "response.output_item.added":
            items[event["output_index"]] = event["item"]
            fragments[event["output_index"]] = []
    text = ""
    calls: Calls = []
    for index, item in sorted(items.items()):
        if item["type"] == "function_call":
            calls.append((item["call_id"], item["name"], json.loads("".join(fragments[index]))))
        elif item["type"] == "message" and not text:
            text = "".join(fragments[index])
    return text, calls


def _copied(value: Any) -> Any:
    """A copy of decoded JSON, by hand: what a caller's dicts must be before they are kept."""
    if type(value) is dict:
        return {key: _copied(item) for key, item in value.items()}
    if type(value) is list:
        return [_copied(item) for item in value]
    return value


_RESPONSE_EVENTS = frozenset({"response.created", "response.in_progress", "response.completed"})


def kept_responses_assemble(events: Sequence[Chunk]) -> Turn:
    """By hand, keeping what toolturns keeps (R4k): every dict it keeps copied, the done items
    read, each item's type, id and status kept; nothing checked."""
    response: dict[str, Any] = {}
    items: dict[int, dict[str, Any]] = {}
    fragments: dict[int, list[str]] = {}
    for event in events:
        kind = event["type"]
        if kind == "response.function_call_arguments.delta" or kind == "response.output_text.delta":
            fragments[event["output_index"]].append(event["delta"])
        elif kind == "response.output_item.added":
            items[event["output_index"]] = _copied(event["item"])
            fragments[event["output_index"]] = []
        elif kind == "response.output_item.done":
            items[event["output_index"]] = _copied(event["item"])
        elif kind in _RESPONSE_EVENTS:
            response = {key: _copied(value) for key, value in event["response"].items() if key != "output"}
    text = ""
    calls: Calls = []
    kept = []  # what a replay to this wire sends back
    for _, item in sorted(items.items()):
        kept.append((item["type"], item["id"], item["status"]))
        if item["type"] == "function_call":
            calls.append((item["call_id"], item["name"], json.loads(item["arguments"])))
        elif item["type"] == "message" and not text:
            text = "".join(part["text"] for part in item["content"] if part["type"] == "output_text")
    if not response or not kept:  # (not an assert: they vanish under -O, and this work with them)
        raise SystemExit("R4k baseline: a response envelope and each item's type, id and status are kept")
    return text, calls


# -- the contenders -----------------------------------------------------------------


def tt_assemble(chunks: Sequence[Chunk]) -> Calls:
    """toolturns: feed every chunk, take the message, decode every call's arguments."""
    stream = openai.StreamAssembler()
    for chunk in chunks:
        stream.feed(chunk)
    message = stream.message()
    return [(call.id, call.name, call.arguments) for call in message.tool_calls or ()]


def base_assemble(chunks: Sequence[Chunk]) -> Calls:
    """By hand: calls keyed by index, id and name set once, fragments joined once."""
    calls: dict[int, dict[str, Any]] = {}
    text: list[str] = []
    for chunk in chunks:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            content = delta.get("content")
            if content:
                text.append(content)
            for call_delta in delta.get("tool_calls") or ():
                function = call_delta.get("function") or {}
                call = calls.get(call_delta["index"])
                if call is None:
                    call = calls[call_delta["index"]] = {
                        "id": call_delta.get("id"),
                        "name": function.get("name"),
                        "fragments": [],
                    }
                arguments = function.get("arguments")
                if arguments:
                    call["fragments"].append(arguments)
    "".join(text)  # the text, as the message would carry it
    return [
        (call["id"], call["name"], json.loads("".join(call["fragments"])))
        for _, call in sorted(calls.items())
    ]


def check_same_output(w4: Sequence[Chunk], big: Sequence[Chunk], big_expected: dict[str, Any]) -> None:
    """Stop the run unless both sides assemble the same calls, the ones streamed."""
    problems = []
    expected = [(i, n, a) for i, n, a in bench_wire.CALLS]
    if tt_assemble(w4) != expected:
        problems.append("W4: toolturns did not assemble the streamed calls")
    if base_assemble(w4) != expected:
        problems.append("W4: the baseline did not assemble the streamed calls")
    big_calls = [("call_bulk0001", "insert_rows", big_expected)]
    if tt_assemble(big) != big_calls:
        problems.append("scaling: toolturns did not assemble the streamed call")
    if base_assemble(big) != big_calls:
        problems.append("scaling: the baseline did not assemble the streamed call")
    r4_expected = (R4_TEXT, expected)
    if tt_responses_assemble(r4_events()) != r4_expected:
        problems.append("R4: toolturns did not assemble the streamed turn")
    if base_responses_assemble(r4_events()) != r4_expected:
        problems.append("R4: the baseline did not assemble the streamed turn")
    if kept_responses_assemble(r4_events()) != r4_expected:
        problems.append("R4k: the baseline did not assemble the streamed turn")
    if problems:
        sys.exit("bench_stream: not the same work, not timing it:\n  " + "\n  ".join(problems))


# -- the report ----------------------------------------------------------------------


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:10.2f}"


def _scale(result: Result) -> tuple[float, float]:
    """time(large) / time(small) of a Result whose contenders are the two sizes:
    of the minima, and the median of the per-round ratios."""
    return min(result.toolturns) / min(result.baseline), statistics.median(result.ratios())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (fewer, shorter samples)")
    parser.add_argument("--repeat", type=int, help="samples per contender on W4 and R4 (default 41, quick 7)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead of timing, show where toolturns' time goes on W4 and R4",
    )
    options = parser.parse_args(argv)
    repeat = options.repeat or (7 if options.quick else 41)
    seconds = 0.01 if options.quick else 0.05
    scale_repeat = 5 if options.quick else 21

    w4 = w4_chunks()
    small_rows = 1050  # about 100 KB of arguments; the large stream has 10 times the rows
    small, small_chars = scaling_chunks(small_rows)
    large, large_chars = scaling_chunks(10 * small_rows)
    check_same_output(w4, large, big_arguments(10 * small_rows))
    w4_row = Row("W4 3 calls, 8-char deltas -> message", lambda: tt_assemble(w4), lambda: base_assemble(w4))
    r4 = r4_events()
    r4_row = Row(
        "R4 Responses text + 3 calls -> message",
        lambda: tt_responses_assemble(r4),
        lambda: base_responses_assemble(r4),
    )
    r4k_row = Row(
        "R4k R4 vs a baseline keeping the items",
        lambda: tt_responses_assemble(r4),
        lambda: kept_responses_assemble(r4),
    )

    if options.profile:
        bench_wire.profile([w4_row, r4_row], seconds=0.2 if options.quick else 1.0)
        return 0

    fragments = sum(len(c["choices"][0]["delta"].get("tool_calls", ())) for c in w4) - len(bench_wire.CALLS)
    print(
        f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(
        f"W4 stream: {len(w4)} chunks (role, 3 call starts, {fragments} argument fragments of "
        f"{FRAGMENT} characters, finish)"
    )
    print(
        f"R4 stream: {len(r4)} Responses events (W4's {fragments} argument fragments, {R4_TEXT!r} in "
        f"{FRAGMENT}-character text deltas, the added/done events of each part and item, created, "
        "in_progress, completed)"
    )
    print(f"{repeat} interleaved samples of ~{seconds * 1000:.0f} ms per contender; GC off while timing")
    print()
    header = (
        f"{'row':<42}{'toolturns µs':>14}{'(median)':>10}{'baseline µs':>13}{'(median)':>10}"
        f"{'ratio':>8}{'(median)':>10}"
    )
    print(header)
    print("-" * len(header))
    # Issue #15's target for W4; issue #14 holds R4 to the same ratio as the Chat row.
    rows = ((w4_row, w4, "1.7"), (r4_row, r4, "1.7, W4's"), (r4k_row, r4, None))
    for row, stream, target in rows:
        result = measure(row, repeat=repeat, seconds=seconds)
        print(
            f"{row.name:<42}{_us(min(result.toolturns)):>14}{_us(statistics.median(result.toolturns)):>10}"
            f"{_us(min(result.baseline)):>13}{_us(statistics.median(result.baseline)):>10}"
            f"{min(result.toolturns) / min(result.baseline):>7.2f}x"
            f"{statistics.median(result.ratios()):>9.2f}x",
            flush=True,
        )
        per_chunk = statistics.median(result.toolturns) / len(stream)
        base_per_chunk = statistics.median(result.baseline) / len(stream)
        print(
            f"   per event (median): toolturns {per_chunk * 1e6:.2f} µs, baseline {base_per_chunk * 1e6:.2f} µs"
            + ("   (a reference: no target)" if target is None else f"   (target: ratio <= {target})")
        )
    print()

    print(
        f"Scaling: one call, {large_chars / 1e6:.2f} MB of arguments ({len(large)} chunks) "
        f"vs {small_chars / 1e3:.0f} KB ({len(small)} chunks), {large_chars / small_chars:.2f}x the text; "
        f"{scale_repeat} interleaved samples of one assembly per size"
    )
    header = f"{'contender':<12}{'1 MB ms':>10}{'(median)':>10}{'100 KB ms':>11}{'(median)':>10}{'scale':>8}{'(median)':>10}"
    print(header)
    print("-" * len(header))
    scales = []
    for name, function in (("toolturns", tt_assemble), ("baseline", base_assemble)):
        # The two sizes as the two contenders: the per-round ratio is the scaling factor.
        row = Row(name, functools.partial(function, large), functools.partial(function, small))
        # One assembly a sample for both sizes: ten small ones back to back would run on the
        # memory the one before freed, which one large assembly cannot (both contenders
        # measured 12-14x that way in the fifteenth session, against about 10x this way).
        sizes = measure(row, repeat=scale_repeat, seconds=seconds, number=1)
        of_minima, median = _scale(sizes)
        scales.append(median)
        print(
            f"{name:<12}{_ms(min(sizes.toolturns)):>10}{_ms(statistics.median(sizes.toolturns)):>10}"
            f"{_ms(min(sizes.baseline)):>11}{_ms(statistics.median(sizes.baseline)):>10}"
            f"{of_minima:>7.2f}x{median:>9.2f}x",
            flush=True,
        )
    print(f"   (target: toolturns scale <= 11x; linear is {large_chars / small_chars:.1f}x)")
    print()
    print("µs / ms per operation: best sample (min), then the median sample.")
    print("ratio = toolturns / baseline: of the minima, then the median of the per-round ratios.")
    print("scale = time(1 MB) / time(100 KB): of the minima, then the median of the per-round ratios.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

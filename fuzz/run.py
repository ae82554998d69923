"""Run one coverage-guided fuzz target under atheris (libFuzzer): see fuzz/README.md.

    python fuzz/run.py TARGET [libFuzzer options] [CORPUS_DIR... | INPUT_FILE...]
    python fuzz/run.py --list

Inputs are JSON text (SSE text for the ``sse`` target). A JSON-aware mutator
edits the decoded value (replace, delete, insert, move, retype a node, using
the keys and strings of the seeds) half of the time, and libFuzzer's byte
mutations the other half, so most inputs reach past json.loads into the
readers, and malformed JSON and odd bytes are still tried.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Loaded by name: atheris is an optional extra, with no type information.
atheris: Any = importlib.import_module("atheris")

# Only toolturns is instrumented: its branches are the coverage that guides the search.
# Every wire of the registry is imported here (the registry loads a codec only when asked).
with atheris.instrument_imports(include=["toolturns"]):
    from toolturns.providers import PROVIDERS

    for _provider in PROVIDERS.values():
        importlib.import_module(_provider.codec_module)
        importlib.import_module(_provider.rules_module)
    # The tool runner's modules (issue #16), loaded on demand by toolturns itself.
    for _module in ("toolturns.mcp", "toolturns._schema", "toolturns._signature", "toolturns._repair"):
        importlib.import_module(_module)

# The cli target runs the command line: _cli is instrumented too (imported by fuzz.cli).
with atheris.instrument_imports(include=["toolturns"]):
    from fuzz.cli import SOURCES, check_cli, cli_seeds, mutate_cli
from fuzz.invariants import TARGETS as READERS  # noqa: E402  (after the instrumented imports, on purpose)
from fuzz.seeds import seeds, vocabulary  # noqa: E402
from fuzz.tool_targets import TOOL_TARGETS  # noqa: E402

#: Every target: the readers' (JSON or SSE text in), and the command line's (a file's bytes in).
TARGETS: dict[str, Callable[[Any], None]] = {**READERS, **TOOL_TARGETS, "cli": check_cli}

_NOT_JSON = object()
# Scalars the mutator puts in: the JSON types, edge numbers, and the values the
# contract gives a meaning (null and "" carry nothing, "{}" is no arguments).
_LEAVES: list[Any] = [
    *(None, True, False, 0, 1, -1, 0.5, -0.0, 1e308, 2**63, 2**64 + 1, 10**400),
    *(float("nan"), float("inf"), float("-inf")),  # json.loads reads NaN and Infinity too
    *("", " ", "{}", "null", "[]", '{"a": 1, "a": 2}', "\ud800", "\x00", "tt-", "tt-a-3a_b", "x" * 300),
]
# Keys every reader gives a meaning, whether or not a seed happens to use them.
_FIELDS = [
    *("role", "content", "name", "tool_calls", "tool_call_id", "is_error", "refusal", "type", "function"),
    *("id", "index", "arguments", "choices", "message", "delta", "finish_reason", "usage", "error"),
    *("system", "messages", "tool_use", "tool_result", "tool_use_id", "input", "text", "thinking"),
    *("redacted_thinking", "signature", "data", "citations", "cache_control", "stop_reason", "partial_json"),
    *("systemInstruction", "contents", "parts", "functionCall", "functionResponse", "args", "response"),
    *("result", "thought", "thoughtSignature", "candidates", "finishReason", "responseId", "model", "user"),
    *("tool_name", "images", "done", "done_reason", "created_at", "_toolturns_raw_arguments", "tools"),
    *("max_messages", "max_tokens", "start_on_user", "developer", "assistant", "tool"),
]
_MAX_DEPTH = 64  # deeper values are left to the byte mutations, which nest faster anyway


def decode(data: bytes) -> Any:
    """The JSON value of an input, or _NOT_JSON (that is json's business, not ours)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _slots(root: list[Any]) -> list[tuple[Any, Any]]:
    """Every (container, key) place in the value held by ``root[0]``, to the mutation depth."""
    places: list[tuple[Any, Any]] = [(root, 0)]
    pending: list[tuple[Any, int]] = [(root[0], 0)]
    while pending and len(places) < 5000:
        node, depth = pending.pop()
        if depth >= _MAX_DEPTH:
            continue
        if isinstance(node, dict):
            for key, child in node.items():
                places.append((node, key))
                pending.append((child, depth + 1))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                places.append((node, index))
                pending.append((child, depth + 1))
    return places


def _fresh(rng: random.Random, words: list[Any], places: list[tuple[Any, Any]]) -> Any:
    """A value to put somewhere: a leaf, a seed word, a small container, or a copy of a node."""
    choice = rng.randrange(6)
    if choice == 0:
        return rng.choice(_LEAVES)
    if choice == 1 and words:
        return rng.choice(words)
    if choice == 2:
        return [] if rng.random() < 0.5 else {}
    if choice == 3 and words:
        return {rng.choice(words): _fresh(rng, words, [])}
    if choice == 4 and places:
        container, key = rng.choice(places)
        try:  # a copy, so that the two places do not share one object
            return json.loads(json.dumps(container[key]))
        except (RecursionError, ValueError):
            return None
    return rng.choice(words) if words else ""


def mutate_json(value: Any, rng: random.Random, words: list[Any]) -> Any:
    """``value`` with one to three structural edits."""
    root = [value]
    for _ in range(rng.randint(1, 3)):
        places = _slots(root)
        container, key = rng.choice(places)
        operation = rng.randrange(8)
        if operation == 0:  # replace
            container[key] = _fresh(rng, words, places)
        elif operation == 1 and container is not root:  # delete
            del container[key]
        elif operation == 2:  # insert next to it
            if isinstance(container, dict) and words:
                container[rng.choice(words)] = _fresh(rng, words, places)
            elif isinstance(container, list) and container is not root:
                container.insert(rng.randint(0, len(container)), _fresh(rng, words, places))
        elif operation == 3 and isinstance(container[key], str):  # cut or grow a string
            text = container[key]
            cut = rng.randint(0, len(text))
            container[key] = (
                text[:cut]
                if rng.random() < 0.5
                else text[:cut] + rng.choice(["", "x", '"', "{"]) + text[cut:]
            )
        elif operation == 4 and isinstance(container, dict) and words:  # rename a key
            container[rng.choice(words)] = container.pop(key)
        elif operation == 5:  # wrap in a list or an object
            container[key] = (
                [container[key]] if rng.random() < 0.5 else {rng.choice(words or ["k"]): container[key]}
            )
        elif operation == 7:  # nest deep: every reader must stay within the recursion limit
            nested = container[key]
            for level in range(rng.choice([50, 200, 900])):
                nested = [nested] if level % 2 else {"k": nested}
            container[key] = nested
        elif operation == 6 and isinstance(container, list) and container is not root:  # duplicate or swap
            other = rng.randrange(len(container))
            if rng.random() < 0.5:
                container[key], container[other] = container[other], container[key]
            else:
                container.insert(other, json.loads(json.dumps(container[key])))
    return root[0]


def mutate_sse(text: str, rng: random.Random, words: list[Any]) -> str:
    """``text`` with whole lines inserted, deleted, repeated, or their JSON data edited."""
    lines = text.split("\n")
    index = rng.randrange(len(lines))
    operation = rng.randrange(4)
    if operation == 0:
        lines.insert(
            index, rng.choice(["", ": ping", "data: [DONE]", "event: x", "data:", "data", "id: 1", "\r"])
        )
    elif operation == 1 and len(lines) > 1:
        del lines[index]
    elif operation == 2:
        lines.insert(index, lines[index])
    else:
        field, colon, data = lines[index].partition(":")
        value = decode(data.encode())
        if colon and value is not _NOT_JSON:
            with contextlib.suppress(RecursionError, ValueError):
                lines[index] = f"{field}: {json.dumps(mutate_json(value, rng, words))}"
    return "\n".join(lines)


def mutator(target: str, words: list[Any]) -> Callable[[bytes, int, int], bytes]:
    """The custom mutator of ``target``: structural edits half of the time, libFuzzer's otherwise."""

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5:
            return bytes(atheris.Mutate(data, max_size))
        try:
            if target == "cli":
                out = mutate_cli(
                    data,
                    rng,
                    lambda value: mutate_json(value, rng, words),
                    lambda raw: bytes(atheris.Mutate(raw, max_size)),
                )
            elif target == "sse":
                out = mutate_sse(data.decode("utf-8", "replace"), rng, words).encode("utf-8", "surrogatepass")
            else:
                value = decode(data)
                if value is _NOT_JSON:
                    return bytes(atheris.Mutate(data, max_size))
                out = json.dumps(mutate_json(value, rng, words), ensure_ascii=rng.random() < 0.5).encode(
                    "utf-8", "surrogatepass"
                )
        except RecursionError:
            return bytes(atheris.Mutate(data, max_size))
        return out if len(out) <= max_size else bytes(atheris.Mutate(data, max_size))

    return mutate


def one_input(target: str) -> Callable[[bytes], None]:
    """The function libFuzzer calls with each input."""
    check = TARGETS[target]

    if target == "cli":
        return check  # a file's bytes, whatever they are

    if target == "sse":

        def run_text(data: bytes) -> None:
            check(data.decode("utf-8", "replace"))

        return run_text

    def run_json(data: bytes) -> None:
        value = decode(data)
        if value is not _NOT_JSON:
            check(value)

    return run_json


def seed_corpus(target: str, folder: Path) -> None:
    """Put the target's seeds into its corpus folder, each once (named by its hash)."""
    folder.mkdir(parents=True, exist_ok=True)
    for data in _seed_inputs(target):
        path = folder / f"seed-{hashlib.sha1(data).hexdigest()[:16]}"
        if not path.exists():
            path.write_bytes(data)


def _seed_inputs(target: str) -> list[bytes]:
    if target == "cli":
        return cli_seeds(seeds("transcript"), {name: seeds(f"{name}_request") for name in SOURCES})
    return [
        (value if target == "sse" else json.dumps(value)).encode("utf-8", "surrogatepass")
        for value in seeds(target)
    ]


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in TARGETS:
        print(f"usage: {argv[0]} TARGET [libFuzzer options] [corpus dir | input files]", file=sys.stderr)
        print("targets: " + " ".join(TARGETS), file=sys.stderr)
        sys.exit(0 if argv[1:2] == ["--list"] else 2)
    target = argv[1]
    options = argv[2:]
    given_inputs = [arg for arg in options if not arg.startswith("-")]
    if not given_inputs:  # the default corpus: seeded, and grown by every run
        corpus = ROOT / "fuzz" / "corpus" / target
        seed_corpus(target, corpus)
        options.append(str(corpus))
    flags = {arg.split("=", 1)[0] for arg in options if arg.startswith("-")}
    crashes = ROOT / "fuzz" / "crashes" / target
    crashes.mkdir(parents=True, exist_ok=True)
    defaults = {
        "-artifact_prefix": f"{crashes}/",
        "-max_len": "16384",  # the longest recorded stream is 8 kB
        "-timeout": "20",  # seconds for one input: a slower one is a finding too
    }
    options[:0] = [f"{flag}={value}" for flag, value in defaults.items() if flag not in flags]
    # Words of every target of the same provider (its requests, responses and
    # streams share block and part names); the sse target's lines carry stream items.
    provider = target.partition("_")[0]
    if target == "sse":
        sources = [name for name in TARGETS if name.endswith("_stream")]
    elif provider in PROVIDERS:
        sources = [name for name in TARGETS if name.startswith(f"{provider}_")]
    elif target == "cli":  # dataset lines, and every provider's request bodies for --from
        sources = ["transcript", *(f"{name}_request" for name in PROVIDERS)]
    else:
        sources = [target, "openai_request", "openai_response"]
    words = sorted({*vocabulary([value for source in sources for value in seeds(source)]), *_FIELDS})
    atheris.Setup([argv[0], *options], one_input(target), custom_mutator=mutator(target, words))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)

"""An offline tool-calling loop built on toolturns.

A scripted stand-in for the model answers with OpenAI chat.completion
response dicts: first one assistant turn asking for three tool calls at once
(normal arguments, no arguments, and malformed JSON as real models sometimes
send), then a final answer. ``run_loop`` reads each response, runs the real
Python functions of the toolbox (their schemas read from their signatures),
answers every call by id (the malformed one with an error result the model can
act on), and the transport prints the wire messages it would send.

Run it with ``python examples/tool_loop.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal

from toolturns import ChatMessage, Toolbox, openai, run_loop

# -- the tools: ordinary Python functions --------------------------------------


def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> dict[str, Any]:
    """A stand-in forecast; a real tool would call a weather service."""
    temperature = {"Paris": 18, "Tokyo": 24}.get(city, 15)
    if unit == "fahrenheit":
        temperature = round(temperature * 9 / 5 + 32)
    return {"city": city, "temperature": temperature, "unit": unit}


def get_time() -> str:
    """The current UTC time (a tool that takes no arguments)."""
    return datetime.now(UTC).strftime("%H:%M UTC")


def convert_currency(amount: float, source: str, target: str) -> dict[str, Any]:
    """A stand-in exchange rate."""
    rate = {("EUR", "USD"): 1.08}.get((source, target), 1.0)
    return {"amount": round(amount * rate, 2), "currency": target}


# -- the scripted model ---------------------------------------------------------


def _response(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-offline",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }


def scripted_model() -> Iterator[dict[str, Any]]:
    """Yield the responses a model would give, as OpenAI response dicts."""
    yield _response(
        {
            "role": "assistant",
            "content": None,
            "refusal": None,
            "tool_calls": [
                {
                    "id": "call_weather",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {"id": "call_time", "type": "function", "function": {"name": "get_time", "arguments": ""}},
                {
                    "id": "call_money",
                    "type": "function",
                    # Cut off mid-string, as a model that hit its token limit sends it.
                    "function": {"name": "convert_currency", "arguments": '{"amount": 20, "source": "EU'},
                },
            ],
        },
        "tool_calls",
    )
    yield _response(
        {
            "role": "assistant",
            "content": "It is 18 °C in Paris. I could not convert the currency: please say the amount again.",
            "refusal": None,
        },
        "stop",
    )


# -- the loop ------------------------------------------------------------------


def main() -> None:
    """Run the loop until the model answers without tool calls."""
    model = scripted_model()
    sent = 0

    def send(body: dict[str, Any]) -> dict[str, Any]:
        """The transport: print what goes over the wire, answer with the model's next response."""
        nonlocal sent
        sent += 1
        print(f"--- request {sent}: the messages sent ---")
        print(json.dumps(body["messages"], indent=2, ensure_ascii=False))
        return next(model)

    history = run_loop(
        send,
        [
            ChatMessage.system("You are a helpful assistant with tools."),
            ChatMessage.user("What's the weather in Paris, the time, and 20 EUR in USD?"),
        ],
        Toolbox(get_weather, get_time, convert_currency),
        codec=openai,
    )
    print(f"--- final answer ---\n{history[-1].content}")


if __name__ == "__main__":
    main()

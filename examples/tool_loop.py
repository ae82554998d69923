"""An offline tool-calling loop built on toolturns.

A scripted stand-in for the model answers with OpenAI chat.completion
response dicts: first one assistant turn asking for three tool calls at once
(normal arguments, no arguments, and malformed JSON as real models sometimes
send), then a final answer. The loop parses each response, runs real Python
functions, answers every call by id, and prints the wire messages it would send.

Run it with ``python examples/tool_loop.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from toolturns import ChatMessage, InvalidArguments, ToolCall

# -- the tools: ordinary Python functions --------------------------------------


def get_weather(city: str, unit: str = "celsius") -> dict[str, Any]:
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


TOOLS: dict[str, Callable[..., Any]] = {
    "get_weather": get_weather,
    "get_time": get_time,
    "convert_currency": convert_currency,
}

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


def run_tool(call: ToolCall) -> ChatMessage:
    """Run one call and answer it; a bad call becomes an error result, not a crash."""
    tool = TOOLS.get(call.name)
    if tool is None:
        return ChatMessage.tool_result(call.id, f"unknown tool {call.name!r}", is_error=True)
    try:
        arguments = call.arguments
    except InvalidArguments as error:
        # The model sent arguments that are not a JSON object: tell it so.
        return ChatMessage.tool_result(call.id, f"invalid arguments: {error}", is_error=True)
    try:
        result = tool(**arguments)
    except TypeError as error:  # wrong or missing argument names
        return ChatMessage.tool_result(call.id, f"bad arguments: {error}", is_error=True)
    text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
    return ChatMessage.tool_result(call.id, text)


def main() -> None:
    """Run the loop until the model answers without tool calls."""
    messages = [
        ChatMessage.system("You are a helpful assistant with tools."),
        ChatMessage.user("What's the weather in Paris, the time, and 20 EUR in USD?"),
    ]
    model = scripted_model()
    for step in range(1, 10):
        print(f"--- request {step}: the messages sent ---")
        print(json.dumps([m.to_wire() for m in messages], indent=2, ensure_ascii=False))
        reply = ChatMessage.from_dict(next(model)["choices"][0]["message"])
        messages.append(reply)
        if not reply.tool_calls:
            print(f"--- final answer ---\n{reply.content}")
            return
        messages.extend(run_tool(call) for call in reply.tool_calls)
    raise RuntimeError("the model never stopped calling tools")


if __name__ == "__main__":
    main()

"""The OpenAI Responses wire: items (messages, function calls, their outputs, reasoning)."""

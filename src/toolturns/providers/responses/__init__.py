"""The OpenAI Responses wire (``/v1/responses``): items (messages, function calls, their outputs, reasoning)."""

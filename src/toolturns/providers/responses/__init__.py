"""The OpenAI Responses wire: items in, items out (``/v1/responses``)."""

"""The OpenAI Responses wire."""

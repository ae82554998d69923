"""Tests of the gemini wire."""

"""Tests of the openai wire."""

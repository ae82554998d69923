"""Tests of the anthropic wire."""

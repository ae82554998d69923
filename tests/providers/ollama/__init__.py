"""Tests of the ollama wire."""

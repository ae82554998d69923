"""The registry: one list of wires, read-only from outside, extended only by register."""

from __future__ import annotations

import pytest

from toolturns import MessageError
from toolturns.providers import PROVIDERS, Provider, register, unregister

_EXTRA = Provider("extra", "Extra", "toolturns.openai", "toolturns.providers.openai.rules", "text")


def test_the_built_in_wires_come_in_order() -> None:
    """The four wires of 0.1 and OpenAI Responses, in the order the docs name them; the repr lists them."""
    assert list(PROVIDERS) == ["openai", "anthropic", "gemini", "ollama", "responses"]
    assert len(PROVIDERS) == 5
    assert repr(PROVIDERS) == "PROVIDERS(openai, anthropic, gemini, ollama, responses)"


def test_the_registry_cannot_be_changed_in_place() -> None:
    """PROVIDERS is a read-only mapping: no item assignment or deletion."""
    with pytest.raises(TypeError):
        PROVIDERS["x"] = _EXTRA  # type: ignore[index]
    with pytest.raises(TypeError):
        del PROVIDERS["openai"]  # type: ignore[attr-defined]


def test_register_adds_a_wire_and_unregister_removes_it() -> None:
    """A registered wire is listed last and loads its modules; unregister takes it away again."""
    register(_EXTRA)
    try:
        assert list(PROVIDERS)[-1] == "extra"
        assert PROVIDERS["extra"].codec.to_request([]) == {"messages": []}
        with pytest.raises(
            MessageError, match=r"^name: must not be the name of a registered provider, got 'extra'$"
        ):
            register(_EXTRA)
    finally:
        unregister("extra")
    assert "extra" not in PROVIDERS
    unregister("extra")  # removing a wire that is not there is nothing
    assert list(PROVIDERS) == ["openai", "anthropic", "gemini", "ollama", "responses"]


def test_a_built_in_wire_cannot_be_removed() -> None:
    """unregister refuses the built-in wires, and they stay."""
    with pytest.raises(MessageError, match=r"^name: must not be a built-in provider's, got 'gemini'$"):
        unregister("gemini")
    assert "gemini" in PROVIDERS

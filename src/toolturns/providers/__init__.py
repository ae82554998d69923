"""The registry: the one list of the wires toolturns reads and writes.

Each entry names a wire (the ``target=`` of ``check_transcript``, the
``--to``/``--from`` of the command line, the key of ``provider_data``), its
public codec module, its rules, and how it carries a call's arguments.
Everything that works over every provider (``check_transcript``, the
command line, the contract tests, the fuzz targets) iterates over
``PROVIDERS``; no other code spells the list.

Entries load their modules only when asked, so ``import toolturns`` does not
import every codec.

>>> from toolturns.providers import PROVIDERS
>>> list(PROVIDERS)
['openai', 'anthropic', 'gemini', 'ollama', 'responses']
>>> PROVIDERS["anthropic"].arguments
'object'
>>> PROVIDERS["gemini"].codec.to_request([])
{'contents': []}
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from .._errors import MessageError

if TYPE_CHECKING:
    from .._content import ContentPart
    from .._message import ChatMessage, Role
    from .._tool import Tool
    from ._rule import Rules
    from ._stream import Assembler

__all__ = ["PROVIDERS", "Codec", "Provider", "register", "unregister"]


class Codec(Protocol):
    """What a wire's public module offers: the same verbs for every provider.

    A request body keeps its tool definitions under ``"tools"`` (every wire
    does): ``toolturns convert --from`` reads them there for ``read_tools``.
    """

    @property
    def StreamAssembler(self) -> type[Assembler]: ...  # a read-only property: a module's class matches it

    def to_request(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[Tool] | None = None,
        keep_invalid_arguments: bool = False,
        drop_unsupported: bool = False,
    ) -> dict[str, Any]: ...

    def from_request(self, body: object) -> list[ChatMessage]: ...

    def from_response(self, body: object) -> ChatMessage: ...

    def tool_definition(self, tool: Tool) -> dict[str, Any]: ...

    def read_tools(self, tools: object) -> list[Tool]: ...


@dataclass(frozen=True, slots=True)
class Provider:
    """One wire.

    Attributes:
        name: How callers name it (``target="gemini"``, ``--to gemini``) and
            the key of its entry in ``provider_data``.
        title: How messages name it (``Gemini``).
        codec_module: The public module with its verbs (``toolturns.gemini``).
        rules_module: The module with its rules (``toolturns.providers.gemini.rules``).
        arguments: ``"text"`` when a call's arguments travel as JSON text
            (any text can be sent back), ``"object"`` when they travel as a
            JSON object (text that is not one cannot be sent).
    """

    name: str
    title: str
    codec_module: str
    rules_module: str
    arguments: Literal["text", "object"]

    @property
    def codec(self) -> Codec:
        """The public codec module, imported on first use."""
        return cast("Codec", _module(self.codec_module))

    @property
    def rules(self) -> Rules:
        """The rules module, imported on first use."""
        return cast("Rules", _module(self.rules_module))

    @property
    def parts(self) -> Mapping[Role, frozenset[type[ContentPart]]]:
        """The content part classes each role may carry on this wire (its ``rules.PARTS``),
        before the rules of each part (``rules.check_part``: media types, sources).

        >>> from toolturns import ImagePart
        >>> from toolturns.providers import PROVIDERS
        >>> [role.value for role, kinds in PROVIDERS["openai"].parts.items() if ImagePart in kinds]
        ['user']
        """
        return self.rules.PARTS


def _module(name: str) -> object:
    # sys.modules first: import_module costs a microsecond even for a module
    # already imported, and check_transcript asks for rules per call.
    module = sys.modules.get(name)
    return module if module is not None else importlib.import_module(name)


def _builtin(name: str, title: str, arguments: Literal["text", "object"]) -> Provider:
    return Provider(name, title, f"toolturns.{name}", f"toolturns.providers.{name}.rules", arguments)


_REGISTERED: dict[str, Provider] = {
    provider.name: provider
    for provider in (
        _builtin("openai", "OpenAI", "text"),
        _builtin("anthropic", "Anthropic", "object"),
        _builtin("gemini", "Gemini", "object"),
        _builtin("ollama", "Ollama", "object"),
        _builtin("responses", "OpenAI Responses", "text"),
    )
}


class _Registry(Mapping[str, Provider]):
    """A read-only view of the registered providers, in the order they were registered."""

    def __getitem__(self, name: str) -> Provider:
        return _REGISTERED[name]

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_REGISTERED))

    def __len__(self) -> int:
        return len(_REGISTERED)

    def __repr__(self) -> str:
        return f"PROVIDERS({', '.join(_REGISTERED)})"


#: Every wire, by name.
PROVIDERS: Mapping[str, Provider] = _Registry()


def register(provider: Provider) -> None:
    """Add a wire (a test's fake one, or a wire kept outside toolturns).

    Raises:
        MessageError: a provider of that name is registered already.
    """
    if provider.name in _REGISTERED:
        raise MessageError("name", "must not be the name of a registered provider", repr(provider.name))
    _REGISTERED[provider.name] = provider


def unregister(name: str) -> None:
    """Remove a wire ``register`` added; the built-in ones stay.

    Raises:
        MessageError: ``name`` is a built-in provider's.
    """
    if name in _BUILTIN:
        raise MessageError("name", "must not be a built-in provider's", repr(name))
    _REGISTERED.pop(name, None)


_BUILTIN = frozenset(_REGISTERED)

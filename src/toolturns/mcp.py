"""MCP tools and tool results as toolturns values: ``tool``, ``tool_result`` and ``toolbox``.

An MCP server lists its tools (``tools/list``) and answers a call with a
``CallToolResult`` (``tools/call``). ``tool`` reads one listed tool into a
``Tool`` any codec sends; ``tool_result`` reads a result into the tool turn
that answers the model's call. Both take plain dicts (the JSON-RPC wire) and
the ``mcp`` SDK's objects alike, which are read through ``model_dump``: this
module never imports the SDK. docs/mcp.md maps each MCP field to where it
goes, with the specification's words.

>>> from toolturns import mcp
>>> weather = mcp.tool({"name": "get_weather", "title": "Weather",
...     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}})
>>> weather.name, dict(weather.extra)
('get_weather', {'title': 'Weather'})
>>> mcp.tool_result("call_1", {"content": [{"type": "text", "text": "18 degrees"}]})
ChatMessage(role='tool', content='18 degrees', tool_call_id='call_1')
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from ._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ._errors import InvalidMessage, InvalidTool, MessageError, at, describe, renamed
from ._extra import carries_nothing
from ._json import JSON, ErrorFactory, encode, join_key, owned
from ._loop import Toolbox, _awaitable
from ._message import ChatMessage
from ._sdk import dumped
from ._tool import Tool

__all__ = ["tool", "tool_result", "toolbox"]

# -- the specification's words (https://modelcontextprotocol.io/specification/2025-11-25/schema) ----

#: Tool.inputSchema: "A JSON Schema object defining the expected parameters for the tool." (required)
_INPUT_SCHEMA = "A JSON Schema object defining the expected parameters for the tool."
#: CallToolResult.content: "A list of content objects that represent the unstructured result of
#: the tool call." (required)
_CONTENT = "A list of content objects that represent the unstructured result of the tool call."
#: CallToolResult.structuredContent.
_STRUCTURED_CONTENT = "An optional JSON object that represents the structured result of the tool call."
#: The five members of MCP's ``ContentBlock`` union.
_CONTENT_BLOCKS = ("text", "image", "audio", "resource", "resource_link")
#: resultType (the 2026-07-28 revision, as the SDK's mcp_types documents it): "'complete' means
#: the result is final; 'input_required' means it is an InputRequiredResult ... Absent
#: resultType is equivalent to 'complete'."
_COMPLETE = "complete"

# The keys other tool shapes give a meaning that MCP's Tool does not have: Tool.from_dict would
# read them (OpenAI's function and strict, the other shapes' schemas), so an MCP reader that met
# one would silently read another wire's tool.
_OTHER_SHAPES = ("type", "function", "strict", "parameters", "input_schema", "parametersJsonSchema")

# What of a CallToolResult the tool turn models; every other key (structuredContent, _meta) is
# kept in the message's provider_data["mcp"], which no codec sends.
_MODELLED = frozenset({"content", "isError", "resultType"})

# Audio media types whose subtype is not the short format name OpenAI's input_audio uses
# (AudioPart.format): audio/mpeg is MP3's registered type (RFC 3003), and WAV goes by several.
_AUDIO_FORMATS = {"mpeg": "mp3", "mp3": "mp3", "x-wav": "wav", "wave": "wav", "vnd.wave": "wav"}


def tool(definition: object) -> Tool:
    """A ``Tool`` of one ``tools/list`` entry (a dict or the SDK's ``mcp.types.Tool``).

    ``name``, ``description`` and ``inputSchema`` are the tool's; every other
    key (``title``, ``annotations``, ``outputSchema``, ``icons``,
    ``execution``, ``_meta``) is kept in ``Tool.extra``, which no codec sends
    unless told to drop it (``drop_unsupported=True``).

    Raises:
        InvalidTool: a definition that is not an object, one without
            ``inputSchema`` (MCP requires it), a key another wire's tool
            shape gives a meaning (``parameters``, ``function``, ``strict``),
            or what ``Tool`` refuses; the path names the key.

    >>> tool({"name": "get_time", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}})
    Tool(name='get_time', description='', parameters={'type': 'object'}, extra={'annotations': {'readOnlyHint': True}})
    >>> tool({"name": "get_time", "parameters": {"type": "object"}})
    Traceback (most recent call last):
    ...
    toolturns.InvalidTool: parameters: is not a key of an MCP tool (its schema is inputSchema): read other tool shapes with Tool.from_dict, got dict
    """
    data = _object(definition, "", InvalidTool)
    if "tools" in data and "name" not in data:
        raise InvalidTool(
            "",
            "must be one tools/list entry, not the whole ListToolsResult: read each of its tools "
            "([mcp.tool(t) for t in result.tools]; the result's nextCursor says if more pages follow)",
            describe(definition),
        )
    for key in _OTHER_SHAPES:
        if key in data:
            raise InvalidTool(
                key,
                "is not a key of an MCP tool (its schema is inputSchema): read other tool shapes with Tool.from_dict",
                describe(data[key]),
            )
    if data.get("inputSchema") is None:
        raise InvalidTool(
            "inputSchema", f"is required (MCP: {_INPUT_SCHEMA!r})", describe(data.get("inputSchema"))
        )
    return Tool.from_dict(data)


def tool_result(tool_call_id: str, result: object) -> ChatMessage:
    """The tool turn answering ``tool_call_id`` with an MCP ``CallToolResult`` (a dict or the SDK's).

    Each content block becomes a part: ``text`` a ``TextPart``, ``image`` an
    ``ImagePart``, ``audio`` an ``AudioPart`` (``audio/mpeg`` is ``mp3``), an
    embedded ``resource`` the part its text or blob is, a ``resource_link``
    a ``TextPart`` of the link's JSON; a lone text block is the plain string.
    What a part cannot hold (``annotations``, ``_meta``, a resource's
    ``uri``) is kept in its ``provider_data["mcp"]``, and what the message
    cannot (``structuredContent``, the result's ``_meta``) in the message's:
    no codec sends another wire's data, and none refuses it. ``isError`` is
    ``is_error``. A result with ``structuredContent`` and no content block
    has the structured result's JSON text as its content.

    Raises:
        InvalidMessage: what is not MCP's (a block of another type, an image
            without ``mimeType``, data that is not base64, a result that is
            not final), located: ``content[2].mimeType``.

    >>> tool_result("call_1", {"content": [{"type": "text", "text": "no such city"}], "isError": True})
    ChatMessage(role='tool', content='no such city', tool_call_id='call_1', is_error=True)
    >>> tool_result("call_1", {"content": [], "structuredContent": {"degrees": 18}}).content
    '{"degrees":18}'
    """
    data = _object(result, "", InvalidMessage)
    _check_final(data.get("resultType"))
    blocks = data.get("content")
    if not isinstance(blocks, (list, tuple)):
        raise InvalidMessage(
            "content", f"is required, a list of content blocks (MCP: {_CONTENT!r})", describe(blocks)
        )
    parts = [_part(block, index) for index, block in enumerate(blocks)]
    is_error = data.get("isError")
    if is_error is not None and type(is_error) is not bool:
        raise InvalidMessage("isError", "must be a boolean", describe(is_error))
    kept = None
    if len(data) > 1 + ("isError" in data) + ("resultType" in data):  # rare: more than the content
        kept = _kept_of_result(data, parts)
    return ChatMessage(
        "tool", _content(parts), tool_call_id=tool_call_id, is_error=bool(is_error), provider_data=kept
    )


def toolbox(definitions: Iterable[object], call: Callable[[str, dict[str, Any]], object]) -> Toolbox:
    """A ``Toolbox`` of an MCP server's tools, for ``arun_calls`` and ``arun_loop``.

    Each tool is ``tool(definition)``; calling it awaits ``call(name,
    arguments)`` (``session.call_tool``: any client's, as it returns a
    ``CallToolResult`` or an awaitable of one) and answers with what
    ``tool_result`` reads of the result. A result with ``isError`` reaches
    the model as an error result; an exception of the session (the server
    went away) becomes one too, naming it.

    Args:
        definitions: The server's ``tools/list`` entries, every page of them
            (``(await session.list_tools()).tools``).
        call: How to call a tool by name with the decoded arguments.

    Raises:
        InvalidTool: a definition does not read (``[2].inputSchema``), or
            two share a name.

    The tools run on the session's event loop: use ``arun_calls`` or
    ``arun_loop`` (``run_calls`` runs an async tool in an event loop of its
    own, where a session cannot be used). docs/mcp.md has a whole loop.
    """
    pairs = []
    for index, definition in enumerate(definitions):
        try:
            listed = tool(definition)
        except InvalidTool as error:
            raise error.with_prefix(f"[{index}]") from None
        pairs.append((listed, _caller(listed.name, call)))
    return Toolbox(*pairs)


# The loop answers the call it ran a tool for (run_calls gives a returned tool
# result that call's id): this id is never sent.
_ANSWERED_BY_THE_LOOP = "mcp"


def _caller(name: str, call: Callable[[str, dict[str, Any]], object]) -> Callable[..., Any]:
    async def run(**arguments: Any) -> ChatMessage:
        result = call(name, arguments)
        if _awaitable(result):
            result = await result
        return tool_result(_ANSWERED_BY_THE_LOOP, result)

    run.__name__ = run.__qualname__ = name
    return run


# -- the result -----------------------------------------------------------------------------


def _object(value: object, path: str, error: ErrorFactory) -> Mapping[Any, Any]:
    """``value`` as a mapping: a dict as it is, an SDK object (a pydantic model) as its dump."""
    if isinstance(value, Mapping) or isinstance(value := dumped(value), Mapping):
        return value
    raise error(path, "must be an object", describe(value))


def _check_final(kind: object) -> None:
    if kind is not None and kind != _COMPLETE:
        raise InvalidMessage(
            "resultType",
            "must be 'complete' or absent: only a final result answers a call (resolve an "
            "'input_required' result with the MCP client first)",
            describe(kind),
        )


def _kept_of_result(data: Mapping[Any, Any], parts: list[ContentPart]) -> dict[str, JSON] | None:
    """The result's ``provider_data``: its keys beyond content, isError and resultType
    (``structuredContent``, ``_meta``), each a JSON copy; the content of a result that has
    only ``structuredContent``."""
    structured = data.get("structuredContent")
    if structured is not None and not isinstance(structured, Mapping):
        raise InvalidMessage(
            "structuredContent", f"must be an object (MCP: {_STRUCTURED_CONTENT!r})", describe(structured)
        )
    rest = _json_of(data, _MODELLED)
    if not parts and structured is not None:
        # Nothing else says what the tool found: the model is sent the structured result as JSON.
        # (From the given value: an empty one carries nothing to keep, but is still the answer.)
        parts.append(TextPart(encode(structured, "structuredContent", InvalidMessage)))
    return {"mcp": rest} if rest else None


def _content(parts: list[ContentPart]) -> str | list[ContentPart]:
    """A lone plain text block as the string, no block as ``""``, else the parts."""
    if not parts:
        return ""
    if len(parts) == 1 and type(only := parts[0]) is TextPart and not only.provider_data:
        return only.text
    return parts


# -- the content blocks ---------------------------------------------------------------------


def _part(block: object, index: int) -> ContentPart:
    with at(f"content[{index}]"):
        data = _object(block, "", InvalidMessage)
        kind = data.get("type")
        read = _READERS.get(kind) if isinstance(kind, str) else None
        if read is None:
            shown = ", ".join(repr(name) for name in _CONTENT_BLOCKS)
            raise InvalidMessage("type", f"must be one of MCP's content blocks ({shown})", describe(kind))
        return read(data)


def _kept(block: Mapping[Any, Any], modelled: tuple[str, ...], **more: JSON) -> dict[str, JSON] | None:
    """The ``provider_data`` keeping the keys of ``block`` a part does not hold (and ``more``)."""
    rest = _json_of(block, modelled)
    rest.update(more)
    return {"mcp": rest} if rest else None


def _required(block: Mapping[Any, Any], key: str, what: str) -> Any:  # JSON: the part checks it
    value = block.get(key)
    if value is None:
        raise InvalidMessage(key, f"is required ({what})")
    return value


def _text(block: Mapping[Any, Any]) -> ContentPart:
    text: Any = block.get("text")  # TextPart checks it is a string
    return TextPart(text, provider_data=_kept(block, ("type", "text")))


def _image(block: Mapping[Any, Any]) -> ContentPart:
    data = _required(block, "data", "the base64-encoded image data")
    with _renamed("media_type", "mimeType"):
        return ImagePart(
            data=data,
            media_type=block.get("mimeType"),
            provider_data=_kept(block, ("type", "data", "mimeType")),
        )


def _audio(block: Mapping[Any, Any]) -> ContentPart:
    data = _required(block, "data", "the base64-encoded audio data")
    media_type = block.get("mimeType")
    short = _audio_format(media_type, "mimeType")
    # The media type is kept where the format does not say it exactly (audio/mpeg is mp3).
    modelled = ("type", "data", "mimeType") if media_type == f"audio/{short}" else ("type", "data")
    return AudioPart(data=data, format=short, provider_data=_kept(block, modelled))


def _audio_format(media_type: object, path: str) -> str:
    """The short format name (``AudioPart.format``) of an ``audio/*`` media type.

    >>> _audio_format("audio/mpeg", "mimeType"), _audio_format("audio/wav", "mimeType")
    ('mp3', 'wav')
    >>> _audio_format("audio/x-m4a", "mimeType")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: mimeType: must be audio/<format>, the format a short lowercase name such as audio/wav, audio/mpeg (mp3) or audio/ogg (an AudioPart holds the format, not a media type), got 'audio/x-m4a'
    """
    if isinstance(media_type, str) and str.lower(media_type[:6]) == "audio/":
        subtype = str.lower(media_type[6:])
        short = _AUDIO_FORMATS.get(subtype, subtype)
        if short.isascii() and short.isalnum():  # lowercase already: AudioPart's [a-z0-9]+
            return short
    raise InvalidMessage(
        path,
        "must be audio/<format>, the format a short lowercase name such as audio/wav, audio/mpeg (mp3) "
        "or audio/ogg (an AudioPart holds the format, not a media type)",
        describe(media_type),
    )


def _resource(block: Mapping[Any, Any]) -> ContentPart:
    resource = _object(
        _required(block, "resource", "the resource's uri and text or blob"), "resource", InvalidMessage
    )
    text, blob = resource.get("text"), resource.get("blob")
    if (text is None) == (blob is None):
        raise InvalidMessage(
            "resource", "must have exactly one of text and blob", "both" if text is not None else "neither"
        )
    with at("resource"):
        if text is not None:
            kept = _kept(block, ("type", "resource"), type="resource", resource=_json_of(resource, ("text",)))
            return TextPart(text, provider_data=kept)
        kept = _kept(block, ("type", "resource"), type="resource", resource=_json_of(resource, ("blob",)))
        return _blob_part(blob, resource.get("mimeType"), _filename(resource.get("uri")), kept)


def _json_of(data: Mapping[Any, Any], modelled: Collection[str]) -> dict[str, JSON]:
    """The keys of ``data`` not in ``modelled``, each a JSON copy; those that carry nothing left out."""
    return {
        key: owned(value, join_key("", key), InvalidMessage)  # a caller's dict may have any key
        for key, value in data.items()
        if key not in modelled and not carries_nothing(value)
    }


def _blob_part(blob: Any, media_type: Any, filename: str | None, kept: dict[str, JSON] | None) -> ContentPart:
    """The part a blob of ``media_type`` is: an image, audio, or any other file (each checks its values)."""
    top = str.partition(media_type, "/")[0].lower() if isinstance(media_type, str) else None
    with _renamed("data", "blob"), _renamed("media_type", "mimeType"):
        if top == "image":
            return ImagePart(data=blob, media_type=media_type, provider_data=kept)
        if top == "audio":
            return AudioPart(data=blob, format=_audio_format(media_type, "mimeType"), provider_data=kept)
        return FilePart(data=blob, media_type=media_type, filename=filename, provider_data=kept)


def _filename(uri: object) -> str | None:
    """The last segment of ``uri``'s path, decoded: the name of the file there (None without one).

    MCP gives an embedded blob a ``uri`` and no name, and OpenAI needs a filename beside a
    file's data; the uri itself is kept in provider_data.
    """
    if not isinstance(uri, str):
        return None
    # Imported here, for a blob only: urllib.parse costs import time every other use would pay.
    from urllib.parse import unquote, urlsplit

    try:
        path = urlsplit(uri).path
    except ValueError:  # a malformed authority ("http://[::1/a"): no path to name the file
        return None
    return unquote(path.rpartition("/")[2]) or None


def _link(block: Mapping[Any, Any]) -> ContentPart:
    for key in ("uri", "name"):
        value = block.get(key)
        if not isinstance(value, str) or not value:
            raise InvalidMessage(key, "must be a non-empty string (a resource link's)", describe(value))
    link = _json_of(block, ())
    # A link is no content the model could be sent: the client reads it (resources/read). The
    # model is told of it in the server's own words, the block as JSON; the block is kept as well.
    return TextPart(encode(link, "", InvalidMessage), provider_data={"mcp": link})


_READERS: dict[str, Callable[[Mapping[Any, Any]], ContentPart]] = {
    "text": _text,
    "image": _image,
    "audio": _audio,
    "resource": _resource,
    "resource_link": _link,
}


class _renamed:
    """Name a part's field (``media_type``) as MCP does (``mimeType``) in the errors raised inside."""

    __slots__ = ("_core", "_native")

    def __init__(self, core: str, native: str) -> None:
        self._core, self._native = core, native

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> None:
        if isinstance(error, MessageError):
            raise renamed(error, self._core, self._native) from None

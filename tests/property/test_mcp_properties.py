"""Properties of ``toolturns.mcp``: only MessageError escapes, and nothing a result holds is lost."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import ChatMessage, MessageError, TextPart, Tool, mcp

_BASE64 = st.binary(min_size=1, max_size=12).map(lambda data: base64.b64encode(data).decode())
_MIME_TYPES = st.sampled_from(
    ["image/png", "image/jpeg", "audio/wav", "audio/mpeg", "audio/ogg", "application/pdf", "text/csv"]
)
# The keys a block or a result may hold beyond what a part or message models.
_OTHER_KEYS = st.sampled_from(["annotations", "_meta", "x-note"])
_OTHERS = st.dictionaries(_OTHER_KEYS, s.json_values(deep=False), max_size=2)
_URIS = st.sampled_from(["file:///a.txt", "https://example.com/r", "test://x"])


def _with(others: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
    return {**block, **others}


def _blocks(others: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Valid MCP content blocks of every type, with ``others`` beside the keys MCP defines."""
    resources = st.one_of(
        st.fixed_dictionaries({"uri": _URIS, "text": s.unicode_text()}),
        st.fixed_dictionaries({"uri": _URIS, "blob": _BASE64, "mimeType": _MIME_TYPES}),
    )
    return st.one_of(
        st.builds(_with, others, st.fixed_dictionaries({"type": st.just("text"), "text": s.unicode_text()})),
        st.builds(
            _with,
            others,
            st.fixed_dictionaries(
                {
                    "type": st.just("image"),
                    "data": _BASE64,
                    "mimeType": st.sampled_from(["image/png", "image/gif"]),
                }
            ),
        ),
        st.builds(
            _with,
            others,
            st.fixed_dictionaries(
                {
                    "type": st.just("audio"),
                    "data": _BASE64,
                    "mimeType": st.sampled_from(["audio/wav", "audio/mpeg"]),
                }
            ),
        ),
        st.builds(_with, others, st.fixed_dictionaries({"type": st.just("resource"), "resource": resources})),
        st.builds(
            _with,
            others,
            st.fixed_dictionaries(
                {"type": st.just("resource_link"), "uri": _URIS, "name": s.unicode_text(min_size=1)}
            ),
        ),
    )


def _results(
    blocks: st.SearchStrategy[Any], values: st.SearchStrategy[Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """CallToolResult dicts: a list of ``blocks``, the result's other keys with ``values``."""
    return st.builds(
        lambda content, keys: {"content": content, **keys},
        st.lists(blocks, max_size=3),
        st.dictionaries(
            st.sampled_from(["isError", "structuredContent", "_meta", "resultType", "x-note"]),
            values,
            max_size=3,
        ),
    )


_JUNK = s.arbitrary_json()
_NEAR_VALID_BLOCKS = st.one_of(
    _blocks(_OTHERS),
    st.dictionaries(st.sampled_from(["type", "text", "data", "mimeType", "resource", "uri", "name"]), _JUNK),
    st.builds(
        lambda block, key, value: {**block, key: value},
        _blocks(_OTHERS),
        st.sampled_from(["type", "text", "data", "mimeType", "resource", "uri", "name"]),
        _JUNK,
    ),
    _JUNK,
)


@given(st.one_of(_JUNK, _results(_NEAR_VALID_BLOCKS, _JUNK)))
def test_tool_result_of_any_json_raises_only_message_error(result: Any) -> None:
    """Any JSON, near-valid results above all, gives a tool turn or a MessageError, nothing else."""
    try:
        message = mcp.tool_result("call_1", result)
    except MessageError:
        return
    assert isinstance(message, ChatMessage)
    assert message.tool_call_id == "call_1"


_DEFINITION_KEYS = st.sampled_from(
    ["name", "description", "inputSchema", "title", "annotations", "outputSchema", "_meta", "parameters"]
)
_SCHEMAS = st.one_of(st.just({"type": "object"}), st.just({"type": "object", "properties": {}}), _JUNK)


@given(
    st.one_of(
        _JUNK,
        st.dictionaries(_DEFINITION_KEYS, _JUNK),
        st.builds(
            lambda name, schema, others: {"name": name, "inputSchema": schema, **others},
            st.one_of(st.sampled_from(["get_weather", "a.b:c-d"]), _JUNK),
            _SCHEMAS,
            st.dictionaries(_DEFINITION_KEYS, _JUNK, max_size=2),
        ),
    )
)
def test_tool_of_any_json_raises_only_message_error(definition: Any) -> None:
    try:
        tool = mcp.tool(definition)
    except MessageError:
        return
    assert isinstance(tool, Tool)


_TOOL_KEYS = st.sampled_from(
    ["title", "annotations", "outputSchema", "icons", "execution", "_meta", "x-note"]
)


@given(st.dictionaries(_TOOL_KEYS, s.json_values(deep=False), max_size=4))
def test_nothing_a_valid_definition_holds_is_lost(others: dict[str, Any]) -> None:
    """Every key beyond name, description and inputSchema is in the tool's extra, as given."""
    tool = mcp.tool({"name": "get_weather", "inputSchema": {"type": "object"}, **others})
    expected = {key: value for key, value in others.items() if not s.carries_nothing(value)}
    assert _same(dict(tool.extra), expected)


@given(st.lists(_blocks(_OTHERS), min_size=1, max_size=4), _OTHERS)
def test_nothing_a_valid_result_holds_is_lost(blocks: list[dict[str, Any]], others: dict[str, Any]) -> None:
    """Each block is one part, its keys beyond what the part holds in its provider_data["mcp"]; the
    result's own keys in the message's: every value that carries something is kept."""
    message = mcp.tool_result("call_1", {"content": blocks, **others})
    parts = message.content if isinstance(message.content, tuple) else (TextPart(message.content),)
    assert len(parts) == len(blocks)
    for block, part in zip(blocks, parts, strict=True):
        kept = part.provider_data.get("mcp", {})
        for key in ("annotations", "_meta", "x-note"):
            if key in block and not s.carries_nothing(block[key]):
                assert _same(kept[key], block[key])
        if block["type"] == "text":
            assert isinstance(part, TextPart)
            assert part.text == block["text"]
        if block["type"] == "resource_link":
            assert isinstance(part, TextPart)
            assert _same(json.loads(part.text), {k: v for k, v in block.items() if not s.carries_nothing(v)})
    kept = message.provider_data.get("mcp", {})
    assert {key for key in others if not s.carries_nothing(others[key])} == set(kept)


def _same(left: Any, right: Any) -> bool:
    """Equal as JSON values: 1 and true differ (json.dumps says so)."""
    return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)

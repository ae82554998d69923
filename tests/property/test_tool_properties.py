"""Properties of ``Tool``: value semantics with ``strict`` and ``extra``, and every codec's tool round trip."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import MessageError, Tool
from toolturns.providers import PROVIDERS

_NAMES = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{0,20}", fullmatch=True)
# Keys no field of Tool models (MCP's, and any a definition may hold).
_EXTRA_KEYS = st.sampled_from(["title", "annotations", "outputSchema", "_meta", "x-note"])
_SCHEMAS = st.sampled_from(
    [
        None,
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
    ]
)


@st.composite
def tools(draw: st.DrawFn, *, extra: bool = True) -> Tool:
    return Tool(
        draw(_NAMES),
        draw(s.unicode_text(max_size=8)),
        draw(_SCHEMAS),
        strict=draw(st.sampled_from([None, True, False])),
        extra=draw(st.dictionaries(_EXTRA_KEYS, s.json_values(deep=False), max_size=2)) if extra else None,
    )


@given(tools(), tools())
def test_equal_tools_have_equal_hashes(left: Tool, right: Tool) -> None:
    """eq implies equal hash, strict and extra included."""
    assert (left == right) <= (hash(left) == hash(right))
    assert left == Tool(
        left.name, left.description, left.parameters, strict=left.strict, extra=dict(left.extra)
    )


@given(tools(), st.booleans())
def test_from_dict_reads_back_every_key_of_a_definition(tool: Tool, nested: bool) -> None:
    """A definition written with all a Tool holds, flat or in OpenAI's shape, reads back as the same Tool."""
    fields: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }
    if tool.strict is not None:
        fields["strict"] = tool.strict
    fields.update(tool.extra)
    definition = {"type": "function", "function": fields} if nested else fields
    assert Tool.from_dict(definition) == tool


@pytest.mark.parametrize("name", list(PROVIDERS))
@given(tool=tools(extra=False))
def test_each_codec_reads_back_the_tools_it_writes(name: str, tool: Tool) -> None:
    """read_tools(tool_definition(t)) == t where the wire carries all of t; refused, located, where not."""
    codec = PROVIDERS[name].codec
    if tool.strict is not None and not PROVIDERS[name].rules.CARRIES.strict:
        with pytest.raises(MessageError) as caught:
            codec.tool_definition(tool)
        assert caught.value.path == "strict"
        return
    definition = codec.tool_definition(tool)
    wire = [{"functionDeclarations": [definition]}] if name == "gemini" else [definition]
    assert codec.read_tools(wire) == [tool]


@given(s.arbitrary_json())
def test_from_dict_raises_only_message_errors(value: Any) -> None:
    """Any JSON value: a Tool or a MessageError."""
    with contextlib.suppress(MessageError):
        assert isinstance(Tool.from_dict(value), Tool)

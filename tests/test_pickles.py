"""Pickles: every value that unpickles is checked, and old pickles of valid values still load.

A pickle holds a value's state (``ChatMessage`` and ``Tool``: their fields in
order) or its constructor's arguments (``ToolCall``, ``Extra``); unpickling
checks either as the constructor checks its arguments, so a tampered pickle
raises a ``MessageError`` instead of giving a value no constructor would
build. Pickle itself runs code: none of this makes unpickling untrusted bytes
safe, it keeps toolturns' own restore paths from being a way around its rules.
"""

from __future__ import annotations

import base64
import copy
import copyreg
import dataclasses
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from tests.property.test_tool_properties import tools
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidTool,
    MessageError,
    Role,
    Tool,
    ToolCall,
)
from toolturns._extra import EMPTY, Extra
from toolturns._tool_call import _restore

# -- old pickles ---------------------------------------------------------------------------

# Pickles of the values below written by earlier code, as base64: "0.1.0" by
# the first release (its Tool had no strict or extra), "current" by the code
# just before unpickling was checked. Protocol 0 restores through
# copyreg._reconstructor, protocol 5 through copyreg.__newobj__.
CALL = ToolCall(
    "call_1",
    "get_weather",
    '{"city": "Paris"}',
    extra={"x_note": [1, "two"]},
    provider_data={"gemini": {"thoughtSignature": "c2ln"}},
)
VALUES: dict[str, object] = {
    "call": CALL,
    # An assistant turn and a tool result: between them, every field set.
    "assistant": ChatMessage(
        "assistant",
        "Let me look.",
        tool_calls=[CALL, ToolCall("call_2", "get_time")],
        name="bot",
        extra={"weight": 0, "reasoning_content": "think"},
        provider_data={"anthropic": {"blocks": [{"type": "thinking", "thinking": "t", "signature": "s"}]}},
    ),
    "result": ChatMessage("tool", "18 degrees", tool_call_id="call_1", is_error=True, extra={"weight": 1}),
    "extra": CALL.extra,
}
_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}
TOOLS = {
    "0.1.0": Tool("get_weather", "Current weather", _SCHEMA),
    "current": Tool("get_weather", "Current weather", _SCHEMA, strict=True, extra={"title": "Weather"}),
}

PICKLES_0_1_0 = {
    ("call", 0): (
        "Y3Rvb2x0dXJucy5fdG9vbF9jYWxsCl9yZXN0b3JlCnAwCihWY2FsbF8xCnAxClZnZXRfd2VhdGhlcgpwMgpWeyJjaXR5Ijog"
        "IlBhcmlzIn0KcDMKKGRwNApWeF9ub3RlCnA1CihscDYKSTEKYVZ0d28KcDcKYXMoZHA4ClZnZW1pbmkKcDkKKGRwMTAKVnRo"
        "b3VnaHRTaWduYXR1cmUKcDExClZjMmxuCnAxMgpzc3RwMTMKUnAxNAou"
    ),
    ("call", 5): (
        "gAWVlgAAAAAAAACMFHRvb2x0dXJucy5fdG9vbF9jYWxslIwIX3Jlc3RvcmWUk5QojAZjYWxsXzGUjAtnZXRfd2VhdGhlcpSM"
        "EXsiY2l0eSI6ICJQYXJpcyJ9lH2UjAZ4X25vdGWUXZQoSwGMA3R3b5Rlc32UjAZnZW1pbmmUfZSMEHRob3VnaHRTaWduYXR1"
        "cmWUjARjMmxulHNzdJRSlC4="
    ),
    ("assistant", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zCkNoYXRNZXNzYWdlCnAxCmNfX2J1aWx0aW5fXwpvYmpl"
        "Y3QKcDIKTnRwMwpScDQKKGxwNQpjdG9vbHR1cm5zClJvbGUKcDYKKFZhc3Npc3RhbnQKcDcKdHA4ClJwOQphVkxldCBtZSBs"
        "b29rLgpwMTAKYShjdG9vbHR1cm5zLl90b29sX2NhbGwKX3Jlc3RvcmUKcDExCihWY2FsbF8xCnAxMgpWZ2V0X3dlYXRoZXIK"
        "cDEzClZ7ImNpdHkiOiAiUGFyaXMifQpwMTQKKGRwMTUKVnhfbm90ZQpwMTYKKGxwMTcKSTEKYVZ0d28KcDE4CmFzKGRwMTkK"
        "VmdlbWluaQpwMjAKKGRwMjEKVnRob3VnaHRTaWduYXR1cmUKcDIyClZjMmxuCnAyMwpzc3RwMjQKUnAyNQpnMTEKKFZjYWxs"
        "XzIKcDI2ClZnZXRfdGltZQpwMjcKVnt9CnAyOAooZHAyOQooZHAzMAp0cDMxClJwMzIKdHAzMwphTmFWYm90CnAzNAphSTAw"
        "CmFjdG9vbHR1cm5zLl9leHRyYQpFeHRyYQpwMzUKKChkcDM2ClZ3ZWlnaHQKcDM3ClYwCnAzOApzVnJlYXNvbmluZ19jb250"
        "ZW50CnAzOQpWInRoaW5rIgpwNDAKc3RwNDEKUnA0MgphZzM1CigoZHA0MwpWYW50aHJvcGljCnA0NApWeyJibG9ja3MiOlt7"
        "InR5cGUiOiJ0aGlua2luZyIsInRoaW5raW5nIjoidCIsInNpZ25hdHVyZSI6InMifV19CnA0NQpzdHA0NgpScDQ3CmFiLg=="
    ),
    ("assistant", 5): (
        "gAWVuQEAAAAAAACMCXRvb2x0dXJuc5SMC0NoYXRNZXNzYWdllJOUKYGUXZQoaACMBFJvbGWUk5SMCWFzc2lzdGFudJSFlFKU"
        "jAxMZXQgbWUgbG9vay6UjBR0b29sdHVybnMuX3Rvb2xfY2FsbJSMCF9yZXN0b3JllJOUKIwGY2FsbF8xlIwLZ2V0X3dlYXRo"
        "ZXKUjBF7ImNpdHkiOiAiUGFyaXMifZR9lIwGeF9ub3RllF2UKEsBjAN0d2+UZXN9lIwGZ2VtaW5plH2UjBB0aG91Z2h0U2ln"
        "bmF0dXJllIwEYzJsbpRzc3SUUpRoDSiMBmNhbGxfMpSMCGdldF90aW1llIwCe32UfZR9lHSUUpSGlE6MA2JvdJSJjBB0b29s"
        "dHVybnMuX2V4dHJhlIwFRXh0cmGUk5R9lCiMBndlaWdodJSMATCUjBFyZWFzb25pbmdfY29udGVudJSMByJ0aGluayKUdYWU"
        "UpRoJ32UjAlhbnRocm9waWOUjD97ImJsb2NrcyI6W3sidHlwZSI6InRoaW5raW5nIiwidGhpbmtpbmciOiJ0Iiwic2lnbmF0"
        "dXJlIjoicyJ9XX2Uc4WUUpRlYi4="
    ),
    ("result", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zCkNoYXRNZXNzYWdlCnAxCmNfX2J1aWx0aW5fXwpvYmpl"
        "Y3QKcDIKTnRwMwpScDQKKGxwNQpjdG9vbHR1cm5zClJvbGUKcDYKKFZ0b29sCnA3CnRwOApScDkKYVYxOCBkZWdyZWVzCnAx"
        "MAphTmFWY2FsbF8xCnAxMQphTmFJMDEKYWN0b29sdHVybnMuX2V4dHJhCkV4dHJhCnAxMgooKGRwMTMKVndlaWdodApwMTQK"
        "VjEKcDE1CnN0cDE2ClJwMTcKYWcxMgooKGRwMTgKdHAxOQpScDIwCmFiLg=="
    ),
    ("result", 5): (
        "gAWVjQAAAAAAAACMCXRvb2x0dXJuc5SMC0NoYXRNZXNzYWdllJOUKYGUXZQoaACMBFJvbGWUk5SMBHRvb2yUhZRSlIwKMTgg"
        "ZGVncmVlc5ROjAZjYWxsXzGUToiMEHRvb2x0dXJucy5fZXh0cmGUjAVFeHRyYZSTlH2UjAZ3ZWlnaHSUjAExlHOFlFKUaA59"
        "lIWUUpRlYi4="
    ),
    ("extra", 0): (
        "Y3Rvb2x0dXJucy5fZXh0cmEKRXh0cmEKcDAKKChkcDEKVnhfbm90ZQpwMgpWWzEsInR3byJdCnAzCnN0cDQKUnA1Ci4="
    ),
    ("extra", 5): (
        "gAWVOgAAAAAAAACMEHRvb2x0dXJucy5fZXh0cmGUjAVFeHRyYZSTlH2UjAZ4X25vdGWUjAlbMSwidHdvIl2Uc4WUUpQu"
    ),
    ("tool", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zClRvb2wKcDEKY19fYnVpbHRpbl9fCm9iamVjdApwMgpO"
        "dHAzClJwNAoobHA1ClZnZXRfd2VhdGhlcgpwNgphVkN1cnJlbnQgd2VhdGhlcgpwNwphVnsidHlwZSI6Im9iamVjdCIsInBy"
        "b3BlcnRpZXMiOnsiY2l0eSI6eyJ0eXBlIjoic3RyaW5nIn19fQpwOAphYi4="
    ),
    ("tool", 5): (
        "gAWVegAAAAAAAACMCXRvb2x0dXJuc5SMBFRvb2yUk5QpgZRdlCiMC2dldF93ZWF0aGVylIwPQ3VycmVudCB3ZWF0aGVylIw5"
        "eyJ0eXBlIjoib2JqZWN0IiwicHJvcGVydGllcyI6eyJjaXR5Ijp7InR5cGUiOiJzdHJpbmcifX19lGViLg=="
    ),
}
PICKLES_CURRENT = {
    ("call", 0): (
        "Y3Rvb2x0dXJucy5fdG9vbF9jYWxsCl9yZXN0b3JlCnAwCihWY2FsbF8xCnAxClZnZXRfd2VhdGhlcgpwMgpWeyJjaXR5Ijog"
        "IlBhcmlzIn0KcDMKKGRwNApWeF9ub3RlCnA1CihscDYKSTEKYVZ0d28KcDcKYXMoZHA4ClZnZW1pbmkKcDkKKGRwMTAKVnRo"
        "b3VnaHRTaWduYXR1cmUKcDExClZjMmxuCnAxMgpzc3RwMTMKUnAxNAou"
    ),
    ("call", 5): (
        "gAWVlgAAAAAAAACMFHRvb2x0dXJucy5fdG9vbF9jYWxslIwIX3Jlc3RvcmWUk5QojAZjYWxsXzGUjAtnZXRfd2VhdGhlcpSM"
        "EXsiY2l0eSI6ICJQYXJpcyJ9lH2UjAZ4X25vdGWUXZQoSwGMA3R3b5Rlc32UjAZnZW1pbmmUfZSMEHRob3VnaHRTaWduYXR1"
        "cmWUjARjMmxulHNzdJRSlC4="
    ),
    ("assistant", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zCkNoYXRNZXNzYWdlCnAxCmNfX2J1aWx0aW5fXwpvYmpl"
        "Y3QKcDIKTnRwMwpScDQKKGxwNQpjdG9vbHR1cm5zClJvbGUKcDYKKFZhc3Npc3RhbnQKcDcKdHA4ClJwOQphVkxldCBtZSBs"
        "b29rLgpwMTAKYShjdG9vbHR1cm5zLl90b29sX2NhbGwKX3Jlc3RvcmUKcDExCihWY2FsbF8xCnAxMgpWZ2V0X3dlYXRoZXIK"
        "cDEzClZ7ImNpdHkiOiAiUGFyaXMifQpwMTQKKGRwMTUKVnhfbm90ZQpwMTYKKGxwMTcKSTEKYVZ0d28KcDE4CmFzKGRwMTkK"
        "VmdlbWluaQpwMjAKKGRwMjEKVnRob3VnaHRTaWduYXR1cmUKcDIyClZjMmxuCnAyMwpzc3RwMjQKUnAyNQpnMTEKKFZjYWxs"
        "XzIKcDI2ClZnZXRfdGltZQpwMjcKVnt9CnAyOAooZHAyOQooZHAzMAp0cDMxClJwMzIKdHAzMwphTmFWYm90CnAzNAphSTAw"
        "CmFjdG9vbHR1cm5zLl9leHRyYQpFeHRyYQpwMzUKKChkcDM2ClZ3ZWlnaHQKcDM3ClYwCnAzOApzVnJlYXNvbmluZ19jb250"
        "ZW50CnAzOQpWInRoaW5rIgpwNDAKc3RwNDEKUnA0MgphZzM1CigoZHA0MwpWYW50aHJvcGljCnA0NApWeyJibG9ja3MiOlt7"
        "InR5cGUiOiJ0aGlua2luZyIsInRoaW5raW5nIjoidCIsInNpZ25hdHVyZSI6InMifV19CnA0NQpzdHA0NgpScDQ3CmFiLg=="
    ),
    ("assistant", 5): (
        "gAWVuQEAAAAAAACMCXRvb2x0dXJuc5SMC0NoYXRNZXNzYWdllJOUKYGUXZQoaACMBFJvbGWUk5SMCWFzc2lzdGFudJSFlFKU"
        "jAxMZXQgbWUgbG9vay6UjBR0b29sdHVybnMuX3Rvb2xfY2FsbJSMCF9yZXN0b3JllJOUKIwGY2FsbF8xlIwLZ2V0X3dlYXRo"
        "ZXKUjBF7ImNpdHkiOiAiUGFyaXMifZR9lIwGeF9ub3RllF2UKEsBjAN0d2+UZXN9lIwGZ2VtaW5plH2UjBB0aG91Z2h0U2ln"
        "bmF0dXJllIwEYzJsbpRzc3SUUpRoDSiMBmNhbGxfMpSMCGdldF90aW1llIwCe32UfZR9lHSUUpSGlE6MA2JvdJSJjBB0b29s"
        "dHVybnMuX2V4dHJhlIwFRXh0cmGUk5R9lCiMBndlaWdodJSMATCUjBFyZWFzb25pbmdfY29udGVudJSMByJ0aGluayKUdYWU"
        "UpRoJ32UjAlhbnRocm9waWOUjD97ImJsb2NrcyI6W3sidHlwZSI6InRoaW5raW5nIiwidGhpbmtpbmciOiJ0Iiwic2lnbmF0"
        "dXJlIjoicyJ9XX2Uc4WUUpRlYi4="
    ),
    ("result", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zCkNoYXRNZXNzYWdlCnAxCmNfX2J1aWx0aW5fXwpvYmpl"
        "Y3QKcDIKTnRwMwpScDQKKGxwNQpjdG9vbHR1cm5zClJvbGUKcDYKKFZ0b29sCnA3CnRwOApScDkKYVYxOCBkZWdyZWVzCnAx"
        "MAphTmFWY2FsbF8xCnAxMQphTmFJMDEKYWN0b29sdHVybnMuX2V4dHJhCkV4dHJhCnAxMgooKGRwMTMKVndlaWdodApwMTQK"
        "VjEKcDE1CnN0cDE2ClJwMTcKYWcxMgooKGRwMTgKdHAxOQpScDIwCmFiLg=="
    ),
    ("result", 5): (
        "gAWVjQAAAAAAAACMCXRvb2x0dXJuc5SMC0NoYXRNZXNzYWdllJOUKYGUXZQoaACMBFJvbGWUk5SMBHRvb2yUhZRSlIwKMTgg"
        "ZGVncmVlc5ROjAZjYWxsXzGUToiMEHRvb2x0dXJucy5fZXh0cmGUjAVFeHRyYZSTlH2UjAZ3ZWlnaHSUjAExlHOFlFKUaA59"
        "lIWUUpRlYi4="
    ),
    ("extra", 0): (
        "Y3Rvb2x0dXJucy5fZXh0cmEKRXh0cmEKcDAKKChkcDEKVnhfbm90ZQpwMgpWWzEsInR3byJdCnAzCnN0cDQKUnA1Ci4="
    ),
    ("extra", 5): (
        "gAWVOgAAAAAAAACMEHRvb2x0dXJucy5fZXh0cmGUjAVFeHRyYZSTlH2UjAZ4X25vdGWUjAlbMSwidHdvIl2Uc4WUUpQu"
    ),
    ("tool", 0): (
        "Y2NvcHlfcmVnCl9yZWNvbnN0cnVjdG9yCnAwCihjdG9vbHR1cm5zClRvb2wKcDEKY19fYnVpbHRpbl9fCm9iamVjdApwMgpO"
        "dHAzClJwNAoobHA1ClZnZXRfd2VhdGhlcgpwNgphVkN1cnJlbnQgd2VhdGhlcgpwNwphVnsidHlwZSI6Im9iamVjdCIsInBy"
        "b3BlcnRpZXMiOnsiY2l0eSI6eyJ0eXBlIjoic3RyaW5nIn19fQpwOAphSTAxCmFjdG9vbHR1cm5zLl9leHRyYQpFeHRyYQpw"
        "OQooKGRwMTAKVnRpdGxlCnAxMQpWIldlYXRoZXIiCnAxMgpzdHAxMwpScDE0CmFiLg=="
    ),
    ("tool", 5): (
        "gAWVswAAAAAAAACMCXRvb2x0dXJuc5SMBFRvb2yUk5QpgZRdlCiMC2dldF93ZWF0aGVylIwPQ3VycmVudCB3ZWF0aGVylIw5"
        "eyJ0eXBlIjoib2JqZWN0IiwicHJvcGVydGllcyI6eyJjaXR5Ijp7InR5cGUiOiJzdHJpbmcifX19lIiMEHRvb2x0dXJucy5f"
        "ZXh0cmGUjAVFeHRyYZSTlH2UjAV0aXRsZZSMCSJXZWF0aGVyIpRzhZRSlGViLg=="
    ),
}
OLD_PICKLES = [
    (release, name, protocol, base64.b64decode("".join(chunks)))
    for release, pickles in (("0.1.0", PICKLES_0_1_0), ("current", PICKLES_CURRENT))
    for (name, protocol), chunks in pickles.items()
]


def _expected(release: str, name: str) -> object:
    return TOOLS[release] if name == "tool" else VALUES[name]


@pytest.mark.parametrize(
    ("release", "name", "protocol", "data"), OLD_PICKLES, ids=[f"{r}-{n}-{p}" for r, n, p, _ in OLD_PICKLES]
)
def test_old_pickles_of_valid_values_still_load(release: str, name: str, protocol: int, data: bytes) -> None:
    """Pickles written by 0.1.0 and by the code before this check load as equal, whole values."""
    expected = _expected(release, name)
    loaded = pickle.loads(data)
    assert type(loaded) is type(expected)
    assert loaded == expected
    assert hash(loaded) == hash(expected)
    assert repr(loaded) == repr(expected)  # every field is set: repr reads them all


# -- tampered pickles ----------------------------------------------------------------------


class _Crafted:
    """Pickles as the reduce value it is given: the bytes someone could write by hand."""

    def __init__(self, *reduced: object) -> None:
        self.reduced = reduced

    def __reduce__(self) -> tuple[Any, ...]:
        return self.reduced


def _crafted(cls: type, state: object, protocol: int = 5) -> bytes:
    # How a ChatMessage or a Tool pickles: an empty instance, then its state.
    return pickle.dumps(_Crafted(copyreg._reconstructor, (cls, object, None), state), protocol=protocol)  # type: ignore[attr-defined]


def _extra(texts: dict[str, str]) -> _Crafted:
    # How an Extra pickles: its constructor called with the JSON texts.
    return _Crafted(Extra, (texts,))


def test_a_tool_message_without_its_call_id_does_not_unpickle() -> None:
    """A tool turn with no tool_call_id: check_transcript said [] to a history holding one."""
    state = [Role.TOOL, "x", None, None, None, False, EMPTY, EMPTY]
    with pytest.raises(InvalidMessage, match=r"^tool_call_id: is required on tool messages$"):
        pickle.loads(_crafted(ChatMessage, state))


@pytest.mark.parametrize("key", ["role", "tool_calls", "content"])
def test_an_extra_that_would_override_a_field_does_not_unpickle(key: str) -> None:
    """An extra holding a modelled key would override that field in to_wire(): refused at its key."""
    state = [Role.USER, "hi", None, None, None, False, _extra({key: '"assistant"'}), EMPTY]
    with pytest.raises(InvalidMessage, match=rf"^extra\.{key}: is a modelled field, not an extra key"):
        pickle.loads(_crafted(ChatMessage, state))


@pytest.mark.parametrize(
    ("texts", "error"),
    [
        ({"weight": "{"}, r"^weight: must be JSON text \(.*\), got '\{'$"),
        ({"weight": "NaN"}, r"^weight: must be JSON text \(NaN is not JSON\), got 'NaN'$"),
        ({"weight": 1}, r"^weight: must be JSON text, got 1$"),
        ({1: "1"}, r"^keys must be strings, got 1$"),
        ([("weight", "1")], r"^must be a mapping of str to JSON text, got list$"),
    ],
    ids=["not-json", "nan", "not-text", "int-key", "not-a-mapping"],
)
def test_a_tampered_extra_does_not_unpickle(texts: Any, error: str) -> None:
    """Extra's pickle holds JSON texts: each is read as JSON again, as building it checks values."""
    with pytest.raises(InvalidMessage, match=error):
        pickle.loads(pickle.dumps(_extra(texts)))


def test_an_extra_unpickles_as_it_is_built() -> None:
    """Texts that carry nothing are not kept, and equal values give equal texts, as Extra.build does."""
    back = pickle.loads(pickle.dumps(_extra({"a": "null", "b": " [ ] ", "c": ' { "x" : 1 } '})))
    assert back == {"c": {"x": 1}}
    assert back.__reduce__() == (Extra, ({"c": '{"x":1}'},))


@pytest.mark.parametrize(
    ("state", "error"),
    [
        (["bad name", "", '{"type":"object"}', None, EMPTY], r"^name: must match"),
        (["f", "", '{"type":"array"}', None, EMPTY], r"^parameters\.type: must be 'object'"),
        (["f", "", "{", None, EMPTY], r"^parameters_json: must be the JSON text of a schema object"),
        (["f", "", "[1]", None, EMPTY], r"^parameters_json: must be the JSON text of a schema object"),
        (["f", "", {"type": "object"}, None, EMPTY], r"^parameters_json: must be the JSON text of a schema"),
        (["f", "", '{"required":null}', None, EMPTY], r"^parameters\.required: must be an array of strings"),
        (["f", "", '{"type":"object"}', "yes", EMPTY], r"^strict: must be a boolean or None, got 'yes'$"),
        (["f", "", '{"type":"object"}', None, _extra({"name": '"g"'})], r"^extra\.name: is a modelled field"),
        (["f", ""], r"^must be pickled as a list of 3 to 5 values"),
        ({"name": "f"}, r"^must be pickled as a list of 3 to 5 values"),
    ],
    ids=[
        "name",
        "schema-type",
        "schema-text",
        "schema-array",
        "schema-not-text",
        "schema-not-json-schema",
        "strict",
        "extra",
        "short",
        "dict",
    ],
)
def test_a_tampered_tool_does_not_unpickle(state: object, error: str) -> None:
    """A Tool's pickled fields are checked as Tool's constructor checks its arguments."""
    with pytest.raises(InvalidTool, match=error):
        pickle.loads(_crafted(Tool, state))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_tampered_message_does_not_unpickle_with_any_protocol(protocol: int) -> None:
    """Protocol 0 and 1 restore through another path than 2 and up: both are checked."""
    state = [Role.ASSISTANT, "hi", None, "c1", None, False, EMPTY, EMPTY]
    with pytest.raises(InvalidMessage, match=r"^tool_call_id: is only allowed on tool messages"):
        pickle.loads(_crafted(ChatMessage, state, protocol))


def test_a_message_state_of_the_wrong_shape_is_refused() -> None:
    """The fields in order, all eight: a shorter list or a dict is not a message's state."""
    for state in (["user", "hi"], {"role": "user", "content": "hi"}, None):
        empty = object.__new__(ChatMessage)
        with pytest.raises(
            InvalidMessage, match=r"^must be pickled as a list of 8 values, the fields in order"
        ):
            empty.__setstate__(state)


@pytest.mark.parametrize("value", [ChatMessage.user("hi"), Tool("f")], ids=["message", "tool"])
def test_a_built_value_cannot_be_given_another_state(value: Any) -> None:
    """__setstate__ on a built value would change it: refused as every change is."""
    state = value.__getstate__()
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot set the state of a built "):
        value.__setstate__(state)


# -- properties ----------------------------------------------------------------------------

_PROTOCOLS = st.integers(0, pickle.HIGHEST_PROTOCOL)


def _valid_values() -> st.SearchStrategy[object]:
    return st.one_of(
        s.chat_messages(with_provider_data=True),
        s.tool_calls(with_provider_data=True),
        tools(),
        s.message_extras().map(lambda values: ChatMessage.user("x", extra=values).extra),
    )


@given(_valid_values(), _PROTOCOLS)
def test_any_valid_value_pickles_to_an_equal_value(value: object, protocol: int) -> None:
    """A pickling round trip of any valid value gives an equal value with the same hash and repr."""
    back = pickle.loads(pickle.dumps(value, protocol=protocol))
    assert type(back) is type(value)
    assert back == value
    assert hash(back) == hash(value)
    assert repr(back) == repr(value)


@given(_valid_values(), st.sampled_from([copy.copy, copy.deepcopy]))
def test_any_valid_value_copies_to_an_equal_value(value: object, clone: Any) -> None:
    """copy.copy and copy.deepcopy go through the same checked restore, and give an equal value."""
    back = clone(value)
    assert type(back) is type(value)
    assert back == value
    assert repr(back) == repr(value)


# What a slot of a crafted state may hold: any JSON, or values of the types the fields have.
_SLOTS = st.one_of(
    s.arbitrary_json(),
    st.sampled_from([*Role, EMPTY, Extra({"weight": "1"}), Extra({"role": '"user"'}), ()]),
    st.lists(s.small_tool_calls(), max_size=2).map(tuple),
)


@st.composite
def _states(draw: st.DrawFn, values: st.SearchStrategy[Any]) -> Any:
    """A valid value's state, some slots replaced by others' values or any JSON, or something else."""
    if draw(st.integers(0, 7)) == 0:
        # A whole state of None is left out: pickle writes no state then, and the
        # empty instance it restores is pickle's own doing (it can call any function).
        return draw(_SLOTS.filter(lambda state: state is not None))
    state: list[Any] = draw(values).__getstate__()
    other: list[Any] = draw(values).__getstate__()
    for _ in range(draw(st.integers(0, 3))):
        slot = draw(st.integers(0, len(state) - 1))
        state[slot] = other[slot] if draw(st.booleans()) else draw(_SLOTS)
    return state[: draw(st.integers(0, len(state) + 1))] if draw(st.integers(0, 7)) == 0 else state


def _rebuilt_message(message: ChatMessage) -> ChatMessage:
    return ChatMessage(
        message.role,
        message.content,
        tool_calls=message.tool_calls,
        tool_call_id=message.tool_call_id,
        name=message.name,
        is_error=message.is_error,
        extra=dict(message.extra),
        provider_data=dict(message.provider_data),
    )


@given(_states(s.chat_messages(with_provider_data=True)))
def test_a_crafted_message_state_gives_a_valid_message_or_a_message_error(state: Any) -> None:
    """Whatever the state, unpickling gives a message the constructor builds alike, or a MessageError."""
    try:
        message = pickle.loads(_crafted(ChatMessage, state))
    except MessageError:
        return
    assert message == _rebuilt_message(message)
    try:
        wire = message.to_wire()
    except MessageError as error:
        failure = error
    else:
        assert wire["role"] == message.role.value
        return
    # The OpenAI wire's own kept data (refusal parts), malformed: refused, never sent as it is.
    assert failure.path.startswith("provider_data.openai")


@given(_states(tools()))
def test_a_crafted_tool_state_gives_a_valid_tool_or_a_message_error(state: Any) -> None:
    """Whatever the state, unpickling gives a tool the constructor builds alike, or a MessageError."""
    try:
        tool = pickle.loads(_crafted(Tool, state))
    except MessageError:
        return
    assert tool == Tool(
        tool.name, tool.description, tool.parameters, strict=tool.strict, extra=dict(tool.extra)
    )


@given(st.lists(_SLOTS, min_size=5, max_size=5))
def test_crafted_call_arguments_give_a_valid_call_or_a_message_error(arguments: list[Any]) -> None:
    """Whatever ToolCall's pickle passes its restore, the result is a valid call or a MessageError."""
    try:
        call = pickle.loads(pickle.dumps(_Crafted(_restore, tuple(arguments))))
    except MessageError:
        return
    rebuilt = ToolCall(
        call.id,
        call.name,
        call.arguments_json,
        extra=dict(call.extra),
        provider_data=dict(call.provider_data),
    )
    assert call == rebuilt


@given(
    st.one_of(st.dictionaries(s.unicode_text(max_size=4), st.one_of(_SLOTS, s.valid_object_texts())), _SLOTS)
)
def test_crafted_extra_texts_give_a_valid_extra_or_a_message_error(texts: Any) -> None:
    """Whatever texts an Extra's pickle holds, the result is an Extra that build() gives alike, or a MessageError."""
    try:
        extra = pickle.loads(pickle.dumps(_extra(texts)))
    except MessageError:
        return
    rebuilt = Extra.build(extra.to_dict(), path="", reserved=frozenset(), error=InvalidMessage)
    assert extra == rebuilt
    assert extra.__reduce__() == rebuilt.__reduce__()

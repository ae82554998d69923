"""Properties of OpenAI's content parts: transcripts of parts round-trip exactly, are clean for
target="openai" and valid for the SDK's request type; anything in a part's place reads or
raises only MessageError, and what reads is written back as it reads."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import arbitrary_json, json_values, unicode_text
from tests.providers.openai.test_parts import valid_for_the_sdk
from toolturns import (
    AudioPart,
    ChatMessage,
    ContentPart,
    FilePart,
    ImagePart,
    MessageError,
    TextPart,
    ToolCall,
    check_transcript,
    openai,
)
from toolturns._extra import carries_nothing
from toolturns.providers.openai import rules

_BASE64 = st.binary(min_size=1, max_size=30).map(lambda data: base64.b64encode(data).decode())
_NAMES = st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=8)
_URLS = _NAMES.map(lambda name: f"https://example.com/{name}.png")
_SOMETHING = json_values(deep=False).filter(lambda value: not carries_nothing(value))


def _kept(modelled: frozenset[str], member: str | None = None, member_modelled: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
    """Optional provider_data["openai"]: keys a part was read with beyond its fields."""
    keys = st.dictionaries(_NAMES.filter(lambda key: key not in modelled), _SOMETHING, max_size=2)
    nested = (
        st.just({})
        if member is None
        else st.dictionaries(_NAMES.filter(lambda key: key not in member_modelled), _SOMETHING, max_size=2)
    )

    def entry(kept_keys: dict[str, Any], kept_nested: dict[str, Any]) -> dict[str, Any] | None:
        data: dict[str, Any] = {}
        if kept_keys:
            data["keys"] = kept_keys
        if kept_nested:
            data["nested"] = {member: kept_nested}
        return {"openai": data} if data else None

    return st.builds(entry, keys, nested)


_TEXTS = st.builds(
    lambda text, kept: TextPart(text, provider_data=kept), unicode_text(), _kept(frozenset({"type", "text"}))
)
_IMAGE_KEPT = _kept(frozenset({"type", "image_url"}), "image_url", frozenset({"url", "detail"}))
_DETAILS = st.none() | st.sampled_from(sorted(rules.DETAILS))
_IMAGES = st.one_of(
    st.builds(
        lambda url, detail, kept: ImagePart(url=url, detail=detail, provider_data=kept),
        _URLS,
        _DETAILS,
        _IMAGE_KEPT,
    ),
    st.builds(
        lambda data, media_type, detail, kept: ImagePart(
            data=data, media_type=media_type, detail=detail, provider_data=kept
        ),
        _BASE64,
        st.sampled_from(["image/png", "image/jpeg", "image/webp", "image/gif", "IMAGE/PNG"]),
        _DETAILS,
        _IMAGE_KEPT,
    ),
)
_AUDIO = st.builds(
    lambda data, audio_format, kept: AudioPart(data=data, format=audio_format, provider_data=kept),
    _BASE64,
    st.sampled_from(sorted(rules.AUDIO_FORMATS)),
    _kept(frozenset({"type", "input_audio"}), "input_audio", frozenset({"data", "format"})),
)
_FILE_KEPT = _kept(frozenset({"type", "file"}), "file", frozenset({"file_data", "file_id", "filename"}))
_FILES = st.one_of(
    st.builds(
        lambda data, name, kept: FilePart(
            data=data, media_type="application/pdf", filename=name, provider_data=kept
        ),
        _BASE64,
        _NAMES,
        _FILE_KEPT,
    ),
    st.builds(
        lambda file_id, name, kept: FilePart(file_id=file_id, filename=name, provider_data=kept),
        _NAMES,
        st.none() | _NAMES,
        _FILE_KEPT,
    ),
)
_TEXT_CONTENT = st.one_of(unicode_text(), st.lists(_TEXTS, min_size=1, max_size=3))
_USER_PARTS: st.SearchStrategy[list[ContentPart]] = st.lists(
    st.one_of(_TEXTS, _IMAGES, _AUDIO, _FILES), min_size=1, max_size=4
)
# An assistant's answer as the wire has it: text parts and refusal parts, in any order.
_ANSWERS = st.lists(
    st.one_of(
        st.builds(lambda text: {"type": "text", "text": text}, unicode_text()),
        st.builds(lambda text: {"type": "refusal", "refusal": text}, unicode_text()),
    ),
    min_size=1,
    max_size=3,
).map(lambda content: ChatMessage.from_dict({"role": "assistant", "content": content}))


@st.composite
def transcripts(draw: st.DrawFn) -> list[ChatMessage]:
    """A tool loop in parts within OpenAI's rules: system text, user parts of every kind, calls
    answered by text parts, and an answer of text and refusal parts."""
    history = [ChatMessage.system(draw(_TEXT_CONTENT)), ChatMessage.user(draw(_USER_PARTS))]
    calls = [ToolCall(f"call_{number}", "look") for number in range(draw(st.integers(1, 2)))]
    history.append(
        ChatMessage.assistant_tool_calls(
            calls, draw(st.one_of(st.none(), st.lists(_TEXTS, min_size=1, max_size=2)))
        )
    )
    history.extend(ChatMessage.tool_result(call.id, draw(_TEXT_CONTENT)) for call in calls)
    history.append(ChatMessage.user(draw(_USER_PARTS)))
    history.append(draw(_ANSWERS))
    return history


@given(transcripts())
def test_a_transcript_of_parts_round_trips_is_clean_and_valid_for_the_sdk(history: list[ChatMessage]) -> None:
    body = openai.to_request(history)
    assert openai.from_request(body) == history
    assert [ChatMessage.from_dict(message.to_wire()) for message in history] == history
    assert check_transcript(history, target="openai") == []
    for message in body["messages"]:
        valid_for_the_sdk(message)


# -- arbitrary JSON in part positions ------------------------------------------------------

_JUNK = arbitrary_json()
_KINDS = st.sampled_from(["text", "image_url", "input_audio", "file", "refusal", "input_text"])


def _near_part(kind: str, member: Any, text: Any, extra: dict[str, Any]) -> dict[str, Any]:
    part: dict[str, Any] = {"type": kind, **extra}
    if kind == "text":
        part["text"] = text
    elif kind == "refusal":
        part["refusal"] = text
    else:
        part[kind] = member
    return part


_MEMBERS = st.one_of(
    _JUNK,
    st.fixed_dictionaries(
        {},
        optional={
            "url": st.one_of(_URLS, _BASE64.map(lambda data: f"data:image/png;base64,{data}"), _JUNK),
            "detail": st.one_of(st.sampled_from(["low", "LOW", ""]), _JUNK),
            "data": st.one_of(_BASE64, _JUNK),
            "format": st.one_of(st.sampled_from(["wav", "WAV"]), _JUNK),
            "file_data": st.one_of(_BASE64.map(lambda data: f"data:application/pdf;base64,{data}"), _JUNK),
            "file_id": st.one_of(_NAMES, _JUNK),
            "filename": st.one_of(_NAMES, _JUNK),
            "x": _JUNK,
        },
    ),
)
_NEAR_PARTS = st.builds(
    _near_part, _KINDS, _MEMBERS, st.one_of(unicode_text(), _JUNK), st.dictionaries(_NAMES, _JUNK, max_size=2)
)


@given(
    st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    st.lists(st.one_of(_JUNK, _NEAR_PARTS), min_size=1, max_size=4),
)
def test_anything_in_a_parts_place_reads_or_raises_only_message_errors(role: str, content: list[Any]) -> None:
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "tool":
        message["tool_call_id"] = "call_1"
    try:
        read = openai.from_request({"messages": [message]})
    except MessageError:
        return
    # What reads is written back as it reads; the codec sends it or refuses it with a
    # located error, and the check for OpenAI says which.
    assert [ChatMessage.from_dict(turn.to_wire()) for turn in read] == read
    refused = [p.path for p in check_transcript(read, target="openai") if p.code in _REFUSED_CODES]
    if refused:
        with pytest.raises(MessageError) as caught:
            openai.to_request(read)
        assert caught.value.path == refused[0]
    else:
        assert openai.from_request(openai.to_request(read)) == read


#: The codes of what OpenAI's codec refuses (check_part); the others it sends, and reports.
_REFUSED_CODES = {"unsupported_part", "unsupported_field", "unsupported_source"}

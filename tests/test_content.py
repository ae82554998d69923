"""Content parts: each part's rules, and a message's content as parts."""

from __future__ import annotations

import base64
import copy
import dataclasses
import inspect
import pickle
import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolturns import (
    AudioPart,
    ChatMessage,
    ContentPart,
    FilePart,
    ImagePart,
    InvalidMessage,
    TextPart,
    ToolCall,
)
from toolturns._content import check_base64

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(40))).decode()
PDF = base64.b64encode(b"%PDF-1.7 hello").decode()
WAV = base64.b64encode(b"RIFF\x00\x00\x00\x00WAVE").decode()


def parts() -> list[ContentPart]:
    return [
        TextPart("hi"),
        TextPart(""),
        ImagePart(url="https://example.com/cat.png"),
        ImagePart(url="https://example.com/cat.png", detail="low"),
        ImagePart(data=PNG, media_type="image/png"),
        FilePart(data=PDF, media_type="application/pdf", filename="a.pdf"),
        FilePart(url="https://example.com/a.pdf"),
        FilePart(file_id="file-abc"),
        FilePart(url="gs://bucket/a.mp3", media_type="audio/mp3"),
        AudioPart(data=WAV, format="wav"),
        TextPart("cached", provider_data={"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}}),
    ]


# -- base64 -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["aGk=", "aGVsbG8=", "AAAA", "+/+/", "YQ=="])
def test_base64_is_kept_as_given(text: str) -> None:
    assert check_base64(text, "data") is text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "must be non-empty base64 text, got ''"),
        (5, "must be non-empty base64 text, got 5"),
        ("aGk", "(3 characters, not a multiple of 4)"),
        ("aG k", "(' ' at 2)"),
        ("aGk\n", "('\\n' at 3)"),
        ("aG-_", "('-' at 2)"),  # the URL-safe alphabet is not the standard one
        ("a=Gk", "('=' at 1)"),  # padding only at the end
        ("====", "('=' at 0)"),
        ("A===", "('=' at 1)"),
        ("aGé=", "(not ASCII)"),
    ],
)
def test_text_that_is_not_base64_is_refused_saying_where(text: Any, why: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        check_base64(text, "data")
    assert caught.value.path == "data"
    assert str(caught.value).endswith(why)


def test_a_bad_character_is_found_past_the_first_slice() -> None:
    """The check goes slice by slice: a mistake in a later slice is found, and placed."""
    text = "A" * (3 * 65536) + "A*AA"
    with pytest.raises(InvalidMessage, match=r"\('\*' at 196609\)$"):
        check_base64(text, "data")


@given(st.binary(max_size=300))
def test_any_bytes_encoded_are_base64(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    if text:
        assert check_base64(text, "data") is text


@given(st.text(max_size=40))
def test_check_base64_agrees_with_a_strict_decoder(text: str) -> None:
    """What the check accepts is what a strict decoder decodes (and re-encodes to the same text)."""
    try:
        decoded = base64.b64decode(text, validate=True)
        standard = bool(text) and base64.b64encode(decoded).decode() == text
    except ValueError:
        standard = False
    try:
        check_base64(text, "data")
        accepted = True
    except InvalidMessage:
        accepted = False
    # The strict decoder takes non-canonical final bits ("aGl=") that re-encode otherwise;
    # the check takes them too: it checks the alphabet and the padding, not the last bits.
    assert accepted == standard or (accepted and _noncanonical(text))


def _noncanonical(text: str) -> bool:
    return base64.b64encode(base64.b64decode(text, validate=True)).decode() != text


def test_checking_a_large_image_allocates_a_slice_not_a_copy() -> None:
    data = base64.b64encode(bytes(3_000_000)).decode()  # 4 MB of base64
    tracemalloc.start()
    try:
        part = ImagePart(data=data, media_type="image/png")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert part.data is data
    assert peak < 300_000  # a few 64 KiB slices, not 4 MB


# -- each part ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: TextPart(5), "text: must be a string, got 5"),  # type: ignore[arg-type]
        (lambda: ImagePart(), "must have exactly one source (url, data), got none"),
        (lambda: ImagePart(url="u", data=PNG, media_type="image/png"), "got url and data"),
        (lambda: ImagePart(url=""), "url: must be a non-empty string or None, got ''"),
        (lambda: ImagePart(data=PNG), "media_type: is required with data"),
        (lambda: ImagePart(data="x", media_type="image/png"), "data: must be base64 text"),
        (lambda: ImagePart(data=PNG, media_type="text/plain"), "media_type: must be an image/* media type"),
        (lambda: ImagePart(data=PNG, media_type="png"), "media_type: must be a media type (type/subtype"),
        (lambda: ImagePart(url="u", detail=""), "detail: must be a non-empty string or None, got ''"),
        (lambda: FilePart(), "must have exactly one source (data, url, file_id), got none"),
        (lambda: FilePart(url="u", file_id="f"), "got url and file_id"),
        (lambda: FilePart(data=PDF), "media_type: is required with data"),
        (
            lambda: FilePart(data=PNG, media_type="image/png"),
            "must not be an image's: an image is an ImagePart",
        ),
        (lambda: FilePart(url="u", media_type="image/png"), "must not be an image's"),
        (lambda: FilePart(data=WAV, media_type="audio/wav"), "base64 audio is an AudioPart"),
        (lambda: FilePart(file_id="f", filename=""), "filename: must be a non-empty string or None"),
        (lambda: AudioPart(data=WAV, format="WAV"), "format: must be an audio format's short name"),
        (lambda: AudioPart(data=WAV, format="audio/wav"), "format: must be an audio format's short name"),
        (lambda: AudioPart(data="", format="wav"), "data: must be non-empty base64 text"),
        (lambda: TextPart("a", provider_data={"x": {1}}), "provider_data.x"),
    ],
)
def test_a_part_breaking_a_rule_says_which(build: Any, message: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        build()
    assert message in str(caught.value)


@pytest.mark.parametrize("part", parts(), ids=repr)
def test_a_part_is_equal_only_to_a_part_of_its_kind(part: ContentPart) -> None:
    assert part != "hi"
    assert part != TextPart("hi") or isinstance(part, TextPart)
    assert ImagePart(url="u") != FilePart(url="u")


def test_a_url_image_may_say_its_media_type() -> None:
    assert ImagePart(url="gs://b/cat.jpg", media_type="image/jpeg").media_type == "image/jpeg"


@pytest.mark.parametrize("part", parts(), ids=repr)
def test_parts_are_frozen_and_compare_by_value(part: ContentPart) -> None:
    twin = copy.deepcopy(part)
    assert twin == part
    assert hash(twin) == hash(part)
    with pytest.raises(dataclasses.FrozenInstanceError):
        part.provider_data = {}  # type: ignore[misc]


@pytest.mark.parametrize("part", parts(), ids=repr)
def test_parts_pickle_as_themselves(part: ContentPart) -> None:
    assert pickle.loads(pickle.dumps(part)) == part


@pytest.mark.parametrize("part", parts(), ids=repr)
def test_replace_checks_again(part: ContentPart) -> None:
    name = dataclasses.fields(part)[0].name
    with pytest.raises(InvalidMessage):
        dataclasses.replace(part, **{name: 5})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "state"),
    [
        (TextPart, [5, {}]),
        (TextPart, ["a"]),
        (ImagePart, [None, "x", "image/png", None, {}]),
        (FilePart, [None, None, None, None, None, {}]),
        (AudioPart, [WAV, "WAV", {}]),
    ],
)
def test_a_tampered_pickle_state_is_checked(kind: type, state: list[Any]) -> None:
    part: Any = object.__new__(kind)
    with pytest.raises(InvalidMessage):
        part.__setstate__(state)


def test_a_built_part_refuses_new_state() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        TextPart("a").__setstate__(["b", {}])


def test_repr_shows_large_data_by_its_size() -> None:
    data = "A" * 4000
    assert repr(ImagePart(data=data, media_type="image/png")) == (
        f"ImagePart(data={'A' * 40!r}... (4000 characters), media_type='image/png')"
    )
    assert repr(
        TextPart("a", provider_data={"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}})
    ) == (
        "TextPart(text='a', provider_data={'anthropic': {'keys': {'cache_control': {'type': 'ephemeral'}}}})"
    )


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=12),
    st.sampled_from([PNG, PDF, "image/png", "application/pdf", "wav", "https://x", ""]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@given(st.sampled_from([ImagePart, FilePart, AudioPart, TextPart]), st.data())
def test_any_values_give_a_part_or_a_message_error(kind: Any, data: st.DataObject) -> None:
    """Whatever a caller passes, a part is built or InvalidMessage says why: nothing else escapes."""
    names = list(inspect.signature(kind).parameters)
    values = {name: data.draw(_VALUES, label=name) for name in names}
    try:
        part: ContentPart = kind(values.pop("text")) if kind is TextPart else kind(**values)
    except InvalidMessage:
        return
    assert pickle.loads(pickle.dumps(part)) == part
    assert hash(part) == hash(copy.copy(part))


# -- data in a data: URL -------------------------------------------------------------------


def test_a_data_url_is_the_data_it_holds() -> None:
    url = f"data:image/png;base64,{PNG}"
    part = ImagePart(url=url, detail="high")
    assert (part.url, part.data, part.media_type) == (None, PNG, "image/png")
    assert part == ImagePart(data=PNG, media_type="image/png", detail="high")
    assert hash(part) == hash(ImagePart(data=PNG, media_type="image/png", detail="high"))
    assert part.data_url is url  # given back as it came: no copy
    assert FilePart(url=f"data:application/pdf;base64,{PDF}").data == PDF
    assert ImagePart(url="https://x/a.png").data_url is None


def test_data_given_alone_makes_its_data_url() -> None:
    assert FilePart(data=PDF, media_type="application/pdf").data_url == f"data:application/pdf;base64,{PDF}"


def test_reading_a_large_data_url_copies_nothing() -> None:
    url = "data:image/png;base64," + base64.b64encode(bytes(3_000_000)).decode()
    tracemalloc.start()
    try:
        part = ImagePart(url=url)
        written = part.data_url
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert written is url
    assert peak < 300_000


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: ImagePart(url="data:image/png,hello"), "url: must be a data URL of base64 data"),
        (lambda: ImagePart(url="data:text/plain;base64,aGk="), "url: must be an image/* media type"),
        (lambda: ImagePart(url="data:image/png;base64,a b="), "url: must be base64 text"),
        (lambda: ImagePart(url="data:image/png;base64,"), "url: must be non-empty base64 text"),
        (
            lambda: ImagePart(url="data:image/png;base64,aGk=", media_type="image/gif"),
            "must be None or the data",
        ),
        (lambda: FilePart(url="data:audio/wav;base64,aGk="), "base64 audio is an AudioPart"),
        (lambda: FilePart(url="data:image/png;base64,aGk="), "an image is an ImagePart"),
    ],
)
def test_a_data_url_breaking_a_rule_says_which(build: Any, message: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        build()
    assert message in str(caught.value)


def test_a_data_url_part_pickles_and_replaces_as_its_data() -> None:
    part = FilePart(url=f"data:application/pdf;base64,{PDF}", filename="a.pdf")
    assert pickle.loads(pickle.dumps(part)) == part
    renamed = dataclasses.replace(part, filename="b.pdf")
    assert (renamed.data, renamed.filename) == (PDF, "b.pdf")


# -- parts in a message -------------------------------------------------------------------


def test_a_message_keeps_its_parts_as_a_tuple() -> None:
    given_parts = parts()
    message = ChatMessage.user(given_parts)
    assert message.content == tuple(given_parts)
    assert ChatMessage.user(tuple(given_parts)) == message
    assert hash(ChatMessage.user(list(given_parts))) == hash(message)


def test_text_joins_the_text_parts_and_is_the_string_otherwise() -> None:
    assert ChatMessage.user("plain").text == "plain"
    message = ChatMessage.user([TextPart("a"), ImagePart(url="u"), TextPart("b")])
    assert message.text == "ab"
    assert ChatMessage.user([ImagePart(url="u")]).text == ""


@pytest.mark.parametrize(
    "build",
    [
        lambda content: ChatMessage.system(content),
        lambda content: ChatMessage.developer(content),
        lambda content: ChatMessage.user(content),
        lambda content: ChatMessage.assistant(content),
        lambda content: ChatMessage.tool_result("call_1", content),
        lambda content: ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")], content),
    ],
)
def test_every_constructor_takes_parts(build: Any) -> None:
    content = [TextPart("a"), ImagePart(url="u")]
    assert build(content).content == tuple(content)


def test_a_message_with_parts_pickles_and_reads_back_from_its_wire_form() -> None:
    message = ChatMessage.tool_result(
        "call_1", [TextPart("shot:"), ImagePart(data=PNG, media_type="image/png")]
    )
    assert pickle.loads(pickle.dumps(message)) == message
    assert ChatMessage.from_dict(message.to_wire()) == message


def test_a_wire_dict_of_parts_is_read_by_from_dict_not_built() -> None:
    wire = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    assert ChatMessage.from_dict(wire).content == (TextPart("hi"),)
    with pytest.raises(InvalidMessage, match=r"^content\[0\]: must be a content part"):
        ChatMessage("user", wire["content"])  # type: ignore[arg-type]


def test_from_dict_takes_parts_built_already_and_a_tuple() -> None:
    built = ImagePart(url="u")
    message = ChatMessage.from_dict({"role": "user", "content": ({"type": "text", "text": "a"}, built)})
    assert message.content == (TextPart("a"), built)


def test_an_empty_list_of_parts_is_refused() -> None:
    with pytest.raises(InvalidMessage, match=r"^content: must not be an empty list of parts"):
        ChatMessage.user([])
    with pytest.raises(InvalidMessage, match=r"^content: must not be an empty array of parts"):
        ChatMessage.from_dict({"role": "user", "content": []})


def test_a_str_message_is_unchanged() -> None:
    """The plain string stays the simple case: no tuple, the same wire form."""
    message = ChatMessage.user("hi")
    assert message.content == "hi"
    assert message.to_wire() == {"role": "user", "content": "hi"}

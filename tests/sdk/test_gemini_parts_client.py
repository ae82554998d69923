"""Images through the real google-genai client: in a user turn, and in a function response.

toolturns builds each body; ``client.models.generate_content`` sends its
contents (``contents=``) and the rest (``config=``) over an
``httpx2.MockTransport`` that keeps what the client sent. The answers are
written in the shape of Gemini's responses (a call, then text): what is under
test is what the client sends of toolturns' parts, and that toolturns reads
the ``GenerateContentResponse`` the client gives back.

google-genai holds ``inlineData.data`` as bytes and sends them as URL-safe
base64 (as it sends a thought signature): the same bytes as toolturns'
standard base64 text.
"""

from __future__ import annotations

import base64
import copy
from typing import Any

from tests.sdk.recorded import RecordedServer, json_reply
from tests.sdk.test_gemini_client import _client, _config, sent_by_google_genai
from toolturns import ChatMessage, ImagePart, TextPart, Tool, gemini

# A PNG's first bytes: standard base64 with + and /, which URL-safe base64 spells otherwise.
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xfb\xff\xfe").decode()
SCREEN = base64.b64encode(b"\x89PNG\r\n\x1a\n\xff\xef\xbe").decode()
SCREENSHOT = Tool("take_screenshot", "Take a screenshot of the page", {"type": "object", "properties": {}})


def _answer(*parts: dict[str, Any]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 9, "totalTokenCount": 309},
        "modelVersion": "gemini-3-flash-preview",
        "responseId": "r-1",
    }


def _as_google_genai_sends(body: dict[str, Any]) -> dict[str, Any]:
    """``sent_by_google_genai`` of ``body``, and the two ways it sends a blob.

    google-genai passes a Blob through as its own dump: ``data`` as URL-safe
    base64, its fields in snake_case (``mime_type``, ``display_name``), and a
    function response's parts likewise (``inline_data``). The REST API reads
    both spellings and both alphabets.
    """
    sent = sent_by_google_genai(copy.deepcopy(body))
    for content in sent["contents"]:
        for part in content["parts"]:
            if "inlineData" in part:
                part["inlineData"] = _blob(part["inlineData"])
            for media in part.get("functionResponse", {}).get("parts", []):
                media["inline_data"] = _blob(media.pop("inlineData"))
    return sent


def _blob(blob: dict[str, Any]) -> dict[str, Any]:
    spelled = {"mimeType": "mime_type", "displayName": "display_name"}
    sent = {spelled.get(key, key): value for key, value in blob.items()}
    sent["data"] = base64.urlsafe_b64encode(base64.b64decode(blob["data"])).decode()
    return sent


def test_an_image_in_a_user_turn_and_a_screenshot_in_a_function_response() -> None:
    """The client sends toolturns' parts as they are (the bytes URL-safe); the answers read back as turns."""
    server = RecordedServer(
        [
            json_reply(_answer({"functionCall": {"name": "take_screenshot", "args": {}, "id": "fc-1"}})),
            json_reply(_answer({"text": "The page shows the same logo as your image."})),
        ]
    )
    history = [
        ChatMessage.user([TextPart("Is this logo on the page?"), ImagePart(data=PNG, media_type="image/png")])
    ]
    bodies = []
    with _client(server) as client:
        for _ in range(2):
            body = gemini.to_request(history, tools=[SCREENSHOT])
            bodies.append(body)
            response = client.models.generate_content(
                model="gemini-3-flash-preview", contents=body["contents"], config=_config(body)
            )
            turn = gemini.from_response(response)
            history.append(turn)
            for call in turn.tool_calls or ():
                history.append(
                    ChatMessage.tool_result(
                        call.id, [TextPart("The page:"), ImagePart(data=SCREEN, media_type="image/png")]
                    )
                )

    assert server.sent == [_as_google_genai_sends(body) for body in bodies]
    assert server.sent[0]["contents"][0]["parts"][1] == {
        "inlineData": {
            "mime_type": "image/png",
            "data": base64.urlsafe_b64encode(base64.b64decode(PNG)).decode(),
        }
    }
    assert server.sent[0]["contents"][0]["parts"][1]["inlineData"]["data"] != PNG
    assert server.sent[1]["contents"][2]["parts"][0]["functionResponse"]["parts"] == [
        {
            "inline_data": {
                "mime_type": "image/png",
                "data": base64.urlsafe_b64encode(base64.b64decode(SCREEN)).decode(),
            }
        }
    ]
    assert history[-1] == ChatMessage.assistant("The page shows the same logo as your image.")
    # What the client sent reads back as the history it came from.
    assert gemini.from_request(server.sent[1]) == history[:-1]

"""A small MCP server (the ``mcp`` SDK's ``MCPServer``) for tests/test_mcp.py.

Imported, the tests connect to ``server`` in process; run as a script
(``python tests/data/mcp_server.py``), it serves the same tools over stdio.
It lives in tests/data, not tests/, because a script's directory comes first
on ``sys.path``, where tests/typing would hide the standard ``typing``.
"""

from __future__ import annotations

from typing import TypedDict

import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Audio, Image

server = MCPServer("toolturns-test")

#: The first bytes of a PNG file and of a WAV file: what the image and audio tools return.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
WAV = b"RIFF$\x00\x00\x00WAVEfmt "
PDF = b"%PDF-1.4\n"


class Weather(TypedDict):
    city: str
    degrees: int


@server.tool(title="Weather", annotations=types.ToolAnnotations(read_only_hint=True))
def get_weather(city: str) -> Weather:
    """Current weather in a city."""
    return {"city": city, "degrees": 18}


@server.tool(structured_output=False)
def describe_city(city: str) -> str:
    """A sentence about a city."""
    return f"{city} is a city."


@server.tool()
def screenshot() -> Image:
    """A screenshot of the screen."""
    return Image(data=PNG, format="png")


@server.tool()
def beep() -> Audio:
    """A short sound."""
    return Audio(data=WAV, format="wav")


@server.tool()
def read_report() -> list[types.ContentBlock]:
    """The report: its notes embedded as text, its PDF embedded, and a link to its data."""
    notes = types.TextResourceContents(uri="file:///report/notes.txt", mime_type="text/plain", text="Sunny.")
    pdf = types.BlobResourceContents(
        uri="file:///report/report.pdf", mime_type="application/pdf", blob=_base64(PDF)
    )
    return [
        types.EmbeddedResource(type="resource", resource=notes),
        types.EmbeddedResource(type="resource", resource=pdf),
        types.ResourceLink(
            type="resource_link", uri="file:///report/data.csv", name="data.csv", mime_type="text/csv"
        ),
    ]


@server.tool()
def find_city(name: str) -> str:
    """Find a city by name."""
    raise ToolError(f"no city named {name}")


def _base64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode("ascii")


if __name__ == "__main__":
    server.run()

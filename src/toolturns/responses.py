"""The OpenAI Responses codec: ``input`` items and ``response`` objects.

Not in the registry yet (``toolturns.providers.PROVIDERS``): the checks
``check_transcript(target="responses")`` needs come next, then the entry.

>>> from toolturns import ChatMessage, Tool, responses
>>> body = responses.to_request([ChatMessage.user("Weather in Paris?")], tools=[Tool("get_weather")])
>>> body["tools"][0]["name"]
'get_weather'
>>> responses.from_request(body) == [ChatMessage.user("Weather in Paris?")]
True
"""

from .providers.responses.read import finish_reason, from_request, from_response
from .providers.responses.stream import StreamAssembler
from .providers.responses.tools import read_tools, tool_definition
from .providers.responses.write import to_request

__all__ = [
    "StreamAssembler",
    "finish_reason",
    "from_request",
    "from_response",
    "read_tools",
    "to_request",
    "tool_definition",
]

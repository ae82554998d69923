"""``Tool``: a tool the model may call, converted by each codec to its shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ._checks import exact_str, lazy_pattern
from ._errors import InvalidTool, describe, renamed
from ._extra import Extra
from ._frozen import field, pickled_fields, refuse_rebuild, slot_names, value_class
from ._json import JSONInput, decode, encode, join_key, value_key
from ._sdk import dumped

if TYPE_CHECKING:
    from dataclasses import InitVar

__all__ = ["NO_PARAMETERS", "Tool", "schema_key"]

# The union of the providers' rules for tool names (each provider's rules
# module has its TOOL_NAME): a name outside it no provider accepts. Each codec's tool_definition,
# and check_transcript with a target, apply that provider's own rule.
_NAME_RULE = "[a-zA-Z0-9_.:-]{1,128}"
_NAME = lazy_pattern(_NAME_RULE)

# Where each shape of a tool definition keeps its schema: OpenAI's and Gemini's
# parameters, Anthropic's input_schema, MCP's inputSchema, Gemini's
# parametersJsonSchema. Reading only "parameters" gave tools of the other
# shapes no parameters at all, silently.
_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema")

# What Tool models of a definition; every other key is kept in Tool.extra.
_MODELLED = frozenset({"type", "function", "name", "description", "strict", *_SCHEMA_KEYS})

#: What a tool without parameters declares: an object with no properties,
#: never ``[]`` or an absent schema (Ollama answers 400 to ``[]``).
NO_PARAMETERS = '{"type":"object","properties":{}}'


@value_class(frozen=True, slots=True, init=False, repr=False, eq=False)
class Tool:
    """A tool the model may call: a name, a description, a JSON schema.

    Args:
        name: Matches ``^[a-zA-Z0-9_.:-]{1,128}$``, the characters and length
            some provider accepts; each codec checks its own, narrower rule
            (OpenAI: ``^[a-zA-Z0-9_-]{1,64}$``) when it writes the tool.
        description: What the tool does, for the model.
        parameters: A JSON-schema object for the arguments; ``None`` or ``{}``
            means none (sent as ``{"type": "object", "properties": {}}``).
            A keyword ``validate`` checks holding what JSON Schema says it
            cannot (``"required": None``, a property's schema ``None``) is
            refused where it is (``parameters.required``): providers answer
            400 to it (docs/tools.md says what is and is not looked at).
        strict: OpenAI's and Anthropic's ``strict`` (arguments that always
            match the schema); ``None``, the default, sends none.
        extra: The definition's keys no field models (MCP's ``title``,
            ``annotations``, ``outputSchema``), kept so that nothing is lost.
            No codec sends them: each refuses a tool with extra keys unless
            told to drop what its wire cannot carry.

    Raises:
        InvalidTool: the name, description or schema breaks a rule.

    >>> tool = Tool("get_weather", "Current weather", {"type": "object",
    ...     "properties": {"city": {"type": "string"}}, "required": ["city"]})
    >>> tool.parameters["required"]
    ['city']
    >>> Tool("get_time").parameters
    {'type': 'object', 'properties': {}}
    """

    name: str
    description: str
    if TYPE_CHECKING:
        pass  # type checkers see the parameters property only
    else:
        # Not a field: the constructor's argument, which dataclasses.replace
        # passes (it reads the property below for it), so that replace builds
        # through __init__ and checks every rule again.
        parameters: InitVar[Mapping[str, JSONInput] | None]
    parameters_json: str = field(init=False)
    strict: bool | None
    extra: Extra

    def __init__(
        self,
        name: str,
        description: str = "",
        parameters: Mapping[str, JSONInput] | None = None,
        *,
        strict: bool | None = None,
        extra: Mapping[str, JSONInput] | None = None,
    ) -> None:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise InvalidTool("name", f"must match ^{_NAME_RULE}$", describe(name))
        if not isinstance(description, str):
            raise InvalidTool("description", "must be a string", describe(description))
        if strict is not None and type(strict) is not bool:
            raise InvalidTool("strict", "must be a boolean or None", describe(strict))
        object.__setattr__(self, "name", exact_str(name))
        object.__setattr__(self, "description", exact_str(description))
        object.__setattr__(self, "parameters_json", _schema_text(parameters))
        object.__setattr__(self, "strict", strict)
        object.__setattr__(
            self, "extra", Extra.build(extra, path="extra", reserved=_MODELLED, error=InvalidTool)
        )

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON schema of the arguments, as a fresh dict.

        >>> schema = Tool("get_weather", parameters={"type": "object", "required": ["city"]}).parameters
        >>> schema["required"].append("unit")  # a copy: the tool is unchanged
        >>> Tool("get_weather", parameters={"type": "object", "required": ["city"]}).parameters["required"]
        ['city']
        """
        schema: dict[str, Any] = decode(self.parameters_json)  # type: ignore[assignment]
        return schema

    @classmethod
    def from_dict(cls, data: object) -> Tool:
        """Read an OpenAI tool definition, or a bare ``{name, description, <schema>}``.

        The schema is read under the key each shape gives it: ``parameters``
        (OpenAI, Gemini), ``input_schema`` (Anthropic), ``inputSchema`` (MCP)
        or ``parametersJsonSchema`` (Gemini); two of them at once are refused.
        ``strict`` is read, and every other key (MCP's ``title``,
        ``annotations`` and ``outputSchema``) is kept in ``extra``, the keys
        of an OpenAI definition's ``function`` and those beside it alike.

        >>> Tool.from_dict({"type": "function", "function": {"name": "get_time"}})
        Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}})
        >>> Tool.from_dict({"name": "get_weather", "inputSchema": {"type": "object", "required": ["city"]}}).parameters
        {'type': 'object', 'required': ['city']}
        >>> Tool.from_dict({"name": "get_time", "title": "Time", "strict": True})
        Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}}, strict=True, extra={'title': 'Time'})
        >>> Tool.from_dict({"type": "code_interpreter"})
        Traceback (most recent call last):
        ...
        toolturns.InvalidTool: type: must be 'function' (only function tools are supported), got 'code_interpreter'
        """
        if not isinstance(data, Mapping) and not isinstance(data := dumped(data), Mapping):
            raise InvalidTool("", "must be an object", describe(data))
        kind = data.get("type")
        if "function" not in data and kind is not None and kind != "function":
            raise InvalidTool(
                "type", "must be 'function' (only function tools are supported)", describe(kind)
            )
        prefix = ""
        outer: Mapping[Any, Any] = {}
        if "function" in data:
            kind = data.get("type")
            if kind is not None and kind != "function":
                raise InvalidTool("type", "must be 'function'", describe(kind))
            prefix, outer, data = "function", data, data["function"]
            if not isinstance(data, Mapping) and not isinstance(data := dumped(data), Mapping):
                raise InvalidTool(prefix, "must be an object", describe(data))
        extra = _extra_keys(outer, data)
        try:
            given = [key for key in _SCHEMA_KEYS if data.get(key) is not None]
            if len(given) > 1:
                raise InvalidTool(given[1], f"must not be given with {given[0]} (a tool has one schema)")
            schema = given[0] if given else "parameters"
            # A missing or null description is none; any other non-string is refused by Tool.
            description = data.get("description")
            try:
                return cls(
                    data.get("name"),  # type: ignore[arg-type]  # checked by Tool
                    "" if description is None else description,
                    data.get(schema),
                    strict=data.get("strict"),
                    extra=extra,
                )
            except InvalidTool as error:
                raise renamed(error, "parameters", schema) from None
        except InvalidTool as error:
            raise error.with_prefix(prefix) from None

    @classmethod
    def from_function(
        cls, fn: Callable[..., object], *, name: str | None = None, description: str | None = None
    ) -> Tool:
        """The tool a Python function is: its name, its docstring's first paragraph, its type hints' schema.

        Per-parameter descriptions come from ``Annotated[T, "..."]`` or the
        docstring's Google, NumPy or Sphinx section; docs/tools.md has the
        table of types.

        >>> def get_weather(city: str, days: int = 1) -> str:
        ...     '''The weather in a city.
        ...
        ...     Args:
        ...         city: The city's name.
        ...     '''
        ...     return "sunny"
        >>> Tool.from_function(get_weather)
        Tool(name='get_weather', description='The weather in a city.', parameters={'type': 'object', 'properties': {'city': {'type': 'string', 'description': "The city's name."}, 'days': {'type': 'integer', 'default': 1}}, 'required': ['city'], 'additionalProperties': False})

        Raises:
            InvalidTool: a parameter has no JSON form (``*args``, no annotation,
                a type such as ``bytes``), naming it: ``parameters.when``.
        """
        from ._signature import Signature  # imported on first use: it imports inspect

        return Signature(fn, name=name, description=description).tool

    def validate(self, arguments: Mapping[str, object]) -> None:
        """Check decoded arguments against ``parameters``, with JSON Schema's semantics.

        The subset of JSON Schema tool parameters use (docs/tools.md lists the
        keywords checked and those ignored). The schema is compiled once per
        schema, so checking many calls of one tool is cheap.

        >>> tool = Tool("get_weather", parameters={"type": "object",
        ...     "properties": {"days": {"type": "array", "items": {"type": "integer"}}}})
        >>> tool.validate({"days": [1, 2.0]})
        >>> tool.validate({"days": [1, True]})
        Traceback (most recent call last):
        ...
        toolturns.InvalidArguments: days[1]: must be an integer, got True

        Raises:
            InvalidArguments: the first value that breaks a rule, its path in
                the arguments (``trip.stops[0].city``).
            InvalidTool: the schema itself is not one (``"minimum": "3"``).
        """
        _validate(self.parameters_json, arguments)

    def __setstate__(self, state: object) -> None:
        # Unpickling (and copy): the fields in order, as the dataclass pickles
        # them (0.1.0's had no strict or extra), checked as the constructor checks them.
        refuse_rebuild(self, "name")
        name, description, parameters_json, strict, extra = pickled_fields(
            state, _FIELDS, InvalidTool, added=(None, None)
        )
        Tool.__init__(self, name, description, _pickled_schema(parameters_json), strict=strict, extra=extra)

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.description, value_key(self.parameters_json), self.strict, self.extra)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tool):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = f"Tool(name={self.name!r}, description={self.description!r}, parameters={self.parameters!r}"
        if self.strict is not None:
            shown += f", strict={self.strict!r}"
        if self.extra:
            shown += f", extra={dict(self.extra)!r}"
        return shown + ")"


def _extra_keys(outer: Mapping[Any, Any], function: Mapping[Any, Any]) -> dict[Any, Any]:
    """The keys of a definition no field models: beside ``function`` and inside it (or of a flat one)."""
    extra = {key: value for key, value in function.items() if key not in _MODELLED}
    for key, value in outer.items():
        if key not in _MODELLED:
            if key in extra:
                raise InvalidTool(
                    join_key("function", key),
                    f"must not also be given beside function, got {describe(outer[key])} there",
                )
            extra[key] = value
    return extra


def schema_key(definition: Mapping[Any, Any]) -> str:
    """The key a tool definition (a dict ``Tool.from_dict`` reads) holds its schema under, as
    ``from_dict`` finds it: ``parameters``, ``input_schema``, ``inputSchema``... (of its
    ``function``, in OpenAI's shape, whose path the caller says)."""
    inner = definition.get("function")
    if inner is not None and not isinstance(inner, Mapping):
        inner = dumped(inner)  # an SDK object, as from_dict reads it
    given = inner if isinstance(inner, Mapping) else definition
    return next((key for key in _SCHEMA_KEYS if given.get(key) is not None), "parameters")


def _schema_text(parameters: object) -> str:
    if parameters is None or (isinstance(parameters, Mapping) and not parameters):
        return NO_PARAMETERS
    if not isinstance(parameters, Mapping):
        raise InvalidTool(
            "parameters", "must be a JSON-schema object (a mapping) or None", describe(parameters)
        )
    kind = parameters.get("type", "object")
    if kind != "object":
        raise InvalidTool("parameters.type", "must be 'object' (arguments are a JSON object)", describe(kind))
    text = encode(parameters, "parameters", InvalidTool)
    _check_schema(text)  # read as it is sent: tuples are arrays there
    return text


_FIELDS = slot_names(Tool)


def _first_check_schema(schema_text: str) -> None:
    # _schema is imported when a tool with parameters is first made (import toolturns
    # does not load it, nor re); from then on _check_schema is its function.
    global _check_schema
    from ._schema import check_schema

    _check_schema = check_schema
    check_schema(schema_text)


_check_schema: Callable[[str], None] = _first_check_schema


def _first_validate(schema_text: str, arguments: object) -> None:
    # _schema is imported when a tool first validates (most programs never do);
    # from then on _validate is its function, with no import on the way.
    global _validate
    from ._schema import validate

    _validate = validate
    validate(schema_text, arguments)


_validate: Callable[[str, object], None] = _first_validate


def _pickled_schema(text: object) -> Mapping[str, Any] | None:
    """The schema a pickled ``parameters_json`` holds; Tool checks it is an object schema."""
    # try/except, not contextlib.suppress: on Python 3.13 nothing else imports contextlib.
    try:
        schema = decode(text) if isinstance(text, str) else None
    except ValueError:
        schema = None
    if isinstance(schema, dict):
        return schema
    raise InvalidTool("parameters_json", "must be the JSON text of a schema object", describe(text))

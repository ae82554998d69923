"""Batch functions for dataset engines: Hugging Face ``datasets``, Ray Data, Spark.

``check_batch`` and ``convert_batch`` take a batch of rows as columns (a
``dict`` of column name to list of values, what ``Dataset.map(batched=True)``
hands over) and return new columns, one value per row, each column of one
fixed type for every row and batch, so that Arrow can store them:

- ``check_batch``: ``problems`` (the JSON text of the row's problems, ``"[]"``
  when clean) and ``clean`` (a bool, for ``filter``);
- ``convert_batch``: ``body`` (the JSON text of the request body, or None),
  ``error`` (why the row cannot be converted, or None) and ``dropped`` (the
  JSON text of what ``drop_unsupported`` left out, ``"[]"`` when nothing).

Both are module-level functions, so they pickle: ``num_proc=N``, Ray and
Spark workers get them by name. This module imports no dataset library;
docs/datasets.md shows each engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ._errors import InvalidTranscript, MessageError, describe
from ._json import SameJSON, kind_of, unpadded
from ._transcript import Problem, _registry, check_transcript

if TYPE_CHECKING:
    from .providers import Provider

__all__ = ["check_batch", "convert_batch"]

# JSON text written into the new columns: compact, UTF-8 as it is (Arrow stores UTF-8).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_NO_PROBLEMS = "[]"


def check_batch(
    batch: object,
    *,
    target: str | None = None,
    column: str = "messages",
    tools_column: str | None = "tools",
    allow_pending: bool = True,
) -> dict[str, list[Any]]:
    """The problems of each row of a batch, as ``check_transcript`` gives them, in two new columns.

    Args:
        batch: Columns of rows: a mapping of column name to the rows' values
            (``Dataset.map(batched=True)``, Ray's ``map_batches``), a pandas
            DataFrame or a pyarrow Table. A row's ``column`` holds its
            messages (a list of OpenAI-shape message dicts, or its JSON text);
            ``tools_column`` its tool definitions (a list, its JSON text, or
            None).
        target: A provider whose own rules are added, as ``check_transcript``'s.
        column: The column of the messages.
        tools_column: The column of the tools; None reads no tools. The
            default ``"tools"`` may be missing from the batch (a dataset
            without tools); a column named otherwise must be there.
        allow_pending: As ``check_transcript``'s.

    Returns:
        ``{"problems": [...], "clean": [...]}``: per row, the JSON text of a
        list of ``{"index", "path", "code", "message"}`` objects (``"[]"``
        when clean), and whether it is clean. A row that does not read (not a
        list, JSON text that is not JSON) is a problem of its own, never an
        exception.

    Raises:
        InvalidTranscript: a column is missing, the columns differ in
            length, or an argument is not one ``check_transcript`` takes.

    >>> batch = {"messages": [[{"role": "user", "content": "Hi"}], '[{"role": "tool", "content": "18 C"}]']}
    >>> result = check_batch(batch)
    >>> result["clean"]
    [True, False]
    >>> print(result["problems"][1])
    [{"index":0,"path":"messages[0].tool_call_id","code":"invalid_message","message":"is required on tool messages"}]
    """
    if target is not None:
        _check_target(target)
    if type(allow_pending) is not bool:
        raise InvalidTranscript("allow_pending", "must be a boolean", describe(allow_pending))
    rows = _Rows(batch, column, tools_column, lists_equal=True)
    problems: list[str] = []
    clean: list[bool] = []
    for messages, tools in rows:
        found = _row_problems(messages, tools, rows, target, allow_pending)
        problems.append(_problems_text(found) if found else _NO_PROBLEMS)
        clean.append(not found)
    return {"problems": problems, "clean": clean}


def convert_batch(
    batch: object,
    *,
    to: str,
    column: str = "messages",
    tools_column: str | None = "tools",
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
) -> dict[str, list[Any]]:
    """Each row of a batch as the request body of ``to``, or the reason it cannot be, in three new columns.

    A row is read as ``toolturns convert`` reads a line: OpenAI-shape
    messages and tools (lists or their JSON text), converted with
    ``to_request(..., keep_invalid_arguments=..., drop_unsupported=...)``.

    Returns:
        ``{"body": [...], "error": [...], "dropped": [...]}``: per row, the
        body as compact JSON text (None when the row cannot be converted),
        why not as ``PATH: REASON`` (None when converted), and the JSON text
        of what ``drop_unsupported`` left out, a list of ``{"path", "what"}``
        (``"[]"`` when nothing).

    Raises:
        InvalidTranscript: a column is missing, the columns differ in
            length, ``to`` is not a provider, or an option is not a bool.

    >>> result = convert_batch({"messages": [[{"role": "user", "content": "Hi", "name": "bob"}]]},
    ...                        to="anthropic", drop_unsupported=True)
    >>> result["body"], result["error"]
    (['{"messages":[{"role":"user","content":"Hi"}]}'], [None])
    >>> print(result["dropped"][0])
    [{"path":"messages[0].name","what":"the name 'bob'"}]
    """
    provider = _check_target(to, "to")
    for name, value in (
        ("keep_invalid_arguments", keep_invalid_arguments),
        ("drop_unsupported", drop_unsupported),
    ):
        if type(value) is not bool:
            raise InvalidTranscript(name, "must be a boolean", describe(value))
    rows = _Rows(batch, column, tools_column, lists_equal=False)
    reader = _registry()["openai"].codec
    writer = provider.codec
    bodies: list[str | None] = []
    errors: list[str | None] = []
    dropped: list[str] = []
    for raw_messages, raw_tools in rows:
        try:
            messages = reader.from_request(rows.messages(raw_messages))
            tools_value = rows.tools(raw_tools)
            tools = None if tools_value is None else reader.read_tools(tools_value)
            body = writer.to_request(
                messages,
                tools=tools,
                keep_invalid_arguments=keep_invalid_arguments,
                drop_unsupported=drop_unsupported,
            )
        except _Unread as error:
            bodies.append(None)
            errors.append(f"{error.path}: {error.message}")
            dropped.append(_NO_PROBLEMS)
            continue
        except MessageError as error:
            bodies.append(None)
            errors.append(f"{error.path or column}: {error.reason}")
            dropped.append(_NO_PROBLEMS)
            continue
        bodies.append(_ENCODER.encode(body))
        errors.append(None)
        dropped.append(_dropped_text(messages, tools, to) if drop_unsupported else _NO_PROBLEMS)
    return {"body": bodies, "error": errors, "dropped": dropped}


# -- the arguments -----------------------------------------------------------------------


def _check_target(target: object, name: str = "target") -> Provider:
    registry = _registry()
    if not isinstance(target, str) or target not in registry:
        raise InvalidTranscript(name, f"must be one of {', '.join(map(repr, registry))}", describe(target))
    return registry[target]


# -- reading the rows --------------------------------------------------------------------


class _Unread(Exception):
    """A cell that holds no messages or tools: where (the column), the code and why."""

    def __init__(self, path: str, code: str, message: str) -> None:
        super().__init__(path, code, message)
        self.path = path
        self.code = code
        self.message = message


class _Rows:
    """The (messages, tools) cells of a batch, row by row, and how to read each."""

    __slots__ = ("column", "last_tools", "lists_equal", "messages_cells", "tools_cells", "tools_column")

    def __init__(self, batch: object, column: str, tools_column: str | None, *, lists_equal: bool) -> None:
        columns = _columns(batch)
        for name, value in (("column", column), ("tools_column", tools_column)):
            if value is not None and not isinstance(value, str):
                raise InvalidTranscript(name, "must be a column name (a string)", describe(value))
        self.column = column
        self.tools_column = tools_column
        self.lists_equal = lists_equal
        # The last tools cell read, and the list read from it the second time (None until then).
        self.last_tools: tuple[object, list[Any] | None] | None = None
        self.messages_cells = _column(columns, column, "column")
        self.tools_cells: Sequence[object] | None = None
        if tools_column is not None and (tools_column in columns or tools_column != "tools"):
            self.tools_cells = _column(columns, tools_column, "tools_column")
            if len(self.tools_cells) != len(self.messages_cells):
                raise InvalidTranscript(
                    "tools_column",
                    f"must have as many rows as column {column!r} ({len(self.messages_cells)})",
                    f"{len(self.tools_cells)} rows in {tools_column!r}",
                )

    def __iter__(self) -> Any:
        if self.tools_cells is None:
            return ((cell, None) for cell in self.messages_cells)
        return zip(self.messages_cells, self.tools_cells, strict=True)

    def messages(self, cell: object) -> list[Any]:
        """A row's messages: its list, or the list its JSON text holds; else ``_Unread``."""
        value = _cell_value(cell, self.column)
        if isinstance(value, list):
            return value
        raise _Unread(
            self.column,
            "not_a_transcript",
            f"must be an array of messages or its JSON text, got {kind_of(value)}",
        )

    def tools(self, cell: object) -> list[Any] | None:
        """A row's tools (None for none), Arrow's null members left out of a list of definitions.

        A dataset sends the same tools with most rows. A cell equal to the cell of the
        row before is not read again, from the third time on: the list read the second
        time is given again. Not the first list read: ``check_transcript`` remembers a
        tool list (and skips reading it) once two equal lists that are not the same
        object came in a row. Text is compared as text; a list only when
        ``self.lists_equal``, as the same JSON (``SameJSON``: ``True`` is not ``1``), and
        never for a converted body, which must be written from its own row.
        """
        if cell is None:
            return None
        last = self.last_tools
        if last is not None and _same_cell(last[0], cell, self.lists_equal):
            if last[1] is None:
                self.last_tools = (last[0], self.read_tools(cell))
                return self.last_tools[1]
            return last[1]
        self.last_tools = None
        tools = self.read_tools(cell)
        if tools is not None:
            self.last_tools = (SameJSON(cell) if type(cell) is list else cell, None)
        return tools

    def read_tools(self, cell: object) -> list[Any] | None:
        assert self.tools_column is not None  # a cell comes only from a tools column
        value = _cell_value(cell, self.tools_column)
        if value is None:
            return None
        if not isinstance(value, list):
            raise _Unread(
                self.tools_column,
                "not_a_transcript",
                f"must be an array of tool definitions, its JSON text or null, got {kind_of(value)}",
            )
        # A list from JSON text holds what its text says; one from Arrow has a null for
        # every key another row's definition has: absent.
        if isinstance(cell, str):
            return value
        try:
            stripped: list[Any] = unpadded(value)
        except RecursionError:  # a cycle, or nesting no JSON has: check_transcript says what it is
            return value
        return stripped


def _same_cell(last: object, cell: object, lists_equal: bool) -> bool:
    if type(cell) is str:
        return type(last) is str and last == cell
    if not lists_equal or type(cell) is not list or type(last) is not SameJSON:
        return False
    return last.matches(cell)  # True is not 1: a schema may be refused for one and not the other


def _columns(batch: object) -> Mapping[Any, Any]:
    """The batch as a mapping of column name to values: pandas and pyarrow batches by duck typing."""
    if isinstance(batch, Mapping):
        return batch
    to_pydict = getattr(batch, "to_pydict", None)  # a pyarrow Table or RecordBatch
    if callable(to_pydict):
        return _mapping(to_pydict(), batch)
    to_dict = getattr(batch, "to_dict", None)  # a pandas DataFrame
    if callable(to_dict):
        return _mapping(to_dict("list"), batch)
    raise InvalidTranscript(
        "batch",
        "must be a mapping of column names to values, a pandas DataFrame or a pyarrow Table",
        describe(batch),
    )


def _mapping(value: object, batch: object) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise InvalidTranscript("batch", "must give its columns as a mapping", describe(batch))
    return value


def _column(columns: Mapping[Any, Any], name: str, keyword: str) -> Sequence[object]:
    if name not in columns:
        there = ", ".join(map(repr, columns)) or "none"
        raise InvalidTranscript(
            keyword, f"must name a column of the batch (the columns: {there})", repr(name)
        )
    cells: object = columns[name]
    if isinstance(cells, (list, tuple)):
        return cells
    if isinstance(cells, (str, bytes)) or not hasattr(cells, "__len__") or not hasattr(cells, "__iter__"):
        raise InvalidTranscript(
            keyword, f"must name a column of values, one per row; {name!r} holds", describe(cells)
        )
    return list(cast("Iterable[object]", cells))  # a numpy array or pandas Series: its items


def _cell_value(cell: object, column: str) -> object:
    """A cell as plain Python values: JSON text decoded, numpy arrays (pandas, Ray) as lists."""
    if type(cell) is list:
        return cell
    if isinstance(cell, str):
        return _decoded(cell, column)
    if hasattr(cell, "tolist") and not isinstance(cell, (list, tuple, dict)):
        try:
            return _plain(cell)
        except RecursionError:  # a cycle, or nesting no JSON has: not a transcript
            return cell
    if isinstance(cell, tuple):
        return list(cell)
    return cell


def _plain(value: Any) -> Any:
    """A value with numpy arrays inside (Arrow's lists as pandas holds them) as plain lists and dicts."""
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple, dict, str)):
        value = value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _decoded(text: str, column: str) -> object:
    """A cell's JSON text, decoded strictly (no NaN, no number out of range) and refusing a key
    repeated in an object: json keeps the last value silently, another reader the first."""
    from ._json import _DECODER, _EXACT, RepeatedKey

    try:
        try:
            return _EXACT.decode(text)
        except RepeatedKey:
            _DECODER.decode(text)  # is it JSON at all? If not, that is what is said
            raise
    except RepeatedKey:
        raise _Unread(
            _repeated_path(text, column),
            "duplicate_key",
            "is a key its object already has: JSON readers keep one of the values (Python's the last), "
            "so the text does not say one thing",
        ) from None
    except json.JSONDecodeError as error:
        raise _Unread(
            column, "invalid_json", f"is not JSON text: {error.msg} at character {error.pos + 1}"
        ) from None
    except RecursionError:
        raise _Unread(column, "invalid_json", "is not JSON text toolturns reads: nested too deeply") from None
    except ValueError as error:  # NaN, a number out of range, an integer of too many digits
        raise _Unread(column, "invalid_json", f"is not JSON text: {error}") from None


def _repeated_path(text: str, column: str) -> str:
    # The command line's careful reading says where the first repeat is.
    from ._cli import _PAIRS, _first_repeat

    return _first_repeat(_PAIRS.decode(text), column) or column


# -- the columns made ------------------------------------------------------------------------


def _row_problems(
    messages_cell: object, tools_cell: object, rows: _Rows, target: str | None, allow_pending: bool
) -> list[Problem]:
    try:
        messages = rows.messages(messages_cell)
        tools = rows.tools(tools_cell)
    except _Unread as error:
        return [Problem(None, error.path, error.code, error.message)]
    return check_transcript(messages, target=target, tools=tools, allow_pending=allow_pending)


def _problems_text(problems: list[Problem]) -> str:
    return _ENCODER.encode(
        [
            {"index": problem.index, "path": problem.path, "code": problem.code, "message": problem.message}
            for problem in problems
        ]
    )


def _dropped_text(messages: Sequence[Any], tools: Sequence[Any] | None, to: str) -> str:
    from .providers._shared import unsupported

    found = unsupported(messages, tools or (), to)
    return _ENCODER.encode([{"path": path, "what": what} for path, what in found]) if found else _NO_PROBLEMS

"""The fast paths the Responses stream takes on the common shapes give what the general paths give.

``owned`` copies decoded JSON (exact dicts and lists of JSON scalars, not
deep) with a recursive walk and leaves anything else to the general,
iterative one: the two must give equal copies of the same types, sharing no
container with what was fed, or the same error.
"""

from __future__ import annotations

import sys
from collections import UserString
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import deep_json, json_leaves, json_values
from toolturns import MessageError
from toolturns.providers._stream import _PLAIN_DEPTH, _walked_copy, owned


class _Dict(dict[Any, Any]):
    pass


class _List(list[Any]):
    pass


class _Text(str):
    pass


def _odd_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Containers the fast walk leaves to the general one, beside the ones it takes."""
    lists = st.lists(children, max_size=3)
    dicts = st.dictionaries(st.one_of(st.text(max_size=2), st.integers()), children, max_size=3)
    return st.one_of(
        lists, dicts, lists.map(tuple), lists.map(_List), dicts.map(_Dict), st.just(UserString("u"))
    )


def _nested(depth: int, inner: Any) -> Any:
    value = inner
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
    return value


_ODD_LEAVES = st.one_of(json_leaves(), st.just(_Text("t")), st.just(b"bytes"), st.just(object()))

#: Containers of containers, some of them ones the fast walk leaves to the general one.
_ODD = _odd_containers(st.recursive(_ODD_LEAVES, _odd_containers, max_leaves=12))

_VALUES = st.one_of(
    json_values(),
    deep_json(min_depth=_PLAIN_DEPTH - 2, max_depth=_PLAIN_DEPTH + 2),
    _ODD,
    _ODD,
    st.builds(_nested, st.sampled_from([499, 500, 501]), json_values(deep=False)),
)


def _outcome(copy: Callable[[Any, str], Any], value: Any) -> tuple[str, Any]:
    try:
        return "copied", copy(value, "at.path")
    except MessageError as error:
        return "refused", (type(error), str(error), error.path)


def _places(*values: Any) -> Iterator[tuple[Any, ...]]:
    """The values found at each same place of ``values`` (iterative: they may nest 500 levels)."""
    pending = [values]
    while pending:
        found = pending.pop()
        yield found
        first = found[0]
        if isinstance(first, dict):
            assert all(isinstance(other, dict) and list(other) == list(first) for other in found)
            pending.extend(tuple(other[key] for other in found) for key in first)
        elif isinstance(first, (list, tuple)):
            assert all(isinstance(other, (list, tuple)) and len(other) == len(first) for other in found)
            pending.extend(zip(*found, strict=True))


def _same_copies(fast: Any, general: Any, fed: Any) -> None:
    """``fast`` and ``general`` alike, of the same types, plain ones, sharing no container with ``fed``."""
    for a, b, original in _places(fast, general, fed):
        assert type(a) is type(b)
        if isinstance(a, (dict, list, tuple)):
            assert type(a) in (dict, list, tuple)
            assert a is not original or a == ()  # a copy (CPython has one empty tuple)
        else:
            assert a is b is original  # a leaf kept as it is


@given(_VALUES)
def test_owned_copies_as_the_general_walk_does(value: Any) -> None:
    """The fast walk and the general walk: equal copies, of the same plain types, or the same error."""
    fast, general = _outcome(owned, value), _outcome(_walked_copy, value)
    assert fast[0] == general[0]
    if fast[0] == "refused":
        assert fast == general
    else:
        _same_copies(fast[1], general[1], value)


def test_owned_refuses_a_circular_value_as_the_general_walk_does() -> None:
    circular: dict[str, Any] = {"a": [1]}
    circular["a"].append(circular)
    assert _outcome(owned, circular) == _outcome(_walked_copy, circular)
    assert _outcome(owned, circular)[0] == "refused"


def _depth() -> int:
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_owned_on_a_deep_stack_falls_back_to_the_general_walk() -> None:
    """Called where the stack is nearly full, the recursive walk runs out of it: the general walk copies."""
    value = _nested(_PLAIN_DEPTH - 1, {"x": [1]})
    limit = sys.getrecursionlimit()

    def deep(levels: int) -> Any:
        return owned(value, "at") if not levels else deep(levels - 1)

    sys.setrecursionlimit(_depth() + 80)
    try:
        copy = deep(60)  # 20 frames left: fewer than the fast walk needs
    finally:
        sys.setrecursionlimit(limit)
    assert copy == value
    _same_copies(copy, _walked_copy(value, "at"), value)

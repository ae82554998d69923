"""toolturns.datasets' batch functions, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module runs none of them;
``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, assert_type

from toolturns import InvalidTranscript
from toolturns.datasets import check_batch, convert_batch

from ._cases import correct, gap, mistake

_BATCH = {"messages": [[{"role": "user", "content": "Hi"}]], "tools": [None]}


# -- correct code ---------------------------------------------------------------------------------


@correct
def batch_functions_return_columns() -> None:
    """Both take any batch (a dict of columns, a DataFrame, a Table) and return new columns."""
    checked = check_batch(_BATCH, target="anthropic", allow_pending=False)
    assert_type(checked, dict[str, list[Any]])
    assert checked["clean"] == [True]
    converted = convert_batch(_BATCH, to="gemini", keep_invalid_arguments=True, drop_unsupported=True)
    assert_type(converted, dict[str, list[Any]])
    assert converted["error"] == [None]


@correct
def partials_are_batch_functions() -> None:
    """functools.partial fixes the options, as Dataset.map(num_proc=N) and Ray take it."""
    to_ollama: Callable[[object], dict[str, list[Any]]] = functools.partial(convert_batch, to="ollama")
    assert to_ollama(_BATCH)["body"] == ['{"messages":[{"role":"user","content":"Hi"}]}']


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it; an ignore that silences nothing fails the check.


@mistake(TypeError)
def target_positional() -> None:
    """The options are keyword-only."""
    # Mistake: the target passed by position.
    check_batch(_BATCH, "anthropic")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def convert_without_to() -> None:
    """convert_batch needs the provider to write."""
    # Mistake: no to=.
    convert_batch(_BATCH)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(InvalidTranscript)
def column_not_a_name() -> None:
    """A column is named by a string."""
    # Mistake: the column given as a list of names.
    check_batch(_BATCH, column=["messages"])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


# -- mistakes only the run time refuses -------------------------------------------------------------


@gap(InvalidTranscript)
def a_provider_that_is_not_one() -> None:
    """target is a str: no checker knows the registry's names."""
    check_batch(_BATCH, target="claude")

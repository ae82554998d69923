"""The registry the ``check_*`` modules fill, so that the test suite can also run every example.

The type checkers prove the static half (correct code passes, each mistake is
flagged); ``test_examples.py`` proves the run-time half: the correct examples
run, and each mistake, flagged or not, is refused when it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["CORRECT", "GAPS", "MISTAKES", "correct", "gap", "mistake"]

Example = Callable[[], object]
_Function = TypeVar("_Function", bound=Example)

#: Code a user writes that type-checks and runs.
CORRECT: list[Example] = []
#: A mistake both checkers (or the one named in its docstring) flag, and the error it raises when run.
MISTAKES: list[tuple[Example, type[BaseException]]] = []
#: A mistake no checker flags today, and the error that refuses it at run time.
GAPS: list[tuple[Example, type[BaseException]]] = []


def correct(function: _Function) -> _Function:
    """Register code that must type-check and run."""
    CORRECT.append(function)
    return function


def mistake(error: type[BaseException]) -> Callable[[_Function], _Function]:
    """Register a flagged mistake that raises ``error`` when it runs."""

    def register(function: _Function) -> _Function:
        MISTAKES.append((function, error))
        return function

    return register


def gap(error: type[BaseException]) -> Callable[[_Function], _Function]:
    """Register a mistake the checkers accept; ``error`` is what stops it at run time."""

    def register(function: _Function) -> _Function:
        GAPS.append((function, error))
        return function

    return register

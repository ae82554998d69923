"""The run-time half of the typing examples: correct code runs, and every mistake is refused.

The type checkers prove the static half. Running the examples keeps them
honest: a correct example that failed would be a wrong claim about the API,
and a flagged mistake that ran would mean the types are stricter than the
library.
"""

from __future__ import annotations

import pytest

from . import check_codecs, check_datasets, check_loop, check_messages, check_repair, check_transcripts
from ._cases import CORRECT, GAPS, MISTAKES, Example

MODULES = (check_codecs, check_datasets, check_loop, check_messages, check_repair, check_transcripts)


def _name(example: Example) -> str:
    return f"{example.__module__.rpartition('.')[2]}.{example.__name__}"


def test_every_example_is_registered() -> None:
    """Each public function of a check module is registered exactly once, so none is left unrun."""
    registered = [_name(example) for example in CORRECT] + [_name(example) for example, _ in MISTAKES + GAPS]
    public = [
        f"{module.__name__.rpartition('.')[2]}.{name}"
        for module in MODULES
        for name, value in vars(module).items()
        if callable(value)
        and getattr(value, "__module__", None) == module.__name__
        and not name.startswith("_")
        and not isinstance(value, type)
    ]
    assert sorted(registered) == sorted(public)
    assert len(set(registered)) == len(registered)


@pytest.mark.parametrize("example", CORRECT, ids=_name)
def test_correct_code_runs(example: Example) -> None:
    """Code that type-checks runs without error (its own assertions included)."""
    example()


@pytest.mark.parametrize(("example", "error"), MISTAKES, ids=[_name(example) for example, _ in MISTAKES])
def test_flagged_mistakes_are_refused_at_run_time(example: Example, error: type[BaseException]) -> None:
    """Each mistake the checkers flag also raises its error when it runs: they flag real bugs, not false alarms."""
    with pytest.raises(error):
        example()


@pytest.mark.parametrize(("example", "error"), GAPS, ids=[_name(example) for example, _ in GAPS])
def test_unflagged_mistakes_are_refused_at_run_time(example: Example, error: type[BaseException]) -> None:
    """A mistake the checkers accept is still refused by run-time validation."""
    with pytest.raises(error):
        example()

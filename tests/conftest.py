"""Shared test setup: hypothesis settings and the golden wire examples."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# The machine running CI is small and noisy: judge properties by their
# examples, never by how long one took.
settings.register_profile(
    "toolturns",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI runs the whole suite under coverage on 2 cores, where tracing makes every
# example several times slower; half the examples keep it within minutes.
# Derandomized: the same examples every run, so that a line only a property's
# examples reach is covered in every run or in none (random ones failed the
# 100% bar by chance). Local runs keep hypothesis's default of 100, random.
settings.register_profile(
    "toolturns-ci", parent=settings.get_profile("toolturns"), max_examples=50, derandomize=True
)
settings.load_profile("toolturns-ci" if os.environ.get("CI") else "toolturns")


def wire_examples(provider: str, kind: str | None = None) -> list[dict[str, Any]]:
    """The examples of ``tests/data/wire_examples.json`` for one provider."""
    examples: list[dict[str, Any]] = json.loads((DATA / "wire_examples.json").read_text("utf-8"))
    return [e for e in examples if e["provider"] == provider and (kind is None or e["kind"] == kind)]


def stable_id(value: object) -> str:
    """A test id from ``repr(value)`` without the memory address some reprs hold, so that
    every pytest-xdist worker collects the same test ids."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


class Frozen(Mapping[str, Any]):
    """A read-only mapping that is not a dict, as callers may pass where JSON objects go."""

    def __init__(self, **items: Any) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

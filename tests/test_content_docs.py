"""docs/content.md's table of which part each role carries is each wire's ``rules.PARTS``."""

from __future__ import annotations

from pathlib import Path

from toolturns import Role
from toolturns.providers import PROVIDERS

_DOC = Path(__file__).resolve().parent.parent / "docs" / "content.md"
_ORDER = ["text", "image", "file", "audio"]


def _table_rows() -> dict[str, list[str]]:
    lines = _DOC.read_text("utf-8").splitlines()
    start = lines.index("| role | " + " | ".join(PROVIDERS[name].title for name in PROVIDERS) + " |")
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        role, *cells = (cell.strip() for cell in line.strip("|").split("|"))
        rows[role] = cells
    return rows


def test_the_docs_table_is_each_wires_parts() -> None:
    expected = {
        role.value: [
            ", ".join(
                sorted(
                    (kind.__name__.removesuffix("Part").lower() for kind in PROVIDERS[name].parts[role]),
                    key=_ORDER.index,
                )
            )
            for name in PROVIDERS
        ]
        for role in Role
    }
    assert _table_rows() == expected


def test_every_part_code_a_wire_uses_is_listed() -> None:
    """Each code a wire's part rules report is in the docs' code table."""
    text = _DOC.read_text("utf-8")
    from toolturns.providers._rule import Rule

    for name in PROVIDERS:
        rules = PROVIDERS[name].rules
        for value in vars(rules).values():
            if isinstance(value, Rule) and value.code in _PART_CODES:
                assert f"| `{value.code}` |" in text


_PART_CODES = {
    "unsupported_part",
    "unsupported_media_type",
    "media_type_mismatch",
    "missing_media_type",
    "unsupported_source",
    "unsupported_field",
    "invalid_detail",
    "missing_filename",
    "part_order",
}

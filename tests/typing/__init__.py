"""Type-level tests: the public API as ``mypy --strict`` and pyright see it (README.md here)."""

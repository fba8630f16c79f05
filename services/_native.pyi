"""Type stub of the native core (``native/``, Rust, built by maturin into
``services._native``): mypy does not read compiled modules, and the engine's surface is
used through ``services.adjudicator.native_runner`` only (its tuples are checked there)."""

from typing import Any

def __getattr__(name: str) -> Any: ...

"""The native PHH importer's results against the Python reference's."""

from __future__ import annotations

from services.importers.phh import ImportResult

ACCOUNT = ("hands", "read", "scales", "limited", "sources", "skipped", "kinds")


def assert_same_import(native: ImportResult, reference: ImportResult,
                       written: bytes | None = None) -> None:
    """The same events, byte for byte, and the same account of every hand read;
    ``written``: what the native import wrote to its output, table by table (then it
    returned none of them)."""
    assert native.engine == "native" and reference.engine == "python"
    if written is None:
        assert native.jsonl() == reference.jsonl()
    else:
        assert written == reference.jsonl() and native.jsonl() == b""
    for name in ACCOUNT:
        assert getattr(native, name) == getattr(reference, name), name
    assert native.event_count == reference.event_count

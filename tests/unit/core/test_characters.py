"""Invisible characters by category: what each caller's set refuses, written out by hand."""

from __future__ import annotations

import pytest

from services.events.characters import (
    CONTROL,
    CONTROL_OR_SURROGATE,
    LINE_OR_FORMAT,
    holds_any,
)
from services.events.numerals import is_ascii_number


@pytest.mark.parametrize(("text", "control", "line_or_format", "control_or_surrogate"), [
    ("Anna Virtanen", False, False, False),
    ("Åsa Öberg ä € 🂡", False, False, False),
    ("a\x00b", True, True, True),  # NUL: ended SQLite's LIKE pattern
    ("a\tb", True, True, True),
    ("alice\nAssignee: mallory", True, True, True),  # a forged heading line
    ("\x1b[31mred", True, True, True),  # an escape sequence
    ("\u202eecila", False, True, False),  # right-to-left override
    ("a\u2028b", False, True, False),  # line separator (Zl)
    ("a\u2029b", False, True, False),  # paragraph separator (Zp)
    ("pass\udcffword", False, False, True),  # a byte that is not UTF-8, read as surrogate
])
def test_each_set_refuses_its_categories(text: str, control: bool, line_or_format: bool,
                                         control_or_surrogate: bool) -> None:
    assert holds_any(text, CONTROL) is control
    assert holds_any(text, LINE_OR_FORMAT) is line_or_format
    assert holds_any(text, CONTROL_OR_SURROGATE) is control_or_surrogate


@pytest.mark.parametrize(("text", "number"), [
    ("0", True), ("2026", True), ("", False), ("²", False), ("٣", False), ("①", False),
    ("-1", False), (" 1", False), ("1.0", False),
])
def test_ascii_numbers_are_digits_as_written(text: str, number: bool) -> None:
    assert is_ascii_number(text) is number

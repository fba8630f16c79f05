"""Characters a person neither types nor sees, found by their Unicode general category.

Why one place: text typed by a person (a reviewer's name, a password, a search) is kept
or matched for years, and each of them refuses some invisible characters: a line break
in a name forged a heading under ``cases show``, a NUL in a search ended SQLite's LIKE
pattern and matched every hand, a lone surrogate (bytes that are not UTF-8) stopped the
password hashing. Each caller names the categories it refuses and says why; what it
refuses is escaped on display by ``services.ledger.listing.printable``.
"""

from __future__ import annotations

import unicodedata

CONTROL = frozenset({"Cc"})  # C0 and C1 controls: NUL, tab, newline, escape, ...
LINE_OR_FORMAT = frozenset({"Cc", "Cf", "Zl", "Zp"})  # + direction overrides, line breaks
CONTROL_OR_SURROGATE = frozenset({"Cc", "Cs"})  # + halves of a pair: undecodable bytes


def holds_any(text: str, categories: frozenset[str]) -> bool:
    """Whether ``text`` holds a character of one of these general categories."""
    return any(unicodedata.category(c) in categories for c in text)

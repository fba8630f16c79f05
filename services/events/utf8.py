"""Whether a Python string can be written as UTF-8.

Why it can fail: a string made from bytes that were not UTF-8 (a file name read with
``surrogateescape``, a command-line argument) holds lone surrogates, which no UTF-8 text,
and so no event the contract takes, can hold. The PHH importer leaves such a file name to
the reference importer; a report looking for such an id in a log knows no line names it
literally.
"""

from __future__ import annotations


def encodes_as_utf8(text: str) -> bool:
    """Whether ``text.encode("utf-8")`` succeeds (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

"""Numbers written as text: ASCII digits only.

Why not ``str.isdigit``: it is true of every Unicode digit (``²``, ``٣``, ``①``), and
``int`` refuses some of them (``int("²")`` raises) and reads others as a number nobody
wrote (``int("٣") == 3``). Seats, case numbers, ports, failpoint counts and file numbers
are written in ASCII; text from outside (an event's player id, a form field, an option,
a file name) can hold anything, and a check that let ``²`` through to ``int`` was a
traceback at the command line and an HTTP 500 in the console.
"""

from __future__ import annotations


def is_ascii_number(text: str) -> bool:
    """``text`` is one or more ASCII digits: ``int(text)`` reads it exactly as written."""
    return text.isascii() and text.isdigit()

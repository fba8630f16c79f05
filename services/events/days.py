"""A day as people give it on a command line or in a form: ``YYYY-MM-DD`` and nothing else.

Why not ``date.fromisoformat`` alone: since Python 3.11 it also takes ``20260105`` and
``2026-W02-1`` (ISO basic and week dates), which the help and every message name as
``YYYY-MM-DD``; a scheduled audit with a typo then ran over some other day than its
author meant (QA). The shape is checked first, then the calendar."""

from __future__ import annotations

import datetime as dt
import re

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text: str) -> dt.date:
    """The day ``text`` names, or ``ValueError`` when it is not ``YYYY-MM-DD`` of a day
    that exists."""
    if not _DAY.fullmatch(text):
        raise ValueError(f"{text!r} is not YYYY-MM-DD")
    return dt.date.fromisoformat(text)

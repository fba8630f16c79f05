"""What kind of JSONL file a user gave, judged by its first line that holds anything: a
table's events, or pitwatch's adjudication records.

Why: the two are easily mixed up (``pitwatch adjudicate`` prints records; ``ledger post``
books them), and a file of the other kind read line by line was thousands of rejections
("not an adjudication record", "missing required field `type`") and an exit 1, where one
line saying which file it is helps (QA). A pipe is not read ahead: it is judged by
nothing (its lines are read once, by the command).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import orjson

from services.events.logfile import open_log

EVENT_MEMBERS = frozenset({"type", "seq", "table_id", "prev_hash", "event_id"})
RECORD_MEMBERS = frozenset({"v", "table_id", "hand_id", "status", "findings"})
Kind = Literal["events", "records"]


def first_value(path: Path) -> Any:
    """The first non-blank line of the file at ``path``, parsed (None: standard input or
    any other pipe, whose lines can be read only once, by the command; a file that cannot
    be read or parsed here, or one without such a line: the command's own reading then
    says what is wrong)."""
    if str(path) == "-" or not path.is_file():
        return None
    try:
        with open_log(path) as lines:
            first = next((line for line in lines if line.strip()), None)
        return orjson.loads(first) if first is not None else None
    except (OSError, orjson.JSONDecodeError):
        return None


def kind_of(value: Any) -> Kind | None:
    """``events`` or ``records`` when ``value`` (a parsed line) is plainly one of them."""
    if not isinstance(value, dict):
        return None
    if value.keys() >= EVENT_MEMBERS and "status" not in value:
        return "events"
    if value.keys() >= RECORD_MEMBERS and "type" not in value:
        return "records"
    return None

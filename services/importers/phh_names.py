"""The names and ids an import writes into events, as the v1 contract takes them.

Why a module: a PHH file's player names, folders, file names and ``table`` fields become
the events' ``player_id``, ``table_id`` and ``hand_id``, which the contract bounds
(``NonEmpty``: 1 to MAX_NAME_LENGTH characters, no control character). A name outside
those bounds made events the intake dead-lettered, so the importer checks each name the
way the contract will, and says which rule a name breaks in the words of its skip
reason. The native importer's ``phh::hand::contract_name`` is the same check.
"""

from __future__ import annotations

from services.events.bounds import MAX_NAME_LENGTH
from services.events.wire import control_character


def contract_name_problem(text: str) -> str | None:
    """Why ``text`` is not a name of the v1 contract, or None."""
    if not text:
        return "empty"
    if len(text) > MAX_NAME_LENGTH:
        return f"longer than {MAX_NAME_LENGTH} characters ({len(text)})"
    found = control_character(text)
    if found is not None:
        return f"a control character ({found.split(' in ')[0]})"
    return None


def shown(text: str) -> str:
    """``text`` quoted for a skip reason, its escapes visible, cut short if long."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."

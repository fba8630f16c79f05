"""The names and ids an import writes into events, as the v1 contract takes them.

Why a module: a PHH file's player names, folders, file names and ``table`` fields become
the events' ``player_id``, ``table_id`` and ``hand_id``, which the contract bounds
(``NonEmpty``: 1 to MAX_NAME_LENGTH characters, no control character). A name outside
those bounds made events the intake dead-lettered, so the importer checks each name the
way the contract will, and says which rule a name breaks in the words of its skip
reason. The native importer's ``phh::hand::contract_name`` is the same check.

A hand that names one player twice is skipped too: its two seats would be merged into
one (both seats' cards and chips, one seat gone) and the adjudication would find faults
the table never made.
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


def player_names_problem(names: tuple[str, ...]) -> tuple[str, str] | None:
    """Why a hand's players cannot be seated as named (the skip reason and its kind): a
    name the v1 contract does not take, or one player named twice; None if they can."""
    for name in names:
        why = contract_name_problem(name)
        if why is not None:
            return (f"player name {shown(name)}: {why}",
                    f"a player name the v1 contract does not take ({why.split(' (')[0]})")
    for i, name in enumerate(names):
        if name in names[:i]:
            return (f"player {shown(name)} named twice in one hand (players "
                    f"{names.index(name) + 1} and {i + 1})", "a player named twice in one hand")
    return None

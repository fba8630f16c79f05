"""A case's life: its states and what each action may do, as a pure function.

    open ──assign──► in_review ──escalate──► escalated
      │                 │  ▲ assign (reassign)   │ assign (to a senior reviewer)
      └────escalate─────┼──┘                     │
      └──────────────close (outcome, reason)─────┴──► closed

A note can be added in any state (a closed case keeps collecting remarks; its decision
stays). Evidence joins only a case that is not closed: new evidence on a closed subject
opens a new case (``services.cases.intake``). Closing needs an outcome (confirmed, no
issue, procedural, referred) and a reason; a closed case changes no more.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Literal

from services.events.characters import CONTROL, LINE_OR_FORMAT, holds_any
from services.ledger.case_tables import CASE_OUTCOMES

Action = Literal["open", "evidence", "assign", "note", "escalate", "close"]
ACTIONS: tuple[str, ...] = ("open", "evidence", "assign", "note", "escalate", "close")
SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}
# The actor of what pitwatch does by itself (opening cases, joining evidence). No person
# acts under it, nor is given a case under it: its entries would be taken for pitwatch's.
SYSTEM_ACTOR = "pitwatch"


class CaseRefused(ValueError):
    """An action the case's state does not allow, or given without what it needs; the
    message says why in one line."""


@dataclass(frozen=True)
class CaseStatus:
    """The part of a case an action can change."""

    state: str
    severity: str
    assignee: str | None = None
    outcome: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"state": self.state, "severity": self.severity, "assignee": self.assignee,
                "outcome": self.outcome, "reason": self.reason}


def higher(a: str, b: str) -> str:
    """The more serious of two severities."""
    return a if SEVERITY_RANK.get(a, -1) >= SEVERITY_RANK.get(b, -1) else b


def opened(severity: str) -> CaseStatus:
    return CaseStatus(state="open", severity=severity)


# What a name and a text of the trail may hold, as the console's forms say (docs/console.md):
# refused when longer, never cut (a text cut short is one its author never wrote). The
# command line took any length (QA: a note of 120,000 characters, a name of 5,000).
NAME_LIMIT = 100
TEXT_LIMIT = 2000
# Controls a text may hold: its lines and tabs. Others (escape, bell, NUL, backspace)
# reached the terminal of whoever read ``cases show --format csv`` raw (QA: a note set the
# window's title); direction overrides and isolates show a text other than the one kept.
TEXT_CONTROLS_KEPT = frozenset("\n\r\t")
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def folded_name(name: str) -> str:
    """A name as ``same_name`` compares it: NFKC, case-folded, NFKC again (a fold can
    undo the normal form), blanks around left out."""
    once = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", once).strip()


def same_name(a: str | None, b: str | None) -> bool:
    """Whether two names are one person's: in any capitals, blanks around left out, as the
    console keeps its users' names (lower case). One comparison, in Python, for every use
    (the queue's ``assignee`` filter, an assign to whom the case has already, the refused
    ``SYSTEM_ACTOR``): the database's ``lower()`` folds only ASCII on SQLite and every
    letter on PostgreSQL, so a name such as "ÅSA" found its own cases on one and not on
    the other.

    Why NFKC and case folding, not ``lower()``: the same letters in another width or
    style are the same name to a reader. "ｐｉｔｗａｔｃｈ" (full width) was accepted as an
    actor where "PitWatch" was refused, and its entries read as pitwatch's own (QA);
    "Å" typed as A and a combining ring was another reviewer than "Å". Letters that only
    look alike (a Cyrillic "р") are other letters, and stay other names."""
    return a is not None and b is not None and folded_name(a) == folded_name(b)


def reads_as_system(name: str) -> bool:
    """Whether ``name`` is ``SYSTEM_ACTOR`` to a reader once punctuation, capitals and
    widths are set aside: "pit.watch", "pitwatch.", "Pit_Watch", "ｐｉｔ－ｗａｔｃｈ" (and
    every name ``same_name`` finds the same as it). One definition for the console's user
    names (``services.console.users``) and every actor of a case action.

    Why: the trail shows a person's actions under their name beside the system's own,
    named "pitwatch"; "pitwatch." was accepted as a console user, and ``cases note --actor
    pit.watch`` as an actor (only "pitwatch" and its capitals and widths were refused),
    and their entries read as the system's (QA)."""
    return "".join(c for c in folded_name(name) if c.isalnum()) == SYSTEM_ACTOR


REPLACEMENT = "\ufffd"  # what a decoder puts for bytes that are not UTF-8


def _refuse_replacement(value: str, what: str) -> None:
    """A name or text holding the replacement character is refused: a form sent in another
    encoding than UTF-8 (Latin-1's "é" as one byte) reaches the console with each such
    byte replaced, and stored, the trail (append-only) kept "caf\ufffd" for good (QA).
    Refused, the sender can send it again as UTF-8."""
    if REPLACEMENT in value:
        raise CaseRefused(f"{what} holds bytes that are not UTF-8 (shown as \ufffd): send "
                          "it again as UTF-8 text")


def check_name(name: str, what: str) -> None:
    """A person's name in the trail is one line of visible characters: a newline in an
    assignee once drew a forged header line under ``cases show``'s, and a right-to-left
    override shows a name other than the one stored."""
    if len(name.strip()) > NAME_LIMIT:
        raise CaseRefused(f"{what} is {len(name.strip()):,} characters, more than the "
                          f"{NAME_LIMIT} a name may have")
    if holds_any(name, LINE_OR_FORMAT):
        raise CaseRefused(f"{what} holds a control or formatting character (a line break, "
                          "a tab, a direction override): write it on one line, plainly")
    _refuse_replacement(name, what)


def check_actor(actor: str) -> None:
    """Who takes an action: a person's name (see ``check_name``), never ``SYSTEM_ACTOR``
    nor a name that reads as it (``reads_as_system``), or a trail could not tell a
    person's entries from pitwatch's."""
    if not actor.strip():
        raise CaseRefused("every action names who takes it (--actor)")
    check_name(actor, "the actor")
    if same_name(actor, SYSTEM_ACTOR):
        raise CaseRefused(f"{SYSTEM_ACTOR!r} is the name of what pitwatch does by itself: "
                          "act under your own name (--actor)")
    if reads_as_system(actor):
        raise CaseRefused(f"{actor.strip()!r} reads as {SYSTEM_ACTOR!r} (punctuation, "
                          "capitals and widths aside), the name of what pitwatch does by "
                          "itself: act under your own name (--actor)")


def check_text(text: str, what: str) -> None:
    """A note or a reason: lines of text, at most ``TEXT_LIMIT`` characters."""
    if len(text.strip()) > TEXT_LIMIT:
        raise CaseRefused(f"{what} is {len(text.strip()):,} characters, more than the "
                          f"{TEXT_LIMIT:,} it may have: shorten it")
    if any(c in DIRECTION_CONTROLS or (c not in TEXT_CONTROLS_KEPT and holds_any(c, CONTROL))
           for c in text):
        raise CaseRefused(f"{what} holds a control character (an escape, a bell, a NUL) or "
                          "a direction override: write it as plain lines of text")
    _refuse_replacement(text, what)


def apply(case_id: int, status: CaseStatus, action: Action, *, assignee: str | None = None,
          text: str | None = None, outcome: str | None = None,
          severity: str | None = None) -> CaseStatus:
    """The case's status after ``action``, or ``CaseRefused``."""
    closed = status.state == "closed"
    if text is not None:
        check_text(text, "the reason" if action != "note" else "the note")
    if action == "note":
        if not (text and text.strip()):
            raise CaseRefused("a note needs its text")
        return status
    if closed:
        raise CaseRefused(f"case {case_id} is closed ({status.outcome}): it changes no more; "
                          "add a note, or let new evidence open a new case")
    if action == "evidence":
        return replace(status, severity=higher(status.severity, severity or status.severity))
    if action == "assign":
        if not (assignee and assignee.strip()):
            raise CaseRefused("assign needs the reviewer's name")
        check_name(assignee, "the reviewer's name")
        if reads_as_system(assignee):  # QA: `cases assign 7 pitwatch` took it, a case
            # in the name nobody may act under, which no one could then work ("pit.watch"
            # too: it reads as it)
            raise CaseRefused(f"{SYSTEM_ACTOR!r} is the name of what pitwatch does by "
                              "itself: assign the case to a person")
        state = "in_review" if status.state == "open" else status.state
        return replace(status, state=state, assignee=assignee.strip())
    if action == "escalate":
        if status.state == "escalated":
            raise CaseRefused(f"case {case_id} is already escalated")
        return replace(status, state="escalated")
    if action == "close":
        if outcome not in CASE_OUTCOMES:  # none given, or one that is not an outcome
            said = f"no outcome {outcome[:40]!r}" if outcome else "closing needs an outcome"
            raise CaseRefused(f"{said}: one of {', '.join(CASE_OUTCOMES)}")
        if not (text and text.strip()):
            raise CaseRefused("closing needs a reason")
        return replace(status, state="closed", outcome=outcome, reason=text.strip())
    raise CaseRefused(f"unknown action {action!r}: one of {', '.join(ACTIONS[2:])}")


"""What a command says when the hands it would judge again were judged under a rule
profile this process does not know.

Why it is said before anything is judged: a casino's own profiles are read from the
folder ``PITWATCH_PROFILES`` names, and a shell opened later without that variable judged
every such hand "unknown rule profile". Reports then said the log or the booking changed
after the hand was booked, and a replay listed every hand as differing: an accusation of
tampering whose only cause was the environment (QA). The commands stop instead, with
this line, and the user sets the variable and runs them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from services.games.profile import SET_PROFILES

# The finding (GEN-5) of a hand whose table posted a rule profile its run did not know
# (``services.adjudicator.adjudicate``): such a hand comes out the same in any run that
# does not know the profile either.
UNKNOWN_PROFILE_CODE = "UNKNOWN_RULE_PROFILE"


def not_known_here(judged: Mapping[str, int | None], known: Iterable[str]) -> str:
    """One line: the profiles this process lacks (with the hands judged under each, when
    counted), those it has, and the variable to set."""
    shown = ", ".join(repr(name) if hands is None
                      else f"{name!r} ({hands:,} hand{'s' if hands != 1 else ''})"
                      for name, hands in sorted(judged.items()))
    plural = "s" if len(judged) > 1 else ""
    return (f"judged under rule profile{plural} {shown}, which this run does not know "
            f"(it knows {', '.join(sorted(known))}): {SET_PROFILES}, as when the hands were "
            "adjudicated, and run it again")

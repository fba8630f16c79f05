"""Rule profiles: every number and every **Reading** of rules.md as data.

A profile is a folder of TOML files under ``services/games/profiles/<name>/``, one file
per section (``gen.toml``, ``hcf.toml``, ``chinese.toml`` ...). Each game module declares
a msgspec struct for its section with NO defaults, so a value missing from the data is an
error at load time rather than a constant silently buried in code. A casino posting a
different reading copies the folder, edits the TOML, and names it in ``table_configured``
(``rule_profile``); no code changes.

This module holds what a profile *is*; nothing here opens a file. The files are read once
per process, by the entry point's bootstrap (``services.games.profiles.read_profiles``),
and the resulting ``Profiles`` is passed down to whatever adjudicates: a rule receives a
``RuleProfile`` and never looks one up by itself.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar, get_args, get_origin, get_type_hints

import msgspec

from services.events.contract import Severity

S = TypeVar("S")

# Every whole number of a profile has bounds: a type alone let through a seven-card game
# of 0 cards, a raise cap list with no row and a multiple of -1, each judged by only when a
# hand needed it; and a number past 64 bits cannot even reach the native core.
MAX_ODDS = 1_000_000  # odds to one, points: far beyond any posted paytable
MAX_MULTIPLE = 1_000  # of an Ante or a bet

# What a bonus pays (odds to one, points): a house pays a winner, so never less than
# nothing. A negative paytable row was loaded, and would have turned a bonus into a charge.
Payout = Annotated[int, msgspec.Meta(ge=0, le=MAX_ODDS)]
# A wager the rules size in Antes or bets (a raise, the Bet, the big bet): never nothing.
Multiple = Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
# A price in Antes (a bought card, the dealer's game): a room may waive it, never pay it.
Price = Annotated[int, msgspec.Meta(ge=0, le=MAX_MULTIPLE)]


class UnknownProfileError(LookupError):
    """The table names a rule profile pitwatch does not have (or a profile's folder cannot
    be read as one)."""


# What to do when a table names a profile this process does not know: a casino's own
# profiles are read only from the folder this variable names (``services.games.profiles``).
SET_PROFILES = "set PITWATCH_PROFILES to the folder of the casino's own profiles"


class InvalidProfileError(UnknownProfileError):
    """A rule profile's files hold a value its section does not take (a typo, a wrong
    type, a key no reading has): nothing can be judged under that profile. Raised when
    the profiles are read, so a command stops with one line naming the profile, the
    section and the field, instead of judging every hand under it "rejected"; handled
    wherever an unknown profile is."""


@dataclass(frozen=True)
class RuleProfile:
    """A named set of sections (raw TOML tables), converted to typed structs on demand."""

    name: str
    sections: dict[str, dict[str, Any]]
    _typed: dict[tuple[str, type[Any]], Any] = field(default_factory=dict, compare=False)

    def section(self, name: str, struct_type: type[S]) -> S:
        """The section ``name`` as ``struct_type``; raises with the field that is wrong."""
        key = (name, struct_type)
        if key not in self._typed:
            if name not in self.sections:
                raise UnknownProfileError(f"rule profile {self.name!r} has no section {name!r} "
                                          f"(its sections: {', '.join(sorted(self.sections))})")
            try:
                self._typed[key] = msgspec.convert(
                    self.sections[name], struct_type, strict=True, from_attributes=False
                )
            except msgspec.ValidationError as exc:
                raise ValueError(f"rule profile {self.name!r}, section {name!r}: "
                                 f"{explained(str(exc), self.sections[name], struct_type)}"
                                 ) from exc
        value: S = self._typed[key]
        return value


_AT = re.compile(r"^(?P<what>.*) - at `(?P<path>\$[^`]*)`$", re.DOTALL)
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]|\[\.\.\.\]")


def explained(message: str, data: Any, struct_type: Any) -> str:
    """msgspec's ``message`` about ``data`` read as ``struct_type``, said so that its
    owner can fix the file: a table's entry is named by its key (msgspec says only
    ``$.flush_bonus_paytable[...]``), and a reading that takes a few words lists them
    (msgspec says only "Invalid enum value 'capped'"). Anything it cannot follow is
    left as msgspec said it."""
    at = _AT.match(message)
    if at is None:
        return message
    path, kind = "$", struct_type
    try:
        for step in _STEP.finditer(at["path"]):
            kind = _bare(kind)
            if step[1] is not None:
                path += f".{step[1]}"
                kind, data = get_type_hints(kind, include_extras=True)[step[1]], data[step[1]]
            elif step[2] is not None:
                path += step[0]
                kind, data = get_args(kind)[0], data[int(step[2])]
            else:
                kind = get_args(kind)[1]
                key = next(k for k, v in data.items() if not _converts(v, kind))
                path += f"[{key!r}]"
                data = data[key]
    except (KeyError, IndexError, TypeError, AttributeError, StopIteration, NameError):
        return message
    said = f"{at['what']} - at `{path}`"
    words = get_args(_bare(kind)) if get_origin(_bare(kind)) is Literal else ()
    if words:
        listed = [repr(w) for w in words]
        said += ", which takes " + " or ".join(filter(None, (", ".join(listed[:-1]),
                                                             listed[-1])))
    return said


def _bare(kind: Any) -> Any:
    """``kind`` without its ``Annotated`` bounds."""
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


def _converts(value: Any, kind: Any) -> bool:
    try:
        msgspec.convert(value, kind, strict=True, from_attributes=False)
    except msgspec.ValidationError:
        return False
    return True


@dataclass(frozen=True)
class Profiles:
    """Every rule profile this process knows, by name (what a table's ``rule_profile``
    may name). Built once by the bootstrap; read-only afterwards."""

    by_name: Mapping[str, RuleProfile]

    def get(self, name: str) -> RuleProfile:
        """The profile ``name``; ``UnknownProfileError`` names the ones there are and the
        variable to set (the finding of a hand judged without its profile says it: QA, a
        shell without ``PITWATCH_PROFILES`` was told only "built-in profiles: house-v1")."""
        profile = self.by_name.get(name)
        if profile is None:
            raise UnknownProfileError(
                f"unknown rule profile {name!r} (this run knows {', '.join(self.names())}): "
                f"{SET_PROFILES} and run it again"
            )
        return profile

    def names(self) -> list[str]:
        return sorted(self.by_name)


class GenProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``gen`` of a rule profile: severities of the findings every game shares
    (GEN-1..5, mispays and rake errors)."""

    wager_over_stack_severity: Severity
    chips_during_hand_severity: Severity
    cash_in_play_severity: Severity
    unauthorised_config_severity: Severity
    wager_outside_limits_severity: Severity
    deck_integrity_severity: Severity
    mispay_severity: Severity
    rake_error_severity: Severity


def gen_section(profile: RuleProfile) -> GenProfile:
    return profile.section("gen", GenProfile)

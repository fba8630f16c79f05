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

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import msgspec

from services.events.contract import Severity

S = TypeVar("S")

# What a bonus pays (odds to one, points): a house pays a winner, so never less than
# nothing. A negative paytable row was loaded, and would have turned a bonus into a charge.
Payout = Annotated[int, msgspec.Meta(ge=0)]


class UnknownProfileError(LookupError):
    """The table names a rule profile pitwatch does not have (or a profile's folder cannot
    be read as one)."""


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
                raise UnknownProfileError(f"rule profile {self.name!r} has no section {name!r}")
            try:
                self._typed[key] = msgspec.convert(
                    self.sections[name], struct_type, strict=True, from_attributes=False
                )
            except msgspec.ValidationError as exc:
                raise ValueError(f"rule profile {self.name!r}, section {name!r}: {exc}") from exc
        value: S = self._typed[key]
        return value


@dataclass(frozen=True)
class Profiles:
    """Every rule profile this process knows, by name (what a table's ``rule_profile``
    may name). Built once by the bootstrap; read-only afterwards."""

    by_name: Mapping[str, RuleProfile]

    def get(self, name: str) -> RuleProfile:
        """The profile ``name``; ``UnknownProfileError`` names the ones there are."""
        profile = self.by_name.get(name)
        if profile is None:
            raise UnknownProfileError(
                f"unknown rule profile {name!r}; built-in profiles: {', '.join(self.names())}"
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

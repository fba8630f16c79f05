"""Rule profiles: every number and every **Reading** of rules.md as data.

A profile is a folder of TOML files under ``services/games/profiles/<name>/``, one file
per section (``gen.toml``, ``hcf.toml``, ``chinese.toml`` ...). Each game module declares
a msgspec struct for its section with NO defaults, so a value missing from the data is an
error at load time rather than a constant silently buried in code. A casino posting a
different reading copies the folder, edits the TOML, and names it in ``table_configured``
(``rule_profile``); no code changes.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec

S = TypeVar("S")

_BUILTIN_ROOT = "services.games.profiles"


class UnknownProfileError(LookupError):
    """The table names a rule profile pitwatch does not have."""


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


def _load_dir(name: str, root: Path) -> RuleProfile:
    sections = {p.stem: tomllib.loads(p.read_text("utf-8")) for p in sorted(root.glob("*.toml"))}
    if not sections:
        raise UnknownProfileError(f"rule profile {name!r}: no *.toml files in {root}")
    return RuleProfile(name=name, sections=sections)


@cache
def load_profile(name: str, extra_dir: str | None = None) -> RuleProfile:
    """Load a profile by name: from ``extra_dir/<name>/`` if given, else the built-ins."""
    if extra_dir is not None:
        candidate = Path(extra_dir) / name
        if candidate.is_dir():
            return _load_dir(name, candidate)
    builtin = resources.files(_BUILTIN_ROOT).joinpath(name)
    if not builtin.is_dir():
        raise UnknownProfileError(
            f"unknown rule profile {name!r}; built-in profiles: {', '.join(builtin_profiles())}"
        )
    return _load_dir(name, Path(str(builtin)))


def builtin_profiles() -> list[str]:
    root = resources.files(_BUILTIN_ROOT)
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_"))

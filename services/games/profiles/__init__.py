"""The rule profile files (one folder per profile, one TOML file per section) and the one
function that reads them.

``read_profiles`` is called once per process by the entry point's bootstrap (the CLI
commands, the embedded runner's callers, each service); the ``Profiles`` it returns is
passed to everything that adjudicates. No rule, no hand assembly and no report opens
these files itself, so a process never reads them twice, a test can hand in a profile it
built, and what a hand was judged under is whatever the caller passed.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from services.games.profile import Profiles, RuleProfile, UnknownProfileError

BUILTIN_PROFILE = "house-v1"  # what the simulator's tables post
_BUILTIN_ROOT = "services.games.profiles"


def _read_dir(name: str, root: Path) -> RuleProfile:
    sections = {p.stem: tomllib.loads(p.read_text("utf-8")) for p in sorted(root.glob("*.toml"))}
    if not sections:
        raise UnknownProfileError(f"rule profile {name!r}: no *.toml files in {root}")
    return RuleProfile(name=name, sections=sections)


def _folders(root: Path) -> dict[str, Path]:
    return {p.name: p for p in sorted(root.iterdir())
            if p.is_dir() and not p.name.startswith(("_", "."))}


def read_profiles(extra_dir: str | Path | None = None) -> Profiles:
    """Every built-in profile, plus every folder of ``extra_dir`` (a casino's own
    profiles; one of the same name replaces the built-in)."""
    folders = _folders(Path(str(resources.files(_BUILTIN_ROOT))))
    if extra_dir is not None:
        folders |= _folders(Path(extra_dir))
    return Profiles({name: _read_dir(name, path) for name, path in folders.items()})

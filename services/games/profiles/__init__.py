"""The rule profile files (one folder per profile, one TOML file per section) and the one
function that reads them.

``read_profiles`` is called once per process by the entry point's bootstrap (the CLI
commands, the embedded runner's callers, each service); the ``Profiles`` it returns is
passed to everything that adjudicates. No rule, no hand assembly and no report opens
these files itself, so a process never reads them twice, a test can hand in a profile it
built, and what a hand was judged under is whatever the caller passed.

A casino's own profiles live in a folder of their own (``PITWATCH_PROFILES``, or the
``extra_dir`` a caller passes), one sub-folder per profile, read with the built-in ones.
A profile that changes a few readings need not copy every file: a ``profile.toml`` with
``extends = "house-v1"`` takes every section of that profile and lays its own files over
it, table by table and key by key (a venue's pot rake schedule is then one small
``holdem.toml`` with a ``[rake.pot]`` table).
"""

from __future__ import annotations

import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from services.games.profile import Profiles, RuleProfile, UnknownProfileError

BUILTIN_PROFILE = "house-v1"  # what the simulator's tables post
PROFILES_ENV = "PITWATCH_PROFILES"  # a folder of the casino's own profiles
PROFILE_FILE = "profile.toml"  # a profile's own settings (``extends``), not a section
_BUILTIN_ROOT = "services.games.profiles"


def _read_sections(name: str, root: Path) -> tuple[dict[str, dict[str, Any]], str | None]:
    """A profile folder's sections, and the profile it extends (None: it stands alone)."""
    sections = {p.stem: tomllib.loads(p.read_text("utf-8")) for p in sorted(root.glob("*.toml"))
                if p.name != PROFILE_FILE}
    settings = tomllib.loads((root / PROFILE_FILE).read_text("utf-8")) \
        if (root / PROFILE_FILE).is_file() else {}
    extends = settings.get("extends")
    unknown = sorted(set(settings) - {"extends"})
    if unknown or (extends is not None and not isinstance(extends, str)):
        raise UnknownProfileError(f"rule profile {name!r}: {root / PROFILE_FILE} may only say "
                                  "extends = \"<profile>\"")
    if not sections and extends is None:
        raise UnknownProfileError(f"rule profile {name!r}: no *.toml files in {root}")
    return sections, extends


def _folders(root: Path) -> dict[str, Path]:
    return {p.name: p for p in sorted(root.iterdir())
            if p.is_dir() and not p.name.startswith(("_", "."))}


def merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` laid on ``base``: tables merge key by key, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def read_profiles(extra_dir: str | Path | None = None) -> Profiles:
    """Every built-in profile, plus every folder of ``extra_dir`` (default: the folder
    named by ``PITWATCH_PROFILES``, if set), a casino's own profiles; one of the same
    name replaces the built-in."""
    folders = _folders(Path(str(resources.files(_BUILTIN_ROOT))))
    extra = extra_dir if extra_dir is not None else os.environ.get(PROFILES_ENV) or None
    if extra is not None:
        if not Path(extra).is_dir():
            raise UnknownProfileError(f"the profiles folder {extra} does not exist "
                                      f"({PROFILES_ENV} or the folder given)")
        folders |= _folders(Path(extra))
    raw = {name: _read_sections(name, path) for name, path in folders.items()}
    return Profiles({name: RuleProfile(name=name, sections=_resolve(name, raw, ()))
                     for name in raw})


def _resolve(name: str, raw: dict[str, tuple[dict[str, dict[str, Any]], str | None]],
             seen: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The sections of ``name`` with those of every profile it extends beneath them."""
    if name in seen:
        raise UnknownProfileError(f"rule profiles extend each other in a circle: "
                                  f"{' -> '.join((*seen, name))}")
    sections, extends = raw[name]
    if extends is None:
        return sections
    if extends not in raw:
        raise UnknownProfileError(f"rule profile {name!r} extends {extends!r}, which does "
                                  f"not exist; profiles: {', '.join(sorted(raw))}")
    base = _resolve(extends, raw, (*seen, name))
    return merged(base, sections)

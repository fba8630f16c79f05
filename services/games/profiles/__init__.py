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

from services.games.profile import (
    GenProfile,
    InvalidProfileError,
    Profiles,
    RuleProfile,
    UnknownProfileError,
)

BUILTIN_PROFILE = "house-v1"  # what the simulator's tables post
PROFILES_ENV = "PITWATCH_PROFILES"  # a folder of the casino's own profiles
PROFILE_FILE = "profile.toml"  # a profile's own settings (``extends``), not a section
_BUILTIN_ROOT = "services.games.profiles"


def _read_sections(name: str, root: Path) -> tuple[dict[str, dict[str, Any]], str | None]:
    """A profile folder's sections, and the profile it extends (None: it stands alone)."""
    sections = {p.stem: _toml(name, p) for p in sorted(root.glob("*.toml"))
                if p.name != PROFILE_FILE}
    settings = _toml(name, root / PROFILE_FILE) if (root / PROFILE_FILE).is_file() else {}
    extends = settings.get("extends")
    unknown = sorted(set(settings) - {"extends"})
    if unknown or (extends is not None and not isinstance(extends, str)):
        raise UnknownProfileError(f"rule profile {name!r}: {root / PROFILE_FILE} may only say "
                                  "extends = \"<profile>\"")
    if not sections and extends is None:
        raise UnknownProfileError(f"rule profile {name!r}: no *.toml files in {root}")
    return sections, extends


def _toml(name: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidProfileError(f"rule profile {name!r}: {path} is not TOML: {exc}") from None


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
    name replaces the built-in. Every game section of every profile is checked here
    (``InvalidProfileError``), not when a hand first needs it."""
    folders = _known_folders(extra_dir)
    raw = _read_folders(folders)
    profiles = Profiles({name: RuleProfile(name=name, sections=_resolve(name, raw, ()))
                         for name in raw})
    for name, profile in profiles.by_name.items():
        check_sections(profile, folders[name])
    return profiles


def read_profile_folder(folder: Path) -> RuleProfile:
    """The profile in ``folder`` (a what-if, an audit's copy), named by the folder: it
    may extend a built-in profile or one of ``PITWATCH_PROFILES``; the folders beside it
    are not read (they need not be profiles)."""
    if not folder.is_dir():
        raise UnknownProfileError(f"the profile folder {folder} {_not_a_folder(folder)}")
    raw = _read_folders(_known_folders(None) | {folder.name: folder})
    profile = RuleProfile(name=folder.name, sections=_resolve(folder.name, raw, ()))
    check_sections(profile, folder)
    return profile


def _known_folders(extra_dir: str | Path | None) -> dict[str, Path]:
    folders = _folders(Path(str(resources.files(_BUILTIN_ROOT))))
    extra = extra_dir if extra_dir is not None else os.environ.get(PROFILES_ENV) or None
    if extra is not None:
        if not Path(extra).is_dir():
            raise UnknownProfileError(f"the profiles folder {extra} {_not_a_folder(Path(extra))} "
                                      f"({PROFILES_ENV} or the folder given)")
        folders |= _folders(Path(extra))
    return folders


def _not_a_folder(path: Path) -> str:
    """Why ``path`` is no folder: a file named as one was said not to exist."""
    return "is a file, not a folder" if path.exists() else "does not exist"


def _read_folders(folders: dict[str, Path]
                  ) -> dict[str, tuple[dict[str, dict[str, Any]], str | None]]:
    return {name: _read_sections(name, path) for name, path in folders.items()}


def check_sections(profile: RuleProfile, folder: Path) -> None:
    """Convert each game section ``profile`` has to its struct, so that a wrong value is
    an ``InvalidProfileError`` now, naming the profile, the section and the field. (The
    surveillance section belongs to a layer above the games and is checked by the
    commands that read it.)"""
    for section, struct_type in _section_types().items():
        if section in profile.sections:
            try:
                profile.section(section, struct_type)
            except ValueError as exc:
                raise InvalidProfileError(f"{exc} (the profile's folder: {folder})") from None


def _section_types() -> dict[str, type[Any]]:
    """Each game section and the struct that reads it (imported here, not at the top:
    the game modules import ``services.games.profile``, never this package)."""
    from services.games.chinese.profile import ChineseProfile
    from services.games.draw7a.profile import Draw7aProfile
    from services.games.hcf.profile import HcfProfile
    from services.games.holdem.profile import HoldemProfile
    from services.games.russian.profile import RussianProfile

    return {"gen": GenProfile, "hcf": HcfProfile, "chinese": ChineseProfile,
            "draw7a": Draw7aProfile, "russian": RussianProfile, "holdem": HoldemProfile}


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

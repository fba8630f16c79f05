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

Everything that is wrong with a profile is said when it is read, in one line, never by
each hand judged under it (each such hand was a "rejected" record and a critical case in
the append-only database): a profile standing alone without ``gen.toml``, a file whose
name is no section (``HCF.toml`` was ignored, and a what-if under it "0 differ"), a value
its section does not take, a casino profile named like a built-in one (it replaced it, and
records named "house-v1" were judged under other numbers). A profile may leave out a
game's section: it then covers the other games only.
"""

from __future__ import annotations

import os
import tomllib
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
GEN_SECTION = "gen"  # every hand of every game is judged with it (GEN-1..5)
# Read by the commands that surveil, a layer above the games (``services.surveillance``).
SURVEILLANCE_SECTION = "surveillance"
# The built-in profiles: the folders beside this module, where importlib.resources found
# them (a package on disk, as ``Path(str(...))`` of its answer needed); not imported,
# it was ~2 ms of the start-up of `pitwatch adjudicate`.
_BUILTIN_ROOT = Path(__file__).parent


def section_names() -> list[str]:
    """The sections a profile folder may hold, one ``<section>.toml`` file each."""
    return sorted([*_section_types(), SURVEILLANCE_SECTION])


def _read_sections(name: str, root: Path) -> tuple[dict[str, dict[str, Any]], str | None]:
    """A profile folder's sections, and the profile it extends (None: it stands alone)."""
    entries = sorted(root.iterdir())
    files = [p for p in entries if p.suffix.lower() == ".toml"]
    known = section_names()
    _refuse_other_formats(name, entries, {PROFILE_FILE, *(f"{s}.toml" for s in known)})
    for path in files:
        if path.name not in {PROFILE_FILE, *(f"{s}.toml" for s in known)}:
            raise InvalidProfileError(
                f"rule profile {name!r}: {path} is no section file; a profile's files are "
                f"{', '.join(f'{s}.toml' for s in known)} and {PROFILE_FILE} (rename it, or "
                "move it out of the folder)")
    sections = {p.stem: _toml(name, p) for p in files if p.name != PROFILE_FILE}
    settings = _toml(name, root / PROFILE_FILE) if root / PROFILE_FILE in files else {}
    extends = settings.get("extends")
    unknown = sorted(set(settings) - {"extends"})
    if unknown or (extends is not None and not isinstance(extends, str)):
        raise UnknownProfileError(f"rule profile {name!r}: {root / PROFILE_FILE} may only say "
                                  "extends = \"<profile>\"")
    if not sections and extends is None:
        raise UnknownProfileError(f"rule profile {name!r}: {root} holds no section file "
                                  "(gen.toml, hcf.toml ...) and extends no profile")
    if extends is None and GEN_SECTION not in sections:
        raise InvalidProfileError(
            f"rule profile {name!r} has no {GEN_SECTION}.toml and extends no profile: every "
            "hand is judged with section 'gen' (GEN-1..5); add gen.toml, or put extends = "
            f"\"{BUILTIN_PROFILE}\" in {PROFILE_FILE} (the profile's folder: {root})")
    return sections, extends


def _refuse_other_formats(name: str, entries: list[Path], section_files: set[str]) -> None:
    """A section saved in another format (``hcf.json``, ``hcf.yaml``) is refused, not
    passed over: the profile would judge with the fields it extends and say nothing (QA).
    Other files (a README, notes) are the casino's own and stay."""
    for path in entries:
        if path.suffix.lower() != ".toml" and f"{path.stem.lower()}.toml" in section_files:
            raise InvalidProfileError(
                f"rule profile {name!r}: {path} is a profile file in another format; "
                f"profiles are TOML: write it as {path.stem.lower()}.toml (or move it out "
                "of the folder)")


def _toml(name: str, path: Path) -> dict[str, Any]:
    try:
        # utf-8-sig: a byte-order mark (Notepad's "UTF-8 with BOM") is an encoding's
        # mark, not content; tomllib reads it as a syntax error at line 1, column 1 (QA).
        return tomllib.loads(path.read_text("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidProfileError(f"rule profile {name!r}: {path} is not TOML: {exc}") from None
    except OSError as exc:
        raise InvalidProfileError(f"rule profile {name!r}: {path} {_unreadable(path, exc)}"
                                  ) from None


def _unreadable(path: Path, exc: OSError) -> str:
    """Why the file at ``path`` could not be read, in words (``exc`` said "Is a directory:
    <path>" with no profile named, or let the traceback through)."""
    if path.is_dir():
        return "is a folder, not a TOML file"
    if path.is_symlink() and not path.exists():
        return f"is a link to {path.readlink()}, which does not exist"
    return f"cannot be read: {exc.strerror or exc}"


def _folders(root: Path) -> dict[str, Path]:
    """The profile folders in ``root``; a link to nothing there is named, not skipped
    (the profile it was meant to be would be missing without a word)."""
    entries = sorted(root.iterdir())
    for path in entries:
        if path.is_symlink() and not path.exists():
            raise UnknownProfileError(f"the profiles folder {root} holds {path.name}, a link to "
                                      f"{path.readlink()}, which does not exist")
    return {p.name: p for p in entries if p.is_dir() and not p.name.startswith(("_", "."))}


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
    named by ``PITWATCH_PROFILES``, if set), a casino's own profiles; one named like a
    built-in is refused (records name the profile a hand was judged under). Every game
    section of every profile is checked here (``InvalidProfileError``), not when a hand
    first needs it."""
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
    builtin = _builtin_folders().get(folder.name)
    if builtin is not None and builtin.resolve() != folder.resolve():
        raise UnknownProfileError(_named_like_builtin(folder, folder.name))
    raw = _read_folders(_known_folders(None) | {folder.name: folder})
    profile = RuleProfile(name=folder.name, sections=_resolve(folder.name, raw, ()))
    check_sections(profile, folder)
    return profile


def _builtin_folders() -> dict[str, Path]:
    return _folders(_BUILTIN_ROOT)


def _known_folders(extra_dir: str | Path | None) -> dict[str, Path]:
    folders = _builtin_folders()
    extra = extra_dir if extra_dir is not None else os.environ.get(PROFILES_ENV) or None
    if extra is not None:
        if not Path(extra).is_dir():
            raise UnknownProfileError(f"the profiles folder {extra} {_not_a_folder(Path(extra))} "
                                      f"({PROFILES_ENV} or the folder given)")
        casino = _folders(Path(extra))
        clash = sorted(set(casino) & set(folders))
        if clash:
            raise UnknownProfileError(_named_like_builtin(casino[clash[0]], clash[0]))
        folders |= casino
    return folders


def _named_like_builtin(folder: Path, name: str) -> str:
    """A casino folder may not take a built-in profile's name: it replaced the built-in
    one, and records saying "house-v1" were judged under the casino's numbers."""
    return (f"the profile folder {folder} is named like the built-in profile {name!r}: give "
            f"the casino's profile a name of its own (records name the profile a hand was "
            f"judged under), with extends = \"{name}\" in its {PROFILE_FILE} to start from "
            "the built-in one")


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

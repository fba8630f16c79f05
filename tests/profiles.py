"""The rule profiles the tests run with, read once per test process (as every entry point
reads them once, ``services.games.profiles.read_profiles``) and passed in like theirs."""

from __future__ import annotations

from services.games.profile import Profiles, RuleProfile
from services.games.profiles import BUILTIN_PROFILE, read_profiles

PROFILES: Profiles = read_profiles()
HOUSE: RuleProfile = PROFILES.get(BUILTIN_PROFILE)

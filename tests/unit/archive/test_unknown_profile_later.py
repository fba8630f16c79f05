"""Hands judged under a casino's own profile, read again in a shell that lacks it.

QA: a day adjudicated with ``PITWATCH_PROFILES`` set, then reported and replayed from a
shell without it: ``report hand`` said "the log or the booking changed after the hand
was booked" (exit 0), ``report daily`` wrote that banner into every copy, and ``replay``
listed every hand as differing (exit 1): an accusation of tampering caused by the
environment. Each now stops in one line naming the profile and the variable to set.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import orjson
import pytest

from services.games.profiles import read_profiles
from services.ledger.db import open_existing_ledger, open_ledger
from services.ledger.queries import judged_under_unknown
from tests.unit.archive.support import keep, simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.reports.logs import rechain

HOUSE_FOLDER = Path(__file__).resolve().parents[3] / "services/games/profiles/house-v1"
CASINO = "casino-v2"
DAY = "2026-01-05"


def casino_profiles(root: Path) -> Path:
    """A folder of the casino's profiles: one, a full copy of house-v1 under its own name."""
    shutil.copytree(HOUSE_FOLDER, root / "profiles" / CASINO)
    return root / "profiles"


def casino_log(path: Path, tables: int = 3) -> Path:
    """A simulated day (faults injected: hands to review) whose tables post the casino's
    profile, chains re-linked."""
    def post_casino(event: dict[str, object]) -> None:
        if event["type"] == "table_configured":
            event["data"]["rule_profile"] = CASINO  # type: ignore[index]

    events = [orjson.loads(line) for line in simulated_log(tables=tables).lines]
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in rechain(events, post_casino)))
    return path


@pytest.fixture
def booked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path, list[str]]:
    """The day adjudicated and booked with the casino's profiles known; then the
    variable is gone, as in a shell opened later. (url, log, hand ids)."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = casino_log(tmp_path / "day.jsonl")
    monkeypatch.setenv("PITWATCH_PROFILES", str(casino_profiles(tmp_path)))
    ran = pitwatch("adjudicate", str(log), "--ledger", url)
    assert ran.code == 0, ran.stderr  # discrepancies are findings, not input problems
    records = [orjson.loads(line) for line in ran.stdout.splitlines()]
    assert {r["rule_profile"] for r in records} == {CASINO}
    assert not any(f["code"] == "UNKNOWN_RULE_PROFILE" for r in records for f in r["findings"])
    monkeypatch.delenv("PITWATCH_PROFILES")
    return url, log, [r["hand_id"] for r in records]


def test_replay_without_the_profile_stops_naming_it_and_the_variable(
        booked: tuple[str, Path, list[str]]) -> None:
    url, _, hands = booked
    ran = pitwatch("replay", "--from", DAY, "--to", DAY, "--db", url)
    assert_one_line_usage_error(ran, f"'{CASINO}' ({len(hands):,} hands)", "PITWATCH_PROFILES",
                                "it knows house-v1", "--profile")


def test_replay_with_the_profile_again_finds_no_difference(
        booked: tuple[str, Path, list[str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    url, _, _ = booked
    monkeypatch.setenv("PITWATCH_PROFILES", str(tmp_path / "profiles"))
    ran = pitwatch("replay", "--from", DAY, "--to", DAY, "--db", url)
    assert ran.code == 0, ran.stderr
    assert "0 differ" in ran.stderr


def test_a_what_if_needs_no_posted_profile(booked: tuple[str, Path, list[str]]) -> None:
    url, _, hands = booked
    ran = pitwatch("replay", "--from", DAY, "--to", DAY, "--db", url, "--profile", "house-v1")
    assert ran.code == 0, ran.stderr
    assert f"replayed {len(hands):,} hand(s)" in ran.stderr  # a copy of house-v1: 0 differ
    assert "0 differ" in ran.stderr


@pytest.mark.parametrize("source", ["archive", "log"])
def test_report_hand_stops_instead_of_saying_the_booking_changed(
        booked: tuple[str, Path, list[str]], tmp_path: Path, source: str) -> None:
    url, log, hands = booked
    events = ["--events", str(log)] if source == "log" else []
    ran = pitwatch("report", "hand", hands[0], "--ledger", url, *events,
                   "-o", str(tmp_path / "hand.html"))
    assert_one_line_usage_error(ran, f"hand {hands[0]} was judged under rule profile "
                                     f"'{CASINO}'", "PITWATCH_PROFILES")
    assert not (tmp_path / "hand.html").exists()


def test_report_hand_of_the_booking_alone_is_written(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """With neither events nor an archive to re-derive from, nothing is judged again:
    the booking's report is written as before."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = casino_log(tmp_path / "day.jsonl")
    monkeypatch.setenv("PITWATCH_PROFILES", str(casino_profiles(tmp_path)))
    ran = pitwatch("adjudicate", str(log), "--ledger", url, "--no-archive")
    hand = orjson.loads(ran.stdout.splitlines()[0])["hand_id"]
    monkeypatch.delenv("PITWATCH_PROFILES")
    ran = pitwatch("report", "hand", hand, "--ledger", url, "-o", str(tmp_path / "hand.html"))
    assert ran.code == 0, ran.stderr
    assert CASINO in (tmp_path / "hand.html").read_text()


def test_report_daily_copies_stop_too(booked: tuple[str, Path, list[str]],
                                      tmp_path: Path) -> None:
    url, _, _ = booked
    out = tmp_path / "daily" / "daily.html"
    out.parent.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", url, "-o", str(out))
    assert_one_line_usage_error(ran, "the day's hands to review were judged under rule "
                                f"profile '{CASINO}'", "PITWATCH_PROFILES")
    # Stopped before anything was written (QA: the daily report was written, then the
    # command failed with exit 2 and no hand's report).
    assert list(out.parent.iterdir()) == []
    assert "wrote" not in ran.stderr


def test_only_profiles_judged_known_then_are_counted(
        booked: tuple[str, Path, list[str]]) -> None:
    """The query behind the replay's check: the casino's hands count against a run
    knowing house-v1 only, none against one knowing both, and none outside the span."""
    url, _, hands = booked
    engine = open_existing_ledger(url)
    day = dt.date(2026, 1, 5)
    assert judged_under_unknown(engine, ["house-v1"], day, day) == {CASINO: len(hands)}
    assert judged_under_unknown(engine, ["house-v1", CASINO], day, day) == {}
    later = dt.date(2026, 1, 6)
    assert judged_under_unknown(engine, ["house-v1"], later, later) == {}
    assert judged_under_unknown(engine, ["house-v1"], day, day, table_id="T001") == {
        CASINO: sum(1 for h in hands if h.startswith("T001"))}
    engine.dispose()


def test_hands_judged_unknown_when_booked_do_not_count(tmp_path: Path) -> None:
    """A table that posted a profile nobody had: its hands were "unknown rule profile"
    when booked and are so again; a replay of them is the same, not refused."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = casino_log(tmp_path / "day.jsonl")
    # Kept as the day's run kept it (``adjudicate --ledger`` now refuses such a table
    # before booking it; a ledger may hold them from before, or from the pipeline).
    engine = open_ledger(url)
    keep(engine, log.read_bytes().splitlines())  # every hand rejected
    day = dt.date(2026, 1, 5)
    assert judged_under_unknown(engine, read_profiles().names(), day, day) == {}
    engine.dispose()
    ran = pitwatch("replay", "--from", DAY, "--to", DAY, "--db", url)
    assert ran.code == 0, ran.stderr
    assert "0 differ" in ran.stderr


def test_a_profile_edited_in_place_is_named_as_the_cause_not_the_log(
        booked: tuple[str, Path, list[str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: the casino changed a number in its profile's folder after the day was booked;
    ``report hand`` of a hand it changes said "the log or the booking changed after the
    hand was booked", though ``verify`` found the archive and the booking as they were.
    The archive's events are the booked hand's (same seq range and last hash): the report
    says the rules applied changed, naming the profile."""
    url, _, hands = booked
    hcf = tmp_path / "profiles" / CASINO / "hcf.toml"
    hcf.write_text(hcf.read_text("utf-8").replace("dp_qualify_min_cards = 3",
                                                  "dp_qualify_min_cards = 5"), "utf-8")
    monkeypatch.setenv("PITWATCH_PROFILES", str(tmp_path / "profiles"))
    assert pitwatch("verify", "--db", url).code == 0
    replayed = pitwatch("replay", "--from", DAY, "--to", DAY, "--db", url)
    assert replayed.code == 1
    changed = [h for h in hands if h in replayed.stdout]
    assert changed
    ran = pitwatch("report", "hand", changed[0], "--ledger", url,
                   "-o", str(tmp_path / "hand.html"))
    assert ran.code == 1 and "differs" in ran.stderr  # written, with the difference shown
    page = " ".join((tmp_path / "hand.html").read_text().split())
    assert f"the rules applied (the rule profile &#39;{CASINO}&#39; as its folder" in page
    assert "the log or the booking changed" not in page
    # Section 6 quotes the rule book (house-v1's numbers): the page says whose they are.
    assert f"This hand was judged under profile &#39;{CASINO}&#39;" in page

"""``pitwatch replay``: an archived day under its own profile gives every stored record
again; under a profile with one changed payout, exactly the affected hands are listed.

The affected hands are found from the events alone, by hand: the what-if raises the HCF
flush bonus for a 4-card flush from 2 to 3 to 1 (HCF-8), so a hand changes exactly when a
seat with a flush bonus wager holds a best flush of exactly 4 suited cards among its 7
and the table paid that seat a bonus (it was in action and the designated player could
pay; the log is fault-free, so the table paid what the posted rules say).
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine, select

from services.archive.replay import profiles_as, replay_archive
from services.games.profile import RuleProfile
from services.games.profiles import read_profiles
from services.ledger.db import open_ledger
from tests.profiles import PROFILES
from tests.unit.archive.support import keep, simulated_log
from tests.unit.cli.helpers import pitwatch

DAY = dt.date(2026, 1, 5)
HOUSE_FOLDER = Path(__file__).resolve().parents[3] / "services/games/profiles/house-v1"
ROW = 'flush_bonus_paytable = { "7" = 200, "6" = 50, "5" = 10, "4" = 2 }'


def changed_profile(root: Path) -> Path:
    folder = root / "profiles" / "four-flush-pays-3"
    shutil.copytree(HOUSE_FOLDER, folder)
    toml = (folder / "hcf.toml").read_text()
    assert ROW in toml
    (folder / "hcf.toml").write_text(toml.replace(ROW, ROW.replace('"4" = 2', '"4" = 3')))
    return folder


def four_flush_bonus_hands(lines: tuple[bytes, ...]) -> set[str]:
    hands: dict[str, list[dict[str, object]]] = defaultdict(list)
    for line in lines:
        event = orjson.loads(line)
        if event["hand_id"]:
            hands[event["hand_id"]].append(event)
    affected = set()
    for hand_id, events in hands.items():
        def seats(kind: str, value: str, events: list[dict[str, object]] = events) -> set[int]:
            return {e["data"]["seat"] for e in events  # type: ignore[index]
                    if e["type"] == kind and e["data"]["kind"] == value}  # type: ignore[index]

        cards: dict[int, list[str]] = defaultdict(list)
        for e in events:
            data = e["data"]
            if e["type"] == "card_dealt" and data["to"] == "seat" and data["card"]:  # type: ignore[index]
                cards[data["seat"]].append(data["card"])  # type: ignore[index]
        for seat in seats("wager", "flush_bonus") & seats("payout", "bonus"):
            if max(Counter(card[1] for card in cards[seat]).values()) == 4:
                affected.add(hand_id)
    return affected


def test_an_archived_day_replays_to_its_stored_records(engine: Engine) -> None:
    log = simulated_log()
    done, _ = keep(engine, log.lines)
    report = replay_archive(engine, DAY, DAY, PROFILES)
    assert report.differences == []
    assert report.hands == report.same == len({r.hand_id for r in done.records})
    assert report.events == len(log.lines)


def test_one_changed_payout_lists_exactly_the_affected_hands(engine: Engine,
                                                             tmp_path: Path) -> None:
    log = simulated_log(faults=False)
    keep(engine, log.lines)
    folder = changed_profile(tmp_path)
    profile: RuleProfile = read_profiles(folder.parent).get(folder.name)
    report = replay_archive(engine, DAY, DAY, profiles_as(profile))
    expected = four_flush_bonus_hands(log.lines)
    assert len(expected) >= 20  # enough hands for the test to mean something
    assert {d.hand_id for d in report.differences} == expected
    for difference in report.differences:
        assert any(c.startswith("expected.net.") for c in difference.changes)
        assert any("HCF-8 MISPAY" in c for c in difference.changes)
        assert 'status: "ok" -> "discrepancy"' in difference.changes


@pytest.mark.parametrize("engine", ["native", "python"])
def test_the_command_audits_and_answers_a_what_if(tmp_path: Path, engine: str) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0
    audit = pitwatch("replay", "--from", "2026-01-05", "--to", "2026-01-05", "--db", url,
                     "--engine", engine)
    assert audit.code == 0, audit.stderr
    assert "0 differ" in audit.stderr
    folder = changed_profile(tmp_path)
    what_if = pitwatch("replay", "--from", "2026-01-05", "--to", "2026-01-05", "--db", url,
                       "--profile", str(folder), "--format", "json", "--engine", engine)
    assert what_if.code == 0, what_if.stderr
    listed = {d["hand"] for d in orjson.loads(what_if.stdout)["differences"]}
    assert listed == four_flush_bonus_hands(simulated_log(faults=False).lines)


@pytest.mark.parametrize("args, words", [
    (["--from", "2026-01-06", "--to", "2026-01-06"], ["--from", "no booked hand ended"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--table", "NOPE"],
     ["--table", "no hand at table NOPE", "its tables: T001, T002, T003"]),
    (["--from", "2026-01-06", "--to", "2026-01-06", "--table", "T001"],
     ["--from", "no booked hand of table T001 ended from 2026-01-06 to 2026-01-06"]),
    (["--from", "2026-01-05", "--to", "2026-01-04"], ["before --from"]),
    (["--from", "05/01/2026", "--to", "2026-01-05"], ["not a day"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--profile", "house-v9"],
     ["unknown rule profile"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--engine", "rust"], ["unknown engine"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--profile", " "],
     ["--profile", "give a built-in profile's name or a profile folder"]),
])
def test_usage_errors_are_one_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    from tests.unit.cli.helpers import assert_one_line_usage_error

    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines[:200]) + b"\n")
    pitwatch("adjudicate", str(log), "--ledger", url)
    assert_one_line_usage_error(pitwatch("replay", *args, "--db", url), *words)


# ---------------------------------------------------------------- a replay holds a batch


def test_records_are_compared_a_batch_at_a_time_and_only_the_spans(
        engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Day two of a two-day log replayed (day one's hands are replayed too, as they must
    be, but never compared), three records a query: the booked records fetched are day
    two's hands' only, never more than three at once, and the what-if's differences are
    the same as in one batch."""
    from services.archive import replay
    from tests.unit.archive.test_verify_start import two_day_log

    lines = two_day_log()
    day_two = {e["hand_id"] for e in map(orjson.loads, lines)
               if e["hand_id"] and e["ts"].startswith("2026-01-06")}
    keep(engine, lines)
    folder = changed_profile(tmp_path)
    what_if = profiles_as(read_profiles(folder.parent).get(folder.name))
    whole = replay_archive(engine, DAY + dt.timedelta(days=1), DAY + dt.timedelta(days=1),
                           what_if)
    fetched: list[list[str]] = []
    stored = replay._Comparison._stored

    def spied(self: replay._Comparison, hand_ids: list[str]) -> list[tuple[str, dt.date | None,
                                                                           str]]:
        fetched.append(list(hand_ids))
        return stored(self, hand_ids)

    monkeypatch.setattr(replay, "COMPARED_PER_QUERY", 3)
    monkeypatch.setattr(replay._Comparison, "_stored", spied)
    batched = replay_archive(engine, DAY + dt.timedelta(days=1), DAY + dt.timedelta(days=1),
                             what_if)
    assert {h for ids in fetched for h in ids} == day_two and max(map(len, fetched)) == 3
    assert batched.hands == whole.hands == len(day_two)
    assert [(d.hand_id, d.changes) for d in batched.differences] == [
        (d.hand_id, d.changes) for d in whole.differences]
    expected = four_flush_bonus_hands(tuple(lines)) & day_two
    assert expected and {d.hand_id for d in batched.differences} == expected
    assert [d.hand_id for d in batched.differences] == sorted(expected)


def test_hands_the_archive_never_closes_are_listed_in_hand_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two booked hands whose segments were deleted behind the dropped guard: the replay
    never sees them, and lists each (found by the ledger's record) among the others."""
    from sqlalchemy import text

    from services.archive import replay
    from services.ledger.db import open_ledger

    engine = open_ledger(f"sqlite:///{tmp_path}/day.sqlite")
    done, _ = keep(engine, simulated_log(faults=False).lines)
    hands = sorted({r.hand_id for r in done.records if r.table_id == "T001"})
    gone = [hands[3], hands[7]]
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_segments_no_delete"))
        for hand_id in gone:
            conn.execute(text("DELETE FROM archive_segments WHERE hand_id = :h"), {"h": hand_id})
    monkeypatch.setattr(replay, "COMPARED_PER_QUERY", 3)
    report = replay_archive(engine, DAY, DAY, PROFILES, "T001")
    assert report.hands == len(hands)
    never = [d for d in report.differences if d.replayed is None]
    assert [d.hand_id for d in never] == gone
    assert all(d.changes == ["the archive's events never close this hand"] for d in never)
    assert [d.hand_id for d in report.differences] == sorted(
        d.hand_id for d in report.differences)
    engine.dispose()


# ---------------------------------------------------------------- hands booked without a day


def two_runs_without_leave_open(tmp_path: Path) -> tuple[str, set[str], set[str]]:
    """The two-day log run as two days, the first without ``--leave-open``: the second
    run judges its tables as new, so each of its hands is booked rejected (GEN-5
    NO_CONFIGURATION) with no day, while the archive holds its events on 2026-01-06 and
    reads the two days as one stream. The database's URL and each day's hand ids."""
    from tests.unit.archive.test_verify_start import two_day_log

    url = f"sqlite:///{tmp_path}/days.sqlite"
    days: dict[str, list[bytes]] = defaultdict(list)
    hands: dict[str, set[str]] = defaultdict(set)
    for line in two_day_log():
        event = orjson.loads(line)
        days[event["ts"][:10]].append(line)
        if event["hand_id"]:
            hands[event["ts"][:10]].add(event["hand_id"])
    assert sorted(days) == ["2026-01-05", "2026-01-06"]
    for day, lines in sorted(days.items()):  # each day's file, as the callers read them
        (tmp_path / f"{day}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    pitwatch("adjudicate", str(tmp_path / "2026-01-05.jsonl"), "--ledger", url)
    # The second day kept as a run of it alone keeps it: ``adjudicate --ledger`` now
    # refuses it before booking (no state kept), but a ledger may hold such a day from a
    # pitwatch before that refusal.
    ledger = open_ledger(url)
    keep(ledger, days["2026-01-06"])
    ledger.dispose()
    one, two = hands["2026-01-05"], hands["2026-01-06"]
    assert one and two and not one & two
    return url, one, two


def test_hands_booked_without_a_day_are_replayed_on_their_archived_day(tmp_path: Path
                                                                        ) -> None:
    """Day two's hands were booked rejected with ``hands.day`` NULL; the archive holds
    them on 2026-01-06 and, read as one stream with day one, judges them under day one's
    configuration. A replay of day two compares every one of them and lists each as
    differing (exit 1): it said "no booked hand ended" (exit 2) when it selected hands by
    the ledger's day only. Day one's replay does not take them in; both days' lists
    exactly them."""
    from services.ledger.db import open_ledger
    from services.ledger.models import Hand

    url, one, two = two_runs_without_leave_open(tmp_path)
    ledger = open_ledger(url)
    with ledger.connect() as conn:
        booked = {h: (status, day) for h, status, day in conn.execute(
            select(Hand.hand_id, Hand.status, Hand.day))}
    ledger.dispose()
    assert set(booked) == one | two
    assert {booked[h] for h in two} == {("rejected", None)}  # what the test is about
    assert {booked[h][1] for h in one} == {DAY}

    def replayed(first: str, last: str) -> tuple[int, dict[str, object]]:
        ran = pitwatch("replay", "--from", first, "--to", last, "--db", url,
                       "--format", "json")
        return ran.code, orjson.loads(ran.stdout) if ran.stdout else {"error": ran.stderr}

    code, second = replayed("2026-01-06", "2026-01-06")
    assert code == 1, second
    assert second["hands"] == len(two) and second["same"] == 0
    differences = second["differences"]
    assert isinstance(differences, list)
    assert [d["hand"] for d in differences] == sorted(two)
    for d in differences:
        assert d["day"] == "2026-01-06"  # the archive's day, not the ledger's none
        assert any(c.startswith('status: "rejected" -> ') for c in d["changes"]), d
        assert any(c.startswith("finding removed: GEN-5 NO_CONFIGURATION")
                   for c in d["changes"]), d
    code, first = replayed("2026-01-05", "2026-01-05")
    assert (code, first["hands"], first["same"], first["differences"]) == (
        0, len(one), len(one), [])
    code, both = replayed("2026-01-05", "2026-01-06")
    assert code == 1 and both["hands"] == len(one) + len(two)
    assert both["differences"] == differences


def test_a_hand_booked_without_a_day_belongs_to_its_last_archived_segments_day(
        tmp_path: Path) -> None:
    """A hand's day in the archive is its last segment's: a day-two hand given a second
    segment on 2026-01-07 (behind the dropped guard, a copy of its own) is replayed with
    day three's span, no longer with day two's."""
    from sqlalchemy import text

    from services.ledger.db import open_ledger

    url, _one, two = two_runs_without_leave_open(tmp_path)
    moved = sorted(two)[0]
    ledger = open_ledger(url)
    with ledger.begin() as conn:
        conn.execute(text(
            "INSERT INTO archive_segments SELECT '2026-01-07', table_id, head_seq, "
            "ordinal + 1000000, hand_id, first_seq, last_seq, events, refused, "
            "first_prev_hash, last_hash, first_ts, last_ts, codec, body_sha256, body "
            "FROM archive_segments WHERE hand_id = :h"), {"h": moved})
    second = replay_archive(ledger, DAY + dt.timedelta(days=1), DAY + dt.timedelta(days=1),
                            PROFILES)
    third = replay_archive(ledger, DAY + dt.timedelta(days=2), DAY + dt.timedelta(days=2),
                           PROFILES)
    ledger.dispose()
    assert {d.hand_id for d in second.differences} == two - {moved}
    assert second.hands == len(two) - 1
    assert third.hands == 1 and [(d.hand_id, d.day) for d in third.differences] == [
        (moved, DAY + dt.timedelta(days=2))]


def test_hands_booked_without_a_day_are_found_on_both_databases(engine: Engine) -> None:
    """The same two runs kept by the run keeper on SQLite and PostgreSQL (its day
    partitions): day two's replay compares exactly day two's hands, each listed on
    2026-01-06; day one's, exactly day one's, none differing."""
    from tests.unit.archive.test_verify_start import two_day_log

    days: dict[str, list[bytes]] = defaultdict(list)
    for line in two_day_log():
        days[orjson.loads(line)["ts"][:10]].append(line)
    kept = [keep(engine, days[day])[0] for day in sorted(days)]
    one, two = ({r.hand_id for r in done.records} for done in kept)
    assert {r.status for r in kept[1].records} == {"rejected"}
    assert all(r.ended_at is None for r in kept[1].records)  # booked without a day
    second = replay_archive(engine, DAY + dt.timedelta(days=1), DAY + dt.timedelta(days=1),
                            PROFILES)
    assert second.hands == len(two) and second.same == 0
    assert [(d.hand_id, d.day) for d in second.differences] == [
        (h, DAY + dt.timedelta(days=1)) for h in sorted(two)]
    first = replay_archive(engine, DAY, DAY, PROFILES)
    assert (first.hands, first.same, first.differences) == (len(one), len(one), [])

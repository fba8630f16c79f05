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
from sqlalchemy import Engine

from services.archive.replay import profiles_as, replay_archive
from services.games.profile import RuleProfile
from services.games.profiles import read_profiles
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
    (["--from", "2026-01-06", "--to", "2026-01-06"], ["no booked hand ended"]),
    (["--from", "2026-01-05", "--to", "2026-01-04"], ["before --from"]),
    (["--from", "05/01/2026", "--to", "2026-01-05"], ["not a day"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--profile", "house-v9"],
     ["unknown rule profile"]),
    (["--from", "2026-01-05", "--to", "2026-01-05", "--engine", "rust"], ["unknown engine"]),
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

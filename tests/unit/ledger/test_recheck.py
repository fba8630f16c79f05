"""``services.ledger.recheck``: every booked hand's postings and rake rows held to its
stored record, and rows filed under a hand that was never booked.

The expected counts come from the records themselves (two postings per movement, one
rake row per rake movement, as the ledger's rules say) and the changes are made with raw
SQL behind dropped guards (as someone with the owner's rights would), never through the
code under test.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, text

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.ledger.recheck import hand_breaks, recheck_ledger
from tests.unit.archive.support import keep, simulated_log
from tests.unit.cli.helpers import failing_verify, pitwatch
from tests.unit.ledger.builders import hcf_seat1_wins, move, record
from tests.unit.ledger.dbread import rows

RAKE_KINDS = {"rake", "rake_refund"}


def booked(engine: Engine) -> tuple[int, int]:
    """(hands, postings) a simulated day books, counted from its records."""
    done, _ = keep(engine, simulated_log().lines)
    postings = sum(2 * len(r.movements or []) for r in done.records)
    return len(done.records), postings


def test_a_booked_day_is_as_its_records_say(engine: Engine) -> None:
    hands, postings = booked(engine)
    report = recheck_ledger(engine)
    assert report.breaks == []
    assert (report.hands, report.postings) == (hands, postings)
    assert postings == rows(engine, "SELECT COUNT(*) FROM postings")[0][0] > 0


def test_postings_under_a_hand_never_booked_are_found(engine: Engine) -> None:
    """A balanced pair under a new hand id moves 1,000 chips between two players'
    balances. The pending-hand foreign key refuses it at commit on pitwatch's connections;
    SQLite checks foreign keys only on a connection that asks (its own shell does not), and
    on PostgreSQL the constraint is dropped first, as the owner could."""
    booked(engine)
    (first, second), = rows(engine, "SELECT MIN(name), MAX(name) FROM accounts "
                                    "WHERE name LIKE 'player:%'")
    insert = ("INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
              "VALUES ('X-1', 'e-1', :leg, 1, :account, :amount, 'payout')")
    legs = [{"leg": 0, "account": first, "amount": -1000},
            {"leg": 1, "account": second, "amount": 1000}]
    if engine.dialect.name == "sqlite":
        assert engine.url.database is not None
        shell = sqlite3.connect(engine.url.database)  # foreign keys off, as in the shell
        with shell:
            shell.executemany(insert, legs)
        shell.close()
    else:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE hands_pending DROP CONSTRAINT "
                              "fk_hands_pending_hand_id_hands"))
            conn.execute(text(insert), legs)
    found = recheck_ledger(engine).breaks
    assert [(b.hand_id, b.event_id) for b in found] == [("X-1", "e-1"), ("X-1", "e-1")]
    assert all("never booked" in b.message for b in found)
    # A span or a table looks only at the hands left pending: the same hand, once.
    for found in (recheck_ledger(engine, first_day=dt.date(2026, 1, 5)).breaks,
                  recheck_ledger(engine, table_id="T001").breaks):
        assert [(b.hand_id, b.event_id) for b in found] == [("X-1", None)]
        assert "left pending" in found[0].message


def sqlite_day(tmp_path: Path) -> Engine:
    engine = open_ledger(f"sqlite:///{tmp_path}/day.sqlite")
    booked(engine)
    return engine


def payout_of(engine: Engine) -> tuple[str, str, str]:
    """(table, hand, event) of a payout in the middle of the day."""
    payouts = rows(engine, "SELECT h.table_id, p.hand_id, p.event_id FROM postings p "
                           "JOIN hands h ON h.hand_id = p.hand_id WHERE p.kind = 'payout' "
                           "AND p.leg = 0 ORDER BY p.hand_id, p.event_id")
    return payouts[len(payouts) // 2]


Change = Callable[[Engine, str, str], None]


def _sql(*statements: str) -> Change:
    def change(engine: Engine, hand: str, event: str) -> None:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement), {"hand": hand, "event": event})
    return change


CHANGES: dict[str, tuple[Change, list[str]]] = {
    "a payout pair deleted": (_sql(
        "DROP TRIGGER postings_no_delete",
        "DELETE FROM postings WHERE hand_id = :hand AND event_id = :event"),
        ["leg 0 is missing", "leg 1 is missing"]),
    "one leg's amount changed": (_sql(
        "DROP TRIGGER postings_no_update",
        "UPDATE postings SET amount = amount + 1 WHERE hand_id = :hand AND "
        "event_id = :event AND leg = 1"),
        ["leg 1 holds"]),
    "a leg moved to another account": (_sql(
        "DROP TRIGGER postings_no_update",
        "UPDATE postings SET account = 'house:rake' WHERE hand_id = :hand AND "
        "event_id = :event AND leg = 1"),
        ["leg 1 holds"]),
    "the stored record rewritten": (_sql(
        "DROP TRIGGER hands_no_update",
        "UPDATE hands SET record_json = replace(record_json, '\"status\":', "
        "'\"status\" :') WHERE hand_id = :hand"),
        ["not the record booked"]),
    "a finding row deleted": (_sql(
        "DROP TRIGGER findings_no_delete",
        "DELETE FROM findings WHERE hand_id = (SELECT MIN(hand_id) FROM findings "
        "WHERE severity = 'critical' AND origin = 'record') AND ordinal = 0"),
        ["findings rows are not its record's (missing #0"]),
    "a finding's severity lowered": (_sql(
        "DROP TRIGGER findings_no_update",
        "UPDATE findings SET severity = 'info' WHERE hand_id = (SELECT MIN(hand_id) "
        "FROM findings WHERE severity = 'critical' AND origin = 'record') AND ordinal = 0"),
        ["findings rows are not its record's (missing #0"]),
    "the hand's status made ok": (_sql(
        "DROP TRIGGER hands_no_update",
        "UPDATE hands SET status = 'ok' WHERE hand_id = :hand"),
        ["the hands row holds status 'ok'"]),
    "the hand's day moved": (_sql(
        "DROP TRIGGER hands_no_update",
        "UPDATE hands SET day = '2026-01-06' WHERE hand_id = :hand"),
        ["the hands row holds day '2026-01-06' (its record: '2026-01-05')"]),
    "the hand's last hash changed": (_sql(
        "DROP TRIGGER hands_no_update",
        "UPDATE hands SET last_hash = '0' || substr(last_hash, 2) WHERE hand_id = :hand"),
        ["the hands row holds last_hash"]),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_change_behind_a_dropped_guard_is_found(tmp_path: Path, name: str) -> None:
    engine = sqlite_day(tmp_path)
    table, hand, event = payout_of(engine)
    if "finding" in name or "status" in name:  # a hand with a critical finding
        (table, hand), = rows(engine, "SELECT h.table_id, h.hand_id FROM hands h JOIN "
                                      "findings f ON f.hand_id = h.hand_id WHERE f.severity = "
                                      "'critical' AND f.origin = 'record' ORDER BY h.hand_id "
                                      "LIMIT 1")
    change, messages = CHANGES[name]
    change(engine, hand, event)
    found = recheck_ledger(engine).breaks
    assert [(b.table_id, b.hand_id) for b in found] == [(table, hand)] * len(messages)
    for b, message in zip(found, messages, strict=True):
        assert message in b.message, b.message
    engine.dispose()


def test_a_rewritten_record_with_its_hash_is_held_to_its_postings(tmp_path: Path) -> None:
    """The record and its hash rewritten together (a payout to another seat's player),
    the postings left: the record now gives other postings than the ledger holds."""
    engine = sqlite_day(tmp_path)
    table, hand, event = payout_of(engine)
    (raw,), = rows(engine, "SELECT record_json FROM hands WHERE hand_id = :h", h=hand)
    record = orjson.loads(raw)
    movement = next(m for m in record["movements"] if m["event_id"] == event)
    movement["amount"] += 5
    changed = orjson.dumps(record).decode()
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER hands_no_update"))
        conn.execute(text("UPDATE hands SET record_json = :j, record_sha256 = :s "
                          "WHERE hand_id = :h"),
                     {"j": changed, "s": hashlib.sha256(changed.encode()).hexdigest(),
                      "h": hand})
    found = recheck_ledger(engine).breaks
    assert [(b.table_id, b.hand_id, b.event_id) for b in found] == [(table, hand, event)] * 2
    assert "its record gives" in found[0].message
    engine.dispose()


def test_a_refused_hand_holds_no_rows() -> None:
    record = b'{"v":1}'
    sha = hashlib.sha256(record).hexdigest()
    found = hand_breaks("T1", "T1-1", "refused", sha, record.decode(),
                        [("e", 0, 1, "player:P1", -5, "payout")], [])
    assert found and "cannot be read" in found[0].message  # the record itself is bad
    assert hand_breaks("T1", "T1-1", "refused", sha, record.decode(), [], []) != []


def test_the_command_fails_on_a_ledger_difference(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    clean = pitwatch("verify", "--db", url)
    assert clean.code == 0, clean.stderr
    assert "posting(s) against their records: as booked" in clean.stderr
    engine = open_ledger(url)
    table, hand, event = payout_of(engine)
    CHANGES["a payout pair deleted"][0](engine, hand, event)
    engine.dispose()
    breaks = failing_verify(url)["breaks"]
    assert [(b["table"], b["event"], b["kind"]) for b in breaks] == [
        (table, event, "ledger")] * 2


def remove_hand(engine: Engine, hand: str) -> None:
    """The hand, its postings, rake and findings deleted behind the dropped guards."""
    with engine.begin() as conn:
        for table in ("findings", "rake", "postings", "hands"):
            conn.execute(text(f"DROP TRIGGER IF EXISTS {table}_no_delete"))
            conn.execute(text(f"DELETE FROM {table} WHERE hand_id = :h"), {"h": hand})


def test_a_hand_removed_from_the_ledger_is_found_in_the_archive(tmp_path: Path) -> None:
    """Its events are still archived, and the ledger booked the table's next hand."""
    engine = sqlite_day(tmp_path)
    hands = rows(engine, "SELECT table_id, hand_id FROM hands ORDER BY table_id, last_seq")
    table, hand = hands[len(hands) // 2]
    following = hands[len(hands) // 2 + 1]
    assert following[0] == table
    remove_hand(engine, hand)
    found = recheck_ledger(engine).breaks
    assert [(b.table_id, b.hand_id) for b in found] == [(table, hand)]
    assert f"booked hand {following[1]} after it" in found[0].message
    engine.dispose()


def test_a_tables_last_hands_are_not_judged_without_a_later_one_booked(tmp_path: Path) -> None:
    """In the pipeline the archive may be ahead of the ledger: a table's last archived
    hands with no record yet may still be on their way, so they are no break, but a note
    names them (a stopped ledger service, or the hands removed)."""
    engine = sqlite_day(tmp_path)
    assert recheck_ledger(engine).notes == []
    (table, hand), = rows(engine, "SELECT table_id, hand_id FROM hands "
                                  "ORDER BY last_seq DESC LIMIT 1")
    remove_hand(engine, hand)
    report = recheck_ledger(engine)
    assert report.breaks == []
    assert len(report.notes) == 1
    assert report.notes[0].startswith(f"table {table}: its last 1 archived hand(s) ({hand})")
    engine.dispose()


def test_refused_hands_hold_their_refusal_and_nothing_else(engine: Engine) -> None:
    """A hand the ledger refused (seat 1's wager never leaves the layout, GEN-8) is stored
    with no postings and one ledger finding after its record's: as booked. Without that
    finding row it is not."""
    unbookable = record("T1-5", [move(1, "stack:1", "layout:1", 5, "wager")])
    assert [r.status for r in post_many(engine, [hcf_seat1_wins(), unbookable])] == [
        "posted", "refused"]
    assert recheck_ledger(engine).breaks == []
    if engine.dialect.name != "sqlite":
        return  # the change below needs SQLite's guard dropped
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER findings_no_delete"))
        conn.execute(text("DELETE FROM findings WHERE hand_id = 'T1-5'"))
    found = recheck_ledger(engine).breaks
    assert [b.hand_id for b in found] == ["T1-5"]
    assert "booked as refused with 0 ledger finding row(s)" in found[0].message


class _NoSemaphores:
    """A machine where no second process can be made (no POSIX semaphores)."""

    def __init__(self, *_: Any, **__: Any) -> None:
        raise OSError(38, "Function not implemented")


class _DiesAtOnce:
    """A second process that dies before it answers (killed, out of memory)."""

    def __init__(self, *_: Any, **__: Any) -> None:
        pass

    def submit(self, *_: Any) -> Future[Any]:
        died: Future[Any] = Future()
        died.set_exception(BrokenProcessPool("a child process terminated abruptly"))
        return died

    def shutdown(self, *_: Any, **__: Any) -> None:
        pass


@pytest.mark.parametrize("machine", ["one core", "no semaphores", "the process dies"])
def test_one_core_or_two_the_command_says_the_same(tmp_path: Path, machine: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """On two cores the ledger's and the cases' checks run in a second process beside the
    archive's (``services.integrity``); on one, where no second process can be made, or
    when it dies, here after it. A ledger with a payout pair deleted: the same breaks,
    counts, notes and lines every way."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=True).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    engine = open_ledger(url)
    _, hand, event = payout_of(engine)
    CHANGES["a payout pair deleted"][0](engine, hand, event)
    engine.dispose()
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    two = pitwatch("verify", "--db", url, "--format", "json")
    if machine == "one core":
        monkeypatch.setattr("os.cpu_count", lambda: 1)
    else:
        monkeypatch.setattr("services.integrity.ProcessPoolExecutor",
                            _NoSemaphores if machine == "no semaphores" else _DiesAtOnce)
    other = pitwatch("verify", "--db", url, "--format", "json")
    assert two.code == other.code == 1
    assert two.stdout == other.stdout and two.stderr == other.stderr
    body = orjson.loads(other.stdout)
    assert body["hands"] > 0 and any(b["kind"] == "ledger" for b in body["breaks"])


def test_a_hand_moved_out_of_the_span_is_still_checked_in_it(tmp_path: Path) -> None:
    """QA: a hand whose ``day`` was moved to the next day (behind the dropped guard)
    passed ``verify --from D --to D`` of its own day, the archive's segments of that day
    holding it; the span's hands are those booked in it and those the archive holds in it
    now, each checked once."""
    engine = sqlite_day(tmp_path)
    day = dt.date(2026, 1, 5)
    honest = recheck_ledger(engine, first_day=day, last_day=day)
    assert honest.breaks == [] and honest.hands == recheck_ledger(engine).hands
    _table, hand, _event = payout_of(engine)
    _sql("DROP TRIGGER hands_no_update",
         "UPDATE hands SET day = '2026-01-06' WHERE hand_id = :hand")(engine, hand, "")
    for span in ((day, day), (day, None), (dt.date(2026, 1, 6), None)):
        found = recheck_ledger(engine, first_day=span[0], last_day=span[1]).breaks
        assert [(b.hand_id, "day '2026-01-06' (its record: '2026-01-05')" in b.message)
                for b in found] == [(hand, True)], (span, found)
    engine.dispose()

"""Surveillance that persists, on SQLite: state and profiles across runs (the same cases
run on PostgreSQL in tests/integration/test_surveillance_store_pg.py), and the state
codec on its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import orjson
import pytest
from sqlalchemy import Engine

from services.ledger.db import open_ledger
from services.surveillance import SurveillanceEngine
from services.surveillance.state import StateError, dump, load
from tests.unit.surveillance import store_cases
from tests.unit.surveillance.scenario import hand


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    engine = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    yield engine
    engine.dispose()


def test_a_pattern_spread_over_two_days_is_seen(db: Engine) -> None:
    store_cases.a_pattern_spread_over_two_days_is_seen(db)


def test_a_hand_offered_again_is_not_counted_twice(db: Engine) -> None:
    store_cases.a_hand_offered_again_is_not_counted_twice(db)


def test_profiles_are_stored_as_rows(db: Engine) -> None:
    store_cases.profiles_are_stored_as_rows(db)


def test_the_exported_state_round_trips_through_json() -> None:
    """Every component of an engine that saw sweethearting, flushes and misdeals comes
    back equal after JSON (orjson) and load, tuple keys and evidence included."""
    engine = SurveillanceEngine(store_cases.CONFIG)
    store_cases.observe(engine, store_cases.week(1, 60))
    engine.review()
    state = engine.export_state()
    again = orjson.loads(orjson.dumps(state))
    assert again == state
    restored = SurveillanceEngine(store_cases.CONFIG)
    restored.restore_state(again, set())
    assert restored.export_state() == state
    assert restored.sweethearting.dealers["D1"].pairs["A"].events == {"hcf": 12}


def test_state_codec_refuses_what_it_does_not_know() -> None:
    """Only the surveillance dataclasses can be stored or made: a stored type name the
    code does not know is an error, never an object of some other class."""
    with pytest.raises(StateError):
        dump(object())
    with pytest.raises(StateError):
        load({"$": "os.system", "cmd": "true"})
    assert load(dump({("a", 1): {"x"}})) == {("a", 1): {"x"}}


def test_new_hands_are_only_kept_for_a_stored_engine() -> None:
    """An engine without a database does not keep every hand's key (the Kafka service
    replays 30 days of hands)."""
    engine = SurveillanceEngine(store_cases.CONFIG)
    engine.observe(*hand(1))
    assert engine.new_hands == [] and engine.seen is None
    assert msgspec.json.encode(engine.export_state())


def test_a_state_stored_before_the_strata_is_refused() -> None:
    """SURV-2/7 counted seat-hands in ``concentration._Dealer``/``_Pair`` and SURV-8 all
    sizes together in ``drift._Entity``; those counts are not payouts or strata, so a
    state holding them is refused, never read as today's counters."""
    with pytest.raises(StateError, match=r"concentration\._Dealer"):
        load({"$": "concentration._Dealer", "seat_hands": 12, "events": 1,
              "pairs": {"$dict": []}})
    with pytest.raises(StateError, match=r"drift\._Entity"):
        load({"$": "drift._Entity", "hands": 5, "counts": {"$dict": []}, "chips": 0})


def test_surveil_with_a_state_stored_before_the_strata_is_one_line(tmp_path: Path) -> None:
    """The refusal above, met by ``pitwatch surveil --db``: one line naming the option, the
    stored type and what to do, exit 2 (it was a traceback)."""
    from sqlalchemy import insert

    from services.ledger.profile_models import SurveillanceState
    from tests.unit.cli.helpers import pitwatch

    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    engine = open_ledger(url)
    with engine.begin() as conn:
        conn.execute(insert(SurveillanceState), [{"component": "sweethearting", "state": (
            '{"$": "concentration._Dealer", "seat_hands": 12, "events": 1, '
            '"pairs": {"$dict": []}}')}])
    engine.dispose()
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    ran = pitwatch("surveil", str(log), "--db", url)
    assert ran.code == 2
    said = " ".join(ran.stderr.split())
    assert "Traceback" not in ran.stderr
    assert "--db" in said and "'concentration._Dealer'" in said
    assert "surveil into a new database, or delete its surveillance_state rows" in said

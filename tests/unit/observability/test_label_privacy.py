"""No metric label value ever comes from a player id or a hand id.

A simulated log (two games, every fault the simulators know, a tampered event) is
rewritten so every player id reads ``PLAYERSECRET<n>X`` — a pattern nothing else in the
log has — then run through the embedded runner with the adjudicator's metrics observing
every step. The whole exposition text is then scanned: the pattern must not appear
anywhere, no hand id may appear, and every ``table`` / ``dealer`` label must be a table or
dealer id the log really used (so the scan is looking at identifiers, not at nothing).
"""

from __future__ import annotations

import orjson
import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from services.adjudicator.embedded import EmbeddedRunner, iter_lines
from services.observability.labels import REDACTED
from services.observability.metrics import AdjudicatorMetrics
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.observability.logs import EventDict, player_ids, rename_players, rewrite

SECRET = "PLAYERSECRET"
GAMES = ("chinese", "russian")


@pytest.fixture(scope="module")
def renamed_log() -> list[EventDict]:
    faults = frozenset().union(*(available_faults(g) for g in GAMES))
    log = simulate(list(GAMES), tables=4, hands=40, seed=5, faults=faults, fault_rate=0.15, profile=HOUSE)
    mapping = {pid: f"{SECRET}{n:04d}X" for n, pid in enumerate(sorted(player_ids(log.events)))}
    return rewrite(log.events, rename_players(mapping))


def _log(renamed: list[EventDict], dealer_is_a_player: bool) -> list[EventDict]:
    events = renamed
    if dealer_is_a_player:
        # A table system that writes a player's id where the dealer's belongs.
        def dealer_to_player(e: EventDict) -> None:
            if e["type"] == "hand_started":
                e["data"]["dealer_id"] = e["data"]["seats"][0]["player_id"]
        events = rewrite(events, dealer_to_player)
    return events


def _exposition(events: list[EventDict]) -> str:
    registry = CollectorRegistry()
    metrics = AdjudicatorMetrics(registry)
    runner = EmbeddedRunner(PROFILES)
    for raw, where in iter_lines(orjson.dumps(e) for e in events):
        metrics.observe_step(runner.feed(raw, where))
    metrics.observe_step(runner.finish(), consumed=0)
    return generate_latest(registry).decode()


def _label_values(text: str, label: str) -> set[str]:
    return {sample.labels[label]
            for family in text_string_to_metric_families(text)
            for sample in family.samples if label in sample.labels}


@pytest.mark.parametrize("dealer_is_a_player", [False, True])
def test_no_player_or_hand_id_in_any_label(renamed_log: list[EventDict],
                                           dealer_is_a_player: bool) -> None:
    events = _log(renamed_log, dealer_is_a_player)
    assert any(SECRET in pid for pid in player_ids(events))
    text = _exposition(events)

    assert SECRET not in text
    hand_ids = {e["hand_id"] for e in events if e["hand_id"]}
    assert not [h for h in hand_ids if h in text]

    tables = {e["table_id"] for e in events}
    dealers = {e["data"]["dealer_id"] for e in events if e["type"] == "hand_started"}
    assert _label_values(text, "table") == tables  # every table seen, nothing else
    seen_dealers = _label_values(text, "dealer")
    assert seen_dealers, "the log has mispays: the dealer label must be exercised"
    if dealer_is_a_player:
        assert seen_dealers == {REDACTED}
    else:
        assert seen_dealers <= dealers


def test_rewritten_log_keeps_its_chain_faults() -> None:
    """The rewrite re-links intact links only: the tampered event is still caught, and
    nothing else is (same chain alerts before and after renaming the players)."""
    log = simulate(["russian"], tables=2, hands=30, seed=9, faults=frozenset({"tamper"}), profile=HOUSE)
    renamed = rewrite(log.events, rename_players(
        {pid: f"{SECRET}{n}X" for n, pid in enumerate(sorted(player_ids(log.events)))}))

    def chain_alerts(events: list[EventDict]) -> list[tuple[str, str, int | None]]:
        runner = EmbeddedRunner(PROFILES)
        found = []
        for raw, where in iter_lines(orjson.dumps(e) for e in events):
            found += [(a.table_id, a.code, a.seq) for a in runner.feed(raw, where).alerts]
        return found

    before = chain_alerts(log.events)
    assert [code for _, code, _ in before] == ["CHAIN_BROKEN", "CHAIN_BROKEN"]
    assert chain_alerts(renamed) == before

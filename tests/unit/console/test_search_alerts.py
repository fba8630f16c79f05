"""The console's search finds alerts by every field it is given, as it finds hands (QA: a
search for a player's or a day's hands listed every alert of the rule or table beside
them, another player's and another day's too; a search by player or dealer alone listed
no alert; "hcf-7" found nothing where "HCF-7" found the hands).

By hand (tests/unit/ledger/builders.py, table T1, all dealt by D7): T1-000001 (alice, bob)
and T1-000002 (carol, bob) end on day one (2024-05-01), T1-000003 (alice, bob) on day
two, with an HCF-7 finding. Three alerts archived:

- SWEETHEARTING (SURV-2) on T1-000002: dealer D7 favours carol;
- SWEETHEARTING (SURV-2) on T1-000003: dealer D8 favours alice (another dealer: the
  alert names whom its evidence names);
- CHIP_DUMPING (SURV-4) on T1-000001: alice to bob.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
from sqlalchemy import Engine

from services.archive.writer import archive_run
from services.console.search import HandQuery, find_alerts
from services.events.contract import Alert, Finding
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand
from tests.unit.console.support import add_users, console_client, csrf_of, log_in
from tests.unit.ledger.builders import DAY_TWO, hcf_dp_collects, hcf_seat1_wins


def _alert(code: str, rule: str, hand_id: str, evidence: dict[str, object]) -> Alert:
    return Alert(table_id="T1", code=code, rule=rule, severity="critical",
                 message=f"{code} on {hand_id}", hand_id=hand_id, evidence=evidence)


ALERTS = [
    _alert("SWEETHEARTING", "SURV-2", "T1-000002", {"dealer": "D7", "player": "carol"}),
    _alert("SWEETHEARTING", "SURV-2", "T1-000003", {"dealer": "D8", "player": "alice"}),
    _alert("CHIP_DUMPING", "SURV-4", "T1-000001", {"from_player": "alice",
                                                   "to_player": "bob"}),
]


def _engine(tmp_path: Path) -> Engine:
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    late = msgspec.structs.replace(
        hcf_seat1_wins("T1-000003", ended_at=DAY_TWO), status="discrepancy",
        findings=[Finding(code="MISPAY", rule="HCF-7", severity="critical", seat=1, amount=5,
                          message="overpaid by 5")])
    for hand in (hcf_seat1_wins(), hcf_dp_collects(), late):
        post_hand(engine, hand)
    archive_run(engine, [], ALERTS)
    return engine


def found(engine: Engine, **fields: str) -> list[tuple[str, str | None]]:
    return sorted((a.code, a.hand_id) for a in find_alerts(engine, HandQuery(**fields)))


def test_alerts_are_found_by_every_field_given(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    everything = [("CHIP_DUMPING", "T1-000001"), ("SWEETHEARTING", "T1-000002"),
                  ("SWEETHEARTING", "T1-000003")]
    assert found(engine, table="T1") == everything
    assert found(engine, rule="SURV-2") == [("SWEETHEARTING", "T1-000002"),
                                            ("SWEETHEARTING", "T1-000003")]
    assert found(engine, rule="surv-2", player="alice") == [("SWEETHEARTING", "T1-000003")]
    assert found(engine, player="alice") == [("CHIP_DUMPING", "T1-000001"),
                                             ("SWEETHEARTING", "T1-000003")]
    assert found(engine, player="bob") == [("CHIP_DUMPING", "T1-000001")]
    assert found(engine, dealer="D7") == [("SWEETHEARTING", "T1-000002")]
    assert found(engine, dealer="D7", player="alice") == []
    assert found(engine, table="T1", date_to="2024-05-01") == [
        ("CHIP_DUMPING", "T1-000001"), ("SWEETHEARTING", "T1-000002")]
    assert found(engine, date_from="2024-05-02") == [("SWEETHEARTING", "T1-000003")]
    # "ali" is in alice's alerts' JSON, but names no one: a player is matched whole.
    assert found(engine, player="ali") == []
    assert found(engine, player="nobody") == []


def test_the_search_page_lists_the_players_alerts_and_any_capitals_of_a_rule(
        tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "aud") == 303
    csrf = csrf_of(client)
    page = client.post("/search", data={"csrf": csrf, "player": "carol"}).text
    assert "<h2>Alerts (1)</h2>" in page and "SWEETHEARTING" in page
    page = client.post("/search", data={"csrf": csrf, "rule": "hcf-7"}).text
    assert re.findall(r'<td class="id"><a href="/hands/([^"]+)">', page) == ["T1-000003"]

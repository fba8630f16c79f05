"""Bounded label values, lag arithmetic, and the /metrics endpoint."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, Counter

from services.observability import labels, replay, server
from services.pipeline.kafka_watch import lag_per_partition
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def test_bounded_values_admit_the_first_n_then_other() -> None:
    bounded = labels.BoundedValues(2)
    assert [bounded(v) for v in ("T1", "T2", "T3", "T1", "T4", "T2")] == [
        "T1", "T2", "other", "T1", "other", "T2"]
    assert bounded(None) == "unknown" and bounded("") == "unknown"


def test_floor_id_label_refuses_player_ids() -> None:
    bounded = labels.BoundedValues(10)
    assert labels.floor_id_label("D1", {"P1", "P2"}, bounded) == "D1"
    assert labels.floor_id_label("P2", {"P1", "P2"}, bounded) == "redacted"


@pytest.mark.parametrize(("code", "rule", "category"), [
    ("MISPAY", "CP-7", "settlement"),
    ("RAKE_UNDER", "GEN-10", "settlement"),
    ("POT_NOT_EMPTY", "GEN-8", "settlement"),
    ("CHAIN_BROKEN", "SURV-9", "integrity"),
    ("FOREIGN_CARD", "GEN-1", "integrity"),
    ("CHIPS_DURING_HAND", "GEN-3", "integrity"),
    ("WAGER_OUTSIDE_LIMITS", "GEN-5", "integrity"),
    ("DRAW_OUT_OF_ORDER", "RP-5", "procedure"),
    ("WALK_AWAY_FOLD", "GEN-7", "procedure"),
    # Past-posting and a wrong deck are integrity whatever rule they cite (QA problem 5:
    # HCF-3 and FCD-1 were procedure, so the integrity panel left them out).
    ("PAST_POSTING", "HCF-3", "integrity"),
    ("PAST_POSTING", "SURV-1", "integrity"),
    ("LATE_WAGER", "SURV-1", "integrity"),
    ("WAGER_CHANGED_AFTER_BET", "SURV-1", "integrity"),
    ("BUY_AFTER_REPLACEMENT", "SURV-1", "integrity"),
    ("WRONG_DECK", "FCD-1", "integrity"),
    ("WRONG_DECK", "RP-1", "integrity"),
    ("WRONG_DECK", "TH-9", "integrity"),
    # Cards shown or turned that are not the cards dealt, as SHOWDOWN_MISMATCH (GEN-1):
    # integrity whatever game rule they cite (were procedure until 2026-12-07).
    ("SHOWDOWN_MISMATCH", "GEN-1", "integrity"),
    ("SHOWN_CARDS_MISMATCH", "FCD-9", "integrity"),
    ("SHOWN_CARDS_MISMATCH", "TH-9", "integrity"),
    ("CARDS_SWITCHED", "RP-10", "integrity"),
    ("DEALER_CARDS_SWITCHED", "RP-10", "integrity"),
    # Neighbours that stay procedure: how the cards were dealt, not which cards.
    ("PLAYER_COUNT", "FCD-1", "procedure"),
    ("WRONG_DEAL_COUNT", "RP-1", "procedure"),
    ("WAGER_NOT_IN_GAME", "HCF-3", "procedure"),
])
def test_finding_category(code: str, rule: str, category: str) -> None:
    assert labels.finding_category(code, rule) == category


def test_closed_vocabulary() -> None:
    assert labels.closed("hcf", labels.GAMES) == "hcf"
    assert labels.closed("baccarat", labels.GAMES) == "unknown"
    assert labels.closed(None, labels.GAMES) == "unknown"


def test_lag_per_partition() -> None:
    """Partition 0: end 10, committed 4 -> 6 behind. Partition 1: never committed, log
    starts at 2 (retention), ends at 5 -> 3 behind. Partition 2: committed -1 (no offset)
    reads from its start 0, end 7 -> 7. Partition 3: committed past a truncated end -> 0."""
    assert lag_per_partition(
        ends={0: 10, 1: 5, 2: 7, 3: 4}, starts={0: 0, 1: 2, 2: 0, 3: 0},
        committed={0: 4, 2: -1, 3: 9}) == {0: 6, 1: 3, 2: 7, 3: 0}


def test_metrics_endpoint_serves_the_registry() -> None:
    registry = CollectorRegistry()
    Counter("pitwatch_probe_total", "probe", registry=registry).inc(3)
    port = server.start_metrics_server(0, registry=registry)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        body = reply.read().decode()
    assert "pitwatch_probe_total 3.0" in body


def test_metrics_port_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(server.PORT_ENV, raising=False)
    assert server.metrics_port_from_env("ledger") == 9402
    monkeypatch.setenv(server.PORT_ENV, "19555")
    assert server.metrics_port_from_env("ledger") == 19555
    monkeypatch.setenv(server.PORT_ENV, "off")
    assert server.metrics_port_from_env("adjudicator") is None
    assert server.serve_metrics("adjudicator") is None
    monkeypatch.setenv(server.PORT_ENV, "70000")
    with pytest.raises(ValueError, match="not a TCP port"):
        server.metrics_port_from_env("adjudicator")


def test_a_taken_port_leaves_the_service_running(monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv(server.PORT_ENV, str(taken.getsockname()[1]))
        monkeypatch.setenv(server.ADDR_ENV, "127.0.0.1")
        assert server.serve_metrics("ledger") is None
    assert "ledger metrics not served" in caplog.text


@pytest.mark.parametrize(("addr", "reason"), [
    ("999.1.1.1", "not an IPv4 or IPv6 address"),  # the tester's value
    ("127.0.0.1:9000", "not an IPv4 or IPv6 address"),  # a port written into the address
    ("192.0.2.1", "Cannot assign requested address"),  # TEST-NET-1: no host's own address
])
def test_an_address_the_endpoint_cannot_listen_on_is_refused_by_name(
        addr: str, reason: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """It was logged as "metrics not served ...; set PITWATCH_METRICS_PORT" (the wrong
    variable) and the service ran on without metrics; a bad port is refused at start."""
    monkeypatch.setenv(server.PORT_ENV, "0")
    monkeypatch.setenv(server.ADDR_ENV, addr)
    for check in (server.metrics_port_from_env, server.serve_metrics):
        with pytest.raises(server.SettingError) as refused:
            check("surveillance")
        assert refused.value.variable == "PITWATCH_METRICS_ADDR"
        assert str(refused.value) == (
            f"PITWATCH_METRICS_ADDR={addr!r} is not an address this host can listen on "
            f"({reason}): give one of its own, e.g. 127.0.0.1 (loopback) or 0.0.0.0 "
            "(every interface)")
    assert "metrics not served" not in caplog.text


@pytest.mark.parametrize("addr", ["127.0.0.1", " 127.0.0.1 ", "localhost", "0.0.0.0", ""])
def test_addresses_of_this_host_pass(addr: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Blank is the default, loopback.)"""
    monkeypatch.setenv(server.PORT_ENV, "19555")
    monkeypatch.setenv(server.ADDR_ENV, addr)
    assert server.metrics_port_from_env("ledger") == 19555
    assert server.metrics_addr_from_env() == (addr.strip() or "127.0.0.1")


def test_metrics_off_reads_no_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing listens, so an address that is none is no reason to stop."""
    monkeypatch.setenv(server.PORT_ENV, "off")
    monkeypatch.setenv(server.ADDR_ENV, "999.1.1.1")
    assert server.metrics_port_from_env("adjudicator") is None
    assert server.serve_metrics("adjudicator") is None


@pytest.mark.parametrize("command", [
    ["serve", "adjudicator"],
    ["serve", "ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"],
    ["serve", "surveillance"],
])
def test_every_metrics_service_stops_at_a_bad_address_in_one_line(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before anything connects: no broker answers here, and the line is still the
    address's (the surveillance service logged it and ran on; nothing is created)."""
    monkeypatch.setenv(server.PORT_ENV, "19413")
    monkeypatch.setenv(server.ADDR_ENV, "999.1.1.1")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    ran = pitwatch(*(a.format(tmp=tmp_path) for a in command),
                   "--bootstrap", f"127.0.0.1:{closed}")
    assert_one_line_usage_error(ran, "Invalid value for PITWATCH_METRICS_ADDR: "
                                     "PITWATCH_METRICS_ADDR='999.1.1.1' is not an address")
    assert list(tmp_path.iterdir()) == []


def test_the_replay_tool_stops_at_a_bad_address(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text("", encoding="utf-8")
    monkeypatch.setenv(server.PORT_ENV, "0")
    monkeypatch.setenv(server.ADDR_ENV, "192.0.2.1")
    with pytest.raises(SystemExit) as stopped:
        replay.main([str(log), "--exit"])
    assert stopped.value.code == 2
    assert "error: PITWATCH_METRICS_ADDR='192.0.2.1' is not an address" in capsys.readouterr().err

"""The ledger's and the archive's default consumer groups carry the topic prefix, as the
adjudicator's group and changelog do: two pipelines on one broker with different
prefixes shared ``pitwatch-ledger`` (and ``pitwatch-archive``), each member that joined
stopping the other pipeline's consumers for a rebalance. A group given by option or
environment is used as given."""

from __future__ import annotations

from typing import Any

import pytest

from services.pipeline import archive_service, ledger_service
from services.pipeline.archive_service import ArchiveServiceSettings
from services.pipeline.ledger_service import LedgerServiceSettings
from tests.unit.cli.helpers import pitwatch


def test_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PITWATCH_LEDGER_GROUP", "PITWATCH_ARCHIVE_GROUP", "PITWATCH_TOPIC_PREFIX"):
        monkeypatch.delenv(name, raising=False)
    assert LedgerServiceSettings.from_env().group_id == "pitwatch-ledger"
    assert ArchiveServiceSettings.from_env().group_id == "pitwatch-archive"
    monkeypatch.setenv("PITWATCH_TOPIC_PREFIX", "site2.")
    assert LedgerServiceSettings.from_env().group_id == "site2.pitwatch-ledger"
    assert ArchiveServiceSettings.from_env().group_id == "site2.pitwatch-archive"
    assert LedgerServiceSettings.from_env().topic == "site2.adjudications"
    monkeypatch.setenv("PITWATCH_LEDGER_GROUP", "books")
    monkeypatch.setenv("PITWATCH_ARCHIVE_GROUP", "vault")
    assert LedgerServiceSettings.from_env().group_id == "books"
    assert ArchiveServiceSettings.from_env().group_id == "vault"


@pytest.mark.parametrize("service", ["ledger", "archive"])
def test_from_the_command_line(service: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve ledger|archive``, with the service's loop replaced by one that keeps the
    settings it was given (no broker here)."""
    for name in ("PITWATCH_LEDGER_GROUP", "PITWATCH_ARCHIVE_GROUP", "PITWATCH_TOPIC_PREFIX"):
        monkeypatch.delenv(name, raising=False)
    given: list[Any] = []

    async def keep(settings: Any) -> None:
        given.append(settings)

    module = ledger_service if service == "ledger" else archive_service
    monkeypatch.setattr(module, "serve", keep)
    db = ["--db", "sqlite:///:memory:"]
    for args, group in ((["--topic-prefix", "site2."], f"site2.pitwatch-{service}"),
                        ([], f"pitwatch-{service}"),
                        (["--topic-prefix", "site2.", "--group", "mine"], "mine")):
        ran = pitwatch("serve", service, *db, *args)
        assert ran.code == 0, ran.stderr
        assert given.pop().group_id == group

"""Alembic is the only way the schema is made: the migrated schema must equal the models."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Engine, Integer, MetaData, Table, inspect

from services.ledger.db import alembic_config, current_revision, head_revision, open_ledger
from services.ledger.models import Base
from services.ledger.posting import post_hand
from tests.unit.ledger.builders import hcf_seat1_wins


def schema_drift(engine: Engine) -> list[object]:
    """What ``alembic revision --autogenerate`` would write: empty when models == DB."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))


def test_migrated_database_matches_the_models(engine: Engine) -> None:
    assert schema_drift(engine) == []


def test_drift_is_detected(engine: Engine) -> None:
    """The comparison above can fail: a model column the migrations lack is reported."""
    drifted = MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(drifted)
    Table("hands", drifted, Column("extra", Integer), extend_existing=True)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), drifted)
    assert [entry[0] for entry in diff] == ["add_column"]


def test_open_ledger_creates_the_directory_and_migrates_to_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/deep/er/ledger.sqlite"
    engine = open_ledger(url)
    assert (tmp_path / "deep" / "er" / "ledger.sqlite").exists()
    assert current_revision(engine) == head_revision() == "0003_surveillance_profiles"
    assert set(inspect(engine).get_table_names()) == {
        "alembic_version",
        "hands",
        "accounts",
        "postings",
        "rake",
        "findings",
        "conflicts",
        "surveillance_state",
        "surveillance_hands",
        "surveillance_players",
        "surveillance_pairs",
        "surveillance_dealer_players",
        "surveillance_dealers",
    }
    engine.dispose()


def test_reopening_keeps_the_data(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    first = open_ledger(url)
    post_hand(first, hcf_seat1_wins())
    first.dispose()
    again = open_ledger(url)
    assert post_hand(again, hcf_seat1_wins()).status == "duplicate"
    again.dispose()


def test_downgrade_to_base_and_back(engine: Engine) -> None:
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert schema_drift(engine) == []
    assert post_hand(engine, hcf_seat1_wins()).status == "posted"


def test_in_memory_database_works() -> None:
    engine = open_ledger("sqlite://")
    assert schema_drift(engine) == []
    assert post_hand(engine, hcf_seat1_wins()).status == "posted"
    engine.dispose()

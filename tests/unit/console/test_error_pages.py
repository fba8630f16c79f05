"""What the console's refusals tell a logged-in user, and what they keep to the server.

QA (exploratory, 2026-12): the hand report of a hand the database does not hold was a
404 naming the database's URL (its password hidden) to any logged-in user; the server's
database address is none of a console user's business.
"""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from tests.unit.console.support import console_client, log_in

URL = "postgresql+psycopg://pitwatch:S3cretPw@db.internal.example:5433/pitwatch"


@pytest.mark.parametrize("path", ["/reports/hand/NOPE-000001", "/reports/hand-pdf/NOPE-000001",
                                  "/hands/NOPE-000001"])
def test_a_hand_not_in_the_database_is_not_found_without_the_database_address(
        day_engine: Engine, path: str) -> None:
    client = console_client(day_engine, url=URL)
    assert log_in(client, "olga") == 303
    page = client.get(path)
    assert page.status_code == 404
    assert ("hand &#39;NOPE-000001&#39; is not in this database: check the hand id"
            in page.text), page.text[-600:]
    for part in ("db.internal.example", "5433", "postgresql", "S3cretPw", "***"):
        assert part not in page.text, part


def test_a_report_refusal_from_below_names_no_database() -> None:
    """A refusal of the report layer that names the URL (typed or as shown) reads "this
    database" on the console's page."""
    from services.console.pages import without_url

    shown = "postgresql+psycopg://pitwatch:***@db.internal.example:5433/pitwatch"
    assert without_url(f"hand 'X' is not in the ledger at {shown}", URL) == (
        "hand 'X' is not in the ledger at this database")
    assert without_url(f"no ledger at {URL}", URL) == "no ledger at this database"
    assert without_url("hand 'X' has events but never produced a record", URL) == (
        "hand 'X' has events but never produced a record")

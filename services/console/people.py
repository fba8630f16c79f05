"""Players and dealers: the cases and alerts about each, and their surveillance profiles
when the database holds them.

The profiles are the surveillance tables of migration ``0003_surveillance_profiles``
(``services/ledger/profile_models.py``: per player, per dealer and game, per dealer and
player), written by ``pitwatch surveil --db``. A database migrated before 0003 has no such
tables: the page says so plainly instead of failing, and the empty tables of a database
where surveillance never ran with ``--db`` say that too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, Table, case, func, inspect, select

from services.cases.queries import CaseFilter, CaseSummary, list_cases
from services.ledger.case_tables import Case, CaseTag
from services.ledger.models import Hand
from services.ledger.profile_models import DealerPlayerRow, DealerRow, PlayerRow

PROFILE_TABLES: dict[str, Table] = {
    "player": PlayerRow.__table__,  # type: ignore[dict-item]
    "dealer": DealerRow.__table__,  # type: ignore[dict-item]
    "dealer_player": DealerPlayerRow.__table__,  # type: ignore[dict-item]
}
TOP = 50


@dataclass(frozen=True)
class Person:
    kind: str  # player or dealer
    person_id: str
    cases: int  # cases naming them, any state
    open_cases: int
    hands: int | None = None  # dealers: hands dealt (booked)


@dataclass(frozen=True)
class Profiles:
    """Rows of the surveillance profile tables (column -> value); ``present``: the
    database has the tables (migration 0003) at all."""

    present: bool
    players: list[dict[str, Any]] = field(default_factory=list)
    dealers: list[dict[str, Any]] = field(default_factory=list)
    dealer_players: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class PersonPage:
    kind: str
    person_id: str
    cases: list[CaseSummary]
    profiles: Profiles


def people(engine: Engine, kind: str, limit: int = TOP) -> list[Person]:
    """The players or dealers named by the most cases (dealers also by hands dealt)."""
    open_ = func.sum(case((Case.state != "closed", 1), else_=0))
    query = (select(CaseTag.value, func.count(func.distinct(CaseTag.case_id)), open_)
             .join(Case, Case.case_id == CaseTag.case_id).where(CaseTag.kind == kind)
             .group_by(CaseTag.value).order_by(func.count(func.distinct(CaseTag.case_id))
                                               .desc(), CaseTag.value).limit(limit))
    with engine.connect() as conn:
        found = [Person(kind, v, int(n), int(o or 0)) for v, n, o in conn.execute(query)]
        if kind != "dealer":
            return found
        dealt = {str(d): int(n) for d, n in conn.execute(
            select(Hand.dealer_id, func.count()).where(Hand.dealer_id.is_not(None))
            .group_by(Hand.dealer_id))}
    named = {p.person_id for p in found}
    found = [Person(p.kind, p.person_id, p.cases, p.open_cases, int(dealt.get(p.person_id, 0)))
             for p in found]
    quiet = [Person("dealer", d, 0, 0, int(n)) for d, n in sorted(dealt.items())
             if d not in named]
    return (found + quiet)[:limit]


def profiles(engine: Engine, person: tuple[str, str] | None = None,
             limit: int = TOP) -> Profiles:
    """The stored profiles (all, the largest first, or one player's or dealer's)."""
    present = set(inspect(engine).get_table_names())
    if not {t.name for t in PROFILE_TABLES.values()} <= present:
        return Profiles(present=False)
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for key, table in PROFILE_TABLES.items():
            query = select(table)
            if person is not None:
                kind, pid = person
                column = f"{kind}_id"
                if column not in table.c:
                    out[key] = []
                    continue
                query = query.where(table.c[column] == pid)
            if "hands" in table.c:
                query = query.order_by(table.c["hands"].desc())
            out[key] = [dict(row._mapping) for row in conn.execute(query.limit(limit))]
    return Profiles(True, out["player"], out["dealer"], out["dealer_player"])


def person_page(engine: Engine, kind: str, person_id: str) -> PersonPage:
    wanted = CaseFilter(player=person_id) if kind == "player" else CaseFilter(dealer=person_id)
    return PersonPage(kind, person_id, list_cases(engine, wanted),
                      profiles(engine, (kind, person_id)))

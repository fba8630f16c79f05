"""Surveillance that persists: the engine's state and its profiles in the database.

``pitwatch surveil LOG --db URL`` loads the state the last run left (``load_engine``),
surveils the log's hands on top of it, and writes it back (``save_engine``): counters,
looks, alert gate and links, the hands counted (so the same hand offered again, in the
same log or another, is not counted twice), and the profiles of
``services.surveillance.player_profiles`` as rows a director can query. A pattern spread
over a week, a few hands a day, is then tested on the week's counts.

The database is the ledger's (SQLite or PostgreSQL, migrated by the same Alembic
history: ``services.ledger.profile_models``). A run's writes are one transaction: a run
that fails leaves the previous state as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import orjson
from sqlalchemy import Engine, delete, insert, select

from services.ledger.db import write_transaction
from services.ledger.profile_models import (
    DealerPlayerRow,
    DealerRow,
    PairRow,
    PlayerRow,
    SurveillanceState,
    SurveilledHand,
)
from services.surveillance.engine import SurveillanceEngine
from services.surveillance.player_profiles import ProfileBook
from services.surveillance.profile import SurveillanceConfig

BATCH = 5000  # rows per INSERT


def load_engine(db: Engine, config: SurveillanceConfig) -> SurveillanceEngine:
    """An engine holding the stored state (a new one if nothing is stored)."""
    engine = SurveillanceEngine(config)
    with db.connect() as connection:
        stored = {row.component: orjson.loads(row.state)
                  for row in connection.execute(select(SurveillanceState))}
        seen = {(row.table_id, row.hand_id)
                for row in connection.execute(select(SurveilledHand))}
    engine.restore_state(stored, seen)
    return engine


def new_engine(config: SurveillanceConfig) -> SurveillanceEngine:
    """An engine with nothing stored yet that keeps the hands it counts for
    ``save_engine``, as ``load_engine`` gives one on an empty database. A plain
    ``SurveillanceEngine`` keeps none: the demo saved its state without them, and
    ``surveil --db`` on the demo's database then counted every hand twice (QA)."""
    engine = SurveillanceEngine(config)
    engine.restore_state({}, set())
    return engine


def save_engine(db: Engine, engine: SurveillanceEngine) -> None:
    """Write the engine's state, the hands it counted since it was loaded and its
    profiles, in one transaction. Only an engine that keeps its hands (``load_engine``,
    ``new_engine``): state stored without them would count those hands again."""
    if engine.seen is None:
        raise ValueError("save_engine: this engine keeps no record of the hands it counted "
                         "(make it with load_engine or new_engine)")
    state = engine.export_state()
    with write_transaction(db) as connection:
        connection.execute(delete(SurveillanceState))
        connection.execute(insert(SurveillanceState), [
            {"component": name, "state": orjson.dumps(value).decode()}
            for name, value in state.items()])
        hands = [{"table_id": t, "hand_id": h} for t, h in engine.new_hands]
        for start in range(0, len(hands), BATCH):
            connection.execute(insert(SurveilledHand), hands[start:start + BATCH])
        for table, rows in profile_rows(engine.profiles):
            connection.execute(delete(table))
            for start in range(0, len(rows), BATCH):
                connection.execute(insert(table), rows[start:start + BATCH])
    engine.new_hands = []


def profile_rows(book: ProfileBook) -> Iterator[tuple[type, list[dict[str, object]]]]:
    yield PlayerRow, [{"player_id": p, "hands": v.hands, "wagered": v.wagered, "net": v.net}
                      for p, v in sorted(book.players.items())]
    yield PairRow, [{"player_a": a, "player_b": b, "hands": v.hands, "a_won": v.a_won,
                     "b_won": v.b_won, "a_to_b": v.a_to_b, "b_to_a": v.b_to_a}
                    for (a, b), v in sorted(book.pairs.items())]
    yield DealerPlayerRow, [
        {"dealer_id": d, "player_id": p, "game": g, "seat_hands": v.seat_hands,
         "wagered": v.wagered, "net": v.net, "favourable_mispays": v.favourable_mispays,
         "mispay_chips": v.mispay_chips, "exposures": v.exposures}
        for (d, p, g), v in sorted(book.dealer_players.items())]
    yield DealerRow, [
        {"dealer_id": d, "game": g, "hands": v.hands, "misdeals": v.misdeals,
         "exposed_hands": v.exposed_hands, "mispay_hands": v.mispay_hands,
         "mispay_chips": v.mispay_chips, "wagered": v.wagered, "house_net": v.house_net}
        for (d, g), v in sorted(book.dealers.items())]


@dataclass(frozen=True)
class DealerHold:
    """What a dealer held from one player against the game's hold over the whole floor."""

    dealer_id: str
    player_id: str
    game: str
    seat_hands: int
    wagered: int
    held: int  # chips the player lost with this dealer (minus its net)
    theoretical: float  # wagered times the floor's hold rate in this game


def dealer_holds(db: Engine) -> list[DealerHold]:
    """Every stored dealer-and-player profile with its hold and theoretical hold. The
    floor's hold rate of a game is what all its players lost over all they wagered."""
    columns = (DealerPlayerRow.dealer_id, DealerPlayerRow.player_id, DealerPlayerRow.game,
               DealerPlayerRow.seat_hands, DealerPlayerRow.wagered, DealerPlayerRow.net)
    with db.connect() as connection:
        rows = list(connection.execute(select(*columns)))
    wagered: dict[str, int] = {}
    lost: dict[str, int] = {}
    for row in rows:
        wagered[row.game] = wagered.get(row.game, 0) + row.wagered
        lost[row.game] = lost.get(row.game, 0) - row.net
    rate = {g: lost[g] / wagered[g] if wagered[g] else 0.0 for g in wagered}
    return [DealerHold(r.dealer_id, r.player_id, r.game, r.seat_hands, r.wagered, -r.net,
                       r.wagered * rate[r.game])
            for r in sorted(rows, key=lambda r: (r.dealer_id, r.player_id, r.game))]

"""From the record's movement account names to ledger accounts.

A record's movements name *table* places (``stack:3``, ``layout:3``, ``pot``, ``house``);
the ledger books them against *durable* accounts: a seat's stack is its player's account
(a player keeps one balance across seats, tables and days), a layout and a pot belong to
one table, and the house is split in two so the rake (the room's fee, HCF-12, GEN-10) is
never mixed with the house's gaming win or loss (house-banked games, GEN-8).

Why strict: the movement names are the contract between the adjudicator and the ledger.
A name, kind or direction outside it means the two disagree, and booking a guess would
put chips in the wrong account silently; the hand is refused with the reason instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from services.events.numerals import is_ascii_number
from services.ledger.models import AccountKind

HOUSE_RAKE = "house:rake"
HOUSE_BANK = "house:bank"

# Which kind of table place each movement kind may take chips from and give them to
# (events.md, "How chips move"). ``rake_refund`` is the rake given back for a hand that
# turned out dead (HCF-12); it comes out of the rake account, not the house bank.
PLACES_BY_KIND: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "wager": (frozenset({"stack"}), frozenset({"layout"})),
    "bet": (frozenset({"stack"}), frozenset({"pot"})),
    "wager_collected": (frozenset({"layout"}), frozenset({"stack", "house"})),
    "payout": (frozenset({"stack", "house", "pot"}), frozenset({"stack"})),
    "collection": (frozenset({"stack"}), frozenset({"stack", "house"})),
    "rake": (frozenset({"stack", "pot"}), frozenset({"house"})),
    "rake_refund": (frozenset({"house"}), frozenset({"stack"})),
    "layout_return": (frozenset({"layout"}), frozenset({"stack"})),
}
RAKE_KINDS = frozenset({"rake", "rake_refund"})
# A layout belongs to one seat: chips go onto it from that seat and back to that seat.
SAME_SEAT_KINDS = frozenset({"wager", "layout_return"})


class MovementRejected(ValueError):
    """A movement the ledger cannot book; the message says which and why."""


@dataclass(frozen=True)
class LedgerAccount:
    name: str
    kind: AccountKind
    table_id: str | None = None
    seat: int | None = None
    player_id: str | None = None


@dataclass(frozen=True)
class Place:
    """A parsed movement account name: ``kind`` is stack, layout, pot or house."""

    name: str
    kind: str
    seat: int | None


@lru_cache(maxsize=4096)
def parse_place(name: str) -> Place:
    """``stack:3`` -> Place("stack:3", "stack", 3); ``pot`` -> Place("pot", "pot", None).

    Cached: a table has a handful of place names and every hand repeats them.
    """
    if name in ("pot", "house"):
        return Place(name, name, None)
    kind, sep, seat_text = name.partition(":")
    if sep and kind in ("stack", "layout") and is_ascii_number(seat_text) and seat_text[0] != "0":
        return Place(name, kind, int(seat_text))
    raise MovementRejected(f"unknown account name {name!r}")


def check_direction(kind: str, source: Place, target: Place) -> None:
    """Refuse a movement whose kind does not move chips between these places."""
    if kind not in PLACES_BY_KIND:
        raise MovementRejected(f"unknown movement kind {kind!r}")
    sources, targets = PLACES_BY_KIND[kind]
    if source.kind not in sources or target.kind not in targets:
        raise MovementRejected(f"a {kind!r} movement cannot go from {source.kind} to {target.kind}")
    if kind in SAME_SEAT_KINDS and source.seat != target.seat:
        raise MovementRejected(
            f"a {kind!r} movement must stay with one seat, got seats {source.seat} and "
            f"{target.seat}"
        )


@lru_cache(maxsize=8192)
def checked_places(kind: str, source_name: str, target_name: str) -> tuple[Place, Place]:
    """Both ends of a movement, parsed and checked against its kind.

    Cached: the same few (kind, from, to) triples recur in every hand of a table, so
    each is validated once per process (a refusal raises and is never cached).
    """
    source, target = parse_place(source_name), parse_place(target_name)
    check_direction(kind, source, target)
    return source, target


def ledger_account(
    place: Place, movement_kind: str, table_id: str, players: dict[str, str]
) -> LedgerAccount:
    """The durable account a table place stands for in this hand."""
    if place.kind == "stack":
        player_id = players.get(str(place.seat))
        if player_id is None:
            raise MovementRejected(f"seat {place.seat} has no player in the record's players")
        return _account(place.kind, None, None, player_id, False)
    return _account(place.kind, table_id, place.seat, None, movement_kind in RAKE_KINDS)


@lru_cache(maxsize=65536)
def _account(place_kind: str, table_id: str | None, seat: int | None, player_id: str | None,
             rake: bool) -> LedgerAccount:
    """One account, made once per process (accounts are immutable): the same players,
    layouts and pots recur in every hand of a table, and making each anew was about a
    tenth of the ledger service's CPU (py-spy, 3,200 HCF hands)."""
    if place_kind == "stack":
        return LedgerAccount(f"player:{player_id}", "player", player_id=player_id)
    if place_kind == "layout":
        return LedgerAccount(f"layout:{table_id}:{seat}", "layout", table_id=table_id, seat=seat)
    if place_kind == "pot":
        return LedgerAccount(f"pot:{table_id}", "pot", table_id=table_id)
    if rake:
        return LedgerAccount(HOUSE_RAKE, "house_rake")
    return LedgerAccount(HOUSE_BANK, "house_bank")

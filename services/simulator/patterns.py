"""Cheating patterns ``pitwatch simulate --pattern NAME=STRENGTH`` injects, labelled.

Each pattern is hosted by one table (the first table of a game that has it and hosts no
other pattern; else the first table of such a game), acts with its *strength*, and labels
every hand it acted in (``TruthLabel`` with ``fault`` = the pattern, ``codes`` = the
alert codes that detect it, ``players``, ``dealer``, ``strength``). Who takes part is
fixed by the seating, never drawn: the first player seated at the table is the giver,
friend, cheat or the first of the pair; the second is the taker or the second of the
pair; the table's first dealer is the sweetheart or drifting dealer.

A pattern draws its own random numbers (``TableOptions.rng``), never the table's, so a
pattern that only edits payouts (sweetheart, drift) leaves every card and decision of the
table as it would have been.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from services.events.stream import TableStream
from services.simulator.options import PatternSpec, TableOptions
from services.simulator.truth import TruthLabel

POKER = frozenset({"holdem", "draw7a"})
EVERY_GAME = frozenset({"hcf", "chinese", "draw7a", "russian", "holdem"})


@dataclass(frozen=True)
class Pattern:
    name: str
    games: frozenset[str]
    codes: tuple[str, ...]  # the alert (and finding) codes that detect it
    strength: str  # what the strength means
    description: str


PATTERNS: Mapping[str, Pattern] = MappingProxyType({p.name: p for p in (
    Pattern("soft_play", POKER, ("SOFT_PLAY",),
            "the chance that a bet or raise one of the pair would make against the other "
            "heads-up is not made (1: never)",
            "the first two players seated do not bet or raise into each other heads-up "
            "(SURV-4)"),
    Pattern("fold_dumping", POKER, ("CHIP_DUMPING",),
            "the share of the hands both are dealt in where the giver dumps (a dump "
            "that could not complete is tried again on the next hand)",
            "the first player seated puts 20 to 40 big blinds in (10 to 12 at fixed limit, "
            "10 at Draw 7-A, whose caps allow 12) and folds to the second (SURV-3)"),
    Pattern("showdown_dumping", POKER, ("CHIP_DUMPING",),
            "the share of the hands both are dealt in where the giver dumps",
            "late in the hand and heads-up, the first player seated calls the second's "
            "pot-sized bets with a hand the second beats (SURV-3)"),
    Pattern("sweetheart_overpay", EVERY_GAME, ("SWEETHEARTING", "MISPAY", "PROCEDURE_DRIFT"),
            "the share of the friend's winning payouts the dealer overpays (by 1 chip)",
            "the table's first dealer overpays the first player seated, one chip a time, "
            "wherever the dealer deals that player (SURV-2)"),
    Pattern("information_sharing", frozenset({"russian"}), ("INFORMATION_SHARING",),
            "the share of the box's play/fold, insurance and buying decisions taken "
            "seeing the dealer's cards",
            "the first player seated is shown the dealer's hidden cards (SURV-5)"),
    Pattern("stacked_deck", frozenset({"hcf", "russian"}), ("IMPROBABLE_RESULTS",),
            "the share of the cheat's hands dealt from a stacked deck",
            "the first player seated is dealt a five-card flush (HCF, when it plays the "
            "flush bonus) or a straight or better (Russian Poker) (SURV-6)"),
    Pattern("dealer_drift", EVERY_GAME, ("PROCEDURE_DRIFT", "MISPAY"),
            "the share of the drifting dealer's hands with a mispay (1 chip either way)",
            "the table's first dealer mispays far more often than the floor (SURV-8)"),
)})


class UnknownPatternError(ValueError):
    """A ``--pattern`` that names no pattern, has no valid strength, or fits no game."""


def parse_pattern(text: str) -> PatternSpec:
    """``name=strength`` (strength in [0, 1]; ``name`` alone: strength 1)."""
    name, _, value = text.partition("=")
    name = name.strip()
    if name not in PATTERNS:
        raise UnknownPatternError(f"unknown pattern {name!r}: choose from "
                                  f"{', '.join(PATTERNS)}")
    try:
        strength = float(value) if value.strip() else 1.0
    except ValueError:
        raise UnknownPatternError(f"pattern {name}: strength {value!r} is not a number "
                                  "(write NAME=0.5)") from None
    if not 0.0 <= strength <= 1.0:
        raise UnknownPatternError(f"pattern {name}: strength {strength:g} is not between 0 "
                                  "and 1")
    return PatternSpec(name, strength)


def place_patterns(games: Sequence[str],
                   specs: Sequence[PatternSpec]) -> dict[int, tuple[PatternSpec, ...]]:
    """Table index -> the patterns it hosts (``games[i]``: table i's game)."""
    hosted: dict[int, list[PatternSpec]] = {}
    for spec in specs:
        fits = [i for i, game in enumerate(games) if game in PATTERNS[spec.name].games]
        if not fits:
            games_for = ", ".join(sorted(PATTERNS[spec.name].games))
            raise UnknownPatternError(f"pattern {spec.name} needs a table of {games_for}")
        free = [i for i in fits if i not in hosted]
        hosted.setdefault((free or fits)[0], []).append(spec)
    return {i: tuple(s) for i, s in sorted(hosted.items())}


@dataclass
class Cast:
    """Who takes part in a table's patterns: players by seating order, the first dealer."""

    players: list[str] = field(default_factory=list)
    dealer: str | None = None


class TablePatterns:
    """The patterns one table hosts, their cast and the labels of the hands they acted in."""

    def __init__(self, options: TableOptions, table_id: str) -> None:
        self.options = options
        self.table_id = table_id
        self.rng = options.rng or random.Random(0)
        self.cast = Cast()
        self.labels: list[TruthLabel] = []

    def active(self, name: str) -> bool:
        return self.options.strength(name) is not None

    def strength(self, name: str) -> float:
        return self.options.strength(name) or 0.0

    def seated(self, player_id: str) -> None:
        """A player sat down (called in seating order, before the first hand)."""
        if player_id not in self.cast.players:
            self.cast.players.append(player_id)

    def dealing(self, dealer: str) -> None:
        """The dealer of a hand about to be played (the first one is the cast's)."""
        if self.cast.dealer is None:
            self.cast.dealer = dealer

    def player(self, position: int) -> str | None:
        cast = self.cast.players
        return cast[position] if position < len(cast) else None

    def label(self, name: str, hand_id: str, seat: int | None, detail: str,
              players: list[str], dealer: str | None = None) -> None:
        self.labels.append(TruthLabel(
            table_id=self.table_id, hand_id=hand_id, fault=name,
            codes=list(PATTERNS[name].codes), seat=seat, detail=detail, players=players,
            dealer=dealer, strength=self.strength(name)))

    # ------------------------------------------------------------ payout patterns

    def edit_payouts(self, hand_id: str, dealer: str, seats: Mapping[int, str],
                     events: Sequence[MutableSequence[Any] | tuple[Any, ...]]) -> None:
        """Sweetheart overpays and drifting mispays, edited into a hand's events before
        they are published (each ``(type, data, ...)``, ``data`` a mutable dict); the
        table books stacks from those events, so its chips stay consistent."""
        if self.active("sweetheart_overpay"):
            self._sweeten(hand_id, dealer, seats, events)
        if self.active("dealer_drift") and dealer == self.cast.dealer:
            self._drift(hand_id, dealer, events)

    def _sweeten(self, hand_id: str, dealer: str, seats: Mapping[int, str],
                 events: Sequence[MutableSequence[Any] | tuple[Any, ...]]) -> None:
        friend = self.player(0)
        if dealer != self.cast.dealer or friend is None:
            return
        for spec in events:
            data = spec[1]
            if (spec[0] == "payout" and data.get("kind") in WIN_KINDS
                    and seats.get(data.get("seat", -1)) == friend and data["amount"] > 0):
                if self.rng.random() < self.strength("sweetheart_overpay"):
                    data["amount"] += 1
                    self.label("sweetheart_overpay", hand_id, data["seat"],
                               f"dealer {dealer} overpays {friend}'s win by 1",
                               [friend], dealer)
                return

    def _drift(self, hand_id: str, dealer: str,
               events: Sequence[MutableSequence[Any] | tuple[Any, ...]]) -> None:
        paid = [spec[1] for spec in events if spec[0] == "payout"
                and spec[1].get("kind") in WIN_KINDS and spec[1]["amount"] > 1]
        if not paid or self.rng.random() >= self.strength("dealer_drift"):
            return
        data = self.rng.choice(paid)
        delta = self.rng.choice((-1, 1))
        data["amount"] += delta
        self.label("dealer_drift", hand_id, data["seat"],
                   f"dealer {dealer} pays seat {data['seat']} {delta:+d}", [], dealer)


# Payout kinds that are a win (not a refund of the player's own chips).
WIN_KINDS = frozenset({"win", "pot", "bonus"})


def table_patterns(options: TableOptions, stream: TableStream) -> TablePatterns:
    return TablePatterns(options, stream.table_id)

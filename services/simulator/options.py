"""What ``pitwatch simulate`` may add to a log beyond faults: a floor's rotating dealer
pool, player styles, a fixed table size, and injected cheating patterns.

Every option is off by default, and a simulator given the defaults draws exactly the
random numbers it always drew: a log of an existing seed without these options is the
same bytes as before they existed (the golden records and the simulator tests say so).

- **Dealer pool** (``dealers``): the floor has ``dealers`` dealers who rotate between the
  tables every ``SHIFT_SECONDS`` of simulated time: at shift ``s`` table ``i`` is dealt by
  dealer ``(i + s) mod dealers``, so with at least as many dealers as tables no dealer is
  at two tables at once, each dealer deals every table in turn, and comes back. Without a
  pool each game keeps its own dealers (one per hold'em, Russian and Chinese table...).
- **Styles** (``styles``): ``mixed`` gives the poker players (hold'em, Draw 7-A) the five
  styles in turn by seat, so every table of three or more has a different mix and a
  five-handed table has all five, the maniac included; a style name gives everyone that
  style (``services.simulator.styles``).
- **Players** (``players``): how many players sit at a hold'em or Russian Poker table
  (else a random number per table, as before).
- **Patterns** (``patterns``): ``services.simulator.patterns``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from services.events.stream import DEFAULT_START, TableStream

SHIFT_SECONDS = 1800  # a dealer's stint at one table before the rotation moves them on


@dataclass(frozen=True)
class PatternSpec:
    """One injected pattern as asked for: ``name=strength``."""

    name: str
    strength: float


@dataclass(frozen=True)
class SimulationOptions:
    dealers: int | None = None
    styles: str | None = None
    players: int | None = None
    patterns: tuple[PatternSpec, ...] = ()


@dataclass(frozen=True)
class DealerPool:
    """The floor's dealers and the rotation that assigns them to tables by the clock."""

    size: int
    start: datetime = DEFAULT_START
    shift_seconds: int = SHIFT_SECONDS

    def dealer(self, table_index: int, stream: TableStream) -> str:
        """The dealer at table ``table_index`` at the stream's current time."""
        elapsed = int((stream.clock - self.start).total_seconds())
        shift = max(elapsed, 0) // self.shift_seconds
        return f"D{(table_index + shift) % self.size + 1:02d}"


@dataclass(frozen=True)
class TableOptions:
    """The options as one table sees them (its index, the shared pool, its patterns)."""

    table_index: int = 0
    pool: DealerPool | None = None
    styles: str | None = None
    players: int | None = None
    patterns: tuple[PatternSpec, ...] = field(default_factory=tuple)
    rng: random.Random | None = None  # the patterns' own draws, never the table's

    def dealer(self, stream: TableStream, default: str) -> str:
        """The dealer now: the pool's, or the game's own ``default`` without a pool."""
        if self.pool is None:
            return default
        return self.pool.dealer(self.table_index, stream)

    def strength(self, pattern: str) -> float | None:
        """The strength of ``pattern`` if this table hosts it."""
        return next((p.strength for p in self.patterns if p.name == pattern), None)


LEGACY = TableOptions()

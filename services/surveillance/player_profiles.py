"""Profiles a director reads: per player, pair of players, dealer and dealer with player.

These are the standing numbers behind the patterns, kept for every hand surveilled and
stored in the database across sessions (``services.surveillance.store``), so a pattern
spread over a week is seen in one place:

- **player**: hands, chips wagered, net result;
- **pair** (two players dealt into the same hands): hands together, hands each won while
  the other lost (the win rate against each other), chips each lost to the other (chip
  flow, below);
- **dealer with player**: seat-hands, chips the player wagered and its net result with
  that dealer (the dealer's *hold* from the player is minus the net; the theoretical hold
  is the wagered chips times the game's hold rate over the whole floor, see the store's
  ``dealer_holds``), favourable mispays and their chips, exposed cards;
- **dealer** (per game): hands, misdeal / exposed-card / mispay hands, mispay chips,
  chips wagered at its tables and the house's net.

Chip flow, from the recorded nets: in a hand, each loser's chips go to the winners in
proportion to what each won (rounded down to whole chips; exact when one player wins).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.surveillance.facts import HandFacts


@dataclass
class PlayerProfile:
    hands: int = 0
    wagered: int = 0
    net: int = 0


@dataclass
class PairProfile:
    """Two players, ``a`` < ``b``; ``a_won`` counts hands ``a`` won while ``b`` lost."""

    hands: int = 0
    a_won: int = 0
    b_won: int = 0
    a_to_b: int = 0  # chips a lost that went to b
    b_to_a: int = 0


@dataclass
class DealerPlayerProfile:
    seat_hands: int = 0
    wagered: int = 0
    net: int = 0
    favourable_mispays: int = 0
    mispay_chips: int = 0
    exposures: int = 0


@dataclass
class DealerProfile:
    hands: int = 0
    misdeals: int = 0
    exposed_hands: int = 0
    mispay_hands: int = 0
    mispay_chips: int = 0
    wagered: int = 0
    house_net: int = 0


@dataclass
class ProfileBook:
    players: dict[str, PlayerProfile] = field(default_factory=dict)
    pairs: dict[tuple[str, str], PairProfile] = field(default_factory=dict)
    dealer_players: dict[tuple[str, str, str], DealerPlayerProfile] = field(
        default_factory=dict)  # (dealer, player, game)
    dealers: dict[tuple[str, str], DealerProfile] = field(default_factory=dict)  # (dealer, game)

    def observe(self, facts: HandFacts) -> None:
        game = facts.game or "unknown"
        seats = {s: p for s, p in sorted(facts.players.items())}
        for seat, player in seats.items():
            profile = self.players.setdefault(player, PlayerProfile())
            profile.hands += 1
            profile.wagered += facts.wagered.get(seat, 0)
            profile.net += facts.net.get(seat, 0)
        self._pairs(facts, seats)
        if facts.dealer is not None:
            self._dealer(facts, game, seats)

    def flow(self, giver: str, taker: str) -> int:
        """Chips ``giver`` lost that went to ``taker``."""
        a, b = sorted((giver, taker))
        pair = self.pairs.get((a, b))
        if pair is None:
            return 0
        return pair.a_to_b if giver == a else pair.b_to_a

    def _pairs(self, facts: HandFacts, seats: dict[int, str]) -> None:
        winners = {s: n for s, n in facts.net.items() if n > 0 and s in seats}
        won = sum(winners.values())
        ordered = sorted(seats.items(), key=lambda kv: kv[1])
        for i, (seat_a, a) in enumerate(ordered):
            for seat_b, b in ordered[i + 1:]:
                if a == b:
                    continue
                pair = self.pairs.setdefault((a, b), PairProfile())
                pair.hands += 1
                net_a, net_b = facts.net.get(seat_a, 0), facts.net.get(seat_b, 0)
                pair.a_won += net_a > 0 > net_b
                pair.b_won += net_b > 0 > net_a
                if won:
                    pair.a_to_b += max(-net_a, 0) * winners.get(seat_b, 0) // won
                    pair.b_to_a += max(-net_b, 0) * winners.get(seat_a, 0) // won

    def _dealer(self, facts: HandFacts, game: str, seats: dict[int, str]) -> None:
        assert facts.dealer is not None
        dealer = self.dealers.setdefault((facts.dealer, game), DealerProfile())
        dealer.hands += 1
        dealer.misdeals += facts.misdeal
        dealer.exposed_hands += facts.exposed
        dealer.mispay_hands += facts.mispay
        dealer.mispay_chips += facts.mispay_chips
        dealer.wagered += sum(facts.wagered.values())
        dealer.house_net += facts.house_net
        favourable = {i.seat: i.chips or 0 for i in facts.favourable_mispays}
        for seat, player in seats.items():
            key = (facts.dealer, player, game)
            profile = self.dealer_players.setdefault(key, DealerPlayerProfile())
            profile.seat_hands += 1
            profile.wagered += facts.wagered.get(seat, 0)
            profile.net += facts.net.get(seat, 0)
            if seat in favourable:
                profile.favourable_mispays += 1
                profile.mispay_chips += favourable[seat]
            profile.exposures += seat in facts.exposed_seats

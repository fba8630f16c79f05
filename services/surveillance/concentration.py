"""One dealer's events concentrated on one player: SURV-2 (mispays) and SURV-7 (exposures).

The question is the same for both: did one dealer's events fall on one player more often
than the player's chances of receiving one allow? The chances are what an honest dealer's
error needs in order to land on the player:

- SURV-2: a favourable mispay is an error in a payout, so the chances are the hands in
  which the dealer paid the player (a payout event, or a favourable MISPAY: the chips he
  received), not the hands he sat in. A heads-up player wins about half his hands and is
  paid in them; a player at a full table is paid in about one in seven. An honest dealer
  who overpays one pot winner in ten at every table gives the heads-up player far more
  mispays per seat-hand, never more per payout. (Measured on seat-hands, the QA log of one
  floor dealing heads-up and seven-handed hold'em accused every heads-up player.)
- SURV-7: an exposure happens as the dealer deals the seat, so the chances are the
  player's seat-hands (every seat dealt in).

The chances are counted per stratum. SURV-2: the game (``holdem``): a dealer's rate per
payout may differ between games (a house-banked table pays several boxes a hand, a pot
one winner), and payouts already take the table's size in (a heads-up winner is paid in
half his hands). Not by size too: a friend whose table is the only one of its size the
dealer deals would then be compared with himself alone; measured on the benchmark's
floor of five games, strata by size missed the sweetheart dealer that strata by game
find at the 8th overpay. SURV-7: the game and the number of seats dealt in
(``holdem/2``): the simulator exposes one card in a faulted hand whatever the size (a
heads-up seat gets more exposures per seat-hand than a full table's), a real dealer may
expose one in so many cards dealt; within a stratum every seat-hand has the same chance
either way. In stratum ``s`` the dealer had ``C_s`` chances and ``M_s`` events, the player
``c_s`` chances and ``k_s`` events; if the dealer's events fell on chances at one rate in
that stratum, whoever the player, ``k_s ~ Binomial(M_s, c_s / C_s)`` given ``M_s`` — the
exact conditional test of "the rate with this player equals the rate with the others".
The player's ``k = sum k_s`` is tested against the sum of those binomials over the strata
where he had chances (``stats.binomial_sum_upper_tail``; one stratum is the plain
binomial); the p-value is ``P(X >= k)``. Conditioning on ``M_s`` needs no estimate of the
dealer's base rate, so a dealer with few events in total is judged exactly, and a dealer
who errs a lot with everyone (SURV-8's business) is not flagged here for that alone.

State: per dealer and per dealer+player, two dicts keyed by stratum (a game and a seat
count, so a handful of keys), of chances and events. The classes were renamed when the
counters changed from seat-hands to chances (``_Pair`` -> ``_PlayerChances``): a state
stored by the earlier version names the old classes and is refused on load
(``state.StateError``), never read as chances.

Tested on the hand where the pair's count grows (the only hand that can make it cross),
when the count reaches the next point of the look grid, at that look's share of the
``p_value`` budget (``services.surveillance.looks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from services.events.contract import Alert, Severity
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts, Incident
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.stats import binomial_sum_upper_tail


@dataclass(frozen=True)
class ConcentrationRule:
    rule: str
    code: str
    what: str  # "favourable mispays", "exposed cards" (for messages)
    chance: str  # what one chance is, plural ("payouts", "seat-hands"), for messages
    by_seats: bool  # strata by game and seats dealt in (else by game)
    p_value: float
    min_count: int
    severity: Severity
    evidence_hands: int


@dataclass
class _PlayerChances:
    chances: dict[str, int] = field(default_factory=dict)  # stratum -> chances
    events: dict[str, int] = field(default_factory=dict)  # stratum -> events
    chips: int = 0
    evidence: Evidence | None = None


@dataclass
class _DealerChances:
    chances: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
    pairs: dict[str, _PlayerChances] = field(default_factory=dict)


def stratum(facts: HandFacts, by_seats: bool) -> str:
    """The hand's stratum: its game (``holdem``), and the number of seats dealt in if
    ``by_seats`` (``holdem/2``)."""
    game = facts.game or "unknown"
    return f"{game}/{len(facts.players)}" if by_seats else game


def _add(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


class Concentration:
    """Counters per dealer and dealer+player; ``observe`` one hand's events by seat."""

    def __init__(self, rule: ConcentrationRule, gate: AlertGate, looks: Looks) -> None:
        self.rule = rule
        self.gate = gate
        self.looks = looks
        self.dealers: dict[str, _DealerChances] = {}

    def observe(self, facts: HandFacts, events: Sequence[Incident],
                chances: Iterable[int]) -> list[Alert]:
        """``events``: this hand's incidents attributed to seats; ``chances``: the seats
        that had a chance of one (each counted once; a seat with an event must be one)."""
        dealer_id = facts.dealer
        if dealer_id is None:
            return []
        dealer = self.dealers.setdefault(dealer_id, _DealerChances())
        key = stratum(facts, self.rule.by_seats)
        had = set(chances) & facts.players.keys()
        for seat in sorted(had):
            _add(dealer.chances, key)
            _add(dealer.pairs.setdefault(facts.players[seat], _PlayerChances()).chances, key)
        grown: list[tuple[str, int]] = []
        for incident in events:
            seat, chips = incident.seat, incident.chips
            if seat not in had:
                continue  # not dealt in, or no chance counted for it
            player = facts.players[seat]
            pair = dealer.pairs[player]
            _add(dealer.events, key)
            _add(pair.events, key)
            pair.chips += chips or 0
            if pair.evidence is None:
                pair.evidence = Evidence(self.rule.evidence_hands)
            found = () if incident.finding is None else (incident.finding,)
            pair.evidence.add(facts.ref(seat, chips, found))
            if (player, seat) not in grown:
                grown.append((player, seat))
        alerts = []
        for player, seat in grown:
            alert = self._test(facts, dealer_id, dealer, player, seat)
            if alert is not None:
                alerts.append(alert)
        return alerts

    def _test(self, facts: HandFacts, dealer_id: str, dealer: _DealerChances, player: str,
              seat: int) -> Alert | None:
        rule, pair = self.rule, dealer.pairs[player]
        k = sum(pair.events.values())
        instance = (rule.rule, dealer_id, player)
        look = self.looks.look(instance, rule.min_count, k)
        if look is None:
            return None
        strata = sorted(pair.chances)  # where the player had chances
        terms = [(dealer.events.get(s, 0), pair.chances[s] / dealer.chances[s])
                 for s in strata]
        m = sum(n for n, _ in terms)
        p = binomial_sum_upper_tail(k, terms)
        threshold = spent(rule.p_value, look)
        if p > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        expected = sum(n * share for n, share in terms)
        mine = sum(pair.chances.values())
        theirs = sum(dealer.chances[s] for s in strata)
        assert pair.evidence is not None
        hands = list(pair.evidence.hands)
        evidence = {
            "dealer": dealer_id, "player": player, "count": k, "dealer_events": m,
            "chance": rule.chance, "player_chances": mine, "dealer_chances": theirs,
            "rate_with_player": k / mine,
            "rate_with_others": (m - k) / (theirs - mine) if theirs > mine else None,
            "expected_count": expected,
            "strata": [{"stratum": s, "player_chances": pair.chances[s],
                        "dealer_chances": dealer.chances[s],
                        "dealer_events": dealer.events.get(s, 0),
                        "count": pair.events.get(s, 0)} for s in strata],
            "statistic": "P(X >= count), X = sum over strata of "
                         "Binomial(dealer_events, player_chances / dealer_chances)",
            "p_value": p, "threshold": threshold, "p_value_budget": rule.p_value,
            "look": look, "min_count": rule.min_count,
            "chips": pair.chips, "tables": sorted_tables(hands),
            "seats": sorted({r.seat for r in hands if r.seat is not None}),
            "hands": pair.evidence.cited(),
        }
        kind = "game and size" if rule.by_seats else "game"
        where = f"a table of the same {kind}" if len(strata) == 1 else f"tables of the same {kind}"
        message = (f"dealer {dealer_id}: {k} of {m} {rule.what} went to player {player}, "
                   f"who had {mine} of the dealer's {theirs} {rule.chance} at {where} "
                   f"({expected:.1f} expected); p = {p:.2e} <= {threshold:.2g}")
        return surv_alert(facts.ref(seat), rule.code, rule.rule, rule.severity, message,
                          evidence, hands)

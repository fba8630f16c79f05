"""What a playing box wins or loses against the dealer (RP-4..RP-8).

Pure arithmetic on valid stakes (``stakes``), the box's cards and the dealer's
hand, so every branch can be checked by hand:

- dealer qualifies (RP-5): showdown (RP-7). Dealer higher: Ante and Bet lost. Box higher:
  Ante returned, Bet paid by the paytable, for two combinations of a six-card hand when
  the second is Ace-King or better (RP-8). Identical: push. Insurance loses (RP-4).
- dealer does not qualify, box declines (RP-6): Ante paid 1 to 1, Bet returned, insurance
  paid 1 to 1 (RP-4).
- dealer does not qualify, box buys the dealer's game (RP-6): 1x Ante taken from the Ante;
  with the dealer's new hand, showdown as RP-7 if it qualifies, otherwise the Bet is
  returned. Insurance: the profile's reading (lost, or settled on the new hand).

``net`` here excludes the draw fees (RP-2), which the caller adds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.games.evaluation.standard import best_five
from services.games.model import HandRejected, TraceStep
from services.games.russian.evaluation import compare, paytable_category, two_combinations
from services.games.russian.profile import RussianProfile, at_least
from services.games.russian.stakes import BoxStakes


@dataclass(frozen=True)
class DealerHand:
    """The dealer's five cards and whether they qualify (RP-5)."""

    cards: tuple[str, ...]
    category: str
    qualifies: bool


@dataclass
class Settlement:
    """``net``: the box's result (draw fees excluded); ``insurance``: the part of it that
    is the insurance (RP-4), so a mispay of the insurance alone cites RP-4."""

    net: int
    rule: str
    trace: list[TraceStep] = field(default_factory=list)
    insurance: int = 0


def dealer_hand(cards: tuple[str, ...], profile: RussianProfile) -> DealerHand:
    """RP-5: Ace-King or better qualifies (the floor is the profile's)."""
    category = paytable_category(cards)
    return DealerHand(cards, category, at_least(category, profile.dealer_min_category))


@dataclass(frozen=True)
class Combinations:
    """The box's paid combination(s): the best five, and the second one of six cards."""

    best: tuple[str, ...]
    second: tuple[str, ...] | None


def combinations_of(seat: int, cards: tuple[str, ...], profile: RussianProfile) -> Combinations:
    """RP-8: a six-card hand may hold a second paid combination; five cards hold one."""
    if len(cards) == 6:
        best, second = two_combinations(cards)
        if second is not None and not (
            profile.pay_two_combinations
            and at_least(paytable_category(second), profile.second_combination_min_category)
        ):
            second = None
        return Combinations(tuple(best), tuple(second) if second else None)
    if not 5 <= len(cards) <= 7:
        raise HandRejected("RP-7", f"seat {seat} plays with {len(cards)} cards; a hand is five "
                           "or six cards (seven at most after an illegal second buy)")
    # Five cards, or more than six after an illegal second draw (flagged under RP-2): the
    # best five only.
    return Combinations(best_five(cards)[1], None)


def settle_playing_box(
    stakes: BoxStakes,
    cards: tuple[str, ...],
    dealer: DealerHand,
    bought: DealerHand | None,
    paytable: dict[str, int],
    profile: RussianProfile,
) -> Settlement:
    """Net of a playing box's Ante, Bet and insurance. ``bought``: the dealer's hand
    after this box bought his game (RP-6), None when the box did not buy."""
    seat = stakes.seat
    if dealer.qualifies:
        result = showdown(seat, stakes.ante, stakes.bet, cards, dealer, paytable, profile)
        result.insurance = _insurance_net(seat, stakes.insurance, won=False, why="the dealer "
                                          "qualifies", profile=profile, trace=result.trace)
        result.net += result.insurance
        return result
    if bought is None:
        return _ante_paid(stakes, profile)
    return _game_bought(stakes, cards, bought, paytable, profile)


def _ante_paid(stakes: BoxStakes, profile: RussianProfile) -> Settlement:
    """RP-6: Ante paid 1 to 1, Bet returned; RP-4: insurance paid 1 to 1."""
    win = stakes.ante * profile.ante_odds_dealer_not_qualifying
    result = Settlement(win, "RP-6", [TraceStep(
        "RP-6", f"dealer does not qualify: Ante {stakes.ante} paid "
        f"{profile.ante_odds_dealer_not_qualifying} to 1 = {win}, Bet {stakes.bet} returned",
        stakes.seat)])
    result.insurance = _insurance_net(stakes.seat, stakes.insurance, won=True,
                                      why="the dealer does not qualify", profile=profile,
                                      trace=result.trace)
    result.net += result.insurance
    return result


def _game_bought(
    stakes: BoxStakes,
    cards: tuple[str, ...],
    bought: DealerHand,
    paytable: dict[str, int],
    profile: RussianProfile,
) -> Settlement:
    """RP-6: the price comes out of the Ante; then RP-7 with what is left of the Ante, or
    the Bet returned when the dealer still does not qualify."""
    seat = stakes.seat
    price = stakes.ante * profile.buy_dealer_game_price_antes
    ante_left = max(stakes.ante - price, 0)
    trace = [TraceStep("RP-6", f"box buys the dealer's game for {price} (taken from the "
                       f"Ante); dealer now holds {' '.join(bought.cards)} ({bought.category})",
                       seat)]
    if bought.qualifies:
        result = showdown(seat, ante_left, stakes.bet, cards, bought, paytable, profile)
        result.rule = "RP-6"
        net = result.net - price
        trace += result.trace
    else:
        net = -price
        trace.append(TraceStep("RP-6", f"dealer still does not qualify: Bet {stakes.bet} "
                               "returned", seat))
    if profile.insurance_when_game_bought == "loses":
        won, why = False, "the box bought the dealer's game"
    else:
        won, why = not bought.qualifies, "on the dealer's hand after the purchase"
    insurance = _insurance_net(seat, stakes.insurance, won=won, why=why, profile=profile,
                               trace=trace)
    return Settlement(net + insurance, "RP-6", trace, insurance)


def showdown(
    seat: int,
    ante: int,
    bet: int,
    cards: tuple[str, ...],
    dealer: DealerHand,
    paytable: dict[str, int],
    profile: RussianProfile,
) -> Settlement:
    """RP-7 (and RP-8): the box's best five against the dealer's qualifying hand."""
    combos = combinations_of(seat, cards, profile)
    category = paytable_category(combos.best)
    shown = f"{' '.join(combos.best)} ({category})"
    outcome = compare(combos.best, dealer.cards)
    if outcome < 0:
        return Settlement(-(ante + bet), "RP-7", [TraceStep(
            "RP-7", f"{shown} loses to the dealer's {dealer.category}: Ante {ante} and Bet "
            f"{bet} lost", seat)])
    if outcome == 0:
        return Settlement(0, "RP-7", [TraceStep(
            "RP-7", f"{shown} ties the dealer card for card: push, Ante and Bet stay", seat)])
    odds = paytable.get(category, 0)
    ante_text = f"Ante {ante} returned" if ante else "Ante already spent"
    trace = [TraceStep("RP-7", f"{shown} beats the dealer's {dealer.category}: {ante_text}, "
                       f"Bet {bet} paid {odds} to 1 = {bet * odds}", seat)]
    rule = "RP-7"
    if combos.second is not None:
        second_category = paytable_category(combos.second)
        second_odds = paytable.get(second_category, 0)
        odds += second_odds
        rule = "RP-8"
        trace.append(TraceStep("RP-8", f"second combination {' '.join(combos.second)} "
                               f"({second_category}) paid {second_odds} to 1 = "
                               f"{bet * second_odds}", seat))
    return Settlement(bet * odds, rule, trace)


def _insurance_net(
    seat: int, insurance: int, won: bool, why: str, profile: RussianProfile,
    trace: list[TraceStep],
) -> int:
    if insurance == 0:
        return 0
    if won:
        win = insurance * profile.insurance_odds
        trace.append(TraceStep("RP-4", f"insurance {insurance} paid {profile.insurance_odds} "
                               f"to 1 = {win}: {why}", seat))
        return win
    trace.append(TraceStep("RP-4", f"insurance {insurance} lost: {why}", seat))
    return -insurance

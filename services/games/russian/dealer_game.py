"""Buying the dealer's game (RP-6): who bought it, and the dealer's hand afterwards.

When the dealer does not qualify, a playing box may buy his game for 1x Ante. The dealer
then replaces his highest card with the next card of the deck; a drawn card of the same
rank as the replaced one is burned and another drawn, unless it completes a combination.
**Reading** (docs/rules/russian.md): the dealer replaces once per hand and the new hand
settles every box that bought; the boxes that did not buy are paid their Ante (RP-6).

The settlement uses the dealer's hand as the table dealt it (the ``received`` card); a
replacement or burn done against the rule is a finding here, for the floor to act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import DealerReplacedCard, Finding
from services.games.cards import rank_of
from services.games.model import TraceStep, finding
from services.games.russian.evaluation import paytable_category
from services.games.russian.profile import RussianProfile
from services.games.russian.reading import RussianHand, rankable
from services.games.russian.settlement import DealerHand, dealer_hand


@dataclass
class DealerGame:
    """``buyers``: boxes whose purchase stands; ``bought``: the dealer's hand they face."""

    buyers: frozenset[int]
    bought: DealerHand | None
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)


def dealer_game(
    hand: RussianHand, dealer: DealerHand, playing: set[int], profile: RussianProfile
) -> DealerGame:
    """Valid purchases of the dealer's game and the dealer's hand after the replacement."""
    game = DealerGame(frozenset(), None)
    buyers = _buyers(hand, dealer, playing, game, profile)
    replacements = hand.replacements
    sev = profile.dealer_game_error_severity
    if not buyers:
        for _, seq, _ in replacements:
            game.findings.append(finding(
                "REPLACEMENT_WITHOUT_BUY", "RP-6", sev,
                f"the dealer replaced a card at seq {seq} though no box bought his game"))
        return game
    game.buyers = frozenset(buyers)
    if not replacements:
        game.findings.append(finding(
            "REPLACEMENT_MISSING", "RP-6", sev,
            f"seat(s) {', '.join(map(str, sorted(buyers)))} bought the dealer's game but no "
            "dealer_replaced_card was recorded; settled on the dealer's hand as dealt"))
        game.bought = dealer
        return game
    for _, seq, _ in replacements[1:]:
        game.findings.append(finding(
            "SECOND_REPLACEMENT", "RP-6", sev,
            f"the dealer replaced a card a second time at seq {seq}; the game is bought once "
            "and the first replacement stands"))
    first_index, seq, replaced = replacements[0]
    game.findings += _late_buys(hand, buyers, first_index, seq, profile)
    game.findings += replacement_findings(dealer.cards, replaced, seq, profile)
    new_cards = rankable(new_dealer_cards(dealer.cards, replaced),
                         f"the dealer (after receiving {replaced.received} at seq {seq})")
    game.bought = dealer_hand(new_cards, profile)
    burned = f", burned {' '.join(replaced.burned)}" if replaced.burned else ""
    game.trace.append(TraceStep(
        "RP-6", f"dealer's game bought by seat(s) {', '.join(map(str, sorted(buyers)))}: "
        f"{replaced.removed} replaced by {replaced.received}{burned}; dealer now holds "
        f"{' '.join(game.bought.cards)} ({game.bought.category}, "
        f"{'qualifies' if game.bought.qualifies else 'does not qualify'})"))
    return game


def _buyers(
    hand: RussianHand,
    dealer: DealerHand,
    playing: set[int],
    game: DealerGame,
    profile: RussianProfile,
) -> list[int]:
    """Boxes whose first dealer's-game choice is to buy, when buying is allowed."""
    sev = profile.dealer_game_error_severity
    buyers: list[int] = []
    for seat in sorted(hand.boxes):
        choice = hand.boxes[seat].first_step("buy_dealer_game", "decline_dealer_game")
        if choice is None or choice.action != "buy_dealer_game":
            continue
        if seat not in playing:
            game.findings.append(finding(
                "BUY_WITHOUT_BET", "RP-6", sev,
                f"seat {seat} bought the dealer's game at seq {choice.seq} without playing "
                "its hand; ignored", seat=seat))
        elif dealer.qualifies:
            game.findings.append(finding(
                "BUY_WHEN_DEALER_QUALIFIES", "RP-6", sev,
                f"seat {seat} bought the dealer's game at seq {choice.seq} though the dealer "
                f"qualifies ({dealer.category}); ignored, settled under RP-7", seat=seat))
        else:
            buyers.append(seat)
    return buyers


def _late_buys(
    hand: RussianHand, buyers: list[int], replaced_at: int, seq: int, profile: RussianProfile
) -> list[Finding]:
    """SURV-1: a purchase decided after the dealer's new card was visible is made with the
    outcome known. Flagged; the settlement stays on the purchase as the table ran it."""
    out: list[Finding] = []
    for seat in buyers:
        choice = hand.boxes[seat].first_step("buy_dealer_game")
        if choice is not None and choice.index > replaced_at:
            out.append(finding(
                "BUY_AFTER_REPLACEMENT", "SURV-1", profile.late_wager_severity,
                f"seat {seat} bought the dealer's game at seq {choice.seq}, after the "
                f"dealer's replacement card was dealt at seq {seq}", seat=seat))
    return out


def new_dealer_cards(cards: tuple[str, ...], replaced: DealerReplacedCard) -> tuple[str, ...]:
    """The dealer's hand with the removed card (or, if he never held it, his highest card)
    swapped for the card he received."""
    removed = replaced.removed if replaced.removed in cards else highest_card(cards)
    return tuple(replaced.received if card == removed else card for card in cards)


def highest_card(cards: tuple[str, ...]) -> str:
    """The dealer's highest card (a non-qualifying hand has no pair, so it is unique)."""
    return max(cards, key=rank_of)


def replacement_findings(
    cards: tuple[str, ...], replaced: DealerReplacedCard, seq: int, profile: RussianProfile
) -> list[Finding]:
    """RP-6: the highest card replaced; same-rank draws burned unless they make a hand."""
    sev = profile.dealer_game_error_severity
    out: list[Finding] = []
    highest = highest_card(cards)
    if replaced.removed != highest:
        out.append(finding(
            "REPLACED_WRONG_CARD", "RP-6", sev,
            f"the dealer replaced {replaced.removed} at seq {seq}; he replaces his highest "
            f"card, {highest}"))
    rank = rank_of(highest)
    for card in replaced.burned:
        if rank_of(card) != rank:
            out.append(finding(
                "BURN_PROCEDURE", "RP-6", sev,
                f"the dealer burned {card} at seq {seq}; only a card of the replaced rank is "
                "burned, and it should have been his new card"))
        elif _completes(cards, highest, card):
            out.append(finding(
                "BURN_PROCEDURE", "RP-6", sev,
                f"the dealer burned {card} at seq {seq} though it completes a combination; "
                "it should have been his new card"))
    received = replaced.received
    if rank_of(received) == rank and not _completes(cards, highest, received):
        out.append(finding(
            "BURN_PROCEDURE", "RP-6", sev,
            f"the dealer kept {received} at seq {seq}, a card of the replaced rank that "
            "completes no combination; it is burned and another drawn"))
    return out


def _completes(cards: tuple[str, ...], removed: str, card: str) -> bool:
    """Whether ``card`` in place of ``removed`` makes a combination (Ace-King or better)."""
    return paytable_category(tuple(card if c == removed else c for c in cards)) != "nothing"

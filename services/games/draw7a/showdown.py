"""The showdown of a Five Card Draw 7-A hand: each contender's cards (cards speak,
FCD-9), their short-deck strength with the deck the ranking applies to (FCD-10), and the
settlement in plain words (FCD-9, FCD-11, GEN-10) for the dispute report.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.games.betting.pot_hand import SettlementWords
from services.games.cards import DECKS
from services.games.draw7a import evaluation as short_deck
from services.games.draw7a.betting import required_deck
from services.games.draw7a.profile import HAND_SIZE
from services.games.draw7a.walk import HandWalk
from services.games.model import HandRejected


def ranking_deck(walk: HandWalk, cards: Sequence[str]) -> int:
    """The deck whose ranking applies (FCD-10: the ace-low straight depends on it).

    ``rank_with_deck = "dealt"``: the deck the hand was declared dealt from; "required":
    the deck FCD-1 requires. Cards that do not belong to the chosen deck (a six in a
    32-card hand, already a GEN-1 finding) are ranked with the 36-card deck.
    """
    players = len(walk.started.seats)
    chosen = walk.started.deck if walk.prof.rank_with_deck == "dealt" else required_deck(
        players, walk.prof)
    if chosen in (32, 36) and all(c in DECKS[chosen] for c in cards):
        return chosen
    return 36


def final_hand(walk: HandWalk, seat: int) -> tuple[list[str] | None, str | None]:
    """The seat's cards at showdown: what was dealt and drawn (cards speak); the shown
    cards only when the deal was not read, and only when they fit what was read (else
    None, and why not). A mismatch with a hand read whole is reported (a switched card)."""
    tracked = walk.hands.get(seat, [])
    shown = next((cards for s, cards, _ in walk.showdowns if s == seat and cards), None)
    known = [c for c in tracked if c is not None]
    if (shown is not None and tracked and len(known) == len(tracked)
            and sorted(shown) != sorted(known)):
        walk.notes.add("SHOWN_CARDS_MISMATCH", "FCD-9", walk.sev.shown_cards_mismatch,
                       f"seat {seat} showed {' '.join(shown)} but was dealt and drew "
                       f"{' '.join(known)}; the cards dealt speak", seat=seat)
    if len(known) == len(tracked) and tracked:
        return known, None
    if shown is None:
        return None, None
    problem = _unfitting(walk, seat, list(shown), known, len(tracked))
    return (None, problem) if problem is not None else (list(shown), None)


def _unfitting(walk: HandWalk, seat: int, shown: list[str], known: list[str],
               held: int) -> str | None:
    """Why cards shown for a hand not read whole cannot stand for it (FCD-9, GEN-1), or
    None. QA: they replaced the hand unchecked, so a switched, added or foreign card was
    hidden by leaving one card unread, and the hand came out ``ok``."""
    lacking = [c for c in known if c not in shown]
    if lacking:
        return f"they lack the card(s) read: {' '.join(lacking)}"
    if held and len(shown) != held:  # (nothing dealt recorded: WRONG_CARD_COUNT's)
        return f"they are {len(shown)} cards for the {held} it held"
    twice = next((c for i, c in enumerate(shown) if c in shown[:i]), None)
    if twice is not None:
        return f"they hold {twice} twice"
    for card in shown:
        elsewhere = sorted(s for s, cards in walk.hands.items() if s != seat and card in cards)
        if elsewhere:
            return f"{card} was read at seat {elsewhere[0]}"
    deck = walk.started.deck
    foreign = next((c for c in shown if deck in (32, 36) and c not in DECKS[deck]), None)
    if foreign is not None:
        return f"the {deck}-card deck holds no {foreign}"
    return None


def strengths(walk: HandWalk, contenders: Sequence[int]) -> dict[int, int | None]:
    """Short-deck rank code per contender (FCD-10); None when it cannot win: mucked, or
    (``irregular_hand_dead``) not holding exactly five cards."""
    mucked = {seat for seat, _, was_mucked in walk.showdowns if was_mucked}
    out: dict[int, int | None] = {}
    for seat in contenders:
        cards, unfitting = final_hand(walk, seat)
        if seat in mucked:
            out[seat] = None
            continue
        if cards is None:
            why = (f"the cards it showed cannot stand for them: {unfitting}" if unfitting
                   else "not shown")
            raise HandRejected("FCD-9", f"seat {seat} reached the showdown but its cards "
                                        f"are unknown (not read at the deal, {why})")
        if len(cards) != HAND_SIZE and (walk.prof.irregular_hand_dead or len(cards) < 5
                                        or len(cards) > 7):
            out[seat] = None
            walk.notes.step("FCD-4", f"seat {seat} holds {len(cards)} cards: "
                                     "its hand cannot win", seat)
            continue
        try:
            out[seat] = short_deck.best_rank(cards, ranking_deck(walk, cards))
        except ValueError as exc:
            raise HandRejected("GEN-1", f"seat {seat}: {exc}") from exc
    return out


def _describe(code: int | None) -> str:
    return "no hand" if code is None else short_deck.describe(code)


SETTLEMENT_WORDS = SettlementWords(refund_rule="FCD-9", award_rule="FCD-11",
                                   split=" (split, odd chip left of the button)",
                                   describe=_describe)

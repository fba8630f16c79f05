"""Procedure findings of a Russian Poker hand: how the dealer ran it (RP-1, RP-2, RP-9,
RP-10). None of these change what a box is owed by themselves; they say what went wrong
so the floor can act (a card sold before every box decided is how a dealer helps one
player). A wrong price (RP-2) is the exception that is a chip error: ``WRONG_FEE``, amount
paid - due, is its only finding. The settlement comparison
(``services.adjudicator.adjudicate.compare``) leaves that amount out of the box's MISPAY,
which compares what the rules pay (RP-4, RP-6, RP-7, RP-8) with what was paid, so the
same chips are never settled twice; the expected net still charges the posted price.

Dealer's-game findings (RP-6) live in ``dealer_game``; wager timing (SURV-1, RP-4)
in ``stakes``.
"""

from __future__ import annotations

from services.events.contract import Finding, Severity
from services.games.model import finding
from services.games.russian.dealer_game import new_dealer_cards
from services.games.russian.profile import RussianProfile
from services.games.russian.reading import Box, RussianHand, Served, box_cards

DECISION_STEPS = ("stand", "fold")
DRAW_FEES = ("buy_card", "exchange")


def serving_key(seat: int, hand: RussianHand, profile: RussianProfile) -> int:
    """RP-2: position of a box in the serving order, first box first.

    ``ascending_seat``: seat 1 at the dealer's left is served first. ``left_of_button``:
    the seat after the button first, clockwise.
    """
    if profile.serving_order == "ascending_seat":
        return seat
    return (seat - hand.started.button - 1) % 64


def boxes_in_play(hand: RussianHand) -> list[Box]:
    """Boxes with an Ante down, in seat order."""
    return [hand.boxes[s] for s in sorted(hand.boxes) if hand.boxes[s].antes]


def procedure_findings(
    hand: RussianHand, antes: dict[int, int], profile: RussianProfile
) -> list[Finding]:
    """Every RP-1/2/9/10 finding of the hand; ``antes``: each box's valid Ante."""
    out: list[Finding] = []
    out += deal_findings(hand, profile)
    out += decision_phase_findings(hand, profile)
    out += serving_order_findings(hand, profile)
    out += dealer_shown_findings(hand, profile)
    out += banker_findings(hand, profile)
    for box in boxes_in_play(hand):
        out += draw_findings(box, profile)
        out += fee_findings(box, antes.get(box.seat, 0), profile)
        out += bonus_order_findings(box, profile)
        out += shown_cards_findings(box, profile)
    for box in hand.boxes.values():
        if box.draws and not box.antes:
            out.append(finding("DRAW_WITHOUT_ANTE", "RP-2", profile.draw_procedure_severity,
                               f"seat {box.seat} was served cards with no Ante down",
                               seat=box.seat))
    return out


def deal_findings(hand: RussianHand, profile: RussianProfile) -> list[Finding]:
    """RP-1: one deck, boxes dealt in by ``hand_started``; five cards to every box and to
    the dealer, face down except the dealer's fifth card (the cards only when the hand's
    cards were dealt through the shoe)."""
    out: list[Finding] = []
    sev = profile.deal_error_severity
    if hand.started.deck != profile.deck_size:
        out.append(finding("WRONG_DECK", "RP-1", sev,
                           f"the hand was dealt from a {hand.started.deck}-card deck; Russian "
                           f"Poker is dealt from one {profile.deck_size}-card deck"))
    dealt_in = {seat.seat for seat in hand.started.seats}
    out += [finding("SEAT_NOT_DEALT_IN", "RP-1", sev,
                    f"seat {box.seat} put down an Ante but hand_started does not deal it in",
                    seat=box.seat)
            for box in boxes_in_play(hand) if box.seat not in dealt_in]
    if hand.first_card_at is None:
        return out
    for box in boxes_in_play(hand):
        if len(box.dealt) != profile.cards_per_box:
            out.append(finding("WRONG_DEAL_COUNT", "RP-1", sev,
                               f"seat {box.seat} was dealt {len(box.dealt)} cards, not "
                               f"{profile.cards_per_box}", seat=box.seat))
        if any(face_up for _, _, face_up in box.dealt):
            out.append(finding("BOX_CARD_FACE_UP", "RP-1", sev,
                               f"seat {box.seat}: a card was dealt face up; a box's cards "
                               "are dealt face down", seat=box.seat))
    dealt = hand.dealer_dealt
    if len(dealt) != profile.dealer_cards:
        out.append(finding("WRONG_DEAL_COUNT", "RP-1", sev,
                           f"the dealer dealt himself {len(dealt)} cards, not "
                           f"{profile.dealer_cards}"))
    elif [face_up for _, _, face_up in dealt] != [False] * (len(dealt) - 1) + [True]:
        out.append(finding("DEALER_UPCARD", "RP-1", sev,
                           "the dealer's cards are dealt face down except the last, face "
                           "up; this deal showed "
                           f"{sum(f for _, _, f in dealt)} card(s) face up"))
    return out


def late_decision(box: Box, first_draw: int) -> int | None:
    """When a box made its draw decision (RP-2) if that was after the first card was
    served, else None.

    A decision is recorded as ``stand``, a ``fold``, or the price of a buy or exchange
    paid; failing any record, the moment the box was itself served. A ``fold`` after the
    first card was served is the play decision of RP-3, not evidence of a late draw
    decision, and a box with no record at all kept its five cards.
    """
    steps = [s.index for s in box.steps if s.action in DECISION_STEPS]
    fees = [f.index for f in box.fees if f.kind in DRAW_FEES]
    if any(moment < first_draw for moment in [*steps, *fees]):
        return None
    late = [s.index for s in box.steps if s.action == "stand"]
    late += fees + [d.index for d in box.draws[:1]]
    moment = min(late, default=None)
    return moment if moment is not None and moment > first_draw else None


def decision_phase_findings(hand: RussianHand, profile: RussianProfile) -> list[Finding]:
    """RP-2: every box decides before any card is sold or exchanged."""
    draws = sorted((d.index, d.seq, box.seat) for box in hand.boxes.values() for d in box.draws)
    if not draws:
        return []
    first_index, first_seq, first_seat = draws[0]
    out: list[Finding] = []
    for box in boxes_in_play(hand):
        moment = late_decision(box, first_index)
        if moment is not None:
            out.append(finding(
                "DRAW_BEFORE_ALL_DECIDED", "RP-2", profile.draw_procedure_severity,
                f"seat {first_seat} was served at seq {first_seq} before seat {box.seat} "
                f"had decided (seq {hand.seq_of(moment)}); every box decides before any "
                "card is sold or exchanged", seat=box.seat))
    return out


def serving_order_findings(hand: RussianHand, profile: RussianProfile) -> list[Finding]:
    """RP-2: boxes are served first to last (a box's second draw is RP-2 "once")."""
    firsts = sorted((box.draws[0].index, box.draws[0].seq, box.seat)
                    for box in hand.boxes.values() if box.draws)
    out: list[Finding] = []
    latest: tuple[int, int] | None = None  # (serving key, seat) of the furthest box served
    for _, seq, seat in firsts:
        key = serving_key(seat, hand, profile)
        if latest is not None and key < latest[0]:
            out.append(finding(
                "DRAW_OUT_OF_ORDER", "RP-2", profile.draw_procedure_severity,
                f"seat {seat} was served at seq {seq} after seat {latest[1]}; boxes are "
                "served in order, first box to last", seat=seat))
        else:
            latest = (key, seat)
    return out


def draw_findings(box: Box, profile: RussianProfile) -> list[Finding]:
    """RP-2 size and count of draws; RP-10 no card changes after the Bet."""
    out: list[Finding] = []
    sev = profile.draw_procedure_severity
    held = [c for c in box.dealt_cards() if c is not None]
    fold = box.first_step("fold")
    bet = box.bets[0] if box.bets else None
    for number, served in enumerate(box.draws, start=1):
        if number > profile.draws_per_box:
            out.append(finding("SECOND_DRAW", "RP-2", sev,
                               f"seat {box.seat}: draw number {number} at seq {served.seq}; "
                               "a box buys or exchanges once", seat=box.seat))
        out += _draw_shape(box.seat, served, profile)
        out += _discards_held(box.seat, served, held, sev)
        if fold is not None and fold.index < served.index:
            out.append(finding("DRAW_AFTER_FOLD", "RP-2", sev,
                               f"seat {box.seat} was served at seq {served.seq} after folding",
                               seat=box.seat))
        if bet is not None and bet.index < served.index:
            out.append(finding("CARDS_CHANGED_AFTER_BET", "RP-10",
                               profile.cards_after_bet_severity,
                               f"seat {box.seat} was served cards at seq {served.seq} after its "
                               f"Bet at seq {bet.seq}", seat=box.seat))
    return out


def _draw_shape(seat: int, served: Served, profile: RussianProfile) -> list[Finding]:
    sev = profile.draw_procedure_severity
    if served.is_buy:
        return []
    count = len(served.discarded)
    if served.is_exchange and count == 1:
        return [finding("EXCHANGE_ONE_CARD", "RP-2", sev,
                        f"seat {seat} exchanged one card at seq {served.seq}; an exchange "
                        f"is {profile.exchange_min_cards} to {profile.exchange_max_cards} "
                        "cards", seat=seat)]
    if served.is_exchange and profile.exchange_min_cards <= count <= profile.exchange_max_cards:
        return []
    return [finding("INVALID_DRAW", "RP-2", sev,
                    f"seat {seat} gave back {count} and received {len(served.received)} "
                    f"cards at seq {served.seq}; a draw is one bought card or an exchange "
                    f"of {profile.exchange_min_cards} to {profile.exchange_max_cards}",
                    seat=seat)]


def _discards_held(seat: int, served: Served, held: list[str], sev: Severity) -> list[Finding]:
    """The cards given back must be cards the box holds (else a card was switched)."""
    out: list[Finding] = []
    for card in served.discarded:
        if card in held:
            held.remove(card)
        elif held:
            out.append(finding("DISCARD_NOT_HELD", "RP-2", sev,
                               f"seat {seat} gave back {card} at seq {served.seq}, a card it "
                               "did not hold", seat=seat))
    held.extend(served.received)
    return out


def draw_price(served: Served, ante: int, profile: RussianProfile) -> int:
    """RP-2: a bought card costs 1x Ante, an exchange 1x Ante (profile multiples)."""
    antes = profile.buy_card_price_antes if served.is_buy else profile.exchange_price_antes
    return ante * antes


PRICE_FINDING = "WRONG_FEE"  # RP-2: a draw paid at another price than its own


def price_errors(findings: list[Finding]) -> dict[int, int]:
    """RP-2: per seat, the chips its draws were paid beyond their price (``WRONG_FEE``
    amounts, paid - due), for ``GameOutcome.price_errors``. A wrong price is reported once,
    as WRONG_FEE, and the officer settles that difference; the seat's recorded net is lower
    than its expected net by exactly that amount, so a MISPAY over the whole difference
    would claim the same chips again (QA: T002-000023, a fee of 20 for a price of 10 and a
    Bet paid right was WRONG_FEE +10 and MISPAY RP-7 -10)."""
    out: dict[int, int] = {}
    for f in findings:
        if f.code == PRICE_FINDING and f.seat is not None and f.amount:
            out[f.seat] = out.get(f.seat, 0) + f.amount
    return out


def fee_findings(box: Box, ante: int, profile: RussianProfile) -> list[Finding]:
    """RP-2: every draw served is paid for at its price, and nothing else is charged.

    Each amount is paid - due, the chips the box's recorded net is lower for it; the
    comparison leaves them out of the MISPAY (``price_errors``), so keep that sign."""
    fees = [f for f in box.fees if f.kind in DRAW_FEES]
    out: list[Finding] = []
    sev = profile.fee_error_severity
    for served, fee in zip(box.draws, fees, strict=False):
        price = draw_price(served, ante, profile)
        if fee.amount != price:
            out.append(finding("WRONG_FEE", "RP-2", sev,
                               f"seat {box.seat} paid {fee.amount} at seq {fee.seq} for the "
                               f"{'card bought' if served.is_buy else 'exchange'} at seq "
                               f"{served.seq}; the price is {price}", seat=box.seat,
                               amount=fee.amount - price))
    for served in box.draws[len(fees):]:
        price = draw_price(served, ante, profile)
        out.append(finding("WRONG_FEE", "RP-2", sev,
                           f"seat {box.seat} paid nothing for the draw at seq {served.seq}; "
                           f"the price is {price}", seat=box.seat, amount=-price))
    for fee in fees[len(box.draws):]:
        out.append(finding("WRONG_FEE", "RP-2", sev,
                           f"seat {box.seat} paid {fee.amount} at seq {fee.seq} for a "
                           f"{fee.kind} it was never served", seat=box.seat, amount=fee.amount))
    return out


def bonus_order_findings(box: Box, profile: RussianProfile) -> list[Finding]:
    """RP-9: a bonus made on the first five cards is paid before a sixth card is bought."""
    buy = next((d for d in box.draws if d.is_buy), None)
    if buy is None:
        return []
    return [
        finding("BONUS_AFTER_SIXTH_CARD", "RP-9", profile.bonus_order_severity,
                f"seat {box.seat}: bonus of {p.amount} paid at seq {p.seq}, after the sixth "
                f"card was bought at seq {buy.seq}; a bonus on the first five cards is paid "
                "before the sixth card", seat=box.seat, amount=p.amount)
        for p in box.bonus_payouts if p.index > buy.index
    ]


def banker_findings(hand: RussianHand, profile: RussianProfile) -> list[Finding]:
    """GEN-8: Russian Poker is house-banked; every losing wager, price and payout moves
    between a box and the house. Chips paid by or to a player (or a designated player
    this game does not have) are flagged even when every seat's net comes out right:
    that is chips passed between players, not the house banking the box."""
    return [
        finding("NOT_HOUSE_BANKED", "GEN-8", profile.banker_error_severity,
                f"seat {move.seat}: {move.what} at seq {move.seq}; at a house-banked table "
                "chips move only between a box and the house", seat=move.seat,
                amount=move.amount)
        for move in hand.banker_moves
    ]


def dealer_shown_findings(hand: RussianHand, profile: RussianProfile) -> list[Finding]:
    """RP-10: the cards the dealer turns are the five he was dealt (no swaps).

    The settlement uses the cards as dealt (the shoe's read); turned cards that differ
    mean a card was switched between the deal and the showdown. A showdown after the
    dealer's game was bought may show his hand after the replacement (RP-6) instead.
    """
    dealt = [card for _, card, _ in hand.dealer_dealt]
    if not dealt or any(card is None for card in dealt):
        return []
    held = tuple(card for card in dealt if card is not None)
    allowed = [sorted(held)]
    for _, _, replaced in hand.replacements:
        held = new_dealer_cards(held, replaced)
        allowed.append(sorted(held))
    return [
        finding("DEALER_CARDS_SWITCHED", "RP-10", profile.cards_after_bet_severity,
                f"the dealer turned {' '.join(shown)} at seq {hand.seq_of(index)} but was "
                f"dealt {' '.join(c for c in dealt if c is not None)}; settled on the cards "
                "dealt")
        for index, shown in hand.dealer_showdowns if sorted(shown) not in allowed
    ]


def shown_cards_findings(box: Box, profile: RussianProfile) -> list[Finding]:
    """RP-10: the cards a box shows are the cards it was dealt and drew (no swaps)."""
    if box.shown is None:
        return []
    dealt = box.dealt_cards()
    if not dealt or any(c is None for c in dealt):
        return []
    held = box_cards(box)
    if held is not None and sorted(held) != sorted(box.shown):
        return [finding("CARDS_SWITCHED", "RP-10", profile.cards_after_bet_severity,
                        f"seat {box.seat} showed {' '.join(box.shown)} but was dealt and "
                        f"drew {' '.join(held)}", seat=box.seat)]
    return []

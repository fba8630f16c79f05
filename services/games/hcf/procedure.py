"""High Card Flush procedure: what is in action before anything is compared.

From the hand's facts this decides, with a finding for every irregularity:

- whether the whole hand is dead (HCF-13 card counts and shuffler alarm, GEN-6 declared
  misdeal / dead hand);
- which wagers are in action (HCF-3 past-posting, wagers that are not part of the game,
  GEN-5 posted limits, GEN-2 table stakes as HCF applies it);
- each player's decision (HCF-4 fold or raise, GEN-7 walk-away folds) and the raise in
  action (HCF-4 caps: only the capped amount plays);
- each hand's cards (unread cards revealed by the showdown; shown cards must be the
  dealt ones);
- the designated player's rotation and the button (HCF-2).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.events.contract import Finding, Limits
from services.games.hcf.evaluation import flush_length, flush_value_of_masks, suit_masks
from services.games.hcf.profile import HcfRules
from services.games.hcf.reading import FOLD, RAISE, HandFacts, PlacedWager
from services.games.model import HandRejected, TableContext, TraceStep, finding

ANTE = "ante"
FLUSH_BONUS = "flush_bonus"
SF_BONUS = "sf_bonus"
_PRE_DEAL_KINDS = (ANTE, FLUSH_BONUS, SF_BONUS)


@dataclass
class SeatPlay:
    """One player's hand as it is in action (chips in the table's minor unit)."""

    seat: int
    ante: int
    flush_bonus: int
    sf_bonus: int
    raise_in_action: int = 0
    folded: bool = False
    fold_rule: str = "HCF-4"  # HCF-4 (folded) or GEN-7 (walked away / never decided)
    cards: list[str] | None = None
    masks: list[int] | None = None  # rank mask per suit of ``cards`` (evaluated once)
    value: int = 0  # HCF-6 flush value of ``cards``
    over_cap: bool = False  # HCF-4: the raise was cut to the cap

    @property
    def bonuses(self) -> int:
        return self.flush_bonus + self.sf_bonus


# ------------------------------------------------------------------ dead hand (HCF-13)


def whole_hand_dead(facts: HandFacts, in_action: dict[int, dict[str, int]], rules: HcfRules,
                    found: list[Finding], trace: list[TraceStep]) -> str | None:
    """HCF-13 / GEN-6: the rule that kills the whole hand, or None when it is live.

    Hands whose card count is checked: the DP's, every player's with an Ante in action,
    and any seat that received cards at all.
    """
    expected = rules.profile.cards_per_hand
    dealt = facts.dealt
    wrong = [(h, len(c)) for h, c in dealt.items() if len(c) != expected]
    for holder in (facts.dp, *(s for s, a in in_action.items() if a.get(ANTE))):
        if holder not in dealt:
            wrong.append((holder, 0))
    wrong.sort()
    for kind, reason, seq in facts.dead_events:
        rule = "HCF-13" if kind == "shuffler_alarm" else "GEN-6"
        trace.append(TraceStep(rule, f"{kind} at seq {seq} ({reason}): the whole hand is dead, "
                                     "every wager goes back, no rake"))
    if facts.dead_events:
        if any(kind == "shuffler_alarm" for kind, _, _ in facts.dead_events) or wrong:
            return "HCF-13"
        return "GEN-6"
    if not wrong:
        return None
    for holder, count in wrong:
        who = "the designated player" if holder == facts.dp else f"seat {holder}"
        found.append(finding(
            "CARD_COUNT", "HCF-13", rules.profile.card_count_severity,
            f"{who} was dealt {count} cards instead of {expected}; the hand is dead (HCF-13) "
            "but the table did not declare it", seat=holder))
    trace.append(TraceStep("HCF-13", "card count discrepancy: "
                           + ", ".join(f"seat {h} has {c}" for h, c in wrong)
                           + f" (each hand gets {expected}); the whole hand is dead"))
    return "HCF-13"


# ------------------------------------------------------------------ wagers (HCF-3, GEN-5)


def _not_in_game(seat: int, w: PlacedWager, why: str, rules: HcfRules) -> Finding:
    return finding("WAGER_NOT_IN_GAME", "HCF-3", rules.profile.wager_not_in_game_severity,
                   f"seat {seat}: {w.kind} of {w.amount} at seq {w.seq} {why}; it is not in "
                   "action and goes back to the player", seat=seat, amount=w.amount)


def _past_posted(facts: HandFacts, w: PlacedWager) -> str | None:
    """The rule a wager's timing breaks, if any: HCF-3 for an Ante or bonus after the first
    card, SURV-1 for a Raise after an outcome was visible (the DP's showdown, a payout of
    winnings or a collected Raise, whichever came first)."""
    if w.kind in _PRE_DEAL_KINDS:
        if facts.first_card_seq is not None and w.seq > facts.first_card_seq:
            return "HCF-3"
    elif w.kind == RAISE and facts.outcome_seq is not None and w.seq > facts.outcome_seq:
        return "SURV-1"
    return None


def voided_wagers(facts: HandFacts, seat: int, rules: HcfRules) -> dict[str, str]:
    """Wager kind -> the rule that voided the seat's wager of that kind (the first one),
    under ``past_posted_wager_void``: HCF-3 for an Ante or bonus after the first card,
    SURV-1 for a Raise after an outcome was visible. A table that settles such a wager
    anyway is wrong by that rule, not by the paytable's or the comparison's (QA)."""
    if not rules.profile.past_posted_wager_void:
        return {}
    out: dict[str, str] = {}
    for w in facts.wagers.get(seat, ()):
        broken = _past_posted(facts, w)
        if broken is not None:
            out.setdefault(w.kind, broken)
    return out


def wagers_in_action(facts: HandFacts, rules: HcfRules, limits: Limits,
                     found: list[Finding]) -> dict[int, dict[str, int]]:
    """Seat -> wager kind -> chips in action, after HCF-3 / GEN-5 checks."""
    prof = rules.profile
    in_action: dict[int, dict[str, int]] = {}
    for seat, placed in facts.wagers.items():
        amounts: dict[str, int] = {}
        for w in placed:
            if seat == facts.dp:
                found.append(_not_in_game(seat, w, "was placed by the designated player, "
                                                   "who banks the game", rules))
                continue
            if seat not in facts.stacks:
                found.append(_not_in_game(seat, w, "was placed by a seat not dealt in", rules))
                continue
            if w.kind not in (*_PRE_DEAL_KINDS, RAISE):
                found.append(_not_in_game(seat, w, "is not a High Card Flush wager", rules))
                continue
            broken = _past_posted(facts, w)
            if broken is not None:
                when = ("the first card" if broken == "HCF-3"
                        else f"an outcome was visible (seq {facts.outcome_seq})")
                found.append(finding(
                    "PAST_POSTING", broken, prof.past_posting_severity,
                    f"seat {seat}: {w.kind} of {w.amount} placed at seq {w.seq}, after {when}"
                    + ("; void, returned" if prof.past_posted_wager_void else ""),
                    seat=seat, amount=w.amount))
                if prof.past_posted_wager_void:
                    continue
            amounts[w.kind] = amounts.get(w.kind, 0) + w.amount
        if amounts:
            in_action[seat] = amounts
    for seat, amounts in in_action.items():
        if not amounts.get(ANTE):
            for kind in (FLUSH_BONUS, SF_BONUS, RAISE):
                if amounts.get(kind):
                    found.append(finding(
                        "WAGER_NOT_IN_GAME", "HCF-3", prof.wager_not_in_game_severity,
                        f"seat {seat}: {kind} of {amounts[kind]} without an Ante; not in "
                        "action, returned", seat=seat, amount=amounts[kind]))
                    amounts[kind] = 0
    for seat, amounts in in_action.items():
        _outside_limits(seat, amounts, limits, rules, found)
    return in_action


def _outside_limits(seat: int, amounts: dict[str, int], limits: Limits, rules: HcfRules,
                    found: list[Finding]) -> None:
    """GEN-5 / HCF-3: the Ante and each bonus in action must be within the posted limits.

    Judged on the total of each kind (an Ante put down as 6 + 6 before the deal is an Ante
    of 12), not per ``wager`` event. The Raise is bounded by HCF-4 caps instead.
    """
    for kind in _PRE_DEAL_KINDS:
        amount = amounts.get(kind, 0)
        if amount and not limits.min_wager <= amount <= limits.max_wager:
            found.append(finding(
                "WAGER_OUTSIDE_LIMITS", "GEN-5", rules.limits_severity,
                f"seat {seat}: {kind} of {amount} outside the posted limits "
                f"{limits.min_wager}-{limits.max_wager}", seat=seat, amount=amount))


def table_stakes(seat: int, stack: int, amounts: dict[str, int], rules: HcfRules,
                 found: list[Finding], fee: int = 0) -> None:
    """GEN-2 as HCF applies it: Ante + bonuses + the largest raise must be on the table,
    and (``stake_counts_fee``, the caller passes it) the HCF-12 fee the player pays."""
    ante = amounts.get(ANTE, 0)
    multiple = rules.profile.stake_cover_raise_multiple
    needed = (ante + amounts.get(FLUSH_BONUS, 0) + amounts.get(SF_BONUS, 0)
              + multiple * ante + fee)
    if stack < needed:
        what = (f"Ante, bonuses, a raise of {multiple}x Ante and the participation fee "
                f"of {fee} it pays, HCF-12" if fee else
                f"Ante, bonuses and a raise of {multiple}x Ante")
        found.append(finding(
            "INSUFFICIENT_STAKE", "GEN-2", rules.profile.insufficient_stake_severity,
            f"seat {seat} started with {stack} chips but the hand can require {needed} "
            f"({what})", seat=seat, amount=needed - stack))


def dp_table_stakes(dp: int, stack: int, fee: int, rules: HcfRules,
                    found: list[Finding]) -> None:
    """GEN-2 for the designated player (``stake_counts_fee``): it covers no wager (HCF-11
    pays players only as far as its funds go), so what the hand can require of it is the
    most HCF-12 fee it can owe (``settlement.dp_rake_reserve``)."""
    if stack < fee:
        found.append(finding(
            "INSUFFICIENT_STAKE", "GEN-2", rules.profile.insufficient_stake_severity,
            f"the designated player (seat {dp}) started with {stack} chips but the hand can "
            f"require {fee} (the participation fee it pays, HCF-12)", seat=dp,
            amount=fee - stack))


# ------------------------------------------------------------------ cards


def known_cards(facts: HandFacts, holder: int, rules: HcfRules,
                found: list[Finding]) -> list[str] | None:
    """The holder's cards: as dealt when all were read, else the read cards plus what the
    showdown adds for the unread ones; None when that cannot be told.

    A showdown must be the cards dealt (any order): every read card, and exactly as many
    others as were dealt unread. Otherwise it is a SHOWDOWN_MISMATCH (GEN-1: a card was
    switched, added or held back); with every card read the hand is settled on the cards
    dealt, with unread cards it cannot be valued (None).
    """
    dealt = facts.dealt.get(holder, [])
    read = [c for c in dealt if c is not None]
    unread = len(dealt) - len(read)
    shown = facts.shown.get(holder)
    filled: list[str] | None = None
    if shown is not None:
        missing, others = _read_against_shown(read, shown)
        if missing or len(others) != unread:
            who = "the designated player" if holder == facts.dp else f"seat {holder}"
            as_dealt = " ".join(c or "??" for c in dealt)
            found.append(finding(
                "SHOWDOWN_MISMATCH", "GEN-1", rules.profile.showdown_mismatch_severity,
                f"{who} showed {' '.join(shown)} but was dealt {as_dealt} (?? = unread): "
                "cards were switched, added or held back"
                + ("; settled on the cards dealt" if not unread else ""), seat=holder))
        else:
            filled = read + others
    if dealt and not unread:
        return read
    return filled


def _read_against_shown(read: list[str], shown: list[str]) -> tuple[list[str], list[str]]:
    """(read cards missing from the showdown, shown cards that are not read cards)."""
    others = list(shown)
    missing = []
    for card in read:
        if card in others:
            others.remove(card)
        else:
            missing.append(card)
    return missing, others


def require_cards(cards: list[str] | None, who: str) -> list[str]:
    if cards is None:
        raise HandRejected("HCF-1", f"{who}'s cards were dealt unread and not shown as dealt "
                                    "(the showdown must list every card of the hand): the "
                                    "hand cannot be valued")
    return cards


# ------------------------------------------------------------------ decisions (HCF-4)


def seat_play(seat: int, amounts: dict[str, int], facts: HandFacts, rules: HcfRules,
              found: list[Finding], trace: list[TraceStep]) -> SeatPlay:
    """The player's decision and the raise in action."""
    play = SeatPlay(seat, amounts.get(ANTE, 0), amounts.get(FLUSH_BONUS, 0),
                    amounts.get(SF_BONUS, 0))
    decided = facts.decision.get(seat)
    left_at = facts.left.get(seat)
    if decided is None or (left_at is not None and left_at < decided[0]):
        play.folded, play.fold_rule = True, "GEN-7"
        # ("made no decision before acting" read as if the seat had acted: QA)
        why = (f"left the table at seq {left_at} before acting" if left_at is not None
               else "made no decision (no raise or fold was recorded)")
        found.append(finding("WALK_AWAY_FOLD", "GEN-7", rules.profile.walk_away_severity,
                             f"seat {seat} {why}: the hand is folded", seat=seat))
        trace.append(TraceStep("GEN-7", f"{why}: folded", seat))
        _raise_after_fold(play, amounts, rules, found)
        return play
    if decided[1] == FOLD:
        play.folded = True
        _late_fold(seat, decided[0], facts, rules, found)
        _raise_after_fold(play, amounts, rules, found)
        return play
    play.cards = require_cards(known_cards(facts, seat, rules, found), f"seat {seat}")
    play.masks = suit_masks(play.cards)
    play.value = flush_value_of_masks(play.masks)
    raised = amounts.get(RAISE, 0)
    play.raise_in_action = _raise_in_action(play, raised, rules, found, trace)
    return play


def _late_fold(seat: int, seq: int, facts: HandFacts, rules: HcfRules,
               found: list[Finding]) -> None:
    """HCF-5: players act before the DP's cards are revealed. A fold after an outcome was
    visible saved the Raise with the DP's hand in view; the fold stands. (A late Raise is
    past-posting, SURV-1, judged on its chips.)"""
    if facts.outcome_seq is not None and seq > facts.outcome_seq:
        found.append(finding(
            "DECISION_AFTER_REVEAL", "HCF-5", rules.profile.late_decision_severity,
            f"seat {seat} folded at seq {seq}, after an outcome was visible (seq "
            f"{facts.outcome_seq}); the fold stands", seat=seat))


def _raise_after_fold(play: SeatPlay, amounts: dict[str, int], rules: HcfRules,
                      found: list[Finding]) -> None:
    """HCF-4: a folded hand has no Raise; chips put down as one are not in action."""
    raised = amounts.get(RAISE, 0)
    if raised:
        found.append(finding(
            "WAGER_NOT_IN_GAME", "HCF-4", rules.profile.wager_not_in_game_severity,
            f"seat {play.seat}: raise of {raised} on a folded hand; it is not in action and "
            "goes back to the player", seat=play.seat, amount=raised))


def _raise_in_action(play: SeatPlay, raised: int, rules: HcfRules, found: list[Finding],
                     trace: list[TraceStep]) -> int:
    """HCF-4: an over-cap raise is a finding and (Reading, ``over_cap_raise_plays``) only
    the capped amount plays, or the whole raise; a short raise is a finding and plays."""
    length = flush_length(play.value)
    cap = rules.raise_cap(length, play.ante)
    minimum = rules.profile.raise_min_ante_multiple * play.ante
    seat = play.seat
    if raised > cap:
        play.over_cap = True
        plays = cap if rules.profile.over_cap_raise_plays == "cap" else raised
        returned = f"only {cap} is in action, {raised - cap} goes back" if plays == cap \
            else "it plays as placed"
        found.append(finding(
            "RAISE_OVER_CAP", "HCF-4", rules.profile.over_cap_raise_severity,
            f"seat {seat} raised {raised} with a {length}-card flush; the cap is {cap} "
            f"(Ante {play.ante}); {returned}", seat=seat, amount=raised - cap))
        trace.append(TraceStep("HCF-4", f"raise {raised} over the {length}-card cap {cap}: "
                                        f"{plays} in action", seat))
        return plays
    if raised < minimum:
        found.append(finding(
            "RAISE_UNDER_MINIMUM", "HCF-4", rules.profile.under_min_raise_severity,
            f"seat {seat} raised {raised}, less than the minimum {minimum}; it plays as "
            "placed", seat=seat, amount=minimum - raised))
    return raised


# ------------------------------------------------------------------ rotation (HCF-2)


def rotation_findings(facts: HandFacts, table: TableContext, rules: HcfRules,
                      found: list[Finding], trace: list[TraceStep]) -> None:
    """HCF-2: the DP moves clockwise; every eligible seat passed over must have declined.

    Eligible seats are the seats dealt into this hand. Starting left of the previous DP
    and walking clockwise, each eligible seat before the new DP needs a recorded
    ``designated_player_offer`` with ``accepted`` false. When the DP stays the same, every
    other eligible seat must have declined.
    """
    if facts.button != facts.dp:
        found.append(finding(
            "BUTTON_NOT_AT_DP", "HCF-2", rules.profile.button_not_at_dp_severity,
            f"the button is at seat {facts.button} but the designated player is seat "
            f"{facts.dp}; settlement order is taken from the designated player", seat=facts.dp))
    previous = table.previous_designated
    if previous is None:
        trace.append(TraceStep("HCF-2", f"designated player: seat {facts.dp}"))
        return
    declined = {seat for seat, accepted in table.designated_offers if not accepted}
    eligible = sorted(facts.stacks)
    ring = [s for s in eligible if s > previous] + [s for s in eligible if s <= previous]
    skipped: list[int] = []
    for seat in ring:
        if seat == facts.dp:
            break
        if seat != previous and seat not in declined:
            skipped.append(seat)
    for seat in skipped:
        found.append(finding(
            "DP_ROTATION_SKIP", "HCF-2", rules.profile.dp_rotation_skip_severity,
            f"the designated player {_moved(previous, facts.dp)}, passing seat {seat} "
            "without a recorded decline", seat=seat))
    passed = [s for s in ring[: ring.index(facts.dp)] if s != previous] \
        if facts.dp in ring else []
    trace.append(TraceStep("HCF-2", f"designated player: seat {facts.dp} (previous seat "
                                    f"{previous}; passed over {passed or 'nobody'}, declined "
                                    f"{sorted(declined) or 'nobody'})"))


def _moved(previous: int, dp: int) -> str:
    """How the position went: "moved from seat 1 to seat 2", or "stayed at seat 1" (QA:
    it read "moved from seat 1 to seat 1")."""
    return f"stayed at seat {dp}" if previous == dp else f"moved from seat {previous} to seat {dp}"

"""One PHH hand as the events a hold'em table system would have recorded.

PHH (github.com/uoftcprg/phh-std) describes a hand by its variant, antes, blinds,
starting stacks and a list of actions (``d dh p1 AcKd`` deal hole cards, ``d db 7h8c9d``
deal the board, ``p3 cbr 300`` bet or raise *to* 300, ``p3 cc`` check or call, ``p3 f``
fold, ``p3 sm AcKd`` show, ``p3 sm`` muck); ``finishing_stacks`` is how the hand was
actually settled, or, where the source has no finishing stacks (the HandHQ files),
``winnings``: what each player collected from the pot. ``convert`` replays the actions
with the table's bookkeeping (what each player put in, round by round) and returns the v1
event bodies: posts, the deal one card at a time clockwise from the button's left, a burn
before each street, the actions with the chips each one moved, the showdown (one per
player: a run-out that shows a hand several times keeps the cards it finally showed), and
the *recorded* payouts: each player's finishing stack minus what it kept after its bets,
or its winnings plus its uncalled bet (the uncalled part of the last bet recorded as a
refund). pitwatch then re-derives the settlement independently and compares. A hand
whose source records no settlement at all (no finishing stacks; winnings missing or all
zero) is not imported: the settlement is never inferred.

Positions (PHH / pokerkit convention): p1 is the first player left of the button and the
last player is the button; heads-up, p1 is the big blind and p2 the button and small
blind (``blinds_or_straddles`` and ``antes`` are then listed in reverse).

Every amount is multiplied by the table's ``scale`` (``phh.py``), exactly (``phh_amounts``).
A hand this module cannot express raises ``Unsupported``: the importer skips it, saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from services.events.numerals import is_ascii_number
from services.importers.phh_amounts import is_whole, scaled
from services.importers.phh_names import player_names_problem
from services.importers.phh_toml import wrong_type

HOLDEM_VARIANTS = {"NT": "no", "FT": "fixed"}
VARIANT_NAMES = {
    "NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em",
    "PO": "pot-limit Omaha hold'em", "FO/8": "fixed-limit Omaha hi-lo",
    "F7S": "fixed-limit seven card stud", "F7S/8": "fixed-limit seven card stud hi-lo",
    "FR": "fixed-limit razz", "N2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw", "NS": "no-limit short-deck hold'em",
    "FB": "fixed-limit badugi", "PD": "pot-limit five card draw",
}
HOLE_CARDS = 2
SETTLEMENT_NOT_RECORDED = ("settlement not recorded: no 'finishing_stacks', and 'winnings' "
                           "missing or all zero (pitwatch never infers a settlement)")
SHOWDOWN_UNKNOWN = "showdown cards unknown: who won cannot be verified"

EventBody = tuple[str, dict[str, Any]]


class Unsupported(ValueError):
    """The hand cannot be imported as a pitwatch hold'em hand; the message says why.
    ``kind``: the reason without this hand's particulars (amounts, players), so a summary
    can count hands by reason."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind or message


@dataclass(frozen=True)
class PhhHand:
    """The fields of one PHH hold'em hand the import uses, amounts still as read."""

    variant: str
    players: tuple[str, ...]
    starting: tuple[Decimal, ...]
    finishing: tuple[Decimal, ...] | None  # the settlement: finishing stacks, or
    winnings: tuple[Decimal, ...] | None  # what each player collected from the pot
    antes: tuple[Decimal, ...]
    blinds: tuple[Decimal, ...]
    min_bet: Decimal | None
    small_bet: Decimal | None
    big_bet: Decimal | None
    actions: tuple[str, ...]
    seats: tuple[int, ...] | None
    number: int | None
    label: str | None = None  # the source's hand id (``hand``), as text
    table: str | None = None  # the source's table name (``table``)
    venue: str | None = None  # the card room (``venue``)

    @property
    def structure(self) -> str:
        return HOLDEM_VARIANTS[self.variant]

    def amounts(self) -> list[Decimal]:
        """Every chip amount of the hand (for the table's chip unit)."""
        out = [*self.starting, *(self.finishing or ()), *(self.winnings or ()), *self.antes,
               *self.blinds]
        out += [v for v in (self.min_bet, self.small_bet, self.big_bet) if v is not None]
        for action in self.actions:
            parts = action.split()
            if len(parts) == 3 and parts[1] == "cbr":
                out.append(_decimal(parts[2], action))
        return out


def read_hand(doc: dict[str, Any]) -> PhhHand:
    """The hold'em fields of a parsed PHH document, checked; ``Unsupported`` otherwise."""
    if not doc:  # said "no 'variant' field" of an empty file, as if one field were amiss
        raise Unsupported("no PHH field at all (an empty file, or comments only)")
    variant = doc.get("variant")
    if not isinstance(variant, str):  # ``variant = 5`` is there, but names no game
        raise (Unsupported("no 'variant' field") if variant is None else Unsupported(
            *wrong_type("variant", variant, "a string ('NT': the game's code in quotes)")))
    if variant not in HOLDEM_VARIANTS:
        name = VARIANT_NAMES.get(variant, "a variant")
        raise Unsupported(f"variant {variant} ({name}): pitwatch adjudicates Texas hold'em "
                          "(NT, FT) only")
    starting = _numbers(doc, "starting_stacks")
    count = len(starting)
    players = doc.get("players")
    if players is not None and not isinstance(players, list):  # PHH: a list of names
        raise Unsupported("'players' is not a list of names")  # was read as none given
    names = tuple(str(p) for p in players) if isinstance(players, list) else tuple(
        f"p{i + 1}" for i in range(count))
    if len(names) != count:
        raise Unsupported(f"{len(names)} players named for {count} starting stacks")
    problem = player_names_problem(names)
    if problem is not None:
        raise Unsupported(*problem)
    _finite(starting, "starting stack")
    _not_below_zero(starting)
    finishing, winnings = _settlement_fields(doc, count)
    actions = doc.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise Unsupported("'actions' is not a list of strings")
    number = doc.get("hand")
    if isinstance(number, Decimal):  # PHH's hand number is an integer; 2.0 sorted first
        raise Unsupported(f"'hand' is {number}, not an integer (the hand's number)",
                          "'hand' is not an integer (the hand's number)")
    antes = _finite(_numbers(doc, "antes", count), "ante")
    blinds = _finite(_numbers(doc, "blinds_or_straddles", count), "blind")
    kept_actions = tuple(a.split("#", 1)[0].strip() for a in actions)
    _bet_sizes(kept_actions)
    return PhhHand(
        variant=variant, players=names, starting=starting, finishing=finishing,
        winnings=winnings, antes=antes, blinds=blinds,
        min_bet=_optional(doc, "min_bet"),
        small_bet=_optional(doc, "small_bet"),
        big_bet=_optional(doc, "big_bet"),
        actions=kept_actions,
        seats=_seats(doc.get("seats"), count),
        number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        label=str(number) if isinstance(number, int | str) and not isinstance(number, bool)
        else None,
        table=_text(doc, "table"),
        venue=_text(doc, "venue"),
    )


def _settlement_fields(doc: dict[str, Any], count: int
                       ) -> tuple[tuple[Decimal, ...] | None, tuple[Decimal, ...] | None]:
    """(finishing stacks, winnings): the settlement the source recorded, at least one of
    them; winnings that are all zero say nothing (nobody is paid nothing from a pot)."""
    finishing = winnings = None
    if "finishing_stacks" in doc:
        finishing = _finite(_numbers(doc, "finishing_stacks", count), "finishing stack")
    if "winnings" in doc:
        winnings = _finite(_numbers(doc, "winnings", count), "winnings")
        if any(w < 0 for w in winnings):
            raise Unsupported(f"'winnings' {[str(w) for w in winnings]} has a negative amount")
    if finishing is None and (winnings is None or not any(winnings)):
        raise Unsupported(SETTLEMENT_NOT_RECORDED)
    return finishing, winnings


def _finite(values: tuple[Decimal, ...], what: str) -> tuple[Decimal, ...]:
    """An ``inf`` (or ``nan``) amount says the source did not know it: that hand, and only
    that hand, cannot be imported."""
    for position, value in enumerate(values):
        if not value.is_finite():
            raise Unsupported(f"the {what} of p{position + 1} is {value} (not recorded): the "
                              "chips at stake in this hand are unknown",
                              f"a {what} not recorded (inf or nan): the chips at stake are "
                              "unknown")
    return values


def _not_below_zero(starting: tuple[Decimal, ...]) -> None:
    """A stack below zero is no stack: the contract seats a player with 0 chips or more,
    and a hand that starts with one cannot be written as events."""
    for position, value in enumerate(starting):
        if value < 0:
            raise Unsupported(f"the starting stack of p{position + 1} is {value}: below zero",
                              "a starting stack below zero")


def _text(doc: dict[str, Any], key: str) -> str | None:
    value = doc.get(key)
    return value if isinstance(value, str) and value else None


def _seats(value: Any, count: int) -> tuple[int, ...] | None:
    """The file's ``seats``, if given: distinct seat numbers 1..64, one per player, in
    clockwise order from the button's left (the last player is on the button)."""
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != count or len(set(value)) != count
            or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 64
                       for s in value)):
        raise Unsupported(f"'seats' {value!r} is not one distinct seat 1..64 per player")
    button = value[-1]
    ordered = sorted(value)
    if [s for s in ordered if s > button] + [s for s in ordered if s <= button] != value:
        raise Unsupported(f"'seats' {value!r} are not in clockwise order from the button")
    return tuple(value)


def _numbers(doc: dict[str, Any], key: str, count: int | None = None) -> tuple[Decimal, ...]:
    value = doc.get(key)
    if not isinstance(value, list) or not all(
            isinstance(v, int | Decimal) and not isinstance(v, bool) for v in value):
        raise Unsupported(f"'{key}' is not a list of numbers")
    if count is not None and len(value) != count:
        raise Unsupported(f"'{key}' has {len(value)} entries for {count} players")
    return tuple(Decimal(v) for v in value)


def _optional(doc: dict[str, Any], key: str) -> Decimal | None:
    value = doc.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise Unsupported(f"'{key}' is not a number")
    if not Decimal(value).is_finite():
        raise Unsupported(f"'{key}' is {value}, not an amount")
    return Decimal(value)


def _bet_sizes(actions: tuple[str, ...]) -> None:
    """Every bet size the actions write is an amount (``amounts`` reads them for the
    table's chip unit, after every hand of the table has been read: a size that is not one
    is this hand's reason to be skipped, checked here with the rest of the document)."""
    for action in actions:
        parts = action.split()
        if len(parts) == 3 and parts[1] == "cbr":
            size = _decimal(parts[2], action)
            if not size.is_finite():
                raise Unsupported(f"action {action!r}: {parts[2]!r} is not an amount")


def _decimal(text: str, action: str) -> Decimal:
    try:
        return Decimal(text)
    except ArithmeticError as exc:
        raise Unsupported(f"action {action!r}: {text!r} is not an amount") from exc


# ---------------------------------------------------------------------------- posts


@dataclass(frozen=True)
class Posts:
    """Who posts what before the deal, in chips of the table's unit (by position)."""

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    small_blind: int
    big_blind: int
    ante_each: int
    big_blind_ante: int


def posts(hand: PhhHand, scale: int) -> Posts:
    """TH-1 blinds and antes in the table's unit; straddles and unusual antes are not."""
    count = len(hand.players)
    antes = [_chips(a, scale) for a in hand.antes]
    blinds = [_chips(b, scale) for b in hand.blinds]
    _only_two_blinds(hand.blinds)
    small, big = blinds[0], blinds[1]
    if big <= 0 or small <= 0:
        raise Unsupported("the table posts no small or no big blind")
    if count == 2:  # heads-up: p1 is the big blind, p2 (the button) the small blind
        antes.reverse()
        blinds.reverse()
    big_position = 0 if count == 2 else 1
    each, big_blind_ante = _ante_scheme(antes, big_position)
    return Posts(tuple(antes), tuple(blinds), small, big, each, big_blind_ante)


def _only_two_blinds(blinds: Sequence[Decimal]) -> None:
    """TH-1 posts a small and a big blind. PHH writes any other post as a further entry:
    a positive one is a straddle (a blind that buys the last action), a negative one a
    post of that size by a player outside the blinds, a new player's blind, which keeps
    the order of action (pokerkit's reading). The v1 contract can post neither."""
    for position, blind in enumerate(blinds):
        if position < 2 and blind >= 0:
            continue
        who = f"p{position + 1}"
        if blind < 0:
            raise Unsupported(f"a posted blind of {-blind} by {who}, a player outside the "
                              "blinds (a new player's post): TH-1 and the v1 contract post "
                              "only the small and the big blind",
                              "a posted blind of a player outside the blinds (a new "
                              "player's post): TH-1 and the v1 contract post only the "
                              "small and the big blind")
        if blind > 0:
            raise Unsupported(f"a straddle of {blind} by {who}: TH-1 posts only a small and "
                              "a big blind", "a straddle: TH-1 posts only a small and a "
                                             "big blind")


def _ante_scheme(antes: Sequence[int], big_position: int) -> tuple[int, int]:
    """(ante from every player, big-blind ante) or ``Unsupported``."""
    if not any(antes):
        return 0, 0
    if len(set(antes)) == 1:
        return antes[0], 0
    if all(a == 0 for i, a in enumerate(antes) if i != big_position):
        return 0, antes[big_position]
    raise Unsupported(f"antes {list(antes)}: TH-1 antes are posted by every player or by "
                      "the big blind")


def _chips(value: Decimal, scale: int) -> int:
    chips = scaled(value, scale)
    if not is_whole(chips):
        raise Unsupported(f"amount {value} is not a whole number of chips at scale {scale}")
    return int(chips)


# ---------------------------------------------------------------------------- replay


@dataclass
class Replay:
    """The table's bookkeeping while the PHH actions are replayed."""

    hand: PhhHand
    seats: tuple[int, ...]  # seat of each position
    scale: int
    stacks: list[int]
    street: list[int]  # chips put in this betting round (antes excluded)
    total: list[int]  # chips put in this hand
    events: list[EventBody] = field(default_factory=list)
    hole: list[list[str | None] | None] = field(default_factory=list)
    dealt: bool = False
    betting_began: bool = False
    board_cards: int = 0
    folded: set[int] = field(default_factory=set)
    shown: dict[int, int] = field(default_factory=dict)  # position -> its showdown event

    def put(self, position: int, chips: int, live: bool = True) -> None:
        self.stacks[position] -= chips
        self.total[position] += chips
        if live:
            self.street[position] += chips

    def action(self, position: int, kind: str, chips: int | None) -> None:
        if not kind.startswith("post_"):
            self.betting_began = True
        data: dict[str, Any] = {"seat": self.seats[position], "action": kind}
        if chips is not None:
            data["amount"] = chips
        self.events.append(("action", data))


@dataclass(frozen=True)
class Converted:
    """The hand's events between ``hand_started`` and ``hand_ended`` (both excluded), and
    what the record cannot tell (``limits``: e.g. ``SHOWDOWN_UNKNOWN``)."""

    events: list[EventBody]
    limits: tuple[str, ...]
    finishing: tuple[int, ...]  # each player's stack after the hand, as recorded


def convert(hand: PhhHand, seats: Sequence[int], scale: int) -> Converted:
    """Replay the hand's actions into v1 event bodies (``Unsupported`` when it cannot)."""
    count = len(hand.players)
    replay = Replay(hand, tuple(seats), scale, [_chips(s, scale) for s in hand.starting],
                    [0] * count, [0] * count, hole=[None] * count)
    _post(replay, posts(hand, scale))
    for text in hand.actions:
        if text:
            _apply(replay, text)
    if not replay.dealt:
        raise Unsupported("no hole cards were dealt")
    payouts = _payouts(replay)
    replay.events += _settlement(replay, payouts)
    finishing = tuple(left + paid for left, paid in zip(replay.stacks, payouts, strict=True))
    return Converted(replay.events, _limits(replay), finishing)


def _payouts(replay: Replay) -> list[int]:
    """What each player was paid from the pot (refunds included): its finishing stack
    minus what it kept after its bets, or its winnings plus its uncalled bet.

    ``winnings`` leave the uncalled part of a raise out (it went back), but a source may
    count a blind nobody called in them (HandHQ: the big blind "collects" 1.50 when the
    small blind folds to it at 0.50/1, its own uncalled 0.50 included): winnings that
    add up to everything put in, the uncalled part too, are that, so no refund is added.
    Anything else is taken as written (winnings beyond the called pot then show as chips
    paid out of nowhere, POT_OVERDRAWN: the source left a post out)."""
    hand, scale = replay.hand, replay.scale
    if hand.finishing is not None:
        return [_chips(f, scale) - s for f, s in zip(hand.finishing, replay.stacks, strict=True)]
    assert hand.winnings is not None  # read_hand requires one of the two
    won = [_chips(w, scale) for w in hand.winnings]
    refunds = _uncalled(replay.total)
    if refunds and sum(won) == sum(replay.total):
        refunds = {}
    return [w + refunds.get(i, 0) for i, w in enumerate(won)]


def _limits(replay: Replay) -> tuple[str, ...]:
    """A showdown whose contenders' cards are not all known (neither read at the deal nor
    shown): the chips can be checked, who won cannot."""
    contenders = [i for i in range(len(replay.stacks)) if i not in replay.folded]
    if len(contenders) < 2:
        return ()
    known = {i for i in contenders if _known(replay.hole[i]) or _shown_cards(replay, i)}
    return (SHOWDOWN_UNKNOWN,) if len(known) < len(contenders) else ()


def _known(cards: list[str | None] | None) -> bool:
    return cards is not None and all(c is not None for c in cards)


def _shown_cards(replay: Replay, position: int) -> bool:
    index = replay.shown.get(position)
    return index is not None and "cards" in replay.events[index][1]


def _post(replay: Replay, posted: Posts) -> None:
    """Antes first (dead money), then the blinds, capped at what each player has."""
    for position, ante in enumerate(posted.antes):
        if ante:
            chips = min(ante, replay.stacks[position])
            replay.put(position, chips, live=False)
            replay.action(position, "post_ante", chips)
    kinds = ("post_small_blind", "post_big_blind")
    order = (1, 0) if len(replay.stacks) == 2 else (0, 1)
    for kind, position in zip(kinds, order, strict=True):
        chips = min(posted.blinds[position], replay.stacks[position])
        replay.put(position, chips)
        replay.action(position, kind, chips)


def _apply(replay: Replay, text: str) -> None:
    parts = text.split()
    if parts[0] == "d":
        _dealer(replay, parts, text)
        return
    position = _position(parts[0], len(replay.stacks), text)
    verb = parts[1] if len(parts) > 1 else ""
    if verb == "f" and len(parts) == 2:
        replay.folded.add(position)
        replay.action(position, "fold", None)
    elif verb == "cc" and len(parts) == 2:
        _check_or_call(replay, position)
    elif verb == "cbr" and len(parts) == 3:
        _bet_or_raise(replay, position, _chips(_decimal(parts[2], text), replay.scale), text)
    elif verb == "sm":
        _show(replay, position, parts[2] if len(parts) > 2 else None, text)
    else:
        raise Unsupported(f"action {text!r} is not a hold'em betting or showdown action")


def _dealer(replay: Replay, parts: list[str], text: str) -> None:
    if len(parts) == 4 and parts[1] == "dh":
        if replay.board_cards or replay.betting_began:
            raise Unsupported(f"{text!r}: hole cards dealt after the betting began")
        position = _position(parts[2], len(replay.stacks), text)
        cards = _cards(parts[3], text)
        if len(cards) != HOLE_CARDS:
            raise Unsupported(f"{text!r}: {len(cards)} hole cards; hold'em deals two")
        replay.hole[position] = cards
        if all(h is not None for h in replay.hole):
            _deal_hole_cards(replay)
    elif len(parts) == 3 and parts[1] == "db":
        if not replay.dealt:
            raise Unsupported(f"{text!r}: board dealt before the hole cards")
        cards = _cards(parts[2], text)
        replay.events.append(("card_dealt", {"to": "burn", "card": None, "face_up": False}))
        replay.events += [("card_dealt", {"to": "board", "card": c, "face_up": True})
                          for c in cards]
        replay.board_cards += len(cards)
        replay.street = [0] * len(replay.street)
    else:
        raise Unsupported(f"dealer action {text!r} is not a hold'em deal")


def _deal_hole_cards(replay: Replay) -> None:
    """TH-1: one card at a time, clockwise from the button's left (p1 first)."""
    for index in range(HOLE_CARDS):
        for position, cards in enumerate(replay.hole):
            assert cards is not None
            replay.events.append(("card_dealt", {"to": "seat", "seat": replay.seats[position],
                                                 "card": cards[index], "face_up": False}))
    replay.dealt = True


def _check_or_call(replay: Replay, position: int) -> None:
    owed = max(replay.street) - replay.street[position]
    chips = min(owed, replay.stacks[position])
    if chips == 0:
        replay.action(position, "check", None)
        return
    kind = "all_in" if chips == replay.stacks[position] else "call"
    replay.put(position, chips)
    replay.action(position, kind, chips)


def _bet_or_raise(replay: Replay, position: int, to: int, text: str) -> None:
    chips = to - replay.street[position]
    if chips <= 0:
        raise Unsupported(f"{text!r}: a bet or raise to {to} adds no chips")
    facing = max(replay.street)
    kind = "all_in" if chips == replay.stacks[position] else "bet" if facing == 0 else "raise"
    replay.put(position, chips)
    replay.action(position, kind, chips)


def _show(replay: Replay, position: int, cards_text: str | None, text: str) -> None:
    """One ``showdown`` per player, where it first showed. An all-in run-out can repeat
    the line (``p5 sm ????`` before the turn, ``p5 sm AsAc`` at the end): the cards the
    player finally showed replace a card-less showing, never the other way round."""
    seat = replay.seats[position]
    if cards_text is None:
        data: dict[str, Any] = {"seat": seat, "mucked": True}
    else:
        cards = _cards(cards_text, text)
        data = {"seat": seat} if any(c is None for c in cards) else {"seat": seat,
                                                                     "cards": cards}
    first = replay.shown.get(position)
    if first is None:
        replay.shown[position] = len(replay.events)
        replay.events.append(("showdown", data))
    elif "cards" in data and "cards" not in replay.events[first][1]:
        replay.events[first] = ("showdown", data)


def _settlement(replay: Replay, payouts: list[int]) -> list[EventBody]:
    """The recorded payouts (what each player was paid from the pot). The uncalled part
    of the largest contribution is recorded as a refund; chips the players did not get
    back were taken by the house (recorded as rake from the pot)."""
    negative = [i for i, p in enumerate(payouts) if p < 0]
    if negative:
        who = ", ".join(f"p{i + 1}" for i in negative)
        raise Unsupported(f"finishing stacks of {who} are below what they kept after their "
                          "bets")
    refunds = _uncalled(replay.total)
    events: list[EventBody] = []
    pot = sum(replay.total)
    paid = sum(payouts)
    if paid < pot:
        events.append(("rake_collected", {"seat": None, "amount": pot - paid, "from": "pot"}))
    for position, amount in enumerate(payouts):
        seat = replay.seats[position]
        refund = min(refunds.get(position, 0), amount)
        if refund:
            events.append(("payout", {"seat": seat, "amount": refund, "source": "pot",
                                      "kind": "refund"}))
        if amount - refund:
            events.append(("payout", {"seat": seat, "amount": amount - refund,
                                      "source": "pot", "kind": "pot"}))
    return events


def _uncalled(total: Sequence[int]) -> dict[int, int]:
    ranked = sorted(range(len(total)), key=lambda i: total[i], reverse=True)
    if len(ranked) < 2 or total[ranked[0]] == total[ranked[1]]:
        return {}
    return {ranked[0]: total[ranked[0]] - total[ranked[1]]}


def _position(token: str, count: int, text: str) -> int:
    number = token[1:]  # ASCII digits, as PHH and the native reader (int() broke on p²)
    if not token.startswith("p") or not is_ascii_number(number):
        raise Unsupported(f"action {text!r}: {token!r} is not a player")
    position = int(number) - 1
    if not 0 <= position < count:
        raise Unsupported(f"action {text!r}: there is no player {token}")
    return position


def _cards(text: str, action: str) -> list[str | None]:
    if len(text) % 2:
        raise Unsupported(f"{action!r}: {text!r} is not a list of cards")
    cards: list[str | None] = []
    for i in range(0, len(text), 2):
        card = text[i:i + 2]
        if card == "??":
            cards.append(None)
        elif card[0] in "23456789TJQKA" and card[1] in "cdhs":
            cards.append(card)
        else:
            raise Unsupported(f"{action!r}: {card!r} is not a card")
    return cards

"""Expected versus recorded, per seat and per wager, from the record and its movements.

Why from the movements: they are exactly what the ledger books (events.md, "How chips
move"), so what the report shows a seat received is what the books say it received. The
expected side is the rules' per-seat result (``AdjudicationRecord.expected``); a game
states its expectation per seat, not per wager, so per wager the report shows what the
table did with each wager (placed, collected, returned) and each payment, and the
decision path explains the expectation.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from services.events.contract import (
    AdjudicationRecord,
    Event,
    Movement,
    PayoutEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.events.numerals import is_ascii_number


@dataclass(frozen=True)
class SeatLine:
    """One seat (or the house): every figure in chips; ``None`` when a side is missing."""

    who: str
    player: str | None
    expected_before_rake: int | None
    expected_rake: int | None
    expected_net: int | None
    recorded_before_rake: int | None
    recorded_rake: int | None
    recorded_net: int | None
    rule: str | None

    @property
    def difference(self) -> int | None:
        """recorded - expected, after rake (positive: the seat got too much)."""
        if self.recorded_net is None or self.expected_net is None:
            return None
        return self.recorded_net - self.expected_net


@dataclass(frozen=True)
class WagerLine:
    """One wager kind of one seat: placed on the layout, collected from it by the banker."""

    kind: str
    placed: int
    collected: int


@dataclass(frozen=True)
class PaymentLine:
    """A chip movement that is not a wager: a payout, a collection, rake, a bet to a pot."""

    seq: int
    what: str
    counterparty: str
    amount: int  # signed effect on the seat's stack


@dataclass
class SeatMoney:
    seat: int
    player: str | None
    wagers: list[WagerLine] = field(default_factory=list)
    payments: list[PaymentLine] = field(default_factory=list)
    returned: int = 0  # layout chips given back to the player at hand_ended

    @property
    def stack_change(self) -> int:
        placed = sum(w.placed for w in self.wagers)
        return -placed + self.returned + sum(p.amount for p in self.payments)


def _int_key(key: str) -> tuple[int, str]:
    return (int(key), "") if is_ascii_number(key) else (10**6, key)


def seat_lines(record: AdjudicationRecord, seat_rules: dict[int, str],
               fees_from_pot: bool = False) -> list[SeatLine]:
    """Per seat and for the house: expected and recorded result, before and after rake.
    ``fees_from_pot``: the posted rake takes the fees out of the pot
    (``GameOutcome.fees_from_pot``): no seat's own chips pay a fee, so a seat's result
    before rake is its net, as the comparison that made the record's MISPAYs reads it."""
    expected, recorded = record.expected, record.recorded
    players = record.players or {}
    keys: set[str] = set()
    for side in (expected, recorded):
        if side is not None:
            keys |= set(side.net) | set(side.rake)
    keys.discard("house")
    lines = [_line(key, players, record, seat_rules, fees_from_pot)
             for key in sorted(keys, key=_int_key)]
    if expected is not None or recorded is not None:
        lines.append(SeatLine(
            who="house", player=None,
            expected_before_rake=None, expected_rake=None,
            expected_net=expected.net.get("house") if expected else None,
            recorded_before_rake=None, recorded_rake=None,
            recorded_net=recorded.net.get("house") if recorded else None,
            rule=None))
    return lines


def _line(
    key: str, players: dict[str, str], record: AdjudicationRecord, seat_rules: dict[int, str],
    fees_from_pot: bool,
) -> SeatLine:
    exp, rec = record.expected, record.recorded
    own = 0 if fees_from_pot else 1  # how much of a seat's fee its own chips paid
    e_net = exp.net.get(key, 0) if exp else None
    e_rake = exp.rake.get(key, 0) if exp else None
    r_net = rec.net.get(key, 0) if rec else None
    r_rake = rec.rake.get(key, 0) if rec else None
    rule = seat_rules.get(int(key)) if is_ascii_number(key) else None
    if rule is None:
        rule = next((f.rule for f in record.findings
                     if f.code == "MISPAY" and is_ascii_number(key) and f.seat == int(key)), None)
    if is_ascii_number(key) and None not in (e_net, e_rake, r_net, r_rake):
        rule = _explaining_rule(int(key), record, (r_net or 0) - (e_net or 0),
                                (r_rake or 0) - (e_rake or 0), rule, own)
    return SeatLine(
        who=f"seat {key}" if is_ascii_number(key) else key,
        player=players.get(key),
        expected_before_rake=None if e_net is None or e_rake is None else e_net + own * e_rake,
        expected_rake=e_rake, expected_net=e_net,
        recorded_before_rake=None if r_net is None or r_rake is None else r_net + own * r_rake,
        recorded_rake=r_rake, recorded_net=r_net, rule=rule,
    )


RAKE_CODES = ("RAKE_OVER", "RAKE_UNDER")  # GEN-10 / HCF-12: the seat paid other rake
FEE_CODES = ("WRONG_FEE",)  # RP-2: the seat paid another price for a draw


def _explaining_rule(seat: int, record: AdjudicationRecord, difference: int,
                     rake_difference: int, payout_rule: str | None, own: int = 1) -> str | None:
    """The rule the "Rule" column cites for a seat: with no difference, the rule that
    decided its result (``payout_rule``); with one, the rule of each finding that explains
    it. Why: a seat short one chip of rake only once cited the game's payout rule (QA:
    "-1 | HCF-7" beside a RAKE_OVER HCF-12). Rake (recorded rake - expected rake) is
    explained by the seat's RAKE_OVER / RAKE_UNDER; the rest of the difference (before
    rake) by its WRONG_FEE findings (their amounts: chips paid over the price, so a
    seat's result is that much lower) and, for what they leave, by its MISPAY (or, with
    none, the payout rule). ``own``: 0 when fees come out of the pot (the seat's result
    before rake is then its net)."""
    if difference == 0 and rake_difference == 0:
        return payout_rule
    mine = [f for f in record.findings if f.seat == seat]
    rules: list[str] = []
    if rake_difference:
        rules += [f.rule for f in mine if f.code in RAKE_CODES]
    before = difference + own * rake_difference  # the seat's difference before rake
    fees = [f for f in mine if f.code in FEE_CODES and f.amount]
    rules += [f.rule for f in fees]
    if before + sum(f.amount or 0 for f in fees) != 0:
        rules += [f.rule for f in mine if f.code == "MISPAY"] or (
            [payout_rule] if payout_rule else [])
    cited = list(dict.fromkeys(rules))
    return ", ".join(cited) if cited else payout_rule


def seat_money(record: AdjudicationRecord, events: list[Event] | None = None) -> list[SeatMoney]:
    """Each seat's recorded wagers and payments, from the record's movements.

    ``events`` (when the log is at hand) name each wager's kind (Ante, Bet, ...); without
    them a wager is just "wager".
    """
    by_seq = {e.seq: e for e in events or []}
    players = record.players or {}
    placed: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    collected: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    payments: dict[int, list[PaymentLine]] = defaultdict(list)
    returned: dict[int, int] = defaultdict(int)
    for m in record.movements or []:
        if m.kind == "layout_return" and (seat := _seat_of(m.to)) is not None:
            returned[seat] += m.amount
            continue
        _book(m, by_seq.get(m.seq), placed, collected, payments)
    seats = sorted(set(placed) | set(payments) | set(returned))
    out: list[SeatMoney] = []
    for seat in seats:
        kinds = sorted(set(placed[seat]) | set(collected[seat]))
        wagers = [WagerLine(kind, placed[seat][kind], collected[seat][kind]) for kind in kinds]
        out.append(SeatMoney(seat, players.get(str(seat)), wagers, payments[seat],
                             returned[seat]))
    return out


def _seat_of(account: str) -> int | None:
    kind, _, rest = account.partition(":")
    return int(rest) if kind in ("stack", "layout") and is_ascii_number(rest) else None


def _book(
    m: Movement,
    event: Event | None,
    placed: dict[int, dict[str, int]],
    collected: dict[int, dict[str, int]],
    payments: dict[int, list[PaymentLine]],
) -> None:
    src, dst = _seat_of(m.from_), _seat_of(m.to)
    if m.kind == "wager" and src is not None:
        kind = event.data.kind if isinstance(event, WagerEvent) else "wager"
        placed[src][kind] += m.amount
        return
    if m.kind == "wager_collected" and src is not None:
        kind = event.data.kind if isinstance(event, WagerCollectedEvent) else "wager"
        collected[src][kind] += m.amount
        if dst is not None and m.to.startswith("stack:"):
            payments[dst].append(PaymentLine(m.seq, f"collects the {kind} of seat {src}",
                                             f"seat {src}", m.amount))
        return
    what = m.kind
    if isinstance(event, PayoutEvent):
        what = f"payout ({event.data.kind})"
    if m.from_.startswith("stack:") and src is not None:
        payments[src].append(PaymentLine(m.seq, what, m.to, -m.amount))
    if m.to.startswith("stack:") and dst is not None:
        payments[dst].append(PaymentLine(m.seq, what, m.from_, m.amount))

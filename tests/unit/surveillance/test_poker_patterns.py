"""SURV-3 chip dumping and SURV-4 soft play (Hold'em, Draw 7-A)."""

from __future__ import annotations

from typing import Any

import pytest

from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand


def act(seat: int, action: str, amount: int | None = None) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    return ("action", data)


def run(rule: str, hands: list[tuple]) -> list:  # type: ignore[type-arg]
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    return [a for h, r in hands for a in engine.observe(h, r) if a.rule == rule]


def dump(n: int, taker: int, lost: int = 200) -> tuple:  # type: ignore[type-arg]
    """Hold'em, big blind 10, six players: seat 1 (A) folds having lost ``lost`` chips;
    seat ``taker`` wins them; the others fold for nothing."""
    return hand(n, game="holdem", big_blind=10, events=[act(1, "fold")],
                net={1: -lost, taker: lost})


def test_chip_dumping_to_one_partner() -> None:
    """A folds after investing 20 big blinds (>= 10) in every hand, B (seat 2) wins each
    time. All six play every hand, so B is 1 of A's 5 opponents: share 1/5. After 8
    transfers, all to B: (1/5)^8 = 2.56e-6 > 1e-6; after 9: (1/5)^9 = 5.12e-7 <= 1e-6,
    9 >= min_count 3 and 9 * 20 = 180 >= 60 big blinds: alert on hand 9."""
    alerts = run("SURV-3", [dump(n, taker=2) for n in range(1, 10)])
    assert [a.hand_id for a in alerts] == ["T1-000009"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["from_player"], ev["to_player"], ev["count"], ev["chips"], ev["big_blinds"],
            ev["transfers_to_anyone"]) == ("A", "B", 9, 1800, 180, 9)
    assert alerts[0].code == "CHIP_DUMPING"


def test_heavy_folds_to_whoever_wins_do_not_alert() -> None:
    """A folds 20 big blinds 30 times, the winner rotating over B..F: 6 each of 30 at share
    1/5, the expected count."""
    assert run("SURV-3", [dump(n, taker=n % 5 + 2) for n in range(1, 31)]) == []


def test_small_folds_are_not_transfers() -> None:
    """Nine folds to B losing 9 big blinds each (< 10): not heavy investment."""
    assert run("SURV-3", [dump(n, taker=2, lost=90) for n in range(1, 10)]) == []


def test_not_a_poker_game() -> None:
    """The same nets at an HCF table (house-banked settlement, no folds to a partner)."""
    hands = [hand(n, game="hcf", big_blind=10, events=[act(1, "fold")], net={1: -200, 2: 200})
             for n in range(1, 10)]
    assert run("SURV-3", hands) == []


THREE = {1: "A", 2: "B", 3: "C"}


def heads_up(n: int, folder: int, actions: list[tuple[str, dict[str, Any]]]) -> tuple:  # type: ignore[type-arg]
    return hand(n, game="holdem", big_blind=10, players=THREE,
                events=[act(folder, "fold"), *actions])


def against_others(start: int) -> list[tuple]:  # type: ignore[type-arg]
    """10 hands A vs C (B folds): A bets, C calls, A checks, C checks; 10 hands B vs C
    (A folds): the same with B. A: 20 heads-up decisions, 10 bets; B the same."""
    out = [heads_up(start + i, 2, [act(1, "bet", 10), act(3, "call", 10), act(1, "check"),
                                   act(3, "check")]) for i in range(10)]
    out += [heads_up(start + 10 + i, 1, [act(2, "bet", 10), act(3, "call", 10),
                                         act(2, "check"), act(3, "check")]) for i in range(10)]
    return out


def test_soft_play_pair_never_bets_at_each_other() -> None:
    """Baseline: A and B heads-up against C, 40 decisions, 20 bets: rate 1/2. Then A vs B
    heads-up (C folds), check, check, check, check: 4 decisions a hand, no bet. After 7
    such hands, 28 decisions < min_decisions 30; after 8, 32 decisions with 0 bets:
    P(X <= 0 | 32, 1/2) = 2^-32 = 2.3e-10 <= 1e-6: alert on that hand."""
    soft = [heads_up(21 + i, 3, [act(1, "check"), act(2, "check")] * 2) for i in range(10)]
    alerts = run("SURV-4", against_others(1) + soft)
    assert [a.hand_id for a in alerts] == ["T1-000028"]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["players"], ev["decisions"], ev["aggressive"], ev["decisions_against_others"],
            ev["aggressive_against_others"]) == (["A", "B"], 32, 0, 40, 20)
    assert ev["p_value"] == pytest.approx(2.0**-32, rel=1e-9)


def test_pair_playing_normally_does_not_alert() -> None:
    """A and B heads-up bet once in 4 decisions (A bets, B calls, A checks, B checks): 10
    bets in 40 against the baseline 1/2, P(X <= 10 | 40, 1/2) = 1.1e-3 > 1e-6."""
    normal = [heads_up(21 + i, 3, [act(1, "bet", 10), act(2, "call", 10), act(1, "check"),
                                   act(2, "check")]) for i in range(10)]
    assert run("SURV-4", against_others(1) + normal) == []

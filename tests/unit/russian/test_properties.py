"""Properties of the Russian Poker adjudication over many generated hands.

- GEN-8: the house takes the other side of every box: expected boxes + house = 0.
- Determinism: the same events always give the same record, byte for byte.
- Bounds no settlement may cross, each stated independently of the code: a box never
  loses more than it put down; a box that does not play loses exactly its Ante and the
  prices of its draws; against a dealer without a game a declining box gets exactly its
  Ante (plus its insurance, when that is in action) less its prices.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import encode_record
from services.games.cards import STANDARD_DECK, rank_of
from services.games.russian.adjudicate import adjudicate
from services.games.russian.evaluation import dealer_qualifies
from services.simulator.handbuilder import build_hand, table_config
from services.simulator.russian import FAULTS, Box, HandRun
from tests.profiles import HOUSE, PROFILES
from tests.unit.russian.scenario import Scenario

PROFILE = HOUSE
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 7),
       fault=st.none() | st.sampled_from(sorted(FAULTS)))
def test_simulated_hands_conserve_chips_and_replay_identically(
    seed: int, players: int, fault: str | None
) -> None:
    rng = random.Random(seed)
    seats = sorted(rng.sample(range(1, 8), players))
    run = HandRun([Box(seat, f"P{seat}", 10) for seat in seats], rng, fault)
    run.run()
    started = ("hand_started", {
        "button": seats[0], "designated_player": None, "dealer_id": "D1",
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": 5000} for s in seats],
        "deck": 52,
    })
    hand = build_hand(table_config("russian"), [started, *run.events, ("hand_ended", {})])
    record = adjudicate_hand(hand, PROFILES)
    assert record.status != "rejected", record.findings
    assert record.expected is not None and record.recorded is not None
    assert sum(record.expected.net.values()) == 0
    assert sum(record.recorded.net.values()) == 0
    assert encode_record(adjudicate_hand(hand, PROFILES)) == encode_record(record)


DRAWS = ("stand", "fold", "buy", "exchange2", "exchange5")


@SETTINGS
@given(deck=st.permutations(STANDARD_DECK), ante=st.integers(1, 50),
       draw=st.sampled_from(DRAWS), plays=st.booleans(), insure=st.integers(0, 3),
       buys_game=st.booleans())
def test_settlement_bounds(
    deck: list[str], ante: int, draw: str, plays: bool, insure: int, buys_game: bool
) -> None:
    cards, dealer, spare = deck[:5], deck[5:10], deck[10:]
    s = Scenario().ante(1, ante).deal(1, " ".join(cards)).deal_dealer(" ".join(dealer))
    price = 0 if draw in ("stand", "fold") else ante
    if draw in ("stand", "fold"):
        s.act(1, draw)
    elif draw == "buy":
        s.fee(1, "buy_card", ante).draw(1, "", spare.pop())
    else:
        count = int(draw[-1])
        s.fee(1, "exchange", ante).draw(1, " ".join(cards[:count]),
                                        " ".join(spare.pop() for _ in range(count)))
    box_plays = plays and draw != "fold"
    if box_plays:
        s.bet(1, 2 * ante)
        if insure:
            s.insure(1, insure * ante)
    s.turn_dealer(" ".join(dealer))
    qualifies = dealer_qualifies(dealer)
    bought = box_plays and buys_game and not qualifies
    if bought:
        highest = max(dealer, key=rank_of)
        s.act(1, "buy_dealer_game").collect(1, "ante", ante).replace(highest, spare.pop())
    outcome = adjudicate(s.hand(), PROFILE)

    net = outcome.net[1]
    assert net + outcome.house == 0
    put_down = ante + price + (2 * ante + insure * ante if box_plays else 0)
    assert net >= -put_down
    if not box_plays:
        assert net == -ante - price
    elif not qualifies and not bought:
        assert net in (ante - price, ante - price + insure * ante)


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(STANDARD_DECK), min_size=5, max_size=5, unique=True))
def test_profile_qualification_floor_agrees_with_the_evaluation(cards: list[str]) -> None:
    """RP-5: the house-v1 floor (``dealer_min_category = ace_king``) is exactly the
    evaluation's ``dealer_qualifies``."""
    from services.games.russian.profile import RussianProfile
    from services.games.russian.settlement import dealer_hand

    profile = PROFILE.section("russian", RussianProfile)
    assert dealer_hand(tuple(cards), profile).qualifies == dealer_qualifies(cards)

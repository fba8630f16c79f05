"""Properties of the engine over random hands (hypothesis).

- Every sequence of legal actions (generated from the engine's own legal-action API) is
  accepted without a violation, ends, and settles.
- Chips are conserved: refunds + pots = chips put in; sum of nets + rake = 0; nobody
  loses more than they put in; nobody puts in more than their stack.
- Arbitrary, possibly illegal, action sequences never crash the engine and still settle
  with chips conserved (the carry-on policy is total).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.games.betting import BettingHand, RakePolicy, Structure, settle
from tests.unit.betting.generator import play_random_legal_hand
from tests.unit.betting.helpers import config

structures = st.sampled_from(["fixed", "pot", "no"])
stack_maps = st.lists(st.integers(min_value=0, max_value=60), min_size=2, max_size=6).map(
    lambda stacks: {seat + 1: s for seat, s in enumerate(stacks)})
rakes = st.builds(RakePolicy, st.sampled_from(["all", "players", "designated", "none"]),
                  st.integers(0, 3), st.booleans(), st.sampled_from(["stack", "pot"]),
                  all_charges_button=st.booleans())


@settings(max_examples=300, deadline=None)
@given(structure=structures, stacks=stack_maps, data=st.data(), rake=rakes)
def test_random_legal_hands_have_no_violation_and_conserve_chips(
    structure: Structure, stacks: dict[int, int], data: st.DataObject, rake: RakePolicy
) -> None:
    button = data.draw(st.sampled_from(sorted(stacks)))
    cfg = config(structure, small_bet=2, big_bet=4)

    def choose(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    hand, _ = play_random_legal_hand(cfg, stacks, button, choose)
    assert hand.violations == []
    strengths = {s: data.draw(st.integers(0, 3)) for s in hand.active()}
    contributions = hand.contributions()
    for seat, put in contributions.items():
        assert 0 <= put <= stacks[seat]
    behind = hand.stacks_left()
    result = settle(contributions, hand.folded(), strengths, button, rake, behind)
    assert sum(p.amount for p in result.pots) + sum(result.refunds.values()) == sum(
        contributions.values())
    assert sum(result.net.values()) + result.house == 0
    for seat, net in result.net.items():  # a fee from the stack can cost the chips behind
        assert net >= -contributions[seat] - (behind[seat] if rake.fee_from == "stack" else 0)
    if len(hand.active()) == 1:
        (winner,) = hand.active()
        assert result.net[winner] >= 0 or result.house > 0


ACTIONS = st.sampled_from(["fold", "check", "call", "bet", "raise", "all_in",
                           "post_small_blind", "post_big_blind", "post_ante"])


@settings(max_examples=150, deadline=None)
@given(structure=structures, stacks=stack_maps, data=st.data())
def test_arbitrary_actions_never_crash_and_still_conserve(
    structure: Structure, stacks: dict[int, int], data: st.DataObject
) -> None:
    button = data.draw(st.sampled_from(sorted(stacks)))
    hand = BettingHand(config(structure), stacks, button)
    seats = st.integers(1, len(stacks) + 1)
    for _ in range(data.draw(st.integers(0, 25))):
        if data.draw(st.integers(0, 9)) == 0 and hand.round_index + 1 < len(hand.config.rounds):
            hand.next_round()
            continue
        hand.apply(data.draw(seats), data.draw(ACTIONS),
                   data.draw(st.none() | st.integers(0, 80)))
    hand.close_round()
    hand.showdown_order()
    result = settle(hand.contributions(), hand.folded(),
                    {s: data.draw(st.integers(0, 3)) for s in hand.active()}, button,
                    RakePolicy("all", 1, True, "stack"), hand.stacks_left())
    assert sum(result.net.values()) + result.house == 0
    assert sum(p.amount for p in result.pots) + sum(result.refunds.values()) == sum(
        hand.contributions().values())

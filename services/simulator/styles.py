"""Player styles for the simulated poker games (hold'em, Draw 7-A).

Why styles: surveillance compares how a player plays against one opponent with how the
same player plays against the others. A simulator where everybody plays alike cannot
show whether that comparison accuses an honest loose-aggressive player's opponents (the
failure the per-decider null models fix), so honest tables mix five styles:

==========  ==========  ===========  =====  ==========================================
style       looseness   aggression   bluff  in words
==========  ==========  ===========  =====  ==========================================
tight       0.10        0.8          0.02   folds most hands to a bet, bets good ones
loose       0.45        0.8          0.05   calls a lot, bets like a regular
passive     0.30        0.35         0.00   calls, rarely bets or raises (a station)
aggressive  0.25        1.3          0.10   bets and raises often, bluffs now and then
maniac      0.60        2.0          0.30   plays nearly every hand, bets and raises most
==========  ==========  ===========  =====  ==========================================

``looseness`` is added to the hand's strength (0..1) to give the chance of continuing
against a bet; ``aggression`` scales the chance of betting or raising; ``bluff`` is a
chance of betting or raising whatever the cards.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    name: str
    looseness: float
    aggression: float
    bluff: float


STYLES: dict[str, Style] = {s.name: s for s in (
    Style("tight", 0.10, 0.8, 0.02),
    Style("loose", 0.45, 0.8, 0.05),
    Style("passive", 0.30, 0.35, 0.0),
    Style("aggressive", 0.25, 1.3, 0.10),
    Style("maniac", 0.60, 2.0, 0.30),
)}
STYLE_ORDER = tuple(STYLES)
MIXED = "mixed"
STYLE_CHOICES = (MIXED, *STYLE_ORDER)


def style_for(styles: str | None, position: int, table_index: int) -> Style | None:
    """The style of the ``position``-th player seated at a table (None: no styles, the
    game's own players). ``mixed``: the styles in turn, starting one further at each
    table, so the tables differ and five seated players hold all five."""
    if styles is None:
        return None
    if styles == MIXED:
        return STYLES[STYLE_ORDER[(position + table_index) % len(STYLE_ORDER)]]
    return STYLES[styles]

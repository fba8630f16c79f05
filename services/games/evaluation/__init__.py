"""Card evaluation for every game pitwatch adjudicates.

One package, one encoding of hand strength: a *rank code*, a non-negative ``int`` where a
higher code is a better hand and equal codes are exactly the poker ties (``rankcode``).
Every game module compares hands by comparing these integers, and reports describe them
with ``describe``.

Modules:

- ``standard``   52-card high hands: ``rank5``, ``best_rank`` (5-7 cards), ``best_five``.
- ``short_deck`` Five Card Draw 7-A ranking (FCD-10) for the 32- and 36-card decks.
- ``chinese``    front hands, the 3-vs-5 segment comparison and automatic wins (CP-2/3/7).
- ``russian``    paytable categories, dealer qualification, two combinations (RP-5/7/8).
- ``reference``  the deliberately simple evaluators every fast path is tested against.
- ``tables``     the card keys and lookup tables behind ``fast`` and ``batch``.
- ``fast``       table-driven single-call evaluators on card indices (hot paths).
- ``batch``      numpy evaluators over arrays of hands (statistics, exhaustive checks,
                 HCF flush lengths).
- ``rankcode`` / ``naming``  the rank-code layout; category names and descriptions.
"""

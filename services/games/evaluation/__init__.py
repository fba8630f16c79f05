"""Card evaluation for every game pitwatch adjudicates.

One package, one encoding of hand strength: a *rank code*, a non-negative ``int`` where a
higher code is a better hand and equal codes are exactly the poker ties (``rankcode``).
Every game module compares hands by comparing these integers, and reports describe them
with ``describe``.

Modules:

- ``standard``   52-card high hands: ``rank5``, ``best_rank`` (5-7 cards), ``best_five``.
- ``reference``  the deliberately simple evaluators every fast path is tested against.
- ``tables``     the card keys and lookup tables behind ``fast`` and ``batch``.
- ``fast``       table-driven single-call evaluators on card indices (hot paths).
- ``batch``      numpy evaluators over arrays of hands (statistics, exhaustive checks,
                 HCF flush lengths).
- ``rankcode`` / ``naming``  the rank-code layout; category names and descriptions.

A ranking only one game uses lives with that game, as its ``evaluation`` module:
``services.games.hcf.evaluation`` (flush values, HCF-6/7/9), ``chinese.evaluation`` (front
hands, the 3-vs-5 segment comparison, automatic wins: CP-2/3/7), ``draw7a.evaluation``
(the 32/36-card short deck, FCD-10), ``russian.evaluation`` (paytable categories, dealer
qualification, two combinations: RP-5/7/8).
"""

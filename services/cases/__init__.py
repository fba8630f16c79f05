"""Case management: every finding at warning or above and every such alert opens a case,
or joins the open case of the same subject, and is worked to a decision with an
append-only audit trail (``docs/cases.md``).

- ``subjects``: what a case is about (a hand; a dealer, player, pair or table);
- ``lifecycle``: the states and what each action may do (pure);
- ``intake``: findings and alerts into cases, idempotent by source;
- ``actions``: a reviewer's action on a case, atomic and version-checked;
- ``queries``: the queue and a case with its trail, for the CLI and the console.
"""

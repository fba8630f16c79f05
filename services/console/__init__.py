"""The compliance console: ``pitwatch serve console``, a web application over the ledger,
the event archive and the cases (docs/console.md).

It sits at the top layer: it wires the case, archive, report, ledger and surveillance
APIs into pages; nothing below imports it.
"""

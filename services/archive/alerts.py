"""Each alert's key in the archive, so that an alert delivered again is stored once.

A cross-hand alert (SURV-2..8) already has its id, the key of its ``alerts`` record
(``services.surveillance.alert_id``: rule, instance, count). A stream alert (SURV-9 chain
findings, GEN-5 configuration, GEN-4 cash) has none; its bytes are a function of the event
that raised it (``apply_event`` is deterministic), so rule, code, table, seq and the hash
of its JSON name it: a redelivery has the same key, two different alerts never do.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

import msgspec

from services.events.contract import Alert
from services.surveillance.alert_id import SUBJECTS, UnidentifiableAlert, alert_id


def alert_json(alert: Alert) -> bytes:
    return msgspec.json.encode(alert)


def alert_row(alert: Alert) -> dict[str, Any]:
    """The ``archive_alerts`` row of an alert: its key, the columns the queries filter on
    (table, hand, rule, code, severity, seq, event) and its JSON, which they come from."""
    return {"alert_id": alert_key(alert), "table_id": alert.table_id,
            "hand_id": alert.hand_id, "rule": alert.rule, "code": alert.code,
            "severity": alert.severity, "seq": alert.seq, "event_id": alert.event_id,
            "alert_json": alert_json(alert).decode()}


def alert_key(alert: Alert) -> str:
    if alert.rule in SUBJECTS and alert.evidence is not None:
        try:
            return alert_id(alert)
        except (UnidentifiableAlert, KeyError):
            pass
    digest = hashlib.sha256(alert_json(alert)).hexdigest()[:24]
    seq = "" if alert.seq is None else str(alert.seq)
    return f"{alert.rule}/{alert.code}/table={quote(alert.table_id, safe='')}/seq={seq}/{digest}"

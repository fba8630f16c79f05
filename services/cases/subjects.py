"""What a case is about: its subject, a stable key that every finding or alert about the
same thing maps to (``hand:T001-000123``, ``dealer:D7``, ``player:P12``, ``pair:P3,P9``,
``table:T001``).

A finding is about its hand. An alert is about whoever the pattern is about: the alert's
own ``subject`` when it carries one (issue #24 adds the field, in this very format:
docs/surveillance.md, "Alert identity, subject and links"), else derived from what alerts
carry today (rule, table, the evidence's dealer and players), in ``alert_subject``, the one
place that decides. Sweethearting and exposure concentration (SURV-2, SURV-7) are
cases on the dealer, so every player a dealer favours and the dealer's procedure drift
(SURV-8, dealer scope) gather in one case; chip dumping and soft play (SURV-3, SURV-4) on
the pair; improbable results and information sharing (SURV-6, SURV-5) on the player;
stream alerts (SURV-9 chain, GEN-5 configuration, GEN-4 cash) and table-scope drift on the
table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from services.events.contract import AdjudicationRecord, Alert

SUBJECT_KINDS = ("hand", "dealer", "player", "pair", "table")


@dataclass(frozen=True)
class Subject:
    kind: str  # one of SUBJECT_KINDS
    ids: tuple[str, ...]

    @property
    def key(self) -> str:
        """``kind:id[,id]``, ids percent-escaped (an id holding ``,`` reads back)."""
        return f"{self.kind}:" + ",".join(quote(i, safe="") for i in self.ids)

    @property
    def title(self) -> str:
        names = {"pair": "players", "hand": "hand"}
        return f"{names.get(self.kind, self.kind)} {' and '.join(self.ids)}"


def hand_subject(record: AdjudicationRecord) -> Subject:
    return Subject("hand", (record.hand_id,))


def alert_subject(alert: Alert) -> Subject:
    """The subject of an alert: its own (issue #24), else from its rule, table and
    evidence."""
    own = getattr(alert, "subject", None)  # an Alert field once issue #24 has landed
    if isinstance(own, str):
        parsed = parse_subject(own)
        if parsed is not None:
            return parsed
    evidence: dict[str, Any] = alert.evidence or {}
    rule = alert.rule
    if rule in ("SURV-2", "SURV-7") and _text(evidence.get("dealer")):
        return Subject("dealer", (str(evidence["dealer"]),))
    if rule == "SURV-3" and _text(evidence.get("from_player")) and _text(
            evidence.get("to_player")):
        return _pair(str(evidence["from_player"]), str(evidence["to_player"]))
    players = evidence.get("players")
    if rule == "SURV-4" and isinstance(players, list) and len(players) == 2:
        return _pair(str(players[0]), str(players[1]))
    if rule in ("SURV-5", "SURV-6") and _text(evidence.get("player")):
        return Subject("player", (str(evidence["player"]),))
    if rule == "SURV-8" and evidence.get("scope") == "dealer" and _text(evidence.get("dealer")):
        return Subject("dealer", (str(evidence["dealer"]),))
    if rule == "SURV-8" and evidence.get("scope") == "table" and _text(evidence.get("table")):
        return Subject("table", (str(evidence["table"]),))
    return Subject("table", (alert.table_id,))


def parse_subject(key: str) -> Subject | None:
    """A ``kind:id[,id]`` key read back (None: not a subject this version knows)."""
    kind, _, rest = key.partition(":")
    if kind not in SUBJECT_KINDS or not rest:
        return None
    ids = tuple(unquote(i) for i in rest.split(",")) if kind == "pair" else (unquote(rest),)
    if kind == "pair" and len(ids) != 2:
        return None
    return Subject(kind, ids)


def _pair(a: str, b: str) -> Subject:
    return Subject("pair", tuple(sorted((a, b))))


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value)

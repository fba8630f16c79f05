"""A deterministic id for each cross-hand alert: rule, subject, count.

The surveillance service delivers alerts at least once: after a restart it replays the
event log and produces again the alerts it had produced. Downstream must recognise the
repeats, so every alert carries an id (the Kafka key of its ``alerts`` record) that is a
function of what the alert is about, not of when it was produced: the rule, the
instance the pattern is about (the gate's instance, read back from the evidence) and the
count at which it fired. The gate fires an instance at most once per count, so two
different alerts never share an id; a repeat of the same alert always does.

Example: ``SURV-2/dealer=D7/player=P12/count=8``; SURV-3 names its method too
(``SURV-3/from_player=A/to_player=B/method=fold/count=5``). Values are percent-escaped,
so an id with a ``/`` or ``=`` in a player id still reads back unambiguously.
"""

from __future__ import annotations

from urllib.parse import quote

from services.events.contract import Alert

# rule -> (the evidence fields naming the instance, the evidence field it is counted by);
# the same instance and count each pattern gives its gate (services/surveillance/*.py).
SUBJECTS: dict[str, tuple[tuple[str, ...], str]] = {
    "SURV-2": (("dealer", "player"), "count"),
    "SURV-3": (("from_player", "to_player", "method"), "count"),
    "SURV-4": (("players",), "decisions"),
    "SURV-5": (("player", "decision"), "decisions"),
    "SURV-6": (("player", "kind"), "count"),
    "SURV-7": (("dealer", "player"), "count"),
    "SURV-8": (("game", "scope", "dealer", "table", "kind"), "count"),  # dealer or table
}


class UnidentifiableAlert(ValueError):
    """An alert that is not a cross-hand pattern with its evidence (a programming error:
    the engine only makes alerts of ``SUBJECTS``)."""


def alert_id(alert: Alert) -> str:
    """``rule/field=value/.../count=n`` for a SURV-2..8 alert."""
    subject = SUBJECTS.get(alert.rule)
    if subject is None or alert.evidence is None:
        raise UnidentifiableAlert(f"no id for a {alert.rule} alert without its evidence")
    fields, counted_by = subject
    evidence = alert.evidence
    parts = [alert.rule]
    for name in fields:
        if name in evidence:
            parts.append(f"{name}={_text(evidence[name])}")
    parts.append(f"{counted_by}={_text(evidence[counted_by])}")
    return "/".join(parts)


def _text(value: object) -> str:
    if isinstance(value, list):  # SURV-4's pair of players, already sorted by the rule
        return ",".join(quote(str(v), safe="") for v in value)
    return quote(str(value), safe="")

"""Alerts and findings in words, for the case page: the rule's text and what the alert's
statistic means, so a reviewer can judge it without the surveillance docs open.
"""

from __future__ import annotations

from functools import lru_cache

from services.reports.alerts import AlertLine
from services.reports.rulebook import RuleText, load_rulebook


@lru_cache(maxsize=1)
def rulebook() -> dict[str, RuleText]:
    return load_rulebook()


def rule_text(rule_id: str) -> RuleText | None:
    return rulebook().get(rule_id)


def _one_in(p_value: str) -> str:
    try:
        p = float(p_value)
    except ValueError:
        return ""
    if p <= 0:
        return " (smaller than the arithmetic can show)"
    return f" (about 1 in {round(1 / p):,})" if p < 1 else ""


def statistic_in_words(alert: AlertLine) -> str:
    """"6 hands counted (…statistic…). If nothing were wrong, a count at least this
    extreme would come up with probability 1.2e-07 (about 1 in 8,333,333); the rule
    raises an alert at or below 1e-06." — from the alert's own evidence, nothing more."""
    parts = []
    if alert.count != "–":
        parts.append(f"Counted: {alert.count}" + (f" ({alert.statistic})"
                                                  if alert.statistic != "–" else "") + ".")
    elif alert.statistic != "–":
        parts.append(f"Statistic: {alert.statistic}.")
    if alert.p_value != "–":
        sentence = (f"If nothing were wrong, a result at least this extreme would come up "
                    f"with probability {alert.p_value}{_one_in(alert.p_value)}")
        if alert.threshold != "–":
            sentence += f"; {alert.rule} raises an alert at or below {alert.threshold}"
        parts.append(sentence + ".")
    if not parts:
        parts.append("This alert carries no statistic: it reports an event in the stream "
                     "itself (a broken chain, a configuration change, cash between hands).")
    return " ".join(parts)

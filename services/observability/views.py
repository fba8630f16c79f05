"""What the metrics read from the services' objects, as structural types (Protocols).

The metrics module observes records, alerts and runner outputs without importing the
services that make them (the adjudicator, the surveillance step, the pipeline's lighter
views decoded from the topics): any object with these fields will do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from services.ledger.money import MovementLike


class FindingLike(Protocol):
    @property
    def code(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def amount(self) -> int | None: ...


class RecordLike(Protocol):
    """The fields of an adjudication record the metrics read (services.events.contract.
    AdjudicationRecord, or the lighter view ``hooks`` decodes from the topic)."""

    @property
    def table_id(self) -> str: ...
    @property
    def game(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def findings(self) -> Sequence[FindingLike]: ...
    @property
    def players(self) -> Mapping[str, str] | None: ...
    @property
    def dealer_id(self) -> str | None: ...
    @property
    def rake_mode(self) -> str | None: ...
    @property
    def ended_at(self) -> str | None: ...
    @property
    def movements(self) -> Sequence[MovementLike] | None: ...


class AlertLike(Protocol):
    """What is read from a surveillance alert (services.events.contract.Alert)."""

    @property
    def table_id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def severity(self) -> str: ...


class OutputsLike(Protocol):
    """What ``apply_event`` returns (services.adjudicator.table.Outputs)."""

    @property
    def records(self) -> Sequence[RecordLike]: ...
    @property
    def alerts(self) -> Sequence[AlertLike]: ...
    @property
    def dlq(self) -> Sequence[str]: ...


class DeadLetterLike(Protocol):
    @property
    def reason(self) -> str: ...


class SurveillanceOutputLike(Protocol):
    """What ``SurveillanceStep.feed`` returns for one record (services.surveillance.run.
    SurveillanceOutput)."""

    @property
    def dead_letters(self) -> Sequence[DeadLetterLike]: ...
    @property
    def hands_surveilled(self) -> int: ...


class ReviewScheduleLike(Protocol):
    """The state of a ``SurveillanceStep`` that says whether a feed ran a review."""

    @property
    def hands_surveilled(self) -> int: ...
    @property
    def review_every(self) -> int | None: ...


class StepResultLike(Protocol):
    """What the embedded runner returns per record (services.adjudicator.embedded)."""

    @property
    def records(self) -> Sequence[RecordLike]: ...
    @property
    def alerts(self) -> Sequence[AlertLike]: ...
    @property
    def dead_letters(self) -> Sequence[DeadLetterLike]: ...

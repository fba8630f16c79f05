"""Hash-chain verification of one hand's events (SURV-9), recomputed from the log.

Why recompute instead of trusting the record's findings: the report is evidence, so it
shows the reader the check itself. Each event carries ``prev_hash``, the SHA-256 of the
canonical JSON (RFC 8785) of the table's previous event, and ``seq`` one above it. For
every event of the hand this module recomputes the previous event's hash from the log and
compares; anyone with the log and a SHA-256 tool can repeat it. The hand's last event
is vouched for only by the event after it, so that link is checked too when the log has it.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.events.canonical import GENESIS_HASH
from services.reports.replay import LoggedEvent


@dataclass(frozen=True)
class ChainLink:
    """One event's link to its predecessor: ``ok`` or what is wrong."""

    seq: int
    event_type: str
    prev_hash: str
    hash: str
    ok: bool
    note: str


@dataclass(frozen=True)
class ChainCheck:
    links: list[ChainLink]
    first_prev_hash: str | None
    last_hash: str | None
    closing_note: str
    closing_ok: bool | None  # None: no later event in the log yet

    @property
    def verified(self) -> bool:
        """Every link holds and the last event is confirmed by its successor."""
        return bool(self.links) and all(link.ok for link in self.links) and bool(
            self.closing_ok
        )

    @property
    def broken(self) -> list[ChainLink]:
        return [link for link in self.links if not link.ok]


def verify_chain(
    events: list[LoggedEvent], before: LoggedEvent | None, after: LoggedEvent | None,
    cut: tuple[int, str] | None = None,
) -> ChainCheck:
    """Check ``seq`` and ``prev_hash`` of each event against the event before it.
    ``cut``: (seq, hash) of the event before the first when that one is in days detached
    past retention (``archive_detached`` keeps where the chain stood there)."""
    links: list[ChainLink] = []
    previous = before
    for logged in events:
        if previous is None and cut is not None:
            links.append(_cut_link(logged, cut))
        else:
            links.append(_link(logged, previous))
        previous = logged
    last = events[-1] if events else None
    closing_ok, closing_note = _closing(last, after)
    return ChainCheck(
        links=links,
        first_prev_hash=events[0].event.prev_hash if events else None,
        last_hash=last.hash if last else None,
        closing_note=closing_note,
        closing_ok=closing_ok,
    )


def _link(logged: LoggedEvent, previous: LoggedEvent | None) -> ChainLink:
    event = logged.event
    kind = str(event.__struct_config__.tag)
    problems: list[str] = []
    if previous is None:
        if event.seq != 1:
            problems.append(f"the log holds no event before seq {event.seq} of this table, "
                            "so its prev_hash cannot be checked")
        elif event.prev_hash != GENESIS_HASH:
            problems.append("seq 1 must carry the all-zero genesis prev_hash")
        note = "first event of the table (genesis)" if not problems else ""
    else:
        gap = _missing(previous.event.seq, event.seq)
        if gap:
            problems.append(f"seq {event.seq} follows seq {previous.event.seq}: {gap} "
                            "missing from the log, so its prev_hash cannot be checked")
        elif event.seq != previous.event.seq + 1:
            problems.append(f"seq {event.seq} follows seq {previous.event.seq} "
                            "(expected +1: events missing or re-ordered)")
        if event.prev_hash != previous.hash and not gap:
            problems.append(f"prev_hash {event.prev_hash[:16]}… but seq {previous.event.seq} "
                            f"as logged hashes to {previous.hash[:16]}…: seq "
                            f"{previous.event.seq} was altered after it was sent")
        note = f"matches the hash of seq {previous.event.seq}" if not problems else ""
    return ChainLink(seq=event.seq, event_type=kind, prev_hash=event.prev_hash,
                     hash=logged.hash, ok=not problems, note=note or "; ".join(problems))


def _cut_link(logged: LoggedEvent, cut: tuple[int, str]) -> ChainLink:
    """The first live event's link to the last event of the detached days, as ``pitwatch
    archive detach`` recorded it (the event itself is kept cold)."""
    event = logged.event
    seq, hash_ = cut
    problems = []
    if event.seq != seq + 1:
        problems.append(f"seq {event.seq} follows seq {seq}, the last event of the days "
                        "detached past retention (expected +1)")
    if event.prev_hash != hash_:
        problems.append(f"prev_hash {event.prev_hash[:16]}… but seq {seq}, in the days "
                        f"detached past retention, hashed to {hash_[:16]}…")
    note = (f"matches the hash of seq {seq}, the last event of the days detached past "
            "retention (recorded by archive detach)") if not problems else ""
    return ChainLink(seq=event.seq, event_type=str(event.__struct_config__.tag),
                     prev_hash=event.prev_hash, hash=logged.hash, ok=not problems,
                     note=note or "; ".join(problems))


def _closing(last: LoggedEvent | None, after: LoggedEvent | None) -> tuple[bool | None, str]:
    if last is None:
        return None, "the log holds no event of this hand"
    if after is None:
        return None, (f"no later event of this table in the log: the hash of seq "
                      f"{last.event.seq} is not yet confirmed by a successor")
    if after.event.prev_hash == last.hash and after.event.seq == last.event.seq + 1:
        return True, (f"seq {after.event.seq} (the next event) carries prev_hash = the hash "
                      f"of seq {last.event.seq}")
    gap = _missing(last.event.seq, after.event.seq)
    if gap:  # the successor is missing: nothing says seq ``last`` was altered (QA)
        return False, (f"the next event in the log is seq {after.event.seq}: {gap} missing "
                       f"from the log, so nothing confirms the hash of seq {last.event.seq}")
    return False, (f"the next event, seq {after.event.seq}, carries prev_hash "
                   f"{after.event.prev_hash[:16]}… but seq {last.event.seq} hashes to "
                   f"{last.hash[:16]}…: the hand's last event was altered or is not the one "
                   "the table sent")


def _missing(before: int, after: int) -> str:
    """The seqs missing between two logged events ("seq 908", "seq 908..910"), or ""
    when ``after`` follows ``before`` or comes earlier (re-ordered: not a gap)."""
    if after <= before + 1:
        return ""
    first, last = before + 1, after - 1
    return f"seq {first}" if first == last else f"seq {first}..{last}"

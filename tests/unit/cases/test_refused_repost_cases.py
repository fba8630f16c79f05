"""A re-post of a booked hand with other bytes, which the ledger refused (SURV-9
``LEDGER_CONFLICT``), is a case's evidence as that refusal, not as the refused record's
own findings (QA: a second log adjudicated under another profile opened cases on the
findings of records the ledger had refused; ``cases verify`` could not read them again
from the book, and a refusal whose record held no finding opened no case at all).

By hand (tests/unit/cases/test_cases.py ``hands``, table T1): T1-000001 is booked with a
warning finding, T1-000002 with an info finding only (no case), T1-000003 with a critical
one. The re-posts below change their findings, so their bytes differ from the booked
ones; the ledger refuses each and keeps it in ``conflicts``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
from sqlalchemy import Engine, text

from services.cases.intake import open_cases
from services.cases.queries import get_case, list_cases
from services.cases.recheck import recheck_cases
from services.events.contract import AdjudicationRecord, decode_record, encode_record
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.recording import keep_run
from tests.unit.cases.test_cases import AT, finding, hands
from tests.unit.cli.helpers import pitwatch


def repost(record: AdjudicationRecord, severity: str) -> AdjudicationRecord:
    """The hand again, with a finding of ``severity`` (another profile's reading)."""
    return msgspec.structs.replace(record, status="discrepancy",
                                   findings=[finding(severity, "WRONG_RAKE", "HCF-9")])


def sha(record: AdjudicationRecord) -> str:
    return hashlib.sha256(encode_record(record)).hexdigest()


def evidence(engine: Engine) -> list[tuple[str, str, str, str, str]]:
    """Every case's evidence: (subject, source, rule, code, severity)."""
    out = []
    for case in list_cases(engine):
        shown = get_case(engine, case.case_id)
        assert shown is not None
        out += [(case.subject, e.source_id, e.rule, e.code, e.severity)
                for e in shown.evidence]
    return sorted(out)


def test_a_refused_re_post_opens_its_hands_case_with_the_refusal(engine: Engine) -> None:
    """T1-000002 was booked with no finding at warning: no case. Its re-post holds a
    critical finding the book does not: the case opened is the refusal's."""
    post_many(engine, hands())
    open_cases(engine, hands(), [], at=AT)
    again = repost(hands()[1], "critical")
    (result,) = post_many(engine, [again])
    assert result.status == "conflict"
    taken = open_cases(engine, [again], [], at=AT)
    assert (taken.opened, taken.joined, taken.repeats) == (1, 0, 0)
    assert evidence(engine) == [
        ("hand:T1-000001", "finding:T1-000001", "HCF-7", "MISPAY", "warning"),
        ("hand:T1-000002", f"conflict:T1-000002:{sha(again)}", "SURV-9", "LEDGER_CONFLICT",
         "critical"),
        ("hand:T1-000003", "finding:T1-000003", "HCF-7", "MISPAY", "critical"),
    ]
    case = next(c for c in list_cases(engine) if c.subject == "hand:T1-000002")
    assert case.severity == "critical"
    assert recheck_cases(engine).breaks == []


def test_a_refused_re_post_joins_the_hands_open_case(engine: Engine) -> None:
    """T1-000001's case is open on its warning; the re-post (critical) joins it as the
    refusal, and the case goes up to critical. Taken again: nothing new."""
    post_many(engine, hands())
    open_cases(engine, hands(), [], at=AT)
    again = repost(hands()[0], "critical")
    post_many(engine, [again])
    taken = open_cases(engine, [again], [], at=AT)
    assert (taken.opened, taken.joined, taken.repeats) == (0, 1, 0)
    case = next(c for c in list_cases(engine) if c.subject == "hand:T1-000001")
    shown = get_case(engine, case.case_id)
    assert shown is not None
    assert [e.source_id for e in shown.evidence] == [
        f"conflict:T1-000001:{sha(again)}", "finding:T1-000001"]
    assert case.severity == "critical"
    again_taken = open_cases(engine, [again], [], at=AT)
    assert (again_taken.opened, again_taken.joined) == (0, 0)
    assert recheck_cases(engine).breaks == []


def test_a_refused_re_post_without_findings_opens_a_case_too(engine: Engine) -> None:
    """The refusal is critical whatever the re-post holds: a re-post of T1-000002 with its
    info finding dropped (other bytes, nothing at warning) opens the hand's case at the
    next intake, even one that brings nothing else."""
    post_many(engine, hands())
    open_cases(engine, hands(), [], at=AT)
    again = msgspec.structs.replace(hands()[1], findings=[])
    post_many(engine, [again])
    taken = open_cases(engine, [], [], at=AT)
    assert (taken.opened, taken.joined) == (1, 0)
    assert [row for row in evidence(engine) if row[0] == "hand:T1-000002"] == [
        ("hand:T1-000002", f"conflict:T1-000002:{sha(again)}", "SURV-9", "LEDGER_CONFLICT",
         "critical")]


def test_a_kept_run_books_then_files_the_refusal(engine: Engine) -> None:
    """The embedded runner's order (``keep_run``: ledger, archive, cases): a second run
    whose T1-000003 differs keeps the booked hand, and its case holds the refusal beside
    the booked finding; the re-post's own finding (HCF-9) is in no case."""
    keep_run(engine, hands(), [], [])
    again = repost(hands()[2], "critical")
    kept = keep_run(engine, [again], [], [])
    assert kept.posted.counts["conflict"] == 1
    assert kept.cases is not None and (kept.cases.opened, kept.cases.joined) == (0, 1)
    rows = [row for row in evidence(engine) if row[0] == "hand:T1-000003"]
    assert rows == [
        ("hand:T1-000003", f"conflict:T1-000003:{sha(again)}", "SURV-9", "LEDGER_CONFLICT",
         "critical"),
        ("hand:T1-000003", "finding:T1-000003", "HCF-7", "MISPAY", "critical")]
    assert recheck_cases(engine).breaks == []


def test_a_refusals_case_removed_is_found(tmp_path: Path) -> None:
    """A day kept with ``--ledger`` (archived), then one of its hands with no case re-posted
    under another profile: the refusal opens the hand's case and ``verify`` passes. That
    case deleted with its trail (the guards dropped): the refusal is no case's evidence,
    listed (the same break a hand's finding without its case gives)."""
    from tests.unit.archive.support import simulated_log

    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=30).lines) + b"\n")
    url = f"sqlite:///{tmp_path}/day.sqlite"
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0
    engine = open_ledger(url)
    with engine.connect() as conn:
        hand_id, table_id, raw = conn.execute(text(
            "SELECT hand_id, table_id, record_json FROM hands WHERE hand_id NOT IN "
            "(SELECT hand_id FROM case_hands) ORDER BY hand_id LIMIT 1")).one()
    (result,) = post_many(engine, [msgspec.structs.replace(decode_record(raw),
                                                           rule_profile="house-v2")])
    assert result.status == "conflict"
    assert open_cases(engine, [], [], at=AT).opened == 1
    assert recheck_cases(engine).breaks == []
    with engine.begin() as conn:
        case_id = conn.execute(text("SELECT case_id FROM case_hands WHERE hand_id = :h"),
                               {"h": hand_id}).scalar_one()
        for table in ("case_audit", "case_evidence", "case_hands", "case_tags", "cases"):
            conn.execute(text(f"DROP TRIGGER {table}_no_delete"))
            conn.execute(text(f"DELETE FROM {table} WHERE case_id = :c"), {"c": case_id})
    found = recheck_cases(engine).breaks
    engine.dispose()
    assert [(b.case_id, b.message.split(" was re-posted")[0]) for b in found] == [
        (None, f"hand {hand_id} (table {table_id})")]

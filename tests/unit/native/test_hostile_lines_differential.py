"""Two kinds of hostile line, refused alike by both engines on every path a log takes.

- **Numbers no double holds** (``1e400``, an integer of 5,000 digits) in an integer field
  were "malformed JSON: number is infinity when parsed as double", naming neither the
  field nor the table, where ``10**30`` in the same field is a ``schema:`` error naming
  both (QA). They are now refused by the schema as any out-of-range number is.
- **Line stripping and the size bound**: a line was ``bytes.strip``-ped, which takes away
  a vertical tab and a form feed too (not JSON whitespace: a line starting with a form
  feed was adjudicated as an event), and the MAX_RECORD_BYTES bound was checked after the
  strip (a line of a record and a million spaces was taken). Only JSON whitespace is
  stripped now, and the bound is on the line as read (docs/events.md).

Each log runs through ``pitwatch adjudicate`` with both engines, from a plain file (the
native core reads it by its path) and gzipped (read as a stream), and in process through
``adjudicate_lines`` and ``EmbeddedRunner.feed_lines`` (the native core strips the lines
of a Python list): every run gives the same records, summary and DLQ, whose reasons are
written out here by hand.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services import _native
from services.adjudicator.embedded import EmbeddedRunner, adjudicate_lines
from services.adjudicator.intake import Rejection, parse_record
from services.events.bounds import MAX_RECORD_BYTES
from services.events.contract import encode_record
from services.events.wire import tame_huge_numbers
from services.reports.log_tables import read_log
from tests.profiles import PROFILES
from tests.unit.cli.helpers import pitwatch
from tests.unit.core.streams import hcf_stream, lines

ENGINES = ("native", "python")
BASE = lines(hcf_stream("T1"))  # 15 lines; line 5 is a wager of 5 chips, seq 5
WAGER = BASE[4]
assert b'"seq":5,' in WAGER and b'"amount":5}' in WAGER


def log_of(body: list[bytes], ending: bytes = b"\n") -> bytes:
    return b"".join(line + ending for line in body)


def dlq_entries(dlq: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in dlq.splitlines()]


def run_everywhere(tmp_path: Path, log: bytes) -> tuple[str, list[dict[str, Any]]]:
    """The records (stdout) and DLQ entries of ``log``, after checking that every engine
    and path gives the same: the command on the file as written and gzipped (same exit
    code, stdout, stderr and DLQ bytes), and ``adjudicate_lines`` and ``feed_lines`` on
    its lines (same records and dead letters as the command's)."""
    plain = tmp_path / "log.jsonl"
    plain.write_bytes(log)
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(log))
    runs = []
    for engine in ENGINES:
        for path in (plain, packed):
            dlq_file = tmp_path / f"{engine}-{path.name}.dlq"
            ran = pitwatch("adjudicate", str(path), "--engine", engine, "--dlq",
                           str(dlq_file), columns=200)
            runs.append((engine, path.name, ran.code, ran.stdout, ran.stderr,
                         dlq_file.read_bytes()))
    first = runs[0][2:]
    for run in runs[1:]:
        assert run[2:] == first, run[:2]
    stdout, dlq = first[1], dlq_entries(first[3])

    file_lines = log.split(b"\n")
    file_lines = [line + b"\n" for line in file_lines[:-1]] + [file_lines[-1]]
    dead = [{"where": d["where"], "reason": d["reason"], "table_id": d["table_id"],
             "record": d["record"]} for d in dlq]
    for engine in ENGINES:
        steps = list(adjudicate_lines(file_lines, PROFILES, engine))
        runner = EmbeddedRunner(PROFILES, engine)
        steps_fed = [*runner.feed_lines(file_lines), runner.finish()]
        for found in (steps, steps_fed):
            records = "".join(encode_record(r).decode() + "\n"
                              for step in found for r in step.records)
            letters = [{"where": d.where, "reason": d.reason, "table_id": d.table_id,
                        "record": d.raw.decode()} for step in found for d in step.dead_letters]
            assert sorted(records.splitlines()) == sorted(stdout.splitlines()), engine
            assert letters == dead, engine
    return stdout, dlq


# ---------------------------------------------------------------- numbers no double holds


HUGE = [
    # (what, the wager's bytes changed from, to, the reason)
    ("1e400 in seq", b'"seq":5,', b'"seq":1e400,',
     "schema: Expected `int`, got `float` - at `$.seq`"),
    ("1e400 in an amount", b'"amount":5}', b'"amount":1e400}',
     "schema: Expected `int`, got `float` - at `$.data.amount`"),
    ("-1E+400 in an amount", b'"amount":5}', b'"amount":-1E+400}',
     "schema: Expected `int`, got `float` - at `$.data.amount`"),
    ("5,000 nines in an amount", b'"amount":5}', b'"amount":' + b"9" * 5000 + b"}",
     "schema: Expected `int` <= 9007199254740991 - at `$.data.amount`"),
    ("5,000 nines in seq", b'"seq":5,', b'"seq":' + b"9" * 5000 + b",",
     "schema: Expected `int` <= 9007199254740991 - at `$.seq`"),
    ("-400 nines in seq", b'"seq":5,', b'"seq":-' + b"9" * 400 + b",",
     "schema: Expected `int` >= 1 - at `$.seq`"),
    # what the huge ones now say, as the out-of-range ones always did
    ("10**30 in an amount", b'"amount":5}', b'"amount":' + str(10**30).encode() + b"}",
     "schema: Expected `int` <= 9007199254740991 - at `$.data.amount`"),
    ("2.5 in seq", b'"seq":5,', b'"seq":2.5,',
     "schema: Expected `int`, got `float` - at `$.seq`"),
    # a huge number besides another fault: that fault, at its own position
    ("1e400 in an unknown field", b'"amount":5}', b'"amount":5,"zz":1e400}',
     "schema: Object contains unknown field `zz` - at `$.data`"),
    ("1e400 in a repeated key", b'"seq":5,', b'"seq":1e400,"seq":5,',
     "repeated key: key 'seq' appears more than once in the object at `$` (keys must be "
     "unique: RFC 8785, I-JSON)"),
    ("1e400 before a missing comma", b'"seq":5,', b'"seq":1e400 "x":1,',
     "malformed JSON: unexpected character, expected ',' or '}': line 1 column 86 "
     "(char 85)"),
]


@pytest.mark.parametrize(("old", "new", "reason"), [h[1:] for h in HUGE],
                         ids=[h[0] for h in HUGE])
def test_a_huge_number_is_refused_by_the_schema_naming_field_and_table(
        old: bytes, new: bytes, reason: str, tmp_path: Path) -> None:
    bad = WAGER.replace(old, new)
    assert bad != WAGER
    # The reason (before: "malformed JSON: number is infinity when parsed as double ...",
    # table null), the table named (but for a record that is not JSON), the record kept
    # as it came.
    table = None if reason.startswith("malformed JSON") else "T1"
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], bad, *BASE[5:]]))
    assert dlq == [{"where": "line 5", "reason": reason, "table_id": table,
                    "record": bad.decode()}]


def test_a_huge_number_in_the_table_id_names_no_table(tmp_path: Path) -> None:
    bad = WAGER.replace(b'"table_id":"T1"', b'"table_id":1e400')
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], bad, *BASE[5:]]))
    assert dlq == [{"where": "line 5", "table_id": None, "record": bad.decode(),
                    "reason": "schema: Expected `str`, got `float` - at `$.table_id`"}]


def test_the_command_prints_the_schema_reason(tmp_path: Path) -> None:
    bad = WAGER.replace(b'"seq":5,', b'"seq":1e400,')
    path = tmp_path / "log.jsonl"
    path.write_bytes(log_of([*BASE[:4], bad, *BASE[5:]]))
    for engine in ENGINES:
        ran = pitwatch("adjudicate", str(path), "--engine", engine, columns=200)
        assert ran.code == 1
        assert ("rejected line 5: schema: Expected `int`, got `float` - at `$.seq`"
                in ran.stderr.splitlines())


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=len(WAGER)),
       st.sampled_from([b"1e400", b"-1e999", b"9" * 400, b"-" + b"9" * 5000, b"1.5e308",
                        b"2e308", b"1e300", b"0." + b"0" * 400 + b"1e700"]))
def test_a_huge_number_anywhere_is_refused_alike_and_never_as_infinity(
        at: int, huge: bytes) -> None:
    """Spliced in anywhere (in a string, where it is text, between tokens, inside a
    number): both engines decide alike, a refusal's reason is never the parser's
    "infinity", and taming keeps every byte's position."""
    raw = WAGER[:at] + huge + WAGER[at:]
    assert len(tame_huge_numbers(raw)) == len(raw)
    parsed = parse_record(raw, "x")
    native = _native.intake(raw)
    if isinstance(parsed, Rejection):
        assert native is None
        assert "infinity" not in parsed.reason
    else:
        assert native is not None and native[0] == parsed.hash


def test_taming_leaves_other_bytes_and_strings_alone() -> None:
    raw = b'{"a":"1e400","b":[1e400,-' + b"9" * 310 + b',1e299,2.5],"c":1e300}'
    assert tame_huge_numbers(raw) == (
        b'{"a":"1e400","b":[1e300,-' + b"1" + b"0" * 30 + b" " * 279
        + b',1e299,2.5],"c":1e300}')
    assert tame_huge_numbers(WAGER) == WAGER


# ---------------------------------------------------------------- lines and the size bound


def test_a_line_starting_with_a_form_feed_is_malformed(tmp_path: Path) -> None:
    """Before: the form feed was stripped and the event adjudicated."""
    bad = b"\x0c" + WAGER
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], bad, *BASE[5:]]))
    assert dlq == [{"where": "line 5", "table_id": None, "record": bad.decode(),
                    "reason": "malformed JSON: unexpected character, expected a JSON "
                              "value: line 1 column 1 (char 0)"}]


def test_a_vertical_tab_after_a_record_or_alone_is_malformed(tmp_path: Path) -> None:
    bad = WAGER + b"\x0b"
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], bad, b"\x0c", *BASE[5:]]))
    assert dlq == [
        {"where": "line 5", "table_id": None, "record": bad.decode(),
         "reason": f"malformed JSON: unexpected content after document: line 1 column "
                   f"{len(WAGER) + 1} (char {len(WAGER)})"},
        {"where": "line 6", "table_id": None, "record": "\x0c",
         "reason": "malformed JSON: unexpected character, expected a JSON value: line 1 "
                   "column 1 (char 0)"}]


def test_json_whitespace_around_a_record_and_blank_lines_are_free(tmp_path: Path) -> None:
    plain, _ = run_everywhere(tmp_path, log_of(BASE))
    spaced = [b" \t" + line + b"\t \r" for line in BASE]
    stdout, dlq = run_everywhere(tmp_path, log_of([*spaced[:4], b" \t\r", *spaced[4:]]))
    assert (stdout, dlq) == (plain, [])


def padded(record: bytes, size: int) -> bytes:
    """``record`` after spaces, ``size`` bytes in all."""
    return b" " * (size - len(record)) + record


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_a_line_at_the_bound_is_taken_its_line_ending_not_counted(
        ending: bytes, tmp_path: Path) -> None:
    plain, _ = run_everywhere(tmp_path, log_of(BASE))
    body = [*BASE[:4], padded(WAGER, MAX_RECORD_BYTES), *BASE[5:]]
    assert run_everywhere(tmp_path, log_of(body, ending)) == (plain, [])


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_a_line_over_the_bound_is_refused_by_it_before_stripping(
        ending: bytes, tmp_path: Path) -> None:
    """Before: stripped to the wager's few hundred bytes and taken."""
    bad = padded(WAGER, MAX_RECORD_BYTES + 1)
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], bad, *BASE[5:]], ending))
    assert dlq == [{"where": "line 5", "table_id": None, "record": bad.decode(),
                    "reason": f"record of {MAX_RECORD_BYTES + 1} bytes exceeds "
                              f"{MAX_RECORD_BYTES}"}]


def test_a_blank_line_over_the_bound_is_refused_by_it(tmp_path: Path) -> None:
    blank = b" " * (MAX_RECORD_BYTES + 1)
    _, dlq = run_everywhere(tmp_path, log_of([*BASE[:4], blank, *BASE[4:]]))
    assert dlq == [{"where": "line 5", "table_id": None, "record": blank.decode(),
                    "reason": f"record of {MAX_RECORD_BYTES + 1} bytes exceeds "
                              f"{MAX_RECORD_BYTES}"}]


def test_a_reports_log_holds_the_records_adjudicate_takes(tmp_path: Path) -> None:
    """``pitwatch report`` reads a log's lines itself (``read_log``): the same records."""
    rng = random.Random(7)
    body = [rng.choice([b"", b" ", b"\t", b"\r"]) + line + rng.choice([b"", b" \r"])
            for line in BASE]
    body[4:4] = [b"\x0c" + WAGER, b" \t", padded(WAGER, MAX_RECORD_BYTES + 1)]
    path = tmp_path / "log.jsonl"
    path.write_bytes(log_of(body, b"\r\n"))
    held = [*BASE[:4], b"\x0c" + WAGER, padded(WAGER, MAX_RECORD_BYTES + 1), *BASE[4:]]
    assert read_log(path) == held

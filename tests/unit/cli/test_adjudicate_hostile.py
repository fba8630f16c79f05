"""``pitwatch adjudicate`` on hostile records: reasons are printed as text (issue #19
item 2), the run always finishes with its summary, DLQ file and ledger."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from services.cli import app
from tests.unit.core.streams import hcf_stream, lines

MARKUP_LINES = [
    (b'{"v":1,"type":"[/]"}', "'[/]'"),
    # an unknown field named [/red] and an enum value [/x], both echoed in the reason
    (orjson.dumps({**hcf_stream("T9")[1], "[/red]": 1}), "`[/red]`"),
    (orjson.dumps({**hcf_stream("T9")[1], "type": "chips_changed",
                   "data": {"seat": 1, "amount": 5, "kind": "[/x]"}}), "'[/x]'"),
    (b'{"v":1,"type":"[bold red]loud[/bold red]"}', "[bold red]loud[/bold red]"),
]


@pytest.mark.parametrize(("bad", "echoed"), MARKUP_LINES,
                         ids=["type", "field", "enum", "styled"])
def test_markup_in_a_reason_is_printed_as_text(bad: bytes, echoed: str,
                                               tmp_path: Path) -> None:
    """Before: MarkupError after stdout was written, exit 1, no DLQ file, nothing booked."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join([*lines(hcf_stream("T1")), bad]) + b"\n")
    dlq = tmp_path / "dlq.jsonl"
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--dlq", str(dlq)])
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    assert result.exit_code == 1  # input was rejected
    assert [orjson.loads(x)["record"].encode() for x in dlq.read_bytes().splitlines()] == [bad]
    assert echoed in result.output  # the brackets as they came, not taken for markup


def test_the_ledger_is_booked_after_a_markup_reason(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join([*lines(hcf_stream("T1")), MARKUP_LINES[0][0]]) + b"\n")
    db = tmp_path / "ledger.sqlite"
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--ledger", f"sqlite:///{db}"])
    assert result.exit_code == 1
    assert "2 posted" in result.output  # both hands of T1


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_log_that_fails_to_read_is_one_line_naming_it(engine: str) -> None:
    """A file that opens and then fails at its first read (EIO): one line with the
    system's reason and the file's name, exit 2, no traceback, with either engine."""
    result = CliRunner().invoke(app, ["adjudicate", "/proc/self/mem", "--engine", engine])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "Input/output error: /proc/self/mem" in result.output


@pytest.mark.parametrize("engine", ["native", "python"])
def test_many_rejected_lines_all_go_to_the_dlq_and_ten_are_shown(engine: str,
                                                                  tmp_path: Path) -> None:
    """The DLQ file is written as the run goes (the run held every dead letter until it
    ended: 532 MB for a million bad lines): all 25 there in order, 10 on the terminal."""
    bad = [orjson.dumps({"v": 1, "type": "junk", "n": n}) for n in range(25)]
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join([*lines(hcf_stream("T1")), *bad]) + b"\n")
    dlq = tmp_path / "dlq.jsonl"
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--dlq", str(dlq),
                                      "--engine", engine], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    written = [orjson.loads(x) for x in dlq.read_bytes().splitlines()]
    assert [w["record"].encode() for w in written] == bad
    shown = [line for line in result.output.splitlines() if line.startswith("rejected line")]
    first = len(lines(hcf_stream("T1"))) + 1
    assert [line.split(":")[0] for line in shown] == [f"rejected line {first + n}"
                                                       for n in range(10)]
    assert "... and 15 more (use --dlq FILE)" in result.output


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_record_that_is_not_utf8_is_kept_whole_in_the_dlq(engine: str,
                                                            tmp_path: Path) -> None:
    """QA: a 0xFF byte in a record came back from the DLQ file as U+FFFD (ef bf bd), so
    the record could not be recovered. Its bytes are now in ``record_base64`` as well;
    a UTF-8 record has no such field (its ``record`` is it)."""
    bad = b'{"v":1,"source":"dealer-\xff\xfeterminal"}'
    odd = b"\xc3\x28 garbage"
    plain = b"not json"
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join([*lines(hcf_stream("T1")), bad, odd, plain]) + b"\n")
    dlq = tmp_path / "dlq.jsonl"
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--dlq", str(dlq),
                                      "--engine", engine])
    assert result.exit_code == 1
    kept = [orjson.loads(x) for x in dlq.read_bytes().splitlines()]
    assert [k.get("record_base64") for k in kept] == [
        "eyJ2IjoxLCJzb3VyY2UiOiJkZWFsZXIt//50ZXJtaW5hbCJ9",  # base64 of ``bad``, by hand
        "wyggZ2FyYmFnZQ==",  # base64 of c3 28 20 67 61 72 62 61 67 65
        None]
    assert kept[0]["record"] == '{"v":1,"source":"dealer-\ufffd\ufffdterminal"}'
    assert kept[2]["record"] == "not json"
    # The reason names the first byte that is not UTF-8, counted from 1 (QA: it said
    # "surrogates not allowed: line 1 column 1"): 0xff is the 25th byte of ``bad``.
    assert [k["reason"] for k in kept[:2]] == [
        "malformed JSON: not UTF-8 at byte 25 of the line (0xff: invalid start byte)",
        "malformed JSON: not UTF-8 at byte 1 of the line (0xc3: invalid continuation byte)"]

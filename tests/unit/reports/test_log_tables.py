"""A log on disk read in two passes (``services.reports.log_tables.LogFile``) gives a
replay what reading the whole log gives it: the same lines of the wanted hands' tables,
numbered alike, the same table of each hand, the same first line naming one, whatever
the log's formatting (escapes, whitespace, line endings, blank and broken lines) and
wherever its pieces are cut; and it holds only those tables."""

from __future__ import annotations

import gzip
import json
import os
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import iter_lines
from services.adjudicator.embedded import lines_of as lines_of_log
from services.reports import log_tables
from services.reports.log_tables import LogFile, Tables, group_by_table, group_file_by_table
from services.reports.replay import replay_hands
from tests.profiles import PROFILES
from tests.unit.archive.support import same_replay
from tests.unit.reports.logs import lines_of, simulated

TABLES = ["T1", "T2", 'T"3', "Tä"]
HANDS = ["H1", "H2", "H-é", "H\\4", "H\n5", "H6"]


def _event(table: str, hand: Any, n: int) -> dict[str, Any]:
    return {"table_id": table, "hand_id": hand, "seq": n, "data": {"note": "hand_id"}}


def _written(obj: dict[str, Any], style: int) -> bytes:
    """One JSON line in one of several spellings of the same object."""
    line = orjson.dumps(obj)
    if style == 1:  # JSON's whitespace between the tokens
        line = line.replace(b'":', b'" :\t ').replace(b",", b" , ")
    elif style == 2:  # every non-ASCII character and the ids' first letters escaped
        line = json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode()
        line = line.replace(b'"H', b'"\\u0048').replace(b'"T', b'"\\u0054')
    elif style == 3:  # the members in another order, a key given twice (the last counts)
        line = b'{"hand_id":"H6",' + orjson.dumps(dict(reversed(list(obj.items()))))[1:]
    elif style == 4:  # the hand first
        line = orjson.dumps({"hand_id": obj["hand_id"], **obj})
    return line


LINE = st.one_of(
    st.builds(lambda t, h, n, s: _written(_event(t, h, n), s), st.sampled_from(TABLES),
              st.sampled_from([*HANDS, None, ["H1"], {"H1": 1}]), st.integers(0, 9),
              st.integers(0, 4)),
    st.sampled_from([b"", b"   ", b"\t", b"not json", b'{"hand_id":"H1"', b"[1,2]",
                     b'{"hand_id":"H1","table_id":7}', b'"hand_id":"H2"',
                     b'{"hand_id":"H', b'"hand_id" :']),
)
ENDING = st.sampled_from([b"\n", b"\r\n", b"\r", b"\n\n", b" \n"])


def _same_for_wanted(read: Tables, whole: Tables) -> None:
    """``read`` (the two passes) is ``whole`` (every line held) for the wanted hands."""
    assert read.table_of == whole.table_of
    tables = set(whole.table_of.values())
    assert set(read.lines) == tables  # no other table held
    for table in tables:
        assert read.lines[table] == whole.lines[table]
        assert read.first_wanted[table] == whole.first_wanted[table]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.tuples(LINE, ENDING), max_size=40),
       wanted=st.sets(st.sampled_from([*HANDS, "H-none"]), min_size=1),
       chunk=st.integers(1, 400), gzipped=st.booleans())
def test_two_passes_hold_what_the_whole_log_gives(tmp_path: Path, lines: list[tuple[bytes, bytes]],
                                                  wanted: set[str], chunk: int,
                                                  gzipped: bool) -> None:
    data = b"".join(line + end for line, end in lines)
    path = tmp_path / ("log.jsonl.gz" if gzipped else "log.jsonl")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    # The whole log read as ``pitwatch adjudicate`` reads it: lines end at "\n" only.
    whole = group_by_table([line for line, _ in iter_lines(lines_of_log([data]))], wanted)
    old = log_tables.CHUNK_BYTES
    log_tables.CHUNK_BYTES = chunk  # pieces cut anywhere, down to a byte
    try:
        _same_for_wanted(group_file_by_table(LogFile(path), wanted), whole)
    finally:
        log_tables.CHUNK_BYTES = old


def test_an_escaped_id_is_found_and_numbered_as_in_the_whole_log(tmp_path: Path) -> None:
    """Hand-written: the hand is named only with escapes, after blank lines and a line of
    another table, with CR LF endings; its table's lines are lines 2 and 5."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\r\n".join([
        b'{"table_id":"T2","hand_id":"H1"}',
        b'{"table_id":"T1","hand_id":"H0"}',
        b"   ",
        b'{"table_id":"T2","hand_id":"H2"}',
        b'{"table_id":"\\u0054\\u0031","hand_id":"\\u0048\\u0031"}',
        b'{"table_id":"T1","hand_id":"H3"}',
    ]) + b"\r\n")
    read = group_file_by_table(LogFile(path), {"H1"})
    assert read.table_of == {"H1": "T2"}  # its first line is at T2
    assert [n for n, _ in read.lines["T2"]] == [1, 3]
    read = group_file_by_table(LogFile(path), {"H3"})
    assert read.table_of == {"H3": "T1"}
    assert [n for n, _ in read.lines["T1"]] == [2, 4, 5]
    assert read.first_wanted == {"T1": 2}
    assert group_file_by_table(LogFile(path), {"H9"}) == Tables()


def test_a_broken_line_does_not_hide_the_next(tmp_path: Path) -> None:
    """A line cut inside a hand id (``"hand_id":"H``, no closing quote) and then the
    only line naming the wanted hand, its id first: the search for ids stops at the line
    break, so the cut line does not swallow the next line's quote."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"hand_id":"H\n{"hand_id":"H1","table_id":"T1"}\n')
    read = group_file_by_table(LogFile(path), {"H1"})
    assert read.table_of == {"H1": "T1"}
    assert read.lines == {"T1": [(2, b'{"hand_id":"H1","table_id":"T1"}')]}


def test_a_pipe_is_read_once(tmp_path: Path) -> None:
    """A log that cannot be read twice (a named pipe, ``--events /dev/stdin``) is read
    whole, once, as before."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    data = b'{"table_id":"T1","hand_id":"H1"}\n{"table_id":"T2","hand_id":"H2"}\n'

    def write() -> None:
        with path.open("wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    read = group_file_by_table(LogFile(path), {"H2"})
    writer.join()
    assert read.table_of == {"H2": "T2"}
    assert read.lines["T2"] == [(2, data.splitlines()[1])]


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_file_replays_as_the_lines_replay(tmp_path: Path, engine: str) -> None:
    """The replay of hands at both tables of a fault-injected log, from the file, is
    the replay from the lines held: records, spans, anchors, refused lines."""
    events, records = simulated("hcf", hands=30, tables=2)
    lines = lines_of(events)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    wanted = [records[3].hand_id, records[-1].hand_id, records[-5].hand_id]
    assert len({r.table_id for r in records if r.hand_id in wanted}) == 2
    from_file = replay_hands(LogFile(path), wanted, PROFILES, engine)
    from_lines = replay_hands(lines, wanted, PROFILES, engine)
    assert sorted(from_file) == sorted(from_lines) == sorted(wanted)
    for hand_id in wanted:
        same_replay(from_file[hand_id], from_lines[hand_id])


def test_a_bare_carriage_return_does_not_end_a_line(tmp_path: Path) -> None:
    """QA: two events joined by a bare CR were two lines to the report and one malformed
    record to ``pitwatch adjudicate`` (which ends lines at LF only), so the dispute report
    called "ok" a hand adjudicate judged wrong. The joined line is one line here too: not
    JSON, at no table; the lines around it keep their numbers."""
    joined = b'{"table_id":"T1","hand_id":"H1"}\r{"table_id":"T1","hand_id":"H1"}'
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"table_id":"T1","hand_id":"H0"}\n' + joined + b'\n'
                     + b'{"table_id":"T1","hand_id":"H1"}\r\n')
    assert log_tables.read_log(path) == [b'{"table_id":"T1","hand_id":"H0"}', joined,
                                         b'{"table_id":"T1","hand_id":"H1"}']
    read = group_file_by_table(LogFile(path), {"H1"})
    assert read.table_of == {"H1": "T1"}
    assert [n for n, _ in read.lines["T1"]] == [1, 3]  # line 2 is at no table

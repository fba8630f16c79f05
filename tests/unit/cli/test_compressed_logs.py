"""Event logs kept compressed (gzip, zstd, xz, bzip2) or fed through a pipe.

Before: ``pitwatch adjudicate day.jsonl.gz`` read the compressed bytes as lines (every
one rejected as malformed JSON, exit 1, not a word that the file was compressed); and on
a terminal the progress bar counted a pipe's lines by reading it through first, so
``pitwatch adjudicate <(zcat day.jsonl.gz)`` adjudicated 0 hands and exited 0.

The expected records are the plain file's, read by the other path (the native core reads
a plain file itself, by its path); a damaged stream's are the hands whose lines the
codec's own library gives back whole before the damage.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import pty
import subprocess
import sys
import tempfile
import threading
import tracemalloc
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
import zstandard

from services.events.logfile import examine, open_log, read_chunks
from services.simulator.run import simulate
from services.terminal import lines_beforehand
from tests.profiles import HOUSE
from tests.unit.cli.helpers import pitwatch

REPO = Path(__file__).resolve().parents[3]


def _zstd(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(write_checksum=True).compress(data)  # the zstd CLI's


COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress, "zstd": _zstd, "xz": lzma.compress, "bzip2": bz2.compress}


def _prefix(codec: str, cut: bytes) -> bytes:
    """What the codec's own library decompresses of a stream cut short."""
    if codec == "gzip":
        return zlib.decompressobj(wbits=31).decompress(cut)
    if codec == "zstd":
        return zstandard.ZstdDecompressor().decompressobj().decompress(cut)
    if codec == "xz":
        return lzma.LZMADecompressor().decompress(cut)
    return bz2.BZ2Decompressor().decompress(cut)


@cache
def log_bytes() -> bytes:
    """Two clean HCF tables, 30 hands each: every hand ends in one record."""
    log = simulate(["hcf"], 2, 30, seed=11, profile=HOUSE)
    return b"".join(orjson.dumps(event) + b"\n" for event in log.events)


@cache
def plain_records(engine: str) -> str:
    """The records of the log as a plain file, which the native core reads by its path."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "day.jsonl"
        path.write_bytes(log_bytes())
        ran = pitwatch("adjudicate", str(path), "--engine", engine)
    assert ran.code == 0, ran.stderr
    return ran.stdout


def _run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """``pitwatch ARGS`` as a process (text unless ``text=False``)."""
    kwargs.setdefault("text", True)
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO,
                          capture_output=True, check=False, **kwargs)


ENGINES = ["native", "python"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_a_compressed_log_gives_the_plain_logs_records(codec: str, engine: str,
                                                       tmp_path: Path) -> None:
    """Cut in two and compressed as two members (frames, streams): one log, as ``zcat``
    reads it."""
    data = log_bytes()
    half = len(data) // 2 + 17  # inside a line
    path = tmp_path / "day.jsonl.z"
    path.write_bytes(COMPRESS[codec](data[:half]) + COMPRESS[codec](data[half:]))
    assert examine(path).compression == codec
    ran = pitwatch("adjudicate", str(path), "--engine", engine)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == plain_records(engine)
    assert ran.stdout.count("\n") == 60


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_a_log_cut_short_adjudicates_what_was_whole_then_says_so(codec: str, engine: str,
                                                                 tmp_path: Path) -> None:
    data = log_bytes()
    whole = COMPRESS[codec](data)
    cut = whole[:len(whole) * 3 // 5]
    readable = _prefix(codec, cut)
    assert 0 < len(readable) < len(data)
    whole_lines = readable[:readable.rfind(b"\n") + 1]
    expected_hands = whole_lines.count(b'"hand_ended"')
    path = tmp_path / "day.jsonl.z"
    path.write_bytes(cut)
    ran = pitwatch("adjudicate", str(path), "--engine", engine)
    assert ran.code == 2
    assert ran.error_lines == [f"error: {codec} data ends at byte {len(cut):,} before its end "
                               "marker (the file is cut short?); the lines before it were "
                               "read: take the rest from a whole copy of the log: "
                               f"{path}"]
    assert expected_hands > 0
    records = ran.stdout.splitlines(keepends=True)
    assert len(records) == expected_hands
    assert "".join(records) == "".join(plain_records(engine).splitlines(keepends=True)
                                       [:expected_hands])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_log_cut_short_books_what_was_whole_and_the_whole_log_the_rest(
        engine: str, tmp_path: Path) -> None:
    """With --ledger, the hands read whole before the damage were written to stdout but
    not booked, archived or taken into cases (QA): they are now, before the one-line
    error; the whole log run after books the rest, each of the first a duplicate."""
    data = log_bytes()
    whole = gzip.compress(data)
    cut = whole[:len(whole) * 3 // 5]
    readable = _prefix("gzip", cut)
    expected_hands = readable[:readable.rfind(b"\n") + 1].count(b'"hand_ended"')
    assert 0 < expected_hands < 60
    (tmp_path / "cut.jsonl.gz").write_bytes(cut)
    (tmp_path / "day.jsonl.gz").write_bytes(whole)
    url = f"sqlite:///{tmp_path / 'l.sqlite'}"
    ran = pitwatch("adjudicate", str(tmp_path / "cut.jsonl.gz"), "--engine", engine,
                   "--ledger", url)
    assert ran.code == 2
    assert ran.error_lines[-1].startswith("error: gzip data ends at byte"), ran.stderr
    assert ran.stdout.count("\n") == expected_hands
    assert f"{expected_hands} posted" in ran.stderr
    assert count(url, "hands") == expected_hands
    assert count(url, "archive_segments") > 0
    again = pitwatch("adjudicate", str(tmp_path / "day.jsonl.gz"), "--engine", engine,
                     "--ledger", url)
    assert again.code == 0, again.stderr
    assert f"{expected_hands} duplicate, {60 - expected_hands} posted" in again.stderr
    assert count(url, "hands") == 60


def test_ledger_post_of_records_cut_short_books_those_read_whole(tmp_path: Path) -> None:
    """``ledger post`` of a compressed records file cut short booked nothing (the batch
    they were read into was lost with the error, QA): the records read whole are booked,
    then the one-line error (exit 2)."""
    whole = gzip.compress(plain_records("native").encode())
    cut = whole[:len(whole) // 2]
    readable = _prefix("gzip", cut)
    expected = readable[:readable.rfind(b"\n") + 1].count(b"\n")
    assert 0 < expected < 60
    path = tmp_path / "records.jsonl.gz"
    path.write_bytes(cut)
    url = f"sqlite:///{tmp_path / 'l.sqlite'}"
    ran = pitwatch("ledger", "post", str(path), "--db", url)
    assert ran.code == 2
    assert f"{expected} records: posted {expected}" in ran.stderr
    assert ran.error_lines[-1].startswith("error: gzip data ends at byte"), ran.stderr
    assert count(url, "hands") == expected


def count(url: str, table: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one())
    finally:
        engine.dispose()


@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_damaged_data_and_trailing_bytes_are_one_line_naming_the_file(codec: str,
                                                                      tmp_path: Path) -> None:
    whole = bytearray(COMPRESS[codec](log_bytes()))
    whole[len(whole) // 2] ^= 0x55
    damaged = tmp_path / "damaged.z"
    damaged.write_bytes(bytes(whole))
    trailing = tmp_path / "trailing.z"
    trailing.write_bytes(COMPRESS[codec](log_bytes()) + b"not a second member\n")
    for path in (damaged, trailing):
        ran = pitwatch("adjudicate", str(path))
        assert ran.code == 2, ran.stderr
        assert len(ran.error_lines) == 1, ran.stderr
        assert ran.error_lines[0].startswith(f"error: {codec} data is damaged (")
        assert ran.error_lines[0].endswith(f"bytes; the lines before it were read: take "
                                           f"the rest from a whole copy of the log: {path}")
        assert "Traceback" not in ran.stderr


def test_surveil_and_a_dispute_report_read_a_compressed_log(tmp_path: Path) -> None:
    plain, packed = tmp_path / "day.jsonl", tmp_path / "day.jsonl.gz"
    plain.write_bytes(log_bytes())
    packed.write_bytes(gzip.compress(log_bytes()))
    assert pitwatch("surveil", str(packed)).stdout == pitwatch("surveil", str(plain)).stdout
    hand_id = orjson.loads(plain_records("native").splitlines()[7])["hand_id"]
    reports = [pitwatch("report", "hand", hand_id, "--events", str(log),
                        "--generated-at", "2026-12-05T00:00:00Z") for log in (plain, packed)]
    assert [r.code for r in reports] == [0, 0]
    assert reports[1].stdout == reports[0].stdout.replace("day.jsonl", "day.jsonl.gz")
    assert hand_id in reports[0].stdout


def test_ledger_post_reads_compressed_records(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl.xz"
    records.write_bytes(lzma.compress(plain_records("native").encode()))
    ran = pitwatch("ledger", "post", str(records), "--db", f"sqlite:///{tmp_path / 'l.db'}")
    assert ran.code == 0, ran.stderr
    assert "60 records: posted 60" in ran.stderr


class _Terminal:
    """Standard error on a pseudo-terminal, read as it comes (the bar is drawn)."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.seen = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.seen += data

    def run(self, command: str) -> subprocess.CompletedProcess[str]:
        self._reader.start()
        try:
            return subprocess.run(["sh", "-c", command], cwd=REPO, stdout=subprocess.PIPE,
                                  stderr=self.slave, text=True, check=False)
        finally:
            os.close(self.slave)
            self._reader.join(timeout=30)
            os.close(self.master)


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_pipe_on_a_terminal_is_read_once(compressed: bool, engine: str,
                                           tmp_path: Path) -> None:
    """The bar is drawn (stderr is a terminal), and the log comes through a pipe: every
    hand is adjudicated, as from the file (before: 0 hands, exit 0)."""
    log = tmp_path / "day.jsonl"
    log.write_bytes(gzip.compress(log_bytes()) if compressed else log_bytes())
    terminal = _Terminal()
    ran = terminal.run(f"cat {log} | {sys.executable} -m services.cli adjudicate /dev/stdin "
                       f"--engine {engine}")
    assert ran.returncode == 0, terminal.seen.decode(errors="replace")
    assert ran.stdout == plain_records(engine)
    assert b"events" in terminal.seen  # the bar was drawn


def test_the_bar_counts_lines_beforehand_only_of_a_plain_regular_file(tmp_path: Path) -> None:
    from rich.console import Console

    terminal = Console(force_terminal=True)
    plain, packed, fifo = tmp_path / "a.jsonl", tmp_path / "a.jsonl.zst", tmp_path / "fifo"
    plain.write_bytes(log_bytes())
    packed.write_bytes(_zstd(log_bytes()))
    os.mkfifo(fifo)
    assert lines_beforehand(plain, terminal) == log_bytes().count(b"\n")
    assert lines_beforehand(packed, terminal) is None
    assert lines_beforehand(fifo, terminal) is None  # not opened: no writer, no wait
    assert lines_beforehand(plain, Console(force_terminal=False)) is None
    assert (examine(plain).plain_file, examine(packed).plain_file,
            examine(fifo).plain_file) == (True, False, False)


def test_a_stream_that_expands_a_thousandfold_is_read_in_bounded_memory(
        tmp_path: Path) -> None:
    """256 MiB of blank lines in 8 kB of zstd: read whole, never holding more than a few
    pieces of it (zstd gives no bound on one call's output; the slices of input do)."""
    size = 256 << 20
    path = tmp_path / "blank.zst"
    compressor = zstandard.ZstdCompressor(write_checksum=True)
    with path.open("wb") as out, compressor.stream_writer(out) as writer:
        for _ in range(size >> 20):
            writer.write(b"\n" * (1 << 20))
    assert path.stat().st_size < size // 1000
    tracemalloc.start()
    try:
        total = 0
        with open_log(path) as fh:
            for piece in read_chunks(fh, 4 << 20, path):
                total += piece.count(b"\n")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total == size
    assert peak < 64 << 20, peak


@pytest.mark.parametrize("engine", ENGINES)
def test_a_dash_reads_standard_input_piped_or_redirected(engine: str, tmp_path: Path) -> None:
    """``zcat day.jsonl.gz | pitwatch adjudicate -`` and ``pitwatch adjudicate - < day``
    (a regular file: the native core reads it by its path, /dev/stdin)."""
    piped = _run(["adjudicate", "-", "--engine", engine], input=gzip.compress(log_bytes()),
                 text=False)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == plain_records(engine)
    log = tmp_path / "day.jsonl"
    log.write_bytes(log_bytes())
    with log.open("rb") as stdin:
        redirected = _run(["adjudicate", "-", "--engine", engine], stdin=stdin)
    assert redirected.returncode == 0, redirected.stderr
    assert redirected.stdout == plain_records(engine)
    posted = _run(["ledger", "post", "-", "--db", f"sqlite:///{tmp_path / 'l.db'}"],
                  input=plain_records(engine))
    assert posted.returncode == 0, posted.stderr
    assert "60 records: posted 60" in posted.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "zstd"])
def test_a_leading_byte_order_mark_is_passed_over(compressed: bool, engine: str,
                                                  tmp_path: Path) -> None:
    """Before: the first event rejected ("UTF-8 byte order mark (BOM) is not supported"),
    exit 1. The mark is the file's, not the event's: the records are the unmarked log's.
    A mark inside the log is still an event's bytes, and that line is rejected."""
    marked = b"\xef\xbb\xbf" + log_bytes()
    path = tmp_path / "windows.jsonl"
    path.write_bytes(_zstd(marked) if compressed else marked)
    assert examine(path).plain_file is False
    ran = pitwatch("adjudicate", str(path), "--engine", engine)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == plain_records(engine)
    lines = log_bytes().splitlines(keepends=True)
    inside = tmp_path / "inside.jsonl"
    inside.write_bytes(b"".join([*lines[:5], b"\xef\xbb\xbf" + lines[5], *lines[6:]]))
    rejected = pitwatch("adjudicate", str(inside), "--engine", engine)
    assert rejected.code == 1
    assert "rejected line 6: malformed JSON" in rejected.stderr


def test_a_pipe_that_gives_its_first_bytes_one_at_a_time_is_still_known(tmp_path: Path) -> None:
    """The codec is told from the first six bytes, however the pipe hands them over."""
    packed = gzip.compress(log_bytes())
    head = tmp_path / "head"
    rest = tmp_path / "rest"
    head.write_bytes(packed[:1])
    rest.write_bytes(packed[1:])
    command = (f"(cat {head}; sleep 1; cat {rest}) | {sys.executable} -m services.cli "
               "adjudicate -")
    done = subprocess.run(["sh", "-c", command], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == plain_records("native")


def _day_cut(data: bytes) -> tuple[bytes, bytes, int, int]:
    """The log cut three events into its 26th hand (as midnight cuts a day's file): the
    two days, how many hands end in the first, and how many are open at its end."""
    lines = data.splitlines(keepends=True)
    started = [n for n, line in enumerate(lines) if b'"hand_started"' in line]
    day_one, day_two = lines[:started[25] + 3], lines[started[25] + 3:]
    ended = sum(b'"hand_ended"' in line for line in day_one)
    return b"".join(day_one), b"".join(day_two), ended, 26 - ended


def test_a_tables_days_given_together_with_leave_open_book_each_hand_once(
        tmp_path: Path) -> None:
    """Day one with ``--leave-open``: its last hands at the other table are left, not
    booked as incomplete; days one and two together then give every hand's record, as the
    whole log does, and book only the new ones. Without the flag, the hands across the
    cut were booked as rejected and their complete records refused as changed re-posts
    (critical LEDGER_CONFLICT): the reason for the flag."""
    day_one, day_two, ended, still_open = _day_cut(log_bytes())
    assert still_open >= 1
    first, both = tmp_path / "d1.jsonl.gz", tmp_path / "d2.jsonl.gz"
    first.write_bytes(gzip.compress(day_one))
    both.write_bytes(gzip.compress(day_one) + gzip.compress(day_two))
    whole = plain_records("native").splitlines(keepends=True)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    one = pitwatch("adjudicate", str(first), "--leave-open", "--ledger", url, columns=300)
    assert one.code == 0, one.stderr
    assert one.stdout == "".join(whole[:ended])
    assert f"{still_open} hand(s) still open at the end of the log" in one.stderr
    together = pitwatch("adjudicate", str(both), "--leave-open", "--ledger", url,
                        columns=300)
    assert together.code == 0, together.stderr
    assert together.stdout == "".join(whole)
    assert f"{ended} duplicate, {len(whole) - ended} posted" in together.stderr
    assert "LEDGER_CONFLICT" not in together.stderr
    closed = f"sqlite:///{tmp_path / 'closed.sqlite'}"
    pitwatch("adjudicate", str(first), "--ledger", closed)
    refused = pitwatch("adjudicate", str(both), "--ledger", closed, columns=300)
    assert "re-posted with different content" in refused.stderr


def test_surveil_leaves_open_what_a_log_that_goes_on_ends_inside(tmp_path: Path) -> None:
    """The first day's open hand is counted, not closed as rejected (exit 0, not 1); the
    alerts are those of the run without the flag."""
    day_one, _, _, still_open = _day_cut(log_bytes())
    path = tmp_path / "d1.jsonl"
    path.write_bytes(day_one)
    closed = pitwatch("surveil", str(path), columns=300)
    left = pitwatch("surveil", str(path), "--leave-open", columns=300)
    assert (closed.code, left.code) == (1, 0), left.stderr
    assert left.stdout == closed.stdout
    assert f"{still_open} hand(s) still open at the end of the log" in left.stderr
    assert "still open" not in closed.stderr


def test_ledger_post_of_an_event_log_is_one_line_and_makes_no_database(
        tmp_path: Path) -> None:
    """A table's event log given to ``ledger post`` printed "not an adjudication record"
    for every line and made an empty ledger (QA): one line naming what the file holds and
    the command that books it, exit 2, no database; compressed too."""
    for name, data in (("day.jsonl", log_bytes()), ("day.jsonl.gz", gzip.compress(log_bytes()))):
        path = tmp_path / name
        path.write_bytes(data)
        db = tmp_path / "l.sqlite"
        ran = pitwatch("ledger", "post", str(path), "--db", f"sqlite:///{db}")
        assert ran.code == 2
        assert len(ran.error_lines) == 1, ran.stderr
        assert (f"{path} holds a table's events (its first line is a table_configured event), "
                "not adjudication records: `pitwatch adjudicate FILE --ledger URL`"
                ) in ran.error_lines[0]
        assert not db.exists()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_plain_first_line_beginning_like_bzip2_is_one_rejected_line(
        engine: str, tmp_path: Path) -> None:
    """QA: a plain log whose first line began "BZh9" was refused whole as damaged bzip2
    (exit 2, 0 hands). bzip2 is known by its whole magic ("BZh", the block size digit and
    the first block's or the end's magic), so this log is plain: the line is rejected,
    every hand still judged, exit 1. An empty bzip2 stream and a real one are still
    bzip2, and "BZh9" alone with nothing after it is plain."""
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"BZh9 this is not bzip\n" + log_bytes())
    assert examine(path).compression is None
    ran = pitwatch("adjudicate", str(path), "--engine", engine)
    assert ran.code == 1, ran.stderr
    assert ran.stdout == plain_records(engine)
    assert "line 1: malformed JSON" in " ".join(ran.stderr.split())
    for data in (b"", b"x"):
        path.write_bytes(bz2.compress(data))
        assert examine(path).compression == "bzip2"
    path.write_bytes(b"BZh9")
    assert examine(path).compression is None

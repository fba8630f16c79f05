"""Opening an event log a user names: JSONL as written, or kept compressed (gzip, zstd,
xz, bzip2), from a file, a pipe or a FIFO, read once.

Why: the history a casino keeps for years is kept compressed, and a log is often fed
through a pipe (``pitwatch adjudicate <(zcat day.jsonl.gz)``). ``pitwatch adjudicate
day.jsonl.gz`` used to read the compressed bytes as lines: 1,627 lines of a 2 MB log
rejected as malformed JSON, exit 1, and not a word that the file was compressed. And on a
terminal the progress bar counted a log's lines first by reading it through: a pipe read
that way is empty afterwards, so the run adjudicated 0 hands and exited 0.

So a log is recognised by its first bytes (the codecs' own magic numbers, never the
file's name), decompressed as it is read, and read exactly once unless it is a regular
file (``LogSource.rereadable``: only then are its lines counted beforehand, and only a
regular uncompressed file is handed to the native core's own reader by its path).

A compressed stream that is cut short or damaged is an error naming the file (an
``OSError``, which the command line prints as one line and exits 2 on), never a quiet
end of input: a log cut short must not read as a shorter day. Concatenated members or
frames (``cat a.gz b.gz``, ``pzstd``) are one log, as their tools read them. The codecs'
own libraries decompress (zlib, lzma, bz2, python-zstandard); this module only follows
members to their end markers (``_Frames``), one loop for all four, because zstd's
readers end quietly at a truncated frame and the standard library's file objects each
fail in their own way (``EOFError``, ``LZMAError``, ``BadGzipFile``). Each step gives a
bounded amount of output (``OUTPUT_LIMIT``; zstd: what ``ZSTD_SLICE`` bytes of input make),
so a log that decompresses to far more than it holds is read in bounded memory.
"""

from __future__ import annotations

import bz2
import errno
import io
import lzma
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

# The codecs' magic numbers (RFC 1952, RFC 8878, the xz and bzip2 file formats), whole:
# gzip's with its only compression method (8, deflate); bzip2's "BZh" with its block size
# digit and the magic of the stream's first block, or of its end when it holds none. "BZh"
# alone is three letters a plain log's first line may start with (QA: a first line
# "BZh9 this is not bzip" had the whole log refused as damaged bzip2, not that one line
# rejected).
_BZIP2_BLOCK = b"\x31\x41\x59\x26\x53\x59"
_BZIP2_END = b"\x17\x72\x45\x38\x50\x90"
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b\x08", "gzip"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\xfd7zXZ\x00", "xz"),
    *((b"BZh" + size + after, "bzip2")
      for size in (b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9")
      for after in (_BZIP2_BLOCK, _BZIP2_END)),
)
SNIFF = max(len(magic) for magic, _ in MAGIC)

READ_SIZE = 1 << 20  # compressed bytes read from the file at a time
OUTPUT_LIMIT = 4 << 20  # decompressed bytes one step gives at most (gzip, xz, bzip2)
# zstd's library cannot bound one call's output, so it is given its input in slices: a
# zstd block of 128 kB can be written in 4 bytes, so 512 bytes give at most 16 MB. The
# slices cost nothing to speak of (a 246 MB log: 0.17 s whole, 0.19 s in 1 kB slices).
ZSTD_SLICE = 512


class Member(Protocol):
    """One member (frame, stream) of a compressed log being decompressed, a bounded step
    at a time: ``some(data)`` takes more input (or none, when it is not ``hungry``) and
    returns what it decompressed; at ``eof`` the bytes after the member are
    ``unused_data``."""

    @property
    def hungry(self) -> bool: ...

    @property
    def eof(self) -> bool: ...

    @property
    def unused_data(self) -> bytes: ...

    def some(self, data: bytes) -> bytes: ...


class _Gzip:
    """zlib, which holds back the input it did not get to (``unconsumed_tail``)."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # a gzip member, CRC checked
        self._tail = b""
        self._full = False  # the last step gave ``OUTPUT_LIMIT``: zlib may hold more

    @property
    def hungry(self) -> bool:
        return not self._tail and not self._full

    @property
    def eof(self) -> bool:
        return self._d.eof

    @property
    def unused_data(self) -> bytes:
        return self._d.unused_data + self._tail

    def some(self, data: bytes) -> bytes:
        out = self._d.decompress(self._tail + data, OUTPUT_LIMIT)
        self._tail = self._d.unconsumed_tail
        self._full = len(out) == OUTPUT_LIMIT
        return out


class _Buffering:
    """lzma's and bz2's decompressors, which keep the input they did not get to and say
    when they need more (``needs_input``)."""

    def __init__(self, decompressor: lzma.LZMADecompressor | bz2.BZ2Decompressor) -> None:
        self._d = decompressor

    @property
    def hungry(self) -> bool:
        return self._d.needs_input

    @property
    def eof(self) -> bool:
        return self._d.eof

    @property
    def unused_data(self) -> bytes:
        return self._d.unused_data

    def some(self, data: bytes) -> bytes:
        return self._d.decompress(data, OUTPUT_LIMIT)


class _Zstd:
    """python-zstandard's decompression object, given its input ``ZSTD_SLICE`` bytes at a
    time (it returns all it can make of what it is given)."""

    def __init__(self) -> None:
        import zstandard  # here: a plain log's command does not pay for importing it

        self._d = zstandard.ZstdDecompressor().decompressobj()
        self._held = b""  # input taken, given on from ``_at``
        self._at = 0

    @property
    def hungry(self) -> bool:
        return self._at >= len(self._held)

    @property
    def eof(self) -> bool:
        return bool(self._d.eof)

    @property
    def unused_data(self) -> bytes:
        return bytes(self._d.unused_data) + self._held[self._at:]

    def some(self, data: bytes) -> bytes:
        if data:
            self._held, self._at = self._held[self._at:] + data, 0
        piece = self._held[self._at:self._at + ZSTD_SLICE]
        self._at += len(piece)
        return bytes(self._d.decompress(piece))


MEMBERS: dict[str, Callable[[], Member]] = {
    "gzip": _Gzip,
    "zstd": _Zstd,
    "xz": lambda: _Buffering(lzma.LZMADecompressor()),
    "bzip2": lambda: _Buffering(bz2.BZ2Decompressor()),
}


def _damaged_errors(compression: str) -> tuple[type[Exception], ...]:
    """What the codec's library raises on damaged data."""
    errors: tuple[type[Exception], ...] = (zlib.error, lzma.LZMAError, OSError, EOFError,
                                           ValueError)
    if compression == "zstd":
        import zstandard

        errors += (zstandard.ZstdError,)
    return errors


@dataclass(frozen=True)
class LogSource:
    """What a named log is: its compression (None: JSONL as written), whether it can be
    read twice (a regular file) or only once (a pipe, a FIFO, a terminal), and whether it
    starts with a UTF-8 byte order mark."""

    path: Path
    compression: str | None
    rereadable: bool
    marked: bool = False

    @property
    def plain_file(self) -> bool:
        """A regular file of JSONL as written, unmarked: its lines can be counted
        beforehand and the native core can read it by its path."""
        return self.rereadable and self.compression is None and not self.marked


# Some Windows tools begin a UTF-8 file with a byte order mark. It belongs to the file,
# not to its first event (whose bytes, and hash, the table published without it), so a
# log's leading mark is passed over (RFC 8259 section 8.1 lets a reader ignore it); a mark
# anywhere else is inside an event, and that line is rejected as malformed.
BOM = b"\xef\xbb\xbf"


def refuse_wide_text(head: bytes, path: Path) -> None:
    """A log saved as UTF-16 or UTF-32 (a byte order mark of either, or a NUL among its
    first two bytes, which no UTF-8 JSON line has) is refused whole, in one line: it was
    read as thousands of lines "malformed JSON", exit 1 (QA: ``iconv -t UTF-16``)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")) or \
            b"\x00" in head[:2]:
        raise OSError(errno.EILSEQ, "a log in UTF-16 or UTF-32 text, where pitwatch reads "
                                    "UTF-8 JSON lines: convert it (iconv -f UTF-16 -t UTF-8) "
                                    "and run the command again", os.fspath(path))


def compression_of(head: bytes) -> str | None:
    """The codec whose magic number ``head`` (a file's first bytes) starts with."""
    return next((name for magic, name in MAGIC if head.startswith(magic)), None)


STDIN = Path("/dev/stdin")


def named(path: Path) -> Path:
    """The file ``path`` names: ``-`` is standard input, as for most Unix tools."""
    return STDIN if str(path) == "-" else path


def examine(path: Path) -> LogSource:
    """What ``path`` is, without consuming it: a regular file's first bytes are read to
    know its compression; a pipe's cannot be read twice, so it counts as compressed-or-not
    only once it is opened (``open_log`` looks then), here as unknown (None)."""
    path = named(path)
    rereadable = stat.S_ISREG(os.stat(path).st_mode)
    if not rereadable:
        return LogSource(path, None, False)
    with io.FileIO(os.fspath(path), "rb") as fh:
        head = _head(fh, path)
    refuse_wide_text(head, path)
    return LogSource(path, compression_of(head), True, head.startswith(BOM))


def open_log(path: Path) -> io.BufferedReader[Any]:
    """The log at ``path`` as a binary stream of its JSONL bytes, decompressed when its
    first bytes say it is compressed, its leading byte order mark passed over. The caller
    closes it. A read of a damaged or truncated compressed stream raises ``OSError``
    naming the file."""
    path = named(path)
    raw = io.FileIO(os.fspath(path), "rb")
    try:
        head = _head(raw, path)
    except OSError:
        raw.close()
        raise
    try:
        refuse_wide_text(head, path)
    except OSError:
        raw.close()
        raise
    compression = compression_of(head)
    stream = io.BufferedReader(
        _Frames(raw, compression, path, head) if compression is not None
        else _Prefixed(head, raw), buffer_size=READ_SIZE)
    if stream.peek(len(BOM)).startswith(BOM):
        stream.read(len(BOM))
    return stream


def _head(raw: io.FileIO, path: Path) -> bytes:
    """The first ``SNIFF`` bytes (fewer at the end): a pipe may give them a few at a time.
    A read error names the file (a read's own error names none)."""
    head = b""
    try:
        while len(head) < SNIFF and (more := raw.read(SNIFF - len(head))):
            head += more
    except OSError as exc:
        raise _named(exc, path) from None
    return head


def _named(exc: OSError, path: Path) -> OSError:
    """A read's error with the file's name (a read's own names none, and the command line
    prints "reason: file" in one line, as for a file that cannot be opened)."""
    if exc.filename is None and exc.errno is not None:
        return OSError(exc.errno, exc.strerror, os.fspath(path))
    return exc


class _Prefixed(io.RawIOBase):
    """A file read from its start again: the bytes already taken from it, then the rest."""

    def __init__(self, head: bytes, rest: io.FileIO) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        if not self._head:
            return self._rest.readinto(buffer)
        size = min(len(buffer), len(self._head))
        buffer[:size] = self._head[:size]
        self._head = self._head[size:]
        return size

    def close(self) -> None:
        self._rest.close()
        super().close()


def read_chunks(stream: io.BufferedReader[Any], size: int, path: Path) -> Iterator[bytes]:
    """``stream``'s bytes (the log at ``path``, ``open_log``) in pieces of about ``size``
    bytes. What was read before a damaged stream's error is yielded before it is raised:
    the hands read whole are adjudicated, then the run stops on the error (a whole
    ``read(size)`` would have dropped them). The error names the file. So does a log
    whose last line is cut (``cut_last_line``): the lines before it are yielded, that
    line is not."""
    pieces: list[bytes] = []
    held = 0
    tail = _Tail()
    while True:
        try:
            piece = stream.read1(size - held)
        except OSError as exc:
            if pieces:
                yield b"".join(pieces)
            raise _named(exc, path) from None
        if not piece:
            break
        tail.add(piece)
        pieces.append(piece)
        held += len(piece)
        if held >= size:
            yield b"".join(pieces)
            pieces, held = [], 0
    cut = cut_last_line(tail.bytes, tail.total, tail.long)
    if cut is not None:
        last = b"".join(pieces)
        if b"\n" in last:
            yield last[:last.rindex(b"\n") + 1]
        raise OSError(f"{cut}: {os.fspath(path)}")
    if pieces:
        yield b"".join(pieces)


class _Tail:
    """The bytes after the last newline read so far (at most ``_TAIL_LIMIT``), and how
    many bytes were read in all."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.held = 0
        self.long = False
        self.total = 0

    def add(self, piece: bytes) -> None:
        self.total += len(piece)
        newline = piece.rfind(b"\n")
        if newline >= 0:
            self.parts, self.held, self.long = [], 0, False
            piece = piece[newline + 1:]
        if self.long or not piece:
            return
        self.parts.append(piece)
        self.held += len(piece)
        if self.held > _TAIL_LIMIT:
            self.parts, self.held, self.long = [], 0, True

    @property
    def bytes(self) -> bytes:
        return b"".join(self.parts)


_TAIL_LIMIT = 2 << 20  # past a record's limit (1 MB): such a last line is no whole record
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def cut_last_line(tail: bytes, total: int, long: bool = False) -> str | None:
    """Why a log's last line, ``tail`` (the bytes after its last newline; ``long``: more
    than ``_TAIL_LIMIT`` of them), reads as cut short, or None. A last line with no
    newline is common (an editor, ``printf``) and taken when it is a whole JSON object:
    its braces and brackets close, outside its strings, at its last byte. Otherwise it is
    a log cut in the middle of a line, or one still being written: read as a line, it
    was a malformed record, and end of input then closed the hands open at it as
    incomplete and booked them, so that the whole log, read later, was refused as
    conflicting with them (QA: a plain log cut mid-line lost five hands' chips for
    good). The native core's reader applies the same test (``logfile.rs``)."""
    stripped = tail.strip(b" \t\r")
    if not stripped and not long:
        return None
    if not long:
        bare = _STRING.sub(b"", stripped)
        opened = bare.count(b"{") + bare.count(b"[")
        if (bare.startswith(b"{") and bare.endswith(b"}") and b'"' not in bare
                and opened == bare.count(b"}") + bare.count(b"]")):
            return None
    return (f"the log ends at byte {total} in the middle of a line (its last line has no "
            "newline and is no whole JSON record): it was cut short, or is still being "
            "written; the lines before it were read and the hands it leaves open stay "
            "open: run again on the whole log once it is complete")


class _Frames(io.RawIOBase):
    """A compressed stream decompressed a bounded step at a time, member after member
    (frame after frame), every one checked to its end marker."""

    def __init__(self, source: io.FileIO, compression: str, path: Path, head: bytes) -> None:
        self._source = source
        self._compression = compression
        self._new = MEMBERS[compression]
        self._errors = _damaged_errors(compression)
        self._path = path
        self._member = self._new()
        self._started = False  # the current member has taken input
        self._input = head  # compressed bytes read and not yet given to a member
        self._output = b""  # decompressed bytes, returned from ``_taken`` on
        self._taken = 0
        self._at = 0  # compressed bytes given to members
        self._ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        while self._taken == len(self._output) and not self._ended:
            self._step()
        size = min(len(buffer), len(self._output) - self._taken)
        buffer[:size] = memoryview(self._output)[self._taken:self._taken + size]
        self._taken += size
        return size

    def close(self) -> None:
        self._source.close()
        super().close()

    def _step(self) -> None:
        """One bounded step of the member; the next member starts at a member's end."""
        data = b""
        if self._member.hungry:
            if not self._input:
                self._input = self._source.read(READ_SIZE)
                if not self._input:
                    self._end_of_input()
                    return
            data, self._input = self._input, b""
            self._at += len(data)
            self._started = True
        try:
            self._output, self._taken = self._member.some(data), 0
        except self._errors as exc:
            raise self._damaged(f"is damaged ({exc}) in its first {self._at:,} bytes") from None
        if self._member.eof:
            rest = self._member.unused_data
            self._at -= len(rest)
            self._input = rest + self._input
            self._member = self._new()
            self._started = False

    def _end_of_input(self) -> None:
        if self._started:
            raise self._damaged(f"ends at byte {self._at:,} before its end marker (the file "
                                "is cut short?)")
        self._ended = True

    def _damaged(self, what: str) -> OSError:
        """The error a damaged log stops the run with: what was found and what to do (the
        lines before it have been read; a run writes what they gave)."""
        return OSError(errno.EIO, f"{self._compression} data {what}; the lines before it "
                                  "were read: take the rest from a whole copy of the "
                                  "log", os.fspath(self._path))

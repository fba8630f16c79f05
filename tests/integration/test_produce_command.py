"""``pitwatch produce`` and the services against the real broker: what they cannot
publish or read, they say.

A topic that does not exist ended in a traceback after aiokafka had logged "not found in
cluster metadata" hundreds of times; a line larger than the topic takes
(``MessageSizeTooLargeError``) ended the run in a traceback part way through the file,
with no account of what had been published. The ledger and archive services ended in a
traceback when a topic they read did not exist, the surveillance service in a
``RuntimeError``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from services.pipeline.producer import MAX_PUBLISHED_BYTES
from services.pipeline.topics import StreamSettings, create_topics, delete_topics
from tests.integration.conftest import unique_name
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pipeline(kafka_bootstrap: str) -> Iterator[StreamSettings]:
    """A pipeline's topics under a prefix of their own, deleted afterwards."""
    prefix = unique_name("produce") + "-"
    settings = StreamSettings(bootstrap=kafka_bootstrap, topic_prefix=prefix,
                              app_id=prefix + "adjudicator", partitions=1)
    asyncio.run(create_topics(settings))
    yield settings
    asyncio.run(delete_topics(settings))


def test_a_topic_that_does_not_exist(kafka_bootstrap: str, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(orjson.dumps({"v": 1, "table_id": "T1"}) + b"\n")
    prefix = unique_name("nosuch") + "-"
    ran = pitwatch("produce", str(log), "--bootstrap", kafka_bootstrap, "--topic-prefix", prefix)
    assert_one_line_usage_error(ran, f"topic {prefix}table-events does not exist at "
                                     f"{kafka_bootstrap}", "pitwatch topics create")


def _one_too_large(pipeline: StreamSettings, tmp_path: Path, line: bytes) -> str:
    """``produce`` of a log whose second of three lines is ``line``: lines 1 and 3 are
    published, exit 1, no traceback; what it said (stderr)."""
    small = orjson.dumps({"v": 1, "table_id": "T1"})
    log = tmp_path / "log.jsonl"
    log.write_bytes(small + b"\n" + line + b"\n" + small + b"\n")
    ran = pitwatch("produce", str(log), "--bootstrap", pipeline.bootstrap, "--topic-prefix",
                   pipeline.topic_prefix, columns=400)
    assert ran.code == 1, ran.stderr
    assert f"published 2 record(s) to {pipeline.topics.events}" in ran.stderr
    assert "Traceback" not in ran.stderr
    return ran.stderr


def test_a_line_larger_than_the_topic_takes(pipeline: StreamSettings, tmp_path: Path) -> None:
    """Line 2 (3 MB) is named with its size."""
    big = orjson.dumps({"v": 1, "table_id": "T1", "pad": "x" * 3_000_000})
    said = _one_too_large(pipeline, tmp_path, big)
    assert (f"not published: 1 line(s) over {MAX_PUBLISHED_BYTES:,} bytes with their key "
            f"(table_id), more than the topic takes: line 2 ({len(big) + 2:,} bytes)") in said


def test_a_record_whose_key_makes_it_too_large(pipeline: StreamSettings,
                                               tmp_path: Path) -> None:
    """A line under the limit whose ``table_id`` (the key) doubles the record over it:
    the broker refused it with a traceback and no count of what was published (QA,
    2026-12-06). It is named with its size, the rest published."""
    keyed = orjson.dumps({"v": 1, "table_id": "K" * (MAX_PUBLISHED_BYTES // 2 + 10)})
    assert len(keyed) < MAX_PUBLISHED_BYTES < 2 * len(keyed)
    assert "line 2 (" in _one_too_large(pipeline, tmp_path, keyed)


@pytest.mark.parametrize("service", [
    ["ledger", "--db", "sqlite:///{tmp}/ledger.sqlite"],
    ["archive", "--db", "sqlite:///{tmp}/archive.sqlite"],
    ["surveillance"],
])
def test_a_service_whose_topics_do_not_exist(service: list[str], kafka_bootstrap: str,
                                             tmp_path: Path) -> None:
    prefix = unique_name("nosuch") + "-"
    args = [a.format(tmp=tmp_path) for a in service]
    ran = subprocess.run(
        [sys.executable, "-c", "from services.cli import main; main()", "serve", *args,
         "--bootstrap", kafka_bootstrap, "--topic-prefix", prefix],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 2, ran.stderr
    assert "Traceback" not in ran.stderr and "Unclosed" not in ran.stderr, ran.stderr
    [error] = [line for line in ran.stderr.splitlines() if line.startswith("error: ")]
    assert "does not exist at" in error and "pitwatch topics create" in error, error


def test_a_compressed_log_is_published_as_its_lines(pipeline: StreamSettings,
                                                    tmp_path: Path) -> None:
    """``produce day.jsonl.xz`` publishes the log's events, not its compressed bytes
    (before: every line of compressed bytes went out, keyed by nothing)."""
    import lzma

    lines = [orjson.dumps({"v": 1, "table_id": f"T{n % 3}", "n": n}) for n in range(40)]
    log = tmp_path / "day.jsonl.xz"
    log.write_bytes(lzma.compress(b"\n".join(lines) + b"\n"))
    ran = pitwatch("produce", str(log), "--bootstrap", pipeline.bootstrap, "--topic-prefix",
                   pipeline.topic_prefix, columns=400)
    assert ran.code == 0, ran.stderr
    assert f"published 40 record(s) to {pipeline.topics.events}" in ran.stderr

    got = asyncio.run(published(pipeline, 40))
    assert sorted(value for _, value in got if value is not None) == sorted(lines)
    assert {key for key, _ in got} == {b"T0", b"T1", b"T2"}


def test_a_compressed_log_cut_short_says_what_was_published(pipeline: StreamSettings,
                                                            tmp_path: Path) -> None:
    """A gzip log cut in the middle stopped ``produce`` with the file's damage but no word
    of the records already on the topic: the one line says how many, and exactly that
    many are there (every one a whole line of the log, none past the cut)."""
    import gzip
    import re
    import secrets
    import zlib

    lines = [orjson.dumps({"v": 1, "table_id": f"T{n % 3}", "n": n,
                           "noise": secrets.token_hex(200)}) for n in range(3000)]
    whole = gzip.compress(b"\n".join(lines) + b"\n")
    cut = whole[: len(whole) // 2]
    log = tmp_path / "day.jsonl.gz"
    log.write_bytes(cut)
    ran = pitwatch("produce", str(log), "--bootstrap", pipeline.bootstrap, "--topic-prefix",
                   pipeline.topic_prefix, columns=400)
    assert_one_line_usage_error(ran, "gzip data ends at byte", "before its end marker",
                                f"record(s) before it were published to {pipeline.topics.events}")
    said = re.search(r"; ([0-9,]+) record\(s\) before it were published", ran.stderr)
    assert said is not None
    count = int(said.group(1).replace(",", ""))
    readable = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(cut)
    whole_lines = readable.count(b"\n")  # the lines the cut file holds whole
    assert 0 < count <= whole_lines < len(lines)
    got = asyncio.run(published(pipeline, len(lines)))
    assert sorted(value for _, value in got if value is not None) == sorted(lines[:count])


async def published(pipeline: StreamSettings, at_most: int
                    ) -> list[tuple[bytes | None, bytes | None]]:
    """The records on the pipeline's ``table-events`` (read until none come for 2 s)."""
    from aiokafka import AIOKafkaConsumer

    consumer = AIOKafkaConsumer(pipeline.topics.events, bootstrap_servers=pipeline.bootstrap,
                                auto_offset_reset="earliest", enable_auto_commit=False)
    await consumer.start()
    try:
        got: list[tuple[bytes | None, bytes | None]] = []
        while len(got) < at_most:
            batches = await consumer.getmany(timeout_ms=2_000)
            if not batches:
                break
            got += [(m.key, m.value) for ms in batches.values() for m in ms]
        return got
    finally:
        await consumer.stop()

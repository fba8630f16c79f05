"""The partition merge: time order whatever the timestamp precision, and no release
while a partition that may still hold an earlier record has nothing buffered."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.surveillance.merge import PartitionMerge, order_key


def raw(ts: str, table: str = "T1") -> bytes:
    return b'{"ts": "%s", "table_id": "%s", "seq": 1}' % (ts.encode(), table.encode())


def test_order_key_is_time_order_across_precisions() -> None:
    """18:00:00.07Z is 70 ms, after 18:00:00.069Z (69 ms) although it sorts before it as
    text; "+00:00" is the same instant as "Z"."""
    later = order_key(raw("2026-01-05T18:00:00.07Z"))
    earlier = order_key(raw("2026-01-05T18:00:00.069+00:00"))
    whole = order_key(raw("2026-01-05T18:00:00Z"))
    assert later is not None and earlier is not None and whole is not None
    assert whole < earlier < later
    assert order_key(raw("2026-01-05T18:00:00.070Z")) == later


def test_records_that_are_not_events_have_no_key() -> None:
    assert order_key(b"not json") is None
    assert order_key(b'{"table_id": "T1"}') is None
    assert order_key(raw("2026-01-05 18:00:00")) is None  # not the contract's format
    assert order_key(raw("2026-01-05T18:00:00Z", table="")) is None


def test_release_waits_for_an_empty_partition_that_is_not_read_to_end() -> None:
    """Partition 1 is empty: its next record could be earlier than partition 0's head,
    so nothing goes until it has a record or is read to its end."""
    merge: PartitionMerge[str] = PartitionMerge([0, 1])
    merge.push(0, ("2026-01-05T18:00:05", "000000000", "T1"), "a")
    assert list(merge.release(read_to_end=set())) == []
    merge.push(1, ("2026-01-05T18:00:01", "000000000", "T2"), "b")
    assert list(merge.release(read_to_end=set())) == ["b"]  # then 1 is empty again
    assert list(merge.release(read_to_end={1})) == ["a"]


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 50)), max_size=60))
def test_a_complete_read_releases_the_stable_merge(records: list[tuple[int, int]]) -> None:
    """With every partition read to its end, the release is the stable merge of the
    partitions by key (each partition's own order kept), i.e. ``sorted`` by key, ties
    within a partition in arrival order."""
    merge: PartitionMerge[tuple[int, int, int]] = PartitionMerge(range(3))
    pushed: list[tuple[int, int, int]] = []
    per_partition: dict[int, list[int]] = {0: [], 1: [], 2: []}
    for index, (partition, second) in enumerate(records):
        # keys rise within a partition, as a partition's events do in time
        second = max([second, *per_partition[partition]])
        per_partition[partition].append(second)
        key = (f"2026-01-05T18:00:{second:02d}", "000000000", f"T{partition}")
        merge.push(partition, key, (second, partition, index))
        pushed.append((second, partition, index))
    assert list(merge.release(read_to_end={0, 1, 2})) == sorted(pushed)

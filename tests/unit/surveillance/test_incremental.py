"""The service's path (partitions merged by time, then the shared ``SurveillanceStep``)
gives exactly the alerts of ``surveil_lines`` on the file, however the records arrive.

The log: 3 simulated HCF tables x 60 hands, table T001's dealers overpaying one player
(SURV-2 alerts), with lowered SURV-8 floors so the periodic review (every 40 hands)
raises alerts too. The table events are split over 3 partitions by table, as Kafka
would hold them; hypothesis chooses how the fetches interleave (which partition, how
many records per fetch) and where the service checks what it can release. The alerts,
their bytes and their order must equal the command's.
"""

from __future__ import annotations

import zlib
from functools import cache

import msgspec
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import iter_lines
from services.surveillance.alert_id import alert_id
from services.surveillance.merge import PartitionMerge, order_key
from services.surveillance.profile import SurveillanceConfig
from services.surveillance.run import SurveillanceStep, surveil_lines
from tests.profiles import PROFILES
from tests.unit.surveillance.scenario import config
from tests.unit.surveillance.sweetheart import sweethearting_log

PARTITIONS = 3
REVIEW_EVERY = 40


@cache
def scenario() -> tuple[list[bytes], SurveillanceConfig]:
    lines = sweethearting_log(3, 60, seed=5)
    thresholds = config(sweethearting={"min_count": 3, "p_value": 0.01},
                        drift={"min_hands": 20, "min_count": 2, "p_value": 0.5})
    return lines, thresholds


@cache
def reference() -> list[bytes]:
    lines, thresholds = scenario()
    run = surveil_lines(iter_lines(lines), thresholds, PROFILES, review_every=REVIEW_EVERY)
    return [msgspec.json.encode(a) for a in run.alerts]


def partitioned(lines: list[bytes]) -> list[list[bytes]]:
    """Each table's records on one partition, in log order (Kafka's guarantee)."""
    parts: list[list[bytes]] = [[] for _ in range(PARTITIONS)]
    for raw in lines:
        table = orjson.loads(raw)["table_id"].encode()
        parts[zlib.crc32(table) % PARTITIONS].append(raw)
    return parts


def test_the_scenario_raises_per_hand_and_review_alerts() -> None:
    """Otherwise the property below would compare empty lists. Ids are unique: the gate
    fires an instance once per count."""
    rules = [msgspec.json.decode(a)["rule"] for a in reference()]
    assert rules.count("SURV-2") >= 3 and rules.count("SURV-8") >= 2
    lines, thresholds = scenario()
    run = surveil_lines(iter_lines(lines), thresholds, PROFILES, review_every=REVIEW_EVERY)
    ids = [alert_id(a) for a in run.alerts]
    assert len(set(ids)) == len(ids)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.integers(0, PARTITIONS - 1), st.integers(1, 3000)),
                min_size=1, max_size=40))
def test_merged_stream_gives_the_commands_alerts(fetches: list[tuple[int, int]]) -> None:
    """Records arrive partition by partition in the chunks ``fetches`` says (then the
    rest, round-robin); after each fetch everything releasable goes through the step.
    A partition counts as read to its end once all of it has arrived."""
    lines, thresholds = scenario()
    parts = partitioned(lines)
    taken = [0] * PARTITIONS
    merge: PartitionMerge[bytes] = PartitionMerge(range(PARTITIONS))
    step = SurveillanceStep(thresholds, PROFILES, review_every=REVIEW_EVERY)
    alerts: list[bytes] = []

    def fetch(partition: int, count: int) -> None:
        chunk = parts[partition][taken[partition]:taken[partition] + count]
        taken[partition] += len(chunk)
        for raw in chunk:
            key = order_key(raw)
            assert key is not None
            merge.push(partition, key, raw)
        ended = {p for p in range(PARTITIONS) if taken[p] == len(parts[p])}
        for raw in merge.release(ended):
            alerts.extend(msgspec.json.encode(a) for a in step.feed(raw, "test").alerts)

    for partition, count in fetches:
        fetch(partition, count)
    while any(taken[p] < len(parts[p]) for p in range(PARTITIONS)):
        for partition in range(PARTITIONS):
            fetch(partition, 997)
    fetch(0, 0)
    alerts += [msgspec.json.encode(a) for a in step.finish().alerts]
    assert alerts == reference()
